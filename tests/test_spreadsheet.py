"""Every CSV the bot writes goes through one rule (``bot.spreadsheet``): a cell a spreadsheet
would run as a formula is kept as text, a plain number stays a number. Checked on the rule
itself, then on each file with hostile names and question texts: the assignment report, a
question set's file (and its way back in), the class report and the live report."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

import pytest

from bot import spreadsheet
from bot.flows.classroom import ClassroomFlow
from bot.play import class_report as class_service
from bot.play.live_report import LiveReport, ReportCell, ReportQuestion, ReportRow, report_csv
from bot.play.question_sets import SetItem, as_csv, read_file

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
NBSP, NNBSP = "\u00a0", "\u202f"

#: What a member may be named, or a teacher may write as a question: each a formula once opened.
HOSTILE = ['=HYPERLINK("http://evil.example","x")', "+1+1", "-3+4", "@SUM(A1:A9)",
           f"{NBSP}=1+1", f"{NNBSP}+cmd|' /C calc'!A0", "  -2+3", "\t=1", "\r=1"]


@pytest.mark.parametrize("text", HOSTILE)
def test_a_cell_that_would_be_a_formula_is_kept_as_text(text: str) -> None:
    assert spreadsheet.cell(text) == "'" + text
    assert spreadsheet.unneutralised(spreadsheet.cell(text)) == text


@pytest.mark.parametrize("text", ["-3", "-2.5", "-2,5", "12", "0", " -7", "Ana", "", "'Tis",
                                  "3 - 2", "a=b", "−4 + 1", "x\t=1"])
def test_a_number_or_a_plain_text_stays_as_it_is(text: str) -> None:
    assert spreadsheet.cell(text) == text
    assert spreadsheet.unneutralised(text) == text


def test_numbers_and_none_are_cells_too() -> None:
    assert [spreadsheet.cell(v) for v in (-12, 3.5, None)] == ["-12", "3.5", ""]


def test_a_cell_with_any_separator_is_quoted_so_another_separator_cannot_start_a_cell() -> None:
    for lang, other in (("en", ";"), ("fr", ","), ("en", "\t")):
        out = io.StringIO()
        spreadsheet.writer(out, lang).writerow([f"Ana{other}=1+1", 3, 'say "hi"'])
        sep = ";" if lang == "fr" else ","
        assert out.getvalue() == f'"Ana{other}=1+1"{sep}3{sep}"say ""hi"""\r\n'
        # Read with the other separator (a French spreadsheet opening an English file), the
        # name is still one cell, and no cell starts a formula.
        [row] = csv.reader(io.StringIO(out.getvalue()), delimiter=other)
        assert not any(c.lstrip().startswith("=") for c in row)
        [row] = csv.reader(io.StringIO(out.getvalue()), delimiter=sep)
        assert row == [f"Ana{other}=1+1", "3", 'say "hi"']


def rows_of(data: bytes, delimiter: str = ",") -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig")), delimiter=delimiter))


def assert_no_formula(rows: list[list[str]]) -> None:
    """No cell a spreadsheet would run: each starts with text, a "'" or is a plain number."""
    for row in rows:
        for value in row:
            assert not spreadsheet.cell(value).startswith("'") or value.startswith("'"), (
                value, row)


def test_the_live_report_keeps_names_and_questions_as_text() -> None:
    report = LiveReport(7, "en", (ReportQuestion("=1+1", 2), ReportQuestion("-3 × 4", -12)),
                        (ReportRow(1, (ReportCell(True, 2, 1.0), ReportCell(True, -12, 2.0))),))
    rows = rows_of(report_csv(report, {1: f"{NBSP}@Ana"}, "en"))
    assert_no_formula(rows)
    assert rows[1][:5] == [f"'{NBSP}@Ana", "1", "'=1+1", "2", "2"]
    assert rows[2][:5] == [f"'{NBSP}@Ana", "2", "'-3 × 4", "-12", "-12"]


def test_the_live_report_writes_decimal_answers_as_a_french_spreadsheet_reads_them() -> None:
    # A decimal question's answers are stored exactly (9/2): the CSV says 4,5 in French.
    half = Fraction(9, 2)
    report = LiveReport(7, "fr", (ReportQuestion("22.4 − 17.9", half, "decimal"),
                                  ReportQuestion("3/4 − 1/4", Fraction(1, 2), "fraction")),
                        (ReportRow(1, (ReportCell(False, Fraction(-3, 10), 4.0),
                                       ReportCell(True, Fraction(1, 2), 2.5))),))
    rows = rows_of(report_csv(report, {1: "Ana"}, "fr"), ";")
    assert rows[1][2:5] == ["22,4 − 17,9", "4,5", "-0,3"]
    assert rows[2][2:5] == ["3/4 − 1/4", "1/2", "1/2"]


def test_a_question_sets_file_keeps_its_texts_as_text_and_reads_back_the_same() -> None:
    items = [SetItem(text, n, "=topic") for n, text in enumerate(HOSTILE[:7], start=-3)]
    data = as_csv(items).encode("utf-8-sig")
    rows = rows_of(data)
    assert_no_formula(rows)
    assert rows[1] == ["'" + HOSTILE[0], "-3", "'=topic"]
    # Downloaded, then uploaded again as it is: the same questions (stripped as any upload).
    assert read_file("again.csv", data).items == [
        SetItem(text.strip(), n, "=topic") for n, text in enumerate(HOSTILE[:7], start=-3)]


async def test_the_class_report_keeps_names_and_topics_as_text(db: Any) -> None:
    from tests.test_class_report import ANA, G, answer

    await db.focus.record(answer(ANA, "=topic", True, 1500, NOW))
    report = class_service.build(await class_service.answered(db, G, "today", now=NOW),
                                 {ANA: f"{NNBSP}-Ana"}, "fr")
    rows = rows_of(class_service.report_csv(report, "fr"), ";")
    assert_no_formula(rows)
    assert rows[1][:5] == [f"'{NNBSP}-Ana", "'=topic", "", "1", "1"]  # no skill: a teacher's topic


UPLOAD = "\n".join([
    "question,answer,topic",
    '"=HYPERLINK(""http://evil.example"",""x"")",1,=evil',
    "+1+1,2,",
    "-3 × 4,-12,",
    f"{NBSP}@SUM(1),3,",
]).encode()


@pytest.fixture
def moment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ClassroomFlow, "assign_now", lambda self: NOW)
    monkeypatch.setattr(ClassroomFlow, "assign_seed", lambda self: 11)
    monkeypatch.setattr(ClassroomFlow, "assign_autoclose", False)


async def test_the_assignment_report_and_the_sets_file_keep_a_teachers_texts_as_text(
        standin, start_bot, moment, clock) -> None:
    bot = await start_bot()
    roux = standin.add_member("Roux", teacher=True)
    stored = await standin.slash(roux, "class questions upload",
                                 file=standin.upload("Hostile.csv", UPLOAD))
    assert "stored" in stored.reply.text().lower()
    shown = await standin.slash(roux, "class questions show", name="Hostile")
    sheet = shown.reply.attachments[0].data
    assert_no_formula(rows_of(sheet))
    assert rows_of(sheet)[1:] == [['\'=HYPERLINK("http://evil.example","x")', "1", "'=evil"],
                                  ["'+1+1", "2", ""], ["'-3 × 4", "-12", ""],
                                  ["'@SUM(1)", "3", ""]]  # trimmed at upload

    post = (await standin.slash(roux, "class assign", name="Trap", due="2026-12-08 18:00",
                                set="Hostile", count=4)).reply
    cy = standin.add_member(f"{NBSP}=Cy")
    window = (await standin.click(cy, post, label="Do the assignment")).reply
    for question in (await bot.db.assignments.get(standin.guild.id, "Trap")).questions:
        clock.now += 1.0
        [button] = window.buttons()
        opened = await standin.click(cy, window, button["custom_id"])
        await standin.submit_modal(cy, opened, {"answer": str(question["answer"])})
    record = await standin.slash(roux, "class report", assignment="Trap")
    report, picture, by_question = record.reply.attachments
    # Question by question (issue 27): the teacher's texts kept as text there too.
    lines = rows_of(by_question.data)
    assert_no_formula(lines)
    assert {line[2] for line in lines[1:]} == {'\'=HYPERLINK("http://evil.example","x")',
                                               "'+1+1", "'-3 × 4", "'@SUM(1)"}
    assert picture.data.startswith(b"\x89PNG")
    rows = rows_of(report.data)
    assert_no_formula(rows)
    assert {row[0] for row in rows[1:]} == {f"'{NBSP}=Cy"}
    assert {row[4] for row in rows[1:]} == {'\'=HYPERLINK("http://evil.example","x")', "'+1+1",
                                            "'-3 × 4", "'@SUM(1)"}
    assert {row[5] for row in rows[1:]} == {"1", "2", "-12", "3"}
