"""The optional C accelerators, and the one switch that turns them all off.

Six C extensions, built by ``pip install -e .`` from the sources here, all sharing
``pinochle.h`` (the card numbering, the trick winner, the legal plays and the
per-class meld count):

``_table``
    the play phase of a hand, the deal and the meld total, for the engine
    (:mod:`pinochlekit.engine.game`, :mod:`~pinochlekit.engine.deals`,
    :mod:`~pinochlekit.engine.meld`), whose pure-Python code is the reference;
``_core``
    the four- and three-handed simulation core and the ``standard`` player, behind
    :mod:`pinochlekit.players.search.fastcore`;
``_solver``
    the exact endgame solver of :mod:`pinochlekit.players.search.solver`;
``_twocore`` and ``_twosolver``
    the two-handed rollouts and last-tricks solver of
    :mod:`pinochlekit.players.two.core` and :mod:`pinochlekit.players.two.solver`;
``_doublecore``
    the double-deck play-out of :mod:`pinochlekit.players.double.policy`.

Every module that uses one gets it from :func:`load`, which answers ``None`` when
the extension is not built or when the environment variable
``PINOCHLEKIT_PURE_PYTHON`` is set (to anything but the empty string); each caller
then runs its pure-Python path, with the same results (``tests/test_pure_python.py``
runs them all both ways).
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

__all__ = ["EXTENSIONS", "PURE_PYTHON", "load", "pure_python", "table"]

#: The environment variable that turns every C extension off.
PURE_PYTHON = "PINOCHLEKIT_PURE_PYTHON"

#: The names of the C extensions of this package.
EXTENSIONS = ("_core", "_doublecore", "_solver", "_table", "_twocore", "_twosolver")


def pure_python() -> bool:
    """Whether ``PINOCHLEKIT_PURE_PYTHON`` asks for the pure-Python paths."""
    return bool(os.environ.get(PURE_PYTHON))


def load(name: str) -> ModuleType | None:
    """The built C extension ``pinochlekit.native.NAME`` (one of :data:`EXTENSIONS`),
    or ``None`` when it is not built or ``PINOCHLEKIT_PURE_PYTHON`` is set.

    >>> load("_none")
    Traceback (most recent call last):
    ...
    ValueError: not a C extension of pinochlekit.native: '_none'
    """
    if name not in EXTENSIONS:
        raise ValueError(f"not a C extension of pinochlekit.native: {name!r}")
    if pure_python():
        return None
    try:
        return importlib.import_module(f"{__name__}.{name}")
    except ImportError:  # pragma: no cover - depends on the build
        return None


#: ``pinochlekit.native._table`` when it is built and allowed, else ``None`` (the
#: engine reads it at each use, so a test may set it to ``None``).
table: ModuleType | None = load("_table")
