"""/rithmo hint and /rithmo puzzle end to end: the real bot against the stand-in.

A hint given (with its arithmetic), none available, refused for each reason, counted and shown at
the game's end; the daily puzzle answered right (by its form) and wrong (by the command's
option), each explained with the arithmetic, the same puzzle for two members, one answer counted,
an illegal turn refused and not counted, a position from the server's own finished game, the
puzzles in /progress, and French.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from test_cog_rithmo import ONE_PIECE, opening_with_a_capture, play, start_game
from test_rithmo_puzzles import fishing_lines

from bot.domain import DomainError
from bot.play.rithmo_puzzles import answer, local_day, puzzle_seed
from bot.rithmo import Board, Game
from bot.rithmo.opponents import random_turn
from bot.rithmo.puzzles import Puzzle, check_answer, from_turns, generate, hint, refusal
from bot.ui.rithmo_explain import capture_text
from tests.french import fr


def expected_hint(turns: list[str]) -> Any:
    board = Board.start()
    for turn in turns:
        board.push(turn)
    return hint(board)


def todays_puzzle(guild_id: int) -> Puzzle:
    """The puzzle a server without finished games gets today (the bot's own game of the day)."""
    day = datetime.now(UTC).date()
    return generate(puzzle_seed(guild_id, day))


def wrong_turn(puzzle: Puzzle) -> str:
    """A legal turn that takes something else (a decoy), else a quiet move."""
    if puzzle.others:
        return puzzle.others[0].turn
    board = puzzle.board()
    return next(str(m) for m in board.legal_moves()
                if all(c.square != m.to for c in board.captures()))


def opening_with_a_capture_after_a_move() -> tuple[str, str]:
    """White's move and Black's answer after which White can take nothing at once, but a move
    opens a capture (the first such pair in the engine's order)."""
    board = Board.start()
    for white in board.legal_moves():
        board.push(str(white))
        for black in board.legal_moves():
            board.push(str(black))
            if not board.captures() and hint(board) is not None:
                return str(white), str(black)
            board.pop()
        board.pop()
    raise AssertionError("no such opening")


def near_miss(puzzle: Puzzle) -> tuple[str, DomainError]:
    """A turn one square off a legal move, which the rules refuse with legal turns near it (the
    engine's own suggestion, as a game gives it)."""
    for move in puzzle.board().legal_moves():
        for last in "123456789":
            typed = str(move)[:-1] + last
            try:
                check_answer(puzzle, typed)
            except DomainError as refused:
                said = refusal(puzzle, typed, refused)  # the puzzle's own, no solution
                if said.code == "rithmo.did_you_mean":
                    return typed, said
    raise AssertionError("no near miss")


# ---------------------------------------------------------------------------- hints


async def test_a_hint_in_a_game_against_ardoise_shows_a_capture_with_its_arithmetic(
        standin, start_bot):
    bot = await start_bot()
    white, black, _capture = opening_with_a_capture()
    # Ardoise answers with the move that opens the capture (a test's own choice of turn).
    bot.get_cog("Rithmo").flow.service.choose_turn = lambda game, level, rng: black
    ana = standin.add_member("Ana")
    board = (await standin.slash(ana, "rithmo solo")).reply
    assert "Stuck? /rithmo hint shows you a capture open to you" in board.content
    none = await standin.slash(ana, "rithmo hint")
    assert none.reply.ephemeral
    assert none.reply.content.startswith(
        "💡 Game #1: no turn of yours can take anything now, not even after a move")
    # A hint that finds nothing helped no one: it is not counted.
    assert "Hints used in this game: 0." in none.reply.content, none.reply.content
    assert (await bot.db.rithmo.require_game(1)).hints_white == 0
    await play(standin, ana, white, board)
    given = await standin.slash(ana, "rithmo hint")
    way = expected_hint([white, black])
    assert way is not None
    text = given.reply.content
    assert text.startswith(f"💡 Game #1: you can take the {way.piece} on {way.victim}.")
    arithmetic = capture_text(way.explained(), "en")
    assert f"> {arithmetic}" in text and " taken by " in arithmetic
    assert f"For example: `{way.turn}`." in text
    assert "Hints used in this game: 1." in text
    game = await bot.db.rithmo.require_game(1)
    assert (game.hints_allowed, game.hints_white, game.hints_black) == (True, 1, 0)
    # The hint's turn is a legal one: played, it takes the piece shown.
    answered = await standin.slash(ana, "rithmo move", turn=way.turn)
    assert answered.reply.ephemeral


async def test_a_hint_may_be_a_capture_that_a_move_opens(standin, start_bot):
    bot = await start_bot()
    white, black = opening_with_a_capture_after_a_move()
    bot.get_cog("Rithmo").flow.service.choose_turn = lambda game, level, rng: black
    ana = standin.add_member("Ana")
    board = (await standin.slash(ana, "rithmo solo")).reply
    await play(standin, ana, white, board)
    way = expected_hint([white, black])
    assert way is not None and not way.turn.startswith("x")
    move = way.turn.rsplit(" ", 1)[0]
    given = (await standin.slash(ana, "rithmo hint")).reply.content
    assert given.startswith(f"💡 Game #1: nothing can be taken at once, but after `{move}` you "
                            f"can take the {way.piece} on {way.victim}.")
    assert f"> {capture_text(way.explained(), 'en')}" in given
    played = await standin.slash(ana, "rithmo move", turn=way.turn)
    assert played.reply.content.startswith("You played"), played.reply.content


async def test_hints_are_refused_with_the_real_reason(standin, start_bot):
    await start_bot()
    ana, sam, zoé = (standin.add_member(n) for n in ("Ana", "Sam", "Zoé"))
    nowhere = await standin.slash(zoé, "rithmo hint")
    assert nowhere.reply.ephemeral and nowhere.reply.content.startswith(
        "You have no Rithmomachia game in this channel.")
    await start_game(standin, ana, sam)  # hints not allowed by the challenge
    off = await standin.slash(ana, "rithmo hint")
    assert off.reply.content.startswith("Hints are not allowed in this game")
    other = standin.add_channel("other")
    posted = await standin.slash(ana, "rithmo challenge", member=sam, in_channel=other,
                                 hints=True, **ONE_PIECE)
    assert "Allowed for both players (/rithmo hint)" in posted.reply.text()
    await standin.click(sam, posted.reply, label="Accept")
    await standin.wait_for_message(lambda m: bool(m.attachments), channel=other,
                                   after=posted.reply)
    waiting = await standin.slash(sam, "rithmo hint", in_channel=other)
    assert waiting.reply.content == f"It is not your turn: {ana.mention} is to move."


async def test_the_hints_used_are_shown_at_the_games_end(standin, start_bot):
    bot = await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    _, board = await start_game(standin, ana, sam, hints=True)
    white, black, capture = opening_with_a_capture()
    await standin.slash(ana, "rithmo hint")  # nothing to take yet: not counted
    board = await play(standin, ana, white, board)
    board = await play(standin, sam, black, board)
    await standin.slash(ana, "rithmo hint")
    final = await play(standin, ana, capture, board)
    assert "wins game #1" in final.content
    assert f"Hints used: {ana.mention} 1 · {sam.mention} 0" in final.content
    game = await bot.db.rithmo.require_game(1)
    assert (game.hints_white, game.hints_black, game.status) == (1, 0, "finished")
    refused = await standin.slash(ana, "rithmo hint")  # the game is over: none left to help
    assert refused.reply.content.startswith("You have no Rithmomachia game in this channel.")


# ---------------------------------------------------------------------------- the puzzle


async def test_the_daily_puzzle_answered_right_by_its_form(standin, start_bot):
    bot = await start_bot()
    ana = standin.add_member("Ana")
    puzzle = todays_puzzle(standin.guild.id)
    shown = (await standin.slash(ana, "rithmo puzzle")).reply
    assert shown.ephemeral and shown.attachments[0].data.startswith(b"\x89PNG")
    side = puzzle.to_move.capitalize()
    assert f"{side} to move. Find the most valuable piece you can take this turn." in \
        shown.content
    assert "Ardoise played against itself" in shown.content
    opened = await standin.click(ana, shown, label="Answer")
    solution = puzzle.solutions[0]
    answered = await standin.submit_modal(ana, opened, {"turn": solution.turn})
    text = answered.reply.content
    assert answered.reply.ephemeral
    assert text.startswith(f"✅ Right! `{solution.turn}` takes the {puzzle.piece} on "
                           f"{puzzle.target}, the most valuable piece you could take.")
    assert f"> {capture_text(solution.explained(), 'en')}" in text
    assert "1 member has answered today's puzzle, 1 right." in text
    [stored] = await bot.db.rithmo_puzzles.answers(standin.guild.id, ana.id)
    assert (stored.answer, stored.solved) == (solution.turn, True)
    # Asked again, the puzzle shows the counted answer and the solution, no button.
    again = (await standin.slash(ana, "rithmo puzzle")).reply
    assert f"Your answer today: `{solution.turn}` (right)." in again.content
    assert again.buttons() == []


async def test_the_same_puzzle_for_two_members_a_wrong_answer_explained_one_counted(
        standin, start_bot):
    bot = await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    puzzle = todays_puzzle(standin.guild.id)
    first = (await standin.slash(ana, "rithmo puzzle")).reply
    second = (await standin.slash(sam, "rithmo puzzle")).reply
    assert first.content == second.content
    assert first.attachments[0].data == second.attachments[0].data
    assert first.button("Answer")["custom_id"] == second.button("Answer")["custom_id"]

    # A turn the rules refuse is said with its reason, and counts nothing.
    refused = await standin.slash(sam, "rithmo puzzle", answer="a1-a16")
    assert refused.reply.ephemeral and not refused.reply.content.startswith(("✅", "❌"))
    assert await bot.db.rithmo_puzzles.answers(standin.guild.id, sam.id) == []

    wrong = wrong_turn(puzzle)
    answered = await standin.slash(sam, "rithmo puzzle", answer=wrong)
    text = answered.reply.content
    assert text.startswith("❌")
    assert f"The most valuable piece to take was the {puzzle.piece} on {puzzle.target}:" in text
    for way in puzzle.solutions:
        assert f"• `{way.turn}`: {capture_text(way.explained(), 'en')}" in text
    if puzzle.others:  # the decoy it took, with its own arithmetic
        assert f"> {capture_text(puzzle.others[0].explained(), 'en')}" in text
    # Right the second time, but only the first answer of the day counts.
    retry = await standin.slash(sam, "rithmo puzzle", answer=puzzle.solutions[0].turn)
    assert retry.reply.content.startswith("✅ Right!")
    assert "Only your first answer of the day counts: it was" in retry.reply.content
    assert "(wrong)" in retry.reply.content
    [stored] = await bot.db.rithmo_puzzles.answers(standin.guild.id, sam.id)
    assert stored.solved is False
    assert "1 member has answered today's puzzle, 0 right." in retry.reply.content


async def test_the_puzzle_comes_from_a_game_the_server_finished_before_today(
        standin, start_bot):
    bot = await start_bot()
    guild = standin.guild.id
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    # A game of 60 random turns with a puzzle position in it, finished yesterday.
    rng = random.Random(3)
    game = Game()
    while len(game.turns) < 60:
        game.push(random_turn(game, rng))
    turns = [str(t) for t in game.turns]
    assert from_turns(game.settings.to_json(), turns, {}, random.Random(0)) is not None
    row = await bot.db.rithmo.create_game(guild, white_id=ana.id, black_id=sam.id,
                                          victories=game.settings.to_json(), position={},
                                          status="active")
    version = row.version
    for i, turn in enumerate(turns):
        version = await bot.db.rithmo.play_turn(row.game_id, version, turn, {},
                                                to_move=("black", "white")[i % 2], deadline=None)
    yesterday = datetime.now(UTC) - timedelta(days=1)
    await bot.db.rithmo.finish_game(row.game_id, version, "draw", "agreed", now=yesterday)
    shown = (await standin.slash(ana, "rithmo puzzle")).reply
    assert f"The position comes from game #{row.game_id} of this server" in shown.content
    settings = await bot.db.servers.get(guild)
    stored = await bot.db.rithmo_puzzles.daily(guild, local_day(settings, datetime.now(UTC)))
    puzzle = Puzzle.from_json(stored.puzzle)
    replay = Game.from_json({"settings": game.settings.to_json(),
                             "turns": turns[:puzzle.source["ply"]]})
    assert replay.board.to_json() == puzzle.position


async def test_the_puzzles_count_in_progress_as_a_topic_of_their_own(standin, start_bot):
    await start_bot()
    ana = standin.add_member("Ana")
    puzzle = todays_puzzle(standin.guild.id)
    await standin.slash(ana, "rithmo puzzle", answer=puzzle.solutions[0].turn)
    shown = (await standin.slash(ana, "progress")).reply
    text = shown.text()
    assert "Rithmomachia puzzles" in text
    assert "1 daily puzzle answered in the last 12 weeks, 1 right" in text


async def test_the_puzzle_and_the_hint_in_french(standin, start_bot):
    await start_bot()
    léa = standin.add_member("Léa", locale="fr")
    puzzle = todays_puzzle(standin.guild.id)
    shown = (await standin.slash(léa, "rithmomachie énigme")).reply
    side = {"white": "Blancs", "black": "Noirs"}[puzzle.to_move]
    assert f"Aux {side} de jouer." in shown.content and "Énigme du jour" in shown.content
    assert shown.button("Répondre")
    answered = await standin.slash(léa, "rithmomachie énigme",
                                   réponse=puzzle.solutions[0].turn)
    assert answered.reply.content.startswith(fr("✅ Juste !"))
    assert capture_text(puzzle.solutions[0].explained(), "fr") in answered.reply.content
    refused = await standin.slash(léa, "rithmomachie indice")
    assert refused.reply.content.startswith("Tu n'as pas de partie de Rithmomachie")


async def test_an_answer_to_an_earlier_days_puzzle_is_refused_and_counts_nothing(
        standin, start_bot):
    bot = await start_bot()
    ana = standin.add_member("Ana")
    shown = (await standin.slash(ana, "rithmo puzzle")).reply
    puzzle_id = int(shown.button("Answer")["custom_id"].split(":")[1])
    # The server's day ends while the form is open: tomorrow has a puzzle of its own.
    tomorrow = datetime.now(UTC) + timedelta(days=1)
    with pytest.raises(DomainError) as over:
        await answer(bot.db, standin.guild.id, ana.id, puzzle_id,
                     todays_puzzle(standin.guild.id).solutions[0].turn, now=tomorrow)
    assert over.value.code == "rithmo.puzzle_over"
    assert await bot.db.rithmo_puzzles.answers(standin.guild.id, ana.id) == []


async def test_the_answer_is_read_as_a_games_turn_tolerant_and_with_suggestions(standin,
                                                                              start_bot):
    bot = await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    puzzle = todays_puzzle(standin.guild.id)
    # Capitals and an en dash, as a student types them: read as the notation.
    typed = puzzle.solutions[0].turn.upper().replace("-", "–")
    right = await standin.slash(ana, "rithmo puzzle", answer=typed)
    assert right.reply.content.startswith(f"✅ Right! `{puzzle.solutions[0].turn}`")
    # A move the piece cannot make: the reason, then the nearest legal turns (nothing counted).
    near, suggested = near_miss(puzzle)
    refused = await standin.slash(sam, "rithmo puzzle", answer=near)
    assert "Did you mean" in refused.reply.content, refused.reply.content
    assert f"`{suggested.params['turns']}`" in refused.reply.content
    assert await bot.db.rithmo_puzzles.answers(standin.guild.id, sam.id) == []


async def test_the_puzzle_cannot_be_fished_from_its_refusals(standin, start_bot):
    # Issue 28: a malformed answer's "Did you mean `xd14 d12-d14`?" gave the solution away.
    bot = await start_bot()
    sam = standin.add_member("Sam")
    puzzle = todays_puzzle(standin.guild.id)
    solutions = [way.turn for way in puzzle.solutions]
    said = []
    for text in fishing_lines(puzzle):
        try:
            check_answer(puzzle, text)
        except DomainError:
            reply = (await standin.slash(sam, "rithmo puzzle", answer=text)).reply
            assert reply.ephemeral
            said.append(reply.content)
            assert not any(f"`{turn}`" in reply.content for turn in solutions), reply.content
    assert said  # some lines were refused, and said without the answer
    assert await bot.db.rithmo_puzzles.answers(standin.guild.id, sam.id) == []
