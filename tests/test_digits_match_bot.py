"""The bot shop player, whole bot-against-bot matches, their JSON, and ``python -m bot.digits
match``."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

import pytest

from bot.digits.__main__ import main
from bot.digits.baseline import BotPlayer, arrange, play_bot_match
from bot.digits.match import GHOST, Match
from bot.digits.shop import MatchSettings
from bot.digits.slate import Piece, Slate
from bot.domain import DomainError


def cells(slate: Slate) -> dict[int, str]:
    return {c: f"{p.key} N{p.level}" for c, p in slate.items()}


# -- placement -------------------------------------------------------------------------------------

def test_supports_stand_behind_the_front_digit_they_help_most():
    s = arrange(Slate.of(c1="Double", c2="Zero", c3="Odd N2", c4="Power"))
    front = {c: s[c].key for c in (1, 2, 3, 4) if s[c]}
    assert sorted(front.values()) == ["Odd", "Zero"]
    odd = next(c for c, k in front.items() if k == "Odd")
    zero = next(c for c, k in front.items() if k == "Zero")
    assert s[odd + 4].key == "Power"  # Odd N2: 4 ATK → 9; a Zero would stay at 0
    assert s[zero + 4].key == "Double"


def test_a_support_never_waits_behind_an_empty_cell():
    s = arrange(Slate.of(c5="Plus", c6="Double", c7="Odd"))
    for c in (5, 6, 7, 8):
        if s[c] is not None:
            assert s[c - 4] is not None
    assert len(s) == 3


def test_reach_digits_stand_in_the_back():
    s = arrange(Slate.of(c1="Pi", c2="Sigma", c3="Odd", c4="Even"))
    assert {s[c].key for c in (5, 6, 7, 8) if s[c]} == {"Pi", "Sigma"}


def test_carry_stands_in_front_of_the_strongest_reserve():
    s = arrange(Slate.of(c1="Carry", c2="Square N2", c3="Zero N2", c4="Modulo", c5="Even",
                         c6="Odd N2"))
    carry = next(c for c in (1, 2, 3, 4) if s[c] and s[c].key == "Carry")
    assert s[carry + 4] == Piece("Odd", 2)
    assert {s[c].key for c in (1, 2, 3, 4)} == {"Carry", "Square", "Zero", "Modulo"}


@pytest.mark.parametrize("minus_in_front", [True, False])
def test_minus_faces_the_strongest_opponent_of_last_round_from_either_row(minus_in_front):
    mine = Slate.of(c1="Square", c2="Minus", c3="Odd N2", c5="Plus") if minus_in_front else \
        Slate.of(c1="Square", c2="Zero", c3="Minus", c5="Odd N2", c6="Even N2", c7="Prime")
    s = arrange(mine, Slate.of(c1="Odd", c4="Fibo N3", c8="Splitter N3"))
    column_4 = {s[4].key, s[8].key if s[8] else None}
    assert "Minus" in column_4
    assert (s[4].key == "Minus") is minus_in_front


def test_tanks_stand_in_front():
    s = arrange(Slate.of(c5="Square", c6="Zero", c7="Odd N2", c8="Even N2", c1="Prime",
                         c2="Half"))
    assert {s[c].key for c in (1, 2, 3, 4)} >= {"Square", "Zero"}


def test_arrange_keeps_every_digit():
    rng = random.Random(3)
    keys = ["Plus", "Minus", "Double", "Zero", "Odd", "Square", "Sigma", "Carry", "Power", "Pi"]
    for _ in range(200):
        slate = Slate.from_json({str(c): f"{rng.choice(keys)} N{rng.randint(1, 3)}"
                                 for c in rng.sample(range(1, 9), rng.randint(0, 8))})
        out = arrange(slate)
        assert sorted(map(repr, (p for _, p in out.items()))) == sorted(
            map(repr, (p for _, p in slate.items())))


# -- whole matches ---------------------------------------------------------------------------------

def test_a_bot_match_is_played_to_its_end_the_same_for_the_same_seed():
    m = play_bot_match(5)
    assert m.over and m.records and m.to_json() == play_bot_match(5).to_json()
    assert play_bot_match(6).to_json() != m.to_json()
    last = m.records[-1]
    if m.winner == "draw":
        assert len(m.records) == 15 and m.lives["A"] == m.lives["B"]
    else:
        loser = "B" if m.winner == "A" else "A"
        assert m.lives[loser] == 0 or (len(m.records) == 15
                                       and m.lives[m.winner] > m.lives[loser])
    assert last.lives == m.lives
    assert all(g >= 0 for r in m.records for g in r.gold_left.values())


def test_bots_merge_and_reach_higher_tiers():
    levels, tiers = set(), set()
    for seed in range(4):
        for r in play_bot_match(seed).records:
            for s in r.slates.values():
                levels |= {p.level for _, p in s.items()}
                tiers |= {p.kind.tier for _, p in s.items()}
    assert levels == {1, 2, 3} and tiers == {1, 2, 3, 4}


def test_draft_and_solo_bot_matches_are_played_to_their_end():
    d = play_bot_match(2, MatchSettings(draft=True))
    assert d.over and all(r.slates["A"] != r.slates["B"] for r in d.records[1:])
    s = play_bot_match(2, solo=True)
    assert s.over and s.sides == ("A", GHOST) and all(r.ghost.builtin for r in s.records)


class RandomBuyer(BotPlayer):
    """Buys random offers into the first empty cell until it cannot; never merges nor places."""

    def act(self, match: Match, player: str, ghost_pool: Any = ()) -> bool:
        if match.over or match.stage(player) == "ready":
            return False
        if match.stage(player) == "focus":
            match.submit_focus(player, self.focus_score(match.round))
            return True
        rng = random.Random(f"{self.seed}/{match.round}")
        try:
            while True:
                match.buy(player, rng.choice(
                    [i + 1 for i, o in enumerate(match.shop(player).offers) if o]))
        except (DomainError, IndexError):
            pass
        match.end_turn(player)
        return True


def test_the_bot_beats_a_player_who_buys_at_random():
    wins = 0
    for seed in range(10):
        bots = [BotPlayer(seed), RandomBuyer(seed)]
        if seed % 2:
            bots.reverse()
        m = play_bot_match(seed, bots=bots)
        wins += m.winner == ("B" if seed % 2 else "A")
    assert wins >= 9


def test_a_whole_match_survives_json_between_any_two_actions():
    bots = [BotPlayer("x"), BotPlayer("y")]
    straight = play_bot_match(8, bots=bots)
    m = Match.new(["A", "B"], seed=8)
    steps = 0
    while not m.over:
        for p, bot in zip("AB", bots, strict=True):
            bot.act(m, p)
            m = Match.from_json(json.loads(json.dumps(m.to_json())))
            steps += 1
    assert m == straight and steps > 10
    assert Match.from_json(json.loads(json.dumps(m.to_json()))) == m


# -- the command -----------------------------------------------------------------------------------

def test_match_command_prints_the_record_as_json(capsys):
    assert main(["match", "--seed", "4", "--rounds", "3"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record == play_bot_match(4, MatchSettings(rounds=3)).record()
    assert record["over"] and len(record["rounds"]) <= 3
    assert {"focus", "slates", "battle", "lives"} <= set(record["rounds"][0])


def test_match_command_text_and_draft(capsys):
    assert main(["match", "--seed", "1", "--draft", "--text"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Match A against B, seed 1: 10 lives, 15 rounds at most, draft")
    assert "Round 1: Focus A " in out and "Result: " in out


@pytest.mark.parametrize("args", [["--rounds", "0"], ["--seed", "x"]])
def test_match_command_refuses_bad_arguments(args):
    run = subprocess.run([sys.executable, "-m", "bot.digits", "match", *args],
                         capture_output=True, text=True)
    assert run.returncode == 2 and run.stdout == "" and run.stderr.strip()
