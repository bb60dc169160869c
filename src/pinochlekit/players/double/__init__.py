"""The computer levels of the double-deck game (docs/rules.md §6, docs/double-deck.md)."""

from __future__ import annotations

__all__ = ["DOUBLE_LEVELS"]

#: The computer levels that play the double deck. The one place this is said: each
#: level that learns the 80-card game adds its name here (read by
#: :func:`pinochlekit.players.plays`).
DOUBLE_LEVELS: tuple[str, ...] = (
    "random",
    "easy",
    "standard",
    "skilled",
    "pro",
    "expert",
)
