"""The skills and topics a teacher names for a live round or an assignment (``skill:``,
``topic:``), as the server's school year offers them.

Discord has no option that takes several values, so ``skill:`` is one text option whose
autocomplete offers continuations: typing "fra" offers "adding fractions", "subtracting
fractions", …; once one is picked, typing on (", pow" or "+ pow") offers "adding fractions +
powers". A choice's value is the skills' ids joined by commas (never shown); a member who sends
what they typed instead, without picking, is read the same way: each skill by its id or its
name in English or French (the longest name first, so that "decimals × 10, 100, 1000" is one
skill, commas and all), separated by commas, semicolons or "+". Anything else is refused, with
the part that is no skill named, and nothing is drawn.

The offers are the server's school year's skills, easiest first (all the skills when the server
has no year); a skill the year does not practise may still be typed on purpose (all its levels
are then asked: ``bot.focus.school.year_refs``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from bot.domain import DomainError
from bot.focus.questions import TOPICS
from bot.focus.school import YEARS, ladder
from bot.focus.skills import ALL_TOPICS, SKILLS
from bot.play.class_report import topic_key
from bot.play.focus import practice_year
from bot.texts import skill_name
from db import Database, ServerSettings

#: Discord's longest choice name and value.
CHOICE_CHARS = 100
#: Between two skills, as typed.
SEPARATORS = ",;+"
#: Between two skills' names, in a choice.
SHOWN_SEPARATOR = " + "
LANGS = ("en", "fr")


def server_year(settings: ServerSettings) -> str | None:
    """The server's school year (a student's own plays no part: the round is the class's)."""
    return practice_year(settings, None)


def offered_skills(year: str | None) -> tuple[str, ...]:
    """The skills ``skill:`` offers: the year's, easiest first; every skill without a year."""
    if year is None:
        return tuple(SKILLS)
    return tuple(dict.fromkeys(skill for skill, _ in ladder(year)))


def offered_topics(year: str | None) -> tuple[str, ...]:
    """The topics ``/class assign topic:`` offers: the eight levels' without a year (as before
    school years); with one, the topics of the year's skills, in the catalogue's order."""
    if year is None:
        return TOPICS
    have = {SKILLS[skill].topic for skill, _ in YEARS[year].skills}
    return tuple(topic for topic in ALL_TOPICS if topic in have)


def topic_skills(topic: str, year: str | None) -> tuple[str, ...]:
    """The skills an assignment on ``topic`` asks: the year's skills of that topic, else every
    skill of it (a topic the year does not practise, asked on purpose)."""
    mine = tuple(s for s in offered_skills(year) if SKILLS[s].topic == topic) if year else ()
    return mine or tuple(s for s, skill in SKILLS.items() if skill.topic == topic)


def read_topic(typed: str) -> str:
    """The Focus topic a teacher picked or typed (its key, or its name in either language);
    one the year does not offer may be typed on purpose. Refused
    (``focus_year.unknown_topic``): no such topic."""
    topic = topic_key(typed)
    if topic not in ALL_TOPICS:
        raise DomainError("focus_year.unknown_topic", f"no Focus topic {typed!r}",
                          text=typed[:CHOICE_CHARS])
    return topic


@cache
def _names() -> tuple[tuple[str, str], ...]:
    """(a way of writing a skill, folded; the skill): its id and its names in both languages,
    the longest first."""
    pairs = {(text.casefold(), skill) for skill in SKILLS
             for text in (skill, *(skill_name(skill, lang) for lang in LANGS))}
    return tuple(sorted(pairs, key=lambda pair: (-len(pair[0]), pair)))


def _parse(typed: str) -> tuple[list[str], str]:
    """The skills ``typed`` names from its start, in order (each once), and what is left once
    no more can be read (``""``: all of it was skills)."""
    folded = typed.casefold()
    # Folding keeps the length of every name and id here; a text whose length it changes (ß)
    # is read folded, its rest said folded too.
    source = typed if len(folded) == len(typed) else folded
    found: list[str] = []
    at = 0
    while True:
        while at < len(folded) and (folded[at].isspace() or folded[at] in SEPARATORS):
            at += 1
        if at == len(folded):
            return found, ""
        for name, skill in _names():
            end = at + len(name)
            if folded.startswith(name, at) and (
                    end == len(folded) or folded[end].isspace() or folded[end] in SEPARATORS):
                if skill not in found:
                    found.append(skill)
                at = end
                break
        else:
            return found, source[at:].strip()


def read_skills(typed: str | None) -> tuple[str, ...]:
    """The skills of the ``skill:`` option (a choice's ids, or names as typed); none for an
    empty option. Refused (``focus_year.unknown_skill``, naming what is no skill): anything
    that is not skills."""
    if typed is None or not typed.strip():
        return ()
    found, rest = _parse(typed)
    if rest or not found:
        raise DomainError("focus_year.unknown_skill", f"no Focus skill {rest or typed!r}",
                          text=(rest or typed)[:CHOICE_CHARS])
    return tuple(found)


def skill_choices(typed: str, year: str | None, lang: str) -> list[tuple[str, str]]:
    """The autocomplete of ``skill:`` as (name in ``lang``, value): what is typed so far, read
    as skills, followed by each offered skill not in it yet whose name (or id) holds what is
    being typed after them. Names and values fit Discord's 100 characters (a long list of names
    keeps its end, which the member has just added)."""
    found, rest = _parse(typed)
    wanted = rest.casefold()
    choices: list[tuple[str, str]] = []

    def offer(skills: Sequence[str]) -> None:
        value = ",".join(skills)
        if len(value) > CHOICE_CHARS:
            return
        name = SHOWN_SEPARATOR.join(skill_name(s, lang) for s in skills)
        if len(name) > CHOICE_CHARS:
            name = "…" + name[-(CHOICE_CHARS - 1):]
        choices.append((name, value))

    if found and not rest:
        offer(found)
    for skill in offered_skills(year):
        if skill in found:
            continue
        if wanted and wanted not in skill_name(skill, lang).casefold() and wanted not in skill:
            continue
        offer([*found, skill])
    return choices


def topic_choices(typed: str, year: str | None, lang: str) -> list[tuple[str, str]]:
    """The autocomplete of ``/class assign topic:`` as (name in ``lang``, key): the topics the
    year offers whose name (or key) holds what is typed."""
    wanted = typed.strip().casefold()
    return [(skill_name(topic, lang), topic) for topic in offered_topics(year)
            if not wanted or wanted in skill_name(topic, lang).casefold() or wanted in topic]


async def skill_offers(db: Database, guild_id: int, typed: str, lang: str
                       ) -> list[tuple[str, str]]:
    """``skill_choices`` for the server's school year."""
    return skill_choices(typed, server_year(await db.servers.get(guild_id)), lang)


async def topic_offers(db: Database, guild_id: int, typed: str, lang: str
                       ) -> list[tuple[str, str]]:
    """``topic_choices`` for the server's school year."""
    return topic_choices(typed, server_year(await db.servers.get(guild_id)), lang)
