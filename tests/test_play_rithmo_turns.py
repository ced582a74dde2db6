"""bot.play.rithmo_turns: the settings of a challenge, the turns offered while typing, the engine's
refusals said by the catalogues, and the options of the turn menus (no Discord here)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_rithmo_refusals import codes_written

from bot.domain import DomainError
from bot.i18n import catalogues, placeholders, t
from bot.play.rithmo_turns import (
    build_settings,
    completions,
    last_turn_json,
    server_settings,
    taken_and_explained,
    taken_texts,
)
from bot.rithmo import Board, Game, Settings, Turn, Victory
from bot.rithmo.refusals import CODES, REFUSALS
from bot.ui.rithmo import (
    actor_options,
    completion_label,
    settings_text,
    step_options,
    taken_text,
)
from tests.french import fr

PYRAMID_190 = "p(s64s49t36t25r16)"


def kinds(settings: Settings) -> list[tuple[str, int | None, int | None, int | None]]:
    return [(v.kind, v.pieces, v.value, v.digits) for v in settings.victories]


# ------------------------------------------------------------------------------ settings


def test_without_options_a_challenge_takes_the_class_game_defaults() -> None:
    assert build_settings(server_settings(None)) == Settings()
    assert kinds(Settings()) == [("body", 8, None, None), ("mediocre", None, None, None)]


def test_a_chosen_victory_replaces_the_common_one_and_keeps_the_proper_one() -> None:
    settings = build_settings(Settings(), victory="goods")
    assert kinds(settings) == [("goods", None, 300, None), ("mediocre", None, None, None)]
    settings = build_settings(Settings(), victory="lawsuit", value=120, proper="excellent",
                              move_limit=200)
    assert kinds(settings) == [("lawsuit", None, 120, 10), ("excellent", None, None, None)]
    assert settings.move_limit == 200


def test_thresholds_without_a_victory_change_the_default_victory_that_uses_them() -> None:
    assert kinds(build_settings(Settings(), pieces=3, proper="off")) == [("body", 3, None, None)]
    with pytest.raises(DomainError) as refused:
        build_settings(Settings(), value=100)
    assert (refused.value.code, refused.value.params) == (
        "rithmo.threshold_unused", {"threshold": "value"})
    with pytest.raises(DomainError) as refused:
        build_settings(Settings(), victory="body", digits=4)
    assert refused.value.code == "rithmo.threshold_unused"


def test_one_check_refuses_a_threshold_no_chosen_victory_uses_whichever_way_it_is_chosen(
        ) -> None:
    # No common victory, one chosen, or the server's: the same refusal with the same params.
    for options in ({"victory": "none", "digits": 4}, {"victory": "goods", "digits": 4},
                    {"digits": 4}):
        with pytest.raises(DomainError) as refused:
            build_settings(Settings(), **options)  # type: ignore[arg-type]
        assert (refused.value.code, refused.value.params) == (
            "rithmo.threshold_unused", {"threshold": "digits"}), options
    with pytest.raises(DomainError) as refused:
        build_settings(Settings(), victory="mediocre")  # a proper victory is not a common one
    assert refused.value.code == "rithmo.bad_settings"
    assert kinds(build_settings(Settings(), victory="none")) == [("mediocre", None, None, None)]


def test_the_servers_default_thresholds_stay_unless_given() -> None:
    server = server_settings({"body": {"pieces": 5}, "goods": {"value": 160}})
    assert kinds(server) == [("body", 5, None, None), ("goods", None, 160, None)]
    assert kinds(build_settings(server, victory="goods")) == [("goods", None, 160, None)]
    assert kinds(build_settings(server, victory="goods", value=90)) == [("goods", None, 90, None)]
    assert kinds(build_settings(server, pieces=2)) == [("body", 2, None, None),
                                                        ("goods", None, 160, None)]


def test_the_servers_defaults_are_read_in_every_shape_and_garbage_falls_back() -> None:
    full = Settings((Victory.make("honour"),), move_limit=150)
    assert server_settings(full.to_json()) == full
    assert kinds(server_settings([{"kind": "proceeds", "digits": 9}])) == [
        ("proceeds", None, None, 9)]
    assert server_settings({"victories": "nonsense"}) == Settings()
    assert server_settings(42) == Settings()


def test_no_victory_at_all_is_refused_but_a_move_limit_alone_is_a_game() -> None:
    with pytest.raises(DomainError) as refused:
        build_settings(Settings(), victory="none", proper="off")
    assert refused.value.code == "rithmo.no_victory"
    assert build_settings(Settings(), victory="none", proper="off", move_limit=40).victories == ()
    limited = Settings(move_limit=100)
    assert build_settings(limited, move_limit=0).move_limit is None


def test_settings_are_written_for_people_in_both_languages() -> None:
    settings = build_settings(Settings(), victory="honour", move_limit=60)
    assert settings_text(settings, "en").splitlines() == [
        "• Honour: at least 300 in value taken, with fewer than 5 pieces",
        "• Mediocre (proper) victory: the enemy pyramid taken, then 3 or 4 of your pieces in the "
        "enemy half in a progression",
        "• Move limit: 60 turns in all"]
    assert settings_text(settings, "fr").splitlines()[0] == (
        fr("• Honneur : au moins 300 de valeur prise, avec moins de 5 pièces"))


# ------------------------------------------------------------------------------ completions


def test_completions_of_a_piece_list_its_moves_with_the_piece() -> None:
    board = Board.start()
    found = completions(board, "c4")
    assert [(c.text, completion_label(c, "en")) for c in found] == [("c4-b5", "c4-b5 — R8"),
                                                         ("c4-d5", "c4-d5 — R8")]
    assert completions(board, "C4 - b") == found[:1]
    assert completions(board, "zz") == []


def test_completions_are_whole_legal_turns_and_leave_the_board_as_it_was() -> None:
    game = Game()
    for turn in ("h2-g5", "g14-g12"):
        game.push(turn)
    board = game.board
    before = (board.position_string(), len(board.history))
    for typed in ("", "x", "xg12", "xg12 ", "g", "g5-", "a3-a5 ", "drop"):
        found = completions(board, typed)
        assert len(found) <= 25
        assert (board.position_string(), len(board.history)) == before
        for c in found:
            game.push(c.text)  # raises if it is not a legal turn
            game.pop()
    assert completions(board, "")[0].text == "xg12 g5-g12"  # captures come first
    assert completion_label(completions(board, "")[0], "en") == "xg12 g5-g12 — S15 · takes T90"
    assert completion_label(completions(board, "")[0], "fr") == "xg12 g5-g12 — S15 · prend T90"


def test_a_word_still_being_typed_is_not_taken_as_finished() -> None:
    # xd1 could still become xd16: while no space follows it, both stay open.
    # R3 on d13 assaults the 6 on d16 (two empty squares between: 3 × 2 = 6).
    board = Board.from_pieces({"c2": "R16", "d3": "s16", "d16": "s6", "d13": "R3"})
    texts = [c.text for c in completions(board, "xd")]
    assert "xd3 c2-d3" in texts and any(t.startswith("xd16") for t in texts)
    assert all(t.startswith("xd16") for t in (c.text for c in completions(board, "xd16")))


def test_completions_after_a_regular_move_offer_the_captures_it_opens() -> None:
    board = Board.from_pieces({"b1": "R16", "d3": "s16", "h16": "s49"})
    found = [c.text for c in completions(board, "b1-c2")]
    assert found == ["b1-c2", "b1-c2 xd3"]  # what was typed is a whole turn already


# ------------------------------------------------------------------------------ refusals


def why(board: Board, text: str) -> tuple[str, dict[str, object]]:
    """The engine's own refusal of ``text``: since issue 13 it names the reason (the cog used to
    replay the turn to find it, as ``rithmo.why.<reason>``)."""
    game_board = board
    with pytest.raises(DomainError) as refused:
        game_board.push(text)
    error = refused.value
    assert game_board.history == [] and not game_board.turn_in_progress  # given back intact
    return error.code, error.params


@pytest.mark.parametrize("text, code, params", [
    ("a5-a6", "rithmo.no_piece", {"move": "a5-a6", "square": "a5"}),
    ("c13-b12", "rithmo.not_yours", {"move": "c13-b12", "square": "c13", "piece": "R3"}),
    ("c3-d4", "rithmo.occupied", {"move": "c3-d4", "square": "d4", "piece": "R6"}),
    ("c3-c5", "rithmo.not_a_move_of.round", {"move": "c3-c5", "square": "c3", "piece": "R64"}),
    ("a3-a6", "rithmo.not_a_move_of.triangle", {"move": "a3-a6", "square": "a3", "piece": "T81"}),
    ("g1-g5", "rithmo.not_a_move_of.square", {"move": "g1-g5", "square": "g1", "piece": "S81"}),
    ("b2-b7", "rithmo.not_a_move_of.pyramid",
     {"move": "b2-b7", "square": "b2", "piece": "P91", "shapes": "R, T, S"}),
    ("xe8", "rithmo.nothing_to_take", {"square": "e8"}),
    ("xc3", "rithmo.own_piece", {"square": "c3", "piece": "R64"}),
    ("xd14(5)", "rithmo.not_a_pyramid", {"square": "d14", "piece": "R25"}),
    ("xh15(7)", "rithmo.no_component", {"square": "h15", "part": 7,
                                            "parts": "64, 49, 36, 25, 16"}),
    ("xd14", "rithmo.cannot_take", {"square": "d14", "piece": "R25"}),
    ("b3-c5 xd14", "rithmo.after_leap", {"move": "b3-c5"}),
    ("xd7 drop T36 d1", "rithmo.capture_before_drop", {}),
    ("drop T36 d1", "rithmo.drop_none", {"piece": "T36"}),
    ("c4-b5 hello", "rithmo.bad_notation", {"text": "c4-b5 hello"}),
    ("c4-b17", "rithmo.bad_square", {"square": "b17"}),
])
def test_a_refused_turn_from_the_start_says_why(text: str, code: str,
                                                params: dict[str, object]) -> None:
    found_code, found_params = why(Board.start(), text)
    assert found_code == code
    assert {k: found_params[k] for k in params} == params


def test_refusals_of_drops_captures_first_and_steps() -> None:
    hand = Board.from_pieces({"a1": "S25", "h16": "s49"}, taken={"white": "T36"})
    assert why(hand, "drop T36 d2") == ("rithmo.drop_rank", {"piece": "T36", "rank": 1})
    assert why(hand, "drop T36 a1") == ("rithmo.drop_occupied",
                                        {"piece": "T36", "square": "a1"})
    met = Board.from_pieces({"c2": "R16", "d3": "s16", "h16": "s49"})
    assert why(met, "xd3") == ("rithmo.must_step", {"options": "c2-d3"})
    assert why(met, "c2-d1 c1-b2") == ("rithmo.bad_notation", why(met, "c2-d1 c1-b2")[1])
    component = Board.from_pieces({"g14": "R36", "h15": PYRAMID_190, "a16": "s49"})
    assert why(component, "xh15(36) g14-h15") == ("rithmo.no_square_freed", {})


def test_every_refusal_has_a_sentence_in_both_languages_with_its_params() -> None:
    """Each code the engine lists (bot.rithmo.refusals.REFUSALS, so this cannot drift from the
    engine) has its sentence in English and in French, and each sentence only asks for params
    the engine always gives with that code."""
    texts = catalogues().texts
    assert len(REFUSALS) >= 30
    for refusal in REFUSALS:
        for lang in ("en", "fr"):
            key = f"errors.{refusal.code}"
            forms = [k for k in (key, f"{key}.one", f"{key}.many", f"{key}.other")
                     if k in texts[lang]]
            assert key in forms or f"{key}.other" in forms, (refusal.code, lang)
            for form in forms:  # a plural sentence says each of its forms
                assert placeholders(texts[lang][form]) <= set(refusal.params), (form, lang)
    assert t("errors.rithmo.not_a_move_of.round", "fr", move="c3-c5", square="c3",
             piece="R64") == (
        fr("c3-c5 : le rond R64 en c3 avance d'une case en diagonale, sur une case vide."))


def test_every_rithmo_refusal_sentence_belongs_to_a_code_still_raised() -> None:
    """The other way round: each ``errors.rithmo.*`` sentence is said for an engine code or for a
    code raised elsewhere in the product (cogs, services, db), so none is left behind (the
    engine's generic ``rithmo.illegal_move`` … and the cog's ``rithmo.why.*`` of before issue 13
    are gone)."""
    root = Path(__file__).resolve().parent.parent
    product = sorted(p for top in ("bot", "cogs", "db") for p in (root / top).rglob("*.py"))
    raised = CODES | set(codes_written(product))
    for lang in ("en", "fr"):
        said = {re.sub(r"\.(one|many|other)$", "", k.removeprefix("errors."))
                for k in catalogues().texts[lang] if k.startswith("errors.rithmo.")}
        assert said - raised == set(), lang
        assert not any(k.startswith(("rithmo.why.", "rithmo.illegal_")) for k in said)


# ------------------------------------------------------------------------------ menus


def test_the_piece_menu_lists_what_can_act_captures_first() -> None:
    board = Board.from_pieces({"b1": "R16", "c2": "R16", "d3": "s16", "h16": "s49"},
                              taken={"white": "T36T36R4"})
    options = actor_options(board, "en")
    assert [o.value for o in options] == ["sq:c2", "sq:b1", "drop:T36", "drop:R4"]
    assert options[0].label == "c2 — R16"
    assert options[0].description == "can take d3 · 2 moves"
    assert (options[2].label, options[2].description) == (
        "Drop your T36", "7 free squares on your first rank")


def test_the_step_menu_of_a_piece_then_of_the_phase_after_it() -> None:
    board = Board.from_pieces({"c2": "R16", "d3": "s16", "h16": "s49"})
    steps = step_options(board, "sq:c2", "en")
    assert [o.value for o in steps] == ["xd3", "c2-b1", "c2-b3", "c2-d1"]
    assert (steps[0].label, steps[0].description) == ("Take S16 on d3", "by c2")
    board.play("xd3")
    after = step_options(board, None, "en")
    assert [(o.value, o.label) for o in after] == [
        ("c2-d3", "R16 c2 → d3 (onto the freed square)")]
    assert step_options(Board.start(), None, "en") == []  # no piece chosen yet


def test_the_last_turn_and_what_it_took_for_the_picture_and_the_message() -> None:
    board = Board.from_pieces({"c2": "R16", "d3": "s16", "g14": "R36", "h15": PYRAMID_190})
    turn = Turn.parse("xd3 c2-d3")
    assert last_turn_json(turn) == {"from": "c2", "to": "d3", "captured": ["d3"]}
    assert taken_texts(board, turn) == ["S16"]
    assert taken_texts(board, Turn.parse("xh15(36)")) == ["36 (P190)"]
    assert last_turn_json(Turn.parse("drop T36 d1")) == {"to": "d1"}
    # What a saved turn carries is data (square, shape, value, the pyramid's component, the
    # rule and its numbers); the presentation words it as the menus write the pieces.
    [square] = taken_and_explained(board, turn)
    assert (square.square, square.value, square.part) == ("d3", 16, None)
    assert square.why["method"] and square.why["why"]["result"] == 16
    [component] = taken_and_explained(board, Turn.parse("xh15(36)"))
    assert (component.square, component.value, component.part) == ("h15", 190, 36)
    assert [taken_text(square), taken_text(component)] == ["S16", "36 (P190)"]
