"""Ardoise's tools: benchmarks, ladders, the sample pictures and experiments, not the product.

Nothing here is installed (``pyproject.toml`` packages ``bot``, ``cogs``, ``images`` and ``db``
only) and no product module imports from here (``tests/test_tools.py`` reads the imports). Run a
tool from the project's root, where ``tools`` is importable, with the project's interpreter::

    .venv/bin/python -m tools.bench.digits          # battles per second (The 20 Digits)
    .venv/bin/python -m tools.bench.digits_odds     # the odds' battles per second
    .venv/bin/python -m tools.bench.digits_calibration  # are the odds a forecast? (calibration)
    .venv/bin/python -m tools.bench.digits_match    # whole matches per second
    .venv/bin/python -m tools.bench.rithmo          # the Rithmomachia engine's speed
    .venv/bin/python -m tools.bench.rithmo_puzzles  # finding a capture puzzle, and a hint
    .venv/bin/python -m tools.bench.rithmo_review   # a finished game's review (its search)
    .venv/bin/python -m tools.bench.focus           # Focus questions and rounds per second
    .venv/bin/python -m tools.bench.mastery         # a round chosen from 10,000 answers' mastery
    .venv/bin/python -m tools.bench.db              # the storage
    .venv/bin/python -m tools.bench.images          # the pictures
    .venv/bin/python -m tools.bench.class_report    # the teacher's class report
    .venv/bin/python -m tools.load focus rithmo     # the real bot under a class, via the stand-in
    .venv/bin/python -m tools.load_rithmo           # many Rithmomachia games at once, one process
    .venv/bin/python -m tools.bench.focus_compare --old c7c20d6  # a Focus interaction, old and new
    .venv/bin/python -m tools.bench.floor_bot       # the same exchanges on discord.py alone
    .venv/bin/python -m tools.bench.rithmo_loop     # the event loop while the strong level thinks
    .venv/bin/python -m tools.ladder.digits         # The 20 Digits' players against each other
    .venv/bin/python -m tools.ladder.digits_solo    # solo matches against the shadow
    .venv/bin/python -m tools.ladder.digits_levels  # the solo levels measured (200 seeds each)
    .venv/bin/python -m tools.ladder.digits_models  # the solo levels by player model (child-like)
    .venv/bin/python -m tools.ladder.rithmo         # the Rithmomachia levels against each other
    .venv/bin/python -m tools.samples docs/images   # the README's pictures, drawn again
    .venv/bin/python -m tools.focus_tables en       # docs/rules/focus.md's skills and years
    .venv/bin/python -m tools.french_docs           # French typography in the French docs

``tools.experiments`` keeps what was measured and not kept (the Monte Carlo tree search that lost
to the alpha-beta) and the simulations behind a design (``python -m
tools.experiments.mastery_review``: rounds chosen from the mastery model against rounds at
random), so that its figures in ``docs/benchmarks.md`` can be made again. The figures
and what they taught are in ``docs/benchmarks.md``; speed is printed by tools, never asserted.
"""
