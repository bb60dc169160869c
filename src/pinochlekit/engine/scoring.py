"""Scoring a hand: what each side scores once the cards are counted.

One pure function, :func:`score_hand`, holds the rule for every game with a
contract: the four-handed partnerships (docs/rules.md §1 Scoring a hand, with
the set variants of §2 and the moon) and the three-handed game, where every
player is a side of their own (docs/rules.md §3). :class:`~pinochlekit.Game`
and the Python simulator of the computer players both call it. The two-handed
game has no contract: :func:`score_two_hand` holds its rule (docs/rules.md §4),
for its game and its players' simulations alike.

A *side* is a team four-handed and a player three-handed; the lists given are
indexed by side. Trick points already hold everything a side counts from the
cards (three-handed: the set-aside cards' points are in the declarer's).

>>> from pinochlekit.engine.rules import Rules
>>> made = score_hand(Rules(), 0, 300, meld=(120, 40), tricks=(190, 60),
...                   dix_only=(False, False), played=True)
>>> made.scores, made.made
((310, 100), True)
>>> score_hand(Rules(), 0, 350, meld=(120, 40), tricks=(190, 60),
...            dix_only=(False, False), played=True).scores  # set: the contract lost
(-350, 100)
>>> score_hand(Rules(), 1, 250, meld=(60, 100), tricks=(0, 0),
...            dix_only=(False, False), played=False).scores  # thrown in
(60, -250)
>>> score_two_hand(meld=(150, 40), tricks=(120, 130))
(270, 170)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from pinochlekit.engine.rules import Rules

__all__ = ["HandScore", "score_hand", "score_two_hand", "two_hand_margin"]


class HandScore(NamedTuple):
    """A hand's score: what each side scores, whose meld counted, and whether the
    declaring side made its contract (or, shooting the moon, took every trick)."""

    #: Each side's score for the hand (negative for a set declarer).
    scores: tuple[int, ...]
    #: Whether each side's meld counted (a defender without a trick point, or a set
    #: declarer under ``set_forfeits_meld``, loses it).
    saved: tuple[bool, ...]
    #: Whether the declaring side made the hand.
    made: bool


def score_hand(rules: Rules, declarer: int, contract: int, meld: Sequence[int],
               tricks: Sequence[int], dix_only: Sequence[bool], played: bool,
               moon: bool = False, took_all: bool = False) -> HandScore:
    """Score one hand (docs/rules.md §1 Scoring a hand; §2 set variants; §3).

    ``declarer`` is the declaring side; ``meld[s]`` and ``tricks[s]`` are side
    ``s``'s meld and trick points. ``dix_only[s]`` says side ``s`` melded only
    dix; it is read only for a defender that took no trick point under
    ``save_meld_needs_trick``. ``played`` is false for a hand thrown in or not
    on the board: the defenders then score their meld and the declarer is set.
    ``moon`` says the declarer shot the moon and ``took_all`` that it took every
    trick (docs/rules.md §2 shoot the moon).
    """
    sides = len(meld)
    scores = [0] * sides
    saved = [True] * sides
    if played:
        needs_trick = rules.save_meld_needs_trick
        for side in range(sides):
            if side != declarer:
                taken = tricks[side]
                # docs/rules.md §1 Scoring: meld counts with a trick point taken, or
                # when it is only dix
                if needs_trick and taken <= 0 and not dix_only[side]:
                    saved[side] = False
                    scores[side] = taken
                else:
                    scores[side] = taken + meld[side]
        made = took_all if moon else meld[declarer] + tricks[declarer] >= contract
    else:
        made = False
        for side in range(sides):
            if side != declarer:
                scores[side] = meld[side]  # no play: the defenders score their meld
    if made:
        # docs/rules.md §2 shoot the moon: all twelve tricks score 1,000
        scores[declarer] = 1000 // rules.unit if moon else meld[declarer] + tricks[declarer]
    else:
        forfeits = rules.set_forfeits_meld
        saved[declarer] = not forfeits
        kept = 0 if forfeits else meld[declarer]
        penalty = rules.set_penalty
        if penalty == "chips":  # docs/rules.md §2: the opponents score the contract
            scores[declarer] = kept
            for side in range(sides):
                if side != declarer:
                    scores[side] += contract
        elif penalty == "shortfall" and not (moon and played):
            # docs/rules.md §2: lose only what fell short; a throw-in with meld enough
            # loses nothing (a moon played and failed loses the whole contract)
            scores[declarer] = -max(0, contract - meld[declarer] - tricks[declarer])
        else:
            scores[declarer] = kept - contract
    return HandScore(tuple(scores), tuple(saved), made)


def score_two_hand(meld: Sequence[int], tricks: Sequence[int]) -> tuple[int, int]:
    """Score a two-handed hand (docs/rules.md §4): each player scores its meld plus
    its trick points; there is no contract to make and no meld to save."""
    return meld[0] + tricks[0], meld[1] + tricks[1]


def two_hand_margin(meld: Sequence[int], tricks: Sequence[int], seat: int) -> int:
    """What ``seat`` scores in a two-handed hand minus what its opponent scores
    (docs/rules.md §4), from the meld and trick points so far.

    >>> two_hand_margin((150, 40), (120, 130), 1)
    -100
    """
    scores = score_two_hand(meld, tricks)
    return scores[seat] - scores[1 - seat]
