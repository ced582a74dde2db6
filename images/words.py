"""What the pictures write, handed in by the caller already in the member's language.

``images/`` holds no text of its own and reads no catalogue: every ``render_…`` takes a
``Words``, which the bot builds from its one catalogue (``bot.i18n.image_words(lang)``: the
``images.…`` keys, plurals, numbers, percentages and dates by Babel's CLDR data). A picture asks
it for a label (``words("atk")``), a counted noun (``words.count("lives", 3)``), a percentage,
a decimal, a month or weekday, a Focus topic, and never spells a language rule itself.
"""

from __future__ import annotations

from typing import Protocol


class Words(Protocol):
    """The texts of one language, as the pictures ask for them."""

    @property
    def lang(self) -> str:
        """``en`` or ``fr``: only for the digits' names and abilities, which the engine's own
        catalogue holds in both languages (``DigitKind.name(lang)``)."""
        ...

    def __call__(self, key: str, /, **params: object) -> str:
        """The label ``key`` (``atk``, ``to_move``…) with its ``{placeholders}`` filled."""
        ...

    def count(self, key: str, n: int) -> str:
        """``n`` and its noun in the right plural form: ``1 life``, ``0 vie``, ``3 lives``."""
        ...

    def percent(self, ratio: float) -> str:
        """``0.96`` → ``96%`` (English), ``96 %`` (French)."""
        ...

    def decimal(self, value: float, places: int = 1, whole_digits: int = 1) -> str:
        """``41.2`` / ``41,2``; ``whole_digits=2`` pads ``3.0`` to ``03.0``."""
        ...

    def month(self, month: int) -> str:
        """The abbreviated name of a month (1–12): ``Nov``, ``nov.``."""
        ...

    def weekday(self, weekday: int) -> str:
        """The abbreviated name of a weekday, Monday being 0: ``Mon``, ``lun.``."""
        ...

    def date(self, day: object, pattern: str) -> str:
        """A date in a CLDR pattern (``d MMM``: ``30 Nov``, ``30 nov.``)."""
        ...

    def topic(self, key: str) -> str:
        """The name of a Focus topic or skill (``priority``: ``order of operations``)."""
        ...

    def skill(self, key: str) -> str:
        """The name of a Focus skill or topic (``fractions-of``: ``a fraction of a number``)."""
        ...
