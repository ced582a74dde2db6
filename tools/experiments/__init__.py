"""Measured and not kept: alternatives that lost, kept so that their figures can be made again."""
