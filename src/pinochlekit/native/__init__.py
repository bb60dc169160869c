"""The engine's optional C accelerators, and the one switch that turns them off.

``_table.c`` (built by ``pip install -e .``) plays the cards of a hand and computes
deals; :mod:`pinochlekit.engine.game` and :mod:`pinochlekit.engine.deals` use it when it is here and
fall back to their pure-Python code, the reference, when it is not. Setting the
environment variable ``PINOCHLEKIT_PURE_PYTHON`` (or :data:`table` to ``None``, as the
tests do) runs the pure-Python paths.
"""

from __future__ import annotations

import os
from types import ModuleType


def _load() -> ModuleType | None:
    if os.environ.get("PINOCHLEKIT_PURE_PYTHON"):
        return None
    try:
        from pinochlekit.native import _table
    except ImportError:  # pragma: no cover - depends on the build
        return None
    return _table


#: ``pinochlekit.native._table`` when it is built and allowed, else ``None``.
table: ModuleType | None = _load()
