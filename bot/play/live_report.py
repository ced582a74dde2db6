"""A live round's report for its teacher: who answered each question, right or wrong, in what
time; as the rows of a picture (``images.render_live_report``) and as a spreadsheet (CSV).

Read from the stored answers (``focus_answers``, source "live", the round's ``round_key``), not
from the round's state: the report is the same after a restart, and a student whose data were
erased (``delete-player``) is no longer in it. Every student who answered is listed, also those
the public rankings leave out or show as "a student": the report is the teacher's only.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from bot import spreadsheet
from bot.domain import DomainError
from bot.focus.exact import WHOLE
from bot.focus.question_stats import Given, QuestionStat, question_stats
from bot.play.assignments import number_cell
from bot.play.focus_live import LiveState, round_key
from bot.texts import decimal, question_text, t
from db import Database
from db.focus import FocusAnswer


@dataclass(frozen=True)
class ReportCell:
    """One student's answer to one question; ``correct`` None: no answer."""

    correct: bool | None = None
    given: int | Fraction | None = None
    seconds: float | None = None


@dataclass(frozen=True)
class ReportQuestion:
    text: str | None  # None: nobody answered it (its text is not stored)
    expected: int | Fraction | None
    form: str = WHOLE  # how its answers are written (bot.focus.exact)


@dataclass(frozen=True)
class ReportRow:
    user_id: int
    cells: tuple[ReportCell, ...]

    @property
    def right(self) -> int:
        return sum(c.correct is True for c in self.cells)

    @property
    def answered(self) -> int:
        return sum(c.correct is not None for c in self.cells)

    @property
    def seconds(self) -> float:
        return sum(c.seconds or 0.0 for c in self.cells)


@dataclass(frozen=True)
class LiveReport:
    live_id: int
    lang: str
    questions: tuple[ReportQuestion, ...]
    rows: tuple[ReportRow, ...]  # most right answers first, then the least time
    answers: tuple[FocusAnswer, ...] = field(default=(), repr=False)

    def question_stats(self) -> list[QuestionStat]:
        """Each question's figures (``bot.focus.question_stats``), in the round's order."""
        return question_stats(givens(self.answers))


def givens(answers: Iterable[FocusAnswer]) -> list[Given]:
    """Stored answers of a round or an assignment as ``question_stats`` reads them: a question
    is its number in the round."""
    return [Given(a.user_id, str(a.question_no or 0), a.question, a.skill or a.topic,
                  a.form or WHOLE, a.expected, a.given, a.correct, a.time_ms,
                  (a.question_no or 0) + 1) for a in answers]


async def live_report(db: Database, live_id: int, user_id: int) -> LiveReport:
    """The report of the round ``live_id``, for its teacher only."""
    row = await db.focus_live.require(live_id)
    if row.teacher_id != user_id:
        raise DomainError("live.report_teacher_only", "only the round's teacher sees its report")
    state = LiveState.from_row(row)
    answers = await db.focus.answers_of_round(row.guild_id, round_key(live_id))
    size = max([state.size, *((a.question_no or 0) + 1 for a in answers)])
    questions: list[ReportQuestion] = [ReportQuestion(None, None)] * size
    cells: dict[int, list[ReportCell]] = {}
    for a in answers:
        number = a.question_no or 0
        questions[number] = ReportQuestion(a.question, a.expected, a.form or WHOLE)
        cells.setdefault(a.user_id, [ReportCell()] * size)[number] = ReportCell(
            a.correct, a.given, a.time_ms / 1000)
    rows = [ReportRow(uid, tuple(c)) for uid, c in cells.items()]
    rows.sort(key=lambda r: (-r.right, r.seconds, r.user_id))
    return LiveReport(live_id, state.lang, tuple(questions), tuple(rows), tuple(answers))


def report_csv(report: LiveReport, names: Mapping[int, str], lang: str) -> bytes:
    """One row per student and question, in UTF-8 with a BOM (so that a spreadsheet reads the
    accents); French: ``;`` between cells and a decimal comma, as French spreadsheets expect
    (a decimal question's answers too: ``4,5``, never the fraction ``9/2``)."""
    out = io.StringIO()
    writer = spreadsheet.writer(out, lang)
    writer.writerow([t(f"live.report.csv.{column}", lang) for column in
                     ("student", "number", "question", "expected", "given", "result", "seconds")])
    for row in report.rows:
        name = names.get(row.user_id, str(row.user_id))
        for number, (question, cell) in enumerate(zip(report.questions, row.cells, strict=True),
                                                  start=1):
            result = ("right" if cell.correct else "wrong") if cell.correct is not None \
                else "none"
            writer.writerow([
                name, number, question_text(question.text or "", lang),
                number_cell(question.expected, question.form, lang),
                number_cell(cell.given, question.form, lang),
                t(f"live.report.csv.{result}", lang),
                "" if cell.seconds is None else decimal(cell.seconds, lang, 1)])
    return out.getvalue().encode("utf-8-sig")
