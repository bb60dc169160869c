"""Computer players for the two-handed game (docs/rules.md §4), in the spirit of 003.

The three levels of ``docs/players.md`` carried over to two players with a stock
(the rules of each level are spelled out in ``docs/two-handed.md``):

- ``easy``: a random legal card; after a won trick it counts the dix and lays
  the most valuable meld it can.
- ``standard``: plays by card values. Each card has a *keep value*: its trick
  points, a bonus for trumps and, while the stock lasts, for the melds it could
  still be part of. It leads its cheapest card; following while the stock
  lasts, it takes the trick when what it wins (the trick's points and the meld
  it could then lay) beats what it gives up; after a won trick it counts the
  dix first, then lays its most valuable meld, holding back a royal marriage
  while the run is in sight. In the last tricks, where it knows the opponent's
  hand, it leads a card sure to win (most points first), else its cheapest
  card, and takes tricks with its lowest winning card.
- ``pro``: flat Monte Carlo. For each legal action it plays out the rest of the
  hand on deals of the unseen cards (the opponent's hidden cards and the stock,
  dealt uniformly among the deals consistent with the view), every seat a
  ``standard`` player; it keeps standard's choice unless that averages more
  than 5 points below the best action, and otherwise takes the best.

Rollouts run in C (:mod:`pinochlekit.players.two.core`) when the extension is built, else
in Python; both give the same values. :class:`TwoEasy`, :class:`TwoStandard` and
:class:`TwoPro` are the levels' per-game players (:class:`~pinochlekit.players.base.Level`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

from pinochlekit.engine.actions import PLAYS, Action, Play
from pinochlekit.engine.cards import Hand, Rank
from pinochlekit.engine.scoring import two_hand_margin
from pinochlekit.engine.tricks import card_points, winner_index
from pinochlekit.engine.two.actions import DIX, NO_MELD, LayMeld
from pinochlekit.engine.two.game import TwoHandedGame, combinations
from pinochlekit.engine.two.views import TwoHandedView, TwoStage
from pinochlekit.engine.views import View
from pinochlekit.players.base import GamePlayer
from pinochlekit.players.two import core as twocore

__all__ = ["TwoEasy", "TwoPro", "TwoStandard", "python_rollout_values",
           "rollout_values", "two_easy", "two_pro", "two_standard"]

class Seen:
    """What a seat sees, in the form the standard policy reads (from a view, or from
    a simulated game for the seat to act)."""

    __slots__ = ("holding", "lead", "legal", "opponent", "points", "seat", "stage",
                 "stock_size", "table_classes", "trump")

    def __init__(self, seat: int, trump: int, stage: TwoStage, legal: Sequence[Action],
                 holding: list[int], table_classes: list[int], lead: int | None,
                 opponent: list[int] | None, stock_size: int, points: tuple[int, ...]) -> None:
        self.seat, self.trump, self.stage, self.legal = seat, trump, stage, legal
        self.holding, self.table_classes, self.lead = holding, table_classes, lead
        self.opponent, self.stock_size, self.points = opponent, stock_size, points


def _seen_from_view(view: TwoHandedView) -> Seen:
    assert view.seat is not None and view.hand is not None and view.trump is not None
    seat = view.seat
    holding = [view.hand.count(k) for k in range(24)]
    classes = [0] * 24
    for entry in view.table[seat]:
        classes[entry.card] |= entry.classes
    lead = view.trick[0][1] if view.trick else None
    opponent = None
    if view.stage is TwoStage.LATE:  # the stock is gone: the rest is the opponent's
        played = view.played
        opponent = [2 - holding[k] - played.count(k) for k in range(24)]
    return Seen(seat, int(view.trump), view.stage, view.legal_actions, holding, classes, lead,
                opponent, view.stock_size, card_points(view.rules))


def _seen_from_game(game: TwoHandedGame, seat: int) -> Seen:
    holding = game.kind_counts(seat)
    classes = [0] * 24
    for entry in game.table(seat):
        classes[entry.card] |= entry.classes
    lead = game.trick[0] if game.trick else None
    opponent = game.kind_counts(1 - seat) if game.stage is TwoStage.LATE else None
    return Seen(seat, int(game.trump), game.stage, game.legal_actions(), holding, classes,
                lead, opponent, game.stock_size, game.kind_points)


# -- the standard policy ----------------------------------------------------------------


def keep_value(seen: Seen, card: int) -> float:
    """What holding ``card`` is worth to the seat: trick points, a trump bonus and,
    while the stock lasts, a share of the melds it could still be part of."""
    value = float(seen.points[card])
    if card // 6 == seen.trump:
        value += 6 + card % 6
    if seen.stage is TwoStage.LATE:
        return value
    holding = seen.holding
    for bit, cards, worth in _combos_of(seen.trump)[card]:
        if not seen.table_classes[card] & bit:
            held = sum(1 for c in cards if holding[c])
            value += worth * held * held / (len(cards) * len(cards))
    return value


_MELD_WORTH = {5: 60, 2: 14, 4: 30}


@cache
def _combos_of(trump: int) -> tuple[tuple[tuple[int, tuple[int, ...], int], ...], ...]:
    """For each card: the (class bit, cards, worth) of the melds it belongs to."""
    return tuple(tuple((bit, tuple(cards), _MELD_WORTH[len(cards)])
                       for _, bit, cards in combinations(trump) if card in cards)
                 for card in range(24))


def _wins(lead: int, card: int, trump: int) -> bool:
    return winner_index((lead, card), trump) == 1


def _cheapest(seen: Seen, cards: list[int]) -> int:
    return min(cards, key=lambda c: (keep_value(seen, c), c))


def _best_meld_now(seen: Seen) -> int:
    """Points of the best meld the seat could lay if it won the trick now (docs/rules.md
    §4: every card held and free for the class, at least one from the hand)."""
    best = 0
    for name, bit, cards in combinations(seen.trump):
        if all(seen.holding[c] for c in cards) and not all(
                seen.table_classes[c] & bit for c in cards):
            best = max(best, _MELD_POINTS[name])
    return best


_MELD_POINTS = {"run": 150, "royal marriage": 40, "common marriage": 20, "aces around": 100,
                "kings around": 80, "queens around": 60, "jacks around": 40, "pinochle": 40}


def _meld_choice(seen: Seen) -> Action:
    """Dix first; then the most valuable meld, holding back a royal marriage while the
    run is in sight (two of its other cards held and six or more cards to draw)."""
    legal = seen.legal
    if DIX in legal:
        return DIX
    melds = [a for a in legal if isinstance(a, LayMeld)]
    if not melds:
        return NO_MELD
    trump = seen.trump
    run_others = [trump * 6 + r for r in (Rank.ACE, Rank.TEN, Rank.JACK)]
    in_sight = sum(1 for c in run_others if seen.holding[c]) >= 2 and seen.stock_size >= 6

    def worth(action: LayMeld) -> int:
        name = _name_of(action, trump)
        points = _MELD_POINTS[name]
        return points - 100 if name == "royal marriage" and in_sight else points

    best = max(melds, key=lambda a: (worth(a), str(a)))
    return best if worth(best) > 0 else NO_MELD


def _name_of(action: LayMeld, trump: int) -> str:
    cards = sorted(action.cards)
    for name, _, combo in combinations(trump):
        if sorted(combo) == cards:
            return name
    return ""


def _sure_winner(seen: Seen, card: int) -> bool:
    """In the last tricks: no card of the opponent's beats ``card`` when led (old rules:
    it must follow suit, else trump)."""
    opponent = seen.opponent
    assert opponent is not None
    suit = card // 6
    if any(opponent[k] for k in range(card + 1, suit * 6 + 6)):
        return False
    if suit == seen.trump:
        return True
    holds_suit = any(opponent[k] for k in range(suit * 6, suit * 6 + 6))
    holds_trump = any(opponent[k] for k in range(seen.trump * 6, seen.trump * 6 + 6))
    return holds_suit or not holds_trump


def standard_action(seen: Seen) -> Action:
    """The standard two-handed policy (docs/two-handed.md)."""
    legal = seen.legal
    if len(legal) == 1:
        return legal[0]
    if seen.stage is TwoStage.MELD:
        return _meld_choice(seen)
    cards: list[int] = [a.card for a in legal if isinstance(a, Play)]
    lead = seen.lead
    if lead is None:
        if seen.stage is TwoStage.LATE:
            sure = [c for c in cards if _sure_winner(seen, c)]
            if sure:
                return PLAYS[max(sure, key=lambda c: (seen.points[c], -c))]
            plain = [c for c in cards if c // 6 != seen.trump] or cards
            return PLAYS[_cheapest(seen, plain)]
        return PLAYS[_cheapest(seen, cards)]
    winning = [c for c in cards if _wins(lead, c, seen.trump)]
    losing = [c for c in cards if c not in winning]
    if seen.stage is TwoStage.LATE:
        if winning:
            return PLAYS[min(winning, key=lambda c: (c % 6, c))]
        return PLAYS[min(losing, key=lambda c: (seen.points[c], c % 6, c))]
    if not winning:
        return PLAYS[_cheapest(seen, losing)]
    take = _cheapest(seen, winning)
    score_take = (seen.points[lead] + seen.points[take] + 0.8 * _best_meld_now(seen)
                  - (keep_value(seen, take) - seen.points[take]))
    if not losing:
        return PLAYS[take]
    give = _cheapest(seen, losing)
    score_give = -(seen.points[lead] + seen.points[give]) - (keep_value(seen, give)
                                                             - seen.points[give])
    return PLAYS[take] if score_take > score_give else PLAYS[give]


# -- the three levels -------------------------------------------------------------------


def two_easy(view: View, rng: random.Random) -> Action:
    """``easy``: a random legal card; the dix, then the most valuable meld."""
    assert isinstance(view, TwoHandedView)
    legal = view.legal_actions
    if not legal:
        raise ValueError(f"seat {view.seat} has nothing to do")
    if view.stage is TwoStage.MELD:
        if DIX in legal:
            return DIX
        melds = [a for a in legal if isinstance(a, LayMeld)]
        if not melds:
            return NO_MELD
        trump = int(view.trump or 0)
        return max(melds, key=lambda a: (_MELD_POINTS[_name_of(a, trump)], str(a)))
    return rng.choice(list(legal))


def two_standard(view: View) -> Action:
    """``standard`` (draws no random numbers)."""
    assert isinstance(view, TwoHandedView)
    if not view.legal_actions:
        raise ValueError(f"seat {view.seat} has nothing to do")
    return standard_action(_seen_from_view(view))


def sample_hidden(view: TwoHandedView, rng: random.Random) -> tuple[Hand, list[int]]:
    """A deal of the cards ``view``'s seat has not seen: (the opponent's hidden cards,
    the face-down stock in drawing order), uniform among the deals consistent with
    the view (the opponent's known cards stay with it)."""
    known_hidden, base, need = _hidden_parts(view)
    unseen = list(base)
    rng.shuffle(unseen)
    opponent = known_hidden + Hand.from_cards(unseen[:need])
    return opponent, unseen[need:]


_last_hidden: tuple[TwoHandedView, tuple[Hand, tuple[int, ...], int]] | None = None


def _hidden_parts(view: TwoHandedView) -> tuple[Hand, tuple[int, ...], int]:
    """(the opponent's known hidden cards, the unseen cards in kind order, how many
    of them the opponent holds) for :func:`sample_hidden`; kept for the last view,
    since ``pro`` deals many times from one view."""
    global _last_hidden
    last = _last_hidden
    if last is not None and last[0] is view:
        return last[1]
    seat = view.seat
    assert seat is not None and view.hand is not None
    other = 1 - seat
    played = view.played
    known = view.known[other]
    on_table = Hand.from_cards(t.card for t in view.table[other])
    known_hidden = known - on_table
    unseen: list[int] = []
    for k in range(24):
        n = 2 - view.hand.count(k) - played.count(k) - known.count(k)
        n -= 1 if view.turn_up == k else 0
        unseen += [k] * n
    need = view.hand_sizes[other] - len(view.table[other]) - len(known_hidden)
    parts = (known_hidden, tuple(unseen), need)
    _last_hidden = (view, parts)
    return parts


def rollout(game: TwoHandedGame, seat: int, hand_number: int | None = None) -> int:
    """Play the hand out with standard players; ``seat``'s meld and tricks minus the
    opponent's for the whole hand (hand ``hand_number``, by default the current one:
    give it when the hand may already be over)."""
    start = game.hand_number if hand_number is None else hand_number
    while game.winner is None and game.hand_number == start:
        actor = game.to_act
        assert actor is not None
        game.apply_unchecked(standard_action(_seen_from_game(game, actor)))
    result = game.results[-1] if game.results and game.results[-1].number == start else None
    if result is None:
        return two_hand_margin(game.meld_points, game.trick_points, seat)
    return result.scores[seat] - result.scores[1 - seat]


def rollout_values(view: TwoHandedView, action: Action,
                   deals: Sequence[tuple[Hand, list[int]]]) -> list[int]:
    """For each deal (the opponent's hidden cards, the stock in drawing order, as
    :func:`sample_hidden` gives them): ``action`` taken in ``view``'s position, then the
    hand played out by standard players; the value :func:`rollout` gives for the seat.

    Played by the C core (:mod:`pinochlekit.players.two.core`) when it is built, else by
    :func:`python_rollout_values`; both give the same values. ``ValueError`` if
    ``action`` is not one of the view's legal actions."""
    if action not in view.legal_actions:
        raise ValueError(f"{action} is not a legal action of seat {view.seat} here")
    fast = twocore.rollout_values(view, action, deals)
    return python_rollout_values(view, action, deals) if fast is None else fast


def python_rollout_values(view: TwoHandedView, action: Action,
                          deals: Sequence[tuple[Hand, list[int]]]) -> list[int]:
    """:func:`rollout_values` in Python (the reference): for each deal
    ``rollout(g, seat, start)`` after ``g = TwoHandedGame.from_view(view, opponent, stock)``
    and ``g.apply_unchecked(action)`` (``start``: the hand number before the action, so
    that an action ending the hand scores that hand, not the next)."""
    assert view.seat is not None
    seat = view.seat
    out = []
    for opponent, stock in deals:
        game = TwoHandedGame.from_view(view, opponent, stock)
        start = game.hand_number
        game.apply_unchecked(action)
        out.append(rollout(game, seat, start))
    return out


def two_pro(view: View, rng: random.Random, samples: int) -> Action:
    """``pro``: standard's action unless another averages more than 5 points more over
    ``samples`` simulated deals of the unseen cards (the same deals for every action)."""
    assert isinstance(view, TwoHandedView) and view.seat is not None
    legal = view.legal_actions
    choice = two_standard(view)
    if len(legal) == 1:
        return choice
    if view.stage is TwoStage.LATE:
        samples = 1  # the stock is gone: the opponent's hand is known, one deal is exact
    deals = [sample_hidden(view, rng) for _ in range(samples)]
    totals = {action: sum(rollout_values(view, action, deals)) for action in legal}
    best = max(legal, key=lambda a: (totals[a], a == choice))
    if (totals[best] - totals[choice]) * view.rules.unit > 5 * samples:
        return best
    return choice



# -- the levels' per-game players ---------------------------------------------------------


class TwoEasy(GamePlayer):
    """``easy`` in the two-handed game (:func:`two_easy`), drawing from ``rng`` (the
    level's own generator)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: View) -> Action:
        """:func:`two_easy`."""
        return two_easy(view, self.rng)


class TwoStandard(GamePlayer):
    """``standard`` (and ``skilled``) in the two-handed game (:func:`two_standard`)."""

    def choose(self, view: View) -> Action:
        """:func:`two_standard`."""
        return two_standard(view)

    def explain(self, view: View) -> str | None:
        """The action and the policy that chose it."""
        return f"{two_standard(view)}: two-handed standard (docs/two-handed.md)"


class TwoPro(GamePlayer):
    """``pro`` in the two-handed game (:func:`two_pro`): ``samples`` deals a decision,
    drawn from ``rng`` (the level's own generator)."""

    def __init__(self, rng: random.Random, samples: int) -> None:
        self.rng = rng
        self.samples = samples

    def choose(self, view: View) -> Action:
        """:func:`two_pro`."""
        return two_pro(view, self.rng, self.samples)

    def explain(self, view: View) -> str | None:
        """The action and the number of deals; leaves ``rng`` as it was."""
        state = self.rng.getstate()
        try:
            action = two_pro(view, self.rng, self.samples)
        finally:
            self.rng.setstate(state)
        return f"{action}: two-handed pro ({self.samples} deals)"
