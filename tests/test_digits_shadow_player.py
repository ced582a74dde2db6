"""The shadow's player is passed in (issue 13): ``bot.digits.match`` imports no player, the
caller gives one (``Match.new(..., shadow=OddsPlayer)``, ``Match.from_json(..., shadow=...)``),
and the solo matches are byte-identical to the ones the code played before (fixtures recorded
then, ``tests/fixtures/formats``)."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

from bot.digits.baseline import BotPlayer
from bot.digits.ghosts import SHADOW
from bot.digits.match import GHOST, Match
from bot.digits.shop import MatchSettings
from bot.digits.slate import Slate
from bot.digits.strategy import OddsPlayer

FIXTURES = Path(__file__).parent / "fixtures" / "formats"


def _solo_fixtures() -> dict[str, Any]:
    return json.loads((FIXTURES / "digits_solo_matches.json").read_text())


def _played(seed: int, settings: dict[str, Any], stop: int | None = None,
            match: Match | None = None) -> Match:
    """As the fixtures were made: the member played by ``BotPlayer(f"{seed}/member")``."""
    m = match or Match.new(["A"], seed=seed, settings=MatchSettings.from_json(settings),
                           shadow=OddsPlayer)
    bot = BotPlayer(f"{seed}/member")
    while not m.over and (stop is None or m.round < stop):
        assert bot.act(m, "A")
    return m


def _dumped(data: Any) -> str:
    return json.dumps(data, indent=1, sort_keys=True)


def _as_today(data: dict[str, Any]) -> dict[str, Any]:
    """A match's JSON without what issues 13 and 15 added (the format version; the level, which a
    shadow match of before levels is read at: strong), to compare with the JSON the code of then
    wrote."""
    return {k: v for k, v in data.items() if k not in ("format", "level")}


@pytest.mark.parametrize("name", sorted(_solo_fixtures()))
def test_solo_matches_with_the_shadow_passed_in_are_byte_identical_to_today_s(name: str):
    case = _solo_fixtures()[name]
    midway = _played(case["seed"], case["settings"], stop=4)
    assert _dumped(_as_today(midway.to_json())) == _dumped(case["midway"])
    final = _played(case["seed"], case["settings"], match=midway)
    assert _dumped(_as_today(final.to_json())) == _dumped(case["final"])
    assert any(r.ghost is not None and r.ghost.shadow for r in final.records)


@pytest.mark.parametrize("name", sorted(_solo_fixtures()))
def test_a_shadow_match_saved_by_today_s_code_plays_on_the_same(name: str):
    case = _solo_fixtures()[name]
    read = Match.from_json(case["midway"], shadow=OddsPlayer)
    assert read.shadow is not None and read.round == 4 and read.level == "strong"
    final = _played(case["seed"], case["settings"], match=read)
    assert _dumped(_as_today(final.to_json())) == _dumped(case["final"])


def test_a_shadow_match_read_without_its_player_refuses_to_fight_and_changes_nothing():
    m = Match.new(["A"], seed=5, shadow=OddsPlayer)
    m.submit_focus("A", 3)
    read = Match.from_json(m.to_json())  # enough to show it, not to play it
    before = read.to_json()
    with pytest.raises(ValueError, match="shadow"):
        read.end_turn("A")
    assert read.to_json() == before


def test_the_shadow_is_whatever_player_the_caller_passes():
    seeds: list[str] = []

    def baseline(seed: str) -> BotPlayer:
        seeds.append(seed)
        return BotPlayer(seed)

    m = Match.new(["A"], seed=5, shadow=baseline)
    m.submit_focus("A", 3)
    m.shops["A"].slate = Slate.from_json({"1": "Odd"})
    record = m.end_turn("A")
    assert record is not None
    assert seeds == [f"5/{SHADOW}"]
    assert record.ghost is not None and record.ghost.shadow
    assert record.focus[GHOST] == BotPlayer(f"5/{SHADOW}").focus_score(1)


def test_the_match_engine_imports_no_player():
    tree = ast.parse((Path(__file__).parents[1] / "bot" / "digits" / "match.py").read_text())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {a.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                 for a in node.names}
    assert imported, "the walk found the module's imports"
    assert {"bot.digits.battle", "bot.digits.shop"} <= imported
    players = {"bot.digits.strategy", "bot.digits.odds", "bot.digits.player",
               "bot.digits.baseline"}
    assert not imported & players


def test_a_shadow_that_is_not_a_player_is_refused_at_once():
    with pytest.raises(TypeError, match="OddsPlayer"):
        Match.new(["A"], seed=1, shadow=True)  # type: ignore[arg-type]
