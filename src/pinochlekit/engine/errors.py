"""The exceptions of pinochlekit.

Every error the library raises on bad input is a :class:`PinochleError`.
Errors about text (:class:`NotationError`) and rules (:class:`RulesError`)
are also :class:`ValueError`, so ``except ValueError`` keeps working for
callers that parse user input.
"""

from __future__ import annotations


class PinochleError(Exception):
    """Root of every error pinochlekit raises on bad input."""


class NotationError(PinochleError, ValueError):
    """A card, action or record could not be read; the message quotes it."""


class RulesError(PinochleError, ValueError):
    """An invalid rules option or combination; the message names the field."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.detail = message

    def __reduce__(self) -> tuple[type[RulesError], tuple[str, str]]:
        # rebuilt from both arguments: a pickled RulesError (raised in a match
        # worker process) unpickles as the same error
        return type(self), (self.field, self.detail)


class IllegalActionError(PinochleError, ValueError):
    """An action the rules forbid now; the game is left unchanged."""


class OutOfTurnError(IllegalActionError):
    """An action by a seat that is not to act."""


class PhaseError(IllegalActionError):
    """An action that does not belong to the current phase of the hand."""


class GameOverError(PhaseError):
    """An action after the game has been won."""


class RecordError(PinochleError, ValueError):
    """A game record that cannot be read or does not replay."""


# The errors are public as ``pinochlekit.X`` (tracebacks and pickles name them so).
for _error in (PinochleError, NotationError, RulesError, IllegalActionError, OutOfTurnError,
               PhaseError, GameOverError, RecordError):
    _error.__module__ = "pinochlekit"
del _error


def quoted(text: str, limit: int = 60) -> str:
    """``text`` quoted for an error message, cut to ``limit`` characters ("...") so a
    long input does not come back whole.

    >>> quoted("bid 260"), quoted("X" * 70, 10)
    ("'bid 260'", "'XXXXXXX...'")
    """
    return repr(text if len(text) <= limit else text[:limit - 3] + "...")
