"""The battle replay: an animated GIF, one frame for the opening, one (or a few) per exchange,
one for the result. The two slates are drawn as the shop draws one, facing each other
(``images.slate.BattleLayout``): the right player on top, the left below, column c over column c.

The opening frame shows the digits as the battle starts; each digit the opening changed has its
numbers before and after in the band beside it ("ATK 3→2"), and the middle says what each effect
did and why ("Minus 1 → Odd 1: −3 ATK", from the result's "effects": see
``bot.digits.battle.opening_effects``; without them, only the before and after show).

An exchange's frame shows the slates as they stood when the exchange began, with what it did:
an arrow from each hitter to its target labelled with the hit, the HP each target lost ("−4 HP"),
the digits that fell dimmed, framed in red and marked "fell", Carry gains ("+5 ATK"), and a green
arrow for each back digit that moves up. Nothing is drawn over a card: arrows run in the strip
between the front rows and, to or from a back row, in the gaps between the columns; the labels
sit in the band on a card's far side. The numbers on the cards are those after the hits, so the
next frame starts where this one ends.

Where two hitters' arrows would cross (or two hit values would overlap, or a gap would need more
than two lanes), the exchange is shown in several frames: each side's hits, else each hitter's,
else each hit (:func:`exchange_parts`); every frame but the last shows the damage of its own hits
so far, the last the falls and move-ups.

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
from dataclasses import dataclass, replace
from typing import Any

from PIL import Image, ImageDraw

from bot.digits.catalogue import BY_KEY
from images import style as st
from images.cards import CardPainter, Unit, read_slate
from images.slate import BattleLayout, battle_frame, battle_still, side_marker
from images.words import Words

State = dict[str, dict[int, Unit]]
OTHER = {"left": "right", "right": "left"}

OPENING_MS = 4000
EXCHANGE_MS = 2200
PART_MS = 1600
RESULT_MS = 5000


def render_replay(result: Mapping[str, Any], words: Words,
                  names: Sequence[str] = ("Left", "Right")) -> bytes:
    """Animated GIF of a battle: the opening, each exchange, then the final state."""
    frames, durations = replay_frames(result, words, names)
    return encode_gif(frames, durations)


def replay_frames(result: Mapping[str, Any], words: Words, names: Sequence[str]
                  ) -> tuple[list[Image.Image], list[int]]:
    """The frames and how long each shows: the opening, then each exchange (several frames
    when its hits would not read in one), then the final state."""
    layout = BattleLayout()
    painter = CardPainter(words, layout.card_w, layout.card_h)
    states = _states(result)
    log = list(result.get("log") or [])
    total = int(result.get("exchanges", len(log)))
    effects = result.get("effects")
    frames = [_opening_frame(layout, painter, states[0], effects, names, words)]
    durations = [OPENING_MS]
    for i, entry in enumerate(log, start=1):
        before = states[i - 1]
        after = states[i] if i < len(states) else before
        for im, ms in _exchange_frames(layout, painter, entry, before, after, names, i, total,
                                       words):
            frames.append(im)
            durations.append(ms)
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
# Which hits go in one frame, and the path of each


@dataclass(frozen=True, slots=True)
class _Arrow:
    """One hit as drawn: the hitter's side, its path (from the hitter to the target) and where
    its value is written."""

    side: str
    hitter: tuple[str, int]
    points: tuple[tuple[float, float], ...]
    label: str
    label_box: st.Box


_STUB = 12  # the straight part of an arrow where it leaves or reaches a front card
_LANE_SPREAD = 7  # two lanes in one gap: this far either side of its middle
_LABEL_SIZE = 14


def _end_group(layout: BattleLayout, side: str, cell: int, other_col: float
               ) -> tuple[str, str, int]:
    """Where a hit meets the strip on ``side``: a front card's near edge, or for a back card
    the lane in the gap beside it that leads to the strip (the gap towards ``other_col``, the
    column at the other end, so that the path stays short)."""
    if cell <= 4:
        return ("card", side, cell)
    col = cell - 4
    if col == 1:
        gap = 1
    elif col == 4:
        gap = 3
    elif col == 2:
        gap = 2 if other_col > 2 else 1
    else:
        gap = 2 if other_col < 3 else 3
    return ("lane", side, gap)


def _group_x(layout: BattleLayout, group: tuple[str, str, int]) -> float:
    kind, _, n = group
    if kind == "card":
        return layout.column_x(n) + layout.card_w / 2
    return layout.gap_x(n)


def _column(cell: int) -> int:
    return cell if cell <= 4 else cell - 4


def plan_arrows(layout: BattleLayout, hits: Sequence[Mapping[str, Any]]
                ) -> list[_Arrow] | None:
    """The arrows of ``hits`` drawn in one frame, or None when that frame would not read: two
    hitters' arrows crossing, more than two lanes in one gap, or hit values with no room.

    Each arrow joins a card of the bottom side (left) to one of the top side (right) across the
    strip. Where it meets a card's edge (or a lane), the arrows are ordered by where their other
    end is, so that arrows cross only when their columns must (one goes left while another
    goes right); the hits of one hitter leave from one point."""
    ends: list[tuple[tuple[str, str, int], tuple[str, str, int]]] = []
    by_hitter: dict[tuple[str, int], list[int]] = defaultdict(list)
    for i, h in enumerate(hits):
        by_hitter[(h["side"], int(h["from"]))].append(i)
    for h in hits:
        side, frm, to = h["side"], int(h["from"]), int(h["to"])
        targets = [int(hits[j]["to"]) for j in by_hitter[(side, frm)]]
        mean_target = sum(_column(t) for t in targets) / len(targets)
        mine = _end_group(layout, side, frm, mean_target)
        theirs = _end_group(layout, OTHER[side], to, _column(frm))
        ends.append((mine, theirs))

    # The items meeting each group: a hitter once (all its hits leave from one point), each
    # target end once per hit; ordered by the x of their other end, then left's before right's.
    items: dict[tuple[str, str, int], list[tuple[float, int, int, Any]]] = defaultdict(list)
    for hitter, idx in by_hitter.items():
        mine = ends[idx[0]][0]
        other = sum(_group_x(layout, ends[i][1]) for i in idx) / len(idx)
        items[mine].append((other, hitter[0] == "right", hitter[1], ("from", hitter)))
    for i, h in enumerate(hits):
        theirs = ends[i][1]
        other = _group_x(layout, ends[i][0])
        items[theirs].append((other, h["side"] == "right", int(h["from"]), ("to", i)))
    slot: dict[Any, float] = {}
    for group, members in items.items():
        members.sort(key=lambda m: m[:3])
        n = len(members)
        if group[0] == "card":
            x0 = layout.column_x(group[2]) + 16
            span = layout.card_w - 32
            xs = [x0 + span * (k + 1) / (n + 1) for k in range(n)]
        else:
            if n > 2:
                return None
            mid = layout.gap_x(group[2])
            xs = [mid] if n == 1 else [mid - _LANE_SPREAD, mid + _LANE_SPREAD]
        for m, x in zip(members, xs, strict=True):
            slot[m[3]] = x

    arrows: list[_Arrow] = []
    placed: list[st.Box] = []
    for i, h in enumerate(hits):
        side, frm, to = h["side"], int(h["from"]), int(h["to"])
        start = _half_path(layout, side, frm, ends[i][0], slot[("from", (side, frm))])
        end = _half_path(layout, OTHER[side], to, ends[i][1], slot[("to", i)])
        points = (*start, *reversed(end))
        label = str(int(h.get("hit", 0)))
        box = _label_box(layout, side, start[-2], end[-2], label, placed)
        if box is None:
            return None
        placed.append(box)
        arrows.append(_Arrow(side, (side, frm), points, label, box))
    for a, b in itertools.combinations(arrows, 2):
        if a.hitter != b.hitter and _paths_cross(a.points, b.points):
            return None
    return arrows


def _half_path(layout: BattleLayout, side: str, cell: int, group: tuple[str, str, int],
               x: float) -> list[tuple[float, float]]:
    """From a card of ``side`` to the end of its stub in the strip (the card first)."""
    edge = layout.near_y(side, cell) if cell <= 4 else (
        layout.strip_top if side == "right" else layout.strip_bottom)
    inward = 1 if side == "right" else -1  # towards the strip's middle
    stub = (x, edge + inward * _STUB)
    if group[0] == "card":
        return [(x, edge), stub]
    # A back card: from its side edge, across to the lane, along the lane to the strip.
    x0, y0, x1, y1 = layout.cell_box(side, cell)
    cy = (y0 + y1) / 2
    side_x = x1 if x > x1 else x0
    return [(side_x, cy), (x, cy), (x, edge), stub]


def _label_box(layout: BattleLayout, side: str, mine: tuple[float, float],
               theirs: tuple[float, float], label: str, placed: Sequence[st.Box]
               ) -> st.Box | None:
    """Where the hit's value goes: on its arrow, near the hitter, clear of the values already
    placed (a little further along when the first place is taken)."""
    f = st.font(_LABEL_SIZE, True)
    w = f.getlength(label) + 2 * (_LABEL_SIZE // 3) + 2
    h = _LABEL_SIZE + _LABEL_SIZE // 3 + 2
    for frac in (0.2, 0.42, 0.06, 0.6):
        x = mine[0] + (theirs[0] - mine[0]) * frac
        y = mine[1] + (theirs[1] - mine[1]) * frac
        box = (round(x - w / 2), round(y - h / 2), round(x + w / 2), round(y + h / 2))
        if not any(_overlap(box, other, 3) for other in placed):
            return box
    return None


def _overlap(a: st.Box, b: st.Box, margin: int) -> bool:
    return not (a[2] + margin <= b[0] or b[2] + margin <= a[0] or a[3] + margin <= b[1]
                or b[3] + margin <= a[1])


def _paths_cross(a: Sequence[tuple[float, float]], b: Sequence[tuple[float, float]]) -> bool:
    """Whether two polylines cross or touch anywhere."""
    return any(_segments_meet(p, q, r, s)
               for p, q in itertools.pairwise(a) for r, s in itertools.pairwise(b))


def _segments_meet(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float],
                   s: tuple[float, float]) -> bool:
    def orient(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    def on(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> bool:
        return (min(a[0], b[0]) <= c[0] <= max(a[0], b[0])
                and min(a[1], b[1]) <= c[1] <= max(a[1], b[1]))

    d1, d2 = orient(r, s, p), orient(r, s, q)
    d3, d4 = orient(p, q, r), orient(p, q, s)
    if ((d1 > 0) != (d2 > 0) and d1 and d2) and ((d3 > 0) != (d4 > 0) and d3 and d4):
        return True
    return ((d1 == 0 and on(r, s, p)) or (d2 == 0 and on(r, s, q))
            or (d3 == 0 and on(p, q, r)) or (d4 == 0 and on(p, q, s)))


def exchange_parts(layout: BattleLayout, hits: Sequence[Mapping[str, Any]]
                   ) -> list[tuple[list[Mapping[str, Any]], list[_Arrow]]]:
    """The frames of one exchange, each with its hits and their arrows: all the hits in one
    frame when they read so; else each side's hits in a frame of their own; else each
    hitter's; at worst one frame per hit."""
    whole = plan_arrows(layout, hits)
    if whole is not None:
        return [(list(hits), whole)]
    parts: list[tuple[list[Mapping[str, Any]], list[_Arrow]]] = []
    for side in ("left", "right"):
        mine = [h for h in hits if h["side"] == side]
        if not mine:
            continue
        planned = plan_arrows(layout, mine)
        if planned is not None:
            parts.append((mine, planned))
            continue
        by_hitter: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
        for h in mine:
            by_hitter[int(h["from"])].append(h)
        for group in by_hitter.values():
            planned = plan_arrows(layout, group)
            if planned is not None:
                parts.append((group, planned))
            else:
                parts.extend(([h], plan_arrows(layout, [h]) or []) for h in group)
    return parts


# ---------------------------------------------------------------------------------------------
# Drawing


def _exchange_frames(layout: BattleLayout, painter: CardPainter, entry: Mapping[str, Any],
                     before: State, after: State, names: Sequence[str], n: int, total: int,
                     words: Words) -> list[tuple[Image.Image, int]]:
    hits = list(entry.get("hits") or [])
    falls = list(entry.get("falls") or [])
    moves = list(entry.get("moves") or [])
    parts = exchange_parts(layout, hits) if hits else [([], [])]
    mid = _mid_state(entry, before, after)
    frames: list[tuple[Image.Image, int]] = []
    shown: list[Mapping[str, Any]] = []
    status = words("exchange_of", n=n, total=total)
    for k, (these, arrows) in enumerate(parts):
        shown += these
        last = k == len(parts) - 1
        state = mid if last else _hit_state(before, shown)
        sub = words("replay.at_once")
        if len(parts) > 1:
            sub = f"{words('replay.part', n=k + 1, total=len(parts))} · {sub}"
        im, d = battle_frame(layout, painter, state["left"], state["right"], names, status,
                             sub, standing=(len(after["left"]), len(after["right"])) if last
                             else None)
        _draw_exchange(im, d, layout, arrows, these, falls if last else [],
                       moves if last else [], words)
        _caption(d, layout, these if len(parts) > 1 else hits, falls if last else [],
                 moves if last else [], before, words)
        frames.append((im, (EXCHANGE_MS if len(parts) == 1 else PART_MS)
                       + 120 * min(8, len(these))))
    return frames


def _hit_state(before: State, hits: Sequence[Mapping[str, Any]]) -> State:
    """The digits as they stood when the exchange began, with the damage of ``hits`` taken."""
    state: State = {side: dict(units) for side, units in before.items()}
    for hit in hits:
        side, cell = OTHER[hit["side"]], int(hit["to"])
        unit = state[side].get(cell)
        if unit is None:
            continue
        dmg = int(hit.get("damage", 0))
        absorbed = max(0, int(hit.get("hit", 0)) - dmg) if unit.shield else 0
        state[side][cell] = replace(unit, hp=unit.hp - dmg, shield=max(0, unit.shield - absorbed))
    return state


def _draw_exchange(im: Image.Image, d: ImageDraw.ImageDraw, layout: BattleLayout,
                   arrows: Sequence[_Arrow], hits: Sequence[Mapping[str, Any]],
                   falls: Sequence[Mapping[str, Any]], moves: Sequence[Mapping[str, Any]],
                   words: Words) -> None:
    fell = {(f["side"], int(f["cell"])) for f in falls}
    for side, cell in fell:
        _fallen(im, d, layout, side, cell)
    for a in arrows:
        st.arrow(d, a.points, st.SIDE[a.side], width=4, head=13, outline=st.SLATE)
    for a in arrows:
        x0, y0, x1, y1 = a.label_box
        d.rounded_rectangle(a.label_box, radius=(y1 - y0) // 2, fill=st.SIDE[a.side],
                            outline=st.SLATE, width=2)
        st.text(d, ((x0 + x1) / 2, (y0 + y1) / 2 + 1), a.label, st.font(_LABEL_SIZE, True),
                st.INK if a.side == "right" else st.PAPER, "mm")
    for m in moves:
        _move_up(d, layout, m["side"], int(m["from"]), int(m["to"]))
    moved_into = {(m["side"], int(m["to"])) for m in moves}
    damage: dict[tuple[str, int], int] = defaultdict(int)
    for h in hits:
        damage[(OTHER[h["side"]], int(h["to"]))] += int(h.get("damage", 0))
    gains = {(f["side"], int(f["gives"]["to"])): int(f["gives"]["atk"])
             for f in falls if f.get("gives")}
    for key in sorted(set(damage) | fell | set(gains)):
        pills: list[tuple[str, st.Colour, st.Colour]] = []
        if key in damage:
            dmg = damage[key]
            pills.append((f"−{dmg} {words('hp')}", st.DAMAGE, st.PAPER) if dmg > 0
                         else (f"0 {words('hp')}", st.SLATE_LINE, st.CHALK))
        if key in fell:
            pills.append((f"✕ {words('fell')}", st.PAPER, st.DAMAGE))
        if key in gains:
            pills.append((f"+{gains[key]} {words('atk')}", st.GOOD, st.PAPER))
        band_pills(d, layout, key[0], key[1], pills, room_left=key in moved_into)


def band_pills(d: ImageDraw.ImageDraw, layout: BattleLayout, side: str, cell: int,
               pills: Sequence[tuple[str, st.Colour, st.Colour]], room_left: bool = False
               ) -> None:
    """Labels in the band on a card's far side, left to right, smaller when they would not
    fit (``room_left``: leave the left end to a move-up arrow)."""
    if not pills:
        return
    x0, y0, x1, y1 = layout.band(side, cell)
    left = x0 + (30 if room_left else 2)
    for size in (14, 13, 12, 11, 10, 9):
        f = st.font(size, True)
        pad = max(3, size // 3)
        widths = [f.getlength(s) + 2 * pad for s, _, _ in pills]
        if sum(widths) + 4 * (len(pills) - 1) <= x1 - left or size == 9:
            break
    x = float(left)
    for (s, fill, ink), w in zip(pills, widths, strict=True):
        st.pill(d, (x, (y0 + y1) / 2), s, size, fill, ink, anchor="lm", outline=st.SLATE)
        x += w + 4


def _move_up(d: ImageDraw.ImageDraw, layout: BattleLayout, side: str, frm: int, to: int
             ) -> None:
    """A green arrow in the gap between the two rows, at the left of the column."""
    back = layout.cell_box(side, frm)
    front = layout.cell_box(side, to)
    x = front[0] + 15
    if side == "left":
        points = [(x, back[1] + 1), (x, front[3])]
    else:
        points = [(x, back[3] - 1), (x, front[1])]
    st.arrow(d, points, st.GOOD, width=6, head=12, outline=st.SLATE)


def _fallen(im: Image.Image, d: ImageDraw.ImageDraw, layout: BattleLayout, side: str,
            cell: int) -> None:
    """A digit that fell: its card dimmed and framed in red; its numbers stay readable (the
    word "fell" is written in its band)."""
    box = layout.cell_box(side, cell)
    region = im.crop(box)
    veil = Image.new("RGB", region.size, st.SLATE)
    im.paste(Image.blend(region, veil, 0.4), box[:2])
    st.rounded(d, box, 8, outline=st.DAMAGE, width=4)


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
    _footer_text(d, layout, " · ".join(parts))


def _footer_text(d: ImageDraw.ImageDraw, layout: BattleLayout, s: str) -> None:
    y0 = layout.height - layout.footer_h
    st.text_in_box(d, (layout.margin, y0 + 2, layout.width - layout.margin,
                       layout.height - 4), s, 15, st.CHALK, min_size=10)


# ---------------------------------------------------------------------------------------------
# The opening


def _opening_frame(layout: BattleLayout, painter: CardPainter, state: State,
                   effects: Sequence[Mapping[str, Any]] | None, names: Sequence[str],
                   words: Words) -> Image.Image:
    """The slates as the battle starts, each digit the opening changed with its numbers before
    and after in its band, and in the middle what each effect did ("Minus 1 → Odd 1: −3 ATK")."""
    im, d = battle_frame(layout, painter, state["left"], state["right"], names,
                         words("opening"), words("replay.opening_sub"))
    for side in ("left", "right"):
        for cell, unit in sorted(state[side].items()):
            kind = unit.kind
            pills = []
            atk0, hp0 = kind.atk(unit.level), kind.hp(unit.level)
            if unit.atk != atk0:
                pills.append((f"{words('atk')} {atk0}→{unit.atk}", st.HIGHLIGHT, st.INK))
            if unit.hp != hp0:
                pills.append((f"{words('hp')} {hp0}→{unit.hp}", st.HIGHLIGHT, st.INK))
            if unit.shield:
                pills.append((f"{words('shield')} {unit.shield}", st.SHIELD, st.PAPER))
            band_pills(d, layout, side, cell, pills)
    lines: dict[str, list[str]] = {"left": [], "right": []}
    for e in effects or []:
        lines[e["side"]].append(_effect_text(e, state, words))
    if effects is None:
        changed = any(True for side in state for u in state[side].values()
                      if (u.atk, u.hp) != (u.kind.atk(u.level), u.kind.hp(u.level)) or u.shield)
        if not changed:
            lines["left"] = [words("replay.no_effect")]
    elif not effects:
        lines["left"] = [words("replay.no_effect")]
    half = layout.strip_h / 2
    for side, top in (("right", layout.strip_top), ("left", layout.strip_top + half)):
        if not lines[side]:
            continue
        box = (layout.margin + 30, round(top + 4), layout.width - layout.margin,
               round(top + half - 4))
        side_marker(d, side, layout.margin + 10, (box[1] + box[3]) / 2, 8)
        text = " · ".join(lines[side])
        rows, f, lh = st.fit_paragraph(text, box[2] - box[0], box[3] - box[1], 14, 9)
        y = (box[1] + box[3]) / 2 - lh * len(rows) / 2
        for i, row in enumerate(rows):
            st.text(d, (box[0], y + i * lh), row, f, st.CHALK, "la")
    _legend(d, layout, words)
    return im


def _effect_text(effect: Mapping[str, Any], state: State, words: Words) -> str:
    """"Plus 5 → Odd 1: +2 ATK", or for a digit that changes itself "Abacus 2: +4 ATK"."""
    colon = words("colon")
    digit = effect["digit"]
    who = f"{BY_KEY[digit].name(words.lang)} {effect['cell']}"
    target = effect.get("target") or {}
    changes = []
    for key, word in (("atk", "atk"), ("hp", "hp"), ("shield", "shield")):
        v = int(effect.get(key, 0))
        if v:
            changes.append(f"{'+' if v > 0 else '−'}{abs(v)} {words(word)}")
    change = " ".join(changes)
    t_side, t_cell = target.get("side", effect["side"]), int(target.get("cell", effect["cell"]))
    if (t_side, t_cell) == (effect["side"], int(effect["cell"])):
        return f"{who}{colon}{change}"
    unit = state[t_side].get(t_cell)
    whom = f"{unit.kind.name(words.lang)} {t_cell}" if unit else str(t_cell)
    return f"{who} → {whom}{colon}{change}"


def _legend(d: ImageDraw.ImageDraw, layout: BattleLayout, words: Words) -> None:
    """The opening frame's footer: how to read the frames that follow."""
    y = layout.height - layout.footer_h / 2
    f = st.font(14)
    x: float = layout.margin + 4
    st.arrow(d, [(x, y), (x + 34, y)], st.SIDE["left"], width=4, head=12)
    x += 40
    st.text(d, (x, y), words("hit"), f, st.CHALK, "lm")
    x += f.getlength(words("hit")) + 18
    box = st.pill(d, (x, y), f"−4 {words('hp')}", 13, st.DAMAGE, st.PAPER, anchor="lm")
    x = box[2] + 6
    label = words("hp_lost")
    st.text(d, (x, y), label, f, st.CHALK, "lm")
    x += f.getlength(label) + 18
    box = st.pill(d, (x, y), f"✕ {words('fell')}", 13, st.INK, st.PAPER, anchor="lm",
                  outline=st.DAMAGE)
    x = box[2] + 18
    st.arrow(d, [(x + 6, y + 10), (x + 6, y - 10)], st.GOOD, width=6, head=10)
    x += 18
    st.text(d, (x, y), words("moves_up"), f, st.CHALK, "lm")
