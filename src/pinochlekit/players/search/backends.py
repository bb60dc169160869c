"""Which simulator plays out the hands the players imagine: one switch for the process.

Players call :func:`simulate_hands` with a batch of deals. It hands them to the
installed backend: the C core (:func:`pinochlekit.players.search.fastcore.backend`) when
it is built and not turned off, else the Python reference
(:func:`pinochlekit.players.search.simulate.python_backend`); both give the same round
scores for the same deals, so the choice changes speed, never a decision.
:func:`set_backend` installs another one (a test's fake, or the Python one).

>>> from pinochlekit.players.search.simulate import python_backend
>>> previous = set_backend(None)
>>> get_backend() is python_backend
True
>>> set_backend(previous) is python_backend
True
"""

from __future__ import annotations

from collections.abc import Sequence

from pinochlekit.engine.cards import Hand
from pinochlekit.players.search.simulate import Backend, Start, python_backend

__all__ = ["get_backend", "set_backend", "simulate_hands"]


def _default_backend() -> Backend:
    """The C core when it is built (the same round scores, much faster), else Python."""
    try:
        from pinochlekit.players.search.fastcore import backend
    except ImportError:
        return python_backend
    return backend


_backend: Backend = _default_backend()


def set_backend(backend: Backend | None) -> Backend:
    """Install ``backend`` for :func:`simulate_hands` (``None``: the Python one);
    returns the previous backend, so a test can put it back."""
    global _backend
    previous = _backend
    _backend = backend or python_backend
    return previous


def get_backend() -> Backend:
    """The backend :func:`simulate_hands` uses now."""
    return _backend


def simulate_hands(start: Start, deals: Sequence[Sequence[Hand]], team: int) -> list[int]:
    """Round scores for ``team`` of one simulated hand per deal, by the installed backend."""
    return _backend(start, deals, team)
