"""The battle replay: an animated GIF, one frame for the opening, one per exchange, one for the
result.

An exchange's frame shows the slates as they stood when the exchange began, with what it did drawn
on them: an arrow from each hitter to its target labelled with the hit, the HP each target lost in
a badge (−4), the digits that fell dimmed and crossed out, and a green arrow for each back digit
that moves up. The numbers on the cards are those after the hits (ATK gains from a Carry
included), so the next frame starts where this one ends.

A Carry that falls and gives its ATK shows as a green "+5 ATK" badge on the digit that gains it.

The states come from the result's "snapshots" (index 0: after the opening; index i: after
exchange i). Without snapshots (``to_json()`` without ``full``), they are rebuilt from the log,
exactly: HP from the damage; shields from hit − damage (only a Square has a shield, and a Square is
neither a Zero nor a Modulo, so its shield took all the hit that its HP did not); ATK from the
Carries' "gives"; cells from the falls and moves.
"""

from __future__ import annotations

import io
import itertools
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from PIL import Image, ImageDraw

from images import style as st
from images.cards import CardPainter, Unit, read_slate
from images.slate import BattleLayout, battle_frame, battle_still
from images.words import Words

State = dict[str, dict[int, Unit]]
OTHER = {"left": "right", "right": "left"}

OPENING_MS = 2500
EXCHANGE_MS = 2200
RESULT_MS = 5000


def render_replay(result: Mapping[str, Any], words: Words,
                  names: Sequence[str] = ("Left", "Right")) -> bytes:
    """Animated GIF of a battle: the opening, each exchange, then the final state."""
    frames, durations = replay_frames(result, words, names)
    return encode_gif(frames, durations)


def replay_frames(result: Mapping[str, Any], words: Words, names: Sequence[str]
                  ) -> tuple[list[Image.Image], list[int]]:
    layout = BattleLayout()
    painter = CardPainter(words, layout.card_w, layout.card_h)
    states = _states(result)
    log = list(result.get("log") or [])
    total = int(result.get("exchanges", len(log)))
    frames: list[Image.Image] = []
    durations: list[int] = []

    im, d = battle_frame(layout, painter, states[0]["left"], states[0]["right"], names,
                         words("opening"))
    _legend(d, layout, words)
    frames.append(im)
    durations.append(OPENING_MS)

    for i, entry in enumerate(log, start=1):
        before = states[i - 1]
        after = states[i] if i < len(states) else before
        frames.append(_exchange_frame(layout, painter, entry, before, after, names, i, total,
                                      words))
        durations.append(EXCHANGE_MS + 120 * min(8, len(entry.get("hits") or [])))

    frames.append(battle_still(result, words, names, layout, painter))
    durations.append(RESULT_MS)
    return frames, durations


def encode_gif(frames: Sequence[Image.Image], durations: Sequence[int]) -> bytes:
    """A looping GIF, every frame in the pictures' one palette (no dithering: flat colours and
    crisp text compress best). Pillow stores only the part of each frame that changed."""
    mapped = [st.paletted(f) for f in frames]
    buf = io.BytesIO()
    mapped[0].save(buf, format="GIF", save_all=True, append_images=mapped[1:],
                   duration=list(durations), loop=0, disposal=1, optimize=False)
    return buf.getvalue()


# ---------------------------------------------------------------------------------------------
# States


def _states(result: Mapping[str, Any]) -> list[State]:
    snaps = result.get("snapshots")
    if snaps:
        return [{"left": read_slate(s.get("left")), "right": read_slate(s.get("right"))}
                for s in snaps]
    return rebuild_states(result)


def rebuild_states(result: Mapping[str, Any]) -> list[State]:
    """The states after the opening and after each exchange, rebuilt from the log (see the module
    docstring for what this cannot know)."""
    opening = result.get("opening") or {}
    state: State = {"left": read_slate(opening.get("left")),
                    "right": read_slate(opening.get("right"))}
    states = [state]
    for entry in result.get("log") or []:
        nxt = {side: dict(units) for side, units in state.items()}
        for hit in entry.get("hits") or []:
            target_side = OTHER[hit["side"]]
            cell = int(hit["to"])
            unit = nxt[target_side].get(cell)
            if unit is None:
                continue
            dmg = int(hit.get("damage", 0))
            absorbed = max(0, int(hit.get("hit", 0)) - dmg) if unit.shield else 0
            nxt[target_side][cell] = replace(unit, hp=unit.hp - dmg,
                                             shield=max(0, unit.shield - absorbed))
        for fall in entry.get("falls") or []:
            nxt[fall["side"]].pop(int(fall["cell"]), None)
        for fall in entry.get("falls") or []:
            gives = fall.get("gives")
            receiver = nxt[fall["side"]].get(int(gives["to"])) if gives else None
            if gives and receiver is not None:
                nxt[fall["side"]][int(gives["to"])] = replace(
                    receiver, atk=receiver.atk + int(gives["atk"]))
        for move in entry.get("moves") or []:
            unit = nxt[move["side"]].pop(int(move["from"]), None)
            if unit is not None:
                nxt[move["side"]][int(move["to"])] = unit
        states.append(nxt)
        state = nxt
    return states


def _mid_state(entry: Mapping[str, Any], before: State, after: State) -> State:
    """Every digit in the cell it held when the exchange began, with its numbers after the hits:
    from the next state for the digits that stand (a digit that moved up is found in the cell it
    moved to), from the damage for the digits that fell."""
    fell = {(f["side"], int(f["cell"])) for f in entry.get("falls") or []}
    moved = {(m["side"], int(m["from"])): int(m["to"]) for m in entry.get("moves") or []}
    damage: dict[tuple[str, int], int] = defaultdict(int)
    absorbed: dict[tuple[str, int], int] = defaultdict(int)
    for hit in entry.get("hits") or []:
        key = (OTHER[hit["side"]], int(hit["to"]))
        damage[key] += int(hit.get("damage", 0))
        absorbed[key] += max(0, int(hit.get("hit", 0)) - int(hit.get("damage", 0)))
    mid: State = {"left": {}, "right": {}}
    for side in ("left", "right"):
        for cell, unit in before[side].items():
            key = (side, cell)
            if key in fell:
                shield = max(0, unit.shield - absorbed[key]) if unit.shield else 0
                mid[side][cell] = replace(unit, hp=unit.hp - damage[key], shield=shield)
            else:
                now = after[side].get(moved.get(key, cell))
                mid[side][cell] = now if now is not None else unit
    return mid


# ---------------------------------------------------------------------------------------------
# Drawing an exchange


def _exchange_frame(layout: BattleLayout, painter: CardPainter, entry: Mapping[str, Any],
                    before: State, after: State, names: Sequence[str], n: int, total: int,
                    words: Words) -> Image.Image:
    mid = _mid_state(entry, before, after)
    im, d = battle_frame(layout, painter, mid["left"], mid["right"], names,
                         words("exchange_of", n=n, total=total),
                         standing=(len(after["left"]), len(after["right"])))
    hits = list(entry.get("hits") or [])
    falls = list(entry.get("falls") or [])
    moves = list(entry.get("moves") or [])

    for f in falls:
        _fallen(im, d, layout, f["side"], int(f["cell"]), words)

    # Arrows first, then the labels and badges on top of every arrow.
    by_attacker: dict[tuple[str, int], list[Mapping[str, Any]]] = defaultdict(list)
    for h in hits:
        by_attacker[(h["side"], int(h["from"]))].append(h)
    labels: list[tuple[tuple[float, float], str, str]] = []
    for (side, cell), group in by_attacker.items():
        label_at: tuple[float, float] | None = None
        for h in group:
            path = _hit_path(layout, side, cell, int(h["to"]), before)
            st.arrow(d, path, st.SIDE[side], width=4, head=15, outline=st.SLATE)
            if label_at is None:
                label_at = _label_point(layout, side, path)
        values = sorted({int(h.get("hit", 0)) for h in group})
        if label_at is not None:
            labels.append((label_at, "/".join(map(str, values)), side))
    for (x, y), s, side in labels:
        st.pill(d, (x, y), s, 15, st.SIDE[side], st.INK if side == "right" else st.PAPER,
                outline=st.SLATE)

    damage: dict[tuple[str, int], int] = defaultdict(int)
    for h in hits:
        damage[(OTHER[h["side"]], int(h["to"]))] += int(h.get("damage", 0))
    gainers = {(f["side"], int(f["gives"]["to"])) for f in falls if f.get("gives")}
    for (side, cell), dmg in damage.items():
        # Astride the top edge, between the tier pips and the level: it hides neither. Further
        # right when a Carry's gain takes the left of that edge.
        x0, y0, x1, _ = layout.cell_box(side, cell)
        at = (x0 + (x1 - x0) * (0.74 if (side, cell) in gainers else 0.55), y0 - 7)
        if dmg > 0:
            st.pill(d, at, f"−{dmg}", 17, st.DAMAGE, st.PAPER, anchor="mt", outline=st.PAPER)
        else:
            st.pill(d, at, "0", 17, st.SLATE_LIGHT, st.CHALK, anchor="mt", outline=st.CHALK)

    for f in falls:
        gives = f.get("gives")
        if gives:
            x0, y0, x1, _ = layout.cell_box(f["side"], int(gives["to"]))
            # Left of the damage badge's place, so that both can show.
            st.pill(d, (x0 + 4, y0 - 7), f"+{int(gives['atk'])} {words('atk')}", 15,
                    st.GOOD, st.PAPER, anchor="lt", outline=st.PAPER)

    for m in moves:
        side = m["side"]
        a = layout.cell_box(side, int(m["from"]))
        b = layout.cell_box(side, int(m["to"]))
        # Along the cards' bottom edge, where it hides the least.
        y = a[3] + 1
        xa = (a[0] + a[2]) / 2
        xb = (b[0] + b[2]) / 2
        st.arrow(d, [(xa, y), (xb, y)], st.GOOD, width=9, head=24, outline=st.PAPER)

    _caption(d, layout, hits, falls, moves, before, words)
    return im


def _fallen(im: Image.Image, d: ImageDraw.ImageDraw, layout: BattleLayout, side: str,
            cell: int, words: Words) -> None:
    box = layout.cell_box(side, cell)
    region = im.crop(box)
    veil = Image.new("RGB", region.size, st.SLATE)
    im.paste(Image.blend(region, veil, 0.55), box[:2])
    x0, y0, x1, y1 = box
    st.cross(d, (x0 + 14, y0 + 10, x1 - 14, y1 - 10), st.DAMAGE, width=7)
    st.pill(d, ((x0 + x1) / 2, y1 - 6), f"✕ {words('fell')}", 13, st.INK, st.PAPER,
            anchor="mb")


def _hit_path(layout: BattleLayout, side: str, cell: int, target: int, before: State
              ) -> list[tuple[float, float]]:
    """From the hitter to its target. A front hitter leaves from its inner edge; a reach hitter
    from the back leaves by the gap beside its row, over its own front cell. A target in the
    back row behind a standing front digit (a Splitter's second half) is reached the same way,
    so that no arrow hides a card's numbers."""
    dy = -11 if side == "left" else 11
    sign = 1 if side == "left" else -1  # towards the opponent
    src = layout.cell_box(side, cell)
    dst = layout.cell_box(OTHER[side], target)
    inner_src = src[2] if side == "left" else src[0]
    inner_dst = dst[0] if side == "left" else dst[2]
    sy = (src[1] + src[3]) / 2 + dy
    ty = (dst[1] + dst[3]) / 2 + dy
    path: list[tuple[float, float]] = []
    if cell <= 4:
        path.append((inner_src, sy))
    else:
        gy = _gap_y(layout, src)
        front = layout.cell_box(side, cell - 4)
        path += [(inner_src - sign * 20, src[1] if gy < src[1] else src[3]),
                 (inner_src - sign * 20, gy),
                 ((front[2] if side == "left" else front[0]) + sign * 8, gy)]
    target_front = target - 4
    blocked = target > 4 and target_front in before[OTHER[side]]
    if blocked:
        front = layout.cell_box(OTHER[side], target_front)
        gy = _gap_y(layout, dst)
        edge = front[0] if side == "left" else front[2]
        path += [(edge - sign * 8, gy), ((dst[0] + dst[2]) / 2, gy),
                 ((dst[0] + dst[2]) / 2, dst[1] if gy < dst[1] else dst[3])]
    else:
        path.append((inner_dst, ty))
    return path


def _gap_y(layout: BattleLayout, box: st.Box) -> float:
    """The middle of the row gap next to a card: below it, except for the bottom row."""
    row = round((box[1] - layout.top) / (layout.card_h + layout.row_gap))
    if row < 3:
        return box[3] + layout.row_gap / 2
    return box[1] - layout.row_gap / 2


def _label_point(layout: BattleLayout, side: str, path: Sequence[tuple[float, float]]
                 ) -> tuple[float, float]:
    """Where the hit's value sits: on the arrow, a little way into the centre gap."""
    gap_left = layout.column_x("left", True) + layout.card_w
    gap_right = layout.column_x("right", True)
    x = gap_left + 22 if side == "left" else gap_right - 22
    # Find the segment that crosses x and read the arrow's height there.
    for (ax, ay), (bx, by) in itertools.pairwise(path):
        if min(ax, bx) <= x <= max(ax, bx) and ax != bx:
            return x, ay + (by - ay) * (x - ax) / (bx - ax)
    return path[0]


def _caption(d: ImageDraw.ImageDraw, layout: BattleLayout, hits: Sequence[Mapping[str, Any]],
             falls: Sequence[Mapping[str, Any]], moves: Sequence[Mapping[str, Any]],
             before: State, words: Words) -> None:
    colon = words("colon")
    parts = [f"{words('hits_caption')}{colon}{len(hits)}" if hits else words("no_hits")]
    if falls:
        names = [before[f["side"]][int(f["cell"])].kind.name(words.lang)
                 if int(f["cell"]) in before[f["side"]] else str(f.get("digit", "?"))
                 for f in falls]
        parts.append(f"{words('falls_caption')}{colon}{', '.join(names)}")
    if moves:
        parts.append(f"{words('moves_caption')}{colon}{len(moves)}")
    y0 = layout.height - layout.footer_h
    st.text_in_box(d, (layout.margin, y0 + 4, layout.width - layout.margin,
                       layout.height - 6), " · ".join(parts), 15, st.CHALK, min_size=10)


def _legend(d: ImageDraw.ImageDraw, layout: BattleLayout, words: Words) -> None:
    """The opening frame's footer: how to read the frames that follow."""
    y = layout.height - layout.footer_h / 2
    f = st.font(14)
    x = layout.margin + 4
    st.arrow(d, [(x, y), (x + 34, y)], st.SIDE["left"], width=4, head=12)
    x += 40
    st.text(d, (x, y), words("hit"), f, st.CHALK, "lm")
    x += f.getlength(words("hit")) + 18
    box = st.pill(d, (x, y), "−4", 14, st.DAMAGE, st.PAPER, anchor="lm")
    x = box[2] + 6
    label = words("hp_lost")
    st.text(d, (x, y), label, f, st.CHALK, "lm")
    x += f.getlength(label) + 18
    st.cross(d, (x, y - 8, x + 16, y + 8), st.DAMAGE, width=4)
    x += 22
    st.text(d, (x, y), words("fell"), f, st.CHALK, "lm")
    x += f.getlength(words("fell")) + 18
    st.arrow(d, [(x, y), (x + 34, y)], st.GOOD, width=7, head=16, outline=st.PAPER)
    x += 40
    st.text(d, (x, y), words("moves_up"), f, st.CHALK, "lm")
