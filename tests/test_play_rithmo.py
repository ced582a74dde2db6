"""bot.play.rithmo, directly on a real Database (no stand-in, no Discord): starting games, turns,
Ardoise's turn with the search injected, resign and draw, the clock, and the engine cache whose
games are owned by one caller at a time."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Iterator
from datetime import timedelta

import pytest

from bot.domain import DomainError, UserRef
from bot.i18n import Languages, error_text
from bot.limits import SearchGate
from bot.play.rithmo import (
    POSITION_FORMAT,
    Ended,
    RithmoService,
    Warned,
    accepts_draw,
    challenge_parties,
    check_accept,
    draw_answerers,
    grace_seconds,
    players,
    stored_position,
)
from bot.rithmo import Board, Game
from bot.rithmo.opponents import choose_turn, random_turn, turn_rng
from db import Database, StaleVersion
from tests.french import fr

GUILD, CHANNEL, ANA, SAM = 1, 10, 100, 200


@pytest.fixture
def service(db: Database) -> Iterator[RithmoService]:
    service = RithmoService(db, Languages(), SearchGate(1))
    yield service
    service.close()  # the search workers, if a test started them


async def _game(service: RithmoService, **options: object):
    started = await service.challenge(GUILD, CHANNEL, ANA, SAM, "en", colour="white",
                                      victory="body", pieces=1, proper="off", **options)
    return await service.accept(started.row, started.row.version)


def _first_moves() -> tuple[str, str]:
    board = Board.start()
    white = str(board.legal_moves()[0])
    board.push(white)
    return white, str(board.legal_moves()[0])


async def test_a_challenge_is_stored_pending_then_accepted_with_a_clock(service) -> None:
    started = await service.challenge(GUILD, CHANNEL, ANA, SAM, "fr", colour="black")
    row = started.row
    assert (row.status, row.white_id, row.black_id, row.challenger_id) == (
        "pending", SAM, ANA, ANA)
    assert stored_position(row) == {"format": POSITION_FORMAT, "lang": "fr",
                                    "string": Board.start().position_string()}
    assert await service.game_lang(row) == "fr"
    with pytest.raises(DomainError) as refused:  # one open game per member in a channel
        await service.challenge(GUILD, CHANNEL, SAM, 300, "en")
    assert refused.value.code == "rithmo.already_playing"
    with pytest.raises(DomainError) as stale:
        await service.accept(row, row.version + 1)
    assert stale.value.code == "game.stale"
    active = await service.accept(row, row.version)
    assert active.status == "active" and active.deadline is not None
    with pytest.raises(DomainError) as again:
        await service.decline(active, active.version)
    assert again.value.code == "rithmo.not_pending"


async def test_a_turn_is_checked_saved_and_the_next_player_gets_the_clock(service) -> None:
    row = await _game(service)
    white, black = _first_moves()
    with pytest.raises(DomainError) as not_yours:
        await service.apply_turn(row, SAM, white)
    assert not_yours.value.code == "rithmo.not_your_turn"
    assert not_yours.value.params == {"player": UserRef(ANA)}
    assert error_text(not_yours.value, "en") == f"It is not your turn: <@{ANA}> is to move."
    with pytest.raises(DomainError) as illegal:
        await service.apply_turn(row, ANA, "a1-a2")
    assert illegal.value.code.startswith("rithmo.")
    played = await service.apply_turn(row, ANA, white)
    assert (played.turn, played.side, played.outcome) == (white, "white", None)
    assert played.row.to_move == "black" and len(played.row.turns) == 1
    assert played.last_turn["to"] == white.split("-")[1]
    assert stored_position(played.row)["string"] == played.row.position["string"]
    # The old row is stale now: the same turn again is refused by the database's version.
    with pytest.raises(StaleVersion):
        await service.apply_turn(row, ANA, white)
    again = await service.apply_turn(played.row, SAM, black)
    assert again.row.to_move == "white" and len(again.row.turns) == 2


async def test_the_game_after_a_turn_is_the_stored_one_without_reading_it(service) -> None:
    """apply_turn builds the game after the turn from what it wrote (RithmoGame.after_turn):
    exactly the row the database then holds, clock and turn times included."""
    row = await _game(service)
    white, black = _first_moves()
    await service.draw(row, ANA)  # an offer, which the turn ends
    offered = await service.get(row.game_id)
    played = await service.apply_turn(offered, ANA, white)
    assert played.row == await service.get(row.game_id)
    assert played.row.draw_offer is None and played.row.deadline is not None
    again = await service.apply_turn(played.row, SAM, black)
    assert again.row == await service.get(row.game_id)


async def test_the_cache_hands_a_game_to_one_caller_at_a_time(service) -> None:
    row = await _game(service)
    with service.engine(row) as mine:
        with service.engine(row) as theirs:  # meanwhile: someone else gets a game of their own
            assert theirs is not mine
            theirs.push(str(theirs.board.legal_moves()[0]))  # theirs only: mine is untouched
        assert len(mine.turns) == 0
    with service.engine(row) as later:
        assert later is mine  # given back at its turns; the other went in at one turn


async def test_a_turn_awaiting_keeps_the_cached_game_from_everyone_else(service, db) -> None:
    """While a turn is being saved (the database awaited), an autocomplete of the same game
    reads the position before the turn, never the turn half-played."""
    row = await _game(service)
    white, _ = _first_moves()
    seen: list[int] = []
    real = db.rithmo.play_turn

    async def slow_play_turn(*args, **kwargs):
        with service.engine(row) as game:  # what an autocomplete would do now
            seen.append(len(game.turns))
        await asyncio.sleep(0)
        return await real(*args, **kwargs)

    db.rithmo.play_turn = slow_play_turn  # type: ignore[method-assign]
    played = await service.apply_turn(row, ANA, white)
    assert seen == [0]
    with service.engine(played.row) as game:
        assert [str(t) for t in game.turns] == [white]


async def test_a_refused_or_lost_save_leaves_the_cached_game_as_it_was(service) -> None:
    row = await _game(service)
    white, _ = _first_moves()
    with pytest.raises(DomainError):
        await service.apply_turn(row, ANA, "a1-a2")
    await service.apply_turn(row, ANA, white)
    with pytest.raises(StaleVersion):
        await service.apply_turn(row, ANA, white)  # the cache rebuilt from the old row, popped
    with service.engine(row) as game:
        assert len(game.turns) == 0


async def test_ardoise_plays_with_the_search_it_is_given(service) -> None:
    calls: list[tuple[int, int]] = []

    def search(game: Game, level: int, rng: random.Random) -> str:
        calls.append((len(game.turns), level))
        return str(random_turn(game, rng))

    service.choose_turn = search
    started = await service.solo(GUILD, CHANNEL, ANA, 2, "black", "en")
    assert started.opening is not None and started.opening.side == "white"
    assert calls == [(0, 2)] and started.row.to_move == "black"
    assert started.row.deadline is not None  # the member's clock runs
    move = str(Board.from_json(started.opening.position).legal_moves()[0])
    played = await service.apply_turn(started.row, ANA, move)
    assert played.row.deadline is None  # Ardoise has no clock
    # Ardoise's turn: the refusal names it as data, the presentation says its name.
    with pytest.raises(DomainError) as not_yours:
        await service.apply_turn(played.row, ANA, move)
    assert not_yours.value.params == {"player": UserRef(None, computer=True)}
    assert error_text(not_yours.value, "fr") == fr(
            "Ce n'est pas ton tour : c'est à Ardoise de jouer.")
    plays = await service.answers(played)
    assert [p.side for p in plays] == ["black", "white"] and calls[-1] == (2, 2)
    assert await service.owed_turn(plays[-1].row) is None
    with pytest.raises(DomainError) as declined:
        await service.draw(plays[-1].row, ANA)
    assert declined.value.code == "rithmo.computer_declines_draw"


async def test_a_solo_game_keeps_its_seed_and_the_searching_levels_play_in_a_worker(
        service) -> None:
    """Level 2 with the real search: the turn is chosen in the pool's worker process, with the
    rng of the game's stored seed and the turn's number, so the same game replayed in this
    process gives the same turn."""
    started = await service.solo(GUILD, CHANNEL, ANA, 2, "black", "en")
    stored = stored_position(started.row)
    assert stored["format"] == POSITION_FORMAT == 2 and isinstance(stored["seed"], int)
    assert service.pool.started  # Ardoise's opening was searched in the pool
    assert started.opening is not None
    expected = choose_turn(Game(), 2, turn_rng(stored["seed"], 0))
    assert started.opening.turn == str(expected)
    other = await service.solo(GUILD, CHANNEL + 1, SAM, 2, "black", "en")
    assert stored_position(other.row)["seed"] != stored["seed"]  # each game its own seed


async def test_a_game_stored_before_seeds_still_loads_and_uses_its_id(service, db) -> None:
    old = {"format": 1, "string": Board.start().position_string(), "lang": "en", "level": 1}
    row = await db.rithmo.create_game(
        GUILD, white_id=None, black_id=ANA, computer_side="white", challenger_id=ANA,
        victories=Game().settings.to_json(), status="active", channel_id=CHANNEL, position=old)
    assert stored_position(row) == {**old, "format": POSITION_FORMAT}  # no seed: the id's
    played = await service.owed_turn(row)
    assert played is not None
    # the rng the bot derived before seeds were stored: "rithmo:{game id}:{turns played}"
    then = choose_turn(Game(), 1, random.Random(f"rithmo:{row.game_id}:0"))
    assert played.turn == str(then)


async def test_the_strong_level_waits_for_a_search_slot_and_refuses_when_saturated(
        service) -> None:
    go, running = threading.Event(), []

    def search(game: Game, level: int, rng: random.Random) -> str:
        running.append(level)
        go.wait(10)
        return str(random_turn(game, rng))

    service.choose_turn = search
    assert service.check_strong(GUILD, 3) and not service.check_strong(GUILD, 1)
    first = asyncio.create_task(service.solo(GUILD, CHANNEL, ANA, 3, "black", "en"))
    second = asyncio.create_task(service.solo(GUILD, CHANNEL + 1, SAM, 3, "black", "en"))
    for _ in range(500):
        if service.searches.waiting == 1:
            break
        await asyncio.sleep(0.01)
    assert running == [3] and service.searches.running == 1
    with pytest.raises(DomainError) as busy:
        service.check_strong(GUILD, 3)
    assert busy.value.code == "limits.strong_busy"
    with pytest.raises(DomainError) as unknown:
        service.check_level(5)
    assert unknown.value.code == "rithmo.bad_level"
    go.set()
    for started in await asyncio.gather(first, second):
        assert len(started.row.turns) == 1
    assert running == [3, 3]


async def test_resign_and_draws_end_the_game_and_rate_it(service) -> None:
    row = await _game(service)
    ended = await service.resign(row, SAM)
    assert (ended.row.status, ended.row.result, ended.row.reason) == (
        "finished", "white", "resignation")
    assert set(ended.ratings) == {ANA, SAM}
    row = await _game(service)
    assert await service.draw(row, ANA) == "white"
    offered = await service.get(row.game_id)
    with pytest.raises(DomainError) as twice:
        await service.draw(offered, ANA)
    assert twice.value.code == "rithmo.draw_already_offered"
    assert await service.answer_draw(offered, 0, accept=False) is None
    declined = await service.get(row.game_id)
    assert declined.draw_offer is None
    with pytest.raises(DomainError) as none:
        await service.answer_draw(declined, 0, accept=True)
    assert none.value.code == "rithmo.no_draw_offer"
    await service.draw(declined, SAM)
    agreed = await service.draw(await service.get(row.game_id), ANA)
    assert isinstance(agreed, Ended) and (agreed.row.result, agreed.row.reason) == (
        "draw", "agreed")


async def test_the_clock_warns_once_then_forfeits(service) -> None:
    row = await _game(service)
    assert row.deadline is not None
    assert await service.overdue(row.deadline - timedelta(seconds=1)) == []
    late = row.deadline + timedelta(seconds=1)
    [warned] = await service.overdue(late)
    assert isinstance(warned, Warned) and warned.late_id == ANA
    limit = int((row.deadline - row.updated_at).total_seconds())
    assert abs((warned.grace - late).total_seconds() - grace_seconds(limit)) <= 1
    assert await service.overdue(late + timedelta(seconds=1)) == []  # warned once only
    [ended] = await service.overdue(warned.grace + timedelta(seconds=1))
    assert isinstance(ended, Ended)
    assert (ended.row.result, ended.row.reason) == ("black", "timeout")
    assert await service.overdue(warned.grace + timedelta(minutes=5)) == []


async def test_who_may_act_on_a_challenge_a_draw_and_a_game_is_decided_here(service) -> None:
    started = await service.challenge(GUILD, CHANNEL, ANA, SAM, "en", colour="black")
    pending = started.row
    with pytest.raises(DomainError) as refused:  # the challenger withdraws, never accepts
        check_accept(pending, ANA)
    assert (refused.value.code, refused.value.params) == (
        "rithmo.only_challenged", {"player": UserRef(SAM)})
    check_accept(pending, SAM)
    assert sorted(challenge_parties(pending)) == [ANA, SAM]
    row = await service.accept(pending, pending.version)
    check_accept(row, ANA)  # answered already: the use case says so (rithmo.not_pending)
    assert sorted(players(row)) == [ANA, SAM]
    assert not accepts_draw(row, ANA)
    offerer = await service.draw(row, ANA)
    row = await service.get(row.game_id)
    assert offerer == "black" and accepts_draw(row, SAM) and not accepts_draw(row, ANA)
    assert draw_answerers(row, "black", accept=True) == [SAM]  # only the other player accepts
    assert sorted(draw_answerers(row, "black", accept=False)) == [ANA, SAM]  # or withdraws
    solo = (await service.solo(GUILD, CHANNEL + 1, ANA, 1, "white", "en")).row
    assert players(solo) == [ANA] and not accepts_draw(solo, ANA)
