"""The CSV files the bot writes (class report, live report, assignment report, a question set's
file), made so that no cell a member or a teacher typed runs as a formula in a spreadsheet.

Following OWASP's advice on CSV injection, a cell is kept as text by a leading ``'`` when a
spreadsheet would read it as a formula: when its first character is a tab or a carriage return,
or when its first character after the leading spaces (any Unicode space, the no-break spaces
U+00A0 and U+202F included: some spreadsheets trim them) is ``=``, ``+``, ``-`` or ``@``. A plain
number stays a number: ``-3``, ``-2.5`` or ``-2,5`` (an optional minus, digits, one optional
decimal point or comma) is no formula in any spreadsheet, and a report's negative figure or a
question's expected answer ``-12`` must still add up. Everything else that starts so (``-3+4``,
``+1+1``, ``=HYPERLINK(…)``, ``@SUM(…)``) gets the ``'``. A cell that holds a separator, the
file's or another (``,``, ``;``, a tab), is quoted, so that a spreadsheet that splits on another
separator than the file's (a French one opening an English file splits on ``;``) cannot turn the
end of a cell into a cell of its own that starts a formula.

A question set's file is read back by ``bot.play.question_sets``: ``unneutralised`` takes the
``'`` off again, so that a teacher's download, edited and uploaded, keeps "-3 × 4" as it was.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import IO, Any

#: What makes a spreadsheet read the rest of the cell as a formula.
_FORMULA = ("=", "+", "-", "@")
#: Control characters that some spreadsheets read as the start of a formula.
_CONTROL = ("\t", "\r")
#: A plain number, which a spreadsheet reads as a number and never as a formula.
_NUMBER = re.compile(r"-?\d+(?:[.,]\d+)?")


def _starts_formula(text: str) -> bool:
    if text.startswith(_CONTROL):
        return True
    rest = text.lstrip()
    return rest.startswith(_FORMULA) and not _NUMBER.fullmatch(rest)


def cell(value: Any) -> str:
    """``value`` as a cell: text (``None`` is empty), with a ``'`` first when a spreadsheet would
    read it as a formula (the rule is the module's)."""
    text = "" if value is None else str(value)
    return "'" + text if _starts_formula(text) else text


def unneutralised(text: str) -> str:
    """A cell read from a file the bot wrote: the ``'`` that ``cell`` added is taken off, only
    where ``cell`` would have added it ("'Tis" keeps its own). A ``'`` typed before a formula
    ("'=x") goes too, as a spreadsheet reads it: a mark that the rest is text."""
    if text.startswith("'") and _starts_formula(text[1:]):
        return text[1:]
    return text


#: A cell holding one of these is quoted: the file's separator, the other one a spreadsheet may
#: split on (``,`` or ``;``, and tabs), quotes and line breaks.
_QUOTED = re.compile(r'[,;\t"\r\n]')


class Writer:
    """Rows as CSV (``\r\n`` after each, as spreadsheets write), every cell through ``cell``
    and quoted when it holds any separator, not only the file's: ``csv.writer`` would write
    ``Ana;=1+1`` bare in a file of commas, and a spreadsheet that splits on ``;`` would then
    read ``=1+1`` as a cell of its own."""

    def __init__(self, out: IO[str], delimiter: str = ",") -> None:
        self._out = out
        self._delimiter = delimiter

    def writerow(self, row: Iterable[Any]) -> None:
        cells = [cell(value) for value in row]
        self._out.write(self._delimiter.join(
            '"' + text.replace('"', '""') + '"' if _QUOTED.search(text) else text
            for text in cells) + "\r\n")


def writer(out: IO[str], lang: str | None = None) -> Writer:
    """The writer of a report: in French ``;`` between cells (what a French spreadsheet expects,
    as it writes decimal commas), else ``,``; ``lang`` None is a file for the bot to read back."""
    return Writer(out, ";" if lang == "fr" else ",")
