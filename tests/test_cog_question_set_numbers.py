"""Question sets speak Focus's numbers (issue 26), end to end through the stand-in with the real
bot: a French set with a decimal, a fraction, a negative and two accepted answers uploads without
refusal; students answer it in practice with the set and in an assignment ("0,5", "1/2", "0.5"
where the answer is a half), a wrong answer shown wrong with the expected answer in French; the
set's file comes back in the teacher's language and uploads again to the same set."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from typing import Any

import pytest
from test_cog_focus_live import FakeWall, prepare

from db.question_sets import SetItem
from tests.classroom_helpers import classroom_clock
from tests.french import fr

SEED = 7
HALF = "La moitié de 1 ?"
FRENCH_SET = ("question;réponse;thème\n"
              "La moitié de 9 ?;4,5;moitiés\n"
              "Un demi en fraction ?;1/2;moitiés\n"
              "Trois de moins que 0 ?;-3\n"
              f"{HALF};1/2 | 0,5;moitiés\n"
              "Trois de moins que 1 ?;−2\n").encode()
STORED = [SetItem("La moitié de 9 ?", "4.5", "moitiés"),
          SetItem("Un demi en fraction ?", "1/2", "moitiés"),
          SetItem("Trois de moins que 0 ?", -3),
          SetItem(HALF, "1/2 | 0.5", "moitiés"),
          SetItem("Trois de moins que 1 ?", -2)]


async def french_set(standin: Any, start_bot: Any) -> tuple[Any, Any]:
    bot = await start_bot()
    bot.get_cog("Focus").flow.seed = lambda: SEED
    prof = standin.add_member("M. Petit", teacher=True, locale="fr")
    record = await standin.slash(prof, "classe questions envoyer",
                                 fichier=standin.upload("Moitiés.csv", FRENCH_SET))
    text = record.reply.text()
    assert "refus" not in text
    assert "5 questions enregistrées" in text
    found = await bot.db.question_sets.get(standin.guild.id, "Moitiés")
    assert await bot.db.question_sets.items(found.set_id) == STORED
    return bot, prof


async def test_a_french_set_of_decimals_fractions_negatives_and_two_answers_uploads(
        standin, start_bot):
    await french_set(standin, start_bot)


async def test_bad_answers_are_refused_with_their_line_and_reason(standin, start_bot):
    bot = await start_bot()
    prof = standin.add_member("M. Petit", teacher=True, locale="fr")
    data = ("question;réponse\n"
            "Un demi ?;1/2\n"
            "Rien ?;1/0\n"
            "Moitié ?;0,5 | \n"
            "Deux ?;deux\n"
            "Formule ?;=1+1\n"
            f"Long ?;{'1' * 6000}\n").encode()
    record = await standin.slash(prof, "classe questions envoyer",
                                 fichier=standin.upload("faux.csv", data))
    text = record.reply.text()
    assert fr("6 questions lues, 5 refusées :") in text
    assert (fr("Ligne 3 : la réponse « 1/0 » n'est pas un nombre : le dénominateur d'une fraction "
            "n'est jamais 0 (« X »).").replace("X", "Rien ?")) in text  # the teacher's question
    assert fr("Ligne 4 : « 0,5 \\| » a une réponse vide") in text
    assert (fr("Ligne 5 : la réponse « deux » n'est pas un nombre (« X ») : une réponse est "
               "un nombre entier (−3), un décimal (`4,5` ou `4.5`), une fraction (1/2), ou "
               "plusieurs d'entre eux séparés par | (1/2 | 0,5).").replace("X", "Deux ?")) in text
    assert fr("Ligne 6 : la réponse « =1+1 » n'est pas un nombre") in text
    assert fr("Ligne 7 : la réponse « 111") in text and "est trop longue" in text
    assert await bot.db.question_sets.of_server(standin.guild.id) == []
    english = standin.add_member("Mrs Roux", teacher=True)
    again = await standin.slash(english, "class questions upload",
                                file=standin.upload("bad.csv", b"Nothing?,1/0\nHalf?,\"0.5 | \"\n"))
    text = again.reply.text()
    assert ("Line 1: the answer “1/0” is not a number: a fraction's denominator is never 0 "
            "(“Nothing?”).") in text
    assert ("Line 2: “0.5 \\|” has an empty answer: write an answer on each side of every | "
            "(“Half?”).") in text


#: What a student types to each question, and what is right.
TYPED = {"La moitié de 9 ?": ["4,5", "4.5", "9/2"], "Un demi en fraction ?": ["0,5", "1/2", "2/4"],
         "Trois de moins que 0 ?": ["-3", "−3", "- 3"], HALF: ["0.5", "1/2", "0,5"],
         "Trois de moins que 1 ?": ["−2", "-2", "- 2"]}


async def test_a_student_practises_the_set_and_halves_are_right_however_typed(
        standin, start_bot, clock):
    bot, _ = await french_set(standin, start_bot)
    ana = standin.add_member("Ana", locale="fr")
    window = (await standin.slash(ana, "focus entraînement", série="moitiés")).reply
    assert "Entraînement · Moitiés" in window.text()
    asked: list[str] = []
    for _ in range(6):
        question = next(q for q in TYPED if f"## {q}" in window.text())
        asked.append(question)
        # A half of 9 is answered wrong the first time: 4,4.
        first = question == "La moitié de 9 ?" and "La moitié de 9 ?" not in asked[:-1]
        answer = "4,4" if first else TYPED[question][asked.count(question) - 1]
        clock.now += 2
        opened = await standin.click(ana, window, label="Répondre")
        await standin.submit_modal(ana, opened, {"answer": answer})
        if first and len(asked) < 6:
            # The teacher's question as typed, the bot's words typeset.
            assert "❌ La moitié de 9 ? = 4,5 (tu as tapé 4,4)." in window.text()
    assert "La moitié de 9 ?" in asked
    text = window.text()
    assert "5/6" in text
    expected = {"La moitié de 9 ?": "4,5", "Un demi en fraction ?": "1/2",
                "Trois de moins que 0 ?": "−3", HALF: "1/2 ou 0,5", "Trois de moins que 1 ?": "−2"}
    for n, question in enumerate(asked, start=1):
        if question == "La moitié de 9 ?" and question not in asked[:n - 1]:
            assert f"❌ {n}. {question} = **4,5** · tu as tapé 4,4" in text
        else:
            assert f"✅ {n}. {question} = **{expected[question]}**" in text
    stored = list(reversed(await bot.db.focus.recent(standin.guild.id, ana.id)))
    assert [a.question for a in stored] == asked
    assert [a.correct for a in stored] == [q != "La moitié de 9 ?" or q in asked[:n]
                                           for n, q in enumerate(asked)]


async def test_a_student_takes_an_assignment_of_the_set(standin, start_bot, clock,
                                                         monkeypatch: pytest.MonkeyPatch):
    classroom_clock(monkeypatch, datetime(2026, 11, 30, 9, 0, tzinfo=UTC))
    bot, prof = await french_set(standin, start_bot)
    post = (await standin.slash(prof, "classe devoir", nom="Moitiés", options={
        "pour-le": "2026-12-08"}, série="moitiés", nombre=8)).reply
    made = await bot.db.assignments.get(standin.guild.id, "Moitiés")
    assert made is not None and len(made.questions) == 8
    half = next(q for q in made.questions if q["text"] == HALF)
    assert half["written"] == "1/2 | 0.5"
    ben = standin.add_member("Ben", locale="fr")
    window = (await standin.click(ben, post, label="Faire le devoir")).reply
    turns = {question: 0 for question in TYPED}
    for question in made.questions:
        text = question["text"]
        # The first half of 1 is answered wrong: 0,25.
        answer = "0,25" if text == HALF and not turns[HALF] else TYPED[text][turns[text] % 3]
        turns[text] += 1
        clock.now += 2
        [button] = window.buttons()
        opened = await standin.click(ben, window, button["custom_id"])
        await standin.submit_modal(ben, opened, {"answer": answer})
    attempt = await bot.db.assignments.attempt(made.assignment_id, ben.id)
    assert attempt.score == 7
    wrong = next(n for n, q in enumerate(made.questions, start=1) if q["text"] == HALF)
    assert f"❌ {wrong}. {HALF} = **1/2 ou 0,5** · tu as tapé 1/4" in window.text()
    stored = await bot.db.focus.recent(standin.guild.id, ben.id)
    assert sorted(a.correct for a in stored) == [False] + [True] * 7
    # The teacher's report says each answer as the set writes it, in French.
    record = await standin.slash(prof, "classe bilan", devoir="Moitiés")
    sheet = record.reply.attachments[0]
    rows = list(csv.reader(io.StringIO(sheet.data.decode("utf-8-sig")), delimiter=";"))
    written = {"La moitié de 9 ?": "4,5", "Un demi en fraction ?": "1/2",
               "Trois de moins que 0 ?": "-3", HALF: "1/2 | 0,5", "Trois de moins que 1 ?": "-2"}
    assert [(row[4], row[5]) for row in rows[1:]] == [
        (q["text"], written[q["text"]]) for q in made.questions]

def rows_of(attachment: Any, separator: str) -> list[list[str]]:
    text = attachment.data.decode("utf-8")
    assert text.startswith("\ufeff")  # the BOM: a spreadsheet reads it as UTF-8
    return list(csv.reader(io.StringIO(text[1:]), delimiter=separator))


@pytest.mark.parametrize(("locale", "separator", "rows"), [
    ("fr", ";", [["question", "réponse", "thème"], ["La moitié de 9 ?", "4,5", "moitiés"],
                 ["Un demi en fraction ?", "1/2", "moitiés"], ["Trois de moins que 0 ?", "-3", ""],
                 [HALF, "1/2 | 0,5", "moitiés"], ["Trois de moins que 1 ?", "-2", ""]]),
    ("en-US", ",", [["question", "answer", "topic"], ["La moitié de 9 ?", "4.5", "moitiés"],
                    ["Un demi en fraction ?", "1/2", "moitiés"],
                    ["Trois de moins que 0 ?", "-3", ""], [HALF, "1/2 | 0.5", "moitiés"],
                    ["Trois de moins que 1 ?", "-2", ""]])])
async def test_show_gives_the_file_in_the_teachers_language_and_it_uploads_again(
        standin, start_bot, locale, separator, rows):
    bot, prof = await french_set(standin, start_bot)
    teacher = prof if locale == "fr" else standin.add_member("Mrs Roux", teacher=True)
    if locale == "fr":
        shown = await standin.slash(teacher, "classe questions voir", nom="Moitiés")
        assert f"4. {HALF} → **1/2 | 0,5** · moitiés" in shown.reply.text()
    else:
        shown = await standin.slash(teacher, "class questions show", name="Moitiés")
        assert f"4. {HALF} → **1/2 | 0.5** · moitiés" in shown.reply.text()
    [attachment] = shown.reply.attachments
    assert rows_of(attachment, separator) == rows
    again = await standin.slash(teacher, "class questions upload",
                                file=standin.upload("Again.csv", attachment.data))
    assert "refus" not in again.reply.text()
    found = await bot.db.question_sets.get(standin.guild.id, "Again")
    assert await bot.db.question_sets.items(found.set_id) == STORED


async def test_a_live_round_of_the_set_takes_a_half_however_typed(standin, start_bot):
    bot = await start_bot()
    wall = FakeWall()
    prepare(bot, wall)
    prof = standin.add_member("M. Petit", teacher=True, locale="fr")
    await bot.db.question_sets.create(standin.guild.id, "Demis", prof.id,
                                      [SetItem(HALF, "1/2 | 0.5")])
    first = (await standin.slash(prof, "focus classe", série="Demis")).reply
    assert f"{HALF}" in first.text()
    students = [standin.add_member(name, locale="fr") for name in ("Ana", "Ben", "Cy", "Dan")]
    said = []
    for student, typed in zip(students, ("0,5", "1/2", "0.5", "0,4"), strict=True):
        wall.now += 2.0
        opened = await standin.click(student, first, label="Répondre")
        said.append((await standin.submit_modal(student, opened, {"answer": typed})).reply.content)
    assert [s.startswith(fr("✅ Juste !")) for s in said] == [True, True, True, False]
    wall.now += 20.0
    await bot.get_cog("Focus").flow.run_due_live()
    assert "1/2 ou 0,5" in first.text()
    stored = [await bot.db.focus.round_answers(standin.guild.id, s.id, "live:1") for s in students]
    assert [a.correct for [a] in stored] == [True, True, True, False]
    assert {a.form for [a] in stored} == {"fraction"}
