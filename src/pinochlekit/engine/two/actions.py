"""The actions of the two-handed game (docs/rules.md §4) beside the shared ``play CARD``.

After winning a trick while the stock lasts, the winner may lay one meld
(``meld KS QS``), count a dix (``dix``: exchange it for the turned-up card
while that card is there, else show it) and then ends the turn (``no meld``
if nothing was laid); the drawing that follows is automatic.

>>> parse_two_action("meld qs jd")
LayMeld.parse('meld QS JD')
>>> [str(parse_two_action(t)) for t in ("dix", "no meld", "play 10h", "meld ♠K ♠Q")]
['dix', 'no meld', 'play TH', 'meld KS QS']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pinochlekit.engine.actions import PLAYS, Action
from pinochlekit.engine.cards import Card, parse_cards
from pinochlekit.engine.errors import NotationError

__all__ = ["Dix", "LayMeld", "NoMeld", "parse_two_action"]


def _canonical(cards: tuple[int, ...] | list[int]) -> tuple[Card, ...]:
    return tuple(sorted((Card(c) for c in cards), key=lambda c: (c // 6, -(c % 6))))


@dataclass(frozen=True, slots=True)
class LayMeld(Action):
    """Lay one meld on the table after winning a trick (cards sorted on creation)."""

    cards: tuple[Card, ...]
    verb: ClassVar[str] = "meld"

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", _canonical(self.cards))

    def __str__(self) -> str:
        return "meld " + " ".join(str(c) for c in self.cards)

    def __repr__(self) -> str:
        return f"LayMeld.parse({str(self)!r})"

    @staticmethod
    def parse(text: str) -> LayMeld:
        """Read ``meld CARDS``."""
        action = parse_two_action(text)
        if not isinstance(action, LayMeld):
            raise NotationError(f"bad meld {text!r}: write 'meld' and the cards, e.g. "
                                f"'meld KS QS'")
        return action


@dataclass(frozen=True, slots=True)
class Dix(Action):
    """Count a nine of trump after winning a trick: exchanged for the turned-up card
    while that card lies under the stock, otherwise shown (docs/rules.md §4)."""

    verb: ClassVar[str] = "dix"

    def __str__(self) -> str:
        return "dix"

    def __repr__(self) -> str:
        return "Dix()"


@dataclass(frozen=True, slots=True)
class NoMeld(Action):
    """End the winner's melding turn (nothing more to lay); the players then draw."""

    verb: ClassVar[str] = "no meld"

    def __str__(self) -> str:
        return "no meld"

    def __repr__(self) -> str:
        return "NoMeld()"


DIX = Dix()
NO_MELD = NoMeld()


def parse_two_action(text: str) -> Action:
    """Read a two-handed action: ``play CARD``, ``meld CARDS``, ``dix`` or ``no meld``
    (``done`` is read as ``no meld``); :class:`NotationError` quoting the text."""
    words = text.strip().lower().split()
    if words == ["dix"]:
        return DIX
    if words in (["no", "meld"], ["done"], ["nomeld"]):
        return NO_MELD
    try:
        if words and words[0] == "meld" and len(words) > 1:
            return LayMeld(tuple(parse_cards(" ".join(words[1:]))))
        if words and words[0] == "play" and len(words) == 2:
            return PLAYS[parse_cards(words[1])[0]]
    except NotationError as error:
        raise NotationError(f"bad action {text!r}: {error}") from None
    raise NotationError(f"bad action {text!r}: the two-handed game takes 'play CARD', "
                        f"'meld CARDS', 'dix' or 'no meld'")

