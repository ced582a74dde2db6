"""The leaderboard card as /leaderboard uses it for ratings and streaks: its own column names
and a second column given as text."""

from __future__ import annotations

from bot.i18n import image_words
from images import render_leaderboard

EN, FR = image_words("en"), image_words("fr")

ROWS = [{"rank": 1, "name": "Ana", "score": 1620, "time": 12},
        {"rank": 2, "name": "Sam", "score": 1540, "time": 75}]


def test_a_text_in_the_time_column_is_written_as_it_is():
    as_text = [{**row, "time": text} for row, text in zip(ROWS, ("12.0 s", "1:15.0"),
                                                           strict=True)]
    assert render_leaderboard(as_text, EN) == render_leaderboard(ROWS, EN)
    assert render_leaderboard(as_text, FR) != render_leaderboard(ROWS, FR)  # "12,0 s"


def test_columns_rename_the_score_and_time_headers():
    assert render_leaderboard(ROWS, EN, columns=("Score", "Time")) == render_leaderboard(
        ROWS, EN)
    assert render_leaderboard(ROWS, FR, columns=("Score", "Temps")) == render_leaderboard(
        ROWS, FR)
    assert render_leaderboard(ROWS, EN, columns=("Rating", "Games")) != render_leaderboard(
        ROWS, EN)
