"""Issue 12, through the real bot and the stand-in: a member's long text gets a short reply that
quotes a cut excerpt (never a reply Discord refuses); display names that hold markdown or
mentions reach public messages escaped, and the bot pings nobody outside the message's game."""

from __future__ import annotations

import random
import re
from typing import Any

from discord_markup import check_shown, displayed
from test_cog_digits import act, take_focus
from test_cog_focus_live import answer, live_bot
from test_cog_focus_live_auto import START
from test_cog_focus_live_auto import cog as live_cog
from test_cog_rithmo import start_game

from bot.focus import generate_questions
from bot.local.server import MENTION_RE
from bot.play.focus_live import NEXT_DELAY
from bot.play.question_sets import SetItem

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
    assert text.startswith("Aucun chiffre ne s'appelle « " + "y" * 39 + "… ». Voulais-tu"), text


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
