"""School years and the new skills end to end through the stand-in with the real bot: a teacher
gives a student a school year (``/class student``) or the server one (``/settings focus``), the
student practises that year's skills and answers fractions (an equivalent fraction, a decimal
with a comma, a refusal that says the form expected), and the answers are stored exactly."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from bot.focus.school import pool
from bot.focus.skills import draw
from tests.focus_helpers import practice_questions
from tests.french import fr

SEED = 42


async def focus_bot(start_bot: Any) -> Any:
    bot = await start_bot()
    bot.get_cog("Focus").flow.seed = lambda: SEED
    return bot


async def answer(standin: Any, member: Any, message: Any, typed: str, label: str) -> Any:
    opened = await standin.click(member, message, label=label)
    assert opened.modal is not None
    return await standin.submit_modal(member, opened, {"answer": typed})


def fields(record: Any) -> dict[str, str]:
    return {f["name"]: f["value"] for f in record.reply.embeds[0]["fields"]}


async def test_a_student_with_a_school_year_practises_its_fractions_in_french(
        standin, start_bot, clock):
    bot = await focus_bot(start_bot)
    head = standin.add_member("Mme Roux", teacher=True)
    léa = standin.add_member("Léa", locale="fr")
    guild = standin.guild.id
    # Grade 4's fifth share is its fractions: adding fractions of the same denominator.
    assert pool("grade4", 5) == (("fractions-add", 1),)
    set_ = await standin.slash(head, "class student", member=léa, school_year="grade4",
                               level="5")
    assert "Their practice draws from the skills of grade 4 (US) (their own school year)." \
        in fields(set_)["Focus level (practice and matches)"]
    assert (await bot.db.students.get(guild, léa.id)).school_year == "grade4"

    questions = draw(pool("grade4", 5), 6, random.Random(SEED), level=5)
    window = (await standin.slash(léa, "focus entrainement")).reply
    assert fr(f"{questions[0].text} = ?") in window.text()
    assert "Niveau 5" in window.text()
    opened = await standin.click(léa, window, label="Répondre")
    assert opened.modal["components"][0]["components"][0]["placeholder"] == \
        "Une fraction, comme 3/4, ou un nombre entier"

    # A refusal says the form expected, and counts nothing.
    await standin.submit_modal(léa, opened, {"answer": "trois quarts"})
    assert fr("« trois quarts » n'est pas une fraction : écris-la comme 3/4 ou −5/2, ou tape un " \
           "nombre entier. Rien n'a été compté") in window.text()
    assert await bot.db.focus.recent(guild, léa.id) == []

    typed = []
    for i, q in enumerate(questions):
        value = Fraction(q.answer)
        if i == 0:  # an equivalent fraction, not simplified: right
            text = f"{value.numerator * 3}/{value.denominator * 3}"
        elif i == 1:  # a decimal with a comma when it has one, else the fraction with spaces
            text = (str(float(value)).replace(".", ",") if value.denominator in (1, 2, 4, 5, 8, 10)
                    else f"{value.numerator} / {value.denominator}")
        elif i == 2:  # wrong
            text = f"{value.numerator + 1}/{value.denominator}"
        else:
            text = f"{value.numerator}/{value.denominator}"
        typed.append(text)
        clock.now += 2.0
        await answer(standin, léa, window, text, "Répondre")
    text = window.text()
    assert fr("Entraînement : 5/6") in text
    shown = f"{questions[2].answer}"
    assert f"❌ 3. {questions[2].text} = **{shown}** · tu as tapé" in text
    stored = list(reversed(await bot.db.focus.recent(guild, léa.id)))
    assert [a.question for a in stored] == [q.text for q in questions]
    assert [a.correct for a in stored] == [True, True, False, True, True, True]
    assert all(a.skill == "fractions-add" and a.topic == "fractions" and a.level == 5
               for a in stored)
    assert [a.expected for a in stored] == [q.answer for q in questions]
    assert stored[2].given == Fraction(questions[2].answer) + Fraction(
        1, Fraction(questions[2].answer).denominator)


async def test_the_server_s_school_year_is_chosen_in_settings_and_practice_draws_from_it(
        standin, start_bot, clock):
    bot = await focus_bot(start_bot)
    head = standin.add_member("Mme Roux", teacher=True)
    ana = standin.add_member("Ana")
    saved = await standin.slash(head, "settings focus", school_year="cycle4")
    assert saved.ephemeral
    assert (await bot.db.servers.get(standin.guild.id)).focus_school_year == "cycle4"
    shown = await standin.slash(head, "settings show")
    assert "Practice draws from the skills of cycle 4 (France: 5e, 4e, 3e)." in shown.reply.text()

    # The round the model chooses (a newcomer's: five at level 1, one from level 2), drawn from
    # the year's skills at each level.
    questions = practice_questions(1, SEED, school_year="cycle4")
    # A new student there is offered a placement first (tests/test_cog_focus_placement.py).
    offer = (await standin.slash(ana, "focus practice")).reply
    window = (await standin.click(ana, offer, label="Skip")).reply
    for q in questions:
        clock.now += 1.0
        assert q.text in window.text()
        typed = str(q.answer).replace("-", "−")  # the school's minus is read too
        await answer(standin, ana, window, typed, "Answer")
    assert "Practice: 6/6" in window.text()
    stored = await bot.db.focus.recent(standin.guild.id, ana.id)
    assert {a.skill or a.topic for a in stored} <= {s for s, _ in pool("cycle4", 1)
                                                    + pool("cycle4", 2)}

    # Back to no school year: the eight levels' questions, as before.
    await standin.slash(head, "settings focus", school_year="none")
    assert (await bot.db.servers.get(standin.guild.id)).focus_school_year is None


def test_answers_and_questions_are_written_for_the_member() -> None:
    from bot.focus import Question
    from bot.focus.exact import DECIMAL, FRACTION, LOWEST, WHOLE
    from bot.ui.focus_run import level_text, placeholder, question_label, question_line, value_text
    assert value_text(Fraction(43, 5), DECIMAL, "fr") == "8,6"
    assert value_text(Fraction(43, 5), DECIMAL, "en") == "8.6"
    assert value_text(Fraction(-5, 2), FRACTION, "fr") == "−5/2"
    assert value_text(-12, WHOLE, "en") == "−12" and value_text(15, WHOLE, "en") == "15"
    simplify = Question("12/16", "12/16", Fraction(3, 4), "fractions", 5,
                        skill="fractions-simplify", form=LOWEST)
    assert question_line(simplify, "fr") == "## Simplifie 12/16"
    assert question_label(simplify, "en") == "Simplify 12/16"
    assert placeholder(simplify, "fr") == "Une fraction irréductible, comme 3/4"
    missing = Question("? × 7 = 42", "? * 7 = 42", 6, "missing", 4,
                       skill="missing-multiplication")
    assert question_label(missing, "en") == "? × 7 = 42"  # asks itself: no "=" added
    assert question_line(missing, "en").endswith("? × 7 = 42")
    plain = Question("7 + 8", "7 + 8", 15, "addition", 1)
    assert question_label(plain, "en") == "7 + 8 =" and placeholder(plain, "en") == \
        "A whole number, like 42"
    assert level_text(5, "fr", "fractions-add") == "Niveau 5 · addition de fractions"
    assert level_text(1, "en", "addition") == "Level 1 · addition"  # the skill's, not the level's
