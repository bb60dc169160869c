"""What the web tables need to know of the double deck (docs/rules.md §6, docs/web.md
"The double deck"): which computer levels seat it, the stand-in it takes by default,
and which level gives its hints.

The levels come from one list, :data:`pinochlekit.players.DOUBLE_LEVELS`, which the
command line and the matches read too: a level added there appears in the lobby.

>>> double_levels()[:2]
['random', 'easy']
>>> double_standin("standard") in double_levels()
True
"""

from __future__ import annotations

from pinochlekit.engine.rules import Rules
from pinochlekit.players import DOUBLE_LEVELS, LEVELS, PLAYERS

__all__ = ["DEFAULT_STANDIN", "double_hint_level", "double_levels", "double_standin",
           "table_hint_spec"]

#: The stand-in a table gets when its creator names none (the single deck's default).
DEFAULT_STANDIN = "standard"


def double_levels() -> list[str]:
    """The built-in players that play the double deck, weakest first (in the order of
    :data:`~pinochlekit.players.PLAYERS`)."""
    return [name for name in PLAYERS if name in DOUBLE_LEVELS]


def double_standin(standin: str) -> str:
    """The stand-in of a double-deck table: the one asked for, but the default
    (``standard``) becomes the strongest level that plays the double deck when
    ``standard`` does not play it yet. Any other level is kept as it is (and refused,
    with the list, if it does not play the double deck)."""
    levels = double_levels()
    if standin == DEFAULT_STANDIN and standin not in levels:
        return levels[-1]
    return standin


def double_hint_level() -> str | None:
    """The strongest of the levels offered to people (:data:`~pinochlekit.players.LEVELS`)
    that plays the double deck, or None: the level of a double-deck table's hints."""
    playing = [level for level in LEVELS if level in DOUBLE_LEVELS and level in PLAYERS]
    return playing[-1] if playing else None


def table_hint_spec(rules: Rules, hint_time: float) -> str | None:
    """The player spec of a hint at a table of ``rules``: for the double deck the
    :func:`double_hint_level` (``expert`` at ``hint_time`` seconds, once it plays
    it), else None: the single-deck spec is :func:`pinochlekit.web.hints.hint_spec`'s.

    >>> table_hint_spec(Rules.preset("pagat"), 0.3) is None
    True
    >>> table_hint_spec(Rules.preset("doubledeck"), 0.3) in double_levels() + ["expert(time=0.3)"]
    True
    """
    if rules.deck != "double":
        return None
    level = double_hint_level()
    if level is None:
        return None
    return f"{level}(time={hint_time})" if level == "expert" else level
