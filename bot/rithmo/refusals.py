"""Every refusal of the Rithmomachia engine: one code per reason, and the params it carries.

The engine raises :class:`~bot.domain.DomainError` with one of these codes; ``str()`` of the error
is one line of English (the command line prints it), and the params hold what a sentence in any
language needs: squares by name (``"c3"``), pieces as the notation writes them (``"R64"``,
``"P91"``; a pyramid's component as ``"36 (P190)"``), moves and turns in the notation
(``"c3-c5"``), sides as ``"white"``/``"black"``. The bot says each code with the catalogue key
``errors.<code>``; a test keeps the two lists equal, so a reason added here without its sentences
fails, and one more test raises every code from a position that triggers it.

:data:`REFUSALS` lists them, in the order of docs/rules/rithmomachia.md ("Refused turns").
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Refusal:
    """A refusal's code, the params always given with it, those given only sometimes, and when
    it is raised (one line, for people reading the code)."""

    code: str
    params: tuple[str, ...]
    when: str
    optional: tuple[str, ...] = ()


_MOVE = ("move", "square", "piece")

REFUSALS: tuple[Refusal, ...] = (
    # reading a turn
    Refusal("rithmo.bad_notation", ("text", "reason"), "the text is not a turn"),
    Refusal("rithmo.bad_square", ("square",), "a square's name is not one of a1–h16"),
    Refusal("rithmo.capture_before_drop", ("text",), "captures written before a drop"),
    Refusal("rithmo.did_you_mean", ("text", "refusal", "turns", "count"),
            "a typed turn refused (refusal: why), with the legal turns nearest to it"),
    # a move
    Refusal("rithmo.no_piece", ("move", "square"), "no piece on the square a move leaves"),
    Refusal("rithmo.not_yours", (*_MOVE, "side"), "the piece moved is the opponent's (side)"),
    Refusal("rithmo.occupied", _MOVE, "a piece (piece) stands on the square a move reaches"),
    Refusal("rithmo.blocked", (*_MOVE, "at"), "a regular move passes over a piece (on at)"),
    Refusal("rithmo.not_a_move_of.round", _MOVE, "a round does not move so"),
    Refusal("rithmo.not_a_move_of.triangle", _MOVE, "a triangle does not move so"),
    Refusal("rithmo.not_a_move_of.square", _MOVE, "a square does not move so"),
    Refusal("rithmo.not_a_move_of.pyramid", (*_MOVE, "shapes"),
            "a pyramid moves as the shapes it holds (shapes: R, T, S)"),
    Refusal("rithmo.second_move", ("move",), "a move after the turn's move or drop"),
    Refusal("rithmo.no_square_freed", (), "a move after captures made first that freed no square"),
    Refusal("rithmo.must_step", ("options",),
            "captures made first, then no capturer steps onto a freed square (options)"),
    Refusal("rithmo.after_leap", ("move",), "anything after an irregular move (move)"),
    Refusal("rithmo.empty_turn", (), "a turn ended with nothing played"),
    # a capture
    Refusal("rithmo.nothing_to_take", ("square",), "no piece on the square to take"),
    Refusal("rithmo.own_piece", ("square", "piece", "side"), "the piece to take is one's own"),
    Refusal("rithmo.not_a_pyramid", ("square", "piece"), "a component taken out of a non-pyramid"),
    Refusal("rithmo.no_component", ("square", "part", "parts"),
            "the pyramid holds no component of that value (parts: what it holds)"),
    Refusal("rithmo.cannot_take", ("square", "piece"), "no method of capture applies now"),
    # a drop
    Refusal("rithmo.drop_late", ("piece",), "a drop after a capture or a move"),
    Refusal("rithmo.drop_none", ("piece",), "no such piece among those one has taken"),
    Refusal("rithmo.drop_rank", ("piece", "rank"), "a drop off one's first rank (rank)"),
    Refusal("rithmo.drop_occupied", ("piece", "square"), "a drop onto an occupied square"),
    # the board and the game
    Refusal("rithmo.turn_in_progress", (), "a whole turn pushed, or one taken back, mid-turn"),
    Refusal("rithmo.nothing_to_undo", (), "a turn taken back before any was played"),
    Refusal("rithmo.game_over", ("outcome",), "a turn, resignation or draw after the end"),
    Refusal("rithmo.bad_position", ("reason",), "a position that cannot be read",
            optional=("square",)),
    Refusal("rithmo.bad_record", ("turn",), "a game record or game JSON that cannot be read back",
            optional=("cause", "reason")),
    Refusal("rithmo.bad_side", ("side",), "a side other than white or black"),
    Refusal("rithmo.bad_settings", ("reason",), "game settings that cannot be read"),
    Refusal("rithmo.bad_level", ("level",), "an unknown level for Ardoise"),
)

#: Each code to its refusal.
BY_CODE: dict[str, Refusal] = {r.code: r for r in REFUSALS}
#: Every code the engine raises.
CODES: frozenset[str] = frozenset(BY_CODE)
