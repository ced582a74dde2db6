"""The progress pictures as a student reads them: bars for one or two days of answers (a line
needs more points to be seen), the number of answers beside every percentage, legend names that
never run into their numbers, a calendar that starts on the student's first day, and the days
played said in the right plural."""

from __future__ import annotations

import datetime as dt
import io

from PIL import Image

import images
from bot.i18n import image_words
from bot.play.progress import first_day
from db import Player, ServerSettings
from images import style as st
from images.progress import BAR_DAYS, progress_image, streak_image

EN, FR = image_words("en"), image_words("fr")
TODAY = dt.date(2026, 11, 30)  # a Monday


def records(days: int, correct: int = 5, total: int = 6, topic: str = "addition"):
    return [{"date": (TODAY - dt.timedelta(days=n)).isoformat(), "topic": topic,
             "correct": correct, "total": total} for n in range(days)]


def colours(im: Image.Image, box: tuple[int, int, int, int]) -> dict[st.Colour, int]:
    """How many pixels of each colour ``box`` of ``im`` holds."""
    region = im.convert("RGB").crop(box)
    return {colour: n for n, colour in region.getcolors(region.width * region.height)}


def count(im: Image.Image, colour: st.Colour, box: tuple[int, int, int, int]) -> int:
    return colours(im, box).get(colour, 0)


PLOT = (70, 100, 900 - 236 - 24, 480 - 56)  # the plot area, in bar and line mode alike


def test_one_or_two_days_of_answers_are_bars_and_more_are_lines():
    assert BAR_DAYS == 2
    bar_one = count(progress_image(records(1), EN), st.BLUE, PLOT)
    bar_two = count(progress_image(records(2), EN), st.BLUE, PLOT)
    lines = count(progress_image(records(3), EN), st.BLUE, PLOT)
    # A bar of 83 % is a block of thousands of pixels; three markers and two segments are not.
    assert bar_one > 5000 and bar_two > 2 * 3000
    assert lines < 2500


def test_every_percentage_has_its_number_of_answers():
    # The same share of right answers over more answers is another picture (the counts).
    for days in (1, 5):
        assert (images.render_progress(records(days, 3, 6), EN)
                != images.render_progress(records(days, 6, 12), EN))
    assert EN.count("answers", 1) == "1 answer" and FR.count("answers", 12) == "12 réponses"


def test_a_long_french_topic_name_stays_clear_of_its_number():
    long_name = [{"date": TODAY.isoformat(), "topic": "priority", "correct": 1, "total": 3},
                 {"date": TODAY.isoformat(), "topic": "parentheses", "correct": 2, "total": 3}]
    im = progress_image(long_name, FR).convert("RGB")
    width, name_x = im.width, im.width - 236 + 44
    name, f = st.fit_text(FR.topic("priority"), width - 20 - name_x, 15, 10)
    assert name == FR.topic("priority")  # measured with the font: it fits, uncut
    # The name's row (around y = 66) holds nothing after the name: its percentage and count
    # are on the line below, under it.
    after = round(name_x + f.getlength(name)) + 3
    assert set(colours(im, (after, 56, width, 76))) == {st.SLATE}
    assert st.CHALK in colours(im, (name_x, 78, width - 20, 94))


def _cell_centre(day: dt.date, today: dt.date, weeks: int = 12) -> tuple[int, int]:
    start = today - dt.timedelta(days=today.weekday() + 7 * (weeks - 1))
    week, row = divmod((day - start).days, 7)
    return 62 + week * 35 + 15, 84 + row * 35 + 15


def test_the_calendar_of_a_student_who_started_three_days_ago_has_no_missed_day_before():
    started = TODAY - dt.timedelta(days=3)
    im = streak_image([TODAY - dt.timedelta(days=1)], 1, TODAY, EN, first_day=started)
    im = im.convert("RGB")
    for n in range(4, 12 * 7 - 7):
        day = TODAY - dt.timedelta(days=n)
        assert im.getpixel(_cell_centre(day, TODAY)) == st.SLATE, day  # nothing drawn
    assert im.getpixel(_cell_centre(started, TODAY)) == st.SLATE_LIGHT  # missed, since here
    # Without a first day every day of the twelve weeks is a day that could have been played.
    full = streak_image([TODAY - dt.timedelta(days=1)], 1, TODAY, EN).convert("RGB")
    assert full.getpixel(_cell_centre(TODAY - dt.timedelta(days=30), TODAY)) == st.SLATE_LIGHT


def test_a_day_played_before_the_first_day_given_is_still_drawn():
    early = TODAY - dt.timedelta(days=10)
    im = streak_image([early], 0, TODAY, EN, first_day=TODAY).convert("RGB")
    x, y = _cell_centre(early, TODAY)
    assert im.getpixel((x - 9, y - 9)) == st.GOOD  # beside the tick


def test_days_played_in_the_right_plural():
    assert FR.count("days_played", 1) == "1 jour joué"
    assert FR.count("days_played", 2) == "2 jours joués"
    assert FR.count("days_played", 0) == "0 jour joué"
    assert EN.count("days_played", 1) == "1 day played"
    assert EN.count("days_played", 3) == "3 days played"
    one = images.render_streak([TODAY], 1, TODAY, FR)
    two = images.render_streak([TODAY, TODAY - dt.timedelta(days=1)], 1, TODAY, FR, best=1)
    assert Image.open(io.BytesIO(one)).size == Image.open(io.BytesIO(two)).size


def test_a_students_first_day_is_their_first_trace_here():
    settings = ServerSettings(1)
    assert first_day(None, settings, TODAY, [], []) == TODAY
    made = dt.datetime(2026, 11, 20, 23, 30, tzinfo=dt.UTC)
    player = Player(1, 2, 0, 1, 0, 0, None, made)
    assert first_day(player, settings, TODAY, [], []) == dt.date(2026, 11, 20)
    # In the server's time zone: 23:30 UTC is already the 21st in Paris.
    paris = ServerSettings(1, timezone="Europe/Paris")
    assert first_day(player, paris, TODAY, [], []) == dt.date(2026, 11, 21)
    assert first_day(player, settings, TODAY, [], [dt.date(2026, 11, 2)]) == dt.date(2026, 11, 2)
