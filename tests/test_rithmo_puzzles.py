"""Capture puzzles and hints, engine side (bot/rithmo/puzzles.py) and the ``puzzle`` command."""

from __future__ import annotations

import io
import json
import random

import pytest

from bot.domain import DomainError
from bot.rithmo import Board, Game, name
from bot.rithmo.cli import main as cli
from bot.rithmo.notation import with_suggestions
from bot.rithmo.puzzles import Puzzle, check_answer, from_turns, generate, hint, puzzle_at, refusal


def every_way_to_take(board: Board, square: str, part: int) -> set[tuple[str, tuple[str, ...]]]:
    """(method, capturers) of every capture option of that victim, from the board itself."""
    victim = board.piece_at(square)
    assert victim is not None
    return {(o["method"], tuple(o["by"])) for o in board.capture_options()
            if o["victim"] == square and (o["value"] == victim.value) == (part == 0)
            and (part == 0 or o["value"] == part)}


@pytest.mark.parametrize("seed", range(8))
def test_a_generated_puzzle_has_one_target_worth_more_than_any_other_capture(seed):
    puzzle = generate(seed)
    board = puzzle.board()
    assert puzzle.source["kind"] == "generated" and puzzle.source["seed"] == seed
    assert puzzle.to_move == ("white", "black")[board.turn]
    # Every way to take the target is listed, and each listed turn is legal and takes it.
    assert {(w.method, w.by) for w in puzzle.solutions} == every_way_to_take(
        board, puzzle.target, puzzle.part)
    for way in puzzle.solutions:
        verdict = check_answer(puzzle, way.turn)
        assert verdict.right, way
        assert way.why["result"] == puzzle.value and way.why["relation"], way  # its arithmetic
    # The decoys are worth less, and taking one is a wrong answer.
    for decoy in puzzle.others:
        assert decoy.value < puzzle.value
        assert not check_answer(puzzle, decoy.turn).right
    # No other victim is worth as much, now or after any plain move.
    for mv in board.legal_moves():
        if mv.irregular:
            continue
        board.push_step(mv)
        for option in board.capture_options():
            if option["victim"] != puzzle.target:
                assert option["value"] < puzzle.value, (mv, option)
        board.pop_step()


def test_the_same_seed_gives_the_same_puzzle_and_seeds_differ():
    assert generate(3).to_json() == generate(3).to_json()
    targets = {(generate(s).target, generate(s).value) for s in range(10)}
    assert len(targets) >= 6, targets


def test_a_puzzle_reads_back_from_its_json():
    puzzle = generate(4)
    again = Puzzle.from_json(json.loads(json.dumps(puzzle.to_json())))
    assert again == puzzle


def test_a_plain_move_is_a_wrong_answer_and_an_illegal_turn_is_refused():
    puzzle = generate(2)
    board = puzzle.board()
    quiet = next(str(m) for m in board.legal_moves()
                 if all(c.square != m.to for c in board.captures()))
    verdict = check_answer(puzzle, quiet)
    assert not verdict.right and verdict.taken == () and verdict.turn == quiet
    with pytest.raises(DomainError) as refused:
        check_answer(puzzle, "a1-a16")
    assert refused.value.code.startswith("rithmo.")


def test_a_hand_made_position_its_puzzle_and_its_hint():
    # White's R4 on c2 meets Black's r4 on d3 (encounter); Black's t16 on e5 is out of reach.
    board = Board.from_pieces({"c2": "R4", "d3": "r4", "h1": "S25", "a16": "s49", "h16": "t16"})
    puzzle = puzzle_at(board)
    assert puzzle is not None
    assert (puzzle.target, puzzle.part, puzzle.value, puzzle.piece) == ("d3", 0, 4, "R4")
    assert [(w.method, w.by, w.turn) for w in puzzle.solutions] == [
        ("encounter", ("c2",), "xd3 c2-d3")]
    given = hint(board)
    assert given is not None and (given.victim, given.method, given.turn) == (
        "d3", "encounter", "xd3 c2-d3")
    assert hint(Board.start()) is None


def test_two_victims_of_the_same_value_make_no_puzzle():
    board = Board.from_pieces({"c2": "R4", "d3": "r4", "b3": "r4", "a16": "s49"})
    assert len({c.square for c in board.captures()}) == 2
    assert puzzle_at(board) is None


def test_a_finished_game_gives_its_puzzle_positions():
    rng = random.Random(1)
    game = Game()
    from bot.rithmo.opponents import random_turn
    while len(game.turns) < 60 and not game.is_over():
        game.push(random_turn(game, rng))
    turns = [str(t) for t in game.turns]
    found = from_turns(game.settings.to_json(), turns, {"kind": "game", "game_id": 9},
                       random.Random(2))
    assert found is not None and found.source["game_id"] == 9
    replay = Game.from_json({"settings": game.settings.to_json(),
                             "turns": turns[:found.source["ply"]]})
    assert replay.board.to_json() == found.position


def test_the_command_prints_a_puzzle_as_json_and_refuses_a_bad_seed():
    out, err = io.StringIO(), io.StringIO()
    assert cli(["puzzle", "--seed", "5"], stdout=out, stderr=err) == 0
    printed = json.loads(out.getvalue())
    assert printed == generate(5).to_json()
    assert printed["solutions"] and printed["target"]["value"] > 0
    for bad in (["puzzle"], ["puzzle", "--seed", "-1"], ["puzzle", "--seed", "1e3"],
                ["puzzle", "--seed"], ["puzzle", "--seed", "1", "2"]):
        out, err = io.StringIO(), io.StringIO()
        assert cli(bad, stdout=out, stderr=err) == 2, bad
        assert out.getvalue() == "" and "--seed N" in err.getvalue()


def test_with_nothing_to_take_now_the_hint_is_a_capture_a_move_opens():
    # White's R4 on c2 takes nothing (not an assault: 16 is not 4 × 1); after c2-d3 it reaches
    # Black's r16 on e4, and 4² = 16 (power).
    board = Board.from_pieces({"c2": "R4", "e4": "r16", "a16": "s49"})
    before = board.to_json()
    assert board.captures() == []
    given = hint(board)
    assert board.to_json() == before  # left as it was
    assert given is not None and (given.victim, given.method, given.value) == ("e4", "power", 16)
    assert given.turn == "c2-d3 xe4" and given.why == {"relation": "power", "values": [4, 2],
                                                       "result": 16}
    played = board.push(given.turn)  # a legal turn, and it takes the piece
    assert [name(c.square) for c in played.captures] == ["e4"]
    assert hint(Board.from_pieces({"a1": "R4", "h16": "r9"})) is None  # nothing, even after a move


def fishing_lines(puzzle: Puzzle) -> list[str]:
    """What a member fishing for the answer types: the target alone, a capture of it with no
    capturer, each solution with a letter, a square or a space wrong or missing, garbage."""
    target = puzzle.target
    lines = [target, f"x{target}", f"x {target}", f"{target}x", f"take {target}", "x", "xx",
             "??", f"x{target} x{target}", f"{target}-{target}", "d14 d12-d14"]
    for way in puzzle.solutions:
        turn = way.turn
        lines += [turn[:-1], turn + "1", turn.replace("x", ""), turn.replace(" ", ""),
                  turn.replace("-", " "), turn.upper(), turn[1:], "x" + turn]
        lines += [turn[:i] + turn[i + 1:] for i in range(len(turn))]
    return lines


@pytest.mark.parametrize("seed", range(12))
def test_a_refused_answer_never_suggests_the_solution(seed: int) -> None:
    # Issue 28: "Did you mean `xd14 d12-d14`?" gave the daily puzzle away.
    puzzle = generate(seed)
    solutions = {way.turn for way in puzzle.solutions}
    refused_some = 0
    for text in fishing_lines(puzzle):
        try:
            check_answer(puzzle, text)
        except DomainError as refused:
            refused_some += 1
            said = refusal(puzzle, text, refused)
            if said.code != "rithmo.did_you_mean":
                continue
            turns = said.params["turns"].split("`, `")
            assert len(turns) == said.params["count"]
            for turn in turns:
                assert turn not in solutions, (text, turns)
                assert not check_answer(puzzle, turn).right, (text, turn)
                if refused.code == "rithmo.bad_notation":
                    assert "x" not in turn, (text, turns)
    assert refused_some > 0


def test_a_refused_answer_still_suggests_the_near_legal_moves() -> None:
    """Not every suggestion goes: a move one square off is still told its near neighbours."""
    for seed in range(20):
        puzzle = generate(seed)
        board = puzzle.board()
        for move in board.legal_moves():
            typed = str(move)[:-1] + ("9" if str(move)[-1] != "9" else "8")
            try:
                check_answer(puzzle, typed)
            except DomainError as refused:
                said = refusal(puzzle, typed, refused)
                if said.code == "rithmo.did_you_mean":
                    return
    raise AssertionError("no refusal suggested anything")


def test_the_fishing_lines_would_find_the_solution_in_a_games_suggestions() -> None:
    """The lines above are the ones that fished: a game's own suggestions (which may rightly
    name any legal turn) list a solution for some of them, the puzzle's never."""
    leaked = 0
    for seed in range(12):
        puzzle = generate(seed)
        solutions = {way.turn for way in puzzle.solutions}
        for text in fishing_lines(puzzle):
            try:
                check_answer(puzzle, text)
            except DomainError as refused:
                said = with_suggestions(puzzle.board(), text, refused)
                if said.code == "rithmo.did_you_mean":
                    leaked += bool(solutions & set(said.params["turns"].split("`, `")))
    assert leaked > 0
