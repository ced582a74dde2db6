"""db.rithmo.open_games: a member's open games in a server or one channel, whoever is to move."""

from __future__ import annotations

from datetime import UTC, datetime

from db import Database

T0 = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
GUILD, OTHER_GUILD = 1, 2


async def _game(db: Database, white: int | None, black: int | None, channel: int,
                guild: int = GUILD, computer: str | None = None) -> int:
    game = await db.rithmo.create_game(
        guild, white_id=white, black_id=black, challenger_id=white, computer_side=computer,
        victories={}, position={}, channel_id=channel, now=T0)
    return game.game_id


async def test_open_games_lists_pending_and_active_games_whoever_is_to_move(db: Database) -> None:
    challenge = await _game(db, 10, 11, channel=3)
    playing = await _game(db, 12, 10, channel=3)
    await db.rithmo.update_game(playing, 1, status="active")  # White (12) to move, not 10
    assert [g.game_id for g in await db.rithmo.open_games(GUILD, 10)] == [playing, challenge]
    assert [g.game_id for g in await db.rithmo.open_games(GUILD, 11)] == [challenge]


async def test_open_games_leaves_out_finished_games_other_channels_and_servers(
        db: Database) -> None:
    here = await _game(db, 10, 11, channel=3)
    elsewhere = await _game(db, 10, 12, channel=4)
    await _game(db, 10, 13, channel=3, guild=OTHER_GUILD)
    over = await _game(db, 10, 14, channel=3)
    await db.rithmo.update_game(over, 1, status="active")
    await db.rithmo.finish_game(over, 2, "white", "resignation", now=T0)
    assert [g.game_id for g in await db.rithmo.open_games(GUILD, 10, 3)] == [here]
    assert [g.game_id for g in await db.rithmo.open_games(GUILD, 10)] == [elsewhere, here]
    assert await db.rithmo.open_games(GUILD, 99) == []


async def test_open_games_reads_the_turns_and_a_game_against_ardoise(db: Database) -> None:
    solo = await _game(db, 10, None, channel=3, computer="black")
    await db.rithmo.update_game(solo, 1, status="active")
    await db.rithmo.play_turn(solo, 2, "c4-b5", {"n": 1}, to_move="black", deadline=None, now=T0)
    (game,) = await db.rithmo.open_games(GUILD, 10, 3)
    assert (game.computer_side, [t.notation for t in game.turns], game.to_move) == (
        "black", ["c4-b5"], "black")
