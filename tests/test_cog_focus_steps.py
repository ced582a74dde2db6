"""Worked corrections and questions as a class reads them, through the stand-in with the real
bot: a French student never reads a decimal point (``22.4 − 5.3``) nor "of" in a question, a
correction, or the round's summary; a wrong answer shows its steps; a missing-number question's
correction says ``12 × ? = 96 → ? = 8``; and a brand-new student of a 5e, 6e or 3e class
practises at once (before: "That level cannot give that many different questions")."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.focus_helpers import practice_questions
from tests.french import fr

SEED = 42
DECIMAL_POINT = re.compile(r"\d\.\d")


async def focus_bot(start_bot: Any) -> Any:
    bot = await start_bot()
    bot.get_cog("Focus").flow.seed = lambda: SEED
    return bot


async def answer(standin: Any, member: Any, message: Any, typed: str, label: str) -> Any:
    opened = await standin.click(member, message, label=label)
    assert opened.modal is not None
    # The field's label is the question too (its placeholder says both separators are read).
    assert not DECIMAL_POINT.search(opened.modal["components"][0]["components"][0]["label"])
    return await standin.submit_modal(member, opened, {"answer": typed})


async def test_a_french_student_reads_commas_and_de_and_the_steps_of_each_wrong_answer(
        standin, start_bot, clock):
    await focus_bot(start_bot)
    head = standin.add_member("Mme Roux", teacher=True)
    léa = standin.add_member("Léa", locale="fr")
    await standin.slash(head, "class student", member=léa, school_year="cm2", level="4")
    questions = practice_questions(4, SEED, school_year="cm2", high=4)
    assert sum("." in q.text for q in questions) >= 4  # decimals, as the engine writes them
    window = (await standin.slash(léa, "focus entrainement")).reply
    for q in questions:
        text = window.text()
        assert not DECIMAL_POINT.search(text), text
        assert fr(f"{q.text.replace('.', ',')} = ?") in text
        clock.now += 1.0
        await answer(standin, léa, window, "0", "Répondre")
        if q is not questions[-1]:
            # The mark of the answer just given, with its steps, in French.
            assert "(tu as tapé 0)" in window.text() and "↳ " in window.text()
    text = window.text()
    assert not DECIMAL_POINT.search(text), text
    first = questions[0]
    assert first.text == "12.6 − 4.6"
    assert "❌ 1. 12,6 − 4,6 = **8** · tu as tapé 0" in text
    assert fr("↳ 12,6 − 4,6 : en dixièmes, 126 − 46 = 80, donc 12,6 − 4,6 = 8") in text
    assert fr("↳ 0,33 × 10 = 3,3 : × 10 décale chaque chiffre de 1 rang vers la gauche") in text

    # "2/3 of 18" is « 2/3 de 18 » for her, in the question and in the correction.
    tom = standin.add_member("Tom", locale="fr")
    await standin.slash(head, "class student", member=tom, school_year="3e", level="2")
    asked = practice_questions(2, SEED, school_year="3e", high=2)
    window = (await standin.slash(tom, "focus entrainement")).reply
    assert fr(f"{asked[0].text.replace(' of ', ' de ')} = ?") in window.text()
    assert " of " not in window.text()
    for _ in asked:
        await answer(standin, tom, window, "1", "Répondre")
    assert "❌ 1. 2/3 de 18 = **12** · tu as tapé 1" in window.text()
    assert "↳ 2/3 de 18 = 18 ÷ 3 × 2 = 6 × 2 = 12" in window.text()
    assert " of " not in window.text()


async def test_a_missing_number_is_corrected_as_an_arrow_with_its_steps(standin, start_bot,
                                                                         clock):
    await focus_bot(start_bot)
    head = standin.add_member("Mme Roux", teacher=True)
    ana = standin.add_member("Ana")
    await standin.slash(head, "class student", member=ana, school_year="6e", level="4")
    questions = practice_questions(4, SEED, school_year="6e", high=4)
    assert questions[0].text == "? × 6 = 12"
    window = (await standin.slash(ana, "focus practice")).reply
    await answer(standin, ana, window, "0", "Answer")
    text = window.text()
    assert "❌ ? × 6 = 12 → ? = 2 (you typed 0)." in text
    assert "↳ ? × 6 = 12 → ? = 12 ÷ 6 = 2" in text
    assert "= 12 = 2" not in text  # never a wrong equation
    await answer(standin, ana, window, "4", "Answer")  # right: ? × 3 = 12
    assert "✅ ? × 3 = 12 → ? = 4: right!" in window.text()
    for _ in questions[2:]:
        await answer(standin, ana, window, "0", "Answer")
    text = window.text()
    assert "❌ 1. ? × 6 = 12 → ? = **2** · you typed 0" in text
    assert "✅ 2. ? × 3 = 12 → ? = **4**" in text
    assert "↳ 12 × ? = 120 → ? = 120 ÷ 12 = 10" in text


@pytest.mark.parametrize("year", ["5e", "6e", "3e"])
async def test_a_new_student_of_a_french_class_practises_at_once(year, standin, start_bot,
                                                                   clock):
    bot = await focus_bot(start_bot)
    head = standin.add_member("Mme Roux", teacher=True)
    ana = standin.add_member("Ana")
    await standin.slash(head, "settings focus", school_year=year)
    assert (await bot.db.servers.get(standin.guild.id)).focus_school_year == year
    questions = practice_questions(1, SEED, school_year=year)
    offer = (await standin.slash(ana, "focus practice")).reply
    assert "cannot give that many different questions" not in offer.text()
    # A newcomer of a server with a school year is offered a placement first; skipped, the
    # practice round at level 1 starts at once.
    window = (await standin.click(ana, offer, label="Skip")).reply
    assert "Practice · question 1/6" in window.text()
    for q in questions:
        assert f"{q.text} = ?" in window.text() or q.form == "lowest"
        clock.now += 1.0
        await answer(standin, ana, window, str(q.answer).replace("-", "−"), "Answer")
    assert "Practice: 6/6" in window.text()


async def test_a_closed_live_question_shows_its_worked_steps(standin, start_bot):
    import random

    from bot.corrections import worked
    from bot.focus import generate_questions
    from tests.test_cog_focus_live import live_bot
    _, wall = await live_bot(start_bot)
    teacher = standin.add_member("Mme Roux", teacher=True)
    sam = standin.add_member("Sam")
    [question] = generate_questions(6, 1, random.Random(7))  # two steps: × or ÷ first
    first = (await standin.slash(teacher, "focus live", count=1, level=6, auto=False)).reply
    wall.now += 2.0
    await answer(standin, sam, first, str(question.answer + 1), "Answer")
    await standin.click(teacher, first, label="Show the results")
    steps = worked(question.skill, question.text, question.answer, "en")
    assert steps is not None and "first" in steps
    assert f"## {question.text} = {question.answer}\n↳ {steps}" in first.text()


@pytest.mark.parametrize("year", ["5e", "6e", "3e"])
async def test_a_new_student_s_placement_of_a_french_class_asks_at_once(year, standin,
                                                                          start_bot, clock):
    await focus_bot(start_bot)
    head = standin.add_member("Mme Roux", teacher=True)
    zoé = standin.add_member("Zoé", locale="fr")
    await standin.slash(head, "settings focus", school_year=year)
    offer = (await standin.slash(zoé, "focus entrainement")).reply
    window = (await standin.click(zoé, offer, label=offer.buttons()[0]["label"])).reply
    text = window.text()
    assert "question 1/12" in text and "[Répondre]" in text, text
    assert "ne peut pas donner autant" not in text and not DECIMAL_POINT.search(text)
    for _ in range(12):  # wrong every time: down to level 1, never refused
        if "Répondre" not in str(window.buttons()):
            break
        await answer(standin, zoé, window, "0", "Répondre")
    assert "ne peut pas donner autant" not in window.text()
