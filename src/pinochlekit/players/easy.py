"""The ``easy`` player of docs/rules.md §5 (seed 003), exactly as docs/players.md says.

>>> from pinochlekit import Game
>>> game = Game.new("pagat", seed=3)
>>> players = [EasyPlayer(seed) for seed in range(4)]
>>> while not game.results:  # one hand
...     seat = game.to_act
...     game.apply(players[seat].choose(game.view(seat)), seat)
>>> game.results[0].outcome.value in ("made", "set", "not on the board")
True
"""

from __future__ import annotations

from pinochlekit.engine.actions import (
    Action,
    Discard,
    Give,
    NameTrump,
    Pass,
    Play,
    Redeal,
    Return,
)
from pinochlekit.engine.cards import Hand, Suit
from pinochlekit.engine.variants import TwoHanded
from pinochlekit.engine.views import Phase, View
from pinochlekit.players.base import Level, lowest_bid
from pinochlekit.players.two.levels import TwoEasy

__all__ = ["EasyPlayer", "easy_trump", "partner_has_it", "seat_hand"]


def seat_hand(view: View) -> Hand:
    """The hand in a seat's view; :class:`ValueError` for a spectator's view."""
    if view.hand is None or view.seat is None:
        raise ValueError("a player needs a seat's view, not a spectator's")
    return view.hand


def legal_or_fail(view: View) -> tuple[Action, ...]:
    """``view.legal_actions``; :class:`ValueError` if the seat has nothing to do."""
    if not view.legal_actions:
        raise ValueError(f"seat {view.seat} has nothing to do in the {view.phase}")
    return view.legal_actions


def hand_key(view: View) -> tuple[int, int, int, int, tuple[int, ...]]:
    """Identifies one deal of one game for a seat: what a player keeps "for the rest
    of the auction" is stored under this key."""
    hand = seat_hand(view)
    return (view.hand_number, view.dealer, hand.once, hand.twice, view.scores)


def partner_has_it(view: View) -> bool:
    """The auction habit of docs/rules.md §5 that ``easy``, ``standard`` and ``pro``
    follow: partner holds the high bid and both opponents have passed, so the
    player does not outbid partner (four-handed only; a pass is final, §1 Auction).

    >>> from pinochlekit import Game, parse_action
    >>> game = Game.new("pagat", seed=1, dealer=0)
    >>> for text in ("pass", "bid 250", "pass"):
    ...     game.apply(parse_action(text))
    >>> partner_has_it(game.view(game.to_act))
    True
    """
    seat = view.seat
    if seat is None or not view.rules.partnership or view.high_bidder != (seat + 2) % 4:
        return False
    passed = {s for s, action in view.auction if isinstance(action, Pass)}
    return {(seat + 1) % 4, (seat + 3) % 4} <= passed


def easy_trump(hand: Hand, suits: list[int]) -> int:
    """docs/players.md easy **Trump**: the suit of ``suits`` with the highest sum of
    card values (9 = 1, J = 2, Q = 3, K = 4, 10 = 5, A = 6); ties to the earlier suit."""
    def value(suit: int) -> int:
        return sum(card % 6 + 1 for card in hand if card // 6 == suit)
    return max(suits, key=lambda s: (value(s), -s))


class EasyPlayer(Level):
    """docs/players.md **easy**: a random maximum bid, trump by card values, random
    passing, a random legal card. It never throws in, shoots the moon or passes help.
    In the two-handed game (docs/two-handed.md) it plays as
    :class:`~pinochlekit.players.two.levels.TwoEasy`; the double deck by these rules."""

    name = "easy"

    def __init__(self, seed: int | str = 0) -> None:
        super().__init__(seed)
        self._max_bid: tuple[tuple[int, int, int, int, tuple[int, ...]], int] | None = None
        self.games[TwoHanded] = TwoEasy(self.rng)

    def choose_own(self, view: View) -> Action:
        """One of ``view.legal_actions``, drawn from :attr:`rng` where 003 says random."""
        legal = legal_or_fail(view)
        hand = seat_hand(view)
        if view.phase is Phase.AUCTION:
            if Redeal() in legal:  # a redeal whenever allowed (ours)
                return Redeal()
            key = hand_key(view)
            if self._max_bid is None or self._max_bid[0] != key:
                # At its first call of a hand: a multiple of the step in
                # [opening bid - 5 steps, opening bid + 15 steps], uniformly.
                rules = view.rules
                self._max_bid = (key, rules.opening_bid + self.rng.randint(-5, 15) * rules.step)
            lowest = lowest_bid(legal)
            if lowest is None:  # the high bid is the most there is: pass
                return Pass()
            if Pass() in legal and partner_has_it(view):  # docs/rules.md §5 habits
                return Pass()
            if lowest.amount <= self._max_bid[1] or Pass() not in legal:
                return lowest
            return Pass()
        if view.phase is Phase.TRUMP:
            suits = [int(a.suit) for a in legal if isinstance(a, NameTrump)]
            return NameTrump(Suit(easy_trump(hand, suits)))
        if view.phase in (Phase.GIVE, Phase.RETURN):
            cards = tuple(self.rng.sample(hand.cards(), view.rules.cards_passed))
            return Give(cards) if view.phase is Phase.GIVE else Return(cards)
        if view.phase is Phase.DISCARD:  # three-handed, widow taken: random, like passing
            return Discard(tuple(self.rng.sample(hand.cards(), view.rules.widow_size)))
        # Trick-taking: a uniformly random legal card (never throw in, never the moon).
        return self.rng.choice([a for a in legal if isinstance(a, Play)])
