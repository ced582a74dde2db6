"""db: bookkeeping columns (where a game is shown, whether its late player was warned) are
written without moving the game's version; changes of state still move it.

Every test works on a real SQLite file in pytest's temporary folder.
"""

from __future__ import annotations

import asyncio
import inspect
from datetime import UTC, datetime, timedelta

import pytest

from bot.domain import DomainError
from db import Database, StaleVersion

T0 = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
GUILD = 1
ANA, SAM = 10, 11


async def _match(db: Database) -> int:
    match = await db.digits.create_match(GUILD, [ANA, SAM], {"gold": 5}, status="active", now=T0)
    return match.match_id


async def _game(db: Database) -> int:
    game = await db.rithmo.create_game(
        GUILD, white_id=ANA, black_id=SAM, victories={}, position={"p": 0}, status="active",
        deadline=T0 + timedelta(minutes=10), now=T0,
    )
    return game.game_id


async def test_storing_a_match_s_message_keeps_its_version_and_a_save_still_moves_it(
    db: Database,
) -> None:
    match_id = await _match(db)
    read = await db.digits.require_match(match_id)
    await db.digits.set_message_id(match_id, 500)
    stored = await db.digits.require_match(match_id)
    assert (stored.message_id, stored.version) == (500, read.version)
    # A change worked out on the version read before the message was stored still goes in…
    assert await db.digits.save_match(match_id, {"gold": 4}, read.version) == read.version + 1
    # …and moves the version: the same change again is stale.
    with pytest.raises(StaleVersion):
        await db.digits.save_match(match_id, {"gold": 3}, read.version)
    after = await db.digits.require_match(match_id)
    assert (after.state, after.message_id) == ({"gold": 4}, 500)
    with pytest.raises(DomainError) as missing:
        await db.digits.set_message_id(999, 1)
    assert missing.value.code == "db.not_found"


async def test_storing_a_game_s_message_keeps_its_version_and_a_turn_still_moves_it(
    db: Database,
) -> None:
    game_id = await _game(db)
    read = await db.rithmo.require_game(game_id)
    assert await db.rithmo.set_message_id(game_id, 700)
    stored = await db.rithmo.require_game(game_id)
    assert (stored.message_id, stored.version) == (700, read.version)
    version = await db.rithmo.play_turn(
        game_id, read.version, "c4-b5", {"p": 1}, to_move="black", deadline=None, now=T0
    )
    assert version == read.version + 1
    with pytest.raises(StaleVersion):
        await db.rithmo.play_turn(
            game_id, read.version, "c4-d5", {"p": 2}, to_move="black", deadline=None, now=T0
        )
    with pytest.raises(DomainError) as missing:
        await db.rithmo.set_message_id(999, 1)
    assert missing.value.code == "db.not_found"


async def test_a_board_s_message_is_stored_only_while_the_game_is_at_the_version_it_shows(
    db: Database,
) -> None:
    game_id = await _game(db)
    shown = await db.rithmo.require_game(game_id)
    assert await db.rithmo.set_message_id(game_id, 700, if_version=shown.version)
    await db.rithmo.play_turn(
        game_id, shown.version, "c4-b5", {"p": 1}, to_move="black", deadline=None, now=T0
    )
    # The board of the older position is out of date: it does not become the game's message.
    assert not await db.rithmo.set_message_id(game_id, 701, if_version=shown.version)
    after = await db.rithmo.require_game(game_id)
    assert (after.message_id, after.version) == (700, shown.version + 1)


async def test_a_warning_keeps_the_version_of_both_games(db: Database) -> None:
    match_id, game_id = await _match(db), await _game(db)
    for game, key, read in (
        ("digits", match_id, db.digits.require_match),
        ("rithmo", game_id, db.rithmo.require_game),
    ):
        before = (await read(key)).version
        await db.games.mark_warned(game, key, grace_deadline=T0 + timedelta(hours=1), now=T0)
        after = await read(key)
        assert (after.warned_at, after.version) == (T0, before)


@pytest.mark.parametrize("message_first", [True, False])
async def test_a_state_change_and_a_message_id_written_at_once_both_survive(
    db: Database, message_first: bool
) -> None:
    """The race the cogs' retry loops covered: a member's change and the bot storing the
    message it just posted, at the same moment, from the same version."""
    match_id, game_id = await _match(db), await _game(db)
    match = await db.digits.require_match(match_id)
    game = await db.rithmo.require_game(game_id)
    changes = [
        db.digits.save_match(match_id, {"gold": 2}, match.version),
        db.rithmo.play_turn(
            game_id, game.version, "c4-b5", {"p": 1}, to_move="black", deadline=None, now=T0
        ),
    ]
    messages = [
        db.digits.set_message_id(match_id, 501),
        db.rithmo.set_message_id(game_id, 701),
    ]
    first, second = (messages, changes) if message_first else (changes, messages)
    await asyncio.gather(*first, *second)
    match_after = await db.digits.require_match(match_id)
    game_after = await db.rithmo.require_game(game_id)
    assert (match_after.state, match_after.message_id, match_after.version) == (
        {"gold": 2}, 501, match.version + 1)
    assert ([t.notation for t in game_after.turns], game_after.message_id, game_after.version) == (
        ["c4-b5"], 701, game.version + 1)


def test_the_state_writes_take_no_bookkeeping_column() -> None:
    """One policy per column: a message id (or channel) goes through ``set_message_id`` only,
    never along a versioned save where it would look like a change of state."""
    from db.digits import DigitsRepository
    from db.rithmo import RithmoRepository

    for write in (DigitsRepository.save_match, RithmoRepository.update_game):
        parameters = inspect.signature(write).parameters
        assert not {"message_id", "channel_id", "warned_at"} & set(parameters), write
