"""The computer levels of the double-deck game (docs/rules.md §6, docs/double-deck.md)."""

from __future__ import annotations

__all__ = ["DOUBLE_LEVELS", "plays_double"]

#: The computer levels that play the double deck, in the order a list shows them. The
#: one place this is said: each level that learns the 80-card game adds its name here.
DOUBLE_LEVELS: tuple[str, ...] = (
    "random",
    "easy",
    "standard",
    "skilled",
    "pro",
    "expert",
)


def plays_double(spec: str) -> bool:
    """Whether the player ``spec`` plays the double deck: a level of
    :data:`DOUBLE_LEVELS` (options allowed) or an external program (``cmd:``,
    docs/protocol.md).

    >>> plays_double("pro(rollouts=50)"), plays_double("cmd:./bot"), plays_double("simple")
    (True, True, False)
    """
    spec = spec.strip()
    return spec.startswith("cmd:") or spec.split("(")[0] in DOUBLE_LEVELS
