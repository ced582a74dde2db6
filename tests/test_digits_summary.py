"""The engine's summary of a finished match (bot.digits.summary) and the battles behind the odds
(bot.digits.forecast.example_battles), issue 28."""

from __future__ import annotations

from bot.digits.baseline import BotPlayer
from bot.digits.battle import fight
from bot.digits.forecast import example_battles, forecast_for_match
from bot.digits.levels import play_solo, solo_match
from bot.digits.match import GHOST
from bot.digits.summary import damage_by_digit, summarise


def test_the_summary_counts_rounds_damage_and_focus_gold_from_the_records():
    match = play_solo(3, "gentle", player="greedy")
    for player in ("A", GHOST):
        s = summarise(match, player)
        results = [r.winner for r in match.records]
        assert s.won == results.count(player)
        assert s.drawn == results.count(None)
        assert s.won + s.lost + s.drawn == len(match.records)
        # The Focus's gold is the income above the base, round by round.
        assert s.focus_gold == sum(r.focus[player] for r in match.records)
        won = [r for r in match.records if r.winner == player]
        if won:
            assert s.best is not None and s.best.lives_taken == max(r.lives_lost for r in won)
        else:
            assert s.best is None
    a = summarise(match, "A")
    totals: dict[str, int] = {}
    for record in match.records:
        for key, dealt in damage_by_digit(record, "A").items():
            totals[key] = totals.get(key, 0) + dealt
    assert a.top_digit is not None and a.top_damage == max(totals.values()) > 0
    assert totals[a.top_digit] == a.top_damage


def test_damage_by_digit_is_the_damage_of_the_hits_of_one_side():
    match = play_solo(5, "fair")
    record = match.records[0]
    battle = record.battle
    for player, side in ((record.left, "left"), (record.right, "right")):
        hits = sum(h["damage"] for x in battle["log"] for h in x["hits"] if h["side"] == side)
        assert sum(damage_by_digit(record, player).values()) == hits
    assert not damage_by_digit(record, "nobody")


def test_a_match_without_a_won_battle_has_no_best_battle():
    match = play_solo(0, "strong", player="novice")  # six battles lost, none won
    s = summarise(match, "A")
    assert (s.won, s.lost, s.best) == (0, 6, None)
    # One won battle is the best, however few lives it took.
    one = summarise(play_solo(1, "strong", player="novice"), "A")
    assert one.won == 1 and one.best is not None and one.best.round == 1


def test_example_battles_are_a_won_and_a_lost_battle_the_forecast_counts():
    match = solo_match("A", "gentle", seed=5)
    bot = BotPlayer("x")
    while match.round < 3 or match.stage("A") != "shop":
        bot.act(match, "A")
    bot._shop_turn(match, "A")
    won, lost = example_battles(match, "A")
    chances = forecast_for_match(match, "A", calibrated=False)
    slate = match.shops["A"].slate
    for example, winner, chance in ((won, "left", chances.win), (lost, "right", chances.loss)):
        if chance == 0:
            assert example is None
            continue
        assert example is not None
        assert example.result["winner"] == winner
        again = fight(slate, example.foe, example.focus, example.foe_focus)
        assert again.to_json(full=True)["log"] == example.result["log"]
        assert "effects" in example.result and example.result["snapshots"]
    # Asking again gives the same battles (seeded by the match).
    assert example_battles(match, "A") == (won, lost)
