"""The services (bot/services.py): one typed object, built in ``setup_hook`` and given to every cog;
read from the code, nothing looks a service up (no ``cog_of``, no ``database()``, no service
typed ``Any``); and through the real bot, every cog holds the bot's one ``Services`` and the
persistent buttons reach the flows through it."""

from __future__ import annotations

import ast
from pathlib import Path

import discord
import pytest

from bot.services import Kept, Key, Services, services_of_client
from bot.ui.assignments import ASSIGNMENT_FLOWS
from bot.ui.focus import FOCUS_FLOWS
from bot.ui.focus_live import LIVE_FLOWS
from bot.ui.rithmo import RITHMO_FLOWS
from bot.views import Windows
from cogs import ArdoiseCog

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = sorted(path for package in ("bot", "cogs", "db", "images")
                 for path in (ROOT / package).rglob("*.py"))
#: The names a service goes by, as an attribute or a parameter.
SERVICE_NAMES = {"bot", "client", "db", "database", "services", "service", "flows", "cog"}


def _is_any(annotation: ast.expr | None) -> bool:
    if annotation is None:
        return False
    text = ast.unparse(annotation).strip("'\"")
    return text in ("Any", "typing.Any")


def untyped_services(source: str) -> list[str]:
    """Every attribute, variable or parameter named like a service (``bot``, ``db``,
    ``services``, ``flows``…) and annotated ``Any``, and every call of ``cog_of`` or
    ``database(…)`` (the lookups the services replaced) in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.AnnAssign) and _is_any(node.annotation):
            target = node.target
            name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
            if name in SERVICE_NAMES:
                found.append(f"{ast.unparse(node)} (line {node.lineno})")
        elif isinstance(node, ast.arg) and node.arg in SERVICE_NAMES and _is_any(node.annotation):
            found.append(f"parameter {node.arg}: Any (line {node.lineno})")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute):
            name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
            if name in ("cog_of", "database"):
                found.append(f"{ast.unparse(node)} (line {node.lineno})")
        elif isinstance(node, ast.FunctionDef) and node.name in ("cog_of", "database") \
                and not any(isinstance(d, ast.Name) and d.id == "property"
                            for d in node.decorator_list):
            found.append(f"def {node.name} (line {node.lineno})")
    return found


def test_the_scan_sees_a_service_looked_up_or_typed_any() -> None:
    source = ("from typing import Any\n"
              "class Mixin:\n    bot: Any\n"
              "def f(bot: Any, db: Any, other: Any) -> None:\n"
              "    cog_of(interaction, 'Rithmo').accept()\n"
              "    views.database(interaction)\n")
    assert sorted(hit.split(" (")[0] for hit in untyped_services(source)) == [
        "bot: Any", "cog_of(interaction, 'Rithmo')", "parameter bot: Any",
        "parameter db: Any", "views.database(interaction)"]
    # The bot's own typed property is no lookup.
    assert untyped_services("class B:\n    @property\n    def database(self) -> D: ...\n") == []


def test_nothing_looks_a_service_up_nor_types_one_any() -> None:
    found = {path.relative_to(ROOT).as_posix(): hits for path in PRODUCT
             if (hits := untyped_services(path.read_text(encoding="utf-8")))}
    assert found == {}


def test_a_key_keeps_one_thing_per_bot_made_once_or_put_first() -> None:
    made = []
    windows: Key[Windows[str]] = Key("test.windows", lambda: made.append(1) or Windows(60.0))
    flows: Key[str] = Key("test.flows")
    first, second = Kept(), Kept()
    assert first.get(windows) is first.get(windows)
    assert first.get(windows) is not second.get(windows)  # each bot its own
    assert made == [1, 1]
    with pytest.raises(RuntimeError, match=r"nothing is registered for test\.flows"):
        first.get(flows)
    first.put(flows, "the cog")
    assert first.get(flows) == "the cog"
    first.drop(flows, "another cog")  # not the one kept: kept
    assert first.get(flows) == "the cog"
    first.drop(flows, "the cog")
    with pytest.raises(RuntimeError):
        first.get(flows)


def test_a_client_without_services_is_refused_clearly() -> None:
    client = discord.Client(intents=discord.Intents.none())
    with pytest.raises(RuntimeError, match="Client carries no Ardoise services"):
        services_of_client(client)


async def test_every_cog_is_given_the_bots_one_services(standin, start_bot):
    bot = await start_bot()
    services = bot.services
    assert isinstance(services, Services)
    assert services.db is bot.db and services.limits is bot.limits
    assert services.searches is bot.limits.searches
    cogs = [cog for cog in bot.cogs.values() if isinstance(cog, ArdoiseCog)]
    assert {type(cog).__name__ for cog in cogs} >= {"Focus", "Rithmo", "Digits", "Classroom"}
    assert all(cog.services is services for cog in cogs)
    # The Focus flow's clocks are the services': a test moving one moves the other.
    focus = bot.get_cog("Focus").flow
    focus.seed = lambda: 7
    assert services.clocks.seed() == 7


async def test_the_buttons_flows_are_the_conductors_that_run_them(standin, start_bot):
    # What a persistent button calls (bot/ui's protocols), kept by the conductor that runs it.
    bot = await start_bot()
    kept = bot.services.kept
    assert kept.get(RITHMO_FLOWS) is bot.get_cog("Rithmo").flow
    assert kept.get(FOCUS_FLOWS) is bot.get_cog("Focus").flow
    assert kept.get(LIVE_FLOWS) is bot.get_cog("Focus").flow
    assert kept.get(ASSIGNMENT_FLOWS) is bot.get_cog("Classroom").flow


async def test_an_unloaded_conductor_is_no_longer_what_the_buttons_reach(standin, start_bot):
    # The Rithmomachia flow registers itself when built and leaves with its cog, so that a
    # click after an unload is a clear error rather than a call into a stopped conductor.
    bot = await start_bot()
    flow = bot.get_cog("Rithmo").flow
    assert bot.services.kept.get(RITHMO_FLOWS) is flow
    await bot.remove_cog("Rithmo")
    with pytest.raises(RuntimeError, match=r"nothing is registered for rithmo\.flows"):
        bot.services.kept.get(RITHMO_FLOWS)
