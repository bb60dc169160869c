"""Scoring a hand: what each side scores once the cards are counted.

One pure function, :func:`score_hand`, holds the rule for every game with a
contract: the four-handed partnerships (docs/rules.md §1 Scoring a hand, with
the set variants of §2 and the moon) and the three-handed game, where every
player is a side of their own (docs/rules.md §3). :class:`~pinochlekit.Game`
and the Python simulator of the computer players both call it. The double deck
counts its meld and its set its own way (docs/rules.md §6): :func:`score_double_hand`
scores it, for its game and its players' searches, from the same two pieces,
:func:`meld_saved` (whether a side's meld counts) and the set penalty. The
two-handed game has no contract: :func:`score_two_hand` holds its rule
(docs/rules.md §4), for its game and its players' simulations alike.

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
>>> score_double_hand(Rules.preset("doubledeck"), 0, 60, meld=(40, 20),
...                   tricks=(15, 35)).scores  # double deck: set
(-60, 55)
>>> score_two_hand(meld=(150, 40), tricks=(120, 130))
(270, 170)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from pinochlekit.engine.rules import Rules

__all__ = ["HandScore", "meld_saved", "score_double_hand", "score_hand", "score_two_hand",
           "two_hand_margin"]


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


def meld_saved(rules: Rules, taken: int, dix_only: bool = False) -> bool:
    """Whether a side that took ``taken`` trick points scores its meld: with at
    least ``rules.meld_counters`` of them (a trick point, docs/rules.md §1.11; the
    double deck's counters, one or 20, §6), or when its meld is only dix
    (``dix_only``, §1.11), or always with ``save_meld_needs_trick=no`` (§2).

    >>> meld_saved(Rules(), 0), meld_saved(Rules(), 0, dix_only=True), meld_saved(Rules(), 10)
    (False, True, True)
    >>> meld_saved(Rules.from_string("doubledeck(meld_counters=20)"), 19)
    False
    """
    return not rules.save_meld_needs_trick or taken >= rules.meld_counters or dix_only


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
        for side in range(sides):
            if side != declarer:
                taken = tricks[side]
                # docs/rules.md §1 Scoring: a defender's meld counts with a trick point
                # taken (meld_counters is 1 in the single deck), or when it is only dix
                if meld_saved(rules, taken, dix_only[side]):
                    scores[side] = taken + meld[side]
                else:
                    saved[side] = False
                    scores[side] = taken
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
        if rules.set_penalty == "shortfall" and not (moon and played):
            # docs/rules.md §2: lose only what fell short; a throw-in with meld enough
            # loses nothing (a moon played and failed loses the whole contract)
            scores[declarer] = -max(0, contract - meld[declarer] - tricks[declarer])
        else:
            _set(rules, scores, declarer, contract, kept=0 if forfeits else meld[declarer])
    return HandScore(tuple(scores), tuple(saved), made)


def score_double_hand(rules: Rules, declarer: int, contract: int, meld: Sequence[int],
                      tricks: Sequence[int]) -> HandScore:
    """Score one double-deck hand (docs/rules.md §6 counting and scoring).

    ``declarer`` is the declaring team (0 or 1); ``meld[t]`` and ``tricks[t]`` are
    team ``t``'s meld and counter points. Every team, the declaring one included,
    scores its meld only when :func:`meld_saved` (``meld_counters`` counters
    taken); the declaring team makes its contract with the meld it scores and its
    counters. A set team loses the contract and its meld (its meld kept under
    ``set_forfeits_meld=no``), or under ``set_penalty="chips"``, §6's
    "progressive", scores nothing while the other team scores the contract.
    ``saved`` says whose meld its counters saved, a set team's included.

    >>> double = Rules.preset("doubledeck")
    >>> score_double_hand(double, 0, 60, meld=(40, 20), tricks=(25, 25))
    HandScore(scores=(65, 45), saved=(True, True), made=True)
    >>> score_double_hand(Rules.from_string("doubledeck(set_penalty=chips)"), 0, 60,
    ...                   meld=(40, 20), tricks=(15, 35)).scores
    (0, 115)
    """
    saved = (meld_saved(rules, tricks[0]), meld_saved(rules, tricks[1]))
    scores = [(meld[t] if saved[t] else 0) + tricks[t] for t in (0, 1)]
    made = scores[declarer] >= contract
    if not made:
        # docs/rules.md §6: the set team loses its meld; "progressive" (chips) leaves it
        # nothing for the hand whatever set_forfeits_meld says (docs/double-deck.md Set)
        keeps = not rules.set_forfeits_meld and rules.set_penalty != "chips"
        _set(rules, scores, declarer, contract,
             kept=scores[declarer] - tricks[declarer] if keeps else 0)
    return HandScore(tuple(scores), saved, made)


def _set(rules: Rules, scores: list[int], declarer: int, contract: int, kept: int) -> None:
    """The set declaring side's score (docs/rules.md §1.11, §2 and §6): ``kept`` (the
    meld it keeps) less the contract, or under chips scoring ``kept`` while every
    other side scores the contract (§2; §6 "progressive")."""
    if rules.set_penalty == "chips":
        scores[declarer] = kept
        for side in range(len(scores)):
            if side != declarer:
                scores[side] += contract
    else:
        scores[declarer] = kept - contract


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
