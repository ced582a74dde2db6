"""Ladders: the games' bot players against each other, for strength:
``python -m tools.ladder.<game>`` prints the table."""
