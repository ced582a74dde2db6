"""Issue 28 end to end, the real bot against the stand-in: /rithmo review of a finished game
(its turns with their arithmetic, the step buttons, the turning point, who may look, across a
restart), the puzzle streak (in /progress and the daily puzzle's message, across a restart) and
/rithmo puzzle practice (answered as the daily one is, counted nowhere)."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, date, datetime, timedelta
from typing import Any

from test_cog_rithmo_puzzles import todays_puzzle
from test_rithmo_puzzles import fishing_lines

from bot.domain import DomainError
from bot.play.rithmo_puzzles import local_day
from bot.play.rithmo_turns import taken_and_explained
from bot.rithmo import Board, Game
from bot.rithmo.opponents import random_turn
from bot.rithmo.puzzles import Puzzle, check_answer, generate
from bot.rithmo.review import review_in_worker
from bot.ui.rithmo_explain import capture_text
from tests.french import fr

NODES = 3000  # a small search: the test's review is the real one, only shorter


async def finished_game(bot: Any, guild: int, white: int, black: int, plies: int = 40,
                        seed: int = 3) -> tuple[int, list[str]]:
    """A game of ``plies`` random turns between two members, stored and finished (a draw)."""
    rng = random.Random(seed)
    game = Game()
    while len(game.turns) < plies and not game.is_over():
        game.push(random_turn(game, rng))
    turns = [str(t) for t in game.turns]
    row = await bot.db.rithmo.create_game(guild, white_id=white, black_id=black,
                                          victories=game.settings.to_json(), position={},
                                          status="active")
    version = row.version
    for i, turn in enumerate(turns):
        version = await bot.db.rithmo.play_turn(row.game_id, version, turn, {},
                                                to_move=("black", "white")[i % 2], deadline=None)
    await bot.db.rithmo.finish_game(row.game_id, version, "draw", "agreed")
    return row.game_id, turns


def a_turn_taking(turns: list[str]) -> tuple[int, list[Any]]:
    """The first turn (1 = the first) that takes something, and what it takes."""
    board = Board.start()
    for ply, text in enumerate(turns, 1):
        turn = board.copy().push(text)
        taken = taken_and_explained(board, turn)
        if taken:
            return ply, taken
        board.push(text)
    raise AssertionError("no capture in the game")


async def step(standin: Any, member: Any, message: Any, label: str) -> None:
    """Click a step button and wait for the review's message to show the new turn (the click
    is answered at once, the picture follows)."""
    before = message.edited_at
    await standin.click(member, message, label=label)
    await standin.wait_until(lambda: message.edited_at != before, timeout=30)


def use_small_reviews(bot: Any) -> list[int]:
    """The review worked out in a thread with a small search; the calls counted."""
    calls: list[int] = []

    async def reviewer(settings: Any, turns: list[str]) -> dict[str, Any]:
        calls.append(len(turns))
        return await asyncio.to_thread(review_in_worker, settings, turns, NODES)

    bot.get_cog("Rithmo").flow.reviewer = reviewer
    return calls


async def test_a_finished_game_is_reviewed_turn_by_turn_also_after_a_restart(
        standin, start_bot, restart_bot):
    bot = await start_bot()
    calls = use_small_reviews(bot)
    ana, sam, zoé = (standin.add_member(n) for n in ("Ana", "Sam", "Zoé"))
    game_id, turns = await finished_game(bot, standin.guild.id, ana.id, sam.id)
    # The autocomplete offers the member's finished games.
    [choice] = await standin.autocomplete(ana, "rithmo review", "game", game="")
    assert choice["value"] == game_id
    assert choice["name"] == f"#{game_id} · drawn between members · {len(turns)} turns"
    assert await standin.autocomplete(zoé, "rithmo review", "game", game="") == []
    shown = (await standin.slash(ana, "rithmo review", game=game_id)).reply
    assert shown.ephemeral and shown.attachments[0].data.startswith(b"\x89PNG")
    text = shown.content
    assert f"Review of game #{game_id}" in text
    assert f"Turn {len(turns)} of {len(turns)}:" in text and "draw" in text.casefold()
    assert calls == [len(turns)]
    stored = await bot.db.rithmo_reviews.review(game_id)
    turning = stored["turning"]
    assert turning is not None
    assert f"The game turned at turn {turning['ply']}" in text
    if turning["better"] is not None:
        assert f"Ardoise would have played `{turning['better']}` there instead." in text
    # Stepping: the first position, then on; the buttons at the ends are off.
    assert shown.button("Next")["disabled"] and shown.button("Last")["disabled"]
    await step(standin, ana, shown, "First")
    assert "The set-up, before the first turn." in shown.content
    assert shown.button("Previous")["disabled"]
    await step(standin, ana, shown, "Next")
    assert f"Turn 1 of {len(turns)}:" in shown.content and f"`{turns[0]}`" in shown.content
    # The turn that took something says it with its arithmetic, as a game's message does.
    ply, taken = a_turn_taking(turns)
    await step(standin, ana, shown, "Last")
    for _ in range(len(turns) - ply):
        await step(standin, ana, shown, "Previous")
    assert f"Turn {ply} of {len(turns)}:" in shown.content
    for piece in taken:
        assert f"• {capture_text(piece.why, 'en')}" in shown.content
    await step(standin, ana, shown, "Turning point")
    assert f"Turn {turning['ply']} of {len(turns)}:" in shown.content
    # Someone who did not play: refused, by the command and by a forged button alike.
    refused = (await standin.slash(zoé, "rithmo review", game=game_id)).reply
    assert refused.content == (f"Only the players of game #{game_id} and the teachers can "
                               "look back on it.")
    # After a restart, a button from before shows its turn, from the kept review.
    bot = await restart_bot(bot)
    calls = use_small_reviews(bot)
    await step(standin, ana, shown, "First")
    assert "The set-up, before the first turn." in shown.content
    assert calls == []  # read back, not worked out again
    again = (await standin.slash(sam, "rithmo review", game=game_id)).reply
    assert f"The game turned at turn {turning['ply']}" in again.content
    assert calls == []


async def test_a_teacher_may_review_any_finished_game_of_the_server(standin, start_bot):
    bot = await start_bot()
    use_small_reviews(bot)
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    teacher = standin.add_member("Mme Roy", teacher=True)
    game_id, turns = await finished_game(bot, standin.guild.id, ana.id, sam.id, plies=16)
    [choice] = await standin.autocomplete(teacher, "rithmo review", "game", game=str(game_id))
    assert choice == {"name": f"#{game_id} · drawn between members · {len(turns)} turns",
                      "value": game_id}
    shown = (await standin.slash(teacher, "rithmo review", game=game_id)).reply
    assert shown.ephemeral and f"Review of game #{game_id}" in shown.content
    await step(standin, teacher, shown, "First")
    assert "The set-up, before the first turn." in shown.content
    # Reading on quickly, as a child does: a click after each other, never refused.
    for ply in range(1, len(turns) + 1):
        await step(standin, teacher, shown, "Next")
        assert f"Turn {ply} of {len(turns)}:" in shown.content, shown.content


async def test_a_game_being_played_is_not_reviewed_and_french_names(standin, start_bot):
    bot = await start_bot()
    use_small_reviews(bot)
    léa, sam = standin.add_member("Léa", locale="fr"), standin.add_member("Sam")
    row = await bot.db.rithmo.create_game(standin.guild.id, white_id=léa.id, black_id=sam.id,
                                          victories=Game().settings.to_json(), position={},
                                          status="active")
    refused = (await standin.slash(léa, "rithmomachie revoir", partie=row.game_id)).reply
    assert refused.content.startswith(fr(f"La partie n° {row.game_id} n'est pas finie"))
    missing = (await standin.slash(léa, "rithmomachie revoir", partie=999)).reply
    assert missing.content == fr("Il n'y a pas de partie n° 999 sur ce serveur.")
    game_id, _ = await finished_game(bot, standin.guild.id, léa.id, sam.id, plies=12)
    shown = (await standin.slash(léa, "rithmomachie revoir", partie=game_id)).reply
    assert fr(f"Revoir la partie n° {game_id}") in shown.content
    assert shown.button("Début") and shown.button("Suivant")["disabled"]


# ------------------------------------------------------------------------------ the streak


async def solved_on(bot: Any, guild: int, user_id: int, day: date) -> None:
    """A puzzle of ``day`` (an earlier one) solved by the member, as the use case stores it."""
    puzzle = generate(day.toordinal())
    stored = await bot.db.rithmo_puzzles.create_daily(guild, day, puzzle.to_json())
    await bot.db.rithmo_puzzles.record_answer(stored, user_id, puzzle.solutions[0].turn, True)


async def test_the_puzzle_streak_counts_days_in_a_row_also_after_a_restart(
        standin, start_bot, restart_bot):
    bot = await start_bot()
    guild = standin.guild.id
    ana = standin.add_member("Ana")
    today = local_day(await bot.db.servers.get(guild), datetime.now(UTC))
    # A run of 4 days long ago, then yesterday and the day before.
    for back in (10, 9, 8, 7, 2, 1):
        await solved_on(bot, guild, ana.id, today - timedelta(days=back))
    shown = (await standin.slash(ana, "rithmo puzzle")).reply
    assert "🔥 Puzzle streak: 2 days in a row (best: 4 days)." in shown.content
    puzzle = todays_puzzle(guild)
    answered = (await standin.slash(ana, "rithmo puzzle",
                                    answer=puzzle.solutions[0].turn)).reply
    assert "🔥 Puzzle streak: 3 days in a row (best: 4 days)." in answered.content
    bot = await restart_bot(bot)
    progress = (await standin.slash(ana, "progress")).reply.text()
    assert "Days in a row solved: 3 (best: 4)" in progress
    again = (await standin.slash(ana, "rithmo puzzle")).reply
    assert "🔥 Puzzle streak: 3 days in a row (best: 4 days)." in again.content
    # A wrong answer ends the run: Sam solved yesterday, then answered today wrong.
    sam = standin.add_member("Sam")
    await solved_on(bot, guild, sam.id, today - timedelta(days=1))
    wrong = next(w.turn for w in puzzle.others) if puzzle.others else None
    if wrong is not None:
        said = (await standin.slash(sam, "rithmo puzzle", answer=wrong)).reply
        assert "🔥 Puzzle streak: 0 days in a row (best: 1 day)." in said.content


# ------------------------------------------------------------------------------ practice


def practice_of(bot: Any, message: Any, label: str = "Answer") -> tuple[str, int]:
    custom_id = message.button(label)["custom_id"]
    _, ref, kind = custom_id.split(":")
    return ("past", "generated")[int(kind)], int(ref)


async def practised(bot: Any, guild: int, message: Any) -> Puzzle:
    kind, ref = practice_of(bot, message)
    if kind == "generated":
        return generate(ref)
    stored = await bot.db.rithmo_puzzles.past_puzzle(guild, ref)
    assert stored is not None
    return Puzzle.from_json(stored.puzzle)


async def test_a_practice_puzzle_counts_for_nothing_and_cannot_be_fished(standin, start_bot):
    bot = await start_bot()
    guild = standin.guild.id
    ana = standin.add_member("Ana")
    today = local_day(await bot.db.servers.get(guild), datetime.now(UTC))
    await solved_on(bot, guild, ana.id, today - timedelta(days=3))  # a past puzzle to draw
    shown = (await standin.slash(ana, "rithmo puzzle", practice=True)).reply
    assert shown.ephemeral and shown.attachments[0].data.startswith(b"\x89PNG")
    assert "Practice puzzle" in shown.content and "counts for nothing" in shown.content
    puzzle = await practised(bot, guild, shown)
    solutions = [way.turn for way in puzzle.solutions]
    # Fishing: every refusal is said without the solution, and nothing is stored (a few
    # lines: the answers' bucket is a member's, as in a game).
    refused = []
    for text in fishing_lines(puzzle):
        try:
            check_answer(puzzle, text)
        except DomainError:
            refused.append(text)
    assert refused
    for text in refused[:3]:
        opened = await standin.click(ana, shown, label="Answer")
        reply = (await standin.submit_modal(ana, opened, {"turn": text})).reply
        assert not any(f"`{turn}`" in reply.content for turn in solutions), reply.content
    opened = await standin.click(ana, shown, label="Answer")
    right = (await standin.submit_modal(ana, opened, {"turn": solutions[0]})).reply
    assert right.content.startswith(f"✅ Right! `{solutions[0]}`")
    assert "Practice only: nothing was counted." in right.content
    # Not today's answer, not the streak: today's puzzle still waits for an answer.
    answers = await bot.db.rithmo_puzzles.answers(guild, ana.id)
    assert [a.day for a in answers] == [today - timedelta(days=3)]
    daily = (await standin.slash(ana, "rithmo puzzle")).reply
    assert daily.button("Answer") and "Puzzle of the day" in daily.content
    assert "🔥 Puzzle streak: 0 days in a row (best: 1 day)." in daily.content
    # An answer typed with practice: refused (a practice puzzle has its button).
    both = (await standin.slash(ana, "rithmo puzzle", practice=True, answer="c4-c5")).reply
    assert both.content.startswith("A practice puzzle is answered with its “Answer” button")
    assert await bot.db.rithmo_puzzles.answers(guild, ana.id) == answers


async def test_a_generated_practice_puzzle_in_french(standin, start_bot):
    bot = await start_bot()
    léa = standin.add_member("Léa", locale="fr")
    shown = (await standin.slash(léa, "rithmomachie énigme", entraînement=True)).reply
    assert "Énigme d'entraînement" in shown.content
    kind, ref = practice_of(bot, shown, "Répondre")
    assert kind == "generated"  # no past puzzle on this server yet
    puzzle = generate(ref)
    opened = await standin.click(léa, shown, label="Répondre")
    right = (await standin.submit_modal(léa, opened, {"turn": puzzle.solutions[0].turn})).reply
    assert right.content.startswith(fr("✅ Juste !"))
    assert fr("Simple entraînement : rien n'a été compté.") in right.content
