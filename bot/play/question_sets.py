"""A teacher's question sets: reading an uploaded file, storing, listing and deleting sets, and
the sets as Focus questions, for practice, live rounds and assignments.

A set's item is a text and its answer (``db.question_sets``): a whole number, a decimal, a
fraction, a negative, or several accepted answers (``1/2 | 0,5``). As a ``bot.focus.Question``
its topic is the item's own or else the set's name, its level is 1 (a set has no level:
practising one never moves the student's level), its accepted answers ``Question.written`` and
its form (how a student's answer is read, ``bot.focus.read_for``) whole when every accepted
answer is whole, else the form of the first that is not (a decimal, or a fraction: any equal
value is right, ``2/4`` for ``1/2``, as Focus reads fractions).

Reading a file (``read_file``, pure): a CSV (comma, semicolon or tab, sniffed; header optional, in
English or French; UTF-8 with or without BOM, else Windows-1252, as French Excel saves) or a JSON
list of objects. Each line is kept or refused with a reason (``Refused``: the line, a code of
``class_questions.refused.<code>``, the parameters); the whole file is refused (a ``DomainError``)
when it is too big, not a table, empty or unreadable. Answers are read as the students' are
(``read_set_answer``: Focus's own readers); nothing is ever evaluated.
"""

from __future__ import annotations

import csv
import io
import json
import random
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot import spreadsheet
from bot.domain import DomainError
from bot.engine_cli import MAX_DEPTH, nesting
from bot.focus import Question, read_answer, read_exact
from bot.focus.exact import (
    ANSWER_BAR,
    DECIMAL,
    FRACTION,
    WHOLE,
    accepted_values,
    decimal_text,
    fraction_text,
)
from bot.focus.mastery import SET_ROUND_PREFIX
from bot.focus.skills import ALL_TOPICS
from bot.texts import question_text
from db import Database
from db.question_sets import QuestionSet, SetItem

#: A set's questions carry this level (``focus_answers.level`` is at least 1).
SET_LEVEL = 1


def as_question(item: SetItem, set_name: str) -> Question:
    topic = item.topic or set_name
    if isinstance(item.answer, int):
        return Question(text=item.text, ascii=item.text, answer=item.answer, topic=topic,
                        level=SET_LEVEL)
    values = accepted_values(item.answer)
    return Question(text=item.text, ascii=item.text, answer=values[0], topic=topic,
                    level=SET_LEVEL, form=written_form(item.answer), written=item.answer)


def written_form(written: str) -> str:
    """How a student's answer to a question accepting ``written`` is read: a whole number when
    every accepted answer is one, else as the first that is not is written."""
    for part in written.split(ANSWER_BAR):
        if not isinstance(accepted_values(part)[0], int):
            return DECIMAL if "." in part else FRACTION
    return WHOLE


async def find_set(db: Database, guild_id: int, name: str) -> QuestionSet:
    """The server's set of that name, or a refusal naming it (``class.questions.unknown``)."""
    found = await db.question_sets.get(guild_id, name.strip())
    if found is None:
        raise DomainError("class.questions.unknown", f"no question set named {name!r}",
                          name=name)
    return found


async def questions_of(db: Database, guild_id: int, name: str, count: int | None = None,
                       rng: random.Random | None = None) -> list[Question]:
    """The set's questions: all in the set's order, or ``count`` of them drawn with ``rng``
    (every question once before any comes again, when ``count`` is more than the set holds)."""
    found = await find_set(db, guild_id, name)
    items = await db.question_sets.items(found.set_id)
    questions = [as_question(item, found.name) for item in items]
    if count is None:
        return questions
    rng = rng or random.Random()
    drawn: list[Question] = []
    while len(drawn) < count and questions:
        batch = questions[:]
        rng.shuffle(batch)
        drawn.extend(batch[: count - len(drawn)])
    return drawn


# --- Reading an uploaded file (pure) -----------------------------------------------------------

#: The largest file read (a few hundred questions fit in far less), and the most questions a set
#: holds: a teacher's set is a lesson's worth, and ``show`` must still fit a few messages.
MAX_FILE_BYTES = 100_000
MAX_QUESTIONS = 500
#: A question must fit the Focus window's line comfortably; a topic a report's column.
MAX_QUESTION_CHARS = 200
MAX_TOPIC_CHARS = 40
#: A set's name: what autocomplete shows and a teacher types (Discord's choices take 100).
MAX_NAME_CHARS = 50
#: The columns of a line without a header: question, answer, topic.
COLUMNS = 3

_KINDS = {".csv": "csv", ".txt": "csv", ".tsv": "csv", ".json": "json"}
_SEPARATORS = ("\t", ";", ",")  # on a tie, the one least likely inside a question wins
_HEADERS = {
    "question": {"question", "questions", "text", "texte", "enonce", "intitule"},
    "answer": {"answer", "answers", "reponse", "reponses", "result", "resultat", "solution"},
    "topic": {"topic", "topics", "theme", "themes", "sujet", "category", "categorie"},
}
#: A cell of accepted answers: a few answers, never a paste (each answer has its own limit).
MAX_ANSWER_CHARS = 100
#: What a teacher writes as a fraction bar (``bot.focus.read_exact`` reads each).
_BARS = "/⁄∕÷"


@dataclass(frozen=True)
class Refused:
    """A line of the file that cannot be a question: where (``line``: the line of a CSV, the
    item's number in a JSON list), why (``class_questions.refused.<code>``), and the details."""

    line: int
    code: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ReadFile:
    kind: str  # "csv" or "json"
    items: list[SetItem]
    refused: list[Refused]

    @property
    def lines(self) -> int:
        """The question lines read, good or not."""
        return len(self.items) + len(self.refused)


def fold(text: str) -> str:
    """``text`` for comparing: trimmed, spaces collapsed, no accents, any case."""
    decomposed = unicodedata.normalize("NFKD", " ".join(text.split()))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def file_kind(filename: str) -> str:
    """"csv" or "json" by the file's extension; any other file is refused."""
    dot = filename.rfind(".")
    kind = _KINDS.get(filename[dot:].lower()) if dot >= 0 else None
    if kind is None:
        raise DomainError("class.questions.not_a_table", f"{filename!r} is not CSV or JSON",
                          name=filename)
    return kind


def check_size(size: int) -> None:
    if size > MAX_FILE_BYTES:
        raise DomainError("class.questions.too_big", f"the file has {size} bytes",
                          size=size // 1000, max=MAX_FILE_BYTES // 1000)


def decode(data: bytes) -> str:
    """The file's text: UTF-8 (a BOM dropped), UTF-16 with its BOM, else Windows-1252 (French
    Excel's "CSV"); never fails on bytes (a byte Windows-1252 lacks becomes U+FFFD)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def read_file(filename: str, data: bytes) -> ReadFile:
    """Every line of an uploaded file as a question or a refusal (see the module's doc)."""
    kind = file_kind(filename)
    check_size(len(data))
    text = decode(data)
    if "\x00" in text:
        raise DomainError("class.questions.not_a_table", "the file holds binary data",
                          name=filename)
    if not text.strip():
        raise DomainError("class.questions.empty", "the file is empty")
    rows = _json_rows(text) if kind == "json" else _csv_rows(text)
    if len(rows) > MAX_QUESTIONS:
        raise DomainError("class.questions.too_many", f"{len(rows)} questions",
                          count=len(rows), max=MAX_QUESTIONS)
    if not rows:
        raise DomainError("class.questions.empty", "the file has no question")
    items: list[SetItem] = []
    refused: list[Refused] = []
    seen: dict[str, int] = {}
    for line, row in rows:
        checked = _check(line, row, seen)
        if isinstance(checked, Refused):
            refused.append(checked)
        else:
            items.append(checked)
    return ReadFile(kind, items, refused)


#: A row as read: (its line, {"question"/"answer"/"topic": value}), or the refusal of its shape.
Row = tuple[int, "dict[str, Any] | Refused"]


def sniff(lines: Iterable[str]) -> str:
    """The separator found in the most of these lines (outside quotes)."""
    counts = dict.fromkeys(_SEPARATORS, 0)
    for line in lines:
        outside = re.sub(r'"[^"]*"', "", line)
        for sep in _SEPARATORS:
            counts[sep] += sep in outside
    best = max(counts.values())
    return next((sep for sep in _SEPARATORS if counts[sep] == best and best), ",")


def _header(cells: list[str]) -> dict[str, int] | None:
    """The columns a header row names, if the row is one (it names a question and an answer)."""
    found: dict[str, int] = {}
    for index, cell in enumerate(cells):
        name = fold(cell)
        for column, names in _HEADERS.items():
            if name in names and column not in found:
                found[column] = index
    return found if {"question", "answer"} <= found.keys() else None


def _csv_rows(text: str) -> list[Row]:
    sep = sniff([line for line in text.splitlines() if line.strip()][:20])
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep)
    rows: list[Row] = []
    columns: dict[str, int] | None = None
    header: list[str] = []
    width = COLUMNS  # the cells a line may have: the header's, else question, answer, topic
    start = 1
    try:
        for cells in reader:
            line, start = start, reader.line_num + 1
            while cells and not cells[-1].strip():
                cells.pop()  # a spreadsheet's empty columns
            if not cells:
                continue
            if not rows and columns is None:
                columns = _header(cells)
                if columns is not None:
                    header, width = cells, max(len(cells), COLUMNS)
                    continue
            if len(cells) > width:
                rows.append((line, Refused(line, "too_many_columns",
                                           {"count": len(cells), "max": width})))
                continue
            # A column the header names but not as question, answer or topic (a teacher's
            # "notes"): its text would be lost without a word, so a line with text there is
            # refused. Empty, it is only a spreadsheet's spare column.
            unnamed = [index for index, value in enumerate(cells) if value.strip()
                       and columns is not None and index not in columns.values()]
            if unnamed:
                index = unnamed[0]
                name = header[index].strip() if index < len(header) else ""
                rows.append((line, Refused(line, "unnamed_column",
                                           {"column": index + 1, "name": name or "?"})))
                continue
            names = columns or {"question": 0, "answer": 1, "topic": 2}
            # A file the bot wrote (``/class questions show``) comes back as it was typed.
            rows.append((line, {column: spreadsheet.unneutralised(cells[index])
                                if index < len(cells) else None
                                for column, index in names.items()}))
    except csv.Error as error:
        raise DomainError("class.questions.bad_csv", str(error), line=start) from None
    return rows


def _json_rows(text: str) -> list[Row]:
    # Measured before json.loads: 50,000 brackets would overflow its recursion, and the teacher
    # is told what is wrong rather than to check the commas.
    if nesting(text) > MAX_DEPTH:
        raise DomainError("class.questions.json_too_deep", "the JSON nests too deep",
                          max=MAX_DEPTH)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise DomainError("class.questions.bad_json", error.msg, line=error.lineno) from None
    except RecursionError:  # unreachable after the nesting check; kept so that it is never a trace
        raise DomainError("class.questions.json_too_deep", "the JSON nests too deep",
                          max=MAX_DEPTH) from None
    if isinstance(data, dict) and isinstance(data.get("questions"), list):
        data = data["questions"]
    if not isinstance(data, list):
        raise DomainError("class.questions.json_not_a_list", "the JSON is not a list")
    rows: list[Row] = []
    for number, entry in enumerate(data, start=1):
        if not isinstance(entry, dict):
            rows.append((number, Refused(number, "not_an_object")))
            continue
        keys = {fold(str(key)): value for key, value in entry.items()}
        row: dict[str, Any] = {}
        for column, names in _HEADERS.items():
            row[column] = next((keys[name] for name in names if name in keys), None)
        rows.append((number, row))
    return rows


def _text(value: Any) -> str:
    """A cell's text: a JSON number or text as written; nothing (null, a list…) is empty."""
    if isinstance(value, bool) or value is None or isinstance(value, list | dict):
        return ""
    return str(value).strip()


def read_set_answer(value: Any) -> int | str:
    """A set's answer as ``db.question_sets`` keeps it: a whole number (an int, read as a
    student's whole answer is, ``bot.focus.read_answer``: ``1 000``, ``-3``, ``12,0``), or the
    accepted answers in their canonical texts joined by `` | `` (``"1/2 | 0.5"``, ``"4.5"``),
    each read by ``bot.focus.read_exact`` as a student's answer to a fraction is; a JSON number
    as it is written. ``DomainError`` when it is none of these: ``class.questions.empty_answer``
    (nothing on one side of a ``|``), ``focus.too_long``, ``focus.zero_denominator``, or another
    ``focus.*`` (not a number)."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise DomainError("focus.not_a_number", "not a number", text=str(value))
    text = str(value)
    if len(text) > MAX_ANSWER_CHARS:
        raise DomainError("focus.too_long", "too many characters", text=text[:MAX_ANSWER_CHARS])
    parts = text.split(ANSWER_BAR)
    if len(parts) > 1 and any(not part.strip() for part in parts):
        raise DomainError("class.questions.empty_answer", "an empty accepted answer", text=text)
    written = [_read_one(part) for part in parts]
    if len(written) == 1 and isinstance(written[0], int):
        return written[0]
    return f" {ANSWER_BAR} ".join(str(answer) for answer in written)


def _read_one(typed: str) -> int | str:
    """One accepted answer: a whole number (as ``read_answer`` reads it, every set before),
    else a decimal or a fraction (as ``read_exact`` reads it), in its canonical text."""
    try:
        return read_answer(typed)
    except DomainError as error:
        if error.code == "focus.too_long":
            raise
    value = read_exact(typed, FRACTION)
    if isinstance(value, int):  # "9/3": the whole number it is
        return value
    if any(bar in typed for bar in _BARS):
        return fraction_text(value)
    return decimal_text(value)


def _refusal_code(error: DomainError) -> str:
    return {"focus.too_long": "too_long_answer", "focus.zero_denominator": "zero_denominator",
            "class.questions.empty_answer": "empty_answer"}.get(error.code, "not_a_number")


def _check(line: int, row: dict[str, Any] | Refused, seen: dict[str, int]) -> SetItem | Refused:
    if isinstance(row, Refused):
        return row
    question = _text(row.get("question"))
    typed = row.get("answer")
    topic = _text(row.get("topic")) or None
    if not question:
        return Refused(line, "empty_question")
    shown = {"question": question}
    if len(question) > MAX_QUESTION_CHARS:
        return Refused(line, "question_too_long",
                       {**shown, "length": len(question), "max": MAX_QUESTION_CHARS})
    if typed is None or (isinstance(typed, str) and not typed.strip()):
        return Refused(line, "no_answer", shown)
    try:
        answer = read_set_answer(typed)
    except DomainError as error:
        return Refused(line, _refusal_code(error),
                       {**shown, "answer": _text(typed) or str(typed)})
    if topic is not None and len(topic) > MAX_TOPIC_CHARS:
        return Refused(line, "topic_too_long",
                       {**shown, "length": len(topic), "max": MAX_TOPIC_CHARS})
    key = fold(question)
    if key in seen:
        return Refused(line, "duplicate", {**shown, "first": seen[key]})
    seen[key] = line
    return SetItem(question, answer, topic)


def default_name(filename: str) -> str:
    """A set's name from its file: the name without its extension, its underscores spaces
    (Discord writes the spaces of an attached file's name as underscores)."""
    dot = filename.rfind(".")
    return " ".join((filename[:dot] if dot > 0 else filename).replace("_", " ").split())


def set_name(typed: str) -> str:
    """A set's name as stored: spaces collapsed; refused when empty or too long."""
    name = " ".join(typed.split())
    if not name:
        raise DomainError("class.questions.no_name", "a set needs a name")
    if len(name) > MAX_NAME_CHARS:
        raise DomainError("class.questions.name_too_long", "the name is too long",
                          name=name, max=MAX_NAME_CHARS)
    return name


#: The header of a set's file, in the teacher's language (``read_file`` reads either).
CSV_HEADERS = {"en": ("question", "answer", "topic"), "fr": ("question", "réponse", "thème")}


def answer_cell(answer: int | str, lang: str) -> str:
    """An item's answer as its file says it: as the teacher wrote it, with the decimal sign of
    ``lang`` (``1/2 | 0,5`` in French), an ASCII minus (a spreadsheet's number)."""
    return str(answer) if isinstance(answer, int) else question_text(answer, lang)


def as_csv(items: Sequence[SetItem], lang: str | None = None) -> str:
    """The set as a CSV file to download, edit and upload again (with its header), in the
    teacher's language: French has ``;`` between cells and decimal commas (``bot.spreadsheet``);
    ``lang`` None is English."""
    out = io.StringIO(newline="")
    writer = spreadsheet.writer(out, lang)
    writer.writerow(CSV_HEADERS["fr" if lang == "fr" else "en"])
    for item in items:
        writer.writerow([item.text, answer_cell(item.answer, lang or "en"), item.topic or ""])
    return out.getvalue()


# --- Storing, listing, deleting ----------------------------------------------------------------


async def free_name(db: Database, guild_id: int, typed: str) -> str:
    """The name for a new set, refused (``class.questions.name_taken``) when the server has a
    set of that name, whatever its case."""
    name = set_name(typed)
    taken = await db.question_sets.get(guild_id, name)
    if taken is not None:
        raise DomainError("class.questions.name_taken", f"a set is named {taken.name!r}",
                          name=taken.name)
    return name


async def store_set(db: Database, guild_id: int, name: str, author_id: int,
                    items: Sequence[SetItem]) -> QuestionSet:
    """Store a new set (its name checked again: another teacher may have taken it meanwhile)."""
    if not items:
        raise DomainError("class.questions.nothing_good", "no question to store")
    name = await free_name(db, guild_id, name)
    stored = await db.question_sets.create_if_free(guild_id, name, author_id, items)
    if stored is None:
        raise DomainError("class.questions.name_taken", "the name was just taken", name=name)
    return stored


@dataclass(frozen=True)
class SetSummary:
    set: QuestionSet
    topics: list[str]  # the items' own topics, in order of first use


async def server_sets(db: Database, guild_id: int) -> list[SetSummary]:
    """The server's sets, by name, with the topics of their questions."""
    summaries = []
    for found in await db.question_sets.of_server(guild_id):
        items = await db.question_sets.items(found.set_id)
        topics = list(dict.fromkeys(item.topic for item in items if item.topic))
        summaries.append(SetSummary(found, topics))
    return summaries


async def set_names(db: Database, guild_id: int, typed: str) -> list[str]:
    """The server's set names containing what was typed (for autocomplete)."""
    wanted = fold(typed)
    return [s.name for s in await db.question_sets.of_server(guild_id) if wanted in fold(s.name)]


async def set_with_items(db: Database, guild_id: int, name: str
                         ) -> tuple[QuestionSet, list[SetItem]]:
    found = await find_set(db, guild_id, name)
    return found, await db.question_sets.items(found.set_id)


async def delete_set(db: Database, guild_id: int, set_id: int) -> QuestionSet:
    """Forget the server's set ``set_id`` (the confirmation's button names it by id, so that a
    set deleted and made again meanwhile is not the one deleted); refused if it is gone."""
    found = await db.question_sets.by_id(set_id)
    if found is None or found.guild_id != guild_id:
        raise DomainError("class.questions.already_deleted", "that set is gone")
    await db.question_sets.delete(guild_id, found.name)
    return found


# --- Practice from a set ------------------------------------------------------------------------

#: A practice round from a set has the length of any practice round.
PRACTICE_SIZE = 6


def set_round_key(set_id: int, token: str) -> str:
    # The prefix (``bot.focus.mastery``'s): the adaptive level leaves these answers out too.
    return f"{SET_ROUND_PREFIX}{set_id}:{token}"


def counts_for_level(round_key: str | None, topic: str) -> bool:
    """Whether a stored answer may move the adaptive level: not one to a teacher's question (a
    set has no level), whether it was given in practice, an assignment or a live round — those
    carry the teacher's own topics, never the engine's."""
    return not from_a_set(round_key) and topic in ALL_TOPICS


def from_a_set(round_key: str | None) -> bool:
    """Whether an answer stored under ``round_key`` was given in a practice round from a set."""
    return round_key is not None and round_key.startswith(SET_ROUND_PREFIX)


@dataclass(frozen=True)
class SetPractice:
    set: QuestionSet
    questions: list[Question]


async def start_set_practice(db: Database, guild_id: int, name: str, seed: int,
                             user_id: int | None = None) -> SetPractice:
    """Six questions drawn from the server's set (every one before any comes again). The
    student's level is neither read nor moved: a set has no level. ``user_id``: the member
    practising, made a player now (their answers then never make them one again, once erased:
    ``bot.play.focus.record_answer``)."""
    found = await find_set(db, guild_id, name)
    if user_id is not None:
        await db.players.ensure(guild_id, user_id)
    questions = await questions_of(db, guild_id, found.name, PRACTICE_SIZE, random.Random(seed))
    if not questions:
        raise DomainError("class.questions.empty_set", "the set has no question", name=found.name)
    return SetPractice(found, questions)
