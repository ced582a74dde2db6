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
or a digit; targets come from tables indexed by a 4-bit mask of the occupied cells of a row. Damage
taken during an exchange is held in the digit's ``DMG`` slot and only subtracted when every hit has
been made, so that every hit reads the HP of the start of the exchange.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypedDict

from bot.digits.catalogue import BY_KEY, MAX_LEVEL
from bot.digits.slate import Slate

SIDES = ("left", "right")
WINNERS = ("left", "right", "draw")
MAX_EXCHANGES = 12
MAX_FOCUS = 6

# Kind codes, grouped so that the hot loop settles the common case with one comparison:
#   0–7   digits whose hit is not simply their ATK (a bonus, the target's HP, several targets);
#   8–16  digits with nothing special about hitting or being hit;
#   17–19 digits that change a hit they take.
(EVEN, ODD, PRIME, DELTA, FIBO, HALF, SPLITTER, PI,
 PLUS, MINUS, DOUBLE, TWIN, ABACUS, SIGMA, AVERAGE, CARRY, POWER,
 ZERO, SQUARE, MODULO) = range(20)
KIND_NAMES = ("Even", "Odd", "Prime", "Delta", "Fibo", "Half", "Splitter", "Pi",
              "Plus", "Minus", "Double", "Twin", "Abacus", "Sigma", "Average", "Carry", "Power",
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

# Fibonacci factor of Fibo's base hit at exchange e (index e; index 0 unused).
FIB = (0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144)
# HP stays below 50 (16 at most from the table, plus Twin's gain of 3 × 7 allies).
PRIMES = frozenset(n for n in range(2, 100) if all(n % d for d in range(2, n)))

# "Nearest": column c itself, then c − 1, c + 1, c − 2, c + 2, c − 3, c + 3 (left first), skipping
# columns outside 1–4 (here 0–3).
NEAR = tuple(
    tuple(x for d in (0, 1, 2, 3) for x in ((c,) if d == 0 else (c - d, c + d)) if 0 <= x < 4)
    for c in range(4))
# TARGET[mask][c]: the cell index a hitter of column c aims at in a row whose occupied columns are
# the bits of mask (bit c = column c + 1); ROW[mask]: the occupied indices of that row.
TARGET = tuple(
    tuple(next((x for x in NEAR[c] if mask >> x & 1), -1) for c in range(4)) for mask in range(16))
ROW = tuple(tuple(x for x in range(4) if mask >> x & 1) for mask in range(16))


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
    protos: dict[str, tuple[Unit, ...]] = {}
    for key, kind in BY_KEY.items():
        code = KIND_CODES[key]
        levels = []
        for n in range(1, MAX_LEVEL + 1):
            arg = {EVEN: n + 1, ODD: n + 1, PRIME: 2 * n + 1, ZERO: n}.get(code, 0)
            levels.append([code, n, kind.atk(n), kind.hp(n), 0, 0, 0, arg])
        protos[key] = tuple(levels)
    return protos


_PROTO = _prototypes()


def _units(slate: Slate) -> Cells:
    protos = _PROTO
    return [None if p is None else protos[p.key][p.level - 1].copy() for p in slate.cells]


# ----------------------------------------------------------------------------------------------
# The opening
# ----------------------------------------------------------------------------------------------

def _kinds_present(*sides: Cells) -> int:
    present = 0
    for cells in sides:
        for u in cells:
            if u is not None:
                present |= 1 << u[KIND]
    return present


_STEP1 = 1 << PLUS | 1 << MINUS | 1 << ABACUS


def _open(left: Cells, right: Cells, left_focus: int, right_focus: int) -> None:
    """The six opening steps, on both sides. Each step reads the state the previous one left;
    within a step every effect is worked out first, then all are applied together."""
    present = _kinds_present(left, right)
    pairs = ((left, right, left_focus), (right, left, right_focus))

    # 1. Additions and subtractions: Plus (from the back, on the front digit of its column), Minus
    # (either row, on the opposing front digit of its column), Abacus (either row, on itself, +1
    # per right answer). A digit's changes are added up, then its ATK is floored at 0.
    if present & _STEP1:
        gains = {id(left): [0] * 8, id(right): [0] * 8}
        for own, foe, focus in pairs:
            mine, theirs = gains[id(own)], gains[id(foe)]
            for c, u in enumerate(own):
                if u is None:
                    continue
                k = u[KIND]
                if k == PLUS:
                    if c >= 4 and own[c - 4] is not None:
                        mine[c - 4] += 2 * u[LEVEL]
                elif k == MINUS:
                    if foe[c & 3] is not None:
                        theirs[c & 3] -= u[LEVEL] + 1
                elif k == ABACUS:
                    mine[c] += focus
        for own in (left, right):
            for c, g in enumerate(gains[id(own)]):
                if g:
                    u = own[c]
                    u[ATK] = max(0, u[ATK] + g)  # type: ignore[index]

    # 2. Average: one per side, the highest level, then the leftmost (smaller column, front
    # first). Every digit of the allied front row takes ⌈average ATK of that row⌉ + (N − 1).
    if present & 1 << AVERAGE:
        for own in (left, right):
            chosen: Unit | None = None
            for c in (0, 4, 1, 5, 2, 6, 3, 7):  # leftmost first
                u = own[c]
                if u is not None and u[KIND] == AVERAGE and (
                        chosen is None or u[LEVEL] > chosen[LEVEL]):
                    chosen = u
            front = [u for u in own[:4] if u is not None]
            if chosen is not None and front:
                total = sum(u[ATK] for u in front)
                atk = -(-total // len(front)) + chosen[LEVEL] - 1
                for u in front:
                    u[ATK] = atk

    # 3. Twins: +N ATK and +N HP per other allied digit (both rows) with the same ATK.
    if present & 1 << TWIN:
        for own in (left, right):
            units = [u for u in own if u is not None]
            twins = [(u, u[LEVEL] * sum(1 for v in units if v is not u and v[ATK] == u[ATK]))
                     for u in units if u[KIND] == TWIN]
            for u, gain in twins:
                u[ATK] += gain
                u[HP] += gain

    # 4. Power (from the back): the front digit of its column gets max(ATK, min(ATK², (N + 2)²)).
    # Each front digit has at most one Power behind it, so working out and applying at once is the
    # same as working out all first.
    if present & 1 << POWER:
        for own in (left, right):
            for c in (4, 5, 6, 7):
                u, front = own[c], own[c - 4]
                if u is not None and u[KIND] == POWER and front is not None:
                    a = front[ATK]
                    front[ATK] = max(a, min(a * a, (u[LEVEL] + 2) ** 2))

    # 5. Sigma (either row): ATK = ⌊sum of the allied front row's ATK, itself excluded, ÷ (5 − N)⌋.
    # Several Sigmas read the same state.
    if present & 1 << SIGMA:
        for own in (left, right):
            sigmas = [(u, sum(v[ATK] for v in own[:4] if v is not None and v is not u)
                       // (5 - u[LEVEL]))
                      for u in own if u is not None and u[KIND] == SIGMA]
            for u, atk in sigmas:
                u[ATK] = atk

    # 6. Shields: Square gets (N + 1)², whatever its row.
    for own in (left, right):
        for u in own:
            if u is not None:
                if u[KIND] == SQUARE:
                    u[SHIELD] = (u[LEVEL] + 1) ** 2
                u[HP0] = u[HP]


# ----------------------------------------------------------------------------------------------
# The exchanges
# ----------------------------------------------------------------------------------------------

def _masks(cells: Cells) -> tuple[int, int]:
    """Bit masks of the occupied columns of the front row and of the back row."""
    front = back = 0
    for c in range(4):
        if cells[c] is not None:
            front |= 1 << c
        if cells[c + 4] is not None:
            back |= 1 << c
    return front, back


def _hitters(cells: Cells) -> list[int]:
    """The cells that hit: every front digit, and the reach digits (Sigma, Pi) of the back row."""
    return [c for c, u in enumerate(cells)
            if u is not None and (c < 4 or u[KIND] == PI or u[KIND] == SIGMA)]


def _land(v: Unit, h: int) -> int:
    """A hit of value h lands on digit v; returns the damage its HP will lose (held in DMG)."""
    k = v[KIND]
    if k < ZERO:
        d = h
    elif k == MODULO:
        if h % 3 == 0:
            return 0  # ignored
        d = h
    elif k == ZERO:
        d = h - v[ARG]
        if d < 1:
            d = 1
    else:  # SQUARE: the shield absorbs first and never regenerates
        s = v[SHIELD]
        if s >= h:
            v[SHIELD] = s - h
            return 0
        v[SHIELD] = 0
        d = h - s
    v[DMG] += d
    return d


def _strike(own: Cells, foe: Cells, hitters: list[int], front: int, back: int, e: int,
            hits: list[dict[str, Any]] | None, side: str) -> None:
    """Every hitter of one side picks its target and hits it. ``front``/``back`` are the masks of
    the foe's rows; the damage waits in DMG, so the foe still reads its HP of the start."""
    land = _land
    for c in hitters:
        u: Unit = own[c]  # type: ignore[assignment]
        k = u[KIND]
        h = u[ATK]
        # Bonuses, read on the hitter's HP at the start of the exchange.
        if k < PLUS:
            if k == EVEN:
                if u[HP] % 2 == 0:
                    h += u[ARG]
            elif k == ODD:
                if u[HP] % 2:
                    h += u[ARG]
            elif k == PRIME:
                if u[HP] in PRIMES:
                    h += u[ARG]
            elif k == DELTA:
                h += (u[HP0] - u[HP]) // 2
            elif k == FIBO:
                h *= FIB[e]
        # Target: the opposing front digit of its column, else the nearest; the back row when
        # the front row is empty.
        col = c & 3
        t = TARGET[front][col] if front else TARGET[back][col] + 4
        v: Unit = foe[t]  # type: ignore[assignment]
        if k == HALF:
            half = v[HP] // 2  # HP alone, the shield not counted
            if half > h:
                h = half
        # Double: × 2 for exchanges 1 … N when a Double stands behind the hitter.
        if e <= 3 and c < 4:
            b = own[c + 4]
            if b is not None and b[KIND] == DOUBLE and e <= b[LEVEL]:
                h *= 2
        if h <= 0:
            continue  # a hit of 0 is not made
        if k == SPLITTER and t < 4 and foe[t + 4] is not None:
            h //= 2  # a half on the target, a half on the digit behind it
            if h:
                for x in (t, t + 4):
                    d = land(foe[x], h)  # type: ignore[arg-type]
                    if hits is not None:
                        hits.append({"side": side, "from": c + 1, "to": x + 1, "hit": h,
                                     "damage": d})
        elif k == PI and e % 3 == 0:
            # The volley: every digit of the foe's foremost non-empty row.
            for x in (ROW[front] if front else tuple(y + 4 for y in ROW[back])):
                d = land(foe[x], h)  # type: ignore[arg-type]
                if hits is not None:
                    hits.append({"side": side, "from": c + 1, "to": x + 1, "hit": h, "damage": d})
        else:
            d = land(v, h)
            if hits is not None:
                hits.append({"side": side, "from": c + 1, "to": t + 1, "hit": h, "damage": d})


def _resolve(cells: Cells, falls: list[dict[str, Any]] | None,
             moves: list[dict[str, Any]] | None, side: str) -> bool:
    """The end of an exchange for one side: damage is taken, digits at 0 HP or below fall, Carries
    give their ATK, back digits move up. Returns whether anything changed on the slate."""
    fallen: list[tuple[int, Unit]] = []
    for c in range(8):
        u = cells[c]
        if u is not None and u[DMG]:
            u[HP] -= u[DMG]
            u[DMG] = 0
            if u[HP] <= 0:
                cells[c] = None
                fallen.append((c, u))
    if not fallen:
        return False
    # Carry: to the living back digit of its column; failing that (or from the back row), to the
    # nearest living front digit, the front row as it stands before the move-ups.
    for c, u in fallen:
        given = None
        if u[KIND] == CARRY:
            if c < 4 and cells[c + 4] is not None:
                given = c + 4
            else:
                given = next((x for x in NEAR[c & 3] if cells[x] is not None), None)
            if given is not None:
                cells[given][ATK] += u[ATK]  # type: ignore[index]
        if falls is not None:
            fall: dict[str, Any] = {"side": side, "cell": c + 1, "digit": KIND_NAMES[u[KIND]]}
            if given is not None:
                fall["gives"] = {"to": given + 1, "atk": u[ATK]}
            falls.append(fall)
    # Move-up: only behind a front digit that fell.
    for c, _u in fallen:
        if c < 4 and cells[c + 4] is not None:
            cells[c], cells[c + 4] = cells[c + 4], None
            if moves is not None:
                moves.append({"side": side, "from": c + 5, "to": c + 1})
    return True


def _states(cells: Cells) -> SideStates:
    return {c + 1: {"digit": KIND_NAMES[u[KIND]], "level": u[LEVEL], "atk": u[ATK], "hp": u[HP],
                    "shield": u[SHIELD]}
            for c, u in enumerate(cells) if u is not None}


def _run(left: Cells, right: Cells, log: list[dict[str, Any]] | None,
         snapshots: list[BothSides] | None) -> tuple[str, int]:
    """The exchanges, from the state the opening left, until a side is empty or 12 have been
    fought. Writes the log and the snapshots when they are given."""
    left_alive = any(u is not None for u in left)
    right_alive = any(u is not None for u in right)
    if not (left_alive and right_alive):  # an empty slate loses at once
        return ("left" if left_alive else "right" if right_alive else "draw"), 0
    left_hitters, right_hitters = _hitters(left), _hitters(right)
    (lf, lb), (rf, rb) = _masks(left), _masks(right)
    for e in range(1, MAX_EXCHANGES + 1):
        if log is None:
            hits = falls = moves = None
        else:
            hits, falls, moves = [], [], []
        _strike(left, right, left_hitters, rf, rb, e, hits, "left")
        _strike(right, left, right_hitters, lf, lb, e, hits, "right")
        if _resolve(left, falls, moves, "left"):
            left_hitters = _hitters(left)
            lf, lb = _masks(left)
        if _resolve(right, falls, moves, "right"):
            right_hitters = _hitters(right)
            rf, rb = _masks(right)
        if log is not None:
            log.append({"exchange": e, "hits": hits, "falls": falls, "moves": moves})
        if snapshots is not None:
            snapshots.append({"left": _states(left), "right": _states(right)})
        if not (lf or lb) or not (rf or rb):
            winner = "draw" if not (lf or lb or rf or rb) else "left" if (lf or lb) else "right"
            return winner, e
    return "draw", MAX_EXCHANGES


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


@dataclass(slots=True)
class BattleResult:
    """What a battle gives: who won, after how many exchanges, and how.

    - ``winner``: "left", "right" or "draw";
    - ``exchanges``: the number of exchanges fought (0 when a slate was empty);
    - ``opening``: ``{"left": {cell: UnitState}, "right": {...}}``, every digit after the opening;
    - ``log``: one entry per exchange, ``{"exchange", "hits", "falls", "moves"}``, with cells 1–8:
      hits ``{"side", "from", "to", "hit", "damage"}`` (side = the hitter's), falls
      ``{"side", "cell", "digit"}`` (plus ``"gives": {"to", "atk"}`` for a Carry whose ATK went to
      a digit), moves ``{"side", "from", "to"}``;
    - ``survivors``: every digit standing at the end, by the cell it stands in then;
    - ``snapshots``: both sides after the opening (index 0) and after each exchange i (index i).

    ``log`` and ``snapshots`` are empty when the battle was fought with ``log=False``. Cells are
    ints here and strings ("1"–"8") in the JSON. Treat a result as read-only: the opening and the
    first snapshot may be the same dict.
    """

    winner: str
    exchanges: int
    opening: BothSides
    log: list[dict[str, Any]] = field(default_factory=list)
    survivors: BothSides = field(default_factory=lambda: {"left": {}, "right": {}})
    snapshots: list[BothSides] = field(default_factory=list)

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
        """Reads back either form of :meth:`to_json`."""
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
            return cls(winner=winner, exchanges=int(data["exchanges"]),
                       opening=_sides_from_json(data["opening"]), log=log,
                       survivors=_sides_from_json(data["survivors"]),
                       snapshots=[_sides_from_json(s) for s in data.get("snapshots", [])])
        except (KeyError, TypeError, AttributeError) as e:
            raise ValueError(f"not a battle result: {e!r}") from None


def _fall_from_json(f: Any) -> dict[str, Any]:
    fall: dict[str, Any] = {"side": f["side"], "cell": int(f["cell"]), "digit": f["digit"]}
    if "gives" in f:
        fall["gives"] = {"to": int(f["gives"]["to"]), "atk": int(f["gives"]["atk"])}
    return fall


def _check_focus(*focus: int) -> None:
    for f in focus:
        if isinstance(f, bool) or not (isinstance(f, int) and 0 <= f <= MAX_FOCUS):
            raise ValueError(f"a Focus score is 0 to {MAX_FOCUS}, not {f!r}")


def fight(left: Slate, right: Slate, left_focus: int = 0, right_focus: int = 0, *,
          log: bool = True) -> BattleResult:
    """The battle of two slates; ``*_focus`` is each side's Focus score of the round (0–6, read by
    Abacus). With ``log=False`` the result has no log and no snapshots."""
    _check_focus(left_focus, right_focus)
    lc, rc = _units(left), _units(right)
    _open(lc, rc, left_focus, right_focus)
    opening = {"left": _states(lc), "right": _states(rc)}
    if log:
        entries: list[dict[str, Any]] = []
        snapshots: list[BothSides] = [opening]
        winner, exchanges = _run(lc, rc, entries, snapshots)
        return BattleResult(winner, exchanges, opening, entries, snapshots[-1], snapshots)
    winner, exchanges = _run(lc, rc, None, None)
    return BattleResult(winner, exchanges, opening,
                        survivors={"left": _states(lc), "right": _states(rc)})


def outcome(left: Slate, right: Slate, left_focus: int = 0, right_focus: int = 0
            ) -> tuple[str, int]:
    """Only who wins and after how many exchanges: the same battle as :func:`fight`, nothing
    written down. For the odds simulator."""
    _check_focus(left_focus, right_focus)
    lc, rc = _units(left), _units(right)
    _open(lc, rc, left_focus, right_focus)
    return _run(lc, rc, None, None)
