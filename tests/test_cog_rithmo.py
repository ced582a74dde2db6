"""/rithmo end to end: the real bot against the stand-in, Rithmomachia games from the challenge to
their end (a victory, a resignation, a draw, a loss on time), turns typed or picked from menus,
refusals, a restart in the middle of a game, a game against Ardoise, and French."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.domain import DomainError
from bot.local import StandIn
from bot.local.server import Member, Message
from bot.play.rithmo_turns import taken_texts, turn_explanations
from bot.rithmo import Board, Capture, Move, Turn
from bot.rithmo.opponents import STRATEGY
from bot.ui.rithmo_explain import capture_text
from tests.french import fr

# A short common victory, so that the first capture wins: body with one piece.
ONE_PIECE = {"victory": "body", "pieces": 1, "proper": "off", "colour": "white"}


ROOT = Path(__file__).resolve().parent.parent


def opening_with_a_capture() -> tuple[str, str, str]:
    """White's move, Black's answer, and a turn with which White then takes a piece, found by
    the engine (the first such pair of moves in the engine's order)."""
    board = Board.start()
    for white in board.legal_moves():
        board.push(str(white))
        for black in board.legal_moves():
            board.push(str(black))
            captures = board.captures()
            if captures:
                # Take it first, then one of its capturers steps onto its square.
                step = _steps_after(board, captures[0])[0]
                return str(white), str(black), f"{captures[0]} {step}"
            board.pop()
        board.pop()
    raise AssertionError("no capture within two moves of the start")


def _steps_after(board: Board, capture: Capture) -> list[str]:
    board.push_step(capture)
    try:
        return [str(s) for s in board.legal_steps() if isinstance(s, Move)]
    finally:
        board.pop_step()


async def start_game(standin: StandIn, white: Member, black: Member,
                     **options: Any) -> tuple[Message, Message]:
    """``white`` challenges ``black`` (``white`` plays White); ``black`` accepts. The challenge
    message and the first board message."""
    posted = await standin.slash(white, "rithmo challenge", member=black,
                                 **{**ONE_PIECE, **options})
    await standin.click(black, posted.reply, label="Accept")
    board = await standin.wait_for_message(lambda m: bool(m.attachments), after=posted.reply)
    return posted.reply, board


async def play(standin: StandIn, member: Member, turn: str, after: Message) -> Message:
    """``member`` types ``turn``; the board message posted after it."""
    record = await standin.slash(member, "rithmo move", turn=turn)
    assert record.reply.ephemeral, record.reply.text()
    return await standin.wait_for_message(lambda m: bool(m.attachments), after=after)


def cog(bot: Any) -> Any:
    return bot.get_cog("Rithmo")


async def test_a_game_from_the_challenge_to_a_victory_updates_the_ratings(standin, start_bot):
    bot = await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    posted = await standin.slash(ana, "rithmo challenge", member=sam, **ONE_PIECE)
    challenge = posted.reply
    assert not challenge.ephemeral
    assert challenge.content.startswith(f"{sam.mention}, {ana.mention} challenges you")
    assert "Body: at least 1 piece taken" in challenge.embeds[0]["fields"][0]["value"]
    assert f"White (moves first): {ana.mention}" in challenge.text()
    await standin.click(sam, challenge, label="Accept")
    board = await standin.wait_for_message(lambda m: bool(m.attachments), after=challenge)
    assert challenge.content == (
        f"✅ {sam.mention} accepted {ana.mention}'s challenge: game #1 begins.")
    assert challenge.buttons() == [] and challenge.embeds  # the terms stay readable
    assert board.attachments[0].data.startswith(b"\x89PNG")
    assert f"{ana.mention}, your move as White (turn 1)" in board.content
    assert board.button("Play a turn")

    white, black, capture = opening_with_a_capture()
    board = await play(standin, ana, white, board)
    assert f"{ana.mention} (White) played `{white}`." in board.content
    assert f"{sam.mention}, your move as Black (turn 2)" in board.content
    board = await play(standin, sam, black, board)
    final = await play(standin, ana, capture, board)
    assert f"{ana.mention} (White) played `{capture}` and took" in final.content
    # The capture's arithmetic, as the engine explains it on the board before the turn.
    before = Board.start()
    for done in (white, black):
        before.push(done)
    explained = capture_text(turn_explanations(before, Turn.parse(capture))[0], "en")
    assert f"\n• {explained}" in final.content and " taken by " in explained
    # What the turn took is data until the board's text says it, as the menus write a piece.
    took = ", ".join(taken_texts(before, Turn.parse(capture)))
    assert f"{ana.mention} (White) played `{capture}` and took {took}:\n• " in final.content
    assert "wins game #1 by the victory of body!" in final.content
    assert "Ratings:" in final.content and f"{ana.mention} 1500 → 1" in final.content
    assert final.buttons() == []  # a finished game has nothing left to click
    assert board.buttons() == []  # and the previous board message lost its button

    game = await bot.db.rithmo.require_game(1)
    assert (game.status, game.result, game.reason) == ("finished", "white", "victory:body")
    assert [t.notation for t in game.turns] == [white, black, capture]
    ratings = await bot.db.players.rating(standin.guild.id, ana.id, "rithmo")
    assert ratings.wins == 1 and ratings.rating.rating > 1500


async def test_an_illegal_or_unreadable_turn_is_refused_with_its_reason(standin, start_bot):
    bot = await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    await start_game(standin, ana, sam)
    refused = await standin.slash(ana, "rithmo move", turn="c3-c5")
    assert refused.reply.ephemeral
    assert refused.reply.content == (
        "c3-c5: the round R64 on c3 moves one square diagonally, onto an empty square.\n"
        "Did you mean one of these turns: `c3-b4`, `b3-c5`?")
    refused = await standin.slash(ana, "rithmo move", turn="c3-d4")
    assert refused.reply.content.startswith("c3-d4: d4 is taken by the R6.")
    refused = await standin.slash(ana, "rithmo move", turn="xd14")
    assert refused.reply.content.startswith("The R25 on d14 cannot be taken now")
    refused = await standin.slash(ana, "rithmo move", turn="c4-b5 hello")
    assert refused.reply.content.startswith("I cannot read the turn “c4-b5 hello”")
    refused = await standin.slash(sam, "rithmo move", turn="c13-b12")
    assert refused.reply.content == f"It is not your turn: {ana.mention} is to move."
    game = await bot.db.rithmo.require_game(1)
    # Accepted (version 2), its board's message stored (bookkeeping: the version stays);
    # nothing played.
    assert game.turns == () and game.version == 2 and game.message_id is not None


async def test_autocomplete_offers_the_legal_turns_of_what_was_typed(standin, start_bot):
    await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    await start_game(standin, ana, sam)
    choices = await standin.autocomplete(ana, "rithmo move", "turn", turn="c4")
    assert [c["value"] for c in choices] == ["c4-b5", "c4-d5"]
    assert choices[0]["name"] == "c4-b5 — R8"
    everything = await standin.autocomplete(ana, "rithmo move", "turn", turn="")
    assert len(everything) == 25
    board = Board.start()
    legal = {str(m) for m in board.legal_moves()}
    assert {c["value"] for c in everything} <= legal
    # Not your turn, or not your game: nothing to offer.
    assert await standin.autocomplete(sam, "rithmo move", "turn", turn="c") == []
    léa = standin.add_member("Léa")
    assert await standin.autocomplete(léa, "rithmo move", "turn", turn="c") == []


async def test_autocomplete_offers_captures_and_what_may_follow(standin, start_bot):
    await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    _, board = await start_game(standin, ana, sam)
    white, black, capture = opening_with_a_capture()
    board = await play(standin, ana, white, board)
    await play(standin, sam, black, board)
    choices = await standin.autocomplete(ana, "rithmo move", "turn", turn="")
    assert choices[0]["value"] == capture and "takes" in choices[0]["name"]
    victim = capture.split()[0]
    typed = await standin.autocomplete(ana, "rithmo move", "turn", turn=f"{victim} ")
    assert capture in [c["value"] for c in typed]
    assert all(c["value"].startswith(capture) for c in typed)  # then captures after the step


async def test_a_non_player_cannot_move_click_or_accept(standin, start_bot):
    await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    léa = standin.add_member("Léa")
    posted = await standin.slash(ana, "rithmo challenge", member=sam, **ONE_PIECE)
    refused = await standin.click(léa, posted.reply, label="Accept")
    assert refused.reply.content == "Only the players of this game can do that."
    refused = await standin.click(ana, posted.reply, label="Accept")
    assert refused.reply.content.startswith(f"Only {sam.mention} can accept this challenge")
    await standin.click(sam, posted.reply, label="Accept")
    board = await standin.wait_for_message(lambda m: bool(m.attachments), after=posted.reply)
    refused = await standin.slash(léa, "rithmo move", turn="c4-b5")
    assert refused.reply.content.startswith("You have no Rithmomachia game in this channel.")
    refused = await standin.click(léa, board, label="Play a turn")
    assert refused.reply.content == "Only the players of this game can do that."
    refused = await standin.click(sam, board, label="Play a turn")
    assert refused.reply.content == f"It is not your turn: {ana.mention} is to move."
    again = await standin.slash(léa, "rithmo challenge", member=ana, **ONE_PIECE)
    assert again.reply.content.startswith(f"{ana.mention} already has a Rithmomachia game")


async def test_a_challenge_can_be_declined_or_withdrawn(standin, start_bot):
    bot = await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    posted = await standin.slash(ana, "rithmo challenge", member=sam, **ONE_PIECE)
    await standin.click(sam, posted.reply, label="Decline")
    assert posted.reply.content == f"❌ {sam.mention} declined {ana.mention}'s challenge."
    posted = await standin.slash(ana, "rithmo challenge", member=sam, **ONE_PIECE)
    await standin.click(ana, posted.reply, label="Decline")
    assert posted.reply.content.startswith(f"↩️ {ana.mention} withdrew the challenge")
    statuses = [(await bot.db.rithmo.require_game(g)).status for g in (1, 2)]
    assert statuses == ["declined", "declined"]


async def test_resigning_ends_the_game_and_rates_it(standin, start_bot):
    bot = await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    _, board = await start_game(standin, ana, sam)
    asked = (await standin.slash(sam, "rithmo resign")).reply
    assert asked.ephemeral  # asked first, privately (issue 16)
    await standin.click(sam, asked, label="Resign game #1")
    assert asked.text() == "You resigned game #1."
    resigned = await standin.wait_for_message(lambda m: "🏳️" in m.content, after=board)
    assert not resigned.ephemeral
    assert resigned.content.startswith(
        f"🏳️ {sam.mention} resigns game #1: {ana.mention} (White) wins.")
    assert resigned.attachments and board.buttons() == []
    game = await bot.db.rithmo.require_game(1)
    assert (game.status, game.result, game.reason) == ("finished", "white", "resignation")
    assert (await bot.db.players.rating(standin.guild.id, sam.id, "rithmo")).losses == 1
    refused = await standin.slash(ana, "rithmo move", turn="c4-b5")
    assert refused.reply.content.startswith("You have no Rithmomachia game in this channel")


async def test_a_draw_offered_then_accepted_by_button_or_by_command(standin, start_bot):
    bot = await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    await start_game(standin, ana, sam)
    offer = await standin.slash(ana, "rithmo draw")
    assert offer.reply.content.startswith(f"🤝 {ana.mention} offers {sam.mention} a draw")
    refused = await standin.click(ana, offer.reply, label="Accept the draw")
    assert refused.reply.content == "Only the players of this game can do that."
    await standin.click(sam, offer.reply, label="Accept the draw")
    assert offer.reply.content == "🤝 Draw agreed in game #1."
    end = await standin.wait_for_message(lambda m: "draw agreed by" in m.content,
                                         after=offer.reply)
    assert end.attachments
    game = await bot.db.rithmo.require_game(1)
    assert (game.result, game.reason) == ("draw", "agreed")
    assert (await bot.db.players.rating(standin.guild.id, ana.id, "rithmo")).draws == 1

    await start_game(standin, ana, sam)
    offer = await standin.slash(sam, "rithmo draw")
    accepted = await standin.slash(ana, "rithmo draw")
    assert "ends in a draw agreed by" in accepted.reply.content
    assert (await bot.db.rithmo.require_game(2)).result == "draw"


async def test_a_declined_draw_lets_the_game_go_on(standin, start_bot):
    bot = await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    _, board = await start_game(standin, ana, sam)
    offer = await standin.slash(ana, "rithmo draw")
    await standin.click(sam, offer.reply, label="Decline")
    assert offer.reply.content.startswith(f"{sam.mention} declined the draw")
    assert (await bot.db.rithmo.require_game(1)).draw_offer is None
    await play(standin, ana, "c4-b5", board)


async def test_a_restart_in_the_middle_of_a_game_then_it_goes_on(standin, start_bot,
                                                                 restart_bot):
    bot = await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    _, board = await start_game(standin, ana, sam)
    board = await play(standin, ana, "c4-b5", board)
    bot = await restart_bot(bot)
    opened = await standin.click(sam, board, label="Play a turn")  # a button from before
    assert opened.reply.ephemeral and "you play Black" in opened.reply.content
    board = await play(standin, sam, "c13-b12", board)
    assert f"{ana.mention}, your move as White (turn 3)" in board.content
    game = await bot.db.rithmo.require_game(1)
    assert [t.notation for t in game.turns] == ["c4-b5", "c13-b12"]


async def test_a_turn_picked_from_the_menus(standin, start_bot):
    bot = await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    _, board = await start_game(standin, ana, sam)
    shown = (await standin.slash(sam, "rithmo board")).reply  # a second board, same turn
    opened = await standin.click(ana, board, label="Play a turn")
    view = opened.reply
    assert view.ephemeral_to == ana.id
    actors = view.component("rithmo:actor")
    assert actors is not None and "c4 — R8" in [o["label"] for o in actors["options"]]
    assert view.component("rithmo:confirm")["disabled"]
    await standin.select(ana, view, "rithmo:actor", ["sq:c4"])
    steps = [o["value"] for o in view.component("rithmo:step:0")["options"]]
    assert steps == ["c4-b5", "c4-d5"]
    await standin.select(ana, view, "rithmo:step:0", ["c4-b5"])
    assert "Your turn so far: `c4-b5`" in view.content
    assert not view.component("rithmo:confirm")["disabled"]
    await standin.click(ana, view, "rithmo:undo")
    assert "so far" not in view.content
    await standin.select(ana, view, "rithmo:step:0", ["c4-d5"])
    await standin.click(ana, view, "rithmo:confirm")
    assert view.content == "You played `c4-d5`."
    posted = await standin.wait_for_message(lambda m: "played `c4-d5`" in m.content, after=board)
    assert posted.attachments
    assert [t.notation for t in (await bot.db.rithmo.require_game(1)).turns] == ["c4-d5"]
    assert board.buttons() == []
    stale = await standin.click(sam, shown, label="Play a turn")
    assert stale.reply.content.startswith("This message is out of date")


async def test_a_capture_picked_from_the_menus(standin, start_bot):
    await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    _, board = await start_game(standin, ana, sam)
    white, black, capture = opening_with_a_capture()
    board = await play(standin, ana, white, board)
    board = await play(standin, sam, black, board)
    victim, step = capture.split()
    opened = await standin.click(ana, board, label="Play a turn")
    view = opened.reply
    await standin.select(ana, view, "rithmo:actor", [f"sq:{step.split('-')[0]}"])
    await standin.select(ana, view, "rithmo:step:0", [victim])
    assert "steps onto a square it freed" in view.content
    await standin.select(ana, view, "rithmo:step:0", [step])
    await standin.click(ana, view, "rithmo:confirm")
    final = await standin.wait_for_message(lambda m: "victory of body" in m.content, after=board)
    assert f"played `{capture}` and took" in final.content


async def test_solo_ardoise_answers_each_turn_and_says_how_it_plays(standin, start_bot):
    bot = await start_bot()
    ana = standin.add_member("Ana")
    started = await standin.slash(ana, "rithmo solo")
    board = started.reply
    assert "against Ardoise (Black), level 1 (beginner)" in board.content
    # Said for as long as Ardoise plays random turns (bot.rithmo.opponents.STRATEGY).
    random_note = "Ardoise plays random legal turns for now"
    assert (random_note in board.content) == (STRATEGY == "random")
    assert board.attachments and board.button("Play a turn")
    answered = await play(standin, ana, "c4-b5", board)
    assert f"{ana.mention} (White) played `c4-b5`." in answered.content
    assert "Ardoise (Black) played `" in answered.content
    assert (random_note in answered.content) == (STRATEGY == "random")
    assert f"{ana.mention}, your move as White (turn 3)" in answered.content
    game = await bot.db.rithmo.require_game(1)
    assert (game.computer_side, len(game.turns), game.to_move) == ("black", 2, "white")
    refused = await standin.slash(ana, "rithmo draw")
    assert refused.reply.content.startswith("Ardoise plays on")


async def test_solo_as_black_ardoise_opens(standin, start_bot):
    bot = await start_bot()
    ana = standin.add_member("Ana")
    started = await standin.slash(ana, "rithmo solo", level=2, colour="black")
    assert "Ardoise (White) played `" in started.reply.content
    assert f"{ana.mention}, your move as Black (turn 2)" in started.reply.content
    game = await bot.db.rithmo.require_game(1)
    assert (game.white_id, game.black_id, len(game.turns)) == (None, ana.id, 1)


async def test_a_late_player_is_warned_once_then_loses_on_time(standin, start_bot):
    bot = await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    _, board = await start_game(standin, ana, sam)
    board = await play(standin, ana, "c4-b5", board)
    game = await bot.db.rithmo.require_game(1)
    assert game.deadline is not None
    await cog(bot).flow.check_deadlines(game.deadline - timedelta(seconds=1))
    assert standin.last_message() is board  # not late yet
    late = game.deadline + timedelta(seconds=1)
    await cog(bot).flow.check_deadlines(late)
    warning = await standin.wait_for_message(lambda m: "⏰" in m.content, after=board)
    assert warning.content.startswith(f"⏰ {sam.mention}, your time to play in game #1 is up.")
    await cog(bot).flow.check_deadlines(late + timedelta(minutes=1))  # warned once only
    assert [m for m in standin.channel_messages() if "⏰" in m.content] == [warning]
    grace = (await bot.db.rithmo.require_game(1)).deadline
    assert grace == late + timedelta(hours=6)  # a quarter of the default 24 h
    await cog(bot).flow.check_deadlines(grace + timedelta(seconds=1))
    end = await standin.wait_for_message(lambda m: "did not play in time" in m.content,
                                         after=warning)
    assert end.content.startswith(
        f"⌛ {sam.mention} did not play in time: {ana.mention} (White) wins game #1.")
    game = await bot.db.rithmo.require_game(1)
    assert (game.status, game.result, game.reason) == ("finished", "white", "timeout")


async def test_the_engines_coded_refusal_is_said_in_each_members_language(standin, start_bot):
    """The cog no longer works out why a turn is refused: the engine's code and params are said
    as they are (a path blocked at a square is a reason only the engine knew before issue 13)."""
    bot = await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam", locale="fr")
    _, board = await start_game(standin, ana, sam)
    refused = await standin.slash(ana, "rithmo move", turn="a2-a5")
    assert refused.reply.ephemeral and refused.reply.content.startswith(
        "a2-a5: the path of the S153 on a2 is blocked at a3; a regular move passes only over "
        "empty squares.\nDid you mean one of these turns: `a2-b5`")
    refused = await standin.slash(ana, "rithmo move", turn="drop T36 d1")
    assert refused.reply.content == "You hold no T36 to drop."
    await play(standin, ana, "c4-b5", board)
    refused = await standin.slash(sam, "rithmomachie jouer", tour="h16-h13")
    assert refused.reply.ephemeral and refused.reply.content.startswith(
        fr(
        "h16-h13 : le chemin de la pièce S361 en h16 est bloqué en h15 ; un déplacement régulier "
        "ne passe que par des cases vides.\nVoulais-tu dire"))
    refused = await standin.slash(sam, "rithmomachie jouer", tour="xc4")
    assert refused.reply.content == "Il n'y a pas de pièce à prendre en c4."
    game = await bot.db.rithmo.require_game(1)
    assert [t.notation for t in game.turns] == ["c4-b5"]  # the refusals played nothing


async def test_french_members_read_everything_in_french(standin, start_bot):
    await start_bot()
    ana = standin.add_member("Ana", locale="fr")
    sam = standin.add_member("Sam", locale="fr")
    posted = await standin.slash(ana, "rithmomachie défi", membre=sam, victoire="body",
                                 pieces=1, victoire_propre="off", couleur="white")
    assert posted.reply.content == fr(f"{sam.mention}, {ana.mention} te défie à la Rithmomachie !")
    assert fr("Corps : au moins 1 pièce prise") in posted.reply.embeds[0]["fields"][0]["value"]
    await standin.click(sam, posted.reply, label="Accepter")
    board = await standin.wait_for_message(lambda m: bool(m.attachments), after=posted.reply)
    assert f"{ana.mention}, à toi de jouer avec les Blancs (tour 1)" in board.content
    assert board.button("Jouer un tour")
    refused = await standin.slash(ana, "rithmomachie jouer", tour="c3-c5")
    assert refused.reply.content == (
        fr("c3-c5 : le rond R64 en c3 avance d'une case en diagonale, sur une case vide.\n"
        "Voulais-tu dire l'un de ces tours : `c3-b4`, `b3-c5` ?"))
    played = await standin.slash(ana, "rithmomachie jouer", tour="c4-b5")
    assert played.reply.content == "Tu as joué `c4-b5`."
    board = await standin.wait_for_message(lambda m: "a joué" in m.content, after=board)
    assert f"{ana.mention} (Blancs) a joué `c4-b5`." in board.content
    opened = await standin.click(sam, board, label="Jouer un tour")
    assert opened.reply.content.startswith(fr("Partie n° 1 · tu joues les Noirs."))
    rules = await standin.slash(sam, "rithmomachie règles")
    assert rules.reply.embeds[0]["title"] == "Rithmomachie · le plateau et ses cases"
    asked = (await standin.slash(sam, "rithmomachie abandonner")).reply
    assert asked.text().startswith(fr(f"Abandonner la partie n° 1 contre {ana.mention} (tour 2) ?"))
    await standin.click(sam, asked, label=fr("Abandonner la partie n° 1"))
    resigned = await standin.wait_for_message(lambda m: "🏳️" in m.content, after=board)
    assert resigned.content.startswith(fr(f"🏳️ {sam.mention} abandonne la partie n° 1"))
    léa = standin.add_member("Léa", locale="fr")
    solo = (await standin.slash(léa, "rithmomachie solo")).reply
    assert f"{léa.mention} (Blancs) contre Ardoise (Noirs), niveau 1 (débutant)" in solo.content
    note = "Pour l'instant, Ardoise joue des tours permis au hasard"
    assert (note in solo.content) == (STRATEGY == "random")


async def test_rules_and_the_board_on_request(standin, start_bot):
    await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    rules = await standin.slash(ana, "rithmo rules")
    embed = rules.reply.embeds[0]
    assert rules.reply.ephemeral and embed["title"] == "Rithmomachia · the board and its squares"
    _, board = await start_game(standin, ana, sam)
    await play(standin, ana, "c4-b5", board)
    shown = await standin.slash(ana, "rithmo board", side="black")
    assert not shown.reply.ephemeral and shown.reply.attachments
    assert "seen from Black's side" in shown.reply.content
    spectator = standin.add_member("Léa")
    seen = await standin.slash(spectator, "rithmo board", game=1)
    assert "seen from White's side" in seen.reply.content
    assert seen.reply.attachments[0].data != shown.reply.attachments[0].data


async def test_a_turn_from_an_old_state_is_refused_but_bookkeeping_does_not_refuse_it(
        standin, start_bot):
    bot = await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    _, board = await start_game(standin, ana, sam)
    # The cog stores the board's message id just after posting it: let that land first, or it
    # would race the test's own update below.
    before = await bot.db.rithmo.require_game(1)
    for _ in range(250):
        if before.message_id == board.id:
            break
        await standin.idle()
        before = await bot.db.rithmo.require_game(1)
    assert before.message_id == board.id
    # Only the stored message id changed since (bookkeeping: the version stays): the turn goes
    # through.
    await bot.db.rithmo.set_message_id(1, board.id)
    assert (await bot.db.rithmo.require_game(1)).version == before.version
    played = await cog(bot).flow.service.apply_turn(before, ana.id, "c4-b5")
    assert (played.turn, played.row.to_move) == ("c4-b5", "black")
    # A turn was played since: the same click again is a real conflict ("try again").
    with pytest.raises(DomainError) as stale:
        await cog(bot).flow.service.apply_turn(before, ana.id, "c4-d5")
    assert stale.value.code == "db.stale"
    assert [t.notation for t in (await bot.db.rithmo.require_game(1)).turns] == ["c4-b5"]


async def test_the_boards_description_names_both_players_also_after_a_restart(
        standin, start_bot, restart_bot):
    # The bot has no member list: the names come from the players' interactions, else from
    # one fetch; the picture's description never says "a former player" for a member here.
    bot = await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    _, board = await start_game(standin, ana, sam)
    said = "Rithmomachia board: Ana plays White, Sam plays Black."
    assert board.attachments[0].description.startswith(said)
    await restart_bot(bot)
    board = await play(standin, ana, "c4-b5", board)
    assert board.attachments[0].description.startswith(said)
    assert "a former player" not in board.attachments[0].description
    # Known from the interactions or fetched (bot.ui.members), never from a member cache the
    # bot does not have (docs/bot.md).
    for module in ("bot/ui/rithmo.py", "bot/flows/rithmo.py"):
        assert "get_member" not in (ROOT / module).read_text(encoding="utf-8"), module
