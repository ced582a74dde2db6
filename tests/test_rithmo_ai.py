"""The Rithmomachia opponent: every level plays legal turns, takes what is free, keeps what it
would lose, wins when it can, repeats itself given a seed and a node budget; the evaluation's
parts on positions made by hand."""

import random

import pytest

from bot.domain import DomainError
from bot.rithmo import BLACK, START, WHITE, Board, Game, Settings, Victory
from bot.rithmo.ai import (
    LEVELS,
    NEAR_WIN,
    POINTS,
    PYRAMID_THREAT,
    TEMPO,
    W_GAIN,
    W_LOSS_BIGGEST,
    W_MATERIAL,
    WIN,
    Evaluator,
    Searcher,
    choose_steps,
    choose_turn,
)
from tools.ladder.rithmo import GameSpec, play_game

NODES = 400  # small budgets keep the tests fast; the ladder measures strength


def random_game(seed: int, turns: int, settings: Settings | None = None) -> Game:
    """A game of uniformly random legal steps, stopped after ``turns`` turns or at its end."""
    rng = random.Random(seed)
    game = Game(settings or Settings(victories=(Victory.make("body", pieces=20),)))
    while len(game.turns) < turns and not game.is_over():
        board = game.board
        board.push_step(rng.choice(board.legal_steps()))
        while board.phase != START:
            board.push_step(rng.choice(board.legal_steps()))
    return game


MIDGAMES = [random_game(seed, turns) for seed, turns in
            [(1, 30), (2, 60), (3, 90), (4, 120), (5, 45), (6, 150)]]


def test_midgame_samples_cover_captures_and_drops():
    # the positions below must include what makes a turn hard: captures open, pieces to drop
    assert any(g.board.captures() for g in MIDGAMES)
    assert any(g.board.legal_drops() for g in MIDGAMES)
    assert not any(g.is_over() for g in MIDGAMES)


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_a_legal_turn_from_the_start(level):
    game = Game()
    turn = choose_turn(game, level, random.Random(7), nodes=NODES)
    game.push(turn)  # checked step by step: a refused turn raises
    assert len(game.turns) == 1


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("index", range(len(MIDGAMES)))
def test_every_level_plays_a_legal_turn_in_random_midgame_positions(level, index):
    game = MIDGAMES[index]
    before = game.board.position_string()
    turn = choose_turn(game, level, random.Random(index), nodes=NODES)
    assert game.board.position_string() == before  # choosing changes nothing
    played = Game.from_json(game.to_json())
    played.push(turn)
    assert len(played.turns) == len(game.turns) + 1


def test_the_search_leaves_the_board_as_it_found_it_even_when_the_budget_runs_out():
    for game in MIDGAMES[:3]:
        board = game.board
        before = (board.position_string(), board.key(), len(board.history))
        for nodes in (5, 57, 300):
            Searcher(game.settings, nodes=nodes, rng=random.Random(1)).search(board)
            assert (board.position_string(), board.key(), len(board.history)) == before


# ---------------------------------------------------------------- playing sense

def hanging():
    """White's round 16 on c2 may take Black's square 16 on d3 (Encounter); nothing can take
    it back."""
    return Board.from_pieces({"c2": "R16", "d3": "s16", "a1": "R4", "h16": "r9"}, "white")


@pytest.mark.parametrize("level", ["middle", "strong"])
def test_middle_and_strong_take_a_free_piece(level):
    game = Game(start=hanging())
    turn = choose_turn(game, level, random.Random(3), nodes=NODES)
    assert "xd3" in str(turn)


def test_the_beginner_takes_a_free_piece_most_of_the_time():
    game = Game(start=hanging())
    took = sum("xd3" in str(choose_turn(game, "beginner", random.Random(seed)))
               for seed in range(20))
    assert 12 <= took < 20  # honest, but not every time


def test_the_random_level_rarely_sees_it():
    game = Game(start=hanging())
    took = sum("xd3" in str(choose_turn(game, "random", random.Random(seed)))
               for seed in range(20))
    assert took < 12


def threatened_big_piece():
    """Black's round 17 on e6 takes White's square 289 on d5 by Power (17² = 289) next turn,
    unless it moves; a small capture tempts: White's triangle 9 on a5 takes the 3 on a3 (Power,
    3² = 9), but then its move is spent stepping onto a3 and the 289 is lost."""
    return Board.from_pieces({"d5": "S289", "e6": "r17", "a1": "R4", "a5": "T9", "a3": "r3",
                              "h16": "r9", "h14": "t20"}, "white")


@pytest.mark.parametrize("level", ["middle", "strong"])
def test_a_big_piece_under_threat_is_kept(level):
    board = threatened_big_piece()
    assert [c.square for c in board.captures(BLACK)] == [board.piece_at("d5").sq]
    assert [c.square for c in board.captures(WHITE)] == [board.piece_at("a3").sq]
    game = Game(Settings.make(["goods"]), start=board)
    turn = choose_turn(game, level, random.Random(1), nodes=1500)
    game.push(turn)
    big = next(p for p in game.board.pieces[WHITE] if p.value == 289)
    assert all(c.square != big.sq for c in game.board.captures(BLACK)), str(turn)


def test_the_strong_level_leaves_nothing_to_take():
    """With a deeper look, the strong level leaves Black nothing to take at all."""
    game = Game(Settings.make(["goods"]), start=threatened_big_piece())
    turn = choose_turn(game, "strong", random.Random(2), nodes=3000)
    game.push(turn)
    lost = sum(Evaluator(game.settings).worth(game.board.squares[c.square], c.part)
               for c in game.board.captures(BLACK))
    assert lost == 0, str(turn)


def arrangement_in_one():
    """Black's pyramid is gone; White's round 4 on c9 steps to d10 between its 2 on c10 and its
    6 on e10: 2-4-6 in a row in the enemy half, the mediocre victory. A capture (White's square
    25 on b2 meets Black's 25 on b5) tempts."""
    return Board.from_pieces({"c10": "R2", "e10": "R6", "c9": "R4", "b2": "S25", "b5": "s25",
                              "a7": "s121", "h16": "r9", "h14": "t20"}, "white")


@pytest.mark.parametrize("level", ["middle", "strong"])
def test_a_proper_victory_in_one_is_taken(level):
    board = arrangement_in_one()
    assert board.captures(WHITE)
    game = Game(Settings(), start=board)
    game.push(choose_turn(game, level, random.Random(4), nodes=NODES))
    out = game.outcome()
    assert out is not None and out.winner == WHITE and out.victory == "mediocre"


def test_the_strong_level_wins_body_at_once_rather_than_take_more_later():
    # White holds 7 pieces: any capture is the 8th, and White's round 9 on d4 may take Black's
    # round 3 on e5 by Power (9 = 3²).
    board = Board.from_pieces({"d4": "R9", "e5": "r3", "a1": "S289", "h16": "s361",
                               "h13": "t100"}, "white", {"white": "R2R4R6R8R16R36R64"})
    assert board.captures(WHITE)
    game = Game(Settings(), start=board)
    result = Searcher(game.settings, nodes=600, rng=random.Random(0)).search(game.board)
    assert result.score >= WIN - 10
    game.push(result.turn)
    assert game.outcome().winner == WHITE and game.outcome().victory == "body"


def test_the_strong_level_sees_a_loss_coming_and_stops_it():
    """Black holds 7 pieces and threatens White's round 9 by Power (3² = 9): taking it would
    be Black's 8th piece, the body victory. White, to move, must deal with it."""
    board = Board.from_pieces({"d4": "R9", "e5": "r3", "c6": "r81", "h8": "R2",
                               "a1": "S289", "h16": "s361"}, "white",
                              {"black": "R2R4R6R8R16R36R64"})
    assert any(c.square == board.piece_at("d4").sq for c in board.captures(BLACK))
    game = Game(Settings(), start=board)
    turn = choose_turn(game, "strong", random.Random(0), nodes=3000)
    game.push(turn)
    assert not game.is_over()
    reply = choose_turn(game, "strong", random.Random(0), nodes=3000)
    game.push(reply)
    assert game.outcome() is None or game.outcome().winner != BLACK, f"{turn} / {reply}"


# ---------------------------------------------------------------- determinism

@pytest.mark.parametrize("level", LEVELS)
def test_the_same_seed_and_node_budget_give_the_same_turn(level):
    game = MIDGAMES[2]
    turns = {str(choose_turn(game, level, random.Random(11), nodes=700)) for _ in range(3)}
    assert len(turns) == 1


def test_a_ladder_game_replays_exactly():
    spec = GameSpec("strong", "middle", 1, seed=5, opening=4, move_limit=12,
                    nodes=(("strong", 150),), seconds=())
    first, second = play_game(spec), play_game(spec)
    assert first.record == second.record and first.turns == 12


def test_different_seeds_vary_the_random_levels():
    game = Game()
    assert len({str(choose_turn(game, "random", random.Random(s))) for s in range(10)}) > 1
    assert len({str(choose_turn(game, "beginner", random.Random(s))) for s in range(10)}) > 1


# ---------------------------------------------------------------- refusals

def test_an_unknown_level_is_refused():
    with pytest.raises(DomainError) as err:
        choose_turn(Game(), "grandmaster", random.Random(0))
    assert err.value.code == "rithmo.bad_level"


def test_a_finished_game_is_refused():
    game = Game()
    game.resign("white")
    with pytest.raises(DomainError) as err:
        choose_turn(game, "middle", random.Random(0))
    assert err.value.code == "rithmo.game_over"


def test_the_search_starts_between_turns():
    board = hanging()
    board.play("xd3")
    with pytest.raises(ValueError):
        choose_steps(board, Settings(), "middle", random.Random(0))


# ---------------------------------------------------------------- the evaluation's parts

def test_start_position_parts():
    """Body 8 + mediocre: each piece is worth 1/8 of a victory; White has 29 pieces counting its
    pyramid's 6 components, Black 28; nothing is taken, nothing threatened."""
    ev = Evaluator(Settings())
    parts = ev.explain(Board.start())
    assert parts["progress"] == pytest.approx(0)
    assert parts["material"] == pytest.approx(POINTS * W_MATERIAL * (29 - 28) / 8)
    assert parts["threats"] == 0 and parts["pyramid"] == 0 and parts["tempo"] == TEMPO
    assert ev.evaluate(Board.start()) == round(sum(parts.values()))


def test_worth_follows_the_chosen_common_victories():
    body = Evaluator(Settings.make(["body"]))
    assert body.worth_of_value(2) == body.worth_of_value(361) == pytest.approx(1 / 8)
    goods = Evaluator(Settings.make(["goods"]))
    assert goods.worth_of_value(150) == pytest.approx(0.5)
    proceeds = Evaluator(Settings.make(["proceeds"]))
    assert proceeds.worth_of_value(121) == pytest.approx(3 / 16)
    both = Evaluator(Settings.make(["body_goods"]))
    assert both.worth_of_value(150) == pytest.approx((1 / 8 + 0.5) / 2)
    honour = Evaluator(Settings.make(["honour"]))
    assert honour.worth_of_value(2) < 0 < honour.worth_of_value(100)  # few big captures
    lawsuit = Evaluator(Settings.make(["lawsuit"]))
    assert lawsuit.worth_of_value(99) > lawsuit.worth_of_value(100) - 0.01
    assert lawsuit.worth_of_value(7) < 0
    # a pyramid is worth its components
    board = Board.start()
    assert goods.worth(board.piece_at("b2")) == pytest.approx(91 / 300)
    assert goods.worth(board.piece_at("b2"), 36) == pytest.approx(36 / 300)


def test_progress_counts_what_each_side_holds():
    ev = Evaluator(Settings.make(["body"]))
    board = Board.from_pieces({"a1": "R2", "h16": "r3"}, "white",
                              {"white": "R4R6R8R9", "black": "T16"})
    parts = ev.explain(board)
    assert parts["progress"] == pytest.approx(POINTS * (4 / 8 - 1 / 8))
    # as seen by Black, the same numbers the other way round
    board.turn = BLACK
    assert ev.explain(board)["progress"] == pytest.approx(-POINTS * (4 / 8 - 1 / 8))


def test_progress_of_a_combined_victory_is_the_mean_of_its_conditions():
    ev = Evaluator(Settings.make([Victory.make("body_goods", pieces=4, value=100)]))
    assert ev.common_progress(2, 100, 3) == [pytest.approx((0.5 + 1.0) / 2)]
    assert ev.common_progress(9, 500, 12) == [1.0]  # capped


def test_nearest_victory_counts_fully_the_others_half():
    ev = Evaluator(Settings.make([Victory.make("body", pieces=4),
                                  Victory.make("goods", value=100)]))
    board = Board.from_pieces({"a1": "R2", "h16": "r3"}, "white", {"white": "R10R20"})
    assert ev.progress(board, WHITE) == pytest.approx(0.5 + 0.5 * 0.3)


def test_threats_the_side_to_move_takes_what_is_open():
    ev = Evaluator(Settings.make(["body"]))
    board = hanging()
    parts = ev.explain(board)
    assert parts["threats"] == pytest.approx(POINTS * W_GAIN / 8)
    # Black to move in the same position: its square 16 is threatened, and it is its biggest
    board.turn = BLACK
    assert ev.explain(board)["threats"] == pytest.approx(-POINTS * W_LOSS_BIGGEST / 8)


def test_threats_reaching_a_victory_count_nearly_as_a_win():
    ev = Evaluator(Settings.make(["body"]))
    board = Board.from_pieces({"c2": "R16", "d3": "s16", "a1": "R4", "h16": "r9"}, "white",
                              {"white": "R2R4R6R8R10R12R14"})
    assert ev.explain(board)["threats"] == pytest.approx(POINTS * W_GAIN / 8 + NEAR_WIN)


def test_a_threatened_pyramid_costs_extra_when_proper_victories_are_chosen():
    board = Board.from_pieces({"c2": "R16", "d3": "p(s12r4)", "a1": "R4", "h16": "r9"},
                              "black")
    proper = Evaluator(Settings()).explain(board)
    common = Evaluator(Settings.make(["body"])).explain(board)
    assert proper["pyramid"] == -PYRAMID_THREAT
    assert common["pyramid"] == 0


def test_proper_progress_grows_with_pieces_ahead_a_progression_and_the_pyramid_taken():
    ev = Evaluator(Settings.make(["mediocre"]))

    def prog(pieces):
        return ev.proper_progress(Board.from_pieces(pieces, "white"), WHITE)

    base = {"a1": "R2", "h16": "p(s64s49t36t25r16)"}  # Black's whole pyramid
    none_ahead = prog(base)
    one_ahead = prog({**base, "a10": "R3"})
    three_apart = prog({**base, "a10": "R3", "c12": "R5", "e14": "R7"})  # 3-5-7 arithmetic
    three_odd = prog({**base, "a10": "R3", "c12": "R5", "e14": "R8"})  # no progression
    assert none_ahead < one_ahead < three_odd < three_apart
    gone = {"a1": "R2", "h16": "s64"}
    assert prog({**gone, "a10": "R3", "c12": "R5", "e14": "R7"}) > three_apart
    # two of its five components taken count part of the way
    half = prog({"a1": "R2", "h16": "p(s64t36r16)"})
    assert none_ahead < half < prog({"a1": "R2", "h16": "s64"})


def test_the_evaluation_follows_the_chosen_victories():
    """White has taken either Black's square 361 or Black's whole pyramid (its 5 components,
    190 in all). Goods prefers the 361; body prefers five pieces to one; a proper victory
    prefers the pyramid, the first thing it needs."""
    took_361 = Board.from_pieces({"a1": "R2", "h15": "p(s64s49t36t25r16)", "c16": "r3"},
                                 "white", {"white": "S361"})
    took_pyramid = Board.from_pieces({"a1": "R2", "h16": "s361", "c16": "r3"}, "white",
                                     {"white": "S64S49T36T25R16"})

    def prefers(settings):
        ev = Evaluator(settings)
        return "361" if ev.evaluate(took_361) > ev.evaluate(took_pyramid) else "pyramid"

    assert prefers(Settings.make([Victory.make("goods", value=1000)])) == "361"
    assert prefers(Settings.make(["body"])) == "pyramid"
    assert prefers(Settings.make(["mediocre"])) == "pyramid"


@pytest.mark.parametrize("seed", range(4))
def test_middle_and_strong_play_legal_turns_through_random_games(seed):
    """Random games stopped at a random turn; then each level plays a few turns in a row."""
    rng = random.Random(seed)
    game = random_game(seed, rng.randint(5, 120), Settings(move_limit=400))
    for i in range(4):
        if game.is_over():
            break
        level = ("middle", "strong")[i % 2]
        game.push(choose_turn(game, level, random.Random(i), nodes=150))
