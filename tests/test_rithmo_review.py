"""The engine's review of a finished game (bot/rithmo/review.py), the puzzle streak's arithmetic
(bot.play.rithmo_puzzles.streaks), and the kept reviews in the database (both dialects: kept
once, erased by the retention with their game, exported with it). Issue 28."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta

import pytest

from bot.play.rithmo_puzzles import Streak, streaks
from bot.rithmo import Game, Settings
from bot.rithmo.ai import WIN, Evaluator, choose_turn
from bot.rithmo.opponents import random_turn
from bot.rithmo.review import MIN_SWING, Review, review, white_score

NODES = 3000


def a_game(seed: int, plies: int = 40, white: str = "random") -> list[str]:
    """Random turns, White's at ``white``'s level."""
    rng = random.Random(seed)
    game = Game(Settings())
    while len(game.turns) < plies and not game.is_over():
        level = white if len(game.turns) % 2 == 0 else "random"
        game.push(random_turn(game, rng) if level == "random" else choose_turn(game, level, rng))
    return [str(t) for t in game.turns]


def cost(scores: list[int], ply: int) -> int:
    """What turn ``ply`` cost its player (White plays the odd turns)."""
    sign = 1 if ply % 2 == 1 else -1
    return sign * (scores[ply - 1] - scores[ply])


@pytest.mark.parametrize("seed", range(6))
def test_the_turning_point_is_the_turn_that_lost_its_player_the_most(seed: int) -> None:
    turns = a_game(seed)
    settings = Settings().to_json()
    found = review(settings, turns, NODES)
    # The scores are the engine's own evaluation after each turn, from White's side.
    game = Game(Settings())
    ev = Evaluator(game.settings)
    expected = [white_score(game, ev)]
    for text in turns:
        game.push(text)
        expected.append(white_score(game, ev))
    assert found.scores == expected
    turning = found.turning
    costs = {ply: cost(expected, ply) for ply in range(1, len(expected))}
    if max(costs.values()) < MIN_SWING:
        assert turning is None
        return
    assert turning is not None
    assert turning.swing == costs[turning.ply] == max(costs.values()) >= MIN_SWING
    assert turning.side == ("white" if turning.ply % 2 == 1 else "black")
    assert (turning.before, turning.after) == (expected[turning.ply - 1], expected[turning.ply])
    assert turning.played == turns[turning.ply - 1]
    # The better turn is another legal turn of that position, and says where it leads.
    if turning.better is not None:
        assert turning.better != turning.played
        before = Game(Settings())
        for text in turns[:turning.ply - 1]:
            before.push(text)
        before.push(turning.better)
        assert turning.better_after == white_score(before, ev)
    # The same game gives the same review (a budget of positions, not of time), and its JSON
    # (what the database keeps) gives it back.
    again = review(settings, turns, NODES)
    assert again == found
    assert Review.from_json(found.to_json()) == found


@pytest.mark.parametrize("seed", [1, 5])
def test_a_blunder_is_found_with_a_better_turn(seed: int) -> None:
    # The middle level against random turns: a random turn that hands the middle level a big
    # capture is the turning point, and the search finds a turn that does better there.
    turns = a_game(seed, plies=30, white="middle")
    found = review(Settings().to_json(), turns, NODES)
    turning = found.turning
    assert turning is not None and turning.better is not None
    sign = 1 if turning.side == "white" else -1
    assert turning.better_after is not None
    assert sign * turning.better_after > sign * turning.after
    assert turning.side == "black" and turning.swing >= MIN_SWING


async def test_the_review_is_worked_out_in_a_search_process() -> None:
    # What the bot runs (the pool's worker, spawned): the same review as in this process.
    from bot.play.rithmo_search import SearchPool

    turns = a_game(5, plies=30, white="middle")
    pool = SearchPool(workers=1)
    try:
        found = await pool.review(Settings().to_json(), turns)
    finally:
        pool.close()
    assert Review.from_json(found) == review(Settings().to_json(), turns)


def test_a_won_position_scores_a_whole_win() -> None:
    game = Game(Settings())
    game.resign("black")
    assert white_score(game, Evaluator(game.settings)) == WIN


def test_a_game_without_turns_has_only_the_set_up_and_no_turning_point() -> None:
    game = Game(Settings())
    assert review(Settings().to_json(), [], NODES) == Review(
        [white_score(game, Evaluator(game.settings))], None)


# ------------------------------------------------------------------------------ the streak

D = date(2026, 12, 6)


def days(*back: int, wrong: tuple[int, ...] = ()) -> list[tuple[date, bool]]:
    return [(D - timedelta(days=b), b not in wrong) for b in back]


@pytest.mark.parametrize(("results", "expected"), [
    ([], Streak(0, 0)),
    (days(0), Streak(1, 1)),
    (days(1), Streak(1, 1)),  # today not answered yet: yesterday's run still counts
    (days(2), Streak(0, 1)),  # a day missed
    (days(3, 2, 1, 0), Streak(4, 4)),
    (days(9, 8, 7, 6, 1, 0), Streak(2, 4)),
    (days(2, 1, 0, wrong=(0,)), Streak(0, 2)),  # answered wrong today: the run is over
    (days(3, 2, 1, wrong=(2,)), Streak(1, 1)),
    (days(1, 1, 0), Streak(2, 2)),  # a day counted once
])
def test_the_streak_is_the_days_in_a_row_solved(results: list[tuple[date, bool]],
                                                expected: Streak) -> None:
    assert streaks(results, D) == expected


# ------------------------------------------------------------------------------ the database

GUILD = 1


async def test_a_review_is_kept_once_erased_with_its_game_and_exported(db) -> None:
    old = datetime(2026, 1, 5, tzinfo=UTC)
    row = await db.rithmo.create_game(GUILD, white_id=10, black_id=11,
                                      victories=Settings().to_json(), position={},
                                      status="active")
    version = await db.rithmo.play_turn(row.game_id, row.version, "c4-c5", {}, to_move="black",
                                        deadline=None)
    await db.rithmo.finish_game(row.game_id, version, "white", "resignation", now=old)
    assert await db.rithmo_reviews.review(row.game_id) is None
    [listed] = await db.rithmo_reviews.finished(GUILD, 10)
    assert (listed.game_id, listed.turns, listed.result) == (row.game_id, 1, "white")
    assert await db.rithmo_reviews.finished(GUILD, 12) == []
    assert [g.game_id for g in await db.rithmo_reviews.finished(GUILD, None)] == [row.game_id]
    await db.rithmo_reviews.keep(row.game_id, {"scores": [1, 2], "turning": None})
    await db.rithmo_reviews.keep(row.game_id, {"scores": [3], "turning": None})  # the first stays
    assert await db.rithmo_reviews.review(row.game_id) == {"scores": [1, 2], "turning": None}
    exported = await db.export_player(GUILD, 10)
    [game] = exported["rithmo_games"]
    assert game["review"] == {"scores": [1, 2], "turning": None}
    counts = await db.retention.purge(GUILD, old + timedelta(days=1))
    assert (counts["rithmo_games"], counts["rithmo_reviews"]) == (1, 1)
    assert await db.rithmo_reviews.review(row.game_id) is None
