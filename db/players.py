"""Players (a member of a server): gold, Focus level, daily streaks, ratings, match history."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from bot.domain import DomainError
from bot.ratings import Rating, Record, after_game
from db.connection import Connection, Row, from_db_day, from_db_time, not_found, to_db_time, utc

GAMES = ("digits", "rithmo")


@dataclass(frozen=True)
class Player:
    guild_id: int
    user_id: int
    gold: int
    focus_level: int
    daily_streak: int
    best_daily_streak: int
    last_daily_day: date | None
    created_at: datetime

    def current_daily_streak(self, today: date) -> int:
        """The streak as it stands on ``today``: broken if neither today's nor yesterday's daily
        challenge was finished."""
        if self.last_daily_day is None or self.last_daily_day < today - timedelta(days=1):
            return 0
        return self.daily_streak


@dataclass(frozen=True)
class PlayerRating(Record):
    """A member's record in ``game`` as stored: the rating, the games counted, the current and
    best runs of wins (``bot.ratings.Record``, which a game's end computes from)."""

    game: str = ""


@dataclass(frozen=True)
class RatingChange:
    user_id: int
    before: Rating
    after: Rating


@dataclass(frozen=True)
class RatingRow:
    rank: int
    user_id: int
    rating: float
    rd: float
    games: int
    wins: int
    losses: int
    draws: int


@dataclass(frozen=True)
class StreakRow:
    rank: int
    user_id: int
    streak: int
    best_streak: int


@dataclass(frozen=True)
class HistoryEntry:
    game: str
    game_id: int
    #: 'member' (``opponent_id`` says who), 'ghost', 'computer' or 'deleted'.
    opponent: str
    opponent_id: int | None
    result: str  # 'win', 'loss' or 'draw'
    finished_at: datetime | None


def _check_game(game: str) -> None:
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; the rated games are {GAMES}")


def _player(row: Row) -> Player:
    created = from_db_time(row["created_at"])
    assert created is not None
    return Player(
        guild_id=row["guild_id"],
        user_id=row["user_id"],
        gold=row["gold"],
        focus_level=row["focus_level"],
        daily_streak=row["daily_streak"],
        best_daily_streak=row["best_daily_streak"],
        last_daily_day=from_db_day(row["last_daily_day"]),
        created_at=created,
    )


def _rating(row: Row) -> PlayerRating:
    return PlayerRating(
        game=row["game"],
        rating=Rating(row["rating"], row["rd"], row["volatility"]),
        games=row["games"],
        wins=row["wins"],
        losses=row["losses"],
        draws=row["draws"],
        streak=row["streak"],
        best_streak=row["best_streak"],
        updated_at=from_db_time(row["updated_at"]),
    )


_ENSURE_SERVER = ("INSERT INTO servers (guild_id, created_at, updated_at) VALUES (?, ?, ?)"
                  " ON CONFLICT (guild_id) DO NOTHING")
_ENSURE_PLAYER = ("INSERT INTO players (guild_id, user_id, created_at) VALUES (?, ?, ?)"
                  " ON CONFLICT (guild_id, user_id) DO NOTHING")


class PlayersRepository:
    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    async def ensure(self, guild_id: int, user_id: int, now: datetime | None = None) -> None:
        """Make sure the member (and their server) have rows."""
        await self.ensure_many([(guild_id, user_id)], now)

    async def ensure_many(
        self, members: Iterable[tuple[int, int]], now: datetime | None = None
    ) -> None:
        """Make sure these (guild id, user id) members and their servers have rows."""
        stamp = to_db_time(utc(now))
        pairs = sorted(set(members))
        if len(pairs) == 1:
            # Two statements instead of a transaction of four: each changes nothing when its
            # row is there, so the first alone (a crash between them) leaves nothing wrong.
            [(guild, user)] = pairs
            await self._conn.run(_ENSURE_SERVER, (guild, stamp, stamp))
            await self._conn.run(_ENSURE_PLAYER, (guild, user, stamp))
            return
        async with self._conn.atomic():
            await self._conn.many(
                _ENSURE_SERVER, [(guild, stamp, stamp) for guild in sorted({g for g, _ in pairs})])
            await self._conn.many(_ENSURE_PLAYER, [(guild, user, stamp) for guild, user in pairs])

    async def get(self, guild_id: int, user_id: int) -> Player | None:
        row = await self._conn.one(
            "SELECT * FROM players WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        return None if row is None else _player(row)

    async def get_or_create(self, guild_id: int, user_id: int) -> Player:
        async with self._conn.atomic():
            await self.ensure(guild_id, user_id)
            player = await self.get(guild_id, user_id)
        assert player is not None
        return player

    async def add_gold(self, guild_id: int, user_id: int, delta: int) -> int:
        """Add (or, negative, spend) gold; the new amount. Spending more than the player has
        raises ``DomainError("player.not_enough_gold")`` and changes nothing."""
        # One statement checks and changes: two spends at once cannot both pass the check.
        update = (
            "UPDATE players SET gold = gold + ? WHERE guild_id = ? AND user_id = ?"
            " AND gold + ? >= 0 RETURNING gold"
        )
        params = (delta, guild_id, user_id, delta)
        rows = await self._conn.returning(update, params)
        if rows:
            return int(rows[0][0])
        async with self._conn.atomic():
            # Not enough gold, or a newcomer without a row yet.
            await self.ensure(guild_id, user_id)
            rows = await self._conn.returning(update, params)
            if not rows:
                player = await self.get(guild_id, user_id)
                have = player.gold if player else 0
                raise DomainError(
                    "player.not_enough_gold",
                    f"{-delta} gold needed, {have} available",
                    need=-delta,
                    have=have,
                )
            return int(rows[0][0])

    async def set_focus_level(self, guild_id: int, user_id: int, level: int) -> None:
        if level < 1:
            raise ValueError(f"a Focus level is from 1, not {level}")
        update = "UPDATE players SET focus_level = ? WHERE guild_id = ? AND user_id = ?"
        if await self._conn.run(update, (level, guild_id, user_id)):
            return
        async with self._conn.atomic():
            await self.ensure(guild_id, user_id)
            await self._conn.run(update, (level, guild_id, user_id))

    # --- Ratings ---------------------------------------------------------------------------

    async def rating(self, guild_id: int, user_id: int, game: str) -> PlayerRating:
        """The player's rating in ``game`` (a newcomer's if they have none)."""
        _check_game(game)
        row = await self._conn.one(
            "SELECT * FROM ratings WHERE guild_id = ? AND user_id = ? AND game = ?",
            (guild_id, user_id, game),
        )
        return PlayerRating(game=game) if row is None else _rating(row)

    async def ratings(self, guild_id: int, user_id: int) -> dict[str, PlayerRating]:
        rows = await self._conn.all(
            "SELECT * FROM ratings WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        return {row["game"]: _rating(row) for row in rows}

    async def record_game(
        self,
        guild_id: int,
        game: str,
        user_a: int,
        user_b: int,
        score_a: float,
        now: datetime | None = None,
    ) -> dict[int, RatingChange]:
        """Rate one finished game between two members (``score_a``: A's score, 1, ½ or 0) and
        count it in both records. Part of the caller's transaction when there is one."""
        _check_game(game)
        if user_a == user_b:
            raise ValueError("a member cannot be rated against themselves")
        moment = utc(now)
        async with self._conn.atomic():
            # Each rating is read after a write has taken its row (both in the same order, so
            # two games never wait on each other): a game finishing at the same moment in
            # another transaction, or another process, waits for this one to commit and then
            # reads what it wrote, never the rating from before it (a lost update). On SQLite
            # the transaction holds the file's write lock already (BEGIN IMMEDIATE); on a
            # server database this is the row lock.
            newcomer = Rating()
            for user in sorted((user_a, user_b)):
                await self.ensure(guild_id, user, moment)
                await self._conn.run(
                    "INSERT INTO ratings (guild_id, user_id, game, rating, rd, volatility,"
                    " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
                    " ON CONFLICT (guild_id, user_id, game) DO UPDATE SET games = ratings.games",
                    (guild_id, user, game, newcomer.rating, newcomer.rd, newcomer.volatility,
                     to_db_time(moment)),
                )
            read = {user: await self.rating(guild_id, user, game)
                    for user in (user_a, user_b)}
            rated = dict(zip((user_a, user_b), after_game(read[user_a], read[user_b], score_a,
                                                         moment), strict=True))
            changes: dict[int, RatingChange] = {}
            for user, done in rated.items():
                new = done.after
                await self._conn.run(
                    "INSERT INTO ratings (guild_id, user_id, game, rating, rd, volatility, games,"
                    " wins, losses, draws, streak, best_streak, updated_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                    " ON CONFLICT (guild_id, user_id, game) DO UPDATE SET"
                    " rating = excluded.rating, rd = excluded.rd, volatility = excluded.volatility,"
                    " games = excluded.games, wins = excluded.wins, losses = excluded.losses,"
                    " draws = excluded.draws, streak = excluded.streak,"
                    " best_streak = excluded.best_streak, updated_at = excluded.updated_at",
                    (guild_id, user, game, new.rating.rating, new.rating.rd,
                     new.rating.volatility, new.games, new.wins, new.losses, new.draws,
                     new.streak, new.best_streak, to_db_time(moment)),
                )
                changes[user] = RatingChange(user, done.before.rating, new.rating)
        return changes

    async def leaderboard(self, guild_id: int, game: str, limit: int = 10) -> list[RatingRow]:
        """The server's best players in ``game`` by rating (the surer rating first when equal);
        only players with at least one rated game. Equal ratings share a rank."""
        _check_game(game)
        rows = await self._conn.all(
            "SELECT RANK() OVER (ORDER BY rating DESC) AS rank, user_id, rating, rd, games, wins,"
            " losses, draws FROM ratings WHERE guild_id = ? AND game = ? AND games > 0"
            " ORDER BY rating DESC, rd ASC, user_id LIMIT ?",
            (guild_id, game, limit),
        )
        return [RatingRow(*row) for row in rows]

    async def streaks(self, guild_id: int, today: date, limit: int = 10) -> list[StreakRow]:
        """The server's longest current daily-challenge streaks on ``today``."""
        yesterday = (today - timedelta(days=1)).isoformat()
        rows = await self._conn.all(
            "SELECT RANK() OVER (ORDER BY daily_streak DESC) AS rank, user_id, daily_streak,"
            " best_daily_streak FROM players WHERE guild_id = ? AND daily_streak > 0"
            " AND last_daily_day >= ? ORDER BY daily_streak DESC, best_daily_streak DESC, user_id"
            " LIMIT ?",
            (guild_id, yesterday, limit),
        )
        return [StreakRow(*row) for row in rows]

    async def history(self, guild_id: int, user_id: int, limit: int = 20) -> list[HistoryEntry]:
        """The member's finished games (both games), the latest first."""
        rows = await self._conn.all(
            "SELECT 'digits' AS game, m.match_id AS game_id, m.kind AS kind,"
            " (SELECT o.user_id FROM digits_seats o"
            "   WHERE o.match_id = m.match_id AND o.seat <> s.seat) AS opponent_id,"
            " s.result AS result, m.finished_at AS finished_at"
            " FROM digits_seats s JOIN digits_matches m ON m.match_id = s.match_id"
            " WHERE m.guild_id = ? AND s.user_id = ? AND m.status = 'finished'"
            " AND s.result IS NOT NULL"
            " UNION ALL"
            " SELECT 'rithmo', game_id, CASE WHEN computer_side IS NULL THEN 'duel' ELSE"
            " 'computer' END, CASE WHEN white_id = ? THEN black_id ELSE white_id END,"
            " CASE WHEN result = 'draw' THEN 'draw'"
            "      WHEN (result = 'white') = (white_id IS ?) THEN 'win' ELSE 'loss' END,"
            " finished_at FROM rithmo_games"
            " WHERE guild_id = ? AND (white_id = ? OR black_id = ?) AND status = 'finished'"
            " ORDER BY finished_at DESC, game_id DESC LIMIT ?",
            (guild_id, user_id, user_id, user_id, guild_id, user_id, user_id, limit),
        )
        entries = []
        for row in rows:
            if row["kind"] in ("ghost", "computer"):
                opponent = row["kind"]
            else:
                opponent = "member" if row["opponent_id"] is not None else "deleted"
            entries.append(
                HistoryEntry(
                    game=row["game"],
                    game_id=row["game_id"],
                    opponent=opponent,
                    opponent_id=row["opponent_id"],
                    result=row["result"],
                    finished_at=from_db_time(row["finished_at"]),
                )
            )
        return entries

    async def require(self, guild_id: int, user_id: int) -> Player:
        player = await self.get(guild_id, user_id)
        if player is None:
            raise not_found("player", guild_id=guild_id, user_id=user_id)
        return player
