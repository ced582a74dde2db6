"""The tables of ``docs/rules/focus.md`` (and ``focus.fr.md``) that the engine defines: the skills
with their names and an example of each level, the school years shared among the eight Focus
levels, and each skill's worked correction; and the table of ``docs/teachers.md`` that names every
skill in both languages.

``python -m tools.focus_tables en`` (or ``fr``) prints the first three, ``python -m
tools.focus_tables names`` the last; ``tests/test_focus_docs.py`` checks that the documents hold
exactly these tables, so that they never drift from the engine and its catalogue.
"""

from __future__ import annotations

import argparse
import random

from bot.corrections import worked
from bot.focus.questions import MAX_LEVEL, MIN_LEVEL
from bot.focus.school import YEARS, pool
from bot.focus.skills import SKILLS, generate_skill
from bot.i18n import t
from bot.texts import question_text, skill_level_name, skill_name, typography

HEAD = {
    "en": {"skill": "Skill", "name": "Name", "topic": "Topic", "form": "Answer",
           "level": "Level {n}",
           "year": "School year", "example": "Question", "steps": "Worked correction",
           "forms": {"whole": "whole number", "decimal": "decimal", "fraction": "fraction",
                     "lowest": "fraction in lowest terms"}},
    "fr": {"skill": "Compétence", "name": "Nom", "topic": "Thème", "form": "Réponse",
           "level": "Niveau {n}",
           "year": "Année scolaire", "example": "Question", "steps": "Correction détaillée",
           "forms": {"whole": "nombre entier", "decimal": "nombre décimal",
                     "fraction": "fraction", "lowest": "fraction irréductible"}},
}
SEED = 2026


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def skills_table(lang: str) -> str:
    """One row a skill: its id, its name (as members read it), topic, form of answer, and per
    level its name, an example and its tier (the Focus level of the same difficulty)."""
    words = HEAD[lang]
    most = max(len(skill.levels) for skill in SKILLS.values())
    lines = [_row([words["skill"], words["name"], words["topic"], words["form"],
                   *(words["level"].format(n=n) for n in range(1, most + 1))]),
             _row(["---"] * (4 + most))]
    for skill in SKILLS.values():
        cells = [f"`{skill.id}`", skill_name(skill.id, lang),
                 t(f"focus.topics.{skill.topic}", lang), words["forms"][skill.form]]
        for level in skill.levels:
            [q] = generate_skill(skill.id, level.number, 1, random.Random(SEED))
            colon = "\u00a0:" if lang == "fr" else ":"
            cells.append(typography(f"{skill_level_name(skill.id, level.number, lang)}{colon} "
                                    f"`{q.text}` ({level.tier})", lang))
        cells += [""] * (most - len(skill.levels))
        lines.append(_row(cells))
    return "\n".join(lines)


def steps_table(lang: str) -> str:
    """One row a skill: an example question (its level 2 when it has one: richer than the
    first) and the worked correction a member reads after a wrong answer, in ``lang``."""
    words = HEAD[lang]
    lines = [_row([words["skill"], words["example"], words["steps"]]), _row(["---"] * 3)]
    for skill in SKILLS.values():
        level = min(2, len(skill.levels))
        [q] = generate_skill(skill.id, level, 1, random.Random(SEED))
        lines.append(_row([f"`{skill.id}`", f"`{question_text(q.text, lang)}`",
                           typography(worked(q.skill, q.text, q.answer, lang) or "", lang)]))
    return "\n".join(lines)


def names_table(lang: str = "en") -> str:
    """One row a skill: its id (what ``skill:`` takes and the command line prints) and its name
    in English and in French (what members read: the mastery map, ``/progress``, ``/class
    report``, the lists offered as you type, the Focus window's footer); for ``fr`` (the French
    teachers' guide), the French name first and the headings in French."""
    first, second = (("fr", "en") if lang == "fr" else ("en", "fr"))
    head = {"en": ["Skill", "English", "French"], "fr": ["Compétence", "Français", "Anglais"]}
    lines = [_row(head["fr" if lang == "fr" else "en"]), _row(["---"] * 3)]
    for skill in SKILLS.values():
        lines.append(_row([f"`{skill.id}`", skill_name(skill.id, first),
                           skill_name(skill.id, second)]))
    return "\n".join(lines)


def years_table(lang: str) -> str:
    """One row a school year: what each Focus level draws from (skill and its level)."""
    words = HEAD[lang]
    lines = [_row([words["year"], *(str(n) for n in range(MIN_LEVEL, MAX_LEVEL + 1))]),
             _row(["---"] * (1 + MAX_LEVEL))]
    for year in YEARS:
        cells = [f"`{year}`"]
        for level in range(MIN_LEVEL, MAX_LEVEL + 1):
            cells.append("<br>".join(f"`{skill}` {n}" for skill, n in pool(year, level)))
        lines.append(_row(cells))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.focus_tables",
                                     description="The tables of docs/rules/focus.md, as Markdown.")
    parser.add_argument("lang", nargs="?", default="en",
                        choices=[*sorted(HEAD), "names", "names-fr"],
                        help="en (focus.md), fr (focus.fr.md), names (teachers.md) or "
                             "names-fr (teachers.fr.md)")
    args = parser.parse_args(argv)
    if args.lang in ("names", "names-fr"):
        print(names_table("fr" if args.lang == "names-fr" else "en"))
        return 0
    print(skills_table(args.lang))
    print()
    print(years_table(args.lang))
    print()
    print(steps_table(args.lang))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
