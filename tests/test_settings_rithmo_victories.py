"""The victories of a Rithmomachia game are one rule (``bot.play.settings.choose_victories``) for
the two paths that choose them: ``/settings rithmo`` (``check_rithmo``, a server's defaults) and
``/rithmo challenge`` (``build_settings``, a game's options over those defaults).

Until issue 25 the first was a copy of the second in ``bot/ui/settings.py``, with its own
answers. ``before`` below is that copy as it was (commit aa910e8), kept as the oracle: on every
combination of options and on servers whose defaults differ, the new ``check_rithmo`` (worded by
``bot.ui.settings.worded``) saves the same victories and refuses with the same sentence, in both
languages. Then the two paths are compared with each other: where both accept they choose the
same victories, where ``/settings`` refuses the challenge refuses too (but for a threshold no army
reaches, which only ``/settings`` checks); and the one difference a teacher sees is shown.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping
from typing import Any

import pytest

from bot.domain import DomainError
from bot.i18n import error_text, t
from bot.play.rithmo_turns import server_settings
from bot.play.settings import (
    ARMY_MOST,
    CEILINGS,
    COMMON,
    NONE,
    TIME_LIMIT_HOURS,
    _in_range,
    build_settings,
    check_rithmo,
    current_victories,
)
from bot.rithmo.victory import KINDS, PROPER, Victory
from bot.ui.settings import worded
from db import ServerSettings
from tests.french import fr


def before(current: ServerSettings, lang: str, victory: str | None, proper: str | None,
           thresholds: Mapping[str, int | None], hours: int | None) -> dict[str, Any]:
    """``bot.ui.settings.check_rithmo`` at commit aa910e8, verbatim (with the cog's check of an
    unknown victory, which came first)."""
    for chosen, kinds in ((victory, (*COMMON, NONE)), (proper, (*PROPER, NONE))):
        if chosen is not None and chosen not in kinds:
            raise DomainError("settings.rithmo.unknown_victory", f"no victory {chosen!r}",
                              value=chosen)
    changes: dict[str, Any] = {}
    if hours is not None:
        _in_range("settings.time_limit_out_of_range", hours, TIME_LIMIT_HOURS)
        changes["move_time_limit_s"] = hours * 3600
    given = {name: value for name, value in thresholds.items() if value is not None}
    if victory is None and proper is None and not given:
        return changes
    now = current_victories(current)
    common = next((v for v in now if v.kind not in PROPER), None)
    proper_now = next((v for v in now if v.kind in PROPER), None)
    if victory is not None:
        common = None if victory == NONE else Victory.make(victory)
    if proper is not None:
        proper_now = None if proper == NONE else Victory.make(proper)
    if given:
        if common is None:
            raise DomainError("settings.rithmo.thresholds_without_victory",
                              "thresholds need a common victory")
        kind = common.kind
        for name, value in given.items():
            if name not in KINDS[kind]:
                uses = ", ".join(t(f"settings.thresholds.{n}", lang) for n in KINDS[kind])
                raise DomainError("settings.rithmo.threshold_unused",
                                  f"the victory {kind} has no {name} threshold",
                                  victory=t(f"settings.victories.{kind}", lang),
                                  threshold=t(f"settings.thresholds.{name}", lang), uses=uses)
            low = 2 if name in CEILINGS.get(kind, ()) else 1
            if not low <= value <= ARMY_MOST[name]:
                raise DomainError("settings.rithmo.threshold_unreachable",
                                  f"{name} {value} is outside {low}–{ARMY_MOST[name]}",
                                  threshold=t(f"settings.thresholds.{name}", lang), value=value,
                                  low=low, high=ARMY_MOST[name])
        keep = {n: getattr(common, n) for n in KINDS[kind]} if victory is None else {}
        common = Victory.make(kind, **{**keep, **given})
    chosen = [v for v in (common, proper_now) if v is not None]
    if not chosen:
        raise DomainError("settings.rithmo.no_victory", "a game needs at least one victory")
    changes["rithmo_victories"] = [v.to_json() for v in chosen]
    return changes


#: Servers whose defaults differ: never set, a common with its own threshold and a proper one, a
#: proper victory alone, a common victory alone.
SERVERS = {
    "never set": ServerSettings(1),
    "goods 160 + great": ServerSettings(1, rithmo_victories=[{"kind": "goods", "value": 160},
                                                             {"kind": "great"}]),
    "excellent alone": ServerSettings(1, rithmo_victories=[{"kind": "excellent"}]),
    "lawsuit alone": ServerSettings(1, rithmo_victories=[{"kind": "lawsuit", "value": 200,
                                                          "digits": 8}]),
}
VICTORIES = (None, *COMMON, NONE, "nonsense")
PROPERS = (None, *PROPER, NONE)
THRESHOLDS: tuple[dict[str, int], ...] = (
    {}, {"pieces": 3}, {"value": 120}, {"digits": 9}, {"pieces": 1}, {"pieces": 3, "value": 200},
    {"value": ARMY_MOST["value"] + 1})
HOURS = (None, 5)


def options() -> list[tuple[str, str | None, str | None, dict[str, int], int | None]]:
    return list(itertools.product(SERVERS, VICTORIES, PROPERS, THRESHOLDS, HOURS))


def outcome(check: Any, lang: str) -> tuple[str, Any]:
    """What the teacher sees: the changes saved, or the refusal's sentence."""
    try:
        return "saved", check()
    except DomainError as refused:
        return refused.code, error_text(refused, lang)


def now_(server: str, victory: str | None, proper: str | None, given: dict[str, int],
         hours: int | None, lang: str) -> tuple[str, Any]:
    def run() -> dict[str, Any]:
        try:
            return check_rithmo(SERVERS[server], victory, proper, given, hours)
        except DomainError as refused:
            raise worded(refused, lang) from None
    return outcome(run, lang)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_settings_rithmo_saves_and_refuses_as_before(lang: str) -> None:
    differ = []
    for server, victory, proper, given, hours in options():
        then = outcome(functools.partial(before, SERVERS[server], lang, victory, proper, given,
                                         hours), lang)
        after = now_(server, victory, proper, given, hours, lang)
        if then != after:
            differ.append((server, victory, proper, given, hours, then, after))
    assert differ == []


def challenge(server: ServerSettings, victory: str | None, proper: str | None,
              given: dict[str, int]) -> tuple[Victory, ...]:
    """The victories of a challenge with these options on ``server``."""
    options = {"victory": victory, "proper": "off" if proper == NONE else proper, **given}
    return build_settings(server_settings(server.rithmo_victories), **options).victories


def test_a_challenge_and_the_servers_defaults_choose_the_same_victories() -> None:
    compared = 0
    for server, victory, proper, given, _ in options():
        if victory == "nonsense":
            continue
        current = SERVERS[server]
        if victory is not None and victory != NONE:
            # The one difference: a victory named in /settings starts from the engine's
            # thresholds, a challenge's from the server's (below); here the server has none.
            current = ServerSettings(1, rithmo_victories=[
                v.to_json() for v in current_victories(current) if v.kind in PROPER] or None)
            if current.rithmo_victories is None:
                current = ServerSettings(1, rithmo_victories=[{"kind": victory}])
        try:
            saved = check_rithmo(current, victory, proper, given, None)
        except DomainError as refused:
            if refused.code == "settings.rithmo.threshold_unreachable":
                continue  # the command's ranges bound a challenge's thresholds instead
            with pytest.raises(DomainError) as also:
                challenge(current, victory, proper, given)
            assert also.value.code in ("rithmo.threshold_unused", "rithmo.no_victory"), (
                server, victory, proper, given, refused.code)
            continue
        stored = tuple(server_settings(saved.get("rithmo_victories",
                                                 current.rithmo_victories)).victories)
        assert challenge(current, victory, proper, given) == stored, (
            server, victory, proper, given)
        compared += 1
    assert compared > 500  # the grid is compared, not skipped


def test_the_one_difference_a_victory_named_again_keeps_its_threshold_in_a_challenge() -> None:
    server = SERVERS["goods 160 + great"]
    assert check_rithmo(server, "goods", None, {}, None)["rithmo_victories"] == [
        {"kind": "goods", "value": 300}, {"kind": "great"}]  # the engine's threshold, as before
    assert challenge(server, "goods", None, {}) == (Victory.make("goods", value=160),
                                                    Victory.make("great"))


def test_a_refusal_carries_data_and_is_worded_in_the_members_language() -> None:
    with pytest.raises(DomainError) as refused:
        check_rithmo(ServerSettings(1), "body", None, {"value": 100}, None)
    assert refused.value.params == {"victory": "body", "threshold": "value", "uses": ("pieces",)}
    assert error_text(worded(refused.value, "fr"), "fr") == (
        fr("La victoire Corps ne se compte pas en valeur : elle se compte en pièces. Rien n'a été "
        "changé."))
    other = DomainError("settings.rithmo.no_victory", "none")
    assert worded(other, "en") is other
