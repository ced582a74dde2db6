"""The server's settings as teachers set them: the checks of each value (pure, a ``DomainError``
``errors.settings.*`` before anything is saved) and the reads and writes of ``db.servers``.

The ranges come from the engines: Focus levels from ``bot.focus``, the match's from
``bot.digits.shop.MatchSettings``, the Rithmomachia victories and their thresholds from
``bot.rithmo.victory``. No Discord here.

The victories of a Rithmomachia game are one rule, :func:`choose_victories`: a challenge's
options over the server's defaults (:func:`build_settings`, ``/rithmo challenge``) and a teacher's
new defaults over the current ones (:func:`check_rithmo`, ``/settings rithmo``) both go through it.
Their refusals carry data (victory kinds, threshold names); ``bot.ui.settings`` words them.
"""

from __future__ import annotations

import functools
import zoneinfo
from collections.abc import Iterable, Mapping
from typing import Any

from bot.domain import DomainError
from bot.focus import MAX_LEVEL, MIN_LEVEL
from bot.focus.school import YEARS
from bot.rithmo import Board
from bot.rithmo.arith import digits as digit_count
from bot.rithmo.victory import KINDS, PROPER, Settings, Victory
from db import Database, ServerSettings

LANGUAGE_CHOICES = ("en", "fr", "auto")
NONE = "none"

# Ranges of the match defaults: the database's own (1–99 lives and rounds, 0–99 gold).
LIVES = (1, 99)
GOLD = (0, 99)
ROUNDS = (1, 99)
# A player's time for a move or a shop turn, in hours: one hour to the database's 30 days.
TIME_LIMIT_HOURS = (1, 30 * 24)

COMMON = tuple(kind for kind in KINDS if kind not in PROPER)
THRESHOLDS = ("pieces", "value", "digits")
# "Fewer than" thresholds: fewer than 1 piece or 1 digit could never go with a value taken.
CEILINGS = {"lawsuit": ("digits",), "honour": ("pieces",), "honour_lawsuit": ("digits", "pieces")}


def _army_totals() -> dict[str, int]:
    """What the larger army holds (pyramid components one by one): no threshold can go beyond."""
    board = Board.start()
    most = {"pieces": 0, "value": 0, "digits": 0}
    for side in (0, 1):
        values = [v for p in board.pieces[side] for v in ([v for _, v in p.parts] or [p.value])]
        most["pieces"] = max(most["pieces"], len(values))
        most["value"] = max(most["value"], sum(values))
        most["digits"] = max(most["digits"], sum(digit_count(v) for v in values))
    return most


ARMY_MOST = _army_totals()


# ---------------------------------------------------------------------------------------------
# Checks: pure, raise a DomainError (errors.settings.*) before anything is saved


def _in_range(code: str, value: int, bounds: tuple[int, int], **extra: Any) -> None:
    low, high = bounds
    if not low <= value <= high:
        raise DomainError(code, f"{value} is outside {low}–{high}", value=value, low=low,
                          high=high, **extra)


@functools.cache
def _zones() -> dict[str, str]:
    return {name.casefold(): name for name in zoneinfo.available_timezones()}


def find_timezone(typed: str) -> str:
    """The time zone named ``typed``: exactly, in any case, or by its city alone ("paris")."""
    text = typed.strip().replace(" ", "_")
    zones = _zones()
    found = zones.get(text.casefold())
    if found is None:
        cities = [name for key, name in zones.items() if key.endswith("/" + text.casefold())]
        found = cities[0] if len(cities) == 1 else None
    if found is None:
        raise DomainError("settings.unknown_timezone", f"no time zone is called {typed!r}",
                          timezone=typed)
    return found


def timezone_choices(typed: str, limit: int | None = None) -> list[str]:
    """Time zone names containing what was typed, those starting with it first; at most
    ``limit`` (the caller's: how many its menu shows)."""
    text = typed.strip().replace(" ", "_").casefold()
    names = sorted(_zones().values())
    if not text:
        return [n for n in names if "/" in n and not n.startswith("Etc/")][:limit]
    hits = [n for n in names if text in n.casefold()]
    hits.sort(key=lambda n: (not (n.casefold().startswith(text)
                                  or n.casefold().split("/")[-1].startswith(text)), n))
    return hits[:limit]


def check_daily(hour: int, timezone: str | None) -> dict[str, Any]:
    _in_range("settings.hour_out_of_range", hour, (0, 23))
    changes: dict[str, Any] = {"daily_hour": hour}
    if timezone is not None:
        changes["timezone"] = find_timezone(timezone)
    return changes


def check_focus(current: ServerSettings, min_level: int | None, max_level: int | None,
                pinned: str | None) -> dict[str, Any]:
    """Changes to the Focus levels; an unset ceiling is the engine's top level."""
    changes: dict[str, Any] = {}
    for name, level in (("focus_level_min", min_level), ("focus_level_max", max_level)):
        if level is not None:
            _in_range("settings.level_out_of_range", level, (MIN_LEVEL, MAX_LEVEL))
            changes[name] = level
    low = changes.get("focus_level_min", current.focus_level_min)
    high = changes.get("focus_level_max", current.focus_level_max or MAX_LEVEL)
    if low > high:
        raise DomainError("settings.level_range_reversed", f"lowest {low} above highest {high}",
                          min=low, max=high)
    if pinned is not None:
        if pinned == NONE:
            changes["focus_level_pinned"] = None
        else:
            try:
                level = int(pinned)
            except ValueError:
                raise DomainError("settings.level_not_a_number", f"{pinned!r} is not a level",
                                  value=pinned) from None
            _in_range("settings.level_out_of_range", level, (MIN_LEVEL, MAX_LEVEL))
            changes["focus_level_pinned"] = level
    # A pinned level is played within the range (``bot.play.focus.clamp``): one outside it
    # would be said and not played, so it is refused (as a range leaving the pinned level out).
    kept = changes.get("focus_level_pinned", current.focus_level_pinned)
    if kept is not None and not low <= kept <= high:
        raise DomainError("settings.pinned_outside_range", f"pinned {kept} outside {low}–{high}",
                          level=kept, min=low, max=high)
    return changes


def check_school_year(year: str | None) -> dict[str, Any]:
    """The server's school year (``bot.focus.school``), or ``NONE`` for the eight levels."""
    if year is None:
        return {}
    if year == NONE:
        return {"focus_school_year": None}
    if year not in YEARS:
        raise DomainError("settings.unknown_school_year", f"no school year {year!r}", value=year)
    return {"focus_school_year": year}


def check_match(lives: int | None, gold: int | None, rounds: int | None,
                draft: bool | None) -> dict[str, Any]:
    changes: dict[str, Any] = {}
    if lives is not None:
        _in_range("settings.lives_out_of_range", lives, LIVES)
        changes["match_lives"] = lives
    if gold is not None:
        _in_range("settings.gold_out_of_range", gold, GOLD)
        changes["match_gold"] = gold
    if rounds is not None:
        _in_range("settings.rounds_out_of_range", rounds, ROUNDS)
        changes["match_rounds"] = rounds
    if draft is not None:
        changes["match_draft"] = draft
    return changes


def current_victories(settings: ServerSettings) -> list[Victory]:
    """The server's default victories (the engine's when never set)."""
    stored = settings.rithmo_victories
    if stored is None:
        return [Victory.make("body"), Victory.make("mediocre")]
    return [Victory.from_json(v) for v in stored]


# ---------------------------------------------------------------------------------------------
# The victories of a game: one rule for a challenge and for the server's defaults


def choose_victories(commons: list[Victory], propers: list[Victory], *,
                     victory: str | None = None, proper: str | None = None,
                     given: Mapping[str, int] | None = None
                     ) -> tuple[list[Victory], list[Victory]]:
    """The common and proper victories after the options, from ``commons`` and ``propers``.

    ``victory`` replaces the common victories with one kind (``NONE``: no common victory); its
    thresholds are the ones ``given``, else those of the same kind in ``commons``, else the
    engine's. Thresholds given without ``victory`` change the common victories that use them.
    ``proper`` (``"off"`` or a kind) replaces the proper ones. Refusals: ``rithmo.*``."""
    given = dict(given or {})
    if victory == NONE:
        if given:
            raise DomainError("rithmo.threshold_unused", "no common victory uses thresholds",
                              threshold=next(iter(given)))
        commons = []
    elif victory is not None:
        if victory not in COMMON:
            raise DomainError("rithmo.bad_settings", f"unknown victory {victory!r}",
                              reason=f"unknown victory {victory!r}")
        for threshold in given:
            if threshold not in KINDS[victory]:
                raise DomainError("rithmo.threshold_unused",
                                  f"the victory {victory} has no threshold {threshold}",
                                  threshold=threshold)
        base = next((v for v in commons if v.kind == victory), None)
        own = {k: getattr(base, k) for k in KINDS[victory]} if base is not None else {}
        commons = [Victory.make(victory, **{**own, **given})]
    elif given:
        for threshold in given:
            if not any(threshold in KINDS[v.kind] for v in commons):
                raise DomainError("rithmo.threshold_unused",
                                  f"no chosen victory uses the threshold {threshold}",
                                  threshold=threshold)
        commons = [Victory.make(v.kind, **{k: given.get(k, getattr(v, k)) for k in KINDS[v.kind]})
                   for v in commons]
    if proper == "off":
        propers = []
    elif proper is not None:
        propers = [Victory.make(proper)]
    return commons, propers


def build_settings(
    default: Settings,
    *,
    victory: str | None = None,
    pieces: int | None = None,
    value: int | None = None,
    digits: int | None = None,
    proper: str | None = None,
    move_limit: int | None = None,
) -> Settings:
    """The settings of a challenge: the server's defaults, changed by the options given
    (:func:`choose_victories`); ``move_limit`` 0 removes the default's."""
    given = {k: v for k, v in (("pieces", pieces), ("value", value), ("digits", digits))
             if v is not None}
    commons, propers = choose_victories(
        [v for v in default.victories if v.kind not in PROPER],
        [v for v in default.victories if v.kind in PROPER],
        victory=victory, proper=proper, given=given)
    limit = default.move_limit if move_limit is None else (move_limit or None)
    if not commons and not propers and limit is None:
        raise DomainError("rithmo.no_victory", "choose at least one victory, or a move limit")
    return Settings(tuple(commons + propers), limit, default.limit_rule)


def check_rithmo(current: ServerSettings, victory: str | None, proper: str | None,
                 thresholds: Mapping[str, int | None], hours: int | None) -> dict[str, Any]:
    """Changes to the server's Rithmomachia defaults (``/settings rithmo``): one common victory
    (or ``NONE``) with its thresholds, one proper victory (or ``NONE``), the time limit.

    The victories are :func:`choose_victories`' over the server's first common and first proper
    victory, with two differences a teacher sees: a victory named starts from the engine's
    thresholds (not the ones the server had), and a threshold is refused unless an army can
    reach it (a challenge's options are bounded by the command). The refusals are
    ``settings.rithmo.*``, before anything is saved; their params are kinds and threshold
    names, worded by ``bot.ui.settings.worded``."""
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
    kind = common.kind if victory is None and common is not None else victory
    if given:
        if kind is None or kind == NONE:
            raise DomainError("settings.rithmo.thresholds_without_victory",
                              "thresholds need a common victory")
        for name, value in given.items():
            if name not in KINDS[kind]:
                raise DomainError("settings.rithmo.threshold_unused",
                                  f"the victory {kind} has no {name} threshold",
                                  victory=kind, threshold=name, uses=tuple(KINDS[kind]))
            low = 2 if name in CEILINGS.get(kind, ()) else 1
            if not low <= value <= ARMY_MOST[name]:
                raise DomainError("settings.rithmo.threshold_unreachable",
                                  f"{name} {value} is outside {low}–{ARMY_MOST[name]}",
                                  threshold=name, value=value, low=low, high=ARMY_MOST[name])
    if kind in (None, NONE) and (proper == NONE or (proper is None and proper_now is None)):
        raise DomainError("settings.rithmo.no_victory", "a game needs at least one victory")
    commons, propers = choose_victories(
        [] if victory is not None or common is None else [common],
        [] if proper_now is None else [proper_now],
        victory=victory, proper="off" if proper == NONE else proper, given=given)
    changes["rithmo_victories"] = [v.to_json() for v in (*commons, *propers)]
    return changes


# ---------------------------------------------------------------------------------------------
# The service: what the commands read and write


async def server_settings(db: Database, guild_id: int) -> ServerSettings:
    """A server's settings (the defaults when it never set any)."""
    return await db.servers.get(guild_id)


async def save_settings(db: Database, guild_id: int, changes: Mapping[str, Any]
                        ) -> tuple[ServerSettings, bool]:
    """Save checked ``changes`` in one update; the settings after, and whether anything was
    to change (no change: nothing written)."""
    if changes:
        return await db.servers.update(guild_id, **changes), True
    return await db.servers.get(guild_id), False


async def set_teacher_roles(db: Database, guild_id: int, role_ids: Iterable[int]
                            ) -> ServerSettings:
    """The server's teacher roles become ``role_ids``."""
    return await db.servers.set_admin_roles(guild_id, role_ids)
