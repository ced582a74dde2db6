"""The one error type the engines raise for a refused action.

A domain error is not a bug: it is a move, a purchase or an answer the rules refuse. It carries a
stable ``code`` and its ``params`` so that the bot can say it in the player's language (the
catalogues in the locales map each code to a sentence); ``str()`` gives plain English for logs,
the command lines and tests.
"""

from __future__ import annotations

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
