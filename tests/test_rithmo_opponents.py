"""bot.rithmo.opponents: the bot's turn in a game against a member (a random legal turn for now)."""

from __future__ import annotations

import random

import pytest

from bot.domain import DomainError
from bot.rithmo import Board, Game, Settings
from bot.rithmo.opponents import LEVELS, choose_turn


def _play_random(game: Game, turns: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(turns):
        if game.is_over():
            return
        game.push(choose_turn(game, 1, rng))


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_the_chosen_turn_is_legal_and_leaves_the_game_as_it_was(level: int) -> None:
    game = Game(Settings.make(["body"], move_limit=200))
    _play_random(game, 30, seed=level)
    before = (game.board.position_string(), len(game.turns))
    turn = choose_turn(game, level, random.Random(7))
    assert (game.board.position_string(), len(game.turns)) == before
    played = game.push(str(turn))  # the text reads back and the board accepts it
    assert str(played) == str(turn)


def test_the_same_seed_gives_the_same_turn() -> None:
    game = Game()
    first = [str(choose_turn(game, 1, random.Random(s))) for s in range(20)]
    again = [str(choose_turn(game, 1, random.Random(s))) for s in range(20)]
    assert first == again
    assert len(set(first)) > 5  # a random player, not always the same turn


def test_it_takes_captures_when_it_draws_them() -> None:
    # White R16 b1 meets Black S16 d3 after b1-c2: the only other things White can do are moves.
    board = Board.from_pieces({"b1": "R16", "d3": "s16", "h16": "s49"})
    game = Game(Settings.make(["body"]), board)
    game.push("b1-c2")
    game.push("h16-h13")
    turns = {str(choose_turn(game, 1, random.Random(s))) for s in range(200)}
    assert any("xd3" in t for t in turns)


def test_random_games_run_to_their_end_without_an_illegal_turn() -> None:
    for seed in range(3):
        game = Game(Settings.make(["body"], move_limit=60))
        _play_random(game, 100, seed)
        assert game.is_over()


def test_an_unknown_level_and_a_finished_game_are_refused() -> None:
    game = Game()
    with pytest.raises(DomainError) as bad:
        choose_turn(game, 9, random.Random(1))
    assert bad.value.code == "rithmo.bad_level"
    game.resign("white")
    with pytest.raises(DomainError) as over:
        choose_turn(game, 1, random.Random(1))
    assert over.value.code == "rithmo.game_over"
