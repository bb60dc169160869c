"""What a seat may know in the two-handed game (docs/rules.md §4), and its hand results.

:class:`TwoHandedView` is a :class:`~pinochlekit.engine.views.View` (so every player
and interface that takes a view takes it) with the two-handed table added: the
turned-up card while it lies under the stock, the size of the stock, the melds
laid on the table (public), the cards each seat is known to hold, and the stage
of the hand. It never holds the order of the stock or the opponent's hidden
cards. The auction fields of a four-handed view are empty (no auction, no
contract, no passing).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

from pinochlekit.engine.cards import Card, Hand
from pinochlekit.engine.views import HandResult, View

__all__ = ["MeldEvent", "TableCard", "TwoHandResult", "TwoHandedView", "TwoStage"]

#: The meld classes of docs/rules.md §1 Meld, as bits of :attr:`TableCard.classes`.
CLASS_NAMES = ("I", "II", "III")


class TwoStage(StrEnum):
    """Where a two-handed hand stands (docs/rules.md §4)."""

    #: While the stock lasts: any card may be played.
    EARLY = "early tricks"
    #: The winner of an early trick may lay a meld and count a dix, then both draw.
    MELD = "meld"
    #: The last twelve tricks, under the play rules (old rules by default).
    LATE = "last tricks"
    #: The game has been won.
    OVER = "game over"

    def __str__(self) -> str:
        return self.value


class TableCard(NamedTuple):
    """A card laid on the table in meld, and the meld classes it has served in
    (bit 0: class I, bit 1: class II, bit 2: class III)."""

    card: Card
    classes: int

    def __str__(self) -> str:
        used = "+".join(name for i, name in enumerate(CLASS_NAMES) if self.classes >> i & 1)
        return f"{self.card}({used})"


class MeldEvent(NamedTuple):
    """One meld scored: by whom, what, with which cards, for how many points.

    ``name`` is a meld name of docs/rules.md §1 (``run``, ``royal marriage`` …), or
    ``dix`` (shown), ``dix exchanged`` or ``dix turned up`` (the dealer's 10).
    """

    seat: int
    name: str
    cards: tuple[Card, ...]
    points: int

    def __str__(self) -> str:
        return f"seat {self.seat}: {self.name} {' '.join(map(str, self.cards))} = {self.points}"


@dataclass(frozen=True)
class TwoHandResult(HandResult):
    """The itemized result of one two-handed deal; indexed by seat (0 and 1).

    ``melds`` holds each seat's meld of the hand as a
    :class:`~pinochlekit.engine.meld.MeldResult`; :attr:`events` lists every meld in
    the order it was scored.
    """

    events: tuple[MeldEvent, ...] = ()
    target: int = 0

    def summary(self) -> str:
        """A few lines a player can read: trump, meld, tricks, scores."""
        trump = self.trump.letter if self.trump is not None else "-"
        lines = [f"hand {self.number}: seat {self.dealer} dealt, trump {trump}"]
        for seat in range(len(self.scores)):
            lines.append(f"  seat {seat}: meld {self.meld_points[seat]}, tricks "
                         f"{self.trick_points[seat]}, scores {self.scores[seat]:+d}, total "
                         f"{self.totals[seat]}")
        return "\n".join(lines)


@dataclass(frozen=True, kw_only=True)
class TwoHandedView(View):
    """A seat's (or a spectator's) view of a two-handed game.

    ``hand`` is everything the seat holds, the cards on its side of the table
    included (they may be played); ``table`` shows what each seat has laid;
    ``known`` the cards each seat is known to hold (laid in meld, or the
    turned-up card it took) and has not played; ``dix_counted`` whether the winner
    of the trick has already counted a dix in this meld turn.
    """

    stage: TwoStage
    turn_up: Card | None
    stock_size: int
    table: tuple[tuple[TableCard, ...], ...]
    known: tuple[Hand, ...]
    events: tuple[MeldEvent, ...]
    meld_points: tuple[int, ...]
    target: int
    dix_counted: bool = False

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (cards and actions as text), the four-handed fields included."""
        out = View.to_dict(self)
        out.update({
            "game": "two-handed", "stage": self.stage.value,
            "turn_up": None if self.turn_up is None else str(self.turn_up),
            "stock_size": self.stock_size,
            "table": [[str(t) for t in side] for side in self.table],
            "known": [str(h) for h in self.known],
            "events": [{"seat": e.seat, "name": e.name, "cards": " ".join(map(str, e.cards)),
                        "points": e.points} for e in self.events],
            "meld_points": list(self.meld_points), "target": self.target,
            "dix_counted": self.dix_counted,
        })
        return out
