"""French typography in the French documents, by the bot's own rule (``bot.texts.typography``).

``python -m tools.french_docs`` rewrites them in place; ``tests/test_docs_french.py`` checks that
each is already as this would write it. The French documents are ``docs/rules``' French pages,
the French half of ``docs/rules/README.md``, ``docs/privacy.fr.md``, ``docs/teachers.fr.md``,
``docs/web-room.fr.md``, and the French quotations (« … ») of ``docs/teachers.md``, an English
page. Code blocks and code spans are left alone.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from bot.texts import typography

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
#: Wholly French pages.
FRENCH = ("rules/les-20-chiffres.md", "rules/rithmomachie.md", "rules/focus.fr.md",
          "privacy.fr.md", "teachers.fr.md", "web-room.fr.md")
#: Where the French half of the rules' README starts.
README_FRENCH = "## En français"
_FENCE = re.compile(r"^\s*(```|~~~)")
_QUOTE = re.compile(r"«[^«»\n]*»")


#: A code span, which may run over a line break in a paragraph.
_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1", re.DOTALL)
#: Stands for the code beside a piece of prose, so that the rules see a word there.
_BESIDE = "\ue001"  # a private-use character: a word to the rules, never kept


def typeset_markdown(text: str) -> str:
    """``text`` with its prose typeset as French: fenced blocks and code spans left alone."""
    out: list[str] = []
    prose: list[str] = []
    fenced = False
    for line in text.split("\n"):
        if _FENCE.match(line):
            if not fenced:
                out.append(_typeset_prose("\n".join(prose))) if prose else None
                prose = []
            fenced = not fenced
            out.append(line)
        elif fenced:
            out.append(line)
        else:
            prose.append(line)
    if prose:
        out.append(_typeset_prose("\n".join(prose)))
    return "\n".join(out)


def _typeset_prose(text: str) -> str:
    pieces, at = [], 0
    for code in _CODE.finditer(text):
        pieces.append(_typeset_piece(text[at:code.start()], at > 0, True))
        pieces.append(code.group(0))
        at = code.end()
    pieces.append(_typeset_piece(text[at:], at > 0, False))
    return "".join(pieces)


def _typeset_piece(text: str, code_before: bool, code_after: bool) -> str:
    """Prose between code spans, typeset as if the code were a word beside it."""
    if not text:
        return text
    before, after = _BESIDE * code_before, _BESIDE * code_after
    done = typography(before + text + after, "fr")
    return done[len(before):len(done) - len(after)]


def typeset_quotes(text: str) -> str:
    """An English page: only its French quotations typeset (« un élève »)."""
    return _QUOTE.sub(lambda m: typography(m.group(0), "fr"), text)


def typeset(name: str, text: str) -> str:
    """The document ``name`` (relative to ``docs/``) as it should read."""
    if name == "rules/README.md":
        head, mark, french = text.partition(README_FRENCH)
        return head + mark + typeset_markdown(french) if mark else text
    if name == "teachers.md":
        return typeset_quotes(text)
    return typeset_markdown(text)


def documents() -> tuple[str, ...]:
    return (*FRENCH, "rules/README.md", "teachers.md")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.french_docs",
        description="Typeset the French documents in place (no-break spaces, as the bot's "
                    "French): " + ", ".join(documents()) + ".")
    parser.parse_args(argv)
    for name in documents():
        path = DOCS / name
        text = path.read_text(encoding="utf-8")
        done = typeset(name, text)
        if done != text:
            path.write_text(done, encoding="utf-8")
            print(f"typeset {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
