"""db repositories: each round trip, and the bot's queries on seeded data with exact results."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from bot.domain import DomainError
from bot.ratings import Rating, idle, rate_game
from db import (
    UNSET,
    DailyRow,
    Database,
    FocusAnswer,
    ProgressRow,
    StaleVersion,
)

T0 = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
DAY = date(2026, 11, 30)
GUILD, OTHER_GUILD = 1, 2


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


# --- Servers ------------------------------------------------------------------------------


async def test_settings_of_an_unknown_server_are_the_defaults(db: Database) -> None:
    settings = await db.servers.get(GUILD)
    assert settings.language is None
    assert (settings.daily_channel_id, settings.daily_hour, settings.timezone) == (None, 8, "UTC")
    assert (settings.match_lives, settings.match_gold, settings.move_time_limit_s) == (10, 5, 86400)
    assert (settings.focus_level_min, settings.focus_level_max) == (1, None)
    assert settings.admin_role_ids == frozenset()


async def test_settings_round_trip(db: Database) -> None:
    victories = {"body": {"pieces": 8}, "goods": {"value": 160}}
    await db.servers.update(
        GUILD,
        language="fr",
        daily_channel_id=555,
        daily_hour=17,
        timezone="Europe/Paris",
        focus_level_min=2,
        focus_level_max=5,
        match_lives=6,
        match_gold=4,
        rithmo_victories=victories,
        move_time_limit_s=3600,
    )
    await db.servers.update(GUILD, focus_level_pinned=3)
    await db.servers.set_admin_roles(GUILD, [40, 41, 40])
    settings = await db.servers.get(GUILD)
    assert settings.language == "fr"
    assert (settings.daily_channel_id, settings.daily_hour, settings.timezone) == (
        555,
        17,
        "Europe/Paris",
    )
    assert (settings.focus_level_min, settings.focus_level_max) == (2, 5)
    assert settings.focus_level_pinned == 3
    assert (settings.match_lives, settings.match_gold, settings.move_time_limit_s) == (6, 4, 3600)
    assert settings.rithmo_victories == victories
    assert settings.admin_role_ids == {40, 41}
    assert settings.may_manage([7, 41]) and not settings.may_manage([7])
    assert (await db.servers.get(OTHER_GUILD)).language is None


@pytest.mark.parametrize(
    ("change", "setting"),
    [
        ({"language": "de"}, "language"),
        ({"daily_hour": 24}, "daily_hour"),
        ({"timezone": "Mars/Olympus"}, "timezone"),
        ({"focus_level_min": 0}, "focus_level_min"),
        ({"focus_level_max": 0}, "focus_level_max"),
        ({"match_lives": 0}, "match_lives"),
        ({"move_time_limit_s": 5}, "move_time_limit_s"),
        ({"rithmo_victories": {1, 2}}, "rithmo_victories"),
    ],
)
async def test_invalid_setting_is_refused_and_changes_nothing(
    db: Database, change: dict[str, object], setting: str
) -> None:
    await db.servers.update(GUILD, language="en", daily_hour=9)
    with pytest.raises(DomainError) as refused:
        await db.servers.update(GUILD, match_gold=9, **change)
    assert refused.value.code == "settings.invalid"
    assert refused.value.params["setting"] == setting
    settings = await db.servers.get(GUILD)
    assert (settings.language, settings.daily_hour, settings.match_gold) == ("en", 9, 5)


async def test_unknown_setting_and_inverted_level_range_are_refused(db: Database) -> None:
    with pytest.raises(DomainError) as unknown:
        await db.servers.update(GUILD, colour="blue")
    assert unknown.value.code == "settings.unknown"
    await db.servers.update(GUILD, focus_level_min=4)
    with pytest.raises(DomainError) as inverted:
        await db.servers.update(GUILD, focus_level_max=3)
    assert inverted.value.code == "settings.invalid"


# --- Players, ratings, leaderboards -------------------------------------------------------


async def test_player_gold_and_focus_level_round_trip(db: Database) -> None:
    assert await db.players.get(GUILD, 10) is None
    player = await db.players.get_or_create(GUILD, 10)
    assert (player.gold, player.focus_level, player.daily_streak) == (0, 1, 0)
    assert await db.players.add_gold(GUILD, 10, 7) == 7
    assert await db.players.add_gold(GUILD, 10, -7) == 0
    with pytest.raises(DomainError) as poor:
        await db.players.add_gold(GUILD, 10, -1)
    assert (poor.value.code, poor.value.params) == (
        "player.not_enough_gold",
        {"need": 1, "have": 0},
    )
    await db.players.set_focus_level(GUILD, 10, 4)
    assert (await db.players.require(GUILD, 10)).focus_level == 4
    # A member of two servers is two players.
    assert await db.players.get(OTHER_GUILD, 10) is None


async def _three_duels(db: Database) -> None:
    """10 beats 11, 10 beats 12, 11 and 12 draw: finished 20 Digits matches."""
    for (a, b), scores in (
        ((10, 11), {10: 1.0, 11: 0.0}),
        ((10, 12), {10: 1.0, 12: 0.0}),
        ((11, 12), {11: 0.5, 12: 0.5}),
    ):
        match = await db.digits.create_match(GUILD, [a, b], {"r": 0}, status="active", now=T0)
        await db.digits.finish_match(match.match_id, {"r": 15}, match.version, scores, now=T0)


async def test_finished_duels_update_both_ratings_with_glicko2(db: Database) -> None:
    await _three_duels(db)
    r10, r11 = rate_game(Rating(), Rating(), 1.0)
    r10, r12 = rate_game(r10, Rating(), 1.0)
    r11, r12 = rate_game(r11, r12, 0.5)
    expected = {10: r10, 11: r11, 12: r12}
    for user, rating in expected.items():
        stored = await db.players.rating(GUILD, user, "digits")
        assert stored.rating.rating == pytest.approx(rating.rating)
        assert stored.rating.rd == pytest.approx(rating.rd)
        assert stored.rating.volatility == pytest.approx(rating.volatility)
    records = {u: await db.players.rating(GUILD, u, "digits") for u in expected}
    assert [
        (r.games, r.wins, r.losses, r.draws, r.streak, r.best_streak) for r in records.values()
    ] == [
        (2, 2, 0, 0, 2, 2),
        (2, 0, 1, 1, 0, 0),
        (2, 0, 1, 1, 0, 0),
    ]
    assert await db.players.ratings(GUILD, 10) == {"digits": records[10]}
    # Newcomers to a game start at 1500 / 350.
    assert (await db.players.rating(GUILD, 10, "rithmo")).rating == Rating()


async def test_overall_leaderboard_per_game_orders_by_rating(db: Database) -> None:
    await _three_duels(db)
    board = await db.players.leaderboard(GUILD, "digits")
    assert [(row.rank, row.user_id, row.games, row.wins) for row in board] == [
        (1, 10, 2, 2),
        (2, 12, 2, 0),
        (3, 11, 2, 0),
    ]
    assert board[0].rating > board[1].rating > board[2].rating
    assert [row.user_id for row in await db.players.leaderboard(GUILD, "digits", limit=1)] == [10]
    assert await db.players.leaderboard(GUILD, "rithmo") == []
    assert await db.players.leaderboard(OTHER_GUILD, "digits") == []


async def test_weeks_without_rated_games_widen_the_rd_before_the_next_one(db: Database) -> None:
    first = await db.players.record_game(GUILD, "rithmo", 10, 11, 1.0, now=T0)
    later = await db.players.record_game(GUILD, "rithmo", 10, 11, 1.0, now=T0 + timedelta(days=22))
    assert later[10].before.rd == pytest.approx(idle(first[10].after, 3).rd)
    assert later[10].before.rating == pytest.approx(first[10].after.rating)


async def test_history_lists_finished_games_of_both_kinds_latest_first(db: Database) -> None:
    duel = await db.digits.create_match(GUILD, [10, 11], {}, status="active", now=T0)
    await db.digits.finish_match(duel.match_id, {}, 1, {10: 0.0, 11: 1.0}, now=T0)
    ghost = await db.digits.create_match(GUILD, [10], {}, status="active", now=T0)
    await db.digits.finish_match(ghost.match_id, {}, 1, {10: 1.0}, now=T0 + timedelta(minutes=1))
    solo = await db.rithmo.create_game(
        GUILD,
        white_id=10,
        black_id=None,
        computer_side="black",
        victories={},
        position={},
        status="active",
    )
    await db.rithmo.finish_game(solo.game_id, 1, "draw", "agreed", now=T0 + timedelta(minutes=2))
    open_match = await db.digits.create_match(GUILD, [10, 12], {}, status="active")
    history = await db.players.history(GUILD, 10)
    assert [(h.game, h.game_id, h.opponent, h.opponent_id, h.result) for h in history] == [
        ("rithmo", solo.game_id, "computer", None, "draw"),
        ("digits", ghost.match_id, "ghost", None, "win"),
        ("digits", duel.match_id, "member", 11, "loss"),
    ]
    assert open_match.match_id not in [h.game_id for h in history if h.game == "digits"]
    # Ghost matches and games against Ardoise are not rated.
    assert (await db.players.rating(GUILD, 10, "digits")).games == 1
    assert (await db.players.rating(GUILD, 10, "rithmo")).games == 0


# --- Focus ----------------------------------------------------------------------------------


def _answer(user: int, when: str, topic: str, given: int | None, time_ms: int, guild: int = GUILD):
    return FocusAnswer(guild, user, topic, 2, "6 × 7", 42, given, time_ms, answered_at=at(when))


async def _seed_progress(db: Database) -> None:
    await db.focus.record_many(
        [
            _answer(10, "2026-11-23 08:00:00", "addition", 42, 1000),
            _answer(10, "2026-11-23 08:01:00", "addition", 42, 2000),
            _answer(10, "2026-11-23 08:02:00", "addition", 41, 3000),
            _answer(10, "2026-11-23 23:30:00", "multiplication", 42, 4000),
            _answer(10, "2026-11-29 12:00:00", "addition", 42, 500),  # a Sunday
            _answer(10, "2026-11-30 00:30:00", "addition", None, 6000),  # no answer in time
            # Not this student's, or not on this server:
            _answer(11, "2026-11-23 08:00:00", "addition", 1, 100),
            _answer(10, "2026-11-23 08:00:00", "addition", 1, 100, guild=OTHER_GUILD),
        ]
    )


async def test_an_answer_round_trips(db: Database) -> None:
    right = _answer(10, "2026-11-23 08:00:00", "multiplication", 42, 1234)
    wrong = FocusAnswer(GUILD, 10, "division", 3, "84 ÷ 2", 42, 41, 800, source="daily")
    await db.focus.record(right)
    await db.focus.record(wrong, now=T0)
    assert right.correct and not wrong.correct
    recent = await db.focus.recent(GUILD, 10)
    assert recent == [
        FocusAnswer(GUILD, 10, "division", 3, "84 ÷ 2", 42, 41, 800, "daily", T0),
        right,
    ]


async def test_progress_per_topic_per_day(db: Database) -> None:
    await _seed_progress(db)
    assert await db.focus.progress(GUILD, 10, by="day") == [
        ProgressRow(date(2026, 11, 23), "addition", 3, 2, 2000.0),
        ProgressRow(date(2026, 11, 23), "multiplication", 1, 1, 4000.0),
        ProgressRow(date(2026, 11, 29), "addition", 1, 1, 500.0),
        ProgressRow(date(2026, 11, 30), "addition", 1, 0, 6000.0),
    ]


async def test_progress_per_week_starts_weeks_on_monday(db: Database) -> None:
    await _seed_progress(db)
    rows = await db.focus.progress(GUILD, 10, by="week")
    assert rows == [
        ProgressRow(date(2026, 11, 23), "addition", 4, 3, 1625.0),
        ProgressRow(date(2026, 11, 23), "multiplication", 1, 1, 4000.0),
        ProgressRow(date(2026, 11, 30), "addition", 1, 0, 6000.0),
    ]
    assert rows[0].accuracy == 0.75


async def test_progress_cuts_days_at_local_midnight(db: Database) -> None:
    await _seed_progress(db)
    # One hour east of UTC: 23:30 UTC on the 23rd is the 24th.
    east = await db.focus.progress(GUILD, 10, by="day", utc_offset_minutes=60)
    assert [(r.period, r.topic) for r in east] == [
        (date(2026, 11, 23), "addition"),
        (date(2026, 11, 24), "multiplication"),
        (date(2026, 11, 29), "addition"),
        (date(2026, 11, 30), "addition"),
    ]
    # One hour west: 00:30 UTC on Monday the 30th is still Sunday, so in the week of the 23rd.
    west = await db.focus.progress(GUILD, 10, by="week", utc_offset_minutes=-60)
    assert west == [
        ProgressRow(date(2026, 11, 23), "addition", 5, 3, 2500.0),
        ProgressRow(date(2026, 11, 23), "multiplication", 1, 1, 4000.0),
    ]


async def test_progress_overall_by_topic_and_time_range(db: Database) -> None:
    await _seed_progress(db)
    assert await db.focus.progress(GUILD, 10, by="all") == [
        ProgressRow(None, "addition", 5, 3, 2500.0),
        ProgressRow(None, "multiplication", 1, 1, 4000.0),
    ]
    assert await db.focus.progress(
        GUILD,
        10,
        topic="addition",
        since=at("2026-11-29 00:00:00"),
        until=at("2026-11-30 00:30:00"),
    ) == [ProgressRow(date(2026, 11, 29), "addition", 1, 1, 500.0)]
    assert await db.focus.progress(GUILD, 99) == []


# --- Daily challenge --------------------------------------------------------------------------


async def test_daily_challenge_is_created_once_per_server_and_day(db: Database) -> None:
    questions = [{"text": "7 + 8", "answer": 15, "topic": "addition"}]
    first, created = await db.daily.create(GUILD, DAY, questions, channel_id=5, now=T0)
    again, created_again = await db.daily.create(GUILD, DAY, [{"other": True}])
    assert (created, created_again) == (True, False)
    assert again == first
    assert (first.questions, first.channel_id, first.message_id) == (questions, 5, None)
    await db.daily.set_message(GUILD, DAY, 6, 600)
    stored = await db.daily.get(GUILD, DAY)
    assert stored is not None and (stored.channel_id, stored.message_id) == (6, 600)
    assert await db.daily.get(GUILD, DAY + timedelta(days=1)) is None


async def test_one_attempt_per_member_per_day(db: Database) -> None:
    with pytest.raises(DomainError) as none:
        await db.daily.start_attempt(GUILD, DAY, 10)
    assert none.value.code == "daily.none"
    await db.daily.create(GUILD, DAY, [])
    with pytest.raises(DomainError) as not_started:
        await db.daily.finish_attempt(GUILD, DAY, 10, 3, 1000)
    assert not_started.value.code == "daily.not_started"
    attempt = await db.daily.start_attempt(GUILD, DAY, 10, now=T0)
    assert (attempt.score, attempt.started_at, attempt.finished_at) == (None, T0, None)
    with pytest.raises(DomainError) as twice:
        await db.daily.start_attempt(GUILD, DAY, 10)
    assert twice.value.code == "daily.already_attempted"
    answers = [_answer(10, "2026-11-30 09:00:10", "addition", 42, 900)]
    await db.daily.finish_attempt(GUILD, DAY, 10, 5, 31000, answers, now=T0)
    with pytest.raises(DomainError) as finished:
        await db.daily.finish_attempt(GUILD, DAY, 10, 6, 1000)
    assert finished.value.code == "daily.already_finished"
    done = await db.daily.attempt(GUILD, DAY, 10)
    assert done is not None and (done.score, done.time_ms, done.finished_at) == (5, 31000, T0)
    assert len(await db.focus.recent(GUILD, 10)) == 1


async def test_daily_leaderboard_score_desc_then_time_asc(db: Database) -> None:
    await db.daily.create(GUILD, DAY, [])
    await db.daily.create(OTHER_GUILD, DAY, [])
    finishes = [  # user, score, time, finished minutes after T0
        (1, 6, 40000, 1),
        (4, 6, 35000, 5),
        (2, 6, 35000, 2),
        (3, 5, 20000, 3),
    ]
    for user, score, time_ms, minutes in finishes:
        await db.daily.start_attempt(GUILD, DAY, user)
        await db.daily.finish_attempt(
            GUILD, DAY, user, score, time_ms, now=T0 + timedelta(minutes=minutes)
        )
    await db.daily.start_attempt(GUILD, DAY, 5)  # never finished: not ranked
    await db.daily.start_attempt(OTHER_GUILD, DAY, 9)
    await db.daily.finish_attempt(OTHER_GUILD, DAY, 9, 6, 1)
    assert await db.daily.leaderboard(GUILD, DAY) == [
        DailyRow(1, 2, 6, 35000),
        DailyRow(1, 4, 6, 35000),
        DailyRow(3, 1, 6, 40000),
        DailyRow(4, 3, 5, 20000),
    ]
    assert [r.user_id for r in await db.daily.leaderboard(GUILD, DAY, limit=2)] == [2, 4]
    assert await db.daily.leaderboard(GUILD, DAY - timedelta(days=1)) == []


async def test_daily_streaks_count_consecutive_days(db: Database) -> None:
    async def play(user: int, day: date) -> None:
        await db.daily.create(GUILD, day, [])
        await db.daily.start_attempt(GUILD, day, user)
        await db.daily.finish_attempt(GUILD, day, user, 3, 1000)

    for offset in (2, 1, 0):
        await play(1, DAY - timedelta(days=offset))
    for offset in (5, 4, 3, 1):
        await play(2, DAY - timedelta(days=offset))
    one, two = await db.players.require(GUILD, 1), await db.players.require(GUILD, 2)
    assert (one.daily_streak, one.best_daily_streak, one.last_daily_day) == (3, 3, DAY)
    assert (two.daily_streak, two.best_daily_streak) == (1, 3)
    board = await db.players.streaks(GUILD, DAY)
    assert [(r.rank, r.user_id, r.streak, r.best_streak) for r in board] == [
        (1, 1, 3, 3),
        (2, 2, 1, 3),
    ]
    # Two days later without playing, both streaks are broken.
    assert await db.players.streaks(GUILD, DAY + timedelta(days=2)) == []
    assert one.current_daily_streak(DAY + timedelta(days=1)) == 3
    assert one.current_daily_streak(DAY + timedelta(days=2)) == 0


async def test_a_late_finish_of_an_older_day_does_not_rewrite_the_streak(db: Database) -> None:
    yesterday = DAY - timedelta(days=1)
    for day in (yesterday, DAY):
        await db.daily.create(GUILD, day, [])
        await db.daily.start_attempt(GUILD, day, 1)
    await db.daily.finish_attempt(GUILD, DAY, 1, 3, 1000)
    player = await db.daily.finish_attempt(GUILD, yesterday, 1, 3, 1000)
    assert (player.daily_streak, player.last_daily_day) == (1, DAY)


async def test_daily_due_follows_each_servers_local_hour_and_date(db: Database) -> None:
    await db.servers.update(GUILD, daily_channel_id=5, daily_hour=7, timezone="Europe/Paris")
    await db.servers.update(
        OTHER_GUILD, daily_channel_id=6, daily_hour=20, timezone="America/New_York"
    )
    await db.servers.update(3, daily_hour=0)  # no channel: no daily challenge
    assert await db.daily.due(at("2026-11-30 05:30:00")) == []  # 06:30 in Paris
    due = await db.daily.due(at("2026-11-30 06:00:00"))
    assert [(s.guild_id, day) for s, day in due] == [(GUILD, DAY)]
    await db.daily.create(GUILD, DAY, [])
    assert await db.daily.due(at("2026-11-30 06:00:00")) == []
    # 01:30 UTC on 1 December is 20:30 on 30 November in New York.
    assert [(s.guild_id, d) for s, d in await db.daily.due(at("2026-12-01 00:30:00"))] == []
    assert [(s.guild_id, d) for s, d in await db.daily.due(at("2026-12-01 01:30:00"))] == [
        (OTHER_GUILD, DAY)
    ]


# --- The 20 Digits ------------------------------------------------------------------------


async def test_match_round_trip(db: Database) -> None:
    state = {"round": 0, "players": [{"gold": 5, "slate": {"1": "Odd"}}], "seed": 7}
    match = await db.digits.create_match(GUILD, [10, 11], state, channel_id=3, now=T0)
    assert (match.kind, match.status, match.version, match.round) == ("duel", "pending", 1, 0)
    assert match.players == (10, 11)
    assert match.waiting_on == (11,)  # the challenged member must accept
    assert (match.state, match.channel_id, match.created_at) == (state, 3, T0)
    deadline = T0 + timedelta(hours=1)
    version = await db.digits.save_match(
        match.match_id,
        {**state, "round": 1},
        match.version,
        status="active",
        round=1,
        to_act=[10, 11],
        deadline=deadline,
        now=T0 + timedelta(minutes=1),
    )
    assert version == 2
    # Where it is shown is bookkeeping: stored beside, at the same version.
    await db.digits.set_message_id(match.match_id, 77)
    saved = await db.digits.require_match(match.match_id)
    assert (saved.status, saved.round, saved.version, saved.message_id) == ("active", 1, 2, 77)
    assert saved.waiting_on == (10, 11)
    assert (saved.deadline, saved.updated_at) == (deadline, T0 + timedelta(minutes=1))
    # Unset arguments keep their columns; None clears one.
    await db.digits.save_match(match.match_id, saved.state, 2, to_act=[11], deadline=None)
    again = await db.digits.require_match(match.match_id)
    assert (again.message_id, again.deadline, again.waiting_on) == (77, None, (11,))
    assert await db.digits.get_match(12345) is None
    with pytest.raises(DomainError) as missing:
        await db.digits.require_match(12345)
    assert missing.value.code == "db.not_found"


async def test_stale_save_raises_and_changes_nothing(db: Database) -> None:
    match = await db.digits.create_match(GUILD, [10, 11], {"gold": 5}, status="active")
    await db.digits.save_match(match.match_id, {"gold": 2}, 1)
    with pytest.raises(StaleVersion) as stale:
        await db.digits.save_match(match.match_id, {"gold": 0}, 1, status="finished")
    assert stale.value.code == "db.stale"
    assert stale.value.params == {"kind": "match", "id": match.match_id, "expected": 1, "actual": 2}
    after = await db.digits.require_match(match.match_id)
    assert (after.state, after.status, after.version) == ({"gold": 2}, "active", 2)


async def test_finishing_a_match_twice_is_refused(db: Database) -> None:
    match = await db.digits.create_match(GUILD, [10, 11], {}, status="active")
    await db.digits.finish_match(match.match_id, {"end": 1}, 1, {10: 1.0, 11: 0.0})
    with pytest.raises(StaleVersion):
        await db.digits.finish_match(match.match_id, {}, 1, {10: 1.0, 11: 0.0})
    with pytest.raises(DomainError) as over:
        await db.digits.finish_match(match.match_id, {}, 2, {10: 1.0, 11: 0.0})
    assert over.value.code == "digits.not_active"
    assert (await db.players.rating(GUILD, 10, "digits")).games == 1
    finished = await db.digits.require_match(match.match_id)
    assert [s.result for s in finished.seats] == ["win", "loss"]
    assert finished.waiting_on == ()


async def test_ghost_pool_gives_each_members_latest_slate_at_the_round(db: Database) -> None:
    async def field(user: int, round: int, slate: dict[str, str], minutes: int, guild: int = GUILD):
        match = await db.digits.create_match(guild, [user], {}, status="active")
        await db.digits.record_ghost(
            match.match_id, user, round, slate, now=T0 + timedelta(minutes=minutes)
        )
        return match.match_id

    await field(10, 3, {"1": "Odd"}, 1)
    latest_10 = await field(10, 3, {"1": "Even"}, 5)
    await field(11, 3, {"1": "Plus"}, 3)
    await field(12, 3, {"1": "Minus"}, 4)
    await field(12, 4, {"1": "Half"}, 9)  # another round
    await field(13, 3, {"1": "Zero"}, 9, guild=OTHER_GUILD)  # another server
    pool = await db.digits.ghost_pool(GUILD, 3, exclude_user_id=11)
    assert [(g.user_id, g.slate, g.round) for g in pool] == [
        (10, {"1": "Even"}, 3),
        (12, {"1": "Minus"}, 3),
    ]
    assert pool[0].match_id == latest_10
    assert pool[0].created_at == T0 + timedelta(minutes=5)
    assert [g.user_id for g in await db.digits.ghost_pool(GUILD, 3, 99, limit=2)] == [10, 12]
    assert await db.digits.ghost_pool(GUILD, 7, 99) == []


async def test_a_ghost_is_recorded_only_for_a_player_of_the_match(db: Database) -> None:
    match = await db.digits.create_match(GUILD, [10, 11], {}, status="active")
    await db.digits.record_ghost(match.match_id, 11, 1, {"1": "Odd"})
    await db.digits.record_ghost(match.match_id, 11, 1, {"1": "Even"})  # replaces
    assert [g.slate for g in await db.digits.ghost_pool(GUILD, 1, 10)] == [{"1": "Even"}]
    with pytest.raises(ValueError):
        await db.digits.record_ghost(match.match_id, 12, 1, {})


# --- Rithmomachia -----------------------------------------------------------------------------


async def _challenge(db: Database) -> int:
    game = await db.rithmo.create_game(
        GUILD,
        white_id=10,
        black_id=11,
        challenger_id=10,
        victories={"body": {"pieces": 5}},
        position={"to_move": "white", "pieces": []},
        channel_id=3,
        now=T0,
    )
    return game.game_id


async def test_rithmo_game_round_trip(db: Database) -> None:
    game_id = await _challenge(db)
    game = await db.rithmo.require_game(game_id)
    assert (game.status, game.to_move, game.version, game.turns) == ("pending", "white", 1, ())
    assert (game.white_id, game.black_id, game.side_of(11), game.side_of(99)) == (
        10,
        11,
        "black",
        None,
    )
    assert game.victories == {"body": {"pieces": 5}}
    deadline = T0 + timedelta(days=1)
    assert await db.rithmo.update_game(game_id, 1, status="active", deadline=deadline) == 2
    v3 = await db.rithmo.play_turn(
        game_id,
        2,
        "c3-d4",
        {"to_move": "black", "n": 1},
        to_move="black",
        deadline=deadline + timedelta(hours=1),
        now=T0 + timedelta(minutes=1),
    )
    await db.rithmo.update_game(game_id, v3, draw_offer="white")
    assert (await db.rithmo.require_game(game_id)).draw_offer == "white"
    await db.rithmo.play_turn(
        game_id, v3 + 1, "f14xe13", {"to_move": "white", "n": 2}, to_move="white", deadline=None
    )
    game = await db.rithmo.require_game(game_id)
    assert [(t.ply, t.side, t.notation) for t in game.turns] == [
        (1, "white", "c3-d4"),
        (2, "black", "f14xe13"),
    ]
    assert game.turns[0].played_at == T0 + timedelta(minutes=1)
    assert (game.position, game.to_move, game.version) == ({"to_move": "white", "n": 2}, "white", 5)
    assert (game.draw_offer, game.deadline) == (None, None)  # a turn ends the offer


async def test_a_turn_from_a_stale_version_is_refused_and_not_recorded(db: Database) -> None:
    game_id = await _challenge(db)
    with pytest.raises(DomainError) as pending:
        await db.rithmo.play_turn(game_id, 1, "c3-d4", {}, to_move="black", deadline=None)
    assert pending.value.code == "rithmo.not_active"
    await db.rithmo.update_game(game_id, 1, status="active")
    await db.rithmo.play_turn(game_id, 2, "c3-d4", {"n": 1}, to_move="black", deadline=None)
    with pytest.raises(StaleVersion):  # the same click, twice
        await db.rithmo.play_turn(game_id, 2, "c3-d4", {"n": 9}, to_move="black", deadline=None)
    game = await db.rithmo.require_game(game_id)
    assert ([t.notation for t in game.turns], game.position) == (["c3-d4"], {"n": 1})


async def test_finished_rithmo_game_between_members_is_rated(db: Database) -> None:
    game_id = await _challenge(db)
    await db.rithmo.update_game(game_id, 1, status="active")
    changes = await db.rithmo.finish_game(
        game_id, 2, "black", "victory:body", position={"end": True}, now=T0
    )
    white, black = rate_game(Rating(), Rating(), 0.0)
    assert changes[10].after.rating == pytest.approx(white.rating)
    assert changes[11].after.rating == pytest.approx(black.rating)
    game = await db.rithmo.require_game(game_id)
    assert (game.status, game.result, game.reason, game.position) == (
        "finished",
        "black",
        "victory:body",
        {"end": True},
    )
    assert game.finished_at == T0
    with pytest.raises(DomainError) as again:
        await db.rithmo.finish_game(game_id, 3, "white", "resignation")
    assert again.value.code == "rithmo.not_active"
    assert [r.user_id for r in await db.players.leaderboard(GUILD, "rithmo")] == [11, 10]


async def test_a_computer_side_has_no_member(db: Database) -> None:
    with pytest.raises(ValueError):
        await db.rithmo.create_game(
            GUILD, white_id=10, black_id=11, computer_side="black", victories={}, position={}
        )
    with pytest.raises(ValueError):
        await db.rithmo.create_game(GUILD, white_id=10, black_id=10, victories={}, position={})


# --- Across games: waiting, overdue -------------------------------------------------------------


async def test_games_waiting_on_a_player(db: Database) -> None:
    challenge = await _challenge(db)  # waits on 11 to accept
    active = await _challenge(db)
    await db.rithmo.update_game(active, 1, status="active", deadline=T0 + timedelta(hours=2))
    match = await db.digits.create_match(
        GUILD, [11, 12], {}, status="active", deadline=T0 + timedelta(hours=1)
    )
    elsewhere = await db.digits.create_match(OTHER_GUILD, [10, 12], {}, status="active")
    waiting_10 = await db.games.waiting_on(10)
    assert [(w.game, w.game_id) for w in waiting_10] == [
        ("rithmo", active),
        ("digits", elsewhere.match_id),
    ]
    assert [(w.game, w.game_id) for w in await db.games.waiting_on(10, GUILD)] == [
        ("rithmo", active)
    ]
    waiting_11 = await db.games.waiting_on(11)
    assert [(w.game, w.game_id, w.status) for w in waiting_11] == [
        ("digits", match.match_id, "active"),
        ("rithmo", challenge, "pending"),
    ]
    # Once 11 has played their shop turn, the match waits on 12 alone.
    await db.digits.save_match(match.match_id, {}, 1, to_act=[12])
    assert [w.game for w in await db.games.waiting_on(11)] == ["rithmo"]


async def test_games_past_their_time_limit_and_the_warning(db: Database) -> None:
    game_id = await _challenge(db)
    await db.rithmo.update_game(game_id, 1, status="active", deadline=T0)
    await db.rithmo.play_turn(
        game_id, 2, "c3-d4", {}, to_move="black", deadline=T0 + timedelta(minutes=10)
    )
    match = await db.digits.create_match(
        GUILD, [12, 13], {}, status="active", deadline=T0 + timedelta(minutes=5)
    )
    await db.digits.save_match(match.match_id, {}, 1, to_act=[13])
    await db.digits.create_match(
        GUILD, [14, 15], {}, status="active", deadline=T0 + timedelta(hours=5)
    )
    assert await db.games.overdue(T0) == []
    late = await db.games.overdue(T0 + timedelta(minutes=10))
    assert [(o.game, o.game_id, o.waiting_on, o.warned_at) for o in late] == [
        ("digits", match.match_id, (13,), None),
        ("rithmo", game_id, (11,), None),
    ]
    await db.games.mark_warned(
        "rithmo",
        game_id,
        grace_deadline=T0 + timedelta(minutes=40),
        now=T0 + timedelta(minutes=11),
    )
    game = await db.rithmo.require_game(game_id)
    assert (game.warned_at, game.deadline, game.version) == (
        T0 + timedelta(minutes=11),
        T0 + timedelta(minutes=40),
        3,
    )
    assert [o.game for o in await db.games.overdue(T0 + timedelta(minutes=30))] == ["digits"]
    # A finished game is never overdue.
    await db.digits.finish_match(match.match_id, {}, 2, {12: 1.0, 13: 0.0})
    assert await db.games.overdue(T0 + timedelta(minutes=30)) == []
    with pytest.raises(DomainError):
        await db.games.mark_warned("digits", 999)


async def test_unset_means_keep_and_none_means_clear(db: Database) -> None:
    game_id = await _challenge(db)
    await db.rithmo.set_message_id(game_id, 5)
    await db.rithmo.update_game(game_id, 1, draw_offer=UNSET, deadline=T0)
    await db.rithmo.update_game(game_id, 2, draw_offer=UNSET, deadline=None)
    game = await db.rithmo.require_game(game_id)
    assert (game.message_id, game.deadline) == (5, None)


# --- A member's data on request -------------------------------------------------------------


async def _seed_member(db: Database) -> dict[str, int]:
    await _seed_progress(db)
    await db.players.add_gold(GUILD, 10, 9)
    finished = await db.digits.create_match(GUILD, [10, 11], {"s": 1}, status="active", now=T0)
    await db.digits.record_ghost(finished.match_id, 10, 1, {"1": "Odd"})
    await db.digits.record_ghost(finished.match_id, 11, 1, {"1": "Plus"})
    await db.digits.finish_match(finished.match_id, {"s": 2}, 1, {10: 1.0, 11: 0.0}, now=T0)
    unfinished = await db.digits.create_match(GUILD, [11, 10], {"s": 0}, status="active")
    game_id = await _challenge(db)
    await db.rithmo.update_game(game_id, 1, status="active")
    await db.rithmo.play_turn(game_id, 2, "c3-d4", {"n": 1}, to_move="black", deadline=None)
    await db.daily.create(GUILD, DAY, [])
    await db.daily.start_attempt(GUILD, DAY, 10)
    await db.daily.finish_attempt(GUILD, DAY, 10, 4, 5000)
    puzzle = await db.rithmo_puzzles.create_daily(GUILD, DAY, {"target": "d7"})
    assert await db.rithmo_puzzles.record_answer(puzzle, 10, "xd7 c3-d7", True)
    assert await db.rithmo_puzzles.record_answer(puzzle, 11, "c3-d4", False)
    return {"finished": finished.match_id, "unfinished": unfinished.match_id, "game": game_id}


async def test_export_player_gives_all_their_data_as_json(db: Database) -> None:
    ids = await _seed_member(db)
    data = await db.export_player(GUILD, 10)
    assert (data["format"], data["guild_id"], data["user_id"]) == ("ardoise.player-export", 1, 10)
    assert data["player"]["gold"] == 9
    assert len(data["focus_answers"]) == 6  # not 11's, not the other server's
    assert [r["game"] for r in data["ratings"]] == ["digits"]
    assert [(a["day"], a["score"]) for a in data["daily_attempts"]] == [("2026-11-30", 4)]
    assert [(a["day"], a["answer"], a["solved"]) for a in data["rithmo_puzzle_solves"]] == [
        ("2026-11-30", "xd7 c3-d7", 1)]
    assert [(m["match_id"], m["result"], m["opponent_id"]) for m in data["digits_matches"]] == [
        (ids["finished"], "win", 11),
        (ids["unfinished"], None, 11),
    ]
    assert data["digits_matches"][0]["state"] == {"s": 2}
    assert [g["slate"] for g in data["digits_ghosts"]] == [{"1": "Odd"}]
    [game] = data["rithmo_games"]
    assert (game["colour"], game["opponent_id"], game["victories"]) == (
        "white",
        11,
        {"body": {"pieces": 5}},
    )
    assert [t["notation"] for t in game["turns"]] == ["c3-d4"]
    with pytest.raises(DomainError) as unknown:
        await db.export_player(GUILD, 404)
    assert unknown.value.code == "db.not_found"


async def test_delete_player_forgets_them_and_keeps_the_others_games(db: Database) -> None:
    ids = await _seed_member(db)
    counts = await db.delete_player(GUILD, 10)
    assert counts == {
        "digits_matches_abandoned": 1,
        "rithmo_games_abandoned": 1,
        "digits_matches_anonymised": 0,  # these states do not name them
        "digits_seats_anonymised": 2,
        "rithmo_games_anonymised": 1,
        "focus_live_rounds_anonymised": 0,
        "focus_live_rounds_ended": 0,
        "assignments_anonymised": 0,
        "question_sets_anonymised": 0,
        "web_rooms_anonymised": 0,
        "digits_ghosts": 1,
        "focus_rollup": 4,  # the class report's rollups: 08:00–08:02, 23:30, 29th, 30th
        "focus_rollup_total": 2,  # 2 topics
        "focus_mastery": 3,  # their facts and skills
        "focus_mastery_backfill": 0,
        "focus_answers": 6,
        "daily_attempts": 1,
        "rithmo_puzzle_solves": 1,
        "assignment_attempts": 0,
        "student_settings": 0,
        "focus_placements": 0,
        "ratings": 1,
        "web_seats": 0,
        "players": 1,
    }
    assert await db.players.get(GUILD, 10) is None
    assert await db.focus.progress(GUILD, 10) == []
    assert await db.daily.leaderboard(GUILD, DAY) == []
    assert await db.rithmo_puzzles.answers(GUILD, 10) == []
    assert [a.user_id for a in await db.rithmo_puzzles.answers(GUILD, 11)] == [11]
    assert [g.user_id for g in await db.digits.ghost_pool(GUILD, 1, 99)] == [11]
    # The opponent keeps their history, with an anonymous opponent, and their rating.
    history = await db.players.history(GUILD, 11)
    assert [(h.game_id, h.opponent, h.opponent_id, h.result) for h in history] == [
        (ids["finished"], "deleted", None, "loss")
    ]
    assert (await db.players.rating(GUILD, 11, "digits")).games == 1
    assert len(await db.focus.recent(GUILD, 11)) == 1
    # Unfinished games are abandoned; their version moved on so old buttons are stale.
    unfinished = await db.digits.require_match(ids["unfinished"])
    assert (unfinished.status, unfinished.version, unfinished.players) == (
        "abandoned",
        2,
        (11, None),
    )
    game = await db.rithmo.require_game(ids["game"])
    assert (game.status, game.white_id, game.challenger_id) == ("abandoned", None, None)
    assert await db.games.waiting_on(11) == []
    # The other server's player of the same id is untouched.
    assert len(await db.focus.recent(OTHER_GUILD, 10)) == 1
    if db.engine == "sqlite":  # PostgreSQL checks every foreign key as it is written
        assert await db.connection.all("PRAGMA foreign_key_check") == []
    left = await db.connection.one(
        "SELECT (SELECT count(*) FROM players WHERE guild_id = 1 AND user_id = 10)"
        " + (SELECT count(*) FROM focus_answers WHERE guild_id = 1 AND user_id = 10)"
        " + (SELECT count(*) FROM digits_seats WHERE user_id = 10)"
        " + (SELECT count(*) FROM rithmo_games WHERE 10 IN (white_id, black_id))"
    )
    assert left is not None and left[0] == 0


# --- Rithmomachia's hints and daily puzzles (migration 15) ----------------------------------


async def test_hints_are_counted_per_side_without_changing_the_games_version(db: Database
                                                                           ) -> None:
    game = await db.rithmo.create_game(GUILD, white_id=10, black_id=11, victories={},
                                       position={}, status="active", hints_allowed=True)
    assert (game.hints_allowed, game.hints_used("white"), game.hints_used("black")) == (
        True, 0, 0)
    assert await db.rithmo.count_hint(game.game_id, "white") == 1
    assert await db.rithmo.count_hint(game.game_id, "white") == 2
    assert await db.rithmo.count_hint(game.game_id, "black") == 1
    after = await db.rithmo.require_game(game.game_id)
    assert (after.hints_white, after.hints_black, after.version) == (2, 1, game.version)
    closed = await db.rithmo.create_game(GUILD, white_id=10, black_id=11, victories={},
                                         position={}, status="active")
    with pytest.raises(DomainError) as off:
        await db.rithmo.count_hint(closed.game_id, "white")
    assert off.value.code == "rithmo.hints_off"
    await db.rithmo.finish_game(game.game_id, game.version, "draw", "agreed")
    with pytest.raises(DomainError) as over:
        await db.rithmo.count_hint(game.game_id, "white")
    assert over.value.code == "rithmo.not_active"


async def test_the_daily_puzzle_is_stored_once_and_one_answer_counts(db: Database) -> None:
    first = await db.rithmo_puzzles.create_daily(GUILD, DAY, {"n": 1}, now=T0)
    again = await db.rithmo_puzzles.create_daily(GUILD, DAY, {"n": 2})
    assert again == first and first.puzzle == {"n": 1}
    assert await db.rithmo_puzzles.record_answer(first, 10, "xd7 c3-d7", True, now=T0)
    assert not await db.rithmo_puzzles.record_answer(first, 10, "c3-d4", False)
    mine = await db.rithmo_puzzles.answer_of(first.puzzle_id, 10)
    assert mine is not None and (mine.answer, mine.solved, mine.day) == ("xd7 c3-d7", True, DAY)
    await db.rithmo_puzzles.record_answer(first, 11, "c3-d4", False)
    assert await db.rithmo_puzzles.solvers(first.puzzle_id) == (2, 1)
    assert [a.day for a in await db.rithmo_puzzles.answers(GUILD, 10, since=DAY)] == [DAY]
    assert await db.rithmo_puzzles.answers(GUILD, 10, since=DAY + timedelta(days=1)) == []
