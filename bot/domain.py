"""The one error type the engines raise for a refused action.

A domain error is not a bug: it is a move, a purchase or an answer the rules refuse. It carries a
stable ``code`` and its ``params`` so that the bot can say it in the player's language (the
catalogues in the locales map each code to a sentence); ``str()`` gives plain English for logs,
the command lines and tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


class DomainError(Exception):
    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {str(self)!r}, **{self.params!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled whole (code, message, params), so that a refusal raised in a worker process
        # (Rithmomachia's searches) reaches the bot as the same refusal
        return _rebuild, (type(self), self.code, str(self), self.params)


def _rebuild(cls: type[DomainError], code: str, message: str,
             params: dict[str, Any]) -> DomainError:
    return cls(code, message, **params)


@dataclass(frozen=True)
class UserRef:
    """A member named in a refusal by id (``None``: their data was erased); the presentation
    says it (a mention), so that the rules never build Discord's markup. ``computer``: the
    player is Ardoise itself (a game against Ardoise), said by its name."""

    id: int | None
    computer: bool = False


@dataclass(frozen=True)
class RoleRef:
    """A server's role named in a refusal by id; the presentation says it (a role mention, which
    a refusal's allowed mentions never ping)."""

    id: int


@dataclass(frozen=True)
class OpenGame:
    """One of a member's open games, listed in the refusal of one more: ``item`` names its
    sentence (``limits.item.<item>``), which says ``id`` as ``id_name`` (``match``, ``game``),
    ``numbers`` (the round or turn it is at) and ``channel_id``, where it is."""

    item: str
    id: int
    id_name: str
    channel_id: int | None
    numbers: tuple[tuple[str, int], ...] = ()


class TooManyOpen(DomainError):
    """The one cap rule of every game refused a game more of ``kind`` (a ``Limits.open_games``
    key); ``open`` lists the member's open ones, in the order the refusal says them."""

    def __init__(self, kind: str, open_: Sequence[OpenGame]) -> None:
        super().__init__(f"limits.{kind}", f"too many open games ({kind}): {len(open_)}",
                         count=len(open_), games=tuple(open_))
        self.kind = kind
        self.open = list(open_)

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.kind, self.open)


def check_open(kind: str, open_: Sequence[OpenGame], most: int) -> None:
    """A member with ``most`` open games of ``kind`` already is refused one more."""
    if len(open_) >= most:
        raise TooManyOpen(kind, open_)
