"""The tables of ``docs/rules/focus.md`` and ``focus.fr.md`` that the engine defines (the skills
with an example of each level, the school years shared among the eight levels, each skill's worked
correction) are exactly the engine's (``tools/focus_tables.py``), and every example in them is
right."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tools.focus_tables import names_table, skills_table, steps_table, years_table

RULES = Path(__file__).resolve().parent.parent / "docs" / "rules"


def between(text: str, name: str) -> str:
    found = re.search(rf"<!-- {name} -->\n(.*?)\n<!-- /{name} -->", text, re.DOTALL)
    assert found is not None, f"no {name} in the document"
    return found[1]


@pytest.mark.parametrize(("document", "lang"), [("focus.md", "en"), ("focus.fr.md", "fr")])
def test_the_documents_hold_the_engine_s_tables(document: str, lang: str) -> None:
    text = (RULES / document).read_text(encoding="utf-8")
    assert between(text, "skills-table") == skills_table(lang), \
        f"regenerate with python -m tools.focus_tables {lang}"
    assert between(text, "years-table") == years_table(lang)
    assert between(text, "steps-table") == steps_table(lang)


def test_the_teachers_guide_names_every_skill_in_both_languages() -> None:
    text = (RULES.parent / "teachers.md").read_text(encoding="utf-8")
    assert between(text, "names-table") == names_table(), \
        "regenerate with python -m tools.focus_tables names"


def test_each_example_of_the_skills_table_is_a_question_of_its_level() -> None:
    import random

    from bot.focus.skills import SKILLS, generate_skill
    from tools.focus_tables import SEED
    rows = skills_table("en").splitlines()[2:]
    assert len(rows) == len(SKILLS)
    for row, skill in zip(rows, SKILLS.values(), strict=True):
        examples = re.findall(r"`([^`]+)` \((\d)\)", row)
        assert len(examples) == len(skill.levels)
        for (text, tier), level in zip(examples, skill.levels, strict=True):
            [q] = generate_skill(skill.id, level.number, 1, random.Random(SEED))
            assert (text, int(tier)) == (q.text, level.tier)
