"""db.versioned: the skeleton The 20 Digits' matches and Rithmomachia's games share, checked the
same way on both (SQLite, then PostgreSQL): a new game's row and times, loading it with its child
rows, a change only from the version read, where it is shown kept as bookkeeping, a game that is
not being played refused in the game's own words, and a finished game never finished again."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.domain import DomainError
from db import Database, StaleVersion

T0 = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
GUILD, ANA, BEN = 1, 10, 11


class Digits:
    """The 20 Digits' repository through the skeleton's eyes."""

    code, kind, children = "digits", "match", "seats"

    def __init__(self, db: Database) -> None:
        self.repo = db.digits

    async def create(self, status: str = "active") -> Any:
        return await self.repo.create_match(GUILD, [ANA, BEN], {"r": 0}, status=status,
                                            channel_id=5, deadline=T0 + timedelta(hours=1),
                                            now=T0)

    async def get(self, game_id: int) -> Any:
        return await self.repo.get_match(game_id)

    async def require(self, game_id: int) -> Any:
        return await self.repo.require_match(game_id)

    def key(self, game: Any) -> int:
        return game.match_id

    async def change(self, game: Any, version: int, **kwargs: Any) -> int:
        return await self.repo.save_match(self.key(game), {"r": 1}, version, **kwargs)

    async def finish(self, game: Any, version: int) -> Any:
        return await self.repo.finish_match(self.key(game), {"r": 2}, version,
                                            {ANA: 1.0, BEN: 0.0}, now=T0)

    def child_count(self, game: Any) -> int:
        return len(game.seats)

    async def opened(self) -> list[int]:
        return [m.match_id for m in await self.repo.open_matches(GUILD, ANA)]


class Rithmo(Digits):
    code, kind, children = "rithmo", "game", "turns"

    def __init__(self, db: Database) -> None:
        self.repo = db.rithmo  # type: ignore[assignment]

    async def create(self, status: str = "active") -> Any:
        return await self.repo.create_game(  # type: ignore[attr-defined]
            GUILD, white_id=ANA, black_id=BEN, victories=["body"], position={"p": 0},
            challenger_id=ANA, status=status, channel_id=5,
            deadline=T0 + timedelta(hours=1), now=T0)

    async def get(self, game_id: int) -> Any:
        return await self.repo.get_game(game_id)  # type: ignore[attr-defined]

    async def require(self, game_id: int) -> Any:
        return await self.repo.require_game(game_id)  # type: ignore[attr-defined]

    def key(self, game: Any) -> int:
        return game.game_id

    async def change(self, game: Any, version: int, **kwargs: Any) -> int:
        return await self.repo.update_game(  # type: ignore[attr-defined]
            self.key(game), version, position={"p": 1}, **kwargs)

    async def finish(self, game: Any, version: int) -> Any:
        return await self.repo.finish_game(  # type: ignore[attr-defined]
            self.key(game), version, "white", "victory:body", now=T0)

    def child_count(self, game: Any) -> int:
        return len(game.turns)

    async def opened(self) -> list[int]:
        return [g.game_id for g in await self.repo.open_games(  # type: ignore[attr-defined]
            GUILD, ANA)]


GAMES: dict[str, Callable[[Database], Digits]] = {"digits": Digits, "rithmo": Rithmo}


@pytest.fixture(params=list(GAMES))
def games(request: pytest.FixtureRequest, db: Database) -> Digits:
    return GAMES[request.param](db)


async def test_a_new_game_reads_back_with_its_common_columns(games: Digits) -> None:
    game = await games.create()
    assert (game.guild_id, game.channel_id, game.message_id) == (GUILD, 5, None)
    assert (game.status, game.version) == ("active", 1)
    assert game.deadline == T0 + timedelta(hours=1) and game.warned_at is None
    assert game.created_at == game.updated_at == T0 and game.finished_at is None
    assert games.child_count(game) == (2 if games.code == "digits" else 0)
    assert await games.get(games.key(game)) == game
    assert await games.opened() == [games.key(game)]
    assert await games.get(games.key(game) + 100) is None
    with pytest.raises(DomainError) as missing:
        await games.require(games.key(game) + 100)
    assert missing.value.code == "db.not_found"


async def test_a_change_is_made_from_its_version_only(games: Digits) -> None:
    game = await games.create()
    later = T0 + timedelta(minutes=5)
    version = await games.change(game, 1, deadline=None, now=later)
    assert version == 2
    changed = await games.require(games.key(game))
    assert (changed.version, changed.deadline, changed.updated_at) == (2, None, later)
    with pytest.raises(StaleVersion):  # the same change, read at version 1
        await games.change(game, 1)
    assert (await games.require(games.key(game))).version == 2


async def test_where_a_game_is_shown_keeps_its_version(games: Digits) -> None:
    game = await games.create()
    assert await games.repo.set_message_id(games.key(game), 77)
    shown = await games.require(games.key(game))
    assert (shown.message_id, shown.version) == (77, 1)
    await games.change(game, 1)
    # Only while the game is at the version the message shows.
    assert not await games.repo.set_message_id(games.key(game), 78, if_version=1)
    assert (await games.require(games.key(game))).message_id == 77


async def test_a_closing_status_stamps_the_finish(games: Digits) -> None:
    game = await games.create(status="pending")
    await games.change(game, 1, status="declined", now=T0 + timedelta(minutes=1))
    declined = await games.require(games.key(game))
    assert declined.status == "declined"
    assert declined.finished_at == T0 + timedelta(minutes=1)
    assert await games.opened() == []


async def test_a_game_is_rated_once_and_never_finished_twice(games: Digits) -> None:
    game = await games.create()
    changes = await games.finish(game, 1)
    assert set(changes) == {ANA, BEN}  # two members: rated
    finished = await games.require(games.key(game))
    assert (finished.status, finished.version) == ("finished", 2)
    with pytest.raises(DomainError) as again:
        await games.finish(finished, 2)
    assert again.value.code == f"{games.code}.not_active"
    with pytest.raises(StaleVersion):
        await games.finish(game, 1)


async def test_finishing_a_game_not_begun_is_refused_in_its_own_words(games: Digits) -> None:
    game = await games.create(status="pending")
    with pytest.raises(DomainError) as refused:
        await games.finish(game, 1)
    assert refused.value.code == f"{games.code}.not_active"
    assert refused.value.params["status"] == "pending"
    assert (await games.require(games.key(game))).status == "pending"


