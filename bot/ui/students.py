"""``/class student``'s presentation: what applies to one student, in words (their own settings
and what comes from the server), and the command's choices."""

from __future__ import annotations

import discord
from discord.app_commands import Choice, locale_str

from bot.focus import MAX_LEVEL, MIN_LEVEL
from bot.i18n import t
from bot.play.students import NORMAL_TIME, SERVER, SHOWN, StudentView
from bot.replies import shown_name
from bot.ui.settings import SCHOOL_YEARS_EN

#: Catalogue keys of the extra times (a key has no dot of its own: "x1.5" is "x15").
TIME_KEYS = {None: "normal", "x1.5": "x15", "x2": "x2", "untimed": "untimed"}
COLOUR = 0x457B9D


def level_choices() -> list[Choice[str]]:
    """Levels 1–8 and "As the server" (which unpins, or drops that bound of the range)."""
    return [*(Choice(name=locale_str(f"Level {n}", key=f"class_students.choices.level.{n}"),
                     value=str(n)) for n in range(MIN_LEVEL, MAX_LEVEL + 1)),
            Choice(name=locale_str("As the server", key="class_students.choices.server"),
                   value=SERVER)]


def time_choices() -> list[Choice[str]]:
    names = {NORMAL_TIME: "Normal", "x1.5": "×1.5", "x2": "×2", "untimed": "No timer"}
    return [Choice(name=locale_str(name, key=f"class_students.choices."
                                              f"{TIME_KEYS.get(value) or 'normal'}"),
                   value=value) for value, name in names.items()]


def rankings_choices() -> list[Choice[str]]:
    names = {SHOWN: "Shown by name", "anonymous": "As “a student”", "hidden": "Left out"}
    return [Choice(name=locale_str(name, key=f"class_students.choices.{value}"), value=value)
            for value, name in names.items()]


def school_year_choices() -> list[Choice[str]]:
    """The school years (``bot.focus.school``) and "As the server"."""
    return [*(Choice(name=locale_str(name, key=f"settings.choices.school_year.{year}"),
                     value=year) for year, name in SCHOOL_YEARS_EN.items()),
            Choice(name=locale_str("As the server", key="class_students.choices.server"),
                   value=SERVER)]


def school_year_line(view: StudentView, lang: str) -> str | None:
    """Their school year and where it comes from (their own or the server's); None without
    one (practice as it always was: nothing to say)."""
    own, server = view.student.school_year, view.server.focus_school_year
    if own is not None:
        return t("class_students.school_year.own", lang,
                 year=t(f"focus.school_years.{own}", lang))
    if server is not None:
        return t("class_students.school_year.server", lang,
                 year=t(f"focus.school_years.{server}", lang))
    return None


def focus_text(view: StudentView, lang: str) -> str:
    """The Focus lines: the rule that applies, where it comes from, the level now, matches."""
    rules, server, student = view.focus, view.server_focus, view.student
    lines = []
    if rules.own and rules.pinned is not None:
        lines.append(t("class_students.focus.pinned", lang, level=rules.pinned))
    elif rules.own:
        lines.append(t("class_students.focus.range", lang, low=rules.low, high=rules.high))
    elif server.pinned is not None:
        lines.append(t("class_students.focus.server_pinned", lang, level=server.pinned))
    else:
        lines.append(t("class_students.focus.server_range", lang, low=server.low,
                       high=server.high))
    if rules.own:
        lines.append(t("class_students.focus.server_note_pinned", lang, level=server.pinned)
                     if server.pinned is not None else
                     t("class_students.focus.server_note_range", lang, low=server.low,
                       high=server.high))
    lines.append(t("class_students.focus.now", lang, level=rules.level_of(view.player)))
    if student.level_pinned is not None:
        lines.append(t("class_students.focus.matches_pinned", lang, level=student.level_pinned))
    elif student.level_min is not None or student.level_max is not None:
        lines.append(t("class_students.focus.matches_range", lang,
                       low=student.level_min or MIN_LEVEL, high=student.level_max or MAX_LEVEL))
    else:
        lines.append(t("class_students.focus.matches_server", lang))
    year = school_year_line(view, lang)
    if year is not None:
        lines.append(year)
    lines.append(t("class_students.focus.daily", lang))
    return "\n".join(lines)


def student_embed(view: StudentView, name: str, lang: str) -> discord.Embed:
    """What applies to the student ``name``, in words."""
    student = view.student
    embed = discord.Embed(title=t("class_students.title", lang, name=shown_name(name)),
                          description=t("class_students.undo", lang), colour=COLOUR)
    embed.add_field(name=t("class_students.focus.title", lang), value=focus_text(view, lang),
                    inline=False)
    embed.add_field(name=t("class_students.time.title", lang),
                    value=t(f"class_students.time.{TIME_KEYS[student.extra_time]}", lang),
                    inline=False)
    embed.add_field(name=t("class_students.rankings.title", lang),
                    value=t(f"class_students.rankings.{student.rankings or SHOWN}", lang),
                    inline=False)
    embed.set_footer(text=t("class_students.footer", lang))
    return embed
