"""A match of The 20 Digits: rounds of Focus → gold → shop turn → battle → lives.

Two players (a challenge) or one player against ghosts. Each round, each player:
1. gives the Focus score of the round (0–6): the shop opens with 5 + score gold added to what was
   left (``submit_focus``);
2. shops (``buy``, ``sell``, ``reroll``, ``freeze``, ``unfreeze``, ``move``, ``swap``, ``merge``;
   in the draft variant ``pick`` and ``pass_pick`` instead of buy, reroll and freeze), then
   ``end_turn``.
The players do this independently and in any order (each shop has its own random stream); when
every player has ended the turn, the battle is fought (left = the first player, right = the second
or the ghost, each side's Focus score feeding its Abacus digits), the loser loses lives and the
next round begins, until a side reaches 0 lives or the last round has been fought.

Every refused action raises ``DomainError`` (``match.*``, ``draft.*`` or ``shop.*``) and changes
nothing. The whole state, round records included, goes to JSON and back.

**The shadow** (``Match.new([player], shadow=OddsPlayer)``): a solo match may carry a bot player
that shops each round on a shop of its own exactly as a member would: its own Focus score (drawn
with its seed), 5 + score gold, its own offers (or its own draft row), seeing what a challenger
sees (the member's slates and scores of the rounds fought, never the member's shop of this
round). It takes its turn when the battle comes, every round, and its slate is the ghost met when
the pool brings no ghost of the round; the built-in slates remain the fallback of a solo match
without a shadow (older saved matches). Its shop is part of the match's JSON (key ``"shadow"``,
only when there is one), so the match goes on the same after a save.

Who plays the shadow is the caller's choice, passed in (``shadow``, a :data:`ShadowPlayer`: a seed
gives the player, the match seeds it with its own seed): the bot plays it with the stronger shop
player (:class:`bot.digits.strategy.OddsPlayer`). The match engine knows only the
:class:`ShopPlayer` protocol, so it imports no player: the players build on this module, not the
other way round. The player is not part of the JSON (the shop is): a match read back with
``Match.from_json(data, shadow=...)`` plays on the same as one never saved.

**The level** (``Match.new([player], shadow=..., level="gentle")``, one of
:data:`bot.digits.ghosts.LEVELS`): what the caller says the shadow's player is, kept in the JSON
(key ``"level"``, only when there is one) so that the match is read back with the same player
(``Match.from_json(data, shadows={level: player, ...})``) and shown with its level; the ghosts
drawn from the pool follow it (:func:`bot.digits.ghosts.fits_level`). Who plays each level is
:mod:`bot.digits.levels`'s (measured there), not this module's.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.digits.battle import fight
from bot.digits.ghosts import LEVELS, SHADOW, Ghost, pick_ghost
from bot.digits.shop import FOCUS_MAX, MatchSettings, Shop
from bot.digits.slate import Slate
from bot.domain import DomainError
from bot.formats import FORMAT_KEY, upgrade

__all__ = ["GHOST", "MATCH_FORMAT", "Draft", "Match", "MatchSettings", "RoundRecord",
           "ShadowPlayer", "ShopPlayer", "snake_order"]

GHOST = "ghost"  # the side id of the ghosts in a solo match

#: The version of the match's JSON (``to_json``'s ``"format"``; see :mod:`bot.formats`). 2: a
#: solo match with a shadow says its ``"level"``; 1: the layout of 2026-12 with the field; 0 (no
#: field): the same layout, written before versions.
MATCH_FORMAT = 2


def _level_of_old_shadow(data: dict[str, Any]) -> dict[str, Any]:
    """Format 1 → 2: a shadow of before levels was the stronger player (OddsPlayer), which is the
    strong level's; a match without a shadow has no level."""
    if data.get("shadow") and "level" not in data:
        return {**data, "level": "strong"}
    return data


_UPGRADES = {1: _level_of_old_shadow}


class ShopPlayer(Protocol):
    """What plays a side's shop turn: one action at a time (Focus score, buy, pick, end turn…),
    False when it has nothing to do now."""

    def act(self, match: Match, player: str) -> bool: ...


#: Who plays the shadow: its seed (derived from the match's) gives the player of one shop turn.
ShadowPlayer = Callable[[str], ShopPlayer]


def snake_order(players: list[str], picks: int, round_: int) -> list[str]:
    """The picks of a draft round: snake order, A B B A A B …, each player ``picks`` times.
    The first pick alternates between rounds (A in odd rounds, B in even ones), so neither player
    always picks first. Alone against ghosts, a player makes all its picks in a row."""
    first = players if round_ % 2 == 1 else players[::-1]
    order: list[str] = []
    for i in range(picks):
        order.extend(first if i % 2 == 0 else first[::-1])
    return order


@dataclass(slots=True)
class Draft:
    """The shared row of a draft round and whose pick it is. ``order[turn]`` picks next; a
    picked slot is None."""

    round: int
    row: list[str | None]
    order: list[str]
    turn: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "row": list(self.row), "order": list(self.order),
                "turn": self.turn}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Draft:
        return cls(int(data["round"]), list(data["row"]), [str(p) for p in data["order"]],
                   int(data["turn"]))


@dataclass(slots=True)
class RoundRecord:
    """One round as it was played: what each side fielded with which Focus score, the battle's
    full result, who won it (None for a draw) and the lives after it."""

    round: int
    left: str
    right: str
    focus: dict[str, int]
    slates: dict[str, Slate]
    battle: dict[str, Any]
    winner: str | None
    lives_lost: int
    lives: dict[str, int]
    ghost: Ghost | None = None
    gold_left: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "left": self.left, "right": self.right,
                "focus": dict(self.focus),
                "slates": {k: s.to_json() for k, s in self.slates.items()},
                "gold_left": dict(self.gold_left),
                "ghost": self.ghost.to_json() if self.ghost else None,
                "battle": self.battle, "winner": self.winner, "lives_lost": self.lives_lost,
                "lives": dict(self.lives)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RoundRecord:
        return cls(int(data["round"]), str(data["left"]), str(data["right"]),
                   {k: int(v) for k, v in data["focus"].items()},
                   {k: Slate.from_json(v) for k, v in data["slates"].items()},
                   dict(data["battle"]), data["winner"], int(data["lives_lost"]),
                   {k: int(v) for k, v in data["lives"].items()},
                   Ghost.from_json(data["ghost"]) if data.get("ghost") else None,
                   {k: int(v) for k, v in data.get("gold_left", {}).items()})


class Match:
    """The state of one match. Build it with ``Match.new``; drive it with the player actions."""

    def __init__(self, *, players: list[str], seed: int | str, settings: MatchSettings,
                 round_: int, lives: dict[str, int], shops: dict[str, Shop],
                 focus: dict[str, int], ready: list[str], draft: Draft | None,
                 records: list[RoundRecord], over: bool, winner: str | None,
                 shadow: Shop | None = None, shadow_player: ShadowPlayer | None = None,
                 level: str | None = None) -> None:
        self.players = players
        self.seed = seed
        self.settings = settings
        self.round = round_
        self.lives = lives
        self.shops = shops
        self.focus = focus
        self.ready = ready
        self.draft = draft
        self.records = records
        self.over = over
        self.winner = winner  # a side id, "draw", or None while the match goes on
        self.shadow = shadow  # the shadow's shop (solo matches with a shadow only)
        self.shadow_player = shadow_player  # who plays it (given by the caller, not in the JSON)
        self.level = level  # the shadow's level, as the caller said (LEVELS), or None

    @classmethod
    def new(cls, players: list[str], *, seed: int | str = 0,
            settings: MatchSettings | None = None,
            shadow: ShadowPlayer | None = None, level: str | None = None) -> Match:
        """A match between two players, or one player against ghosts (``shadow``: with a shadow
        played by this player, met when the pool has no ghost of the round; ``level``: the level
        that player plays at, one of ``LEVELS``; see the module's docstring)."""
        settings = settings or MatchSettings()
        players = list(players)
        if not 1 <= len(players) <= 2 or len(set(players)) != len(players) or any(
                not isinstance(p, str) or not p or p == GHOST for p in players):
            raise DomainError("match.bad_players", "a match has one or two different players",
                              players=players)
        if shadow is not None and not callable(shadow):
            # ``shadow=True`` was the flag before the player was passed in.
            raise TypeError(f"shadow is who plays it (a seed gives the player, e.g. OddsPlayer), "
                            f"not {shadow!r}")
        if shadow is not None and len(players) != 1:
            raise ValueError("a shadow plays only in a solo match")
        if level is not None and (shadow is None or level not in LEVELS):
            raise ValueError(f"a level is one of {LEVELS} and goes with a shadow: {level!r}, "
                             f"shadow {shadow!r}")
        sides = [*players, GHOST] if len(players) == 1 else players
        m = cls(players=players, seed=seed, settings=settings, round_=1,
                lives=dict.fromkeys(sides, settings.lives),
                shops={p: Shop(f"{seed}/shop/{i}", settings) for i, p in enumerate(players)},
                focus={}, ready=[], draft=None, records=[], over=False, winner=None,
                shadow=Shop(f"{seed}/shop/{SHADOW}", settings) if shadow is not None
                else None,
                shadow_player=shadow, level=level)
        m._open_round()
        return m

    # -- who and when -----------------------------------------------------------------------

    @property
    def solo(self) -> bool:
        return len(self.players) == 1

    @property
    def sides(self) -> tuple[str, str]:
        """(left, right) in every battle."""
        return (self.players[0], self.players[1] if len(self.players) == 2 else GHOST)

    def opponent(self, player: str) -> str:
        left, right = self.sides
        return right if player == left else left

    def shop(self, player: str) -> Shop:
        self._check_player(player)
        return self.shops[player]

    def stage(self, player: str) -> str:
        """"focus" (waiting for the Focus score), "shop", "ready" (turn ended) or "over"."""
        self._check_player(player)
        if self.over:
            return "over"
        if player not in self.focus:
            return "focus"
        return "ready" if player in self.ready else "shop"

    def picker(self) -> str | None:
        """Whose pick it is in a draft round (None: no pick left, or not a draft match)."""
        d = self.draft
        if d is None or d.turn >= len(d.order):
            return None
        return d.order[d.turn]

    def picks_left(self, player: str) -> int:
        d = self.draft
        if d is None or player in self.ready:
            return 0
        return sum(p == player for p in d.order[d.turn:])

    def _check_player(self, player: str) -> None:
        if player not in self.players:
            raise DomainError("match.unknown_player", f"{player!r} does not play in this match",
                              player=player)

    def _check_over(self) -> None:
        if self.over:
            raise DomainError("match.over", "the match is over")

    def _shopping(self, player: str) -> Shop:
        """The player's shop, if the player may shop now."""
        self._check_player(player)
        self._check_over()
        stage = self.stage(player)
        if stage == "focus":
            raise DomainError("match.focus_first", "the round's Focus comes before the shop",
                              round=self.round)
        if stage == "ready":
            raise DomainError("match.turn_ended", "your shop turn is over for this round",
                              round=self.round)
        return self.shops[player]

    def _private(self, player: str) -> Shop:
        shop = self._shopping(player)
        if self.settings.draft:
            raise DomainError("match.draft_no_shop", "in a draft match, digits come from the "
                              "shared row (pick), not a shop of your own")
        return shop

    # -- the round --------------------------------------------------------------------------

    def _open_round(self) -> None:
        self.focus = {}
        self.ready = []
        if self.settings.draft:
            kinds = self.settings.open_kinds(self.round)
            rng = random.Random(f"{self.seed}/draft/{self.round}")
            self.draft = Draft(self.round, [rng.choice(kinds).key
                                            for _ in range(self.settings.draft_row)],
                               snake_order(self.players, self.settings.draft_picks, self.round))

    def submit_focus(self, player: str, score: int) -> int:
        """The player's Focus score of this round (0–6): opens the shop with 5 + score gold more.
        Returns the gold the player now has."""
        self._check_player(player)
        self._check_over()
        if player in self.focus:
            raise DomainError("match.focus_already", "the Focus of this round is already in",
                              round=self.round)
        if not isinstance(score, int) or isinstance(score, bool) or not 0 <= score <= FOCUS_MAX:
            raise DomainError("match.bad_focus", f"a Focus score is 0 to {FOCUS_MAX}, not "
                              f"{score!r}", score=score)
        self.focus[player] = score
        shop = self.shops[player]
        shop.start_round(self.round, self.settings.income(score),
                         private_offers=not self.settings.draft)
        return shop.gold

    def end_turn(self, player: str, ghost_pool: Iterable[Ghost] = ()) -> RoundRecord | None:
        """End the player's shop turn (in a draft, the player's remaining picks are given up).
        When every player has ended it, the battle is fought (against a ghost from
        ``ghost_pool`` in a solo match) and its record is returned."""
        self._shopping(player)
        if self.shadow is not None and self.shadow_player is None:
            # Checked before anything changes: a bug of the caller, never a rule.
            raise ValueError("this match has a shadow: read it with Match.from_json(data, "
                             "shadow=<its player>)")
        self.ready.append(player)
        self._skip_picks()
        if len(self.ready) < len(self.players):
            return None
        return self._battle(ghost_pool)

    def _battle(self, ghost_pool: Iterable[Ghost]) -> RoundRecord:
        left, right = self.sides
        slates = {left: self.shops[left].slate}
        focus = {left: self.focus[left]}
        ghost: Ghost | None = None
        if right == GHOST:
            # The shadow shops every round, met or not, so that its gold and slate grow as a
            # member's would.
            shade = self._shadow_turn() if self.shadow is not None else None
            ghost = pick_ghost(ghost_pool, self.round,
                               random.Random(f"{self.seed}/ghost/{self.round}"),
                               exclude_owner=left, fallback=shade, level=self.level)
            slates[right], focus[right] = ghost.slate, ghost.focus
        else:
            slates[right], focus[right] = self.shops[right].slate, self.focus[right]
        result = fight(slates[left], slates[right], focus[left], focus[right])
        winner = {"left": left, "right": right}.get(result.winner)
        lost = 0
        if winner is not None:
            loser = right if winner == left else left
            lost = min(self.settings.lives_lost(self.round), self.lives[loser])
            self.lives[loser] -= lost
        record = RoundRecord(self.round, left, right, focus, slates, result.to_json(), winner,
                             lost, dict(self.lives), ghost,
                             {p: self.shops[p].gold for p in self.players})
        self.records.append(record)
        out = [s for s in self.sides if self.lives[s] <= 0]
        if out:
            self.over = True
            self.winner = self.opponent(out[0])
        elif self.round >= self.settings.rounds:
            self.over = True
            if self.lives[left] == self.lives[right]:
                self.winner = "draw"
            else:
                self.winner = left if self.lives[left] > self.lives[right] else right
        if self.over:
            self.draft = None
            self.focus, self.ready = {}, []
        else:
            self.round += 1
            self._open_round()
        return record

    def _shadow_turn(self) -> Ghost:
        """The shadow's shop turn of this round (see the module's docstring): its slate, as a
        ghost of the round with its Focus score."""
        assert self.shadow is not None and self.shadow_player is not None
        member = self.players[0]
        draft = None
        if self.settings.draft:
            # A row of its own, drawn like the member's: all its picks are in a row, as alone.
            rng = random.Random(f"{self.seed}/{SHADOW}/draft/{self.round}")
            kinds = self.settings.open_kinds(self.round)
            draft = Draft(self.round, [rng.choice(kinds).key
                                       for _ in range(self.settings.draft_row)],
                          [GHOST] * self.settings.draft_picks)
        table = _ShadowTable(players=[member, GHOST], seed=f"{self.seed}/{SHADOW}",
                             settings=self.settings, round_=self.round, lives=dict(self.lives),
                             shops={GHOST: self.shadow}, focus={}, ready=[member], draft=draft,
                             records=list(self.records), over=False, winner=None)
        bot = self.shadow_player(f"{self.seed}/{SHADOW}")
        while table.stage(GHOST) != "ready":
            if not bot.act(table, GHOST):
                raise RuntimeError("the shadow is stuck")  # a bug, never a rule
        return Ghost(self.round, self.shadow.slate, table.focus[GHOST], SHADOW)

    # -- the private shop -------------------------------------------------------------------

    def buy(self, player: str, slot: int, cell: int | None = None) -> int:
        return self._private(player).buy(slot, cell)

    def reroll(self, player: str) -> None:
        self._private(player).reroll()

    def freeze(self, player: str, slot: int) -> None:
        self._private(player).freeze(slot)

    def unfreeze(self, player: str, slot: int) -> None:
        self._private(player).unfreeze(slot)

    # -- the slate (both variants) ----------------------------------------------------------

    def sell(self, player: str, cell: int) -> int:
        return self._shopping(player).sell(cell)

    def move(self, player: str, src: int, dst: int) -> None:
        self._shopping(player).move(src, dst)

    def swap(self, player: str, a: int, b: int) -> None:
        self._shopping(player).swap(a, b)

    def merge(self, player: str, src: int, onto: int) -> None:
        self._shopping(player).merge(src, onto)

    # -- the draft --------------------------------------------------------------------------

    def _drafting(self, player: str) -> Draft:
        self._shopping(player)
        if self.draft is None:
            raise DomainError("match.not_draft", "this match has private shops, not a draft")
        if self.picker() != player:
            raise DomainError("draft.not_your_turn", "it is not your pick",
                              picker=self.picker())
        return self.draft

    def pick(self, player: str, slot: int, cell: int | None = None) -> int:
        """Take digit ``slot`` (1 …) of the shared row, at its shop price, into ``cell`` (as a
        buy: first empty cell when None, a merge onto an N1 copy). Returns the cell."""
        d = self._drafting(player)
        if not isinstance(slot, int) or isinstance(slot, bool) or not 1 <= slot <= len(d.row):
            raise DomainError("draft.bad_offer", f"the row has digits 1 to {len(d.row)}, not "
                              f"{slot!r}", slot=slot, offers=len(d.row))
        key = d.row[slot - 1]
        if key is None:
            raise DomainError("draft.no_offer", f"digit {slot} of the row is already taken",
                              slot=slot)
        where = self.shops[player].take(key, cell)
        d.row[slot - 1] = None
        d.turn += 1
        self._skip_picks()
        return where

    def pass_pick(self, player: str) -> None:
        """Give up this pick (no gold, no room, nothing wanted)."""
        d = self._drafting(player)
        d.turn += 1
        self._skip_picks()

    def _skip_picks(self) -> None:
        # A player who ended the turn gives up the picks still to come.
        d = self.draft
        while d is not None and d.turn < len(d.order) and d.order[d.turn] in self.ready:
            d.turn += 1

    # -- records and JSON -------------------------------------------------------------------

    def ghosts(self) -> list[Ghost]:
        """Every slate the players fielded, by round: the ghosts later solo players may meet."""
        return [Ghost(r.round, r.slates[p], r.focus[p], p)
                for r in self.records for p in self.players]

    def record(self) -> dict[str, Any]:
        """The match as it was played, round by round (what the bot stores and replays)."""
        out = {"players": list(self.players), "seed": self.seed,
               "settings": self.settings.to_json(), "over": self.over, "winner": self.winner,
               "lives": dict(self.lives), "rounds": [r.to_json() for r in self.records]}
        if self.level is not None:  # absent otherwise: other matches' records stay as they were
            out["level"] = self.level
        return out

    def summary(self) -> str:
        """The record as readable text, one block per round (for demos and the command line)."""
        return summary(self.record())

    def to_json(self) -> dict[str, Any]:
        """The whole state, to store (``record`` is what was played, for the command line)."""
        data = {FORMAT_KEY: MATCH_FORMAT, **self.record(), "round": self.round,
                "shops": {p: s.to_json() for p, s in self.shops.items()},
                "focus": dict(self.focus), "ready": list(self.ready),
                "draft": self.draft.to_json() if self.draft else None}
        if self.shadow is not None:  # absent otherwise: other matches' JSON stays as it was
            data["shadow"] = self.shadow.to_json()
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, shadow: ShadowPlayer | None = None,
                  shadows: Mapping[str, ShadowPlayer] | None = None) -> Match:
        """The match of :meth:`to_json`; ``shadow`` plays its shadow, if it has one (a match read
        only to be shown needs none), or ``shadows[level]`` for a match at a level that
        ``shadows`` names. An older format is upgraded, a newer one refused
        (``state.too_new``)."""
        data = upgrade(data, "match", MATCH_FORMAT, _UPGRADES)
        level = data.get("level")
        if level is not None and level not in LEVELS:
            raise ValueError(f"a match's level is one of {LEVELS}, not {level!r}")
        if shadows is not None and level is not None and level in shadows:
            shadow = shadows[level]
        settings = MatchSettings.from_json(data["settings"])
        players = [str(p) for p in data["players"]]
        return cls(players=players, seed=data["seed"], settings=settings,
                   round_=int(data["round"]), lives={k: int(v) for k, v in data["lives"].items()},
                   shops={p: Shop.from_json(data["shops"][p], settings) for p in players},
                   focus={k: int(v) for k, v in data["focus"].items()},
                   ready=[str(p) for p in data["ready"]],
                   draft=Draft.from_json(data["draft"]) if data.get("draft") else None,
                   records=[RoundRecord.from_json(r) for r in data["rounds"]],
                   over=bool(data["over"]), winner=data["winner"],
                   shadow=Shop.from_json(data["shadow"], settings) if data.get("shadow")
                   else None, shadow_player=shadow, level=level)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Match) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]  # typeshed: object.__hash__ is a method


class _ShadowTable(Match):
    """The shadow's shop turn, seen as a challenge: the member (the records' left side) is its
    opponent and the shadow sits on the ghost side, so the bot player reads the member's slates and
    scores of the rounds fought as it would a challenger's. Ending the turn fights nothing: the
    solo match fights its own battle."""

    def end_turn(self, player: str, ghost_pool: Iterable[Ghost] = ()) -> RoundRecord | None:
        self._shopping(player)
        self.ready.append(player)
        self._skip_picks()
        return None


def _row(slate: Slate, cells: tuple[int, ...]) -> str:
    return " | ".join(f"{p.key} N{p.level}" if (p := slate[c]) else "·" for c in cells)


def summary(record: Mapping[str, Any]) -> str:
    """A match record (``Match.record()``) as readable text."""
    players = list(record["players"])
    settings = MatchSettings.from_json(record["settings"])
    names = " against ".join(players) if len(players) == 2 else f"{players[0]} against ghosts"
    if record.get("level"):
        names += f" (level {record['level']})"
    lines = [f"Match {names}, seed {record['seed']}: {settings.lives} lives, "
             f"{settings.rounds} rounds at most, "
             f"{'draft' if settings.draft else 'private shops'}"]
    for r in map(RoundRecord.from_json, record["rounds"]):
        sides = (r.left, r.right)
        focus = ", ".join(f"{s} {r.focus[s]}/{FOCUS_MAX}" for s in sides)
        lines.append(f"Round {r.round}: Focus {focus}")
        width = max(len(s) for s in sides)
        for s in sides:
            who = s if s != GHOST or r.ghost is None else (
                "ghost (built-in)" if r.ghost.builtin else "the shadow (bot)" if r.ghost.shadow
                else f"ghost of {r.ghost.owner}")
            gold = f"   ({r.gold_left[s]} gold left)" if s in r.gold_left else ""
            lines.append(f"  {s:<{width}}  front {_row(r.slates[s], (1, 2, 3, 4))}   "
                         f"back {_row(r.slates[s], (5, 6, 7, 8))}{gold}"
                         + (f"   [{who}]" if s == GHOST else ""))
        exchanges = r.battle["exchanges"]
        if r.winner is None:
            outcome = f"draw after {exchanges} exchanges"
        else:
            loser = r.right if r.winner == r.left else r.left
            outcome = (f"{r.winner} wins after {exchanges} exchanges, {loser} loses "
                       f"{r.lives_lost} {'life' if r.lives_lost == 1 else 'lives'}")
        lives = ", ".join(f"{s} {r.lives[s]}" for s in sides)
        lines.append(f"  Battle: {outcome}. Lives: {lives}.")
    if record["over"]:
        lives = ", ".join(f"{s} {n}" for s, n in record["lives"].items())
        end = "a draw" if record["winner"] == "draw" else f"{record['winner']} wins"
        lines.append(f"Result: {end} ({lives} lives).")
    else:
        lines.append("The match goes on.")
    return "\n".join(lines)
