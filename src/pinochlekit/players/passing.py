"""Passing by expected score, for the ``expert`` player (docs/rules.md §1 Passing).

A partner's pass decides the declarer's meld and trumps, so the expert does
not pass by a fixed order alone: it takes the pro order's choice
(docs/players.md **pro**), adds the choices that differ from it by one card
where the new card is one a declarer can use (a trump, an ace, a pinochle
part Q♠ or J♦, the other half of a marriage) or, for the declarer passing
back, one it can spare, and scores every candidate on the same sampled deals:
the pass is made, the declarer passes back by the pro order when partner is
the one choosing, every seat melds, and the hand is played out by standard
players (the C core when built).

**The discard** (three-handed, ``widow="take"``, docs/rules.md §3): the declarer's
three cards laid aside are chosen the same way: the standard choice
(:func:`~pinochlekit.players.policy.discard_key`), the choices that void a
short plain suit, and one-card changes toward other plain cards are each
scored on the same sampled deals (:class:`AfterDiscard`): the cards are laid
aside (their points the declarer's), every seat melds, and the hand is played
out by standard players.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pinochlekit.engine.cards import Hand, Rank, Suit
from pinochlekit.engine.meld import meld as engine_meld
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.tricks import card_points
from pinochlekit.players.policy import discard_key, give_order, kinds, pass_cards, return_cards
from pinochlekit.players.search.backends import simulate_hands
from pinochlekit.players.search.simulate import Start, hand_scores, player_scores

__all__ = ["AfterDiscard", "AfterPassing", "discard_candidates", "give_candidates",
           "return_candidates", "round_score_after_passing"]

_QS = Suit.SPADES * 6 + Rank.QUEEN
_JD = Suit.DIAMONDS * 6 + Rank.JACK

_Meld = Callable[[Hand, int], tuple[int, bool, Hand]]
_Return = Callable[[Hand, Sequence[int], int], list[int]]


def _tools(rules: Rules) -> tuple[_Meld, _Return]:
    """Meld and the pro's passing back: the C core when built, else the engine."""
    try:
        from pinochlekit.players.search import fastcore
    except ImportError:
        def py_meld(hand: Hand, trump: int) -> tuple[int, bool, Hand]:
            result = engine_meld(hand, trump, rules)
            return result.points, result.dix_only, result.shown

        def py_return(hand: Hand, given: Sequence[int], trump: int) -> list[int]:
            return return_cards(hand, trump, rules, rules.cards_passed,
                                Hand.from_cards(given), voiding=False)
        return py_meld, py_return

    def c_meld(hand: Hand, trump: int) -> tuple[int, bool, Hand]:
        result = fastcore.meld(rules, hand, trump)
        return result.points, result.dix_only, result.shown

    def c_return(hand: Hand, given: Sequence[int], trump: int) -> list[int]:
        return [int(c) for c in fastcore.return_cards(rules, hand, given, trump, "pro")]
    return c_meld, c_return


def _useful(hand: Hand, trump: int) -> int:
    """Kinds a declarer can use: trumps, aces, Q♠ and J♦, and the queen or king that
    completes a marriage with what the hand passes."""
    mask = 0
    for kind in range(24):
        if not hand.once >> kind & 1:
            continue
        rank, suit = kind % 6, kind // 6
        if suit == trump or rank == Rank.ACE or kind in (_QS, _JD) or rank in (Rank.KING,
                                                                              Rank.QUEEN):
            mask |= 1 << kind
    return mask


def _swaps(hand: Hand, base: Sequence[int], pool: Sequence[int], limit: int
           ) -> list[tuple[int, ...]]:
    """``base`` and the choices that differ from it by one card taken from ``pool``
    (kinds, most wanted first: with a limit, the first kinds are the ones tried)."""
    out = [tuple(sorted(base))]
    seen = {out[0]}
    rest = hand - Hand.from_cards(base)
    for new in pool:
        if not rest.once >> new & 1:
            continue
        for i in range(len(base)):
            choice = tuple(sorted([*base[:i], *base[i + 1:], new]))
            if choice not in seen:
                seen.add(choice)
                out.append(choice)
                if len(out) >= limit:
                    return out
    return out


def _give_order(hand: Hand, trump: int) -> list[int]:
    """The kinds of :func:`_useful` in the order a declarer wants them (docs/players.md, the
    passing orders: pass trump, aces and pinochle parts to a declarer who needs them): trumps
    from the ace down, then Q♠ and J♦, then aces, then kings and queens."""
    mask = _useful(hand, trump)

    def want(kind: int) -> tuple[int, int]:
        group = 0 if kind // 6 == trump else 1 if kind in (_QS, _JD) else \
            2 if kind % 6 == Rank.ACE else 3
        return group, -(kind % 6)
    return sorted(kinds(mask), key=want)


def give_candidates(hand: Hand, trump: int, rules: Rules, limit: int = 16
                    ) -> list[tuple[int, ...]]:
    """Choices of ``rules.cards_passed`` cards for the declarer's partner: the pro
    order's, the standard order's, and one-card changes toward useful cards."""
    n = rules.cards_passed
    pro = pass_cards(hand, trump, rules, n, give_order(True))
    standard = tuple(sorted(pass_cards(hand, trump, rules, n, give_order(False))))
    out = _swaps(hand, pro, _give_order(hand, trump), limit)
    if standard not in out:
        out.insert(1, standard)
    # The declarer's most wanted cards outright (all the trumps first), which one-card
    # changes from the pro choice do not reach when several trumps are meld cards.
    wanted = _give_order(hand, trump)
    if len(wanted) >= n:
        first = tuple(sorted(wanted[:n]))
        if first not in out:
            out.insert(2, first)
    # Both pinochle parts at once (docs/rules.md §1 Meld: Q♠ J♦ is a pinochle), for the
    # pro choice's last two cards, when the hand has them and passes at least two.
    parts = [k for k in (_QS, _JD) if hand.once >> k & 1 and k not in pro]
    if len(parts) == 2 and n >= 2:
        pair = tuple(sorted([*pro[:n - 2], *parts]))
        if pair not in out:
            out.insert(2, pair)
    return out[:limit]


def return_candidates(hand: Hand, trump: int, rules: Rules, received: Hand, limit: int = 16
                      ) -> list[tuple[int, ...]]:
    """Choices of cards for the declarer to pass back: the pro order's, the standard
    order's (which voids a suit), and one-card changes toward non-trump cards."""
    n = rules.cards_passed
    pro = return_cards(hand, trump, rules, n, received, voiding=False)
    standard = tuple(sorted(return_cards(hand, trump, rules, n, received, voiding=True)))
    spare = 0
    for kind in range(24):
        if kind // 6 != trump and kind % 6 != Rank.ACE:
            spare |= 1 << kind
    out = _swaps(hand, pro, kinds(spare & hand.once), limit)
    if standard not in out:
        out.insert(1, standard)
    return out[:limit]


class AfterPassing:
    """Round scores of hands after a pass, every seat then a standard player."""

    def __init__(self, rules: Rules, declarer: int, contract: int, trump: int,
                 knower: int) -> None:
        self.rules = rules
        self.declarer = declarer
        self.contract = contract
        self.trump = trump
        self.knower = knower
        self.meld, self.back = _tools(rules)

    def score(self, hands: Sequence[Hand], given: Sequence[int], returned: Sequence[int],
              team: int) -> int:
        """The round score for ``team`` with the current ``hands`` after both passes."""
        melds = [self.meld(h, self.trump) for h in hands]
        points = [m[0] for m in melds]
        team_meld = [points[0] + points[2], points[1] + points[3]]
        dix = [all(melds[s][1] or not points[s] for s in (t, t + 2))
               and any(points[s] for s in (t, t + 2)) for t in (0, 1)]
        us = self.declarer % 2
        if self.contract > team_meld[us] + self.rules.trick_total:
            # docs/rules.md §1 Not on the board: the hand is not played.
            scores = hand_scores(self.rules, self.declarer, self.contract, team_meld, dix,
                                 [0, 0], played=False)
            return scores[team] - scores[1 - team]
        start = Start(self.rules, self.declarer, self.contract, self.trump, self.knower, "play",
                      tuple(m[2] for m in melds), tuple(points), tuple(m[1] for m in melds),
                      tuple(given), tuple(returned))
        return simulate_hands(start, [tuple(hands)], team)[0]

    def after_give(self, deal: Sequence[Hand], given: Sequence[int], team: int) -> int:
        """From the hands before passing: partner gives ``given``, the declarer
        passes back by the pro order, then meld and play."""
        partner = (self.declarer + 2) % 4
        hands = list(deal)
        received = Hand.from_cards(given)
        hands[partner] = hands[partner] - received
        hands[self.declarer] = hands[self.declarer] + received
        back = self.back(hands[self.declarer], given, self.trump)
        returned = Hand.from_cards(back)
        hands[self.declarer] = hands[self.declarer] - returned
        hands[partner] = hands[partner] + returned
        return self.score(hands, given, back, team)

    def after_return(self, deal: Sequence[Hand], given: Sequence[int],
                     returned: Sequence[int], team: int) -> int:
        """From the hands after the give: the declarer returns ``returned``."""
        partner = (self.declarer + 2) % 4
        hands = list(deal)
        back = Hand.from_cards(returned)
        hands[self.declarer] = hands[self.declarer] - back
        hands[partner] = hands[partner] + back
        return self.score(hands, given, returned, team)


def round_score_after_passing(rules: Rules, declarer: int, contract: int, trump: int,
                              hands: Sequence[Hand], given: Sequence[int],
                              returned: Sequence[int], team: int) -> int:
    """One hand's round score for ``team`` once both passes are made (``hands`` are
    the hands after passing), with standard players from meld on."""
    return AfterPassing(rules, declarer, contract, trump, declarer).score(
        hands, given, returned, team)


# -- the discard (three-handed, widow taken) ---------------------------------------------


def discard_candidates(hand: Hand, trump: int, rules: Rules, limit: int = 12
                       ) -> list[tuple[int, ...]]:
    """Choices of the ``rules.widow_size`` cards the declarer holding ``hand`` lays
    aside (docs/rules.md §3): the standard order's (non-meld cards, counters first), the
    choices that void a short plain suit of non-meld cards (filled by the same
    order), and one-card changes toward other plain cards; at most ``limit``,
    the standard choice first, none that lowers the hand's meld below the
    standard choice's."""
    n = rules.widow_size
    meld_of, _ = _tools(rules)
    base = tuple(sorted(pass_cards(hand, trump, rules, n, discard_key)))
    keep = meld_of(hand - Hand.from_cards(base), trump)[0]
    out = [base]
    for suit in range(4):
        if suit == trump:
            continue
        cards = [int(c) for c in hand if c // 6 == suit]
        if not cards or len(cards) > n:
            continue
        rest = hand - Hand.from_cards(cards)
        fill = pass_cards(rest, trump, rules, n - len(cards), discard_key)
        choice = tuple(sorted([*cards, *fill]))
        if choice not in out and meld_of(hand - Hand.from_cards(choice), trump)[0] >= keep:
            out.append(choice)
    plain = 0
    for kind in range(24):
        if kind // 6 != trump:
            plain |= 1 << kind
    for choice in _swaps(hand, base, kinds(plain & hand.once), 4 * limit)[1:]:
        if len(out) >= limit:
            break
        if choice not in out and meld_of(hand - Hand.from_cards(choice), trump)[0] >= keep:
            out.append(choice)
    return out[:limit]


class AfterDiscard:
    """Round scores of three-handed hands after the declarer's discard (docs/rules.md §3),
    every seat then a standard player; ``team`` is a seat."""

    def __init__(self, rules: Rules, declarer: int, contract: int, trump: int) -> None:
        self.rules = rules
        self.declarer = declarer
        self.contract = contract
        self.trump = trump
        self.meld, _ = _tools(rules)
        self.points = card_points(rules)

    def score(self, deal: Sequence[Hand], discard: Sequence[int], team: int) -> int:
        """``deal``: the three current hands (the declarer's with the widow in it) and
        an empty pile; the declarer lays ``discard`` aside, then meld and play."""
        aside = Hand.from_cards(discard)
        hands = [h - aside if s == self.declarer else h for s, h in enumerate(deal[:3])]
        melds = [self.meld(h, self.trump) for h in hands]
        points = [m[0] for m in melds]
        dix = [m[1] and m[0] > 0 for m in melds]
        rules = self.rules
        if self.contract > points[self.declarer] + rules.trick_total:
            # docs/rules.md §1 Not on the board; §3 the discards' points are the declarer's.
            tricks = [0, 0, 0]
            tricks[self.declarer] = sum(self.points[c] for c in discard)
            each = player_scores(rules, self.declarer, self.contract, points, dix, tricks,
                                 played=False)
            return each[team] - (sum(each) - each[team]) // 2
        start = Start(rules, self.declarer, self.contract, self.trump, self.declarer, "play",
                      tuple(m[2] for m in melds), tuple(points), tuple(m[1] for m in melds),
                      aside=tuple(discard))
        return simulate_hands(start, [(*hands, aside)], team)[0]
