"""The odds a player is shown: a calibrated forecast of the battle to come
(``bot.digits.forecast``), and its calibration command (``tools.bench.digits_calibration``)."""

from __future__ import annotations

import itertools

import pytest

from bot.digits.baseline import BotPlayer
from bot.digits.forecast import (
    CALIBRATION,
    GROWN,
    calibrate,
    forecast_for_match,
    grow,
    likely_foes,
    prior_accuracy,
)
from bot.digits.ghosts import Ghost
from bot.digits.match import Match
from bot.digits.odds import odds_for_match
from bot.digits.shop import MatchSettings
from bot.digits.slate import Slate
from bot.digits.strategy import OddsPlayer
from bot.domain import DomainError
from tools.bench import digits_calibration


def shopped(seed: int, players: list[str] | None = None) -> Match:
    """A match whose player A has taken its Focus and done its shop turn as the baseline does,
    about to press Ready: where a member asks for the odds."""
    players = players or ["A", "B"]
    m = Match.new(players, seed=seed, shadow=OddsPlayer if len(players) == 1 else None)
    bot = BotPlayer(f"{seed}/bot/A")
    bot.act(m, "A")  # the Focus
    bot._shop_turn(m, "A")
    bot._merge_all(m, "A")
    bot._arrange(m, "A")
    return m


def test_the_forecast_repeats_itself_for_a_match_and_differs_with_the_seed():
    m = shopped(0)
    first = forecast_for_match(m, "A")
    assert first == forecast_for_match(m.to_json(), "A")
    assert first.kind == "challenge" and first.foes == first.copies == GROWN
    assert abs(first.win + first.draw + first.loss - 1) < 1e-9
    # Other seeded draws of the opponent's shop turn give other foes.
    again = Match.from_json({**m.to_json(), "seed": "another"})
    assert likely_foes(again, "A")[0] != likely_foes(m, "A")[0]


def test_round_one_is_uncertain_where_the_old_odds_said_certain():
    # A real case (match seed 0, the baseline's first shop turn): against the built-in ghost of
    # round 1 the old odds said "win 100 %"; the challenger builds its own first slate meanwhile.
    m = shopped(0)
    assert m.shops["A"].slate == Slate.from_json({
        "1": {"digit": "Zero", "level": 1}, "2": {"digit": "Minus", "level": 1},
        "5": {"digit": "Plus", "level": 2}, "6": {"digit": "Double", "level": 1}})
    old = odds_for_match(m, "A")
    assert (old.win, old.draw, old.loss) == (100.0, 0.0, 0.0)
    found = forecast_for_match(m, "A")
    assert 0.2 < found.win < 0.8 and 0.2 < found.loss < 0.8 and found.draw > 0
    # Seed 1 is the other way round: the old odds said "loss 100 %".
    other = shopped(1)
    assert odds_for_match(other, "A").loss == 100.0
    assert 0.1 < forecast_for_match(other, "A").win < 0.6


def test_the_shadow_is_grown_and_the_server_s_ghosts_are_taken_as_they_are():
    m = shopped(3, ["A"])
    found = forecast_for_match(m, "A")
    assert found.kind == "shadow" and found.grown and found.foes == GROWN
    ghost = Ghost(1, Slate.from_json({"1": {"digit": "Odd", "level": 1}}), 3, "99")
    with_pool = forecast_for_match(m, "A", [ghost])
    assert with_pool.kind == "ghosts" and not with_pool.grown and with_pool.foes == 1
    assert with_pool.copies == 0
    # Nothing recalibrates the ghosts: the battle really draws one of them.
    raw = with_pool.raw
    assert (with_pool.win, with_pool.draw, with_pool.loss) == (
        raw.win / 100, raw.draw / 100, raw.loss / 100)


def test_a_grown_slate_is_the_last_one_plus_a_shop_turn_of_usual_buys():
    last = Slate.from_json({"1": {"digit": "Odd", "level": 1}})
    settings = MatchSettings()
    grown = grow(last, 0, 2, settings, 6, None, "s")
    assert grown == grow(last, 0, 2, settings, 6, None, "s")
    # The Odd is kept (or merged into a higher one) and 11 gold bought more digits.
    assert len(grown) > len(last)
    assert any(p is not None and p.key == "Odd" for p in grown.cells)
    rich = grow(last, 20, 2, settings, 6, None, "s")
    assert len(rich) >= len(grown)


def test_the_opponent_s_accuracy_starts_from_the_usual_one():
    assert prior_accuracy([]) == 0.75
    assert prior_accuracy([6]) == pytest.approx((6 + 4.5) / 12)


def test_the_calibration_is_increasing_in_0_1_and_sums_to_1():
    grid = [i / 20 for i in range(21)]
    for params in [*CALIBRATION.values(), (0.4, -1.0, 2.0), (1.0, 0.0, 0.0)]:
        for win, draw in itertools.product(grid, grid):
            loss = 1 - win - draw
            if loss < -1e-9:
                continue
            loss = max(loss, 0.0)
            q = calibrate(win, draw, loss, params)
            assert all(0 <= p <= 1 for p in q) and abs(sum(q) - 1) < 1e-9
            if win + 0.05 + draw <= 1 + 1e-9:
                # More chance to win (the draw the same, less loss): a higher forecast.
                higher = calibrate(win + 0.05, draw, max(loss - 0.05, 0.0), params)
                assert higher[0] > q[0] and higher[2] < q[2]
    with pytest.raises(ValueError):
        calibrate(0.5, 0.5, 0.5)
    with pytest.raises(ValueError):
        calibrate(0.5, 0.2, 0.3, (0.0, 0.0, 0.0))


def test_the_forecast_refuses_a_stranger_and_a_match_that_is_over():
    m = shopped(0)
    with pytest.raises(DomainError) as stranger:
        forecast_for_match(m, "nobody")
    assert stranger.value.code == "match.unknown_player"
    m.over = True
    with pytest.raises(DomainError) as over:
        forecast_for_match(m, "A")
    assert over.value.code == "match.over"


def test_the_fit_finds_the_calibration_that_made_the_data():
    # Outcomes drawn from a known calibration of the raw chances: the fit gets it back.
    import random

    truth = (0.5, -0.3, 0.4)
    rng = random.Random(1)
    samples = []
    for _ in range(3000):
        win = rng.random()
        draw = rng.random() * (1 - win)
        raw = (win, draw, 1 - win - draw)
        q = calibrate(*raw, truth)
        happened = 0 if rng.random() < q[0] else 1 if rng.random() < q[1] / (1 - q[0]) else 2
        samples.append(digits_calibration.Sample("challenge", 1, raw, raw, raw, happened))
    fitted = digits_calibration.fit(samples)
    assert fitted == pytest.approx(truth, abs=0.12)


def test_the_calibration_command_runs_in_small(capsys):
    assert digits_calibration.main(["--matches", "2", "--solo", "1", "--fit"]) == 0
    out = capsys.readouterr().out
    assert "Fitted on " in out and '"challenge": (' in out and '"shadow": (' in out
    assert "### Challenges" in out and "### Solo against the shadow" in out
    assert "| today's (last slate) |" in out and "| forecast (calibrated) |" in out
    assert "CPU time of one call, the forecast" in out
    # At a level: the solo matches are that level's, calibrated with its own constants.
    assert digits_calibration.main(["--matches", "0", "--solo", "1", "--level", "gentle"]) == 0
    assert "### Solo against the shadow" in capsys.readouterr().out
    with pytest.raises(SystemExit):  # not a level
        digits_calibration.main(["--level", "hardest"])


def test_a_solo_match_takes_its_levels_own_calibration():
    from bot.digits.forecast import calibration_key
    from bot.digits.levels import solo_match

    for level, key in (("gentle", "shadow/gentle"), ("fair", "shadow/fair"),
                       ("strong", "shadow")):
        m = solo_match("A", level, seed=3)
        assert calibration_key(m, "shadow") == key
        raw = forecast_for_match(m, "A", calibrated=False)
        shown = forecast_for_match(m, "A")
        expected = calibrate(raw.win, raw.draw, raw.loss, CALIBRATION[key])
        assert (shown.win, shown.draw, shown.loss) == pytest.approx(expected)
    # A match of before the levels keeps the one "shadow" calibration; a challenge its own.
    assert calibration_key(shopped(0, ["A"]), "shadow") == "shadow"
    assert calibration_key(shopped(0), "challenge") == "challenge"
