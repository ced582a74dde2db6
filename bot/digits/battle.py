"""The battle engine of The 20 Digits: two slates fight, exchange after exchange.

The rules are those of ``docs/rules/the-20-digits.md`` (the rules page with every ruling
written in). A battle is the opening (six steps) and then at most 12 exchanges; in each exchange
every hitter of both sides picks its target and computes its hit on the state of the start of the
exchange, all hits land at once, then fallen digits leave, Carries give their ATK and back digits
move up.

Two ways in:

- :func:`fight` gives a :class:`BattleResult`: winner, number of exchanges, the slates after the
  opening, the log of every exchange, the survivors, and a snapshot of both slates after the opening
  and after each exchange (what the replay draws). ``fight(..., log=False)`` skips the log and the
  snapshots.
- :func:`outcome` gives only ``(winner, exchanges)``, for the odds simulator's thousands of
  battles.

Both run the very same code; the log is only written when asked for.

How the hot path is built (the odds simulator needs tens of thousands of battles a second): a
fighting digit is a small list of ints (layout below), a side is a list of 8 cells, each ``None``
or a digit, plus an 8-bit mask of its occupied cells; targets come from tables indexed by that
mask. Damage taken during an exchange is held in the digit's ``DMG`` slot and only subtracted when
every hit has been made, so that every hit reads the HP of the start of the exchange. The exchange
loop names kinds and slots by their numbers (CPython reads a literal faster than a global); the
assertions below pin those numbers.
"""

from __future__ import annotations

from typing import Any, TypedDict

from bot.digits.catalogue import BY_KEY, MAX_LEVEL
from bot.digits.slate import Slate

SIDES = ("left", "right")
WINNERS = ("left", "right", "draw")
MAX_EXCHANGES = 12
MAX_FOCUS = 6

# Kind codes, grouped so that the exchange loop settles the common case with one comparison:
#   0–1   digits that may hit several targets;
#   2–7   digits whose hit is not simply their ATK (a bonus, a factor, the target's HP);
#   8–16  digits with nothing special about hitting or being hit; 8–14 act in the opening;
#   17–19 digits that change a hit they take.
(SPLITTER, PI, EVEN, ODD, PRIME, DELTA, FIBO, HALF,
 PLUS, MINUS, ABACUS, AVERAGE, TWIN, POWER, SIGMA, DOUBLE, CARRY,
 ZERO, SQUARE, MODULO) = range(20)
KIND_NAMES = ("Splitter", "Pi", "Even", "Odd", "Prime", "Delta", "Fibo", "Half",
              "Plus", "Minus", "Abacus", "Average", "Twin", "Power", "Sigma", "Double", "Carry",
              "Zero", "Square", "Modulo")
KIND_CODES = {name: code for code, name in enumerate(KIND_NAMES)}
assert set(KIND_NAMES) == set(BY_KEY), "the kind codes must cover the catalogue"

# A fighting digit is a list of ints: [KIND, LEVEL, ATK, HP, SHIELD, HP0, DMG, ARG].
#   HP0: its HP when the opening ended (Delta's "HP lost" counts from it);
#   DMG: damage taken in the current exchange, subtracted when all hits have landed;
#   ARG: Even/Odd/Prime's bonus, Zero's cut (0 for the others).
KIND, LEVEL, ATK, HP, SHIELD, HP0, DMG, ARG = range(8)
Unit = list[int]
Cells = list[Unit | None]  # index 0–3: front cells 1–4; 4–7: back cells 5–8; column = index & 3
CELL_NUMBERS = range(1, 9)  # index + 1

# The numbers the exchange loop writes as literals.
assert tuple(range(9)) == (SPLITTER, PI, EVEN, ODD, PRIME, DELTA, FIBO, HALF, PLUS)
assert tuple(range(14, 20)) == (SIGMA, DOUBLE, CARRY, ZERO, SQUARE, MODULO)
assert tuple(range(8)) == (KIND, LEVEL, ATK, HP, SHIELD, HP0, DMG, ARG)

# Fibonacci factor of Fibo's base hit at exchange e (index e; index 0 unused).
FIB = (0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144)
# HP stays below 50 (16 at most from the table, plus Twin's gain of 3 × 7 allies).
PRIMES = frozenset(n for n in range(2, 100) if all(n % d for d in range(2, n)))

# "Nearest": column c itself, then c − 1, c + 1, c − 2, c + 2, c − 3, c + 3 (left first), skipping
# columns outside 1–4 (here 0–3).
NEAR = tuple(
    tuple(x for d in (0, 1, 2, 3) for x in ((c,) if d == 0 else (c - d, c + d)) if 0 <= x < 4)
    for c in range(4))


def _view(mask: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """How the foe sees a side whose occupied cells are the bits of ``mask`` (bit i = index i):
    ``aim[i]``, the index a hitter standing at index i aims at (the front row while it has a digit,
    else the back row), and ``row``, the indices of the foremost non-empty row (Pi's volley)."""
    front, back = mask & 15, mask >> 4
    row_mask, offset = (front, 0) if front else (back, 4)
    aim = tuple(next((x + offset for x in NEAR[i & 3] if row_mask >> x & 1), -1)
                for i in range(8))
    row = tuple(x + offset for x in range(4) if row_mask >> x & 1)
    return aim, row


VIEW = tuple(_view(mask) for mask in range(256))


class UnitState(TypedDict):
    """A digit on the slate at some moment of the battle, as the log and the images show it."""

    digit: str
    level: int
    atk: int
    hp: int
    shield: int


SideStates = dict[int, UnitState]  # cell (1–8) → digit
BothSides = dict[str, SideStates]  # "left" / "right" → cells


def _prototypes() -> dict[str, tuple[Unit, ...]]:
    """Per digit key, a fresh-digit list per level (index = level; index 0 unused)."""
    protos: dict[str, tuple[Unit, ...]] = {}
    for key, kind in BY_KEY.items():
        code = KIND_CODES[key]
        levels: list[Unit] = [[]]
        for n in range(1, MAX_LEVEL + 1):
            arg = {EVEN: n + 1, ODD: n + 1, PRIME: 2 * n + 1, ZERO: n}.get(code, 0)
            # Step 6 of the opening: nothing in the opening reads a shield, so a Square's shield
            # is the same given now as at the end. HP0 is fixed here too: only Twin's HP changes
            # in the opening, and step 3 moves its HP0 along.
            shield = (n + 1) ** 2 if code == SQUARE else 0
            levels.append([code, n, kind.atk(n), kind.hp(n), shield, kind.hp(n), 0, arg])
        protos[key] = tuple(levels)
    return protos


_PROTO = _prototypes()


_OPENER_KINDS = frozenset(range(PLUS, SIGMA + 1))
Openers = list[tuple[int, Unit]]  # (index, digit) of the digits that act in the opening


def _side(slate: Slate) -> tuple[Cells, int, int, Openers, int]:
    """A slate made ready to fight: its cells of fresh digits; the mask of its occupied cells (bit
    i = index i); the kinds standing in its back row (bit k = kind k); (index, digit) of the
    digits that act in the opening (kinds 8–14), in cell order; and their kinds (bits)."""
    protos, opener_kinds = _PROTO, _OPENER_KINDS
    cells: Cells = [None] * 8
    mask = back = kinds = 0
    openers: Openers = []
    for c, p in enumerate(slate.cells):
        if p is not None:
            u = cells[c] = protos[p.key][p.level].copy()
            mask |= 1 << c
            k = u[0]
            if c > 3:
                back |= 1 << k
            if k in opener_kinds:
                openers.append((c, u))
                kinds |= 1 << k
    return cells, mask, back, openers, kinds


# ----------------------------------------------------------------------------------------------
# The opening
# ----------------------------------------------------------------------------------------------

_STEPS_2_TO_5 = 1 << AVERAGE | 1 << TWIN | 1 << POWER | 1 << SIGMA


Notes = list[tuple[bool, int, bool, int, int, int]]


def _open(left: Cells, right: Cells, left_openers: Openers, right_openers: Openers,
          left_kinds: int, right_kinds: int, left_focus: int, right_focus: int,
          notes: Notes | None = None) -> None:
    """The six opening steps, on both sides; ``*_openers`` are the digits that act in the opening
    and ``*_kinds`` their kinds (from :func:`_side`). Each step reads the state the previous one
    left; within a step every effect is worked out first, then all are applied together.

    ``notes``, when given, receives what each effect did, for the replay to say it:
    ``(side, index of the digit acting, target side, target index, ATK change, HP change)``
    (side True is the right); the battle itself never reads them."""
    _open_additions(left, right, left_openers, right_openers, left_focus, right_focus, notes)
    # Steps 2–5 act within one side, so each side goes through them on its own.
    for own, openers, present, side in ((left, left_openers, left_kinds, False),
                                        (right, right_openers, right_kinds, True)):
        if not present & _STEPS_2_TO_5:
            continue
        if present & 1 << AVERAGE:
            _open_average(own, openers, side, notes)
        if present & 1 << TWIN:
            _open_twins(own, openers, side, notes)
        if present & 1 << POWER:
            _open_power(own, openers, side, notes)
        if present & 1 << SIGMA:
            _open_sigma(own, openers, side, notes)
    # 6. Shields: each Square has (N + 1)², whatever its row: given with the digit (_prototypes).


def _open_additions(left: Cells, right: Cells, left_openers: Openers, right_openers: Openers,
                    left_focus: int, right_focus: int, notes: Notes | None) -> None:
    """1. Additions and subtractions: Plus (from the back, on the front digit of its column),
    Minus (either row, on the opposing front digit of its column), Abacus (either row, on
    itself, +1 per right answer). No change reads an ATK, so they are added straight in; the
    floor at 0 comes once all are in."""
    changed: list[Unit] = []
    for own, openers, foe, focus in ((left, left_openers, right, left_focus),
                                     (right, right_openers, left, right_focus)):
        for c, u in openers:
            k = u[KIND]
            if k == PLUS:
                front = own[c - 4] if c >= 4 else None
                if front is not None:
                    front[ATK] += 2 * u[LEVEL]
                    changed.append(front)
                    if notes is not None:
                        notes.append((own is right, c, own is right, c - 4, 2 * u[LEVEL], 0))
            elif k == MINUS:
                front = foe[c & 3]
                if front is not None:
                    front[ATK] -= u[LEVEL] + 1
                    changed.append(front)
                    if notes is not None:
                        notes.append((own is right, c, foe is right, c & 3, -u[LEVEL] - 1, 0))
            elif k == ABACUS:
                u[ATK] += focus
                if notes is not None:
                    notes.append((own is right, c, own is right, c, focus, 0))
    for u in changed:
        if u[ATK] < 0:
            u[ATK] = 0


def _open_average(own: Cells, openers: Openers, side: bool, notes: Notes | None) -> None:
    """2. Average: one per side, the highest level, then the leftmost (smaller column, front
    first). Every digit of the allied front row takes ⌈average ATK of that row⌉ + (N − 1)."""
    level = column = source = 0
    for c, u in openers:  # in cell order: within a column, the front one comes first
        if u[KIND] == AVERAGE and (u[LEVEL] > level
                                   or (u[LEVEL] == level and c & 3 < column)):
            level, column, source = u[LEVEL], c & 3, c
    total = count = 0
    for front in own[:4]:
        if front is not None:
            total += front[ATK]
            count += 1
    if count:
        atk = -(-total // count) + level - 1  # ⌈total / count⌉ + N − 1
        for i, front in enumerate(own[:4]):
            if front is not None:
                if notes is not None:
                    notes.append((side, source, side, i, atk - front[ATK], 0))
                front[ATK] = atk


def _open_twins(own: Cells, openers: Openers, side: bool, notes: Notes | None) -> None:
    """3. Twins: +N ATK and +N HP per other allied digit (both rows) with the same ATK."""
    twins = []
    for c, u in openers:
        if u[KIND] == TWIN:
            same = -1  # itself is not an "other" digit
            for v in own:
                if v is not None and v[ATK] == u[ATK]:
                    same += 1
            twins.append((c, u, u[LEVEL] * same))
    for c, u, gain in twins:
        u[ATK] += gain
        u[HP] += gain
        u[HP0] = u[HP]
        if notes is not None:
            notes.append((side, c, side, c, gain, gain))


def _open_power(own: Cells, openers: Openers, side: bool, notes: Notes | None) -> None:
    """4. Power (from the back): the front digit of its column gets max(ATK, min(ATK², (N + 2)²)).
    Each front digit has at most one Power behind it, so working out and applying at once is the
    same as working out all first."""
    for c, u in openers:
        if u[KIND] == POWER and c >= 4:
            target = own[c - 4]
            if target is not None:
                a = target[ATK]
                target[ATK] = max(a, min(a * a, (u[LEVEL] + 2) ** 2))
                if notes is not None:
                    notes.append((side, c, side, c - 4, target[ATK] - a, 0))


def _open_sigma(own: Cells, openers: Openers, side: bool, notes: Notes | None) -> None:
    """5. Sigma (either row): ATK = ⌊sum of the allied front row's ATK, itself excluded,
    ÷ (5 − N)⌋. Several Sigmas read the same state."""
    total = 0
    for v in own[:4]:
        if v is not None:
            total += v[ATK]
    sigmas = [(c, u, (total - u[ATK] if c < 4 else total) // (5 - u[LEVEL]))
              for c, u in openers if u[KIND] == SIGMA]
    for c, u, atk in sigmas:
        if notes is not None:
            notes.append((side, c, side, c, atk - u[ATK], 0))
        u[ATK] = atk


# ----------------------------------------------------------------------------------------------
# The exchanges
# ----------------------------------------------------------------------------------------------

# The indices of the occupied cells of a mask, in order.
OCCUPIED = tuple(tuple(i for i in range(8) if mask >> i & 1) for mask in range(256))


def _land(v: Unit, h: int) -> int:
    """A hit of value h lands on a Zero, a Square or a Modulo (the digits that change a hit they
    take; any other digit takes h as it is). Returns the damage its HP will lose, held in DMG."""
    k = v[0]
    if k == 19:  # Modulo
        if h % 3 == 0:
            return 0  # ignored
        d = h
    elif k == 17:  # Zero: cut by N (ARG), never below 1
        d = h - v[7]
        if d < 1:
            d = 1
    else:  # Square: the shield absorbs first and never regenerates
        s = v[4]
        if s >= h:
            v[4] = s - h
            return 0
        v[4] = 0
        d = h - s
    v[6] += d  # DMG
    return d


def _resolve(cells: Cells, mask: int, hit: int, falls: list[dict[str, Any]] | None,
             moves: list[dict[str, Any]] | None, side: str) -> int:
    """The end of an exchange for one side: damage is taken, digits at 0 HP or below fall, Carries
    give their ATK, back digits move up. ``hit`` is a mask of the cells that may have been hit.
    Returns the new mask of occupied cells."""
    fallen: list[tuple[int, Unit]] | None = None
    carry = False
    for c in OCCUPIED[hit]:
        # Unchecked on the hot path: OCCUPIED lists only cells that hold a digit.
        u: Unit = cells[c]  # type: ignore[assignment]
        d = u[6]  # DMG
        if d:
            u[6] = 0
            hp = u[3] = u[3] - d  # HP
            if hp <= 0:
                cells[c] = None
                mask ^= 1 << c
                if u[0] == 16:  # Carry
                    carry = True
                if fallen is None:
                    fallen = [(c, u)]
                else:
                    fallen.append((c, u))
    if fallen is None:
        return mask
    # Carry: to the living back digit of its column; failing that (or from the back row), to the
    # nearest living front digit, the front row as it stands before the move-ups.
    for c, u in fallen if carry or falls is not None else ():
        given = -1
        if u[KIND] == CARRY:
            if c < 4 and cells[c + 4] is not None:
                given = c + 4
            else:
                given = next((x for x in NEAR[c & 3] if cells[x] is not None), -1)
            if given >= 0:
                cells[given][ATK] += u[ATK]  # type: ignore[index]  # chosen among digits
        if falls is not None:
            fall: dict[str, Any] = {"side": side, "cell": c + 1, "digit": KIND_NAMES[u[KIND]]}
            if given >= 0:
                fall["gives"] = {"to": given + 1, "atk": u[ATK]}
            falls.append(fall)
    # Move-up: only behind a front digit that fell.
    for c, _u in fallen:
        if c < 4 and cells[c + 4] is not None:
            cells[c], cells[c + 4] = cells[c + 4], None
            mask ^= 1 << c | 1 << (c + 4)
            if moves is not None:
                moves.append({"side": side, "from": c + 5, "to": c + 1})
    return mask


def _states(cells: Cells) -> SideStates:
    names = KIND_NAMES
    states: SideStates = {}
    for c, u in zip(CELL_NUMBERS, cells, strict=True):
        if u is not None:
            states[c] = {"digit": names[u[0]], "level": u[1], "atk": u[2], "hp": u[3],
                         "shield": u[4]}
    return states


_REACH = 1 << PI | 1 << SIGMA


def _run(left: Cells, right: Cells, lmask: int, rmask: int, lback: int, rback: int,
         log: list[dict[str, Any]] | None) -> tuple[str, int]:
    """The exchanges, from the state the opening left, until a side is empty or 12 have been
    fought; ``*mask`` and ``*back`` come from :func:`_side`. Appends one entry per exchange to
    ``log`` when it is given."""
    if not (lmask and rmask):  # an empty slate loses at once
        return ("left" if lmask else "right" if rmask else "draw"), 0
    # Whether a reach digit stands in the back row (then the back row is looked at for hitters),
    # whether a Double does. Digits only move forward and never come back, so both answers,
    # worked out once, stay safe for the whole battle.
    lscan = 255 if lback & _REACH else 15  # mask of the rows to look at for hitters
    rscan = 255 if rback & _REACH else 15
    ldouble, rdouble = lback >> DOUBLE & 1, rback >> DOUBLE & 1
    occupied = OCCUPIED
    land, view, primes = _land, VIEW, PRIMES
    hits: list[dict[str, Any]] | None = None
    falls: list[dict[str, Any]] | None = None
    moves: list[dict[str, Any]] | None = None
    for e in range(1, MAX_EXCHANGES + 1):
        if log is not None:
            hits, falls, moves = [], [], []
        deep = False
        for own, foe, hitters, doubles, (aim, row), side in (
                (left, right, occupied[lmask & lscan], ldouble and e <= 3, view[rmask], "left"),
                (right, left, occupied[rmask & rscan], rdouble and e <= 3, view[lmask], "right")):
            for c in hitters:
                # Unchecked on the hot path: hitters and aims come from the masks of occupied
                # cells, so these cells hold a digit.
                u: Unit = own[c]  # type: ignore[assignment]
                k = u[0]  # KIND
                if c > 3 and k != 1 and k != 14:  # from the back, only Pi and Sigma hit
                    continue
                h = u[2]  # ATK
                t = aim[c]  # its column's opposing front digit, else the nearest
                # The hit: ATK (× F(e) for Fibo), bonuses read on the HP of the start of the
                # exchange, Half, then Double.
                if k < 8 and k > 1:
                    if k == 2:  # Even: + ARG when HP is even
                        if not u[3] % 2:
                            h += u[7]
                    elif k == 3:  # Odd: + ARG when HP is odd
                        if u[3] % 2:
                            h += u[7]
                    elif k == 4:  # Prime: + ARG when HP is prime
                        if u[3] in primes:
                            h += u[7]
                    elif k == 5:  # Delta: + ⌊(HP0 − HP) / 2⌋
                        h += (u[5] - u[3]) // 2
                    elif k == 6:  # Fibo: ATK × F(e)
                        h *= FIB[e]
                    else:  # Half: the target's HP alone, its shield not counted
                        half = foe[t][3] // 2  # type: ignore[index]
                        if half > h:
                            h = half
                if doubles and c < 4:  # Double: × 2 for exchanges 1 … N (its level)
                    b = own[c + 4]
                    if b is not None and b[0] == 15 and e <= b[1]:
                        h *= 2
                if h <= 0:
                    continue  # a hit of 0 is not made
                # Pi volleys on exchanges 3, 6, 9, 12; Splitter splits over a digit behind.
                if k < 2 and (e % 3 == 0 if k else t < 4 and foe[t + 4] is not None):
                    deep = True  # a back row may have been hit
                    if k:  # Pi's volley: every digit of the foremost row
                        targets: tuple[int, ...] = row
                    else:  # Splitter: a half on the target, a half on the digit behind it
                        h //= 2
                        targets = (t, t + 4) if h else ()
                    for x in targets:
                        d = land(foe[x], h)  # type: ignore[arg-type]
                        if hits is not None:
                            hits.append({"side": side, "from": c + 1, "to": x + 1, "hit": h,
                                         "damage": d})
                    continue
                v: Unit = foe[t]  # type: ignore[assignment]
                if v[0] < 17:  # takes the hit as it is
                    v[6] += h
                    d = h
                else:
                    d = land(v, h)
                if hits is not None:
                    hits.append({"side": side, "from": c + 1, "to": t + 1, "hit": h, "damage": d})
        # Only the front row is hit while it has a digit, bar Splitters and Pi volleys.
        lmask = _resolve(left, lmask, lmask if deep or not lmask & 15 else lmask & 15,
                         falls, moves, "left")
        rmask = _resolve(right, rmask, rmask if deep or not rmask & 15 else rmask & 15,
                         falls, moves, "right")
        if log is not None:
            log.append({"exchange": e, "hits": hits, "falls": falls, "moves": moves})
        if not (lmask and rmask):
            return ("left" if lmask else "right" if rmask else "draw"), e
    return "draw", MAX_EXCHANGES


def _changing(state: BothSides, fresh: set[int], side: str, cell: int) -> UnitState:
    """The digit in ``cell``, copied first if this snapshot still shares it with the last one."""
    unit = state[side][cell]
    if id(unit) not in fresh:
        unit = state[side][cell] = {**unit}
        fresh.add(id(unit))
    return unit


def replay(opening: BothSides, log: list[dict[str, Any]]) -> list[BothSides]:
    """Both sides after the opening and after each exchange, replayed from the log: the log holds
    every change (damage, shield absorbed = hit − damage, falls, Carry gains, move-ups).

    A digit untouched by an exchange keeps the very same dict from one snapshot to the next: the
    snapshots are read-only."""
    state = opening
    snapshots = [opening]
    for entry in log:
        state = {"left": dict(state["left"]), "right": dict(state["right"])}
        fresh: set[int] = set()  # ids of the digit dicts already copied for this snapshot
        for h in entry["hits"]:
            target = _changing(state, fresh, "right" if h["side"] == "left" else "left", h["to"])
            target["hp"] -= h["damage"]
            if target["shield"]:  # only a Square has a shield; it took what the HP did not
                target["shield"] -= h["hit"] - h["damage"]
        gains = []
        for f in entry["falls"]:
            del state[f["side"]][f["cell"]]
            if "gives" in f:
                gains.append((f["side"], f["gives"]))
        for side, gift in gains:
            _changing(state, fresh, side, gift["to"])["atk"] += gift["atk"]
        for m in entry["moves"]:
            state[m["side"]][m["to"]] = state[m["side"]].pop(m["from"])
        snapshots.append(state)
    return snapshots


# ----------------------------------------------------------------------------------------------
# The result and the entry points
# ----------------------------------------------------------------------------------------------

def _sides_to_json(sides: BothSides) -> dict[str, dict[str, dict[str, Any]]]:
    return {side: {str(c): dict(s) for c, s in sides[side].items()} for side in SIDES}


def _sides_from_json(data: Any) -> BothSides:
    out: BothSides = {}
    for side in SIDES:
        cells: SideStates = {}
        for c, s in data[side].items():
            cells[int(c)] = {"digit": str(s["digit"]), "level": int(s["level"]),
                             "atk": int(s["atk"]), "hp": int(s["hp"]),
                             "shield": int(s["shield"])}
        out[side] = cells
    return out


class BattleResult:
    """What a battle gives: who won, after how many exchanges, and how.

    - ``winner``: "left", "right" or "draw";
    - ``exchanges``: the number of exchanges fought (0 when a slate was empty);
    - ``opening``: ``{"left": {cell: UnitState}, "right": {...}}``, every digit after the opening;
    - ``log``: one entry per exchange, ``{"exchange", "hits", "falls", "moves"}``, with cells 1–8:
      hits ``{"side", "from", "to", "hit", "damage"}`` (side = the hitter's; a Splitter or a Pi
      volley gives one entry per target), falls ``{"side", "cell", "digit"}`` (plus
      ``"gives": {"to", "atk"}`` for a Carry whose ATK went to a digit, "to" being that digit's
      cell before the move-ups), moves ``{"side", "from", "to"}``;
    - ``survivors``: every digit standing at the end, by the cell it stands in then;
    - ``snapshots``: both sides after the opening (index 0) and after each exchange i (index i),
      replayed from the opening and the log the first time they are asked for (:func:`replay`).

    ``log`` and ``snapshots`` are empty when the battle was fought with ``log=False``. Cells are
    ints here and strings ("1"–"8") in the JSON. Treat a result as read-only: the opening and the
    first snapshot are the same dict.
    """

    __slots__ = ("_snapshots", "exchanges", "log", "opening", "survivors", "winner")

    def __init__(self, winner: str, exchanges: int, opening: BothSides,
                 log: list[dict[str, Any]] | None = None, survivors: BothSides | None = None,
                 snapshots: list[BothSides] | None = None) -> None:
        self.winner = winner
        self.exchanges = exchanges
        self.opening = opening
        self.log = [] if log is None else log
        self.survivors = {"left": {}, "right": {}} if survivors is None else survivors
        self._snapshots = snapshots

    @property
    def snapshots(self) -> list[BothSides]:
        if self._snapshots is None:
            # Without a log of every exchange (log=False) there is nothing to replay.
            complete = len(self.log) == self.exchanges
            self._snapshots = replay(self.opening, self.log) if complete else []
        return self._snapshots

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BattleResult):
            return NotImplemented
        return (self.winner, self.exchanges, self.opening, self.log, self.survivors,
                self.snapshots) == (other.winner, other.exchanges, other.opening, other.log,
                                    other.survivors, other.snapshots)

    # Mutable, like a dataclass with eq; typeshed declares object.__hash__ a method.
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"BattleResult(winner={self.winner!r}, exchanges={self.exchanges}, "
                f"survivors={self.survivors!r})")

    def to_json(self, full: bool = False) -> dict[str, Any]:
        """The answer of ``python -m bot.digits battle``; ``full`` adds the snapshots."""
        out: dict[str, Any] = {
            "winner": self.winner,
            "exchanges": self.exchanges,
            "opening": _sides_to_json(self.opening),
            "log": [{"exchange": x["exchange"],
                     "hits": [dict(h) for h in x["hits"]],
                     "falls": [{**f, "gives": dict(f["gives"])} if "gives" in f else dict(f)
                               for f in x["falls"]],
                     "moves": [dict(m) for m in x["moves"]]}
                    for x in self.log],
            "survivors": _sides_to_json(self.survivors),
        }
        if full:
            out["snapshots"] = [_sides_to_json(s) for s in self.snapshots]
        return out

    @classmethod
    def from_json(cls, data: Any) -> BattleResult:
        """Reads back either form of :meth:`to_json` (without snapshots, they are replayed)."""
        try:
            winner = data["winner"]
            if winner not in WINNERS:
                raise ValueError(f"winner must be left, right or draw, not {winner!r}")
            log = [{"exchange": int(x["exchange"]),
                    "hits": [{"side": h["side"], "from": int(h["from"]), "to": int(h["to"]),
                              "hit": int(h["hit"]), "damage": int(h["damage"])}
                             for h in x["hits"]],
                    "falls": [_fall_from_json(f) for f in x["falls"]],
                    "moves": [{"side": m["side"], "from": int(m["from"]), "to": int(m["to"])}
                              for m in x["moves"]]}
                   for x in data["log"]]
            snapshots = ([_sides_from_json(s) for s in data["snapshots"]]
                         if "snapshots" in data else None)
            return cls(winner, int(data["exchanges"]), _sides_from_json(data["opening"]), log,
                       _sides_from_json(data["survivors"]), snapshots)
        except (KeyError, TypeError, AttributeError) as e:
            raise ValueError(f"not a battle result: {e!r}") from None


def _fall_from_json(f: Any) -> dict[str, Any]:
    fall: dict[str, Any] = {"side": f["side"], "cell": int(f["cell"]), "digit": f["digit"]}
    if "gives" in f:
        fall["gives"] = {"to": int(f["gives"]["to"]), "atk": int(f["gives"]["atk"])}
    return fall


def _bad_focus(focus: Any) -> ValueError:
    return ValueError(f"a Focus score is 0 to {MAX_FOCUS}, not {focus!r}")


def _check_focus(left_focus: int, right_focus: int) -> None:
    # type(...) is int: a bool is not a Focus score.
    if type(left_focus) is not int or not 0 <= left_focus <= MAX_FOCUS:
        raise _bad_focus(left_focus)
    if type(right_focus) is not int or not 0 <= right_focus <= MAX_FOCUS:
        raise _bad_focus(right_focus)


def fight(left: Slate, right: Slate, left_focus: int = 0, right_focus: int = 0, *,
          log: bool = True) -> BattleResult:
    """The battle of two slates; ``*_focus`` is each side's Focus score of the round (0–6, read by
    Abacus). With ``log=False`` the result has no log and no snapshots."""
    _check_focus(left_focus, right_focus)
    lc, lmask, lback, lopeners, lkinds = _side(left)
    rc, rmask, rback, ropeners, rkinds = _side(right)
    if lopeners or ropeners:
        _open(lc, rc, lopeners, ropeners, lkinds, rkinds, left_focus, right_focus)
    opening = {"left": _states(lc), "right": _states(rc)}
    entries: list[dict[str, Any]] | None = [] if log else None
    winner, exchanges = _run(lc, rc, lmask, rmask, lback, rback, entries)
    return BattleResult(winner, exchanges, opening, entries,
                        {"left": _states(lc), "right": _states(rc)}, None if log else [])


def opening_effects(left: Slate, right: Slate, left_focus: int = 0, right_focus: int = 0
                    ) -> list[dict[str, Any]]:
    """What each opening effect did, in the order of the six steps, for the replay to say what
    changed and why: ``{"side", "cell", "digit", "target": {"side", "cell"}, "atk", "hp",
    "shield"}`` (the acting digit, the digit it changed, and the change it made; a floor at 0
    ATK shows in the digit's ATK after the opening, not here). The very code of the battle,
    run once more with its notes kept."""
    _check_focus(left_focus, right_focus)
    lc, _, _, lopeners, lkinds = _side(left)
    rc, _, _, ropeners, rkinds = _side(right)
    notes: Notes = []
    _open(lc, rc, lopeners, ropeners, lkinds, rkinds, left_focus, right_focus, notes)
    fielded = {False: left.cells, True: right.cells}
    effects = []
    for side, c, target_side, target, atk, hp in notes:
        if not atk and not hp:
            continue  # an Average on a digit already at the average, an Abacus with no answer
        piece = fielded[side][c]
        assert piece is not None
        effects.append({"side": SIDES[side], "cell": c + 1, "digit": piece.key,
                        "target": {"side": SIDES[target_side], "cell": target + 1},
                        "atk": atk, "hp": hp, "shield": 0})
    for side, cells in ((False, lc), (True, rc)):  # 6. Shields
        for c, u in enumerate(cells):
            if u is not None and u[KIND] == SQUARE:
                effects.append({"side": SIDES[side], "cell": c + 1, "digit": "Square",
                                "target": {"side": SIDES[side], "cell": c + 1},
                                "atk": 0, "hp": 0, "shield": u[SHIELD]})
    return effects


def outcome(left: Slate, right: Slate, left_focus: int = 0, right_focus: int = 0
            ) -> tuple[str, int]:
    """Only who wins and after how many exchanges: the same battle as :func:`fight`, nothing
    written down. For the odds simulator."""
    _check_focus(left_focus, right_focus)
    lc, lmask, lback, lopeners, lkinds = _side(left)
    rc, rmask, rback, ropeners, rkinds = _side(right)
    if lopeners or ropeners:
        _open(lc, rc, lopeners, ropeners, lkinds, rkinds, left_focus, right_focus)
    return _run(lc, rc, lmask, rmask, lback, rback, None)
