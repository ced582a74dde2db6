"""``python -m bot.rithmo start | moves | captures`` (see :mod:`bot.rithmo.cli`)."""

from bot.rithmo.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
