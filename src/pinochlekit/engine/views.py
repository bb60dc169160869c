"""What a seat may know: views of a game, and the results of finished hands.

Computer players and every interface receive a :class:`View`, never the game
itself. A seat's view holds its own hand, the cards it passed or received, the
meld on the table, the auction, the tricks played and the scores; a public
view (``seat is None``) holds only what a spectator sees. Which seats see the
cards that leave a hand face down, passed or laid aside, is :func:`sees_passed`,
:func:`sees_discard` and, for one action, :func:`sees_cards`: the views and the
interfaces that tell an action ask them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple

from pinochlekit.engine.actions import Action, Discard, Give, Return
from pinochlekit.engine.cards import Card, Hand, Suit
from pinochlekit.engine.meld import MeldResult, meld_dict
from pinochlekit.engine.rules import Rules

__all__ = ["HandResult", "Outcome", "Phase", "Trick", "View", "sees_cards", "sees_discard",
           "sees_passed"]


class Phase(StrEnum):
    """The phases of a hand (docs/rules.md §1), plus the end of the game."""

    AUCTION = "auction"
    TRUMP = "trump"
    GIVE = "give"
    RETURN = "return"
    DISCARD = "discard"
    PLAY = "play"
    GAME_OVER = "game over"

    def __str__(self) -> str:
        return self.value


class Outcome(StrEnum):
    """How a deal ended."""

    MADE = "made"
    SET = "set"
    THROWN_IN = "thrown in"
    NOT_ON_BOARD = "not on the board"
    MOON = "moon made"
    MOON_FAILED = "moon failed"
    PASSED_OUT = "passed out"
    REDEAL = "nines redeal"

    def __str__(self) -> str:
        return self.value


class Trick(NamedTuple):
    """A finished trick: who led, the cards in the order played, who won."""

    leader: int
    cards: tuple[Card, ...]
    seats: tuple[int, ...]
    winner: int
    points: int

    def __str__(self) -> str:
        played = " ".join(f"{s}:{c}" for s, c in zip(self.seats, self.cards, strict=True))
        return f"{played} -> seat {self.winner} ({self.points})"


@dataclass(frozen=True)
class HandResult:
    """The itemized result of one deal; every field is public once the hand is over.

    Per-team tuples are indexed by team (0: seats 0 and 2, 1: seats 1 and 3);
    without partnerships (three-handed) they hold one entry per seat.
    """

    number: int
    dealer: int
    outcome: Outcome
    declarer: int | None = None
    contract: int = 0
    trump: Suit | None = None
    melds: tuple[MeldResult, ...] = ()
    meld_points: tuple[int, ...] = (0, 0)
    trick_points: tuple[int, ...] = (0, 0)
    meld_saved: tuple[bool, ...] = (False, False)
    scores: tuple[int, ...] = (0, 0)
    totals: tuple[int, ...] = (0, 0)
    tricks: tuple[Trick, ...] = ()
    caller: int | None = None
    #: Three-handed (docs/rules.md §3): the widow, and the declarer's discards if taken.
    widow: tuple[Card, ...] = ()
    discards: tuple[Card, ...] = ()

    @property
    def declaring_team(self) -> int | None:
        """The declarer's team (the index of its score), if there was a declarer.

        Four-handed the team is the seat's parity; without partnerships every
        seat keeps its own score: both are the seat modulo the number of scores.
        """
        return None if self.declarer is None else self.declarer % len(self.totals)

    @property
    def made(self) -> bool:
        """Whether the declaring team made its contract."""
        return self.outcome in (Outcome.MADE, Outcome.MOON)

    def summary(self) -> str:
        """A few lines a player can read: contract, meld, tricks, scores."""
        if self.outcome is Outcome.PASSED_OUT:
            return f"hand {self.number}: everyone passed; the deal moves on"
        if self.outcome is Outcome.REDEAL:
            return f"hand {self.number}: seat {self.caller} called a nines redeal"
        trump = self.trump.letter if self.trump is not None else "-"
        lines = [f"hand {self.number}: seat {self.declarer} declared {self.contract} in "
                 f"{trump}: {self.outcome}"]
        if self.widow:
            lines.append(f"  widow {' '.join(map(str, self.widow))}" + (
                f", discards {' '.join(map(str, self.discards))}" if self.discards else ""))
        who = "team" if len(self.scores) == 2 else "seat"
        for team in range(len(self.scores)):
            saved = "" if self.meld_saved[team] or not self.meld_points[team] else " (not saved)"
            lines.append(f"  {who} {team}: meld {self.meld_points[team]}{saved}, tricks "
                         f"{self.trick_points[team]}, scores {self.scores[team]:+d}, total "
                         f"{self.totals[team]}")
        return "\n".join(lines)


@dataclass(frozen=True)
class View:
    """Everything one seat (or a spectator, ``seat=None``) may know at one moment."""

    seat: int | None
    rules: Rules
    phase: Phase
    to_act: int | None
    dealer: int
    hand_number: int
    scores: tuple[int, ...]
    hand: Hand | None
    hand_sizes: tuple[int, ...]
    auction: tuple[tuple[int, Action], ...]
    high_bid: int
    high_bidder: int | None
    declarer: int | None
    contract: int
    trump: Suit | None
    given: tuple[Card, ...] | None
    returned: tuple[Card, ...] | None
    melds: tuple[MeldResult, ...] | None
    moon: bool
    tricks: tuple[Trick, ...]
    trick: tuple[tuple[int, Card], ...]
    trick_points: tuple[int, ...]
    results: tuple[HandResult, ...]
    winner: int | None
    legal_actions: tuple[Action, ...] = field(default=())
    #: Three-handed (docs/rules.md §3): the widow, face up for all once the auction is won
    #: (``None`` before, and in games without a widow) ...
    widow: tuple[Card, ...] | None = None
    #: ... and the declarer's discards, seen by the declarer only.
    discards: tuple[Card, ...] | None = None

    @property
    def played(self) -> Hand:
        """Every card played so far in this hand, tricks and current trick."""
        cards = [c for t in self.tricks for c in t.cards] + [c for _, c in self.trick]
        return Hand.from_cards(cards)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (cards and actions as text)."""
        def cards(cs: tuple[Card, ...] | None) -> str | None:
            return None if cs is None else " ".join(map(str, cs))

        return {
            "seat": self.seat, "rules": str(self.rules), "phase": self.phase.value,
            "to_act": self.to_act, "dealer": self.dealer, "hand_number": self.hand_number,
            "scores": list(self.scores), "hand": None if self.hand is None else str(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "auction": [[s, str(a)] for s, a in self.auction],
            "high_bid": self.high_bid, "high_bidder": self.high_bidder,
            "declarer": self.declarer, "contract": self.contract,
            "trump": None if self.trump is None else self.trump.letter,
            "given": cards(self.given), "returned": cards(self.returned),
            "melds": None if self.melds is None else [meld_dict(m) for m in self.melds],
            "moon": self.moon,
            "tricks": [{"leader": t.leader, "seats": list(t.seats), "cards": cards(t.cards),
                        "winner": t.winner, "points": t.points} for t in self.tricks],
            "trick": [[s, str(c)] for s, c in self.trick],
            "trick_points": list(self.trick_points),
            "winner": self.winner,
            "legal_actions": [str(a) for a in self.legal_actions],
            "widow": cards(self.widow), "discards": cards(self.discards),
        }


def sees_passed(rules: Rules, passer: int, seat: int | None) -> bool:
    """Whether ``seat`` (``None``: a spectator) sees the cards ``passer`` gives or
    returns: only the two partners see the cards that change hands (docs/rules.md
    §1.6, and §6 when the double deck passes).

    >>> rules = Rules()
    >>> [sees_passed(rules, 1, seat) for seat in (0, 1, 2, 3, None)]
    [False, True, False, True, False]
    """
    return seat is not None and rules.partnership and rules.team_of(seat) == rules.team_of(passer)


def sees_discard(declarer: int, seat: int | None) -> bool:
    """Whether ``seat`` (``None``: a spectator) sees the cards the three-handed
    ``declarer`` lays aside: they lie face down, seen by the declarer only
    (docs/rules.md §3, the widow taken)."""
    return seat is not None and seat == declarer


def sees_cards(rules: Rules, action: Action, actor: int, seat: int | None) -> bool:
    """Whether ``seat`` (``None``: a spectator) sees the cards of ``actor``'s
    ``action``: a give or a return by :func:`sees_passed`, a discard by
    :func:`sees_discard`; every other action is seen by all.

    >>> from pinochlekit.engine.actions import parse_action
    >>> give = parse_action("give AS TS KS QS")
    >>> sees_cards(Rules(), give, 0, 2), sees_cards(Rules(), give, 0, 1)
    (True, False)
    """
    if isinstance(action, Give | Return):
        return sees_passed(rules, actor, seat)
    if isinstance(action, Discard):
        return sees_discard(actor, seat)
    return True
