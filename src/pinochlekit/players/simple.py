"""Two cheap computer players: a simple one for demos and a random one for tests.

Both see only their seat's :class:`~pinochlekit.View` and always answer with one
of ``view.legal_actions``, in every game: four-handed, three-handed (docs/rules.md
§3) and two-handed (docs/rules.md §4). Neither is one of the
``easy``/``standard``/``pro`` players of docs/rules.md §5; :class:`SimplePlayer` is a
few rules of thumb.

>>> from pinochlekit import Game
>>> game = Game.new("pagat", seed=5)
>>> players = [SimplePlayer(seed) for seed in range(4)]
>>> while game.winner is None:
...     seat = game.to_act
...     game.apply(players[seat].choose(game.view(seat)), seat)
>>> game.winner in (0, 1)
True
"""

from __future__ import annotations

from collections.abc import Sequence

from pinochlekit.engine.actions import (
    Action,
    Discard,
    Give,
    NameTrump,
    Pass,
    Play,
    Redeal,
    Return,
    ThrowIn,
)
from pinochlekit.engine.cards import Card, Hand, Rank, Suit
from pinochlekit.engine.meld import meld, meld_values
from pinochlekit.engine.tricks import card_points, winner_index
from pinochlekit.engine.two.actions import DIX, NO_MELD, LayMeld
from pinochlekit.engine.two.game import combinations
from pinochlekit.engine.two.views import TwoHandedView, TwoStage
from pinochlekit.engine.views import Phase, View
from pinochlekit.players.base import Player, lowest_bid

__all__ = ["RandomPlayer", "SimplePlayer", "estimate"]

# Ordinary-scale allowances of SimplePlayer's bidding (divided by rules.unit in play).
_PER_ACE = 10
_PER_TEN = 5
_PARTNER_PASSING = 100  # what partner's passed cards are worth to the declarer
_PARTNER_PLAIN = 40  # what partner's meld and tricks are worth without passing
_THROW_IN_MARGIN = 200  # throw in when the contract exceeds team meld + this
# Three-handed (docs/rules.md §3), instead of partner's help: the widow kept out (its
# trick points go to the declarer), or taken (three more cards, three discards).
# Picked over 30 games of simple players; most sets there are the forced opening.
_WIDOW_OUT = 40
_WIDOW_TAKEN = 60


def _hand(view: View) -> Hand:
    if view.hand is None:
        raise ValueError("a player needs a seat's view, not a spectator's")
    return view.hand


def estimate(hand: Hand, view: View) -> tuple[int, Suit]:
    """Estimate what ``hand`` should make as declarer, and the suit to name for it.

    The best meld over the four suits (ties: the longer suit), plus a rough
    trick allowance (10 per ace, 5 per ten) and an allowance for partner's
    help (100 with passing, 40 without; three-handed, for the widow instead:
    40 kept out, 60 taken), all in the game's own scale.
    """
    rules = view.rules
    unit = rules.unit
    (best_meld, _), best_suit = max(
        ((meld(hand, suit, rules).points, len(hand.suit(suit))), suit) for suit in Suit)
    aces = sum(1 for c in hand if c.rank == Rank.ACE)
    tens = sum(1 for c in hand if c.rank == Rank.TEN)
    if rules.widow_size:
        partner = _WIDOW_TAKEN if rules.widow == "take" else _WIDOW_OUT
    else:
        partner = _PARTNER_PASSING if rules.cards_passed else _PARTNER_PLAIN
    tricks = (_PER_ACE * aces + _PER_TEN * tens + partner) // unit
    return best_meld + tricks, best_suit


class SimplePlayer(Player):
    """A few rules of thumb; deterministic (it never draws from :attr:`rng`).

    - Auction: call a nines redeal when allowed; otherwise bid the lowest legal
      bid while it is at most :func:`estimate`, else pass (never "pass help").
    - Trump: the suit with the best meld plus ten per card of length.
    - Passing: partner gives its highest trumps, then aces, keeping its own
      meld where it can; the declarer returns low cards outside trump and meld.
    - Before the first lead the declarer throws in when the contract exceeds
      the team's meld by more than 200 (ordinary scale); it never shoots the moon.
    - Play: lead a non-trump ace, else the lowest card; following, play low when
      partner is winning (a counter if last to play), else the highest card that
      wins the trick (the lowest such card if last to play), else the lowest.
    - Three-handed: the same rules without a partner; the discards are the cards
      the declarer would return.
    - Two-handed, after a won early trick: count the dix whenever it may, then lay
      the meld worth the most, else say no meld. Early tricks: lead the lowest
      card that is neither trump nor in the hand's meld; follow a counter (ace or
      ten) with the lowest card that wins it, a non-trump one first, and anything
      else with the lowest card outside the meld. The last tricks: the play rules
      above.
    """

    name = "simple"

    def choose(self, view: View) -> Action:
        """One of ``view.legal_actions`` for the seat to act."""
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.seat} has nothing to do in the {view.phase}")
        if isinstance(view, TwoHandedView) and view.stage is not TwoStage.LATE:
            action = self._meld_turn(view, legal) if view.stage is TwoStage.MELD else \
                self._early_trick(view, legal)
        elif view.phase is Phase.AUCTION:
            action = self._bid(view, legal)
        elif view.phase is Phase.TRUMP:
            action = self._trump(view, legal)
        elif view.phase in (Phase.GIVE, Phase.RETURN, Phase.DISCARD):
            action = self._pass_cards(view, legal)
        else:
            action = self._play(view, legal)
        return action if action in legal else legal[0]

    # -- auction and trump --------------------------------------------------

    def _bid(self, view: View, legal: Sequence[Action]) -> Action:
        if Redeal() in legal:
            return Redeal()
        lowest = lowest_bid(legal)
        if lowest is None:  # the high bid is the most there is: pass
            return Pass()
        if Pass() not in legal:  # the first bidder must open
            return lowest
        value, _ = estimate(_hand(view), view)
        return lowest if lowest.amount <= value else Pass()

    def _trump(self, view: View, legal: Sequence[Action]) -> Action:
        hand = _hand(view)
        per_card = 10 // view.rules.unit
        choices = [a for a in legal if isinstance(a, NameTrump)]
        return max(choices, key=lambda a: (
            meld(hand, a.suit, view.rules).points + per_card * len(hand.suit(a.suit)),
            -a.suit))

    # -- passing ------------------------------------------------------------

    def _pass_cards(self, view: View, legal: Sequence[Action]) -> Action:
        hand = _hand(view)
        trump = view.trump
        shown = meld(hand, trump, view.rules).shown
        keep_left = {c: shown.count(c) for c in set(hand)}
        giving = view.phase is Phase.GIVE

        def value(card: Card, in_meld: bool) -> int:
            """How much the passer wants this card to travel (giving) or stay (returning)."""
            worth = int(card.rank)
            if card.suit == trump:
                worth += 200
            elif card.rank == Rank.ACE:
                worth += 100
            elif card.rank == Rank.TEN:
                worth += 30
            if in_meld:
                worth += -150 if giving else 150
            return worth

        # Each copy of a kind in the shown meld is a meld card; extra copies are not.
        scored: list[tuple[int, Card]] = []
        for card in hand:
            in_meld = keep_left[card] > 0
            if in_meld:
                keep_left[card] -= 1
            scored.append((value(card, in_meld), card))
        n = view.rules.cards_passed
        if view.phase is Phase.DISCARD:  # three-handed: lay aside what returning would
            chosen = [c for _, c in sorted(scored, key=lambda vc: (vc[0], vc[1]))]
            return Discard(tuple(chosen[:view.rules.widow_size]))
        if giving:
            chosen = [c for _, c in sorted(scored, key=lambda vc: (-vc[0], vc[1]))[:n]]
            action: Action = Give(tuple(chosen))
        else:
            chosen = [c for _, c in sorted(scored, key=lambda vc: (vc[0], vc[1]))[:n]]
            action = Return(tuple(chosen))
        return action

    # -- play ---------------------------------------------------------------

    def _play(self, view: View, legal: Sequence[Action]) -> Action:
        if ThrowIn() in legal and view.melds is not None and view.declarer is not None:
            rules = view.rules
            team_meld = sum(m.points for s, m in enumerate(view.melds)
                            if rules.team_of(s) == rules.team_of(view.declarer))
            if view.contract > team_meld + _THROW_IN_MARGIN // rules.unit:
                return ThrowIn()
        cards = [a.card for a in legal if isinstance(a, Play)]
        trump = int(view.trump) if view.trump is not None else -1
        points = card_points(view.rules)

        def low(card: Card) -> tuple[bool, int, int, int]:
            return (card.suit == trump, points[card], card.rank, card)

        def strength(card: Card) -> tuple[bool, int, int]:
            return (card.suit == trump, card.rank, -card)

        if not view.trick:
            aces = [c for c in cards if c.rank == Rank.ACE and c.suit != trump]
            return Play(min(aces) if aces else min(cards, key=low))
        trick = [c for _, c in view.trick]
        winning_seat = view.trick[winner_index(trick, trump)][0]
        seat = view.seat if view.seat is not None else -1
        partner_winning = view.rules.partnership and winning_seat == (seat + 2) % 4
        last = len(trick) == (view.rules.players - 1 if view.moon else view.rules.players) - 1
        if partner_winning:
            if last:  # a counter for partner's trick
                return Play(max(cards, key=lambda c: (c.suit != trump, points[c], -c)))
            return Play(min(cards, key=low))
        winners = [c for c in cards if winner_index([*trick, c], trump) == len(trick)]
        if not winners:
            return Play(min(cards, key=low))
        return Play(min(winners, key=strength) if last else max(winners, key=strength))


    # -- two-handed (docs/rules.md §4) ----------------------------------------------

    def _meld_turn(self, view: TwoHandedView, legal: Sequence[Action]) -> Action:
        if DIX in legal:  # exchanging is never worse, and it leaves the meld to lay
            return DIX
        assert view.trump is not None
        values = meld_values(view.rules)
        names = {tuple(sorted(cards)): name for name, _, cards in combinations(view.trump)}
        melds = [a for a in legal if isinstance(a, LayMeld)]
        if not melds:
            return NO_MELD
        return max(melds, key=lambda a: (values[names[tuple(sorted(a.cards))]], -len(a.cards)))

    def _early_trick(self, view: TwoHandedView, legal: Sequence[Action]) -> Action:
        hand = _hand(view)
        trump = view.trump
        assert trump is not None
        points = card_points(view.rules)
        keep = meld(hand, trump, view.rules).shown
        cards = [a.card for a in legal if isinstance(a, Play)]

        def cheap(card: Card) -> tuple[bool, bool, int, int, int]:
            """Lowest first: outside the meld, not trump, fewest points, lowest rank."""
            return (card in keep, card.suit == trump, points[card], card.rank, card)

        if not view.trick:
            return Play(min(cards, key=cheap))
        led = view.trick[0][1]
        winners = [c for c in cards if winner_index([led, c], trump) == 1]
        if led.rank in (Rank.ACE, Rank.TEN) and winners:
            return Play(min(winners, key=lambda c: (c.suit == trump, c in keep, c.rank, c)))
        return Play(min(cards, key=cheap))


class RandomPlayer(Player):
    """Uniformly random over the legal actions, with exceptions for speed.

    In the auction it passes or raises one step with equal probability (and
    calls a redeal half the time it may); it chooses the cards to give or
    return with ``rng.sample`` of its hand.
    """

    name = "random"

    def choose(self, view: View) -> Action:
        """One of ``view.legal_actions``, drawn from :attr:`rng`."""
        rng = self.rng
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.seat} has nothing to do in the {view.phase}")
        if view.phase is Phase.AUCTION:
            if Redeal() in legal and rng.random() < 0.5:
                return Redeal()
            passes = [a for a in legal if isinstance(a, Pass)]
            lowest = lowest_bid(legal)
            if lowest is None:  # the high bid is the most there is
                return rng.choice(passes)
            if passes and rng.random() < 0.5:
                return rng.choice(passes)
            return lowest
        if view.phase in (Phase.GIVE, Phase.RETURN):
            chosen = tuple(rng.sample(_hand(view).cards(), view.rules.cards_passed))
            return Give(chosen) if view.phase is Phase.GIVE else Return(chosen)
        return rng.choice(legal)
