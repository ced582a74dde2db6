"""The ``/class`` commands' option bounds and choices, the rules' own
(``bot.play.assignments``): ``cogs/classroom.py`` and its mixins declare them without importing
a use case or an engine (tests/test_flows.py)."""

from __future__ import annotations

from discord import app_commands

from bot.play import assignments as homework

#: An assignment's longest name, its most questions and their number by default.
NAME_LENGTH, MAX_COUNT, DEFAULT_COUNT = (homework.NAME_LENGTH, homework.MAX_COUNT,
                                         homework.DEFAULT_COUNT)

#: The report's periods, by their choice value, with their English names.
PERIODS = {"today": "Today", "week": "The last 7 days", "month": "The last 30 days",
           "term": "The last 90 days", "all": "Since the start"}
PERIOD_OPTIONS = [app_commands.Choice(name=app_commands.locale_str(name,
                                                                   key=f"class.periods.{value}"),
                                      value=value) for value, name in PERIODS.items()]
