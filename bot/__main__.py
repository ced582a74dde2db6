"""``python -m bot``: the bot's entry point (the Discord client arrives with the bot issue)."""

import sys


def main() -> int:
    print("Ardoise: the Discord bot is not built yet; the engines answer on the command line:\n"
          "  python -m bot.digits battle < battle.json", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
