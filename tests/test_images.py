"""The pictures: every renderer gives a valid image of the expected size, mode and format for
typical and extreme states, the same state gives the same bytes (also from several threads at
once), and the drawing vocabulary (text fit, wrap, plurals) does what it promises."""

from __future__ import annotations

import copy
import io
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from PIL import Image

import images
from bot.digits.catalogue import BY_KEY
from bot.i18n import image_words
from images import style as st
from images.board import KEY_H, BoardError, Geometry, parse_square
from images.cards import Unit, read_slate
from images.progress import best_run, format_time
from images.replay import _mid_state, exchange_parts, rebuild_states, replay_frames
from images.slate import BattleLayout
from tools import samples

EN, FR = image_words("en"), image_words("fr")

# ---------------------------------------------------------------------------------------------
# helpers


def _png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    im = Image.open(io.BytesIO(data))
    im.load()
    assert im.format == "PNG"
    assert im.mode == "P"
    return im


def _rgb_at(im: Image.Image, xy: tuple[int, int]) -> tuple[int, int, int]:
    return im.convert("RGB").getpixel(xy)  # type: ignore[return-value]


def _close(a: tuple[int, ...], b: tuple[int, ...], tol: int = 12) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


@pytest.fixture(scope="module")
def long_battle() -> dict:
    return samples.long_battle()


@pytest.fixture(scope="module")
def crowded() -> tuple[dict, dict]:
    return samples.crowded_position()


# ---------------------------------------------------------------------------------------------
# The slate


def test_slate_full_of_n3_digits_with_shields_is_a_png_of_the_slate_size() -> None:
    im = _png(images.render_slate(samples.FULL_N3_SLATE, EN, title="Camille"))
    assert im.size == (760, 362)


def test_empty_slate_shows_eight_empty_cells() -> None:
    im = _png(images.render_slate({}, FR))
    assert im.size == (760, 362)
    # Inside every cell, near its corner: the empty cell's fill, not a card's paper.
    for row_y in (92, 240):
        for i in range(4):
            x = 18 + i * (172 + 12) + 12
            assert _close(_rgb_at(im, (x, row_y)), st.SLATE_LIGHT), (x, row_y)


def test_slate_draws_a_card_where_a_digit_stands() -> None:
    im = _png(images.render_slate({"3": "Odd"}, EN))
    x = 18 + 2 * (172 + 12) + 12
    assert _close(_rgb_at(im, (x, 92)), st.PAPER)
    assert _close(_rgb_at(im, (18 + 12, 92)), st.SLATE_LIGHT)


def test_shop_slate_without_stats_takes_the_catalogue_stats_at_its_level() -> None:
    units = read_slate({"1": {"digit": "Moitié", "level": 2}, "5": "Odd N3"})
    assert units[1] == Unit("Half", 2, 3, 8, 0)
    assert units[5] == Unit("Odd", 3, 5, 7, 0)


def test_slate_with_a_bad_cell_or_an_unknown_digit_is_refused() -> None:
    with pytest.raises(ValueError):
        images.render_slate({"9": "Odd"}, EN)
    with pytest.raises(ValueError):
        images.render_slate({"1": "Seven"}, EN)


def test_long_french_names_fit_their_card() -> None:
    slate = {str(c): {"digit": d, "level": 3} for c, d in
             zip(range(1, 9), ["Puissance", "Diviseur", "Premier", "Moyenne", "Retenue",
                               "Boulier", "Jumeau", "Moitié"], strict=True)}
    im = _png(images.render_slate(slate, FR))
    assert im.size == (760, 362)


# ---------------------------------------------------------------------------------------------
# Battles


def test_battle_still_is_a_png_of_the_battle_layout(long_battle: dict) -> None:
    im = _png(images.render_battle(long_battle, EN, ("Camille", "Noé")))
    layout = BattleLayout()
    assert im.size == (layout.width, layout.height)


def test_battle_still_shows_the_survivors_in_their_cells(long_battle: dict) -> None:
    im = _png(images.render_battle(long_battle, FR, ("Camille", "Noé")))
    layout = BattleLayout()
    for side in ("left", "right"):
        standing = {int(c) for c in long_battle["survivors"][side]}
        for cell in range(1, 9):
            x0, y0, _, _ = layout.cell_box(side, cell)
            colour = _rgb_at(im, (x0 + 10, y0 + 60))
            expected = st.PAPER_DIM if cell in standing else st.SLATE_LIGHT
            assert _close(colour, expected), (side, cell, colour)


def test_battle_of_an_empty_slate_has_no_exchange_and_still_draws() -> None:
    result = samples.battle({}, samples.SHORT_RIGHT)
    assert result["exchanges"] == 0
    _png(images.render_battle(result, EN))
    gif = Image.open(io.BytesIO(images.render_replay(result, EN)))
    assert gif.n_frames == 2  # the opening and the result


def test_replay_of_12_exchanges_is_a_looping_gif_under_1_mb(long_battle: dict) -> None:
    data = images.render_replay(long_battle, EN, ("Camille", "Noé"))
    assert len(data) < 1_000_000
    gif = Image.open(io.BytesIO(data))
    assert gif.format == "GIF"
    layout = BattleLayout()
    parts = [len(exchange_parts(layout, e["hits"])) if e["hits"] else 1
             for e in long_battle["log"]]
    assert gif.n_frames == 1 + sum(parts) + 1
    assert parts.count(1) >= 6  # most exchanges read in one frame
    assert gif.info.get("loop") == 0
    assert gif.size == (BattleLayout().width, BattleLayout().height)
    durations = []
    for i in range(gif.n_frames):
        gif.seek(i)
        durations.append(gif.info["duration"])
    assert durations[0] >= 3000 and durations[-1] >= 4000
    assert all(d >= 1600 for d in durations)


def test_replay_without_snapshots_rebuilds_the_same_states(long_battle: dict) -> None:
    bare = {k: v for k, v in long_battle.items() if k != "snapshots"}
    rebuilt = rebuild_states(bare)
    expected = [{side: read_slate(snap[side]) for side in ("left", "right")}
                for snap in long_battle["snapshots"]]
    assert rebuilt == expected
    assert images.render_replay(bare, FR) == images.render_replay(long_battle, FR)


def test_rebuilt_states_take_shield_carry_gains_and_move_ups() -> None:
    opening = {"left": {"1": {"digit": "Carry", "level": 1, "atk": 4, "hp": 6, "shield": 0},
                        "5": {"digit": "Odd", "level": 1, "atk": 3, "hp": 3, "shield": 0}},
               "right": {"1": {"digit": "Square", "level": 1, "atk": 2, "hp": 5, "shield": 4}}}
    log = [{"exchange": 1,
            "hits": [{"side": "left", "from": 1, "to": 1, "hit": 6, "damage": 2},
                     {"side": "right", "from": 1, "to": 1, "hit": 9, "damage": 9}],
            "falls": [{"side": "left", "cell": 1, "digit": "Carry",
                       "gives": {"to": 5, "atk": 4}}],
            "moves": [{"side": "left", "from": 5, "to": 1}]}]
    states = rebuild_states({"opening": opening, "log": log})
    assert states[1]["left"] == {1: Unit("Odd", 1, 7, 3, 0)}
    assert states[1]["right"] == {1: Unit("Square", 1, 2, 3, 0)}


def test_exchange_frame_shows_fallen_digits_where_they_stood_with_their_hp_after_the_hits() -> (
        None):
    # The battle command's own example: both front digits fall, the Plus moves up.
    result = samples.short_battle()
    states = [{side: read_slate(s[side]) for side in ("left", "right")}
              for s in result["snapshots"]]
    mid = _mid_state(result["log"][0], states[0], states[1])
    assert mid["left"][1] == Unit("Odd", 1, 2, 3 - 3, 0)
    assert mid["left"][5] == Unit("Plus", 1, 1, 3, 0)  # still behind, about to move up
    assert mid["right"][1] == Unit("Minus", 2, 3, 4 - 4, 0)


def test_replay_has_a_frame_for_the_opening_each_exchange_and_the_result(long_battle: dict
                                                                         ) -> None:
    frames, durations = replay_frames(long_battle, EN, ("a", "b"))
    assert len(frames) == len(durations) >= long_battle["exchanges"] + 2
    # The last frame is the still of the final state.
    still = Image.open(io.BytesIO(images.render_battle(long_battle, EN, ("a", "b"))))
    assert st.paletted(frames[-1]).tobytes() == still.tobytes()


# ---------------------------------------------------------------------------------------------
# Shop


def test_shop_is_a_png_with_five_offers_and_the_slate() -> None:
    im = _png(images.render_shop(samples.SHOP, FR))
    assert im.size == (964, 672)


def test_shop_with_bought_offers_and_an_empty_slate_draws() -> None:
    shop = copy.deepcopy(samples.SHOP)
    shop["offers"][1] = None
    shop["offers"] = shop["offers"][:4]
    shop["slate"] = {}
    shop["gold"] = 0
    _png(images.render_shop(shop, EN))


def test_frozen_offer_is_marked_by_a_hatched_strip() -> None:
    shop = copy.deepcopy(samples.SHOP)
    frozen = _png(images.render_shop(shop, EN)).convert("RGB")
    for o in shop["offers"]:
        o["frozen"] = False
    plain = _png(images.render_shop(shop, EN)).convert("RGB")
    # Offer 2 (frozen in the sample): its bottom strip differs; offer 1 (not frozen) does not.
    strip2 = (18 + 176 + 12 + 4, 52 + 18 + 256 - 28, 18 + 2 * 176 + 12 - 4, 52 + 18 + 256 - 6)
    strip1 = (18 + 4, strip2[1], 18 + 176 - 4, strip2[3])
    assert frozen.crop(strip2).tobytes() != plain.crop(strip2).tobytes()
    assert frozen.crop(strip1).tobytes() == plain.crop(strip1).tobytes()


def test_shop_language_argument_wins_over_the_shop_lang() -> None:
    # The words given say the language, whatever the shop's own "lang" says.
    fr = images.render_shop(samples.SHOP, FR)  # the sample says "fr"
    assert images.render_shop({**samples.SHOP, "lang": "en"}, FR) == fr
    assert images.render_shop(samples.SHOP, EN) != fr


# ---------------------------------------------------------------------------------------------
# Rithmomachia


def test_start_position_is_a_png_with_room_for_both_pyramids() -> None:
    im = _png(images.render_board(samples.start_position(), EN))
    assert im.width == 1072
    assert im.height == _board_height(taken_rows=2, last_turn=False, pyramids=2)


def _board_height(taken_rows: int, last_turn: bool, pyramids: int) -> int:
    g = Geometry(False)
    return g.board_bottom + 24 + KEY_H + 8 + 54 * taken_rows + 26 * last_turn + 26 * pyramids + 16


def test_crowded_board_with_last_turn_seen_from_both_sides(crowded: tuple[dict, dict]) -> None:
    position, turn = crowded
    white = _png(images.render_board(position, EN, turn))
    black = _png(images.render_board(position, FR, turn, flipped=True))
    pyramids = sum(p["shape"] == "pyramid" for p in position["pieces"])
    assert white.size == black.size == (1072, _board_height(2, True, pyramids))
    # The square the last turn left is empty and yellow, where each view puts it.
    for im, flipped in ((white, False), (black, True)):
        x0, y0, _, _ = Geometry(flipped).cell(*parse_square(turn["from"]))
        colour = _rgb_at(im, (x0 + 8, y0 + 30))
        assert colour[0] > 200 and colour[2] < 140, colour


def test_flipped_board_puts_a1_bottom_right_and_h16_top_left() -> None:
    white, black = Geometry(False), Geometry(True)
    assert white.cell(0, 1)[:2] == (white.x0, white.y0)
    assert black.cell(7, 16)[:2] == (black.x0, black.y0)
    assert black.cell(0, 1)[2:] == (black.x0 + 16 * 62, black.y0 + 8 * 62)


def test_board_with_every_piece_taken_and_nothing_on_it_draws() -> None:
    start = samples.start_position()
    taken = {"white": [], "black": []}
    for p in start["pieces"]:
        parts = p.get("parts") or [p]
        taken["black" if p["side"] == "white" else "white"] += [
            {"shape": q["shape"], "value": q["value"]} for q in parts]
    im = _png(images.render_board({"to_move": "black", "pieces": [], "taken": taken}, EN))
    assert im.width == 1072


def test_board_refuses_a_bad_square_side_or_shape() -> None:
    for piece in ({"square": "i3", "side": "white", "shape": "round", "value": 4},
                  {"square": "a17", "side": "white", "shape": "round", "value": 4},
                  {"square": "a1", "side": "red", "shape": "round", "value": 4},
                  {"square": "a1", "side": "white", "shape": "hexagon", "value": 4}):
        with pytest.raises(BoardError):
            images.render_board({"to_move": "white", "pieces": [piece]}, EN)
    assert issubclass(BoardError, ValueError)


# ---------------------------------------------------------------------------------------------
# Progress


def test_progress_chart_with_many_topics_and_days_is_a_png() -> None:
    im = _png(images.render_progress(samples.PROGRESS, FR))
    assert im.size == (900, 480)


def test_progress_chart_of_one_day_or_no_answer_draws() -> None:
    _png(images.render_progress([{"date": "2026-11-30", "topic": "addition", "correct": 0,
                                  "total": 6}], EN))
    _png(images.render_progress([], EN))
    _png(images.render_progress([{"date": "2026-11-30", "topic": "x", "correct": 0,
                                  "total": 0}], EN))


def test_streak_calendar_sizes_with_its_weeks() -> None:
    a = _png(images.render_streak(samples.STREAK_DAYS, 8, "2026-11-30", EN))
    b = _png(images.render_streak([], 0, "2026-11-30", FR, weeks=4))
    assert a.height == b.height
    assert a.width - b.width == 8 * 35


def test_best_run_counts_consecutive_days() -> None:
    import datetime as dt
    days = [dt.date(2026, 11, d) for d in (1, 2, 3, 5, 6, 8, 9, 10, 11)]
    assert best_run(days) == 4
    assert best_run([]) == 0


def test_leaderboard_shows_the_viewers_row_after_a_gap_when_below_the_limit() -> None:
    rows = [{"rank": i, "name": f"Player {i}", "score": 6 - i // 3, "time": 30 + i}
            for i in range(1, 16)]
    top = _png(images.render_leaderboard(rows, EN, limit=10))
    mine = _png(images.render_leaderboard(rows, EN, limit=10, highlight="Player 14"))
    assert mine.height - top.height == 2 * 46
    empty = _png(images.render_leaderboard([], FR, date="2026-11-30"))
    assert empty.width == 640


def test_time_format_in_both_languages() -> None:
    assert format_time(41.2, EN) == "41.2 s"
    assert format_time(63, EN) == "1:03.0"
    assert format_time(41.2, FR) == "41,2 s"
    assert format_time(59.96, EN) == "1:00.0"
    assert format_time(0, EN) == "0.0 s"


# ---------------------------------------------------------------------------------------------
# The same state gives the same bytes, from any thread


def _all_pictures(battle: dict, position: dict, turn: dict) -> list[bytes]:
    return [
        images.render_slate(samples.FULL_N3_SLATE, FR),
        images.render_battle(battle, EN, ("a", "b")),
        images.render_replay(battle, FR, ("a", "b")),
        images.render_shop(samples.SHOP, FR),
        images.render_board(position, FR, turn, flipped=True),
        images.render_progress(samples.PROGRESS, EN),
        images.render_streak(samples.STREAK_DAYS, 8, "2026-11-30", EN),
        images.render_leaderboard(samples.LEADERBOARD, EN, highlight=3),
    ]


def test_same_state_gives_same_bytes_even_from_several_threads_at_once(
        long_battle: dict, crowded: tuple[dict, dict]) -> None:
    position, turn = crowded
    first = _all_pictures(long_battle, position, turn)
    assert _all_pictures(long_battle, position, turn) == first
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda _: _all_pictures(long_battle, position, turn), range(4)))
    assert all(r == first for r in results)


def test_renderers_do_not_change_their_input(long_battle: dict, crowded: tuple[dict, dict]
                                             ) -> None:
    position, turn = crowded
    before = copy.deepcopy((long_battle, position, turn, samples.SHOP))
    _all_pictures(long_battle, position, turn)
    assert (long_battle, position, turn, samples.SHOP) == before


# ---------------------------------------------------------------------------------------------
# The drawing vocabulary


def test_fit_text_shrinks_long_names_to_the_width() -> None:
    s, f = st.fit_text("Puissance", 80, 22, 9, bold=True)
    assert s == "Puissance"
    assert f.getlength(s) <= 80
    assert f.size < 22


def test_fit_text_cuts_with_an_ellipsis_when_even_the_smallest_size_is_too_wide() -> None:
    s, f = st.fit_text("Maxime-Alexandre de la Fontaine", 60, 18, 12)
    assert s.endswith("…")
    assert f.getlength(s) <= 60


def test_wrap_keeps_a_short_formula_on_one_line() -> None:
    f = st.font(14)
    for width in range(60, 200, 7):
        lines = st.wrap("la rangée avant alliée prend ⌈sa moyenne d'ATT⌉ + (N − 1).", f, width)
        assert any("(N\u00a0−\u00a01)." in ln for ln in lines), (width, lines)


def test_counts_in_french_are_singular_for_0_and_1() -> None:
    assert FR.count("lives", 0) == "0 vie"
    assert FR.count("lives", 2) == "2 vies"
    assert EN.count("lives", 1) == "1 life"
    assert EN.count("lives", 0) == "0 lives"


def test_the_palette_holds_every_colour_of_the_vocabulary_exactly() -> None:
    colours = {tuple(st.PALETTE[i:i + 3]) for i in range(0, 768, 3)}
    assert set(st.BASE_COLOURS) <= colours
    assert len(st.PALETTE) == 768


def test_font_files_and_licence_are_shipped_with_the_package() -> None:
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "LICENSE-DejaVu.txt"):
        assert (st.FONT_DIR / name).is_file()
    assert "Bitstream" in (st.FONT_DIR / "LICENSE-DejaVu.txt").read_text()


def test_streak_shows_the_engines_best_when_given() -> None:
    days = ["2026-11-28", "2026-11-29", "2026-11-30"]
    computed = images.render_streak(days, 3, "2026-11-30", EN)
    assert images.render_streak(days, 3, "2026-11-30", EN, best=3) == computed
    assert images.render_streak(days, 3, "2026-11-30", EN, best=20) != computed


def test_leaderboard_reads_the_engines_seconds_as_the_time() -> None:
    rows = [{"rank": 1, "name": "Camille", "score": 6, "time": 41.2}]
    engine_rows = [{"rank": 1, "name": "Camille", "score": 6, "seconds": 41.2}]
    assert images.render_leaderboard(engine_rows, EN) == images.render_leaderboard(rows, EN)


def test_stamped_text_is_the_same_as_pillows_own_text() -> None:
    # st.text reuses rendered words through Pillow's drawing core; it must give Pillow's pixels.
    f = st.font(20, True)
    for anchor in ("la", "mm", "rm", "lm"):
        images_ = [st.canvas(160, 40) for _ in range(3)]
        st.text(images_[0][1], (80, 20), "Moitié −4", f, st.CHALK, anchor)
        st.text(images_[1][1], (80, 20), "Moitié −4", f, st.CHALK, anchor)  # from the cache
        images_[2][1].text((80, 20), "Moitié −4", font=f, fill=st.CHALK, anchor=anchor)
        first, cached, pillow = (im.tobytes() for im, _ in images_)
        assert first == cached == pillow, anchor


# ---------------------------------------------------------------------------------------------
# Any battle the engine can fight


_DIGIT_NAMES = sorted(BY_KEY)
_slate = hs.dictionaries(hs.sampled_from([str(c) for c in range(1, 9)]),
                         hs.builds(lambda d, n: f"{d} N{n}", hs.sampled_from(_DIGIT_NAMES),
                                   hs.integers(1, 3)), max_size=8)


@settings(max_examples=60, deadline=None)
@given(left=_slate, right=_slate, lf=hs.integers(0, 6), rf=hs.integers(0, 6))
def test_states_rebuilt_from_any_battles_log_are_the_engines_snapshots(
        left: dict, right: dict, lf: int, rf: int) -> None:
    result = samples.battle(left, right, lf, rf)
    expected = [{side: read_slate(s[side]) for side in ("left", "right")}
                for s in result["snapshots"]]
    assert rebuild_states({k: v for k, v in result.items() if k != "snapshots"}) == expected


@settings(max_examples=6, deadline=None)
@given(left=_slate, right=_slate)
def test_any_battle_gives_a_replay_with_a_frame_per_exchange(left: dict, right: dict) -> None:
    result = samples.battle(left, right)
    gif = Image.open(io.BytesIO(images.render_replay(result, FR, ("A", "B"))))
    assert gif.n_frames >= result["exchanges"] + 2
    _png(images.render_battle(result, EN, ("A", "B")))
