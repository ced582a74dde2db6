"""Format versions of the stored game states (issue 13): every state kept as JSON carries
``"format"``; one saved before versions (the fixtures in ``tests/fixtures/formats``, written by the
code of then) is upgraded and plays on; a round trip keeps the version; a newer one is refused
(``state.too_new``); the command-line outputs stay as the contract says."""

from __future__ import annotations

import ast
import copy
import io
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import bot.focus
import bot.rithmo
from bot.digits import __main__ as digits_cli
from bot.digits.baseline import BotPlayer
from bot.digits.match import MATCH_FORMAT, Match
from bot.digits.strategy import OddsPlayer
from bot.domain import DomainError
from bot.focus.live import LIVE_FORMAT, LiveRound
from bot.focus.round import ROUND_FORMAT, FocusRound
from bot.formats import FORMAT_KEY, format_of, upgrade
from bot.i18n import error_text
from bot.play.digits import STATE_FORMAT, StoredMatch, new_state
from bot.play.focus_live import LIVE_STATE_FORMAT, LiveState
from bot.play.rithmo import POSITION_FORMAT, stored_position
from bot.rithmo import cli as rithmo_cli
from bot.rithmo.game import GAME_FORMAT, Game
from db import Database

FIXTURES = Path(__file__).parent / "fixtures" / "formats"
ROOT = Path(__file__).parents[1]


def fixture(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / name).read_text())


def refused_as_too_new(read: Callable[[dict[str, Any]], object], data: dict[str, Any],
                       current: int) -> None:
    newer = {**copy.deepcopy(data), FORMAT_KEY: current + 1}
    with pytest.raises(DomainError) as caught:
        read(newer)
    assert caught.value.code == "state.too_new"
    assert caught.value.params["format"] == current + 1
    assert caught.value.params["current"] == current


# -- bot.formats ----------------------------------------------------------------------------


def test_a_state_without_a_format_is_version_0_and_is_upgraded_step_by_step():
    seen: list[int] = []

    def step(n: int) -> Callable[[dict[str, Any]], dict[str, Any]]:
        def go(data: dict[str, Any]) -> dict[str, Any]:
            assert FORMAT_KEY not in data
            seen.append(n)
            return {**data, "steps": [*data.get("steps", []), n]}
        return go

    old = {"a": 1}
    assert format_of(old, "thing", 3) == 0
    out = upgrade(old, "thing", 3, {0: step(0), 2: step(2)})
    assert out == {FORMAT_KEY: 3, "a": 1, "steps": [0, 2]} and seen == [0, 2]
    assert old == {"a": 1}  # the stored value is not changed in place
    assert upgrade(out, "thing", 3, {0: step(0)}) == out and seen == [0, 2]  # current: as is


@pytest.mark.parametrize("bad", [-1, "1", 1.0, True, None, [1]])
def test_a_format_that_is_not_a_version_is_refused(bad: Any):
    with pytest.raises(DomainError) as caught:
        upgrade({FORMAT_KEY: bad}, "thing", 1)
    assert caught.value.code == "state.bad_format"


def test_a_newer_format_is_refused_with_a_sentence_in_both_languages():
    refused_as_too_new(lambda d: upgrade(d, "match", 1), {"a": 1}, 1)
    error = DomainError("state.too_new", "x", kind="match", format=2, current=1)
    en, fr = error_text(error, "en"), error_text(error, "fr")
    assert "newer version of Ardoise" in en and "plus récente d'Ardoise" in fr
    assert error_text(DomainError("state.bad_format", "x", kind="match", format=-1), "fr") \
        .startswith("L'état enregistré de cette partie est abîmé")


def test_bot_formats_is_pure():
    tree = ast.parse((ROOT / "bot" / "formats.py").read_text())
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "bot.domain" in imported
    assert not {m for m in imported if m and m.split(".")[0] in {"discord", "db", "images",
                                                                  "cogs"}}


def test_each_engine_exposes_its_version():
    assert bot.rithmo.GAME_FORMAT == GAME_FORMAT == 1
    assert bot.focus.ROUND_FORMAT == ROUND_FORMAT == 1
    assert bot.focus.LIVE_FORMAT == LIVE_FORMAT == 1
    assert MATCH_FORMAT == 2


# -- The 20 Digits ---------------------------------------------------------------------------


def play_out(m: Match, bots: dict[str, BotPlayer]) -> Match:
    while not m.over:
        moved = False
        for p, b in bots.items():
            moved = b.act(m, p) or moved
        assert moved
    return m


def test_a_duel_saved_before_versions_loads_upgraded_and_plays_on():
    old = fixture("digits_states.json")["duel_engine"]
    assert FORMAT_KEY not in old
    m = Match.from_json(old)
    data = m.to_json()
    assert data[FORMAT_KEY] == MATCH_FORMAT
    assert {k: v for k, v in data.items() if k != FORMAT_KEY} == old  # only the field is new
    assert m.round == 3
    play_out(m, {p: BotPlayer(f"7/{p}") for p in m.players})
    assert m.over and len(m.records) >= 3


def test_a_solo_match_round_trip_keeps_its_version_and_a_newer_one_is_refused():
    old = fixture("digits_solo_matches.json")["solo-1"]["midway"]
    m = Match.from_json(old, shadow=OddsPlayer)
    again = Match.from_json(json.loads(json.dumps(m.to_json())), shadow=OddsPlayer)
    assert again.to_json()[FORMAT_KEY] == MATCH_FORMAT and again == m
    refused_as_too_new(lambda d: Match.from_json(d, shadow=OddsPlayer), m.to_json(),
                       MATCH_FORMAT)


def test_the_match_record_and_the_match_command_are_as_before():
    # The record (what `python -m bot.digits match` prints) is not a stored state: no field.
    m = Match.from_json(fixture("digits_states.json")["duel_engine"])
    assert FORMAT_KEY not in m.record()
    for command, expected in fixture("digits_cli.json").items():
        out = io.StringIO()
        assert digits_cli.main(command.split(), stdin=io.StringIO(""), stdout=out) == 0
        assert out.getvalue() == expected, command


async def test_the_cog_s_match_state_saved_before_versions_loads_and_plays_on(db: Database):
    old = fixture("digits_states.json")["cog_state"]
    assert FORMAT_KEY not in old and FORMAT_KEY not in old["engine"]
    row = await db.digits.create_match(1, [1001], old, status="active", channel_id=5)
    game = StoredMatch.from_row(row)
    assert (game.names, game.lang, game.steps) == ({"1001": "Ada"}, "fr", {"1001": 5})
    assert game.match.round == 3 and game.match.stage("1001") == "shop"
    state = game.state()
    assert state[FORMAT_KEY] == STATE_FORMAT and state["engine"][FORMAT_KEY] == MATCH_FORMAT
    # It plays on: the member ends the turn, the shadow shops, the battle is fought.
    record = game.match.end_turn("1001")
    assert record is not None and record.ghost is not None and record.ghost.shadow
    await db.digits.save_match(game.id, game.state(), row.version)
    reread = StoredMatch.from_row(await db.digits.require_match(game.id))
    assert reread.state() == game.state() and reread.state()[FORMAT_KEY] == STATE_FORMAT


async def test_a_newer_cog_match_state_is_refused(db: Database):
    m = Match.new(["1001"], seed=3, shadow=OddsPlayer)
    state = new_state(m, {"1001": "Ada"}, "en")
    assert state[FORMAT_KEY] == STATE_FORMAT
    row = await db.digits.create_match(1, [1001], {**state, FORMAT_KEY: STATE_FORMAT + 1},
                                       status="active")
    with pytest.raises(DomainError) as caught:
        StoredMatch.from_row(row)
    assert caught.value.code == "state.too_new"
    # The engine's own version is checked too, inside a current cog state.
    inner = {**state, "engine": {**state["engine"], FORMAT_KEY: MATCH_FORMAT + 1}}
    row = await db.digits.create_match(1, [1001], inner, status="active")
    with pytest.raises(DomainError, match="newer Ardoise"):
        StoredMatch.from_row(row)


# -- Rithmomachia ----------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["game", "game_mid_turn"])
def test_a_rithmo_game_saved_before_versions_loads_and_plays_on(key: str):
    old = fixture("rithmo_states.json")[key]
    assert FORMAT_KEY not in old
    game = Game.from_json(old)
    data = game.to_json()
    assert data[FORMAT_KEY] == GAME_FORMAT
    assert {k: v for k, v in data.items() if k != FORMAT_KEY} == old
    assert Game.from_json(json.loads(json.dumps(data))).to_json() == data  # round trip
    board = game.board.copy()
    while not board.history:
        board.push_step(random.Random(1).choice(board.legal_steps()))
    game.push(str(board.history[-1]))
    assert len(game.turns) == len(old["turns"]) + 1
    refused_as_too_new(Game.from_json, data, GAME_FORMAT)


def test_the_rithmo_position_format_of_the_command_line_has_no_version():
    # engine-commands.md gives the position's exact keys: `start` prints them, nothing more.
    out = io.StringIO()
    assert rithmo_cli.main(["start"], stdin=io.StringIO(""), stdout=out) == 0
    assert json.loads(out.getvalue()) == fixture("rithmo_states.json")["start"]


class _Row:
    """What ``stored_position`` reads of a game row: its ``position`` column only."""

    def __init__(self, position: Any) -> None:
        self.position = position


async def test_the_rithmo_position_column_saved_before_versions_is_upgraded(db: Database):
    old = fixture("rithmo_states.json")["position_column"]
    row = await db.rithmo.create_game(1, white_id=10, black_id=None, computer_side="black",
                                      victories={}, position=old, status="active")
    blob = stored_position(row)
    assert blob == {FORMAT_KEY: POSITION_FORMAT, **old}
    assert stored_position(_Row(None)) == {FORMAT_KEY: POSITION_FORMAT}  # no column: defaults
    refused_as_too_new(lambda d: stored_position(_Row(d)), blob, POSITION_FORMAT)


# -- Focus -----------------------------------------------------------------------------------


def test_a_focus_round_saved_before_versions_loads_and_plays_on():
    old = fixture("focus_states.json")["round"]
    assert FORMAT_KEY not in old
    r = FocusRound.from_json(old)
    assert len(r.answers) == 2
    r.answer(str(r.questions[2].answer), 1.5)
    data = r.to_json()
    assert data[FORMAT_KEY] == ROUND_FORMAT and data["answers"][:2] == old["answers"]
    assert FocusRound.from_json(json.loads(json.dumps(data))) == r
    refused_as_too_new(FocusRound.from_json, data, ROUND_FORMAT)


def test_a_live_round_saved_before_versions_loads_and_plays_on():
    old = fixture("focus_states.json")["live"]
    live = LiveRound.from_json(old)
    assert live.to_json() == {FORMAT_KEY: LIVE_FORMAT, **old}
    live.answer(22, "0", 4.0)
    live.close_question()
    live.next_question()
    assert len(live.answers) == 2 and live.index == 1
    assert LiveRound.from_json(json.loads(json.dumps(live.to_json()))) == live
    refused_as_too_new(LiveRound.from_json, live.to_json(), LIVE_FORMAT)


async def test_the_live_state_saved_before_versions_loads_and_plays_on(db: Database):
    old = fixture("focus_states.json")["live_state"]
    row = await db.focus_live.create(1, 5, 77, old)
    state = LiveState.from_row(row)
    assert (state.level, state.lang, state.names) == (2, "fr", {11: "Ada", 22: "Bob"})
    assert state.game is not None
    state.game.answer(22, "0", 4.0)
    data = state.to_json()
    assert data[FORMAT_KEY] == LIVE_STATE_FORMAT and data["round"][FORMAT_KEY] == LIVE_FORMAT
    newer = await db.focus_live.create(1, 5, 77, {**data, FORMAT_KEY: LIVE_STATE_FORMAT + 1})
    with pytest.raises(DomainError) as caught:
        LiveState.from_row(newer)
    assert caught.value.code == "state.too_new"


def test_stored_ghosts_of_every_format_but_a_newer_one_join_the_pool():
    from datetime import UTC, datetime

    from bot.play.digits import GHOST_FORMAT, engine_ghosts
    from db import GhostRow

    now = datetime(2026, 12, 1, tzinfo=UTC)
    slate = {"1": "Odd", "5": "Plus N2"}
    rows = [GhostRow(11, 1, 2, {"slate": slate, "focus": 4, "name": "Ada"}, now),  # before
            GhostRow(12, 1, 2, {FORMAT_KEY: GHOST_FORMAT, "slate": slate, "focus": 3,
                                "name": "Bob"}, now),
            GhostRow(13, 1, 2, slate, now),  # the oldest: a bare slate
            GhostRow(14, 1, 2, {FORMAT_KEY: GHOST_FORMAT + 1, "slate": slate, "focus": 6}, now)]
    ghosts, names = engine_ghosts(rows)
    assert [(g.owner, g.focus) for g in ghosts] == [("11", 4), ("12", 3), ("13", 0)]
    assert names == {"11": "Ada", "12": "Bob"}


async def test_a_live_state_of_format_2_has_no_school_year_nor_skills(db: Database):
    # Format 3 (issue 26) added the year the questions were drawn from and the teacher's skills.
    old = {FORMAT_KEY: 1, **fixture("focus_states.json")["live_state"]}
    two = LiveState.from_row(await db.focus_live.create(1, 5, 77, old)).to_json()
    del two["year"], two["skills"]
    two[FORMAT_KEY] = 2
    state = LiveState.from_row(await db.focus_live.create(1, 5, 77, two))
    assert (state.year, state.skills, state.auto, state.size) == (None, (), False, 6)
    data = state.to_json()
    assert data[FORMAT_KEY] == 3 and data["year"] is None and data["skills"] == []
    again = LiveState.from_row(await db.focus_live.create(1, 5, 77, data))
    assert again.to_json() == data


async def test_a_live_state_of_format_1_is_a_manual_round_that_plays_on(db: Database):
    # Format 1 had the layout of before versions, with the field: a round moved on by "Next".
    old = {FORMAT_KEY: 1, **fixture("focus_states.json")["live_state"]}
    row = await db.focus_live.create(1, 5, 77, old)
    state = LiveState.from_row(row)
    assert (state.auto, state.message_id, state.paused_at, state.next_at) == (False, None, None,
                                                                             None)
    assert (state.factors, state.shown, state.set_name, state.size) == ({}, {}, None, 6)
    assert state.due_at() is None  # no timer runs it: the teacher does
    assert state.game is not None and state.factor(22) == 1.0
    state.game.answer(22, "0", 4.0)
    data = state.to_json()
    assert data[FORMAT_KEY] == LIVE_STATE_FORMAT == 3 and data["auto"] is False
    again = LiveState.from_row(await db.focus_live.create(1, 5, 77, data))
    assert again.to_json() == data
