"""Undo and copy, written once for every game.

A game keeps the actions applied so far and, at the start of each deal, a
checkpoint: ``(actions before the deal, dealer, deal index, scores, results
before the deal, one more number the game restores)``. Undo goes back to the
last checkpoint and replays the deal's remaining actions without checking them
(they were checked when first applied): the game stays a pure function of its
rules, seed and actions.

>>> from pinochlekit import Game
>>> game = Game.new("three", seed=4)
>>> first = game.legal_actions()[0]
>>> game.apply(first)
>>> twin = game.copy()
>>> game.undo() == first, len(game.actions), len(twin.actions)
(True, 0, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Self

from pinochlekit.engine.actions import Action
from pinochlekit.engine.errors import PhaseError, PinochleError, RecordError

__all__ = ["Checkpoint", "History", "replay_actions"]

#: Where a deal starts: (actions before it, dealer, deal index, scores, results before
#: it, a number of the game's own: the redeals in a row, or the two-handed target).
Checkpoint = tuple[int, int, int, tuple[int, ...], int, int]


class History:
    """The shared ``undo()`` and ``copy()`` of :class:`~pinochlekit.engine.game.Game` and
    :class:`~pinochlekit.engine.two.game.TwoHandedGame`.

    A subclass names in :attr:`_LISTS` the list attributes a copy must not share,
    and implements :meth:`_restore_deal`, :meth:`apply_unchecked`, :meth:`_rewind`
    (the checkpoint's last number) and, for state deeper than a list,
    :meth:`_copy_rest`.
    """

    __slots__ = ()

    #: The attributes a copy gives its own (shallow) list of.
    _LISTS: ClassVar[tuple[str, ...]] = ()
    #: Every slot of the class and its bases, computed once per class.
    _SLOTS: ClassVar[tuple[str, ...]] = ()

    actions: list[Action]
    _checkpoints: list[Checkpoint]
    scores: list[int]
    results: list[Any]
    winner: int | None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        names = (name for klass in reversed(cls.__mro__)
                 for name in klass.__dict__.get("__slots__", ()))
        cls._SLOTS = tuple(dict.fromkeys(names))

    def _restore_deal(self, dealer: int, index: int) -> None:
        """Set up deal ``index`` dealt by ``dealer``, as it was before any action."""
        raise NotImplementedError

    def apply_unchecked(self, action: Action) -> None:
        """Apply an action known to be legal."""
        raise NotImplementedError

    def _rewind(self, kept: int) -> None:
        """Restore the last number of a checkpoint."""
        raise NotImplementedError

    def _copy_rest(self, new: Self) -> None:
        """Give ``new`` its own copy of any state deeper than the lists of :attr:`_LISTS`."""

    def undo(self) -> Action:
        """Take back the last action and return it; :class:`PhaseError` if none."""
        if not self.actions:
            raise PhaseError("nothing to undo")
        if not any(start < len(self.actions) for start, *_ in self._checkpoints):
            raise PhaseError("a position built from a view has no history to undo")
        last = self.actions.pop()
        while self._checkpoints[-1][0] > len(self.actions):
            self._checkpoints.pop()
        start, dealer, index, scores, n_results, kept = self._checkpoints[-1]
        replay = self.actions[start:]
        del self.actions[start:]
        # the games' own slots hold these (this base has none, so mypy cannot see them)
        self.scores = list(scores)  # type: ignore[misc]
        del self.results[n_results:]
        self._rewind(kept)
        self.winner = None  # type: ignore[misc]
        self._restore_deal(dealer, index)
        for action in replay:
            self.apply_unchecked(action)
        return last

    def copy(self) -> Self:
        """An independent copy (same rules, seed and history)."""
        cls = type(self)
        new = cls.__new__(cls)
        for name in cls._SLOTS:
            setattr(new, name, getattr(self, name))
        for name in cls._LISTS:
            setattr(new, name, list(getattr(self, name)))
        self._copy_rest(new)
        return new


def replay_actions(apply: Callable[[Action], None], texts: Sequence[str],
                   parse: Callable[[str], Action]) -> None:
    """Apply a record's actions in order with ``apply`` (a game's own), each read by
    ``parse``; :class:`~pinochlekit.RecordError` names the first that does not replay."""
    for number, text in enumerate(texts, 1):
        try:
            apply(parse(text))
        except PinochleError as error:
            raise RecordError(f"action {number} ({text!r}) does not replay: {error}") from None
