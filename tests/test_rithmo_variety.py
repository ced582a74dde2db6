"""The opponent's variety and speed-ups: every level varies its first reply from one game's seed
to the next and gives the same turn again for the same seed; the material the search keeps up
to date step by step is always the full count; the master level exists and searches longer."""

from __future__ import annotations

import random

import pytest

from bot.rithmo import START, Game, Settings, Victory
from bot.rithmo.ai import SECONDS, Evaluator, Searcher, choose_turn
from bot.rithmo.opponents import LEVELS, search_in_worker, turn_rng
from bot.rithmo.turns import Capture, Drop

#: Node budgets for the searching levels in these tests (play uses seconds; a node budget makes
#: the choice exact, as a test needs), in the ratio of their seconds.
NODES = {"strong": 800, "master": 2000}
WHITE_OPENING = "c4-d5"  # the same first turn of White in every game: only the seed differs


def first_reply(level: str, seed: int) -> str:
    """Ardoise's first turn, as Black, after White's fixed first turn, in a game of ``seed``
    (the rng as the bot derives it from the stored seed and the turn's number)."""
    game = Game()
    game.push(WHITE_OPENING)
    return str(choose_turn(game, level, turn_rng(seed, 1), nodes=NODES.get(level)))


@pytest.mark.parametrize("level", list(LEVELS.values()))
def test_ten_games_give_at_least_five_different_first_replies(level: str) -> None:
    replies = [first_reply(level, seed) for seed in range(1000, 1010)]
    assert len(set(replies)) >= 5, replies


@pytest.mark.parametrize("level", ["beginner", "middle"])
def test_ardoise_does_not_always_open_the_same_way(level: str) -> None:
    """Playing White, Ardoise opens the game: ten games, ten seeds, at least five openings."""
    openings = {str(choose_turn(Game(), level, turn_rng(seed, 0))) for seed in range(10)}
    assert len(openings) >= 5, openings


@pytest.mark.parametrize("level", list(LEVELS.values()))
def test_a_replay_with_the_same_seed_gives_the_same_turns(level: str) -> None:
    def play(seed: int) -> list[str]:
        game = Game(Settings.make(["body"], move_limit=40))
        for ply in range(3):  # the level plays both sides: three turns of its own choosing
            game.push(choose_turn(game, level, turn_rng(seed, ply), nodes=400))
        return [str(t) for t in game.turns]

    assert play(7) == play(7)
    assert play(7) != play(8)


def test_the_worker_gives_the_turn_the_level_gives_in_process() -> None:
    game = Game()
    game.push(WHITE_OPENING)
    here = str(choose_turn(game, "middle", turn_rng(42, 1)))
    assert search_in_worker(game.to_json(), 2, 42, 1) == here


def test_master_thinks_longer_than_strong() -> None:
    assert SECONDS["master"] == 2.0 and SECONDS["strong"] == 0.5
    assert LEVELS[4] == "master"


# ---------------------------------------------------------------- incremental material


def test_the_material_kept_step_by_step_equals_the_full_count_along_random_games() -> None:
    """Random steps (captures, pyramid components, drops, moves) played and taken back through
    the search's own push and pop: after each, the kept material is the full count."""
    settings = Settings(victories=(Victory.make("body", pieces=30),))
    ev = Evaluator(settings)
    seen = {"capture": 0, "part": 0, "drop": 0}
    for seed in range(6):
        rng = random.Random(seed)
        game = Game(settings)
        s = Searcher(settings, nodes=10)
        s.board = game.board
        s._mat = [ev.material_units(game.board, 0), ev.material_units(game.board, 1)]
        pushed = 0
        for _ in range(400):
            b = s.board
            legal = b.legal_steps()
            if not legal:
                break
            step = rng.choice(legal)
            if type(step) is Capture:
                p = b.squares[step.square]
                seen["part" if step.part and len(p.parts) > 1 else "capture"] += 1
            elif type(step) is Drop:
                seen["drop"] += 1
            s._push(step)
            pushed += 1
            assert s._mat == [ev.material_units(b, 0), ev.material_units(b, 1)]
            if rng.random() < 0.1 and pushed:  # take some back, then go on
                s._pop()
                pushed -= 1
                assert s._mat == [ev.material_units(b, 0), ev.material_units(b, 1)]
        while pushed:
            s._pop()
            pushed -= 1
        assert s._mat == [ev.material_units(game.board, 0), ev.material_units(game.board, 1)]
        assert game.board.position_string() == Game(settings).board.position_string()
    assert all(seen.values()), seen  # every kind of material change was walked


@pytest.mark.parametrize("seed", range(4))
def test_searches_along_random_games_never_see_the_kept_material_differ(seed: int) -> None:
    """The search checks, at every position it evaluates, the kept material against the full
    count (``verify``); and its evaluation equals the evaluator's own, from scratch."""
    rng = random.Random(seed)
    settings = Settings(victories=(Victory.make("body", pieces=20),), move_limit=400)
    game = Game(settings)
    ev = Evaluator(settings)
    while len(game.turns) < rng.randint(20, 90) and not game.is_over():
        b = game.board
        b.push_step(rng.choice(b.legal_steps()))
        while b.phase != START:
            b.push_step(rng.choice(b.legal_steps()))
    for _ in range(3):
        if game.is_over():
            break
        s = Searcher(settings, nodes=600, rng=random.Random(seed), verify=True)
        result = s.search(game.board, len(game.turns))
        game.push(result.turn)
        full = ev.evaluate(game.board)
        kept = ev.evaluate(game.board, material=(ev.material_units(game.board, 0),
                                                 ev.material_units(game.board, 1)))
        assert full == kept
