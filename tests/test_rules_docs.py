"""The French rules documents stay in step with the English ones.

Each English document under docs/rules/ has a French translation with the same headings (## and
###, in the same order and at the same levels) and, section by section, the same numbers: the
multiset of the whole numbers written in it. A rule changed, added or dropped on one side only
makes these tests fail, so the two languages cannot drift apart silently.

Only link targets are left out of the numbers (a French document links to French pages, an
English one to English pages); headings, tables, examples, inline code and code blocks all count.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parent.parent / "docs" / "rules"

# English document -> its French translation, both in docs/rules/.
PAIRS: dict[str, str] = {
    "the-20-digits.md": "les-20-chiffres.md",
    "rithmomachia.md": "rithmomachie.md",
    "focus.md": "focus.fr.md",
}

# Where a translation truly needs numbers its original lacks (or the reverse): French document ->
# French heading line of the section -> {number: count in French − count in English}. Each entry
# must say why. An entry that no longer matches a real difference fails too, so none goes stale.
# None is needed today.
EXCEPTIONS: dict[str, dict[str, dict[int, int]]] = {}

_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^(#{2,3})\s+\S")
_LINK_TARGET = re.compile(r"\]\([^)]*\)")
_NUMBER = re.compile(r"[0-9]+")


def sections(text: str) -> list[tuple[str, str]]:
    """(heading line, text) for the part before the first ## heading and for every ## and ###
    section; the heading line of the first part is ""; lines inside code blocks are never
    headings."""
    parts: list[tuple[str, list[str]]] = [("", [])]
    in_code = False
    for line in text.splitlines():
        if _FENCE.match(line):
            in_code = not in_code
        elif not in_code and _HEADING.match(line):
            parts.append((line.strip(), []))
        parts[-1][1].append(line)
    return [(heading, "\n".join(lines)) for heading, lines in parts]


def heading_level(heading: str) -> int:
    return len(heading) - len(heading.lstrip("#"))


def numbers(text: str) -> Counter[int]:
    return Counter(int(n) for n in _NUMBER.findall(_LINK_TARGET.sub("]", text)))


def differences(english: str, french: str,
                allowed: dict[str, dict[int, int]] | None = None) -> list[str]:
    """Every way the French text fails to follow the English one; [] when in step."""
    allowed = allowed or {}
    en, fr = sections(english), sections(french)
    en_levels = [heading_level(h) for h, _ in en[1:]]
    fr_levels = [heading_level(h) for h, _ in fr[1:]]
    if en_levels != fr_levels:
        return [
            "headings differ: English "
            + " | ".join(h for h, _ in en[1:])
            + "\nFrench "
            + " | ".join(h for h, _ in fr[1:])
        ]
    problems = []
    unused = set(allowed)
    for (en_heading, en_text), (fr_heading, fr_text) in zip(en, fr, strict=True):
        en_numbers, fr_numbers = numbers(en_text), numbers(fr_text)
        delta = {n: fr_numbers[n] - en_numbers[n] for n in en_numbers | fr_numbers
                 if fr_numbers[n] != en_numbers[n]}
        expected = allowed.get(fr_heading, {})
        unused.discard(fr_heading)
        if delta != expected:
            only_en = sorted((en_numbers - fr_numbers).elements())
            only_fr = sorted((fr_numbers - en_numbers).elements())
            problems.append(
                f"section {en_heading or '(opening)'!r} / {fr_heading or '(opening)'!r}: "
                f"only in English {only_en}, only in French {only_fr}"
                + (f" (allowed difference {expected})" if expected else ""))
    problems.extend(f"exception for a missing section {heading!r}" for heading in sorted(unused))
    return problems


def _read(name: str) -> str:
    path = RULES / name
    assert path.is_file(), f"docs/rules/{name} is missing"
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("english, french", sorted(PAIRS.items()))
def test_french_rules_document_follows_the_english_one(english: str, french: str) -> None:
    problems = differences(_read(english), _read(french), EXCEPTIONS.get(french))
    assert not problems, f"{french} is out of step with {english}:\n" + "\n".join(problems)


def test_every_rules_document_is_paired_with_its_translation() -> None:
    documents = {p.name for p in RULES.glob("*.md")} - {"README.md"}
    known = set(PAIRS) | set(PAIRS.values())
    assert documents - known == set(), "rules documents with no translation in PAIRS"
    assert known - documents == set(), "rules documents missing from docs/rules/"


def test_readme_lists_every_rules_document_in_both_languages() -> None:
    readme = _read("README.md")
    for name in sorted(set(PAIRS) | set(PAIRS.values())):
        assert f"]({name})" in readme, f"README.md does not link to {name}"
    assert "## En français" in readme


def test_exceptions_name_real_french_documents() -> None:
    assert set(EXCEPTIONS) <= set(PAIRS.values())


ENGLISH_SAMPLE = """# Title 20

Intro with 3 and 12.

## Part one
Costs 2, 3, 4 and 5 gold; see [the page](the-20-digits.md).

```
## not a heading 7
```

### Detail
A shield of (N + 1)² = 9.
"""

FRENCH_SAMPLE = """# Titre 20

Introduction avec 3 et 12.

## Première partie
Coûte 2, 3, 4 et 5 or ; voir [la page](les-20-chiffres.md).

```
## pas un titre 7
```

### Détail
Un bouclier de (N + 1)² = 9.
"""


def test_a_faithful_translation_passes() -> None:
    assert differences(ENGLISH_SAMPLE, FRENCH_SAMPLE) == []


def test_a_changed_number_is_caught_in_its_section() -> None:
    problems = differences(ENGLISH_SAMPLE, FRENCH_SAMPLE.replace("= 9", "= 16"))
    assert problems == ["section '### Detail' / '### Détail': only in English [9], "
                        "only in French [16]"]


def test_a_dropped_number_is_caught() -> None:
    problems = differences(ENGLISH_SAMPLE, FRENCH_SAMPLE.replace("3 et 12", "3"))
    assert problems == ["section '(opening)' / '(opening)': only in English [12], "
                        "only in French []"]


def test_a_missing_or_moved_heading_is_caught() -> None:
    missing = FRENCH_SAMPLE.replace("### Détail\n", "")
    assert differences(ENGLISH_SAMPLE, missing)[0].startswith("headings differ")
    demoted = FRENCH_SAMPLE.replace("### Détail", "## Détail")
    assert differences(ENGLISH_SAMPLE, demoted)[0].startswith("headings differ")


def test_an_allowed_difference_passes_only_when_it_is_exactly_the_difference() -> None:
    french = FRENCH_SAMPLE.replace("= 9.", "= 9 (le 1er).")
    allowed = {"### Détail": {1: 1}}
    assert differences(ENGLISH_SAMPLE, french, allowed) == []
    assert differences(ENGLISH_SAMPLE, FRENCH_SAMPLE, allowed) != []
    stale = {"### Détail": {1: 1}, "### Ailleurs": {1: 1}}
    assert differences(ENGLISH_SAMPLE, french, stale) == [
        "exception for a missing section '### Ailleurs'"]
