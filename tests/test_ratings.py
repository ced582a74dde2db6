"""Glicko-2 (bot/ratings.py): Glickman's worked example and the properties a player expects."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ratings import (
    DEFAULT_RD,
    Rating,
    expected_score,
    idle,
    rate,
    rate_game,
)


def test_glickman_worked_example() -> None:
    # "Example of the Glicko-2 system", Glickman 2013: τ = 0.5.
    player = Rating(1500, 200, 0.06)
    results = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    new = rate(player, results)
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.rd == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)


def test_no_game_keeps_rating_and_widens_rd() -> None:
    before = Rating(1620, 80, 0.06)
    after = rate(before, [])
    assert after == idle(before)
    assert after.rating == before.rating
    assert after.volatility == before.volatility
    # φ* = sqrt(φ² + σ²), on the Glicko scale
    assert after.rd == pytest.approx(((80 / 173.7178) ** 2 + 0.06**2) ** 0.5 * 173.7178)
    assert after.rd > before.rd


def test_idle_rd_never_exceeds_a_newcomers() -> None:
    assert idle(Rating(1500, 349.9, 0.06)).rd == DEFAULT_RD
    assert idle(Rating(1500, 50, 0.06), periods=10_000).rd == DEFAULT_RD


def test_idle_periods_add_up() -> None:
    start = Rating(1500, 50, 0.06)
    assert idle(start, periods=3).rd == pytest.approx(idle(idle(idle(start))).rd)
    assert idle(start, periods=0) == start


def test_draw_between_equal_players_changes_no_rating() -> None:
    a, b = rate_game(Rating(), Rating(), 0.5)
    assert a.rating == pytest.approx(1500)
    assert b.rating == pytest.approx(1500)
    assert a.rd < DEFAULT_RD


def test_newcomers_first_game_moves_both_by_the_same_amount() -> None:
    a, b = rate_game(Rating(), Rating(), 1.0)
    assert a.rating > 1500 > b.rating
    assert a.rating - 1500 == pytest.approx(1500 - b.rating)
    assert a.rd == pytest.approx(b.rd)


def test_upset_moves_ratings_more_than_the_expected_win() -> None:
    strong, weak = Rating(1800, 60), Rating(1400, 60)
    expected_strong, _ = rate_game(strong, weak, 1.0)
    upset_strong, upset_weak = rate_game(strong, weak, 0.0)
    assert 0 < expected_strong.rating - strong.rating < strong.rating - upset_strong.rating
    assert upset_weak.rating > weak.rating


def test_expected_score_is_symmetric_for_equal_uncertainty() -> None:
    a, b = Rating(1700, 50), Rating(1500, 50)
    assert expected_score(a, b) > 0.5
    assert expected_score(a, b) + expected_score(b, a) == pytest.approx(1.0)
    assert expected_score(a, a) == pytest.approx(0.5)


def test_score_outside_zero_to_one_is_refused() -> None:
    with pytest.raises(ValueError):
        rate(Rating(), [(Rating(), 2.0)])


ratings = st.builds(
    Rating,
    st.floats(600, 2600),
    st.floats(30, 350),
    st.floats(0.03, 0.1),
)


@settings(max_examples=60, deadline=None)
@given(ratings, ratings, st.sampled_from([0.0, 0.5, 1.0]))
def test_one_game_shrinks_rd_and_moves_rating_toward_the_result(
    a: Rating, b: Rating, score: float
) -> None:
    new_a, new_b = rate_game(a, b, score)
    surprise = score - expected_score(a, b)
    # A better result than expected raises the rating, a worse one lowers it.
    if surprise > 1e-9:
        assert new_a.rating > a.rating
    elif surprise < -1e-9:
        assert new_a.rating < a.rating
    # A game carries information: the new RD is below φ* = sqrt(φ² + σ'²), what a period
    # without the game would have left (with the updated volatility), unless both reach the
    # 350 ceiling (a newcomer against a far stronger or weaker opponent learns next to nothing).
    for before, after in ((a, new_a), (b, new_b)):
        without_game = idle(Rating(before.rating, before.rd, after.volatility)).rd
        assert after.rd <= without_game
        if without_game < DEFAULT_RD:
            assert after.rd < without_game
    assert 0 < new_a.volatility < 1


@settings(max_examples=40, deadline=None)
@given(ratings, ratings)
def test_win_is_always_better_than_draw_better_than_loss(a: Rating, b: Rating) -> None:
    win, _ = rate_game(a, b, 1.0)
    draw, _ = rate_game(a, b, 0.5)
    loss, _ = rate_game(a, b, 0.0)
    assert win.rating > draw.rating > loss.rating


def test_after_game_ages_a_rating_by_its_full_weeks_away_and_counts_the_game() -> None:
    from datetime import UTC, datetime, timedelta

    from bot.ratings import Record, after_game, idle

    now = datetime(2026, 3, 1, tzinfo=UTC)
    sure = Rating(1600.0, 60.0, 0.06)
    a = Record(sure, games=4, wins=3, losses=1, streak=2, best_streak=2,
               updated_at=now - timedelta(days=20))  # two full weeks away
    b = Record(Rating(9999.0), games=0)  # the row a first game's lock made: a newcomer's
    rated_a, rated_b = after_game(a, b, 1.0, now)
    assert rated_a.before.rating == idle(sure, 2)
    assert rated_b.before == Record()
    assert (rated_a.after.rating, rated_b.after.rating) == rate_game(idle(sure, 2), Rating(), 1.0)
    assert (rated_a.after.games, rated_a.after.wins, rated_a.after.streak,
            rated_a.after.best_streak, rated_a.after.updated_at) == (5, 4, 3, 3, now)
    assert (rated_b.after.games, rated_b.after.losses, rated_b.after.streak) == (1, 1, 0)
    drawn, _ = after_game(a, b, 0.5, now)
    assert (drawn.after.draws, drawn.after.streak, drawn.after.best_streak) == (1, 0, 2)
