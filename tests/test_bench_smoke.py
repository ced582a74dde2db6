"""``python -m tools.load`` in small: every scenario runs through the real bot without an
error (no timing is asserted: the figures are for docs/benchmarks.md), and the members read the
question of a Focus modal (worked out by the engine's reader, tested in test_focus_reading.py)."""

from __future__ import annotations

from bot.focus.questions import work_out
from tools import load

SMALL = {"members": 4, "games": 2, "turns": 2, "rounds": 1, "bot_core": None,
         "driver_core": None, "warm_up": False}


def counts(figures: load.Figures) -> dict[tuple[str, str], int]:
    return {key: len(times) for key, times in figures.times.items()}


async def test_every_scenario_runs_without_an_error_with_the_bot_in_this_process() -> None:
    # No reaction time: members click as soon as they see a button, which also exercises a
    # Focus window clicked before discord.py registered its view.
    options = load.Options(**SMALL, reaction=0.0, one_process=True)
    card, focus, rithmo, mixed = await load.run(["card", "focus", "rithmo", "mixed"], options)
    for figures in (card, focus, rithmo, mixed):
        assert figures.errors == 0, figures.report()
    assert counts(card) == {("card", "slash"): 4, ("card", "autocomplete"): 4}
    focus_counts = {("focus", "slash"): 4, ("focus", "click"): 24, ("focus", "modal"): 24}
    assert counts(focus) == focus_counts
    # Per game: the challenge and its Accept, then 2 turns a player, each an autocomplete and
    # a /rithmo move.
    rithmo_counts = {("rithmo", "slash"): 2 + 8, ("rithmo", "click"): 2,
                     ("rithmo", "autocomplete"): 8}
    assert counts(rithmo) == rithmo_counts
    assert len(rithmo.boards) == 8
    assert counts(mixed) == {**focus_counts, **rithmo_counts}
    assert "focus" in mixed.report() and "turn → board" in mixed.report()


async def test_the_bot_in_its_own_process_plays_a_scenario_without_an_error() -> None:
    options = load.Options(**{**SMALL, "members": 2}, reaction=0.0, one_process=False)
    [mixed] = await load.run(["mixed"], options)
    assert mixed.errors == 0, mixed.report()
    assert mixed.bot_cpu is not None and mixed.bot_cpu > 0
    assert counts(mixed)[("focus", "modal")] == 12
    assert counts(mixed)[("rithmo", "slash")] == 10


async def test_the_floor_bot_gives_the_focus_and_card_members_the_same_exchanges() -> None:
    # discord.py alone (tools.bench.floor_bot) in the bot's process: the same members play
    # their rounds against it (a modal per question, the score checked in the summary).
    options = load.Options(**{**SMALL, "members": 2}, reaction=0.0, floor=True)
    focus, card = await load.run(["focus", "card"], options)
    assert focus.errors == 0 and card.errors == 0, focus.report() + card.report()
    assert counts(focus) == {("focus", "slash"): 2, ("focus", "click"): 12,
                             ("focus", "modal"): 12}
    assert counts(card) == {("card", "slash"): 2, ("card", "autocomplete"): 2}
    assert focus.bot_cpu and card.bot_cpu


def test_the_question_is_read_from_the_answer_modal() -> None:
    modal = {"custom_id": "focus.runm:practice:ab:0", "title": "Question 1/6", "components": [
        {"type": 1, "components": [{"type": 4, "custom_id": "answer", "label": "35 ÷ (2 + 5) ="}]}]}
    assert work_out(load.modal_question(modal)) == 5
    labelled = {"components": [{"type": 18, "label": "20 − 3 × 5 =",
                                "component": {"type": 4, "custom_id": "answer"}}]}
    assert work_out(load.modal_question(labelled)) == 5


def test_percentiles_are_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert load.percentile(values, 0.95) == 95.0
    assert load.percentile(values, 0.5) == 50.0
    assert load.percentile([3.0], 0.95) == 3.0


async def test_two_bot_processes_on_their_shards_share_the_members_of_two_servers() -> None:
    options = load.Options(**{**SMALL, "members": 4}, reaction=0.0, processes=2, guilds=2)
    [steps_1, steps_2] = [await load.capacity([count], [4], options) for count in (1, 2)]
    for [step] in (steps_1, steps_2):
        assert step.figures.errors == 0, step.figures.report()
        assert counts(step.figures) == {("focus", "slash"): 4, ("focus", "click"): 24,
                                        ("focus", "modal"): 24}
        assert step.per_second > 0 and step.figures.bot_cpu
    report = load.capacity_report([*steps_1, *steps_2])
    assert "1 process: " in report and "2 processes: " in report


def test_the_focus_comparison_runs_two_trees_side_by_side_in_small(capsys) -> None:
    from tools.bench import focus_compare

    # This tree as the "old" one too: the runs alternate, and every figure is read back.
    focus_compare.main(["--old-tree", str(focus_compare.ROOT), "--rounds", "1",
                        "--members", "2", "--games", "1", "--turns", "1"])
    printed = capsys.readouterr().out
    for line in ("round 1: old focus:", "round 1: today focus:", "round 1: today card:",
                 "round 1: today rithmo:", "| today rithmo |", "focus / card, bot CPU an",
                 "today / old, focus: bot CPU", "load average"):
        assert line in printed, printed
    runs = [line for line in printed.splitlines() if line.startswith("round 1:")]
    assert all(", 0 errors" in line for line in runs), runs


def test_the_focus_comparison_reads_the_load_benchmarks_report() -> None:
    from tools.bench.focus_compare import parse

    figures = load.Figures("rithmo", "50 games", 10.0, times={("rithmo", "slash"): [0.1, 0.3]},
                           boards=[0.5, 0.9], bot_cpu=2.0, bot_wait=0.25, interactions=2)
    run = parse(figures.report(), "today", "rithmo", 0.5)
    assert (run.cpu_ms, run.waited_s, run.p95_ms, run.board_p95_ms, run.errors) == (
        1000.0, 0.25, 300.0, 900.0, 0)
