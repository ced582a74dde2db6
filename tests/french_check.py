"""The rules a French text the bot sends must follow, as a French teacher reads it, and the few
an English one must: one checker for the catalogue, the pictures' words and the docs.

``faults(text, lang)`` lists what is wrong with one text as sent (typeset); an empty list is a
text that passes. tests/test_typography.py runs it over every catalogue entry rendered with
sample values, over the words of the pictures, and over the examples the issue quoted (each of
which must fail).
"""

from __future__ import annotations

import re

from bot.focus.skills import SKILLS

NNBSP, NBSP = "\u202f", "\u00a0"
#: What the rules never read: code, URLs, Discord's syntax, emoji codes.
PROTECTED = re.compile(
    r"```.*?```|`[^`\n]*`|https?://[^\s<>)]+|<(?:[@#/]|a?:|t:)[^<>\s]*>"
    r"|(?<![\w:]):[a-z0-9_+-]+:(?![\w:])", re.DOTALL)
MONTHS = ("janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|"
          "décembre|janv\\.|févr\\.|avr\\.|juil\\.|sept\\.|oct\\.|nov\\.|déc\\.")

FRENCH_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("an ordinary space before high punctuation",
     # A "?" before an operator is a question's unknown (« 12 × ? = 96 »), not punctuation.
     re.compile(r"[^\s(\[{«<|][ \t]+(?:[;:!]|\?(?!\s*[=+−×÷]))(?=\s|$|[*_)»\"])")),
    ("a wide space before ; ! ? (a narrow one is right)", re.compile(rf"\S{NBSP}[;!?]")),
    ("no space before ; ! ?", re.compile(r"[\w*_)»\"'’…][;!?]+(?=\s|$|[*_)\"])")),
    ("no space before :", re.compile(r"[\w*_)»\"'’][:](?=\s|$)")),
    ("no space inside « »", re.compile(rf"«(?![{NNBSP}])|(?<![{NNBSP}])»")),
    ("\"1\" before a month (French writes « 1er »)",
     re.compile(rf"(?<![\d,]){'1'}[ {NBSP}{NNBSP}](?:{MONTHS})(?!\w)")),
    ("a time written HH:MM (French writes « 18 h 30 »)", re.compile(r"\b\d{1,2}:\d{2}\b")),
    ("« à lui » or « à elle » about a member", re.compile(r"\bà (lui|elle)\b", re.IGNORECASE)),
    ("vous in a text that says tu",
     re.compile(r"\b(vous|votre|vos)\b|(?:^|[.!?:]\s+)[A-ZÉ][a-zéè]+ez\b", re.IGNORECASE)),
    ("a decimal point in a number",
     re.compile(r"(?<![\w.])(?<!§ )(?<!§\u00a0)\d+\.\d+(?!\w|\.\d)")),
    ("a group of digits not kept together", re.compile(r"(?<![\d,])\d{1,3} \d{3}(?!\d)")),
    ("« n° » apart from its number", re.compile(r"n° ")),
)

#: "la n° 1": a number's noun left out; "que tu peux" after a superlative; the calques and
#: words the glossary (docs/glossary.md) replaced; "rang" for a tier ("rangée" is the board's).
FRENCH_WORDING: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("a noun left out before « n° »", re.compile(r"\b(la|le|les) n°")),
    ("« que tu peux » after a superlative (« que tu puisses »)",
     re.compile(r"\bplus \w+ que tu peux\b")),
    ("« médiocre »: a calque (« petite victoire propre »)", re.compile(r"médiocre", re.I)),
    ("« classé avec » (« à égalité avec »)", re.compile(r"\bclassée? avec\b")),
    ("« saute un et trois »: cryptic", re.compile(r"saute un et trois")),
    ("« rang » for a tier (the glossary says « palier »)",
     re.compile(r"\b[Rr]ang \d|\b[Rr]ang \{")),
    ("a piece named bare after « était »", re.compile(r"\bétait [RTCP]\d")),
    ("a correction read as one equation (« 12 × ? = 96 = 8 »)",
     # (« → ? = 99 ÷ 11 = 9 », a worked step after the arrow, is a chain of computations)
     re.compile(r"(?<!→)(?<!→[ \u202f])\?[^=\n→]*=[\d ,.\u202f]+=")),
    ("« /rithmomachie abandon »: the command is « abandonner »",
     re.compile(r"/rithmomachie abandon\b")),
)

ENGLISH_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("a space before a colon", re.compile(r"\w :(?=\s|$)")),
    ("a word run into the next (\"answers2\")", re.compile(r"[a-z]{3,}\d")),
)

#: A catalogue key or a skill id shown to a member.
KEY = re.compile(r"\b(?:errors|images|focus|digits|rithmo|settings|class|progress|reports|meta)"
                 r"\.[a-z_]+\.[a-z_.]+\b")
SKILL_IDS = re.compile(r"(?<![\w/`-])(" + "|".join(
    re.escape(skill) for skill in sorted(SKILLS, key=len, reverse=True) if "-" in skill)
    + r")(?![\w-])")
PLACEHOLDER = re.compile(r"\{[a-z_0-9]+\}")


def readable(text: str) -> str:
    """The words a member reads: code, URLs and Discord's syntax left out (a space each)."""
    return PROTECTED.sub(" ", text)


def faults(text: str, lang: str, *, wording: bool = True) -> list[str]:
    """What is wrong with ``text`` as the bot sends it in ``lang`` (nothing: an empty list)."""
    words = readable(text)
    found = []
    rules = FRENCH_RULES + (FRENCH_WORDING if wording else ()) if lang == "fr" else ENGLISH_RULES
    for name, rule in rules:
        match = rule.search(words)
        if match is not None:
            found.append(f"{name}: …{words[max(0, match.start() - 25):match.end() + 10]}…")
    for name, rule in (("a catalogue key", KEY), ("a skill id", SKILL_IDS),
                       ("a placeholder left unfilled", PLACEHOLDER)):
        match = rule.search(words)
        if match is not None:
            found.append(f"{name}: {match.group(0)}")
    return found
