"""Rithmomachia property tests: random games of random legal steps never crash, never lose or
invent a piece, read back from their record, and taking back every step restores the start; the
fast move and capture generation agrees with a plain reading of the rules on random boards."""

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.rithmo import (
    AFTER,
    BEFORE,
    PYRAMID,
    ROUND,
    SQUARE,
    START,
    TRIANGLE,
    Board,
    Capture,
    Drop,
    Game,
    Move,
    Settings,
    Turn,
    Victory,
)
from bot.rithmo.arith import progression_kind
from bot.rithmo.board import Piece
from bot.rithmo.squares import name

FAST = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


def material(board):
    """Every piece in play, pyramids taken apart, on the board or held taken: (shape, value)."""
    c = Counter()
    for side in (0, 1):
        for p in board.pieces[side]:
            c.update(p.gives())
        c.update(board.taken[side])
    return c


def consistent(board):
    on_squares = [p for p in board.squares[:128] if p is not None]
    listed = board.pieces[0] + board.pieces[1]
    assert len(on_squares) == len(listed) and set(map(id, on_squares)) == set(map(id, listed))
    assert all(board.squares[p.sq] is p for p in listed)
    assert all(p.side == s for s in (0, 1) for p in board.pieces[s])
    assert board.squares[128] is None


def play_random(board, rng, turns):
    """Random legal steps for ``turns`` turns (or until the side to move cannot play); checks the
    invariants after every step. Returns the number of steps played."""
    start_material = material(board)
    steps = 0
    done = 0
    while done < turns:
        legal = board.legal_steps()
        if not legal:
            assert board.phase == START and not board.has_legal_turn()
            break
        step = rng.choice(legal)
        assert board._check(step) == step  # the checked path accepts what was listed
        board.push_step(step)
        steps += 1
        assert material(board) == start_material
        consistent(board)
        if board.phase == START:
            done += 1
            assert Board.from_json(board.to_json()).key() == board.key()
    return steps


@FAST
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_from_the_start_keep_every_piece_and_undo_to_the_start(seed):
    rng = random.Random(seed)
    board = Board.start()
    start, key = board.to_json(), board.key()
    steps = play_random(board, rng, 120)
    # the record reads back to the same position
    game = Game.from_record(" ".join(f"{i}. {t}" for i, t in enumerate(board.history, 1)),
                            Settings.make([Victory.make("goods", value=10**9)]))
    assert game.board.position_string() == board.position_string()
    for t in board.history:
        assert Turn.parse(str(t)) == t
    for _ in range(steps):
        board.pop_step()
    assert board.to_json() == start and board.key() == key and board.history == []


# ---------------------------------------------------------------- random crowded boards

SHAPES = (ROUND, TRIANGLE, SQUARE)


def _crowded(seed):
    """A board with many pieces close together and small values, so that captures of every kind
    are common; and the random generator to play on it."""
    rng = random.Random(seed)
    n = rng.randint(8, 40)
    b = Board()
    squares = rng.sample(range(24, 104), n)  # the middle ranks: crowded
    for sq in squares:
        side = rng.randint(0, 1)
        if rng.random() < 0.12:
            parts = tuple((rng.choice(SHAPES), rng.randint(1, 30))
                          for _ in range(rng.randint(1, 4)))
            p = Piece(side, PYRAMID, parts=parts)
        else:
            p = Piece(side, rng.choice(SHAPES), rng.randint(1, 30))
        b.add_piece(p, sq)
    for side in (0, 1):
        for _ in range(rng.randint(0, 3)):
            b.taken[side].append((rng.choice(SHAPES), rng.randint(1, 30)))
    b.turn = rng.randint(0, 1)
    return Board.from_json(b.to_json()), rng


@st.composite
def crowded_boards(draw):
    return _crowded(draw(st.integers(0, 2**32 - 1)))


@FAST
@given(crowded_boards())
def test_random_games_on_crowded_boards_keep_every_piece(case):
    board, rng = case
    start, key = board.to_json(), board.key()
    steps = play_random(board, rng, 25)
    for t in board.history:
        assert Turn.parse(str(t)) == t
    for _ in range(steps):
        board.pop_step()
    assert board.to_json() == start and board.key() == key


def test_random_play_on_crowded_boards_meets_every_kind_of_step():
    """The random games above are worth something only if they meet every part of a turn."""
    kinds = Counter()
    for seed in range(30):
        board, rng = _crowded(seed)
        while len(board.history) < 25 and board.legal_steps():
            step = rng.choice(board.legal_steps())
            kinds[_kind(board, step)] += 1
            board.push_step(step)
    assert set(kinds) == {"capture before", "component", "step in", "capture after", "drop",
                          "regular", "irregular", "end"}, kinds


def _kind(board, step):
    if isinstance(step, Capture):
        if step.part:
            return "component"
        return "capture before" if board.phase != AFTER else "capture after"
    if isinstance(step, Move):
        return "step in" if board.phase == BEFORE else (
            "irregular" if step.irregular else "regular")
    if isinstance(step, Drop):
        return "drop"
    return "end"


# ---------------------------------------------------------------- a plain reading of the rules

REG_SHAPES = {ROUND: [((1, 1), 1), ((1, -1), 1), ((-1, 1), 1), ((-1, -1), 1)],
              TRIANGLE: [((1, 0), 2), ((-1, 0), 2), ((0, 1), 2), ((0, -1), 2)],
              SQUARE: [((1, 0), 3), ((-1, 0), 3), ((0, 1), 3), ((0, -1), 3)]}
LEAPS = {ROUND: [], TRIANGLE: [(1, 2), (2, 1)], SQUARE: [(1, 3), (3, 1)]}


def shapes(p):
    return [s for s, _ in p.parts] if p.shape == PYRAMID else [p.shape]


def at(board, f, r):
    return board.squares[r * 8 + f] if 0 <= f < 8 and 0 <= r < 16 else "off"


def regular_paths(board, p):
    """Each regular move that stays on the board: the squares passed over, then the landing
    square. A move that would leave the board is blocked by the edge alone."""
    f, r = p.sq % 8, p.sq // 8
    for s in set(shapes(p)):
        for (df, dr), dist in REG_SHAPES[s]:
            path = [(f + df * k, r + dr * k) for k in range(1, dist + 1)]
            if at(board, *path[-1]) != "off":
                yield path


def reaches(board, a, v):
    for path in regular_paths(board, a):
        if path[-1] == (v.sq % 8, v.sq // 8) and all(at(board, x, y) is None
                                                      for x, y in path[:-1]):
            return True
    return False


def values(p):
    return [p.value] + ([v for _, v in p.parts] if p.shape == PYRAMID and len(p.parts) > 1
                        else [])


def victims(p):
    if p.shape == PYRAMID and len(p.parts) > 1:
        return [(p.value, 0)] + [(v, v) for _, v in p.parts]
    return [(p.value, 0)]


def is_power(x, y):
    return any(y ** k == x for k in range(2, 12)) if y > 1 else x == 1


def plain_captures(board):
    me = board.turn
    mine, theirs = board.pieces[me], board.pieces[1 - me]
    out = set()
    for v_piece in theirs:
        reach = [a for a in mine if reaches(board, a, v_piece)]
        for v, part in victims(v_piece):
            for a_piece in reach:
                if any(a == v for a in values(a_piece)):
                    out.add((v_piece.sq, part, "encounter", (a_piece.sq,)))
                if any(a != v and (is_power(a, v) or is_power(v, a)) for a in values(a_piece)):
                    out.add((v_piece.sq, part, "power", (a_piece.sq,)))
            for i, a_piece in enumerate(reach):
                for b_piece in reach[i + 1:]:
                    by = tuple(sorted((a_piece.sq, b_piece.sq)))
                    pairs = [(a, b) for a in values(a_piece) for b in values(b_piece)]
                    if any(v in (a + b, abs(a - b), a * b) or (a % b == 0 and a // b == v)
                           or (b % a == 0 and b // a == v) for a, b in pairs):
                        out.add((v_piece.sq, part, "ambush", by))
                    if any(progression_kind(a, b, v) for a, b in pairs):
                        out.add((v_piece.sq, part, "progression", by))
            for a_piece in mine:
                df = (v_piece.sq % 8) - (a_piece.sq % 8)
                dr = (v_piece.sq // 8) - (a_piece.sq // 8)
                if not (df == 0 or dr == 0 or abs(df) == abs(dr)):
                    continue
                n = max(abs(df), abs(dr)) - 1
                sf, sr = (df > 0) - (df < 0), (dr > 0) - (dr < 0)
                between = [at(board, a_piece.sq % 8 + sf * k, a_piece.sq // 8 + sr * k)
                           for k in range(1, n + 1)]
                if n >= 1 and all(x is None for x in between) and any(
                        v == a * n or a == v * n for a in values(a_piece)):
                    out.add((v_piece.sq, part, "assault", (a_piece.sq,)))
        blocked = True
        blockers = set()
        for path in regular_paths(board, v_piece):
            cells = [at(board, x, y) for x, y in path]
            if all(c is None for c in cells):
                blocked = False
            blockers.update(c.sq for c in cells if c not in (None, "off") and c.side == me)
        if blocked and blockers:
            out.add((v_piece.sq, 0, "emprisonment", tuple(sorted(blockers))))
    return out


def plain_moves(board):
    out = set()
    for p in board.pieces[board.turn]:
        f, r = p.sq % 8, p.sq // 8
        for path in regular_paths(board, p):
            if at(board, *path[-1]) is None and all(at(board, x, y) is None for x, y in path):
                out.add((p.sq, path[-1][1] * 8 + path[-1][0]))
        for s in set(shapes(p)):
            for a, c in LEAPS[s]:
                for df, dr in ((a, c), (-a, c), (a, -c), (-a, -c)):
                    if at(board, f + df, r + dr) is None:
                        out.add((p.sq, (r + dr) * 8 + f + df))
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(crowded_boards())
def test_fast_generation_agrees_with_a_plain_reading_of_the_rules(case):
    board, _ = case
    fast = {(t, part, m, by) for t, part, _v, m, by in board._scan(None)}
    plain = plain_captures(board)
    assert fast == plain, (board.position_string(),
                           sorted((name(t), p, m) for t, p, m, _ in fast ^ plain))
    assert {(m.frm, m.to) for m in board.legal_moves()} == plain_moves(board)
    assert len(board.legal_moves()) == len(plain_moves(board))
