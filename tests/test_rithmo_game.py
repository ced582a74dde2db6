"""Rithmomachia: every victory, the other ways a game ends, settings, the record and JSON."""

import random

import pytest

from bot.domain import DomainError
from bot.rithmo import BLACK, START, WHITE, Board, Game, Settings, Victory
from bot.rithmo.victory import DEFAULTS, KINDS, arrangements, proper_level


def holding(white_taken):
    return Board.from_pieces({"a1": "R2", "h16": "s3"}, "white", {"white": white_taken})


# ---------------------------------------------------------------- common victories

@pytest.mark.parametrize("kind,thresholds,reached,short", [
    ("body", {"pieces": 3}, "R2R4R6", "R2R4"),
    ("goods", {"value": 100}, "S64T36", "S64T35"),
    ("proceeds", {"digits": 5}, "S121T36", "S121R9"),
    ("body_goods", {"pieces": 2, "value": 100}, "S64T36", "S100"),
    ("body_proceeds", {"pieces": 2, "digits": 4}, "T36T25", "S361"),
    ("goods_proceeds", {"value": 100, "digits": 4}, "S64T36", "S100"),
    ("body_goods_proceeds", {"pieces": 3, "value": 100, "digits": 5}, "S64T30R6", "S64T36"),
    ("lawsuit", {"value": 300, "digits": 10}, "S361", "S64S64S64S64S64"),
    ("lawsuit", {"value": 300, "digits": 10}, "S361", "S121S121"),
    ("honour", {"value": 300, "pieces": 5}, "S361", "R64R64R64R64R64"),
    ("honour_lawsuit", {"value": 300, "digits": 10, "pieces": 5}, "S289T16", "S100S100S100R1"),
    ("honour_lawsuit", {"value": 300, "digits": 10, "pieces": 5}, "S289T16", "S99S99S99R4R4"),
])
def test_common_victory_reached_and_just_short(kind, thresholds, reached, short):
    v = Victory.make(kind, **thresholds)
    assert v.achieved(holding(reached), WHITE)
    assert not v.achieved(holding(short), WHITE)
    assert not v.achieved(holding(reached), BLACK)  # Black holds nothing


def test_every_kind_has_class_game_defaults():
    for kind, thresholds in KINDS.items():
        v = Victory.make(kind)
        assert all(getattr(v, t) == DEFAULTS[kind][t] for t in thresholds)
    assert Victory.make("body").pieces == 8 and Victory.make("goods").value == 300
    assert Settings().victories == (Victory.make("body"), Victory.make("mediocre"))
    assert Settings().move_limit is None


# ---------------------------------------------------------------- proper victories

def proper(pieces, pyramid=False):
    pieces = dict(pieces)
    pieces["h16"] = "p(s64r16)" if pyramid else "s3"
    return Board.from_pieces(pieces)


def test_mediocre_three_in_a_row_in_the_enemy_half():
    b = proper({"c10": "R2", "d10": "R4", "e10": "R6"})
    assert proper_level(b, WHITE) == 1
    assert Victory.make("mediocre").achieved(b, WHITE)
    assert not Victory.make("great").achieved(b, WHITE)


def test_proper_victory_needs_the_enemy_pyramid_taken():
    b = proper({"c10": "R2", "d10": "R4", "e10": "R6"}, pyramid=True)
    assert proper_level(b, WHITE) == 1
    assert not Victory.make("mediocre").achieved(b, WHITE)


@pytest.mark.parametrize("pieces,level", [
    ({"c8": "R2", "d8": "R4", "e8": "R6"}, 0),  # White's own half
    ({"c8": "R2", "c9": "R4", "c10": "R6"}, 0),  # one of them still at home
    ({"c10": "R2", "d10": "R4", "f10": "R6"}, 0),  # unequal spacing
    ({"c10": "R2", "e10": "R4", "g10": "R6"}, 1),  # equally spaced, empty between
    ({"c10": "R2", "d10": "r5", "e10": "R4", "g10": "R6"}, 0),  # an enemy in the row
    ({"c10": "R2", "d11": "R4", "e12": "R6"}, 1),  # diagonal
    ({"f10": "R2", "e11": "R4", "d12": "R6"}, 1),  # the other diagonal
    ({"c10": "R2", "c13": "R4", "c16": "R6"}, 1),  # column, gaps of 3
    ({"c10": "R2", "d10": "R4", "e10": "R7"}, 0),  # no progression
    ({"c10": "R3", "d10": "R4", "e10": "R6"}, 1),  # harmonic
    ({"c10": "R4", "d10": "R2", "e10": "R8"}, 1),  # geometric, in any order
    ({"c10": "R2", "d10": "R3", "e10": "R4", "f10": "R6"}, 2),  # AP 2-3-4, HP 3-4-6
    ({"c10": "R4", "d10": "R6", "e10": "R9", "f10": "R12"}, 3),  # GP, AP, HP
    ({"c10": "R4", "d10": "R6", "c11": "R9", "d11": "R12"}, 3),  # the corners of a square
    ({"c10": "R4", "f10": "R6", "c13": "R9", "f13": "R12"}, 3),  # a bigger square
    ({"c10": "R4", "d10": "R6", "c11": "R9", "e11": "R12"}, 0),  # not a square
])
def test_proper_arrangements(pieces, level):
    assert proper_level(proper(pieces), WHITE) == level


def test_great_and_excellent():
    great = proper({"c10": "R2", "d10": "R3", "e10": "R4", "f10": "R6"})
    excellent = proper({"c10": "R4", "d10": "R6", "e10": "R9", "f10": "R12"})
    for b, achieved in ((great, {"mediocre", "great"}),
                        (excellent, {"mediocre", "great", "excellent"})):
        assert {k for k in ("mediocre", "great", "excellent")
                if Victory.make(k).achieved(b, WHITE)} == achieved


def test_pyramid_counts_with_its_total_in_an_arrangement():
    b = proper({"c10": "R2", "d10": "P(S3R1)", "e10": "R6"})
    assert proper_level(b, WHITE) == 1


def test_black_arrangements_are_in_ranks_1_to_8():
    b = Board.from_pieces({"c3": "r2", "d3": "r4", "e3": "r6", "h16": "S3"})
    assert proper_level(b, BLACK) == 1 and len(arrangements(b, BLACK)) == 1


# ---------------------------------------------------------------- ending a game

def test_victory_is_checked_after_the_movers_turn():
    start = Board.from_pieces({"d5": "R16", "e6": "s16", "h16": "s361"})
    game = Game(Settings.make([Victory.make("body", pieces=1)]), start)
    assert game.outcome() is None
    game.push("xe6 d5-e6")
    out = game.outcome()
    assert out.winner == WHITE and out.reason == "victory" and out.victory == "body"
    assert str(out) == "White wins (victory of body)"
    with pytest.raises(DomainError) as err:
        game.push("h16-h13")
    assert err.value.code == "rithmo.game_over"


def test_a_victory_waits_for_its_owners_turn():
    # Black already holds a piece, but White moves: no victory until Black has moved
    start = Board.from_pieces({"a1": "R2", "h16": "s361"}, "white", {"black": "R4"})
    game = Game(Settings.make([Victory.make("body", pieces=1)]), start)
    game.push("a1-b2")
    assert game.outcome() is None
    game.push("h16-h13")
    assert game.outcome().winner == BLACK


def test_proper_victory_in_play():
    start = Board.from_pieces({"c10": "R2", "d10": "R4", "f9": "R6", "h16": "s361"})
    game = Game(Settings.make(["mediocre"]), start)
    game.push("f9-e10")
    assert game.outcome().victory == "mediocre" and game.outcome().winner == WHITE


def test_a_player_with_no_move_no_drop_loses():
    start = Board.from_pieces({"d5": "R16", "e6": "s16"})
    game = Game(Settings.make(["goods"]), start)
    game.push("xe6 d5-e6")  # Black has no piece and nothing to drop
    out = game.outcome()
    assert out.winner == WHITE and out.reason == "no_turn"


def test_a_player_who_can_still_drop_plays_on():
    start = Board.from_pieces({"d5": "R16", "e6": "s16"}, "white", {"black": "R4"})
    game = Game(Settings.make(["goods"]), start)
    game.push("xe6 d5-e6")
    assert game.outcome() is None
    game.push("drop R4 a16")


def test_a_player_walled_in_with_a_capture_is_not_lost():
    # White's only piece cannot move, but it can take: that is a turn
    start = Board.from_pieces({"a1": "R9", "b2": "s9", "h16": "s3"})
    assert not start.legal_moves()
    game = Game(Settings.make(["goods"]), start)
    assert game.outcome() is None
    game.push("xb2 a1-b2")


def test_resignation_and_agreed_draw():
    game = Game()
    game.push("c4-b5")
    out = game.resign("black")
    assert out.winner == WHITE and out.reason == "resignation" and game.is_over()
    with pytest.raises(DomainError):
        game.push("c13-b12")
    with pytest.raises(DomainError):
        game.agree_draw()
    game.pop()  # taking back a turn takes back the resignation made after it
    assert game.outcome() is None and game.turns == []
    out = game.agree_draw()
    assert out.winner is None and out.reason == "draw_agreed"


def test_move_limit_draw_or_goods():
    start = Board.from_pieces({"d5": "R16", "e6": "s16", "h16": "s361"})
    draw = Game(Settings.make(["proceeds"], move_limit=2), start)
    goods = Game(Settings.make(["proceeds"], move_limit=2, limit_rule="goods"), start)
    for game in (draw, goods):
        game.push("xe6 d5-e6")
        assert game.outcome() is None
        game.push("h16-h13")
    assert draw.outcome().winner is None and draw.outcome().reason == "move_limit"
    assert goods.outcome().winner == WHITE and goods.outcome().reason == "move_limit"


@pytest.mark.parametrize("data", [
    {"victories": ["flag"]},
    {"victories": [{"kind": "body", "pieces": 0}]},
    {"victories": [{"kind": "body", "value": 100}]},
    {"victories": [], "move_limit": None},
    {"victories": ["body"], "move_limit": 0},
    {"victories": ["body"], "limit_rule": "coin"},
    {"victories": "body"},
])
def test_bad_settings_are_refused(data):
    with pytest.raises(DomainError) as err:
        Settings.from_json(data)
    assert err.value.code == "rithmo.bad_settings"


def test_settings_json_round_trip():
    s = Settings.make([Victory.make("honour_lawsuit", value=250), "excellent"], move_limit=80,
                      limit_rule="goods")
    assert Settings.from_json(s.to_json()) == s
    assert s.to_json()["victories"][0] == {"kind": "honour_lawsuit", "value": 250,
                                           "digits": 10, "pieces": 5}


# ---------------------------------------------------------------- record and JSON

def random_game(seed, turns):
    game = Game(Settings.make(["body_goods_proceeds"]))
    rng = random.Random(seed)
    while len(game.turns) < turns and not game.is_over():
        game.board.push_step(rng.choice(game.board.legal_steps()))
        while game.board.phase != START:
            game.board.push_step(rng.choice(game.board.legal_steps()))
    return game


def test_record_reads_back_to_the_same_game():
    game = random_game(3, 120)
    assert any(t.captures for t in game.turns)
    record = game.record()
    assert record.startswith("1. ") and " 2. " in record
    again = Game.from_record(record, game.settings)
    assert again.board.position_string() == game.board.position_string()
    assert again.record() == record and again.outcome() == game.outcome()


def test_json_reads_back_to_the_same_game():
    game = random_game(5, 60)
    game.resign(game.to_move)
    data = game.to_json()
    again = Game.from_json(data)
    assert again.to_json() == data and again.outcome() == game.outcome()
    assert again.board.key() == game.board.key()


def test_json_of_a_game_with_a_turn_in_progress():
    start = Board.from_pieces({"d5": "R16", "e6": "s16", "h16": "s361"})
    game = Game(Settings(), start)
    game.board.play("xe6")
    data = game.to_json()
    assert data["turn_in_progress"] == "xe6"
    again = Game.from_json(data)
    assert again.to_json() == data and again.outcome() is None
    again.board.play("d5-e6")
    again.board.play("end")
    assert str(again.turns[-1]) == "xe6 d5-e6"


@pytest.mark.parametrize("record,turn,cause", [
    ("1. c4-c5", 1, "rithmo.not_a_move_of.round"),  # "rithmo.illegal_move" before issue 13
    ("1. c4-b5 2. c4-c5", 2, "rithmo.no_piece"),
    ("1. c4-b5 2. zz", 2, "rithmo.bad_notation"),
])
def test_bad_record_names_the_turn(record, turn, cause):
    with pytest.raises(DomainError) as err:
        Game.from_record(record)
    assert err.value.code == "rithmo.bad_record"
    assert err.value.params["turn"] == turn and err.value.params["cause"] == cause


def test_record_must_number_its_turns():
    with pytest.raises(DomainError) as err:
        Game.from_record("c4-b5")
    assert err.value.code == "rithmo.bad_record"


def test_outcome_follows_the_position_after_taking_back_and_playing_another_turn():
    start = Board.from_pieces({"d5": "R16", "e6": "s16", "h16": "s361"})
    game = Game(Settings.make([Victory.make("body", pieces=1)]), start)
    game.push("xe6 d5-e6")
    assert game.outcome().winner == WHITE
    game.pop()
    game.push("d5-c4")
    assert game.outcome() is None


def test_record_example_of_the_rules_document():
    game = Game.from_record("1. b3-c5 2. c13-b12 xc5")
    assert game.board.piece_at("c5") is None
    assert game.board.taken[BLACK] == [(2, 72)]  # the triangle 72, by Assault from c14
    assert game.record() == "1. b3-c5 2. c13-b12 xc5"
