"""Rithmomachia's use cases: start a game (a challenge, or against Ardoise), answer a challenge,
play a turn, Ardoise's turn, resign, draw, the move clock; over a :class:`~db.Database` and the
engine (``bot.rithmo``), without Discord. ``bot.ui.rithmo`` says the results; ``cogs.rithmo``
carries a member's action here.

The engine cache
    Replaying a game's turns is the cost of a turn (a few ms for a long game), so the engine
    games rebuilt from the database are kept, by (game id, turns played): turns are only ever
    appended, so that pair names one position. An entry is *owned*: :meth:`RithmoService.engine`
    takes it out of the cache for the time of its ``with`` block, and puts it back after; a
    second caller meanwhile (another turn, an autocomplete) finds no entry and rebuilds its own.
    So a game is never seen half-played by someone else, whatever is awaited while it is held.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol

from bot.domain import DomainError, OpenGame, UserRef, check_open
from bot.formats import FORMAT_KEY, upgrade
from bot.play.rithmo_turns import (
    Taken,
    build_settings,
    engine_game,
    last_turn_json,
    server_settings,
    taken_and_explained,
    turn_explanations,
)
from bot.rithmo import Board, Game, Outcome, Settings, Turn
from bot.rithmo.notation import with_suggestions
from bot.rithmo.opponents import LEVELS, SEARCHING, choose_turn, new_seed, turn_rng
from bot.shards import Owner, every_server
from db import Database, RatingChange, RithmoGame, StaleVersion

if TYPE_CHECKING:
    from bot.limits import SearchGate
    from bot.play.rithmo_search import SearchPool

log = logging.getLogger(__name__)

SIDES = ("white", "black")
CACHE_SIZE = 256
MIN_GRACE_S = 60

#: The version of the ``position`` column's layout: ``{"format", "string", "lang", "level",
#: "seed"}`` (the position string after the last turn, the language of a game's first messages,
#: the level of Ardoise in a solo game, the seed of Ardoise's choices). 2: with the seed; 1: the
#: same without it (such a game's seed is its id, which gives the choices it was given then); 0
#: (no field): as 1, written before versions (``bot.formats``).
POSITION_FORMAT = 2

#: Ardoise's choice of a turn: ``(its own copy of the game, level, rng) -> turn``, run in a thread
#: (the default, :func:`bot.rithmo.opponents.choose_turn`, runs its searching levels in the
#: service's process pool instead).
ChooseTurn = Callable[[Game, int, random.Random], Turn | str]

#: The levels searched in the process pool (middle, strong, master): the beginner's turn takes
#: a few milliseconds, a thread is enough.
POOLED = frozenset(n for n, name in LEVELS.items() if name != "beginner")


class Languages(Protocol):
    async def of_guild(self, guild_id: int) -> str | None: ...


def utcnow() -> datetime:
    return datetime.now(UTC)


def other(side: str) -> str:
    return "black" if side == "white" else "white"


def grace_seconds(limit_s: int) -> int:
    """The grace after a warning: a quarter of the move time limit, at least a minute."""
    return max(MIN_GRACE_S, limit_s // 4)


def stored_position(row: RithmoGame) -> dict[str, Any]:
    """The game's ``position`` column in today's layout; a newer one is refused
    (``state.too_new``)."""
    return upgrade(row.position if isinstance(row.position, dict) else {}, "position",
                   POSITION_FORMAT)


def player_ref(row: RithmoGame, side: str) -> UserRef:
    """The player of ``side`` as a refusal names them (the presentation says it)."""
    return UserRef(row.player(side), computer=row.computer_side == side)


def require_active(row: RithmoGame) -> None:
    if row.status != "active":
        raise DomainError("rithmo.not_active", "this game is not being played",
                          status=row.status)


def require_pending(row: RithmoGame) -> None:
    if row.status != "pending":
        raise DomainError("rithmo.not_pending", "this challenge was already answered",
                          status=row.status)


def challenged_id(row: RithmoGame) -> int | None:
    return row.black_id if row.challenger_id == row.white_id else row.white_id


def players(row: RithmoGame) -> list[int]:
    """The members who play ``row`` (Ardoise and an erased member are nobody to act)."""
    return [uid for uid in (row.white_id, row.black_id) if uid is not None]


def challenge_parties(row: RithmoGame) -> list[int]:
    """Who may decline a challenge: the challenged member, and the challenger (who withdraws
    it); only the challenged member accepts (:func:`check_accept`)."""
    return [uid for uid in (row.challenger_id, challenged_id(row)) if uid is not None]


def draw_answerers(row: RithmoGame, offerer_side: str, accept: bool) -> list[int]:
    """Who may answer the draw offered by ``offerer_side``: only the other player accepts; both
    may end the offer (the other declines it, the one who offered withdraws it)."""
    if accept:
        return [uid for uid in (row.player(other(offerer_side)),) if uid is not None]
    return players(row)


def check_accept(row: RithmoGame, user_id: int) -> None:
    """Only the challenged member accepts a challenge (its challenger may only withdraw it)."""
    if user_id == row.challenger_id and row.status == "pending":
        raise DomainError("rithmo.only_challenged", "only the challenged member accepts",
                          player=UserRef(challenged_id(row)))


def accepts_draw(row: RithmoGame, user_id: int) -> bool:
    """Whether ``/rithmo draw`` by ``user_id`` accepts the opponent's offer (the game ends)
    rather than offering one."""
    side = row.side_of(user_id)
    return side is not None and row.computer_side is None and row.draw_offer == other(side)


@dataclass
class Played:
    """A turn saved: the game after it, and what to tell about it."""

    row: RithmoGame
    turn: str
    side: str
    outcome: Outcome | None
    ratings: dict[int, RatingChange]
    position: dict[str, Any]
    last_turn: dict[str, Any]
    #: What the turn took, piece by piece, with each capture's rule and numbers.
    taken: list[Taken] = field(default_factory=list)

    @property
    def whys(self) -> list[dict[str, Any]]:
        """Each capture's arithmetic (:func:`bot.play.rithmo_turns.turn_explanations`)."""
        return [taken.why for taken in self.taken]


@dataclass
class Started:
    """A new game (pending challenge or solo game), its settings, the server's move time limit,
    and Ardoise's first turn when it opens."""

    row: RithmoGame
    settings: Settings
    limit_s: int
    opening: Played | None = None


@dataclass
class Ended:
    """A finished game (read after its end) and the rating changes it made."""

    row: RithmoGame
    ratings: dict[int, RatingChange]


@dataclass
class Warned:
    """A late player warned: their new deadline (the grace)."""

    row: RithmoGame
    late_id: int | None
    grace: datetime


class RithmoService:
    """Rithmomachia's use cases over ``db`` (never None). ``searches`` is the strong and master
    levels' gate (``bot.limits.SearchGate``); ``choose_turn`` is Ardoise's search (a test may put a
    fake one, called in a thread); ``pool`` the worker processes of the real one's searching
    levels (:mod:`bot.play.rithmo_search`), made when first needed."""

    def __init__(self, db: Database, languages: Languages, searches: SearchGate,
                 choose: ChooseTurn = choose_turn, pool: SearchPool | None = None) -> None:
        self.db = db
        self.languages = languages
        self.searches = searches
        self.choose_turn: ChooseTurn = choose
        self._pool = pool
        self._games: OrderedDict[tuple[int, int], Game] = OrderedDict()

    # the engine cache ------------------------------------------------------------------

    def _take(self, row: RithmoGame) -> Game:
        game = self._games.pop((row.game_id, len(row.turns)), None)
        if game is None:
            game = engine_game(row.victories, [turn.notation for turn in row.turns])
            stored = stored_position(row).get("string")
            if row.turns and stored and stored != game.board.position_string():
                log.warning("game %s: the replayed position differs from the stored one",
                            row.game_id)
        return game

    def _give_back(self, game_id: int, game: Game) -> None:
        self._games[(game_id, len(game.turns))] = game
        while len(self._games) > CACHE_SIZE:
            self._games.popitem(last=False)

    @contextlib.contextmanager
    def engine(self, row: RithmoGame) -> Iterator[Game]:
        """The engine's game of ``row``, the caller's own until the block ends (see the module's
        docstring); it goes back to the cache at the number of turns it then has."""
        game = self._take(row)
        try:
            yield game
        finally:
            self._give_back(row.game_id, game)

    def position_json(self, row: RithmoGame) -> dict[str, Any]:
        with self.engine(row) as game:
            return game.board.to_json()

    def last_turn(self, row: RithmoGame) -> dict[str, Any] | None:
        if not row.turns:
            return None
        with self.engine(row) as game:  # ours alone in the block: undone, then played again
            board = game.board
            turn = board.pop()
            try:
                whys = turn_explanations(board, turn)
            finally:
                board.push(turn)
            return last_turn_json(turn, whys)

    def board_copy(self, row: RithmoGame) -> Board:
        with self.engine(row) as game:
            return game.board.copy()

    # reading ---------------------------------------------------------------------------

    async def get(self, game_id: int) -> RithmoGame:
        return await self.db.rithmo.require_game(game_id)

    async def find(self, game_id: int, guild_id: int | None) -> RithmoGame:
        """Game ``game_id`` of this server, else ``rithmo.no_such_game``."""
        found = await self.db.rithmo.get_game(game_id)
        if found is None or found.guild_id != guild_id:
            raise DomainError("rithmo.no_such_game", "no such game here", game=game_id)
        return found

    async def open_games(self, guild_id: int, user_id: int) -> list[RithmoGame]:
        return await self.db.rithmo.open_games(guild_id, user_id)

    async def game_lang(self, row: RithmoGame) -> str:
        """The language of a game's public messages: the server's, else the starter's."""
        lang = await self.languages.of_guild(row.guild_id)
        if lang:
            return lang
        stored = stored_position(row).get("lang")
        return stored if stored in ("en", "fr") else "en"

    async def current_game(self, guild_id: int, user_id: int, channel_id: int | None,
                           statuses: tuple[str, ...] = ("active",)) -> RithmoGame:
        """The member's game in this channel (the one where it is their turn first)."""
        games = [g for g in await self.db.rithmo.open_games(guild_id, user_id, channel_id)
                 if g.status in statuses]
        if not games:
            raise DomainError("rithmo.no_game", "you have no Rithmomachia game in this channel")
        mine = [g for g in games if g.player(g.to_move) == user_id]
        return (mine or games)[0]

    async def ensure_free(self, guild_id: int, channel_id: int | None, users: list[int]
                          ) -> None:
        """One open game (challenge or game) per member in a channel."""
        for user in users:
            if await self.db.rithmo.open_games(guild_id, user, channel_id):
                raise DomainError("rithmo.already_playing",
                                  "one game at a time per member in a channel",
                                  player=UserRef(user))

    async def check_challenge(self, guild_id: int, challenger: int, challenged: int, *,
                              challenged_bot: bool, most: int) -> None:
        """Who may be challenged (another member, no bot), and the cap on the challenges that
        wait for an answer (``most``)."""
        if challenged == challenger:
            raise DomainError("rithmo.self_challenge", "you cannot challenge yourself")
        if challenged_bot:
            raise DomainError("rithmo.challenge_bot", "challenge a member, or play /rithmo solo")
        waiting = [g for g in await self.open_games(guild_id, challenger)
                   if g.status == "pending" and g.challenger_id == challenger]
        check_open("rithmo_challenges", [OpenGame("rithmo_challenge", g.game_id, "game",
                                                  g.channel_id) for g in reversed(waiting)], most)

    async def check_solo(self, guild_id: int, channel_id: int | None, user_id: int, level: int,
                         *, most: int) -> bool:
        """Whether the member may start a game against Ardoise at ``level``: a known level, no
        other game in the channel, fewer than ``most`` games against Ardoise; true when the level
        is strong (:meth:`check_strong`: the caller counts it in the strong searches' bucket)."""
        self.check_level(level)
        await self.ensure_free(guild_id, channel_id, [user_id])
        playing = [g for g in await self.open_games(guild_id, user_id)
                   if g.computer_side is not None]
        check_open("rithmo_computer", [OpenGame("rithmo", g.game_id, "game", g.channel_id,
                                                (("turn", len(g.turns) + 1),))
                                       for g in reversed(playing)], most)
        return self.check_strong(guild_id, level)

    async def _limit(self, guild_id: int) -> int:
        return (await self.db.servers.get(guild_id)).move_time_limit_s

    # starting --------------------------------------------------------------------------

    async def challenge(self, guild_id: int, channel_id: int | None, challenger: int,
                        challenged: int, lang: str, *, colour: str | None = None,
                        hints: bool = False, **options: Any) -> Started:
        """A pending challenge with the server's victories changed by ``options``
        (:func:`~bot.play.settings.build_settings`); ``hints``: the challenger allows
        ``/rithmo hint`` to both players (the challenged member agrees by accepting)."""
        server = await self.db.servers.get(guild_id)
        settings = build_settings(server_settings(server.rithmo_victories), **options)
        await self.ensure_free(guild_id, channel_id, [challenger, challenged])
        colour = colour or "random"
        if colour == "random":
            colour = random.choice(SIDES)
        white, black = ((challenger, challenged) if colour == "white"
                        else (challenged, challenger))
        row = await self.db.rithmo.create_game(
            guild_id, white_id=white, black_id=black, challenger_id=challenger,
            victories=settings.to_json(), position=self._start_position(lang),
            channel_id=channel_id, hints_allowed=hints)
        return Started(row, settings, server.move_time_limit_s)

    @staticmethod
    def _start_position(lang: str, **more: Any) -> dict[str, Any]:
        return {FORMAT_KEY: POSITION_FORMAT, "string": Board.start().position_string(),
                "lang": lang, **more}

    @property
    def pool(self) -> SearchPool:
        """The worker processes of the searching levels (made, not started, on first use)."""
        if self._pool is None:
            from bot.play.rithmo_search import SearchPool

            self._pool = SearchPool()
        return self._pool

    def close(self) -> None:
        """Stop the search workers (the bot is closing)."""
        if self._pool is not None:
            self._pool.close()

    @staticmethod
    def check_level(level: int) -> None:
        if level not in LEVELS:
            raise DomainError("rithmo.bad_level", "unknown level", level=level)

    def check_strong(self, guild_id: int, level: int) -> bool:
        """Whether ``level`` is strong or master; refused while their searches are saturated
        (checked before the rate bucket, so that trying again when told works)."""
        if level not in SEARCHING:
            return False
        if self.searches.saturated(guild_id):
            raise DomainError("limits.strong_busy", "the strong level is saturated",
                              seconds=self.searches.wait_estimate())
        return True

    async def solo(self, guild_id: int, channel_id: int | None, user_id: int, level: int,
                   colour: str | None, lang: str) -> Started:
        """A game against Ardoise at ``level``; Ardoise opens when it plays White."""
        server = await self.db.servers.get(guild_id)
        settings = server_settings(server.rithmo_victories)
        side = colour if colour in SIDES else random.choice(SIDES) if colour else "white"
        deadline = None
        if side == "white":
            deadline = utcnow() + timedelta(seconds=server.move_time_limit_s)
        row = await self.db.rithmo.create_game(
            guild_id, white_id=user_id if side == "white" else None,
            black_id=user_id if side == "black" else None, computer_side=other(side),
            challenger_id=user_id, victories=settings.to_json(), status="active",
            channel_id=channel_id,
            position=self._start_position(lang, level=level, seed=new_seed()),
            deadline=deadline, hints_allowed=True)
        started = Started(row, settings, server.move_time_limit_s)
        if side == "black":
            started.opening = await self.computer_turn(row)
            started.row = started.opening.row
        return started

    async def accept(self, row: RithmoGame, version: int) -> RithmoGame:
        """The challenged member accepts (the caller checked who clicked): the clock starts."""
        require_pending(row)
        _same_version(version, row.version)
        deadline = utcnow() + timedelta(seconds=await self._limit(row.guild_id))
        await self.db.rithmo.update_game(row.game_id, row.version, status="active",
                                         deadline=deadline)
        return await self.db.rithmo.require_game(row.game_id)

    async def decline(self, row: RithmoGame, version: int) -> None:
        require_pending(row)
        _same_version(version, row.version)
        await self.db.rithmo.update_game(row.game_id, row.version, status="declined")

    # turns -----------------------------------------------------------------------------

    async def apply_turn(self, row: RithmoGame, user_id: int | None, text: str) -> Played:
        """Play ``text`` for ``user_id`` (None: Ardoise) in the stored game ``row``, checked by
        the engine, and save it (with the result and ratings if it ends the game)."""
        require_active(row)
        side = row.to_move
        if user_id is None:
            if row.computer_side != side:
                raise DomainError("rithmo.not_your_turn", "not Ardoise's turn",
                                  player=player_ref(row, side))
        elif row.player(side) != user_id:
            raise DomainError("rithmo.not_your_turn", "it is not your turn",
                              player=player_ref(row, side))
        game = self._take(row)  # ours alone until given back, whatever we await
        try:
            turn = game.push(text)  # a refusal names its reason: the catalogues say it
        except DomainError as refused:
            # A member's turn refused: the legal turns nearest to it follow the reason.
            error = refused if user_id is None else with_suggestions(game.board, text, refused)
            self._give_back(row.game_id, game)  # a refused push leaves the game as it was
            if error is refused:
                raise
            raise error from refused
        except BaseException:
            self._give_back(row.game_id, game)
            raise
        notation = str(turn)
        outcome = game.outcome()
        position = game.board.to_json()
        blob = {**stored_position(row), "string": game.board.position_string()}
        game.pop()
        taken = taken_and_explained(game.board, turn)
        game.push(notation)
        try:
            next_side = other(side)
            now = utcnow()
            human_next = row.player(next_side) is not None and row.computer_side != next_side
            deadline = None
            if outcome is None and human_next:
                deadline = now + timedelta(seconds=await self._limit(row.guild_id))
            after, ratings = await self._save(row, outcome, notation, blob, next_side,
                                              deadline, now)
        except BaseException:
            game.pop()
            self._give_back(row.game_id, game)
            raise
        self._give_back(row.game_id, game)  # at the turns now stored
        return Played(after, notation, side, outcome, ratings, position,
                      last_turn_json(turn, [t.why for t in taken]), taken)

    async def _save(self, row: RithmoGame, outcome: Outcome | None, notation: str,
                    blob: dict[str, Any], next_side: str, deadline: datetime | None,
                    now: datetime) -> tuple[RithmoGame, dict[int, RatingChange]]:
        """The game after the turn, and the rating changes if it ended the game."""
        if outcome is None:
            version = await self.db.rithmo.play_turn(row.game_id, row.version, notation, blob,
                                                     to_move=next_side, deadline=deadline,
                                                     now=now)
            # What play_turn wrote is known: no need to read the game again (one round trip).
            return row.after_turn(version, notation, blob, to_move=next_side, deadline=deadline,
                                  now=now), {}
        result = "draw" if outcome.winner is None else SIDES[outcome.winner]
        reason = f"victory:{outcome.victory}" if outcome.reason == "victory" else outcome.reason
        async with self.db.transaction():  # the last turn and the result, all or nothing
            version = await self.db.rithmo.play_turn(
                row.game_id, row.version, notation, blob, to_move=next_side, deadline=None,
                now=now)
            ratings = await self.db.rithmo.finish_game(row.game_id, version, result, reason,
                                                       now=now)
        return await self.db.rithmo.require_game(row.game_id), ratings

    async def computer_turn(self, row: RithmoGame) -> Played:
        """Ardoise chooses and plays, seeded by the game's stored seed and the turn's number (so
        a replay is the same; a game stored without a seed uses its id). The middle, strong and
        master levels search in a worker process (:mod:`bot.play.rithmo_search`), the beginner
        (or a test's fake choice) in a thread; strong and master searches wait for a free one
        (``SearchGate``)."""
        position = stored_position(row)
        level = int(position.get("level", 1))
        seed = position.get("seed", row.game_id)
        ply = len(row.turns)
        with self.engine(row) as game:
            game_json = game.to_json()
        gated = level in SEARCHING
        async with self.searches.slot(row.guild_id) if gated else contextlib.nullcontext():
            if self.choose_turn is choose_turn and level in POOLED:
                turn: Turn | str = await self.pool.choose(game_json, level, LEVELS[level],
                                                          seed, ply)
            else:
                own = Game.from_json(game_json)  # the thread gets a game of its own
                turn = await asyncio.to_thread(self.choose_turn, own, level,
                                               turn_rng(seed, ply))
        return await self.apply_turn(row, None, str(turn))

    async def answers(self, played: Played) -> list[Played]:
        """After a member's turn (already told to them): Ardoise's turns while it is to move;
        ``played`` first, so that one board says them all."""
        plays = [played]
        while plays[-1].row.status == "active" and \
                plays[-1].row.computer_side == plays[-1].row.to_move:
            plays.append(await self.computer_turn(plays[-1].row))
        return plays

    async def owed_turn(self, row: RithmoGame) -> Played | None:
        """Ardoise's turn it owes (a restart between a member's turn and its answer), played."""
        if row.status == "active" and row.computer_side == row.to_move:
            return await self.computer_turn(row)
        return None

    # ending ----------------------------------------------------------------------------

    async def _finish(self, row: RithmoGame, result: str, reason: str,
                      now: datetime | None = None) -> Ended:
        ratings = await self.db.rithmo.finish_game(row.game_id, row.version, result, reason,
                                                   now=now)
        return Ended(await self.db.rithmo.require_game(row.game_id), ratings)

    async def resign(self, row: RithmoGame, user_id: int) -> Ended:
        side = row.side_of(user_id)
        assert side is not None  # current_game found it among the member's games
        return await self._finish(row, other(side), "resignation")

    async def draw(self, row: RithmoGame, user_id: int) -> Ended | str:
        """Accept the opponent's offer (the game ends), else offer one: the side offering."""
        side = row.side_of(user_id)
        assert side is not None
        if row.computer_side is not None:
            raise DomainError("rithmo.computer_declines_draw", "Ardoise plays on")
        if row.draw_offer == other(side):
            return await self._finish(row, "draw", "agreed")
        if row.draw_offer == side:
            raise DomainError("rithmo.draw_already_offered", "you already offered a draw")
        await self.db.rithmo.update_game(row.game_id, row.version, draw_offer=side)
        return side

    def check_draw_answer(self, row: RithmoGame, ply: int) -> str:
        """The side that offered the draw being answered on a message of turn ``ply``."""
        require_active(row)
        _same_version(ply, len(row.turns))
        if row.draw_offer is None:
            raise DomainError("rithmo.no_draw_offer", "no draw is on offer")
        return row.draw_offer

    async def answer_draw(self, row: RithmoGame, ply: int, accept: bool) -> Ended | None:
        """Accept the offer (the game ends) or decline/withdraw it (the game goes on)."""
        self.check_draw_answer(row, ply)
        if accept:
            return await self._finish(row, "draw", "agreed")
        await self.db.rithmo.update_game(row.game_id, row.version, draw_offer=None)
        return None

    # the clock -------------------------------------------------------------------------

    async def overdue(self, now: datetime | None = None, owns: Owner = every_server
                      ) -> list[Warned | Ended]:
        """Warn each player past their time (once: a grace follows), and forfeit the games whose
        grace is over; what happened, game by game (a game that moved meanwhile is left). Only
        the games of the servers this process ``owns`` (its shards'): each game once."""
        now = now or utcnow()
        done: list[Warned | Ended] = []
        for late in await self.db.games.overdue(now):
            if late.game != "rithmo" or not owns(late.guild_id):
                continue
            try:
                event = await self._overdue(late.game_id, late.warned_at, now)
            except StaleVersion:
                continue  # the player moved meanwhile
            except Exception:
                log.exception("deadline of Rithmomachia game %s", late.game_id)
                continue
            if event is not None:
                done.append(event)
        return done

    async def _overdue(self, game_id: int, warned_at: datetime | None,
                       now: datetime) -> Warned | Ended | None:
        row = await self.db.rithmo.require_game(game_id)
        if row.status != "active" or row.deadline is None or row.deadline > now:
            return None  # played (or finished) since the list was read
        late_side = row.to_move
        if warned_at is None:
            grace = now + timedelta(seconds=grace_seconds(await self._limit(row.guild_id)))
            if not await self.db.games.mark_warned("rithmo", game_id, grace_deadline=grace,
                                                   now=now):
                return None  # another process warned them a moment ago
            return Warned(row, row.player(late_side), grace)
        return await self._finish(row, other(late_side), "timeout", now=now)

    # bookkeeping -----------------------------------------------------------------------

    async def set_message_id(self, row: RithmoGame, message_id: int) -> bool:
        """Make ``message_id`` the game's message while it is still at ``row``'s version (the
        version stays); False: a turn was played meanwhile."""
        return await self.db.rithmo.set_message_id(row.game_id, message_id,
                                                   if_version=row.version)


def _same_version(clicked: int, current: int) -> None:
    # bot.views.ensure_version's refusal, without Discord.
    if clicked != current:
        raise DomainError("game.stale", "This message is out of date: the game has moved on.",
                          clicked=clicked, current=current)
