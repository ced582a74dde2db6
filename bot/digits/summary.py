"""A finished match summed up for one player, as data: the rounds won, lost and drawn, the best
battle (the won one that cost the other side the most lives), the digit that dealt the most
damage over the match, and the gold the Focus earned.

Read from the match's records only (what was fought, as stored), so that a match saved before
this module existed is summed up the same way.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from bot.digits.battle import BattleResult
from bot.digits.match import Match, RoundRecord

__all__ = ["BestBattle", "MatchSummary", "summarise"]


@dataclass(frozen=True, slots=True)
class BestBattle:
    round: int
    lives_taken: int
    exchanges: int


@dataclass(frozen=True, slots=True)
class MatchSummary:
    won: int
    lost: int
    drawn: int
    best: BestBattle | None  # None when no battle was won
    top_digit: str | None  # the digit's key; None when the player dealt no damage
    top_damage: int
    focus_gold: int


def _side(record: RoundRecord, player: str) -> str | None:
    if record.left == player:
        return "left"
    if record.right == player:
        return "right"
    return None


def damage_by_digit(record: RoundRecord, player: str) -> Counter[str]:
    """The damage each of ``player``'s digits (by key) dealt in the round's battle: a hit is the
    digit standing in its ``from`` cell when its exchange began."""
    side = _side(record, player)
    dealt: Counter[str] = Counter()
    if side is None:
        return dealt
    battle = BattleResult.from_json(record.battle)
    snapshots = battle.snapshots
    for i, exchange in enumerate(battle.log):
        before = snapshots[i][side] if i < len(snapshots) else {}
        for hit in exchange["hits"]:
            unit = before.get(hit["from"]) if hit["side"] == side else None
            if unit is not None:
                dealt[unit["digit"]] += hit["damage"]
    return dealt


def summarise(match: Match, player: str) -> MatchSummary:
    """``player``'s match so far (the whole match once it is over)."""
    won = lost = drawn = 0
    best: BestBattle | None = None
    dealt: Counter[str] = Counter()
    gold = 0
    for record in match.records:
        if _side(record, player) is None:
            continue
        gold += match.settings.income(record.focus.get(player, 0)) - match.settings.base_gold
        dealt.update(damage_by_digit(record, player))
        if record.winner is None:
            drawn += 1
        elif record.winner == player:
            won += 1
            # The most lives taken; a tie goes to the shorter battle, then the earlier round.
            key = (record.lives_lost, -int(record.battle["exchanges"]))
            if best is None or key > (best.lives_taken, -best.exchanges):
                best = BestBattle(record.round, record.lives_lost,
                                  int(record.battle["exchanges"]))
        else:
            lost += 1
    top = max(dealt.items(), key=lambda kv: (kv[1], kv[0]), default=None)
    return MatchSummary(won, lost, drawn, best, top[0] if top and top[1] > 0 else None,
                        top[1] if top else 0, gold)
