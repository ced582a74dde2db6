"""Placement through the real commands and the stand-in (issue 26): a new student on a 5e server
is offered "Find my level" before their first practice round; the placement asks one question
at a time in the Focus window, up a level after a right answer and down after a wrong one, and
sets their Focus level; Skip practises at once and is not offered again; the offer's buttons are
that member's only; a teacher posts it for the class and sees the levels chosen; a restart
mid-placement goes on at the question that was waiting; ``/focus placement`` once a week."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from bot.focus.exact import exact_text
from bot.focus.placement import MAX_QUESTIONS, Placement
from tests.french import fr

SEED = 42
NOW = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)
FIND = "Find my level (12 questions at most)"


async def placement_bot(start_bot: Any, restart: Any = None, bot: Any = None,
                        now: datetime = NOW) -> Any:
    bot = await (restart(bot) if restart is not None else start_bot())
    flow = bot.get_cog("Focus").flow
    flow.seed = lambda: SEED
    flow.now = lambda: now
    bot.get_cog("Classroom").flow.assign_now = lambda: now  # the class post's time
    return bot


async def school_server(standin: Any, year: str = "5e") -> Any:
    head = standin.add_member("Mme Roux", teacher=True)
    await standin.slash(head, "settings focus", school_year=year)
    return head


async def waiting(bot: Any, guild: int, user: int) -> Placement:
    row = await bot.db.placements.get(guild, user)
    assert row is not None and row.state is not None
    return Placement.from_json(row.state)


async def answer_placement(standin: Any, bot: Any, member: Any, window: Any, knows: int,
                           clock: Any, *, stop_after: int | None = None,
                           answer: str = "Answer") -> int:
    """Answer the placement in ``window`` right exactly up to level ``knows``; the questions
    answered."""
    guild = standin.guild.id
    asked = 0
    while True:
        row = await bot.db.placements.get(guild, member.id)
        if row.status != "running" or (stop_after is not None and asked == stop_after):
            return asked
        placement = Placement.from_json(row.state)
        question = placement.current
        assert question is not None
        assert f"question {len(placement.steps) + 1}/{MAX_QUESTIONS}" in window.text()
        right = question.level <= knows
        value = question.answer if right else question.answer + 1
        clock.now += 2.0
        opened = await standin.click(member, window, label=answer)
        assert opened.modal is not None
        await standin.submit_modal(member, opened, {"answer": exact_text(value, question.form)})
        asked += 1


async def test_a_new_student_on_a_5e_server_finds_their_level_and_practises_there(
        standin, start_bot, clock):
    bot = await placement_bot(start_bot)
    await school_server(standin)
    ana = standin.add_member("Ana")
    guild = standin.guild.id
    offer = await standin.slash(ana, "focus practice")
    assert offer.ephemeral
    text = offer.reply.text()
    assert "Find your level first?" in text and "12 questions at most" in text
    assert [b["label"] for b in offer.reply.buttons()] == [FIND, "Skip"]
    assert await bot.db.focus.recent(guild, ana.id) == []  # nothing asked yet

    window = (await standin.click(ana, offer.reply, label=FIND)).reply
    assert "Find my level · question 1/12" in window.text()
    first = (await waiting(bot, guild, ana.id)).current
    assert first is not None and first.level == 4  # the middle of 1–8
    assert first.text in window.text()

    knows = 6
    asked = await answer_placement(standin, bot, ana, window, knows, clock)
    assert asked <= MAX_QUESTIONS
    row = await bot.db.placements.get(guild, ana.id)
    assert (row.status, row.level) == ("finished", knows)
    placement = Placement.from_json(row.state)
    # Up after a right answer, down after a wrong one.
    for before, after in zip(placement.steps, placement.steps[1:], strict=False):
        assert after.level == before.level + (1 if before.correct else -1)
    assert "Your level: 6" in window.text()
    assert "Your practice starts at level 6" in window.text()
    assert (await bot.db.players.get(guild, ana.id)).focus_level == knows

    # Stored as practice answers (mastery and the reports count them), one round.
    stored = await bot.db.focus.recent(guild, ana.id)
    assert len(stored) == asked
    assert {a.source for a in stored} == {"practice"}
    assert {a.round_key for a in stored} == {row.round_key}
    assert row.round_key.startswith("placement:")
    assert [a.correct for a in reversed(stored)] == [s.correct for s in placement.steps]
    assert [a.level for a in reversed(stored)] == [s.level for s in placement.steps]

    # The next practice is at that level, with no offer.
    practice = await standin.slash(ana, "focus practice")
    assert "Find your level" not in practice.reply.text()
    assert "Practice · question 1/6" in practice.reply.text()
    assert "Level 6 ·" in practice.reply.text()

    # "Practise at my level" under the end does the same.
    again = await standin.click(ana, window, label="Practise at my level")
    assert "Level 6 ·" in again.reply.text()


async def test_skip_practises_at_once_and_is_not_offered_again(standin, start_bot, clock):
    bot = await placement_bot(start_bot)
    await school_server(standin)
    bo = standin.add_member("Bo")
    offer = (await standin.slash(bo, "focus practice")).reply
    practice = (await standin.click(bo, offer, label="Skip")).reply
    assert "Practice · question 1/6" in practice.text()
    assert (await bot.db.placements.get(standin.guild.id, bo.id)).status == "skipped"
    again = await standin.slash(bo, "focus practice")
    assert "Practice · question 1/6" in again.reply.text()
    assert "Find your level" not in again.reply.text()


async def test_no_offer_without_a_school_year_nor_at_a_pinned_level(standin, start_bot):
    bot = await placement_bot(start_bot)
    cy = standin.add_member("Cy")
    plain = await standin.slash(cy, "focus practice")
    assert "Practice · question 1/6" in plain.reply.text()
    assert await bot.db.placements.get(standin.guild.id, cy.id) is None

    head = await school_server(standin)
    dee = standin.add_member("Dee")
    await standin.slash(head, "class student", member=dee, level="3")
    pinned = await standin.slash(dee, "focus practice")
    assert "Practice · question 1/6" in pinned.reply.text()
    refused = await standin.slash(dee, "focus placement")
    assert refused.reply.content == ("Your teacher set your level: level 3. No need to find "
                                     "it: run /focus practice.")
    # Nor to a student kept to one level: there is nothing to find.
    eve = standin.add_member("Eve")
    await standin.slash(head, "class student", member=eve, min_level="5", max_level="5")
    one = await standin.slash(eve, "focus practice")
    assert "Practice · question 1/6" in one.reply.text()


async def test_the_offer_is_its_members_only_and_the_teacher_posts_it_for_the_class(
        standin, start_bot, clock):
    bot = await placement_bot(start_bot)
    head = await school_server(standin)
    guild = standin.guild.id
    ana = standin.add_member("Ana")
    zed = standin.add_member("**Zed** @everyone")
    cy = standin.add_member("Cy")
    await standin.slash(ana, "focus practice")  # Ana's offer, hers only

    # Only teachers post it.
    refused = await standin.slash(cy, "class placement")
    assert refused.reply.content.startswith("Only teachers can run a placement for the class")

    post = await standin.slash(head, "class placement")
    assert not post.ephemeral
    assert "Find your level!" in post.reply.text()
    [button] = post.reply.buttons()
    assert button["label"] == "Find my level"

    # A modified client sends Ana's offer's button as Zed: refused, clearly, and nothing starts.
    forged = await standin.forge(zed, post.reply, f"placement.offer:{ana.id}:1:go")
    assert forged.reply.content == ("These buttons are for the student who ran /focus "
                                    "practice. Run /focus practice yourself to get your own.")
    assert forged.ephemeral
    assert await bot.db.placements.get(guild, zed.id) is None

    # Each click on the post starts that student's own placement, privately.
    ana_window = (await standin.click(ana, post.reply, label="Find my level")).reply
    assert ana_window.ephemeral and "question 1/12" in ana_window.text()
    await answer_placement(standin, bot, ana, ana_window, 3, clock)
    zed_window = (await standin.click(zed, post.reply, label="Find my level")).reply
    await answer_placement(standin, bot, zed, zed_window, 8, clock, stop_after=2)
    # Cy is a known player who never took it.
    await standin.slash(cy, "focus leaderboard")
    await bot.db.players.ensure(guild, cy.id)

    # A second click after finishing: already done since the post.
    done = await standin.click(ana, post.reply, label="Find my level")
    assert done.reply.content == ("You already found your level (level 3). Run /focus practice "
                                  "to practise.")

    results = await standin.slash(head, "class placement", results=True)
    assert results.ephemeral
    text = results.reply.text()
    assert "Placement: the levels it chose" in text
    assert "Ana: level 3 (Monday 7 December 2026 at 09:00)" in text
    assert "Cy: not taken yet" in text
    # Escaped: no markup, no ping.
    assert "\\*\\*Zed\\*\\* @\u200beveryone: started, not finished" in text
    assert "Mme Roux" not in text  # teachers are not students
    assert "Finished: 1 of 3." in text

    petit = standin.add_member("M. Petit", teacher=True, locale="fr")
    french = await standin.slash(petit, "classe positionnement", options={"résultats": True})
    assert fr("Test de positionnement : les niveaux trouvés") in french.reply.text()
    assert fr("Ana : niveau 3 (lundi 7 décembre 2026 à 9 h)") in french.reply.text()
    assert fr("Cy : pas encore fait") in french.reply.text()

    hidden = await standin.slash(head, "class placement", results=True, pseudonym=True)
    hidden_text = hidden.reply.text()
    assert "Ana" not in hidden_text and "Zed" not in hidden_text and "Cy" not in hidden_text
    assert "Student 1: level 3" in hidden_text  # Ana answered first
    assert "pseudonyms" in hidden_text


async def test_a_placement_goes_on_after_a_restart_where_it_stopped(
        standin, start_bot, restart_bot, clock):
    bot = await placement_bot(start_bot)
    await school_server(standin)
    guild = standin.guild.id
    ana = standin.add_member("Ana")
    offer = (await standin.slash(ana, "focus practice")).reply
    window = (await standin.click(ana, offer, label=FIND)).reply
    assert await answer_placement(standin, bot, ana, window, 5, clock, stop_after=2) == 2
    before = await waiting(bot, guild, ana.id)
    question = before.current
    assert question is not None and len(before.steps) == 2

    bot = await placement_bot(start_bot, restart_bot, bot)
    late = await standin.click(ana, window, label="Answer")
    assert late.reply.content.startswith("This practice round has expired")

    resumed_offer = await standin.slash(ana, "focus practice")
    assert "Go on finding my level" in [b["label"] for b in resumed_offer.reply.buttons()]
    resumed = (await standin.click(ana, resumed_offer.reply, label="Go on finding my level")
               ).reply
    assert "question 3/12" in resumed.text() and question.text in resumed.text()
    await answer_placement(standin, bot, ana, resumed, 5, clock)
    row = await bot.db.placements.get(guild, ana.id)
    assert (row.status, row.level) == ("finished", 5)
    stored = await bot.db.focus.recent(guild, ana.id)
    assert sorted(a.question_no for a in stored) == list(range(len(stored)))


async def test_focus_placement_again_once_a_week(standin, start_bot, restart_bot, clock):
    bot = await placement_bot(start_bot)
    await school_server(standin)
    guild = standin.guild.id
    léa = standin.add_member("Léa", locale="fr")
    window = (await standin.slash(léa, "focus positionnement")).reply
    assert "Test de positionnement · question 1/12" in window.text()
    await answer_placement(standin, bot, léa, window, 2, clock, answer="Répondre")
    assert fr("Ton niveau : 2") in window.text()
    assert (await bot.db.players.get(guild, léa.id)).focus_level == 2

    soon = await standin.slash(léa, "focus positionnement")
    assert soon.reply.content.startswith(fr("Tu as trouvé ton niveau (niveau 2) il y a peu. Tu "
                                            "pourras refaire le test de positionnement dès "
                                            "lundi 14 décembre 2026 à 9 h."))

    bot = await placement_bot(start_bot, restart_bot, bot, now=NOW + timedelta(days=8))
    again = (await standin.slash(léa, "focus positionnement")).reply
    # Taken again: from the level they have.
    assert (await waiting(bot, guild, léa.id)).current.level == 2
    await answer_placement(standin, bot, léa, again, 7, clock, answer="Répondre")
    assert (await bot.db.players.get(guild, léa.id)).focus_level == 7
