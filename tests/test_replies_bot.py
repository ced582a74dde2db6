"""Issue 12, through the real bot and the stand-in: a member's long text gets a short reply that
quotes a cut excerpt (never a reply Discord refuses); display names that hold markdown or
mentions reach public messages escaped, and the bot pings nobody outside the message's game.
Issue 23: names, question-set texts and assignment names holding every syntax Discord renders
(channels, roles, members, commands, timestamps, @everyone/@here, links, bold, headings) read as
typed in every public message kind, and none of it renders (``tests/discord_markup.py``)."""

from __future__ import annotations

import random
import re
from typing import Any

from discord_markup import check_shown, displayed
from test_cog_class_assign import BUTTON, DUE, NOW, SEED, stored_as
from test_cog_class_assign import play as play_assignment
from test_cog_digits import act, take_focus
from test_cog_focus_live import answer, live_bot
from test_cog_focus_live_auto import START
from test_cog_focus_live_auto import cog as live_cog
from test_cog_progress import TODAY
from test_cog_rithmo import start_game

from bot.flows.classroom import ClassroomFlow
from bot.focus import generate_questions
from bot.local.server import MENTION_RE
from bot.play.focus_live import NEXT_DELAY
from bot.play.question_sets import SetItem
from tests.french import fr

LINK = "[Click me](https://evil.example)"
# As shown: the "[" escaped, and a zero-width space that keeps the address from being a link.
SHOWN_LINK = "\\[Click me](https\u200b://evil.example)"
# A masked link that Discord would render: "[text](url)" whose "[" is not escaped.
MASKED_LINK = re.compile(r"(?<!\\)\[[^\]]*\]\(https?://[^)]*\)")
EVERYONE = re.compile(r"@(everyone|here)\b")


def assert_inert(message: Any, players: set[int]) -> None:
    """No masked link, no live mention of anyone outside ``players``, no @everyone, in any
    text of ``message``; and Discord would notify nobody outside ``players``."""
    text = message.text()
    assert not MASKED_LINK.search(text), text
    assert not EVERYONE.search(text), text
    strangers = {int(i) for i in MENTION_RE.findall(text)} - players
    assert not strangers, text
    assert message.pinged() <= players, (message.pinged(), message.allowed_mentions)


# --- Replies that Discord would refuse ----------------------------------------------------------


async def test_a_6000_character_turn_gets_a_short_refusal_quoting_an_excerpt(standin, start_bot):
    await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam", locale="fr")
    await start_game(standin, ana, sam)
    turn = "c4-d5" + "x" * 5990  # Discord takes 6,000 characters in a string option
    refused = await standin.slash(ana, "rithmo move", turn=turn)
    text = refused.reply.content
    assert refused.reply.ephemeral and len(text) < 400, text
    assert text.startswith("I cannot read the turn “c4-d5" + "x" * 34 + "…”. Write a move"), text


async def test_a_1990_character_digit_name_gets_a_short_refusal_in_french(standin, start_bot):
    await start_bot()
    léa = standin.add_member("Léa", locale="fr")
    refused = await standin.slash(léa, "digits card", digit="y" * 1990)
    text = refused.reply.content
    assert refused.reply.ephemeral and len(text) < 300, text
    assert text.startswith(fr(
            "Aucun chiffre ne s'appelle « ") + "y" * 39 + fr("… ». Voulais-tu")), text


async def test_a_3000_character_time_zone_gets_a_short_refusal(standin, start_bot):
    await start_bot()
    head = standin.add_member("Mme Roux", teacher=True)
    refused = await standin.slash(head, "settings daily", channel=standin.channel, hour=8,
                                  timezone="Z" * 3000)
    text = refused.reply.content
    assert refused.reply.ephemeral and len(text) < 400, text
    assert text.startswith("I don't know the time zone “" + "Z" * 39 + "…”. Give a name"), text


async def test_a_reply_still_too_long_is_cut_where_it_is_sent_not_dropped(standin, start_bot,
                                                                          caplog):
    # The test cog answers /echo with the text as given: fit() in bot.replies cuts it.
    await start_bot(extra_cogs=["replies_test_cog"])
    ana = standin.add_member("Ana")
    caplog.set_level("WARNING", logger="bot.replies")
    record = await standin.slash(ana, "echo", text="é" * 2100, title="t" * 300)
    reply = record.reply
    assert len(reply.content) == 2000 and reply.content.endswith("…")
    assert len(reply.embeds[0]["title"]) == 256 and reply.embeds[0]["title"].endswith("…")
    assert "cut a reply that Discord would refuse, in /echo" in caplog.text


async def test_autocomplete_of_long_typed_text_offers_choices_discord_takes(standin, start_bot):
    # The stand-in refuses more than 25 choices or a name over 100 characters.
    await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    head = standin.add_member("Mme Roux", teacher=True)
    await start_game(standin, ana, sam)
    assert await standin.autocomplete(ana, "rithmo move", "turn", turn="c4-d5" + "x" * 5990) \
        == []
    assert await standin.autocomplete(ana, "digits card", "digit", digit="y" * 1990) == []
    zones = await standin.autocomplete(head, "settings daily", "timezone", channel=standin.channel,
                                       hour=8, timezone="Z" * 3000)
    assert zones == []
    assert len(await standin.autocomplete(ana, "digits card", "digit", digit="")) == 20


# --- Names that inject ---------------------------------------------------------------------


async def test_the_live_rounds_final_ranking_shows_names_escaped_and_pings_nobody(standin,
                                                                                  start_bot):
    _, wall = await live_bot(start_bot)
    bystander = standin.add_member("Bob")
    teacher = standin.add_member(LINK, teacher=True)
    students = [standin.add_member(LINK), standin.add_member(f"<@{bystander.id}>"),
                standin.add_member("@everyone")]
    [question] = generate_questions(4, 1, random.Random(7))
    first = (await standin.slash(teacher, "focus live", count=1, level=4, auto=False)).reply
    for student in students:
        wall.now += 1.0
        await answer(standin, student, first, str(question.answer))
    await standin.click(teacher, first, label="Show the results")
    final = await standin.wait_for_message(after=first)
    assert "final ranking" in final.text()
    assert SHOWN_LINK in final.text()
    assert f"<@\u200b{bystander.id}>" in final.text() and "@\u200beveryone" in final.text()
    assert_inert(final, set())
    assert_inert(first, set())


async def test_leaderboards_show_names_escaped_and_ping_nobody(standin, start_bot):
    bot = await start_bot()
    bystander = standin.add_member("Bob")
    evil = standin.add_member(LINK)
    pinger = standin.add_member(f"<@{bystander.id}> @everyone")
    guild = standin.guild.id
    await bot.db.players.record_game(guild, "digits", evil.id, pinger.id, 1.0)
    board = await standin.slash(pinger, "leaderboard", game="digits")
    assert board.reply.attachments and not board.reply.ephemeral
    assert_inert(board.reply, set())

    daily = await standin.slash(evil, "focus leaderboard", show=True)  # the daily's board
    assert SHOWN_LINK in daily.reply.text()
    assert_inert(daily.reply, set())
    daily = await standin.slash(pinger, "focus leaderboard", show=True)
    assert f"<@\u200b{bystander.id}>" in daily.reply.text()
    assert_inert(daily.reply, set())


async def test_progress_titles_show_the_name_escaped(standin, start_bot):
    await start_bot()
    bystander = standin.add_member("Bob")
    evil = standin.add_member(LINK)
    record = await standin.slash(evil, "progress")
    assert record.reply.embeds[0]["title"].startswith(SHOWN_LINK)
    assert_inert(record.reply, set())
    pinger = standin.add_member(f"<@{bystander.id}>")
    record = await standin.slash(pinger, "progress")
    assert_inert(record.reply, set())


async def test_a_challenge_pings_only_its_players_and_shows_their_names_escaped(standin,
                                                                                start_bot):
    await start_bot()
    bystander = standin.add_member("Bob")
    challenger = standin.add_member(f"<@{bystander.id}> @everyone")
    challenged = standin.add_member(LINK)
    players = {challenger.id, challenged.id}
    posted = await standin.slash(challenger, "digits challenge", member=challenged)
    assert challenged.id in posted.reply.pinged()
    assert_inert(posted.reply, players)
    accepted = await standin.click(challenged, posted.reply, label="Accept")
    text = accepted.reply.text()
    assert SHOWN_LINK in text and f"<@\u200b{bystander.id}>" in text
    assert_inert(accepted.reply, players)
    for message in standin.channel_messages():
        assert_inert(message, players)


async def test_a_rithmo_challenge_pings_only_the_challenged_member(standin, start_bot):
    await start_bot()
    bystander = standin.add_member("Bob")
    ana = standin.add_member(f"<@{bystander.id}>")
    sam = standin.add_member(LINK)
    challenge, board = await start_game(standin, ana, sam)
    for message in standin.channel_messages():
        assert_inert(message, {ana.id, sam.id})
    assert board.pinged() == {ana.id}  # White, to move: "your turn"
    assert challenge.pinged() == set()  # answered: its edit pings nobody


async def test_a_ghosts_name_is_shown_escaped_in_the_battle(standin, start_bot):
    bot = await start_bot()
    bystander = standin.add_member("Bob")
    ana, léo = standin.add_member(LINK), standin.add_member(f"<@{bystander.id}>")
    board = (await standin.slash(ana, "digits solo")).reply
    assert SHOWN_LINK + " vs The ghosts" in board.text()
    assert_inert(board, {ana.id})
    shop = await take_focus(standin, bot, ana, board)
    await act(standin, ana, shop, "digits:buy:1")
    await act(standin, ana, shop, "digits:ready")
    await standin.wait_for_message(lambda m: bool(m.attachments), after=board)
    # Léo meets Ana's slate of round 1: "Ghost of <Ana's name>", escaped.
    await bot.db.servers.update(standin.guild.id, match_lives=1)
    léo_board = (await standin.slash(léo, "digits solo")).reply
    léo_shop = await take_focus(standin, bot, léo, léo_board, right=2)
    await act(standin, léo, léo_shop, "digits:ready")
    battle = await standin.wait_for_message(
        lambda m: bool(m.attachments) and "Ghost of" in m.text(), after=léo_board)
    assert f"**Ghost of {SHOWN_LINK}** wins" in battle.text()
    assert f"**<@\u200b{bystander.id}>** fielded an empty slate" in battle.text()
    for message in standin.channel_messages():
        assert_inert(message, {ana.id, léo.id})


# --- Every syntax, in every public message kind -----------------------------------------------

# Display names, two syntaxes in each (Discord bounds a display name to 32 characters), ids of
# real length: a channel, a role, a member who is not there, a command, a timestamp.
NAMES = ["# head <#123456789012345678>", "**bold** <@&123456789012345679>",
         "</focus daily:12345678901234567>", "[link](https://example.com)",
         "@everyone <t:1764547200:R>", "<@123456789012345677> @here"]
# What the names hold that would render: none of it may, in any message.
INJECTED = ["12345678901234567", "1764547200", "example.com"]
# Texts a teacher chose: a question set's name and questions, an assignment's name.
SET_NAME = "</focus practice:123456789012345678> ||set||"
ASSIGNMENT = "</focus practice:123456789012345678> **homework**"
QUESTIONS = [SetItem("# 4 + [1](https://example.com) <#123456789012345678> =", 5),
             SetItem("**2** × 4 <t:1764547200:R> @everyone ?", 8)]


def assert_shown(message: Any, names: Any = (), players: set[int] | None = None) -> None:
    """``names`` read as typed in ``message`` and nothing any member chose renders in it: no
    mention, channel, command, timestamp, link or markup (``tests/discord_markup.py``); Discord
    would notify nobody outside ``players``."""
    check_shown(message, names, INJECTED)
    assert_inert(message, players or set())


async def test_every_syntax_in_a_live_rounds_questions_rankings_and_report(standin, start_bot):
    bot, wall = await live_bot(start_bot)  # a self-running round: "found by" and the ranking
    teacher = standin.add_member("Mme Roux", teacher=True)
    students = [standin.add_member(name) for name in NAMES]
    await bot.db.question_sets.create(standin.guild.id, SET_NAME, teacher.id, QUESTIONS)
    first = (await standin.slash(teacher, "focus live", set=SET_NAME)).reply
    texts = {item.text for item in QUESTIONS}
    [asked] = [text for text in texts if text in displayed(first.text())]
    assert_shown(first, [asked, SET_NAME])
    right = {item.text: str(item.answer) for item in QUESTIONS}
    for n, student in enumerate(students):
        wall.now = START + n + 1
        await answer(standin, student, first, right[asked])
    wall.now = START + 20
    assert await live_cog(bot).run_due_live() == [1]
    assert "Found by" in first.text()
    assert_shown(first, [asked, *NAMES])  # found by whom, and the ranking so far
    wall.now += NEXT_DELAY
    await live_cog(bot).run_due_live()
    second = await standin.wait_for_message(after=first)
    [other] = texts - {asked}
    assert_shown(second, [other])
    for student in students:
        await answer(standin, student, second, right[other])
    final = await standin.wait_for_message(lambda m: "final ranking" in m.text(), after=second)
    assert_shown(final, NAMES)
    report = await standin.click(teacher, final, label="Report (teacher)")
    for message in report.messages:
        assert_shown(message)
    for message in standin.channel_messages():
        assert_shown(message)


async def test_every_syntax_in_the_leaderboards_streaks_and_progress(standin, start_bot, clock):
    bot = await start_bot()
    bot.limits.clock = clock  # the pictures' cooldown moves with the test
    guild = standin.guild.id
    members = [standin.add_member(name) for name in NAMES]
    await bot.db.daily.create(guild, TODAY, [])
    for n, member in enumerate(members):
        await bot.db.players.record_game(guild, "digits", member.id, members[n - 1].id, 1.0)
        await bot.db.players.record_game(guild, "rithmo", member.id, members[n - 1].id, 0.5)
        await bot.db.daily.start_attempt(guild, TODAY, member.id)
        await bot.db.daily.finish_attempt(guild, TODAY, member.id, score=n, time_ms=9000)
    for member in members:
        for game in ("digits", "rithmo", "focus-daily", "focus-streaks"):
            clock.now += 60.0  # past the cooldown of pictures
            board = await standin.slash(member, "leaderboard", game=game)
            assert board.reply.attachments and not board.reply.ephemeral, (game, board.reply.text())
            assert_shown(board.reply)
        clock.now += 60.0
        daily = await standin.slash(member, "focus leaderboard", show=True)
        assert "streak" in daily.reply.text()
        assert_shown(daily.reply, NAMES)  # the member's own line, everyone in the alt text
        clock.now += 60.0
        progress = await standin.slash(member, "progress")
        assert_shown(progress.reply, [member.name])
    teacher = standin.add_member("Mme Roux", teacher=True)
    for member in members:  # what a teacher sees of a student
        clock.now += 60.0
        progress = await standin.slash(teacher, "progress", member=member)
        assert_shown(progress.reply, [member.name])
        settings = await standin.slash(teacher, "class student", member=member, extra_time="x2")
        assert_shown(settings.reply, [member.name])


async def test_every_syntax_in_the_20_digits_match_messages(standin, start_bot):
    bot = await start_bot()
    await bot.db.servers.update(standin.guild.id, match_lives=1)
    members = [standin.add_member(name) for name in NAMES]
    for left, right in zip(members[::2], members[1::2], strict=True):
        players, names = {left.id, right.id}, [left.name, right.name]
        posted = (await standin.slash(left, "digits challenge", member=right)).reply
        assert_shown(posted, [], players)  # both mentioned: Discord shows their names
        match = (await standin.click(right, posted, label="Accept")).reply
        assert_shown(match, names, players)
        for member in (left, right):
            shop = await take_focus(standin, bot, member, match, right=2 + (member is left))
            await act(standin, member, shop, "digits:buy:1")
            assert_shown(shop, [], players)
            await act(standin, member, shop, "digits:ready")
        battle = await standin.wait_for_message(lambda m: bool(m.attachments), after=match)
        assert_shown(battle, names, players)
        for message in standin.channel_messages():
            assert_shown(message, [], players | {m.id for m in members})


async def test_every_syntax_in_the_rithmomachia_game_messages(standin, start_bot):
    await start_bot()
    members = [standin.add_member(name) for name in NAMES]
    for white, black in zip(members[::2], members[1::2], strict=True):
        players = {white.id, black.id}
        challenge, board = await start_game(standin, white, black)
        # Its messages name the players by mentions, which Discord shows as their names.
        assert f"<@{white.id}>" in board.content and f"<@{black.id}>" in board.content
        assert_shown(challenge, [], players)
        assert_shown(board, [], players)
        asked = (await standin.slash(black, "rithmo resign")).reply
        await standin.click(black, asked, label=asked.buttons()[0]["label"])
        resigned = await standin.wait_for_message(lambda m: "🏳️" in m.content, after=board)
        assert_shown(resigned, [], players)
    for message in standin.channel_messages():
        assert_shown(message, [], {m.id for m in members})


async def test_every_syntax_in_an_assignment_its_set_and_its_report(standin, start_bot, clock,
                                                                   monkeypatch):
    monkeypatch.setattr(ClassroomFlow, "assign_now", lambda self: NOW)
    monkeypatch.setattr(ClassroomFlow, "assign_seed", lambda self: SEED)
    monkeypatch.setattr(ClassroomFlow, "assign_autoclose", False)
    bot = await start_bot()
    roux = standin.add_member("Roux", teacher=True)
    await bot.db.question_sets.create(standin.guild.id, SET_NAME, roux.id, QUESTIONS)
    post = (await standin.slash(roux, "class assign", name=ASSIGNMENT, due=DUE,
                                set=SET_NAME, count=2)).reply
    assert_shown(post, [ASSIGNMENT, SET_NAME])
    made = await stored_as(bot, standin, ASSIGNMENT, lambda a: a.message_id is not None)
    members = [standin.add_member(name) for name in NAMES]
    right = {item.text: item.answer for item in QUESTIONS}
    for n, member in enumerate(members):
        if n >= 4:  # known to Ardoise, but not begun
            await standin.slash(member, "focus daily")
            continue
        window = (await standin.click(member, post, label=BUTTON)).reply
        assert_shown(window, [ASSIGNMENT])
        answers = [right[q["text"]] for q in made.questions][:2 if n < 2 else 1]
        await play_assignment(standin, member, window, answers, clock)
        assert_shown(window, [ASSIGNMENT] + [q["text"] for q in made.questions] * (n < 2))
    listed = await standin.slash(roux, "class assignments")
    assert_shown(listed.reply, [ASSIGNMENT])
    report = await standin.slash(roux, "class report", assignment=ASSIGNMENT)
    assert "Assignment report" in report.reply.text()
    assert_shown(report.reply, [ASSIGNMENT, SET_NAME, *NAMES])
    for message in standin.channel_messages():
        assert_shown(message)


async def test_every_syntax_in_a_question_sets_messages_and_the_class_report(standin,
                                                                            start_bot):
    bot = await start_bot()
    group = standin.add_role("**6B** <#123456789012345678>")
    roux = standin.add_member("Roux", teacher=True)
    await bot.db.question_sets.create(standin.guild.id, SET_NAME, roux.id, QUESTIONS)
    shown = await standin.slash(roux, "class questions show", name=SET_NAME)
    assert_shown(shown.reply, [SET_NAME, *(item.text for item in QUESTIONS)])
    listed = await standin.slash(roux, "class questions list")
    assert_shown(listed.reply, [SET_NAME])
    members = [standin.add_member(name, roles=[group]) for name in NAMES]
    for member in members:
        window = (await standin.slash(member, "focus practice", set=SET_NAME)).reply
        assert_shown(window, [SET_NAME])
        while "question" in window.embeds[0]["title"]:
            heading = next(line for line in window.embeds[0]["description"].split("\n")
                           if line.startswith("## "))  # the question asked (with the last mark)
            [asked] = [item for item in QUESTIONS if item.text in displayed(heading)]
            opened = await standin.click(member, window, label="Answer")
            await standin.submit_modal(member, opened, {"answer": str(asked.answer)})
        assert_shown(window, [SET_NAME, *(item.text for item in QUESTIONS)])
    report = await standin.slash(roux, "class report", role=group)
    assert_shown(report.reply, [group.name])
    for message in standin.channel_messages():
        assert_shown(message)
