"""The three-handed game (docs/rules.md §3): each player for themself, 15 cards each
and a widow of 3, shown to all once the auction is won and, by the rules' ``widow``
option, kept out of play or taken by the declarer, who then discards 3.

Everything else is :class:`~pinochlekit.engine.game.Game` with three seats and no
partners; this class overrides the hooks where the widow changes the game.

>>> from pinochlekit import Game
>>> game = Game.new("three", seed=2)
>>> type(game).__name__, len(game.hand(0)), game.widow is None
('ThreeHandedGame', 15, True)
"""

from __future__ import annotations

from collections.abc import Sequence

from pinochlekit.engine.actions import Action, Discard
from pinochlekit.engine.cards import Card, Hand
from pinochlekit.engine.deals import deal_seed
from pinochlekit.engine.game import Game
from pinochlekit.engine.passing import card_choices
from pinochlekit.engine.three.widow import deal_with_widow, widow_of
from pinochlekit.engine.views import Phase

__all__ = ["ThreeHandedGame"]


class ThreeHandedGame(Game):
    """A three-handed game with a widow (docs/rules.md §3); seats 0, 1 and 2.

    Built by ``Game.new`` (and :func:`~pinochlekit.new_game`, replays and records)
    whenever the rules have three players; its interface is :class:`Game`'s.
    """

    __slots__ = ()
    SEATS = (3,)

    def _deal(self, dealer: int, index: int) -> tuple[Sequence[Hand], Hand]:
        """docs/rules.md §3: 15 cards each, 3 to the widow (or the fixed deal's rest)."""
        if index < len(self.deals):
            hands = self.deals[index]
            return hands, widow_of(hands)
        return deal_with_widow(deal_seed(self.seed, index), dealer, self._n,
                               self.rules.hand_size)

    @property
    def widow(self) -> Hand | None:
        """The widow (docs/rules.md §3): face up for everyone once the auction is won,
        ``None`` before that."""
        return self._widow if self.declarer is not None else None

    def _win_auction(self, declarer: int, contract: int) -> None:
        super()._win_auction(declarer, contract)
        if self.rules.widow == "take":
            # docs/rules.md §3 option: the widow, shown to all, goes into the declarer's hand
            for card in self._widow:
                bit = 1 << card
                if self._once[declarer] & bit:
                    self._twice[declarer] |= bit
                else:
                    self._once[declarer] |= bit

    def _after_trump(self) -> None:
        if self.rules.widow == "take":
            self.phase = Phase.DISCARD  # the declarer still to act
        else:
            self._meld()

    def _passing_actions(self, phase: Phase, seat: int) -> list[Action]:
        """The discards of the declarer who took the widow (no give or return here)."""
        return card_choices(Discard, self._once[seat], self._twice[seat],
                            self.rules.widow_size)

    def _discard(self, seat: int, cards: tuple[Card, ...]) -> None:
        # docs/rules.md §3 (widow taken): 3 cards face down, counted for the declarer
        self.discards = cards
        for card in cards:
            bit = 1 << card
            if self._twice[seat] & bit:
                self._twice[seat] &= ~bit
            else:
                self._once[seat] &= ~bit
        self._meld()

    def _set_aside(self) -> tuple[Card, ...]:
        """The cards out of play that count for the declarer (docs/rules.md §3): the widow
        when it stays out, the discards when it is taken."""
        if self.rules.widow == "take":
            return self.discards or ()
        return tuple(self._widow)
