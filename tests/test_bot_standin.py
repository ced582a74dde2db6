"""The stand-in for Discord checks the bot as Discord would: timing, limits, uploads, misuse."""

from __future__ import annotations

import aiohttp
import pytest

from bot.local import NoAnswer, StandIn, StandInError
from bot.local.server import command_problems, message_problems

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

TEST_COG = ["bot_test_cog"]


async def test_an_answer_after_the_deadline_is_refused_and_recorded(standin, start_bot):
    await start_bot(extra_cogs=TEST_COG)
    standin.answer_deadline = 0.05  # Discord's 3 s, shrunk so that the test stays fast
    sam = standin.add_member("Sam")
    record = await standin.slash(sam, "test slow", seconds=0.15)
    assert record.late
    assert record.answer_time is not None and record.answer_time > 0.05
    assert record.messages == []  # Discord dropped the answer: nobody saw "done at last"
    errors = standin.take_errors()
    assert len(errors) == 1
    # 0.15 s and more: how much more is the machine's load (and the database's speed).
    assert "/test slow by Sam: answered after 0." in errors[0]
    assert "(Discord allows 0.05 s)" in errors[0]


async def test_an_answer_in_time_is_timed_and_not_flagged(standin, start_bot):
    await start_bot(extra_cogs=TEST_COG)
    sam = standin.add_member("Sam")
    record = await standin.slash(sam, "test slow", seconds=0.01)
    assert not record.late and record.reply.content == "done at last"
    assert 0.01 <= record.answer_time < standin.answer_deadline
    assert standin.answer_times == [record.answer_time]


async def test_an_interaction_never_answered_is_flagged(standin, start_bot):
    await start_bot(extra_cogs=TEST_COG)
    standin.answer_deadline = 0.05
    sam = standin.add_member("Sam")
    with pytest.raises(NoAnswer, match=r"no answer within 0\.05 s"):
        await standin.slash(sam, "test silent")
    assert standin.take_errors() == ["/test silent by Sam: no answer within 0.05 s"]


async def test_answering_twice_is_refused_and_recorded(standin, start_bot):
    await start_bot(extra_cogs=TEST_COG)
    sam = standin.add_member("Sam")
    record = await standin.slash(sam, "test twice")
    assert record.reply.content == "one"
    # The second answer, then the apology for its failure, are both refused.
    await standin.wait_until(lambda: len(standin.errors) == 2)
    assert standin.take_errors() == ["/test twice by Sam: answered twice (callback type 4)"] * 2


async def test_a_message_over_discords_limits_is_refused_and_the_member_gets_an_apology(
        standin, start_bot):
    await start_bot(extra_cogs=TEST_COG)
    sam = standin.add_member("Sam")
    record = await standin.slash(sam, "test long")
    assert record.reply.content.startswith("Sorry, something went wrong")
    errors = standin.take_errors()
    assert len(errors) == 1 and "content is 2001 characters (max 2000)" in errors[0]


async def test_a_deferral_is_settled_by_its_first_follow_up(standin, start_bot):
    await start_bot(extra_cogs=TEST_COG)
    sam = standin.add_member("Sam")
    public = await standin.slash(sam, "test deferred")
    assert public.deferred and public.followups == []
    assert public.reply.content == "worked hard" and not public.reply.ephemeral
    private = await standin.slash(sam, "test deferred", ephemeral=True)
    assert private.reply.ephemeral and private.reply in standin.ephemeral_messages(sam)
    assert private.reply not in standin.channel_messages()


async def test_uploaded_images_are_stored_and_served(standin, start_bot):
    await start_bot(extra_cogs=TEST_COG)
    sam = standin.add_member("Sam")
    record = await standin.slash(sam, "test image")
    copy = await standin.wait_for_message(after=record.reply)
    [board] = record.reply.attachments  # the edit replaced old.png
    assert (board.filename, board.content_type) == ("board.png", "image/png")
    assert board.data.startswith(PNG_SIGNATURE)
    assert copy.content == "and a copy" and copy.attachments[0].filename == "copy.png"
    [zoom] = record.followups
    assert zoom.ephemeral_to == sam.id and zoom.attachments[0].filename == "zoom.png"
    async with aiohttp.ClientSession() as session, session.get(board.url) as response:
        assert await response.read() == board.data


async def test_a_mistyped_command_gets_a_suggestion(standin, start_bot):
    await start_bot()
    sam = standin.add_member("Sam")
    with pytest.raises(StandInError, match=r"unknown command /digits crad; did you mean "
                                           r"/digits card\?"):
        await standin.slash(sam, "digits crad", digit="Odd")
    with pytest.raises(StandInError, match="missing digit"):
        await standin.slash(sam, "digits card")
    with pytest.raises(StandInError, match="has no option 'level'"):
        await standin.slash(sam, "digits card", digit="Odd", level=2)
    with pytest.raises(StandInError, match="needs a subcommand"):
        await standin.slash(sam, "digits")
    assert {"digits card", "digits rules", "help"} <= set(standin.command_names())


async def test_members_cannot_use_what_they_cannot_see(standin, start_bot):
    await start_bot(extra_cogs=TEST_COG)
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    private = (await standin.slash(ana, "digits card", digit="Odd")).reply
    assert private.ephemeral_to == ana.id
    message = (await standin.slash(ana, "test vote")).reply
    with pytest.raises(StandInError, match="no button 'Nope'"):
        await standin.click(sam, message, label="Nope")
    with pytest.raises(StandInError, match="is not an option"):
        await standin.select(ana, message, "test:pick", ["Four"])
    answer = (await standin.click(ana, message, "test:vote")).reply
    assert answer.ephemeral_to == ana.id
    answer.components = [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "Go", "custom_id": "x:1", "disabled": True}]}]
    with pytest.raises(StandInError, match="cannot see that message"):
        await standin.click(sam, answer, "x:1")
    with pytest.raises(StandInError, match="disabled"):
        await standin.click(ana, answer, "x:1")


async def test_a_file_attached_to_an_option_is_served_to_the_bot_and_nothing_else_passes(
        standin, start_bot):
    await start_bot()
    head = standin.add_member("Mme Roux", teacher=True)
    sheet = standin.upload("Tables de 7.csv", b"7 x 2,14\n")
    assert sheet.content_type == "text/csv"
    async with aiohttp.ClientSession() as session:
        async with session.get(sheet.url) as response:
            assert await response.read() == b"7 x 2,14\n"
        async with session.get(sheet.url.replace("Tables", "Other")) as response:
            assert response.status == 404
    # The bot reads it with discord.Attachment.read(), as from Discord's CDN.
    record = await standin.slash(head, "class questions upload", file=sheet)
    assert "1 question stored" in record.reply.text()
    with pytest.raises(StandInError, match=r"cannot give 'q\.csv'"):
        await standin.slash(head, "class questions upload", file="q.csv")
    with pytest.raises(StandInError, match="made with upload"):
        await standin.slash(head, "class questions upload",
                            file=type(sheet)(1, "q.csv", b"1,1\n"))


async def test_roles_and_channels_reach_the_bot_as_options(standin, start_bot):
    await start_bot(extra_cogs=TEST_COG)
    helpers = standin.add_role("Helpers")
    maths = standin.add_channel("maths")
    lea = standin.add_member("Léa", roles=[helpers], teacher=True)
    record = await standin.slash(lea, "test roles", role=helpers, channel=maths,
                                 in_channel=maths)
    assert record.reply.content == "Helpers in maths; you: Helpers, Teacher"
    assert record.reply.channel is maths


def test_stable_ids_are_the_same_on_every_run():
    first, second = StandIn(stable_ids=True), StandIn(stable_ids=True)
    ana1, ana2 = first.add_member("Ana"), second.add_member("Ana")
    assert (first.app_id, first.guild.id, first.channel.id, ana1.id) == (
        second.app_id, second.guild.id, second.channel.id, ana2.id)
    assert ana1.id != first.add_member("Sam").id


def test_command_sync_problems_are_those_discord_refuses():
    problems = command_problems([{
        "name": "Digits", "description": "", "type": 1,
        "name_localizations": {"fr": "les chiffres"},
        "options": [{"name": "a", "description": "A", "type": 3},
                    {"name": "b", "description": "B", "type": 3, "required": True}],
    }])
    assert "/Digits: name 'Digits' is not a valid lowercase command name" in problems
    assert "/Digits: description must be 1 to 100 characters" in problems
    assert "/Digits: fr name 'les chiffres' is not a valid command name" in problems
    assert "/Digits b: a required option after an optional one" in problems


def test_message_problems_are_those_discord_refuses():
    assert message_problems({}, 0, creating=True) == ["Cannot send an empty message"]
    assert message_problems({}, 0, creating=False) == []
    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "A", "custom_id": "same"},
                                     {"type": 2, "style": 1, "label": "B", "custom_id": "same"}]}
    assert message_problems({"components": [row]}, 0, creating=True) == [
        "custom ids used twice in one message: ['same']"]
    assert "6 action rows (max 5)" in message_problems(
        {"components": [{"type": 1, "components": [
            {"type": 2, "style": 1, "label": str(i), "custom_id": str(i)}]} for i in range(6)]},
        0, creating=True)
    assert "embeds[0] has 26 fields (max 25)" in message_problems(
        {"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]}, 0, creating=True)
