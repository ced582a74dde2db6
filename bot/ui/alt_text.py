"""What each picture the bot posts shows, in words: the description (alt text) of its
``discord.File``, which screen readers say and Discord shows when the picture does not load.

One sentence or two in the member's language: for a battle, who played, who won and the score;
for a shop or a slate, whose, the round and the gold; for a board, the game, whose turn and the
last move. Discord keeps at most 1,024 characters of a description: :func:`cut` keeps within.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.digits.catalogue import BY_KEY
from bot.i18n import t

#: Discord's limit on an attachment's description.
MAX_DESCRIPTION = 1024


def cut(text: str, limit: int = MAX_DESCRIPTION) -> str:
    """``text`` within Discord's limit, an ellipsis where it was cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def battle(round_: int, names: Sequence[str], battle_json: Mapping[str, Any],
           lives: Sequence[int], lang: str) -> str:
    """The replay of a round's battle: ``names`` and ``lives`` (after the battle) of the left
    and right sides, the battle engine's result JSON."""
    left, right = names
    exchanges = int(battle_json.get("exchanges", 0))
    survivors = battle_json.get("survivors") or {}
    standing = [len(survivors.get("left") or {}), len(survivors.get("right") or {})]
    count = t("alt.exchanges", lang, count=exchanges)
    winner = battle_json.get("winner")
    if winner in ("left", "right"):
        won = t("alt.battle.won", lang, winner=names[0 if winner == "left" else 1],
                exchanges=count)
    else:
        won = t("alt.battle.draw", lang, exchanges=count)
    return cut(" ".join([
        t("alt.battle.who", lang, round=round_, left=left, right=right), won,
        t("alt.battle.score", lang, left=left, right=right,
          left_digits=t("alt.digits", lang, count=standing[0]),
          right_digits=t("alt.digits", lang, count=standing[1]),
          left_lives=lives[0], right_lives=lives[1])]))


def slate_cells(slate: Mapping[str, Any], lang: str) -> str:
    """"cell 1: Odd N2, cell 5: Plus N1" (or "empty") for a slate JSON."""
    cells = []
    for cell in sorted(slate, key=int):
        piece = slate[cell]
        if not piece:
            continue
        name = piece["digit"] if isinstance(piece, Mapping) else str(piece)
        level = int(piece.get("level", 1)) if isinstance(piece, Mapping) else 1
        kind = BY_KEY.get(name)
        cells.append(t("alt.slate.cell", lang, cell=cell,
                       digit=kind.name(lang) if kind else name, level=level))
    return ", ".join(cells) if cells else t("alt.slate.empty", lang)


def shop(name: str, round_: int, gold: int, lives: int, offers: Sequence[Any],
         lang: str) -> str:
    """The shop picture: whose, the round, the gold and lives, the offers."""
    shown = []
    for offer in offers:
        if not offer:
            continue
        kind = BY_KEY.get(str(offer["digit"]))
        label = kind.name(lang) if kind else str(offer["digit"])
        if offer.get("frozen"):
            label = t("alt.shop.frozen", lang, digit=label)
        shown.append(label)
    return cut(t("alt.shop.text", lang, name=name, round=round_,
                 gold=t("alt.gold", lang, count=gold), lives=t("alt.lives", lang, count=lives),
                 offers=", ".join(shown) if shown else t("alt.shop.no_offer", lang)))


def slate(name: str, round_: int, gold: int, slate_json: Mapping[str, Any], lang: str) -> str:
    """The slate picture: whose, the round, the gold, each digit in its cell."""
    return cut(t("alt.slate.text", lang, name=name, round=round_,
                 gold=t("alt.gold", lang, count=gold), cells=slate_cells(slate_json, lang)))


def board(names: Mapping[str, str], to_move: str | None, last_turn: Mapping[str, Any] | None,
          flipped: bool, lang: str) -> str:
    """A Rithmomachia board: the players, whose turn (None when the game is over), the last
    move and what it took."""
    parts = [t("alt.board.who", lang, white=names["white"], black=names["black"])]
    if flipped:
        parts.append(t("alt.board.flipped", lang))
    if to_move in ("white", "black"):
        parts.append(t("alt.board.to_move", lang, name=names[to_move],
                       side=t(f"rithmo.side.{to_move}", lang)))
    else:
        parts.append(t("alt.board.over", lang))
    if last_turn and last_turn.get("to"):
        if last_turn.get("from"):
            move = t("alt.board.moved", lang, frm=last_turn["from"], to=last_turn["to"])
        else:
            move = t("alt.board.dropped", lang, to=last_turn["to"])
        taken = list(last_turn.get("captured") or [])
        if taken:
            move += " " + t("alt.board.took", lang, squares=", ".join(taken))
        parts.append(move)
    return cut(" ".join(parts))


def ranking(title: str, rows: Sequence[Mapping[str, Any]], lang: str) -> str:
    """A ranking picture: its title, then the first rows ("1. Inès 6"), best first."""
    shown = [t("alt.ranking.row", lang, rank=r.get("rank", i + 1), name=r.get("name", "?"),
               score=r.get("score", "")) for i, r in enumerate(rows[:10])]
    return cut(t("alt.ranking.text", lang, title=title,
                 rows="; ".join(shown) if shown else t("alt.ranking.nobody", lang)))
