"""The computer levels of the double-deck game (docs/rules.md §6, docs/double-deck.md)."""

from __future__ import annotations

__all__ = ["DOUBLE_LEVELS"]

#: The computer levels that play the double deck, in the order a list shows them. The
#: one place this is said: each level that learns the 80-card game adds its name here.
DOUBLE_LEVELS: tuple[str, ...] = (
    "random",
    "easy",
    "standard",
    "pro",
)
