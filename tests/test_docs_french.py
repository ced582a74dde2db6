"""The French documents follow the typography of the bot's French (issue 29): each is as
``python -m tools.french_docs`` writes it, and the checker of every French text
(tests/french_check.py) finds nothing in its prose."""

from __future__ import annotations

import re

import pytest

from tests.french_check import faults
from tools.french_docs import (
    _CODE,
    _QUOTE,
    DOCS,
    README_FRENCH,
    documents,
    typeset,
    typeset_markdown,
)

FENCED = re.compile(r"^\s*(```|~~~).*?^\s*(```|~~~)", re.DOTALL | re.MULTILINE)
LINK_TARGET = re.compile(r"\]\([^)]*\)")


def prose(name: str) -> list[str]:
    """The French lines a reader reads: fenced code left out; the French half of the README;
    only the quotations of an English page."""
    text = (DOCS / name).read_text(encoding="utf-8")
    if name == "rules/README.md":
        text = text.partition(README_FRENCH)[2]
    if name == "teachers.md":
        return _QUOTE.findall(text)
    text = LINK_TARGET.sub("]", _CODE.sub(" ", FENCED.sub("", text)))
    return [line for line in text.split("\n") if line.strip()]


@pytest.mark.parametrize("name", documents())
def test_each_french_document_is_typeset(name):
    text = (DOCS / name).read_text(encoding="utf-8")
    assert typeset(name, text) == text, f"run python -m tools.french_docs ({name})"


@pytest.mark.parametrize("name", documents())
def test_each_french_document_passes_the_check(name):
    # A document speaks to teachers and students alike and names no member: its voice and its
    # pronouns are its own; the rules of typography, dates, times and numbers are the bot's.
    found = [(line[:60], wrong) for line in prose(name)
             for wrong in faults(line, "fr", wording=False)
             if not wrong.startswith(("vous", "« à lui »"))]
    assert found == []


def test_the_docs_check_sees_a_plain_space_before_a_colon():
    assert typeset_markdown("Décision : oui\n```\nx : y\n```") == (
        "Décision\u00a0: oui\n```\nx : y\n```")
    assert faults("**Décision :** oui", "fr", wording=False)


@pytest.mark.parametrize("name", [n for n in documents() if n != "teachers.md"])
def test_each_french_document_says_each_thing_with_the_glossarys_word(name):
    from tests.test_glossary import forbidden_words

    banned = forbidden_words()
    found = [(line[:60], thing) for line in prose(name) for thing, pattern in banned
             if pattern.search(line)]
    assert found == []
