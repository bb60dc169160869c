"""The two-handed simulation core: standard rollouts of a two-handed hand in C.

:mod:`pinochlekit.native._twocore` (``_twocore.c``, built by ``pip install -e .``) plays
a two-handed hand (docs/rules.md §4) from any position to its end with the
``standard`` policy of :mod:`pinochlekit.players.two.levels` at both seats: the
free play of the early tricks, one meld per won trick, the dix, the draw
(winner first, the turned-up trump last), the last tricks under the play rules,
the 10 for the last trick, under every option the two-handed game has. The
Python code is the reference; ``tests/test_twocore.py`` checks that both give
the same value on thousands of positions.

:func:`rollout_values` is what
:func:`pinochlekit.players.two.levels.rollout_values` calls first; it returns
``None`` (and the caller plays in Python) when the extension is not built, when
``PINOCHLEKIT_PURE_PYTHON`` is set, or when :data:`core` has been set to
``None`` (as the tests do).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from types import ModuleType

from pinochlekit.engine.actions import Action, Play
from pinochlekit.engine.cards import Hand
from pinochlekit.engine.meld import meld_values
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.tricks import card_points, must_beat_flags
from pinochlekit.engine.two.actions import Dix, LayMeld, NoMeld
from pinochlekit.engine.two.game import combinations
from pinochlekit.engine.two.views import TwoHandedView, TwoStage
from pinochlekit.native import load

__all__ = ["action_code", "core", "position", "rollout_values", "rules_key"]


#: ``pinochlekit.native._twocore`` when it is built and allowed, else ``None``.
core: ModuleType | None = load("_twocore")

_STAGES = {TwoStage.EARLY: 0, TwoStage.MELD: 1, TwoStage.LATE: 2}
# The meld names in the order of _twocore.c's value table.
_NAMES = ("run", "royal marriage", "common marriage", "aces around", "kings around",
          "queens around", "jacks around", "pinochle")
_DIX, _NO_MELD = 24 + 10, 24 + 11


@lru_cache(maxsize=64)
def rules_key(rules: Rules) -> tuple[int, ...]:
    """The rules as ``_twocore`` reads them: the 24 trick points, the last trick's
    10, the dix, the meld values (game scale), ``meld_reuse=once`` and the two
    must-beat flags that matter with two cards in a trick (tricks.must_beat_flags)."""
    values = meld_values(rules)
    beat_follow, beat_trump_led, _ = must_beat_flags(rules)
    return (*card_points(rules), 10 // rules.unit, values["dix"],
            *(values[name] for name in _NAMES), int(rules.meld_reuse == "once"),
            int(beat_follow), int(beat_trump_led))


def action_code(action: Action, trump: int) -> int | None:
    """``_twocore``'s number for an action: the card played (0-23), 24 + the index of
    the meld in ``combinations(trump)``, 34 the dix, 35 no meld; ``None`` if none."""
    if isinstance(action, Play):
        return int(action.card)
    if isinstance(action, LayMeld):
        for i, (_, _, cards) in enumerate(combinations(trump)):
            if cards == action.cards:
                return 24 + i
        return None
    if isinstance(action, Dix):
        return _DIX
    if isinstance(action, NoMeld):
        return _NO_MELD
    return None


def position(view: TwoHandedView) -> tuple[int, ...] | None:
    """The view's position as ``_twocore`` reads it (see ``_twocore.c`` §6), or
    ``None`` if it is not a hand in play with this seat to act."""
    seat = view.seat
    if (seat is None or view.hand is None or view.trump is None or view.to_act != seat
            or view.stage not in _STAGES or len(view.trick) > 1):
        return None
    own = [view.hand.count(k) for k in range(24)]
    for entry in view.table[seat]:
        own[entry.card] -= 1
    out = [seat, int(view.trump), _STAGES[view.stage], seat, int(view.dix_counted),
           -1 if view.turn_up is None else int(view.turn_up),
           view.trick[0][1] if view.trick else -1,
           *view.trick_points, *view.meld_points, *own]
    for side in view.table:
        out.append(len(side))
        for entry in side:
            out += (int(entry.card), entry.classes)
    return tuple(out)


_last: tuple[TwoHandedView, tuple[int, ...] | None] | None = None


def rollout_values(view: TwoHandedView, action: Action,
                   deals: Sequence[tuple[Hand, Sequence[int]]]) -> list[int] | None:
    """For each deal (the opponent's hidden cards, the stock in drawing order):
    ``action`` in the view's position, then the hand played out by standard players;
    the view's seat's meld and tricks minus the opponent's. ``None`` if the C core
    is off or does not take this position (the caller then plays in Python)."""
    global _last
    if core is None:
        return None
    last = _last
    if last is not None and last[0] is view:
        key = last[1]
    else:
        key = position(view)
        _last = (view, key)
    assert view.trump is not None
    code = action_code(action, int(view.trump))
    if key is None or code is None:
        return None
    packed = [(opponent.once, opponent.twice, bytes(stock)) for opponent, stock in deals]
    values: list[int] = core.rollouts(rules_key(view.rules), key, code, packed)
    return values
