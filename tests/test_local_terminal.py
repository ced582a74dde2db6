"""Local play's terminal, in process: each action (command, click, menu, form, member switch),
the bad lines, the script's verdicts, images; the real bot with the test cog, through the stand-in.
"""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest

from bot.local.terminal import Terminal


@pytest.fixture
async def term(standin, start_bot, tmp_path: Path):
    await start_bot(extra_cogs=["bot_test_cog"])
    opened: list[Path] = []
    terminal = Terminal(standin, out=io.StringIO(), images=tmp_path / "images",
                        db_path=tmp_path / "ardoise.sqlite3", opener=opened.append)
    terminal.opened = opened  # type: ignore[attr-defined]
    terminal.attach()
    try:
        yield terminal
    finally:
        terminal.detach()


def printed(terminal: Terminal) -> str:
    out = terminal.out
    assert isinstance(out, io.StringIO)
    return out.getvalue()


async def test_a_slash_command_shows_the_private_answer_marked_for_you_only(term):
    outcome = await term.run_line("/test lang")
    assert outcome.ok, outcome.reason
    assert "[only you (Ana) can see this] Ardoise · reply to /test lang by Ana" in outcome.output
    assert "\n  en" in outcome.output


async def test_options_go_by_position_or_by_name_with_mentions_of_roles_and_channels(term):
    by_position = await term.run_line("/test roles Teacher #general")
    assert by_position.ok, by_position.reason
    assert "Teacher in general" in by_position.output
    by_name = await term.run_line("/test roles channel:general role:@Teacher")
    assert by_name.ok, by_name.reason
    assert "Teacher in general" in by_name.output


async def test_a_missing_option_shows_the_commands_usage(term):
    outcome = await term.run_line("/test roles Teacher")
    assert not outcome.ok
    assert "/test roles needs channel: /test roles <role> <channel>" in outcome.reason


async def test_a_mistyped_command_gets_a_suggestion_for_verbs_and_slash_commands(term):
    verb = await term.run_line("clik 1")
    assert not verb.ok and "did you mean click?" in verb.reason
    slash = await term.run_line("/tset lang")
    assert not slash.ok and "did you mean /test?" in slash.reason
    sub = await term.run_line("/test langg")
    assert not sub.ok and "did you mean /test lang?" in sub.reason
    bare = await term.run_line("test lang")
    assert not bare.ok and "slash commands start with /" in bare.reason


async def test_a_click_by_number_then_by_label_updates_the_public_message(term):
    started = await term.run_line("/test game @sam")
    assert started.ok, started.reason
    assert "[#general] Ardoise · reply to /test game by Ana" in started.output
    assert "[1] Add one   [2] Add ten" in started.output
    clicked = await term.run_line("click 2")
    assert clicked.ok, clicked.reason
    assert "· updated" in clicked.output and "Tally 10" in clicked.output
    by_label = await term.run_line("click add one")
    assert by_label.ok and "Tally 11" in by_label.output


async def test_switching_member_plays_the_other_side_and_an_outsider_is_refused(term, standin):
    await term.run_line("/test game @sam")
    switched = await term.run_line("as sam")
    assert switched.ok and "Sam (en-US)" in switched.output
    assert (await term.run_line("click 1")).output.count("Tally 1") == 1
    await term.run_line("as zoe")
    refused = await term.run_line("click 1")
    assert not refused.ok and refused.refused
    assert "start the line with !" in refused.reason
    assert "[only you (Zoe) can see this]" in refused.output
    expected = await term.run_line("!click 1")
    assert expected.ok and expected.refused
    who = await term.run_line("who")
    assert "Zoe (en-US)  ← you" in who.output and "Sam (en-US)" in who.output


async def test_a_new_member_can_be_french_and_the_bot_answers_in_french(term):
    await term.run_line("as lea fr")
    outcome = await term.run_line("/test lang")
    assert outcome.ok and "\n  fr" in outcome.output


async def test_a_menu_is_numbered_and_picked_by_position_or_label(term):
    shown = await term.run_line("/test vote")
    assert "[1] Vote   [2] Answer" in shown.output
    assert "[3] ▾ menu (pick 1):" in shown.output and "1) Two   2) Three" in shown.output
    by_position = await term.run_line("pick 3 2")
    assert by_position.ok and "Picked 3" in by_position.output
    await term.run_line("look 2")
    by_label = await term.run_line("pick 3 two")
    assert by_label.ok and "Picked 2" in by_label.output
    wrong = await term.run_line("click 3")
    assert not wrong.ok and "3 is a menu: pick 3 <choice>" in wrong.reason


async def test_a_form_opens_and_answer_fills_it(term):
    await term.run_line("/test vote")
    opened = await term.run_line("click 2")
    assert opened.ok, opened.reason
    assert "[form] Your answer" in opened.output
    assert "Answer  (required, up to 10 characters)" in opened.output
    assert term.prompt().endswith("(form open) › ")
    answered = await term.run_line("answer 42")
    assert answered.ok and "You typed 42" in answered.output
    again = await term.run_line("answer 43")
    assert not again.ok and "no form is open" in again.reason


async def test_answer_right_refuses_a_form_that_is_not_arithmetic(term):
    await term.run_line("/test vote")
    await term.run_line("click 2")
    outcome = await term.run_line("answer right")
    assert not outcome.ok and "arithmetic questions only" in outcome.reason
    assert term.modal is not None  # still open: the member can type the answer


async def test_a_form_refused_by_the_stand_in_stays_open(term):
    await term.run_line("/test vote")
    await term.run_line("click 2")
    too_long = await term.run_line("answer 12345678901")
    assert not too_long.ok and "'Answer' must be 0 to 10 characters" in too_long.reason
    assert (await term.run_line("answer 7")).ok


async def test_interactive_forms_ask_for_each_field(standin, term):
    term.interactive = True
    await term.run_line("/test vote")
    await term.run_line("click 2")
    asked: list[str] = []

    async def read(prompt: str) -> str | None:
        asked.append(prompt)
        return "12"

    await term.fill_form(read)
    assert asked == ["  Answer › "]
    assert "You typed 12" in printed(term)


async def test_images_are_saved_and_opened_only_when_asked(term, tmp_path: Path):
    outcome = await term.run_line("/test image")
    assert outcome.ok, outcome.reason
    saved = sorted(p.name for p in (tmp_path / "images").iterdir())
    assert sorted(name.split("-", 3)[-1] for name in saved) == ["board.png", "copy.png", "zoom.png"]
    assert "🖼 board.png → " in outcome.output
    assert term.opened == []
    assert (await term.run_line("images on")).ok
    await term.run_line("/test image")
    assert len(term.opened) == 3
    await term.run_line("open")
    assert len(term.opened) == 6


async def test_a_bug_in_the_bot_fails_the_line_even_when_a_refusal_was_expected(term):
    outcome = await term.run_line("!/test boom")
    assert not outcome.ok
    assert outcome.reason.startswith("the bot failed")


async def test_an_expected_refusal_that_does_not_come_fails(term):
    outcome = await term.run_line("!/test lang")
    assert not outcome.ok and "expected to refuse" in outcome.reason


async def test_expect_checks_the_last_answer(term):
    await term.run_line("/test game @sam")
    assert (await term.run_line("expect Tally 0")).ok
    assert (await term.run_line("expect tally 0")).ok  # still the game's answer
    missing = await term.run_line("expect Tally 5")
    assert not missing.ok and "expected 'Tally 5'" in missing.reason


async def test_a_script_stops_at_its_first_failing_line(term):
    status = await term.run_script(["# a comment", "/test lang", "clik 1", "/test lang"],
                                   name="demo")
    assert status == 1
    text = printed(term)
    assert "# a comment\n> /test lang" in text
    assert "demo:3: this line failed; stopping here." in text
    assert text.count("> /test lang") == 1


async def test_a_script_that_quits_ends_with_status_0(term):
    assert await term.run_script(["/test lang", "quit", "clik"]) == 0


async def test_help_lists_the_verbs_and_the_bots_commands(term):
    outcome = await term.run_line("help")
    assert "click N | click LABEL" in outcome.output
    assert "/test vote" in outcome.output and "/digits card" in outcome.output


async def test_what_the_bot_posts_on_its_own_shows_up_while_the_member_types(standin, start_bot,
                                                                             tmp_path: Path):
    bot = await start_bot()
    terminal = Terminal(standin, out=io.StringIO(), images=tmp_path / "images",
                        interactive=True)
    terminal.attach()
    calls = 0

    async def read(prompt: str) -> str | None:
        nonlocal calls
        calls += 1
        if calls == 1:
            # A timer of the bot (the daily post, the other player's turn) posts meanwhile.
            channel = bot.get_channel(standin.channel.id)
            await channel.send("The daily challenge is here")
            async with asyncio.timeout(5):
                while "daily challenge" not in printed(terminal):
                    await asyncio.sleep(0.01)  # the printer's turn
            return "quit"
        return None

    try:
        assert await terminal.repl(read, echo=False) == 0
    finally:
        terminal.detach()
    assert "[#general] Ardoise\n  The daily challenge is here" in printed(terminal)
    assert printed(terminal).rstrip().endswith("Ana #general ›")


@pytest.fixture
async def local(standin, start_bot, tmp_path: Path):
    await start_bot(extra_cogs=["local_test_cog"])
    terminal = Terminal(standin, out=io.StringIO(), images=tmp_path / "images")
    terminal.attach()
    try:
        yield terminal
    finally:
        terminal.detach()


async def test_a_form_of_several_fields_takes_names_or_positions(local):
    shown = await local.run_line("/local form")
    assert "[1] Fill in" in shown.output
    assert "[2] ▾ Team mates (pick 1 to 2: a member, by name)" in shown.output
    opened = await local.run_line("click 1")
    assert "Team name  (required, up to 20 characters)" in opened.output
    assert "Motto  (optional, up to 40 characters)" in opened.output
    named = await local.run_line('answer motto:"We add up" "team name":Pythagoras')
    assert named.ok, named.reason
    assert "Team Pythagoras (We add up)" in named.output
    await local.run_line("look 1")
    await local.run_line("click 1")
    by_position = await local.run_line("answer Euclid")
    assert by_position.ok and "Team Euclid (no motto)" in by_position.output


async def test_a_member_menu_is_picked_by_names(local):
    await local.run_line("as sam")
    await local.run_line("as ana")
    await local.run_line("/local form")
    picked = await local.run_line("pick 2 sam @ana")
    assert picked.ok, picked.reason
    assert "Mates: Ana, Sam" in picked.output


async def test_a_direct_message_shows_to_its_reader_only(local):
    outcome = await local.run_line("/local dm")
    assert "[direct message to Ana] Ardoise\n  A word in private" in outcome.output
