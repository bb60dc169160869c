"""The ``expert`` player in the two-handed game (docs/rules.md §4; docs/two-handed.md).

Every decision is taken by the expected score of the hand: the player's meld
and trick points minus the opponent's (the duplicate match's measure).

- **Last tricks** (the stock drawn): every card is known, the opponent's hand
  being what is neither held nor played. Each legal card is valued exactly by
  the perfect-information solver (:mod:`pinochlekit.players.two.solver`), and
  the best is played.
- **Early tricks and meld turns**: each legal action (card, meld, dix, no meld)
  is scored on the *same* deals of the unseen cards (common random numbers;
  :func:`~pinochlekit.players.two.levels.sample_hidden`: the opponent's hidden
  cards and the stock order, uniform among the deals consistent with the view,
  the cards the opponent is known to hold left with it). While the stock is
  long the hand is played out by standard players
  (:func:`~pinochlekit.players.two.levels.rollout_values`); once
  :data:`SOLVE_STOCK` cards or fewer remain (and the budget buys
  :data:`MIN_SOLVED_DEALS` deals per action), standard players only draw the
  stock out and the last twelve tricks are then valued exactly by the solver,
  so that the choices that shape the last tricks (which cards to keep, whether
  to take the last early trick) are judged by best play. The best mean wins;
  ties go to the standard player's choice.

**Budget.** ``time`` (seconds, default 1.0) fixes the *work*, never reads the
clock: ``time / (1 / DEALS_PER_SECOND + actions / ROLLOUTS_PER_SECOND)`` deals
played out by rollouts, or ``time * SOLVES_PER_SECOND / actions`` deals drawn
out and solved, with a floor of :data:`MIN_DEALS` deals. The constants are
calibrated with ``bench/expert_two.py`` so that a decision stays under
``time`` seconds at the 95th percentile on one core. The player is
deterministic given its seed.

:class:`TwoExpert` is ``expert``'s per-game player here
(:class:`~pinochlekit.players.base.Level`); :class:`ExpertGame` is what every per-game
``expert`` answers besides a choice (its decision as data, an action's value).
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Callable, Sequence

from pinochlekit.engine.actions import Action, Play
from pinochlekit.engine.cards import ALL_CARDS, Hand
from pinochlekit.engine.scoring import two_hand_margin
from pinochlekit.engine.two.game import TwoHandedGame
from pinochlekit.engine.two.views import TwoHandedView, TwoStage
from pinochlekit.engine.views import View
from pinochlekit.players.base import GamePlayer
from pinochlekit.players.two import core as twocore
from pinochlekit.players.two.levels import (
    _seen_from_game,
    rollout_values,
    standard_action,
    two_standard,
)
from pinochlekit.players.two.solver import LateSolver, native_solver

__all__ = ["MIN_DEALS", "SOLVE_STOCK", "Decision", "ExpertGame", "TwoExpert", "advise_two",
           "choose_two", "deal_sampler", "decide", "explain_two", "late_values"]

#: Per option: (mean hand score, lowest, highest sampled hand score).
Estimate = tuple[float, int, int]

#: Stock size (the turned-up card included) at or below which the last tricks of
#: each sampled deal are solved exactly instead of played out by standard players.
SOLVE_STOCK = 6
#: The least number of sampled deals behind an early decision.
MIN_DEALS = 4
#: Full standard rollouts per second of budget on one core: with the C core
#: (:mod:`pinochlekit.players.two.core`) and without it.
ROLLOUTS_PER_SECOND = 20000 if twocore.core is not None else 200
#: Deals of the unseen cards sampled per second of budget.
DEALS_PER_SECOND = 30000
#: Draws of the stock followed by an exact solve, per second of budget (the C
#: solver; the Python one is a hundred times slower).
SOLVES_PER_SECOND = 80 if native_solver() is not None else 1
#: The least number of deals per action for which the solver replaces rollouts
#: near the end of the stock (below it, the budget buys more by rollouts).
MIN_SOLVED_DEALS = 12
#: Deals drawn and played out at a time.
BATCH = 4096
_INF = 1 << 30


class Decision:
    """An action, why, and each option's estimate (name → mean, lowest, highest);
    ``makes``: for an option that declares (a bid or a trump), the share of the
    sampled deals in which the contract is made (meld plus trick points at least
    the bid), weighted as the means are."""

    __slots__ = ("action", "makes", "options", "reason")

    def __init__(self, action: Action, reason: str, options: dict[str, Estimate],
                 makes: dict[str, float] | None = None) -> None:
        self.action, self.reason, self.options = action, reason, options
        self.makes: dict[str, float] = dict(makes or {})

    def text(self) -> str:
        """``action: reason; option mean (low..high), ...`` (best option first)."""
        out = f"{self.action}: {self.reason}"
        if self.options:
            ranked = sorted(self.options.items(), key=lambda kv: -kv[1][0])
            out += "; " + ", ".join(f"{name} {mean:+.1f} ({low:+d}..{high:+d})"
                                    for name, (mean, low, high) in ranked)
        return out


def _name(action: Action) -> str:
    return str(action.card) if isinstance(action, Play) else str(action)


# -- the last tricks: exact ----------------------------------------------------------


def _opponent_hand(view: TwoHandedView) -> Hand:
    """In the last tricks: every card neither held nor played is the opponent's."""
    assert view.hand is not None
    counts = [2 - view.hand.count(k) - view.played.count(k) for k in range(24)]
    return Hand.from_cards(k for k in range(24) for _ in range(counts[k]))


def _so_far(view: TwoHandedView, seat: int) -> int:
    """``seat``'s meld and trick points of the hand so far minus the opponent's."""
    return two_hand_margin(view.meld_points, view.trick_points, seat)


def late_values(view: TwoHandedView, solver: LateSolver | None = None) -> dict[int, int]:
    """In the last tricks: for each legal card, the exact hand score (meld and
    trick points of the hand, the player's minus the opponent's) after it, with
    best play by both from then on."""
    assert view.seat is not None and view.hand is not None and view.trump is not None
    seat = view.seat
    solver = solver or LateSolver(view.rules, int(view.trump))
    opponent = _opponent_hand(view)
    base = _so_far(view, seat)
    if view.trick:
        lead = int(view.trick[0][1])
        leader = opponent + Hand.from_cards([lead])  # the solver takes the lead out itself
        values = solver.follow_values(lead, leader, view.hand)
    else:
        values = solver.lead_values(view.hand, opponent)
    return {card: base + value for card, value in values.items()}


# -- the early tricks: sampled -------------------------------------------------------


def _solved_values(view: TwoHandedView, action: Action,
                   deals: Sequence[tuple[Hand, list[int]]]) -> list[int]:
    """For each deal: ``action``, standard players until the stock is drawn, then the
    exact value of the last tricks; the seat's hand score as :func:`rollout_values`."""
    assert view.seat is not None and view.trump is not None
    seat = view.seat
    solver = LateSolver(view.rules, int(view.trump))
    out = []
    for opponent, stock in deals:
        game = TwoHandedGame.from_view(view, opponent, stock)
        game.apply_unchecked(action)
        while game.stage is not TwoStage.LATE:
            actor = game.to_act
            assert actor is not None
            game.apply_unchecked(standard_action(_seen_from_game(game, actor)))
        leader = game.to_act
        assert leader is not None
        rest = solver.value(game.hand(leader), game.hand(1 - leader))
        out.append(two_hand_margin(game.meld_points, game.trick_points, seat)
                   + (rest if leader == seat else -rest))
    return out


def deal_sampler(view: TwoHandedView, rng: random.Random
                 ) -> Callable[[], tuple[Hand, list[int]]]:
    """A function drawing deals of the unseen cards as
    :func:`~pinochlekit.players.two.levels.sample_hidden` does (the same
    distribution: the opponent keeps its known cards, the rest is shuffled
    uniformly), with the counting done once for all the deals of a decision."""
    seat = view.seat
    assert seat is not None and view.hand is not None
    other = 1 - seat
    known = view.known[other]
    known_hidden = known - Hand.from_cards(t.card for t in view.table[other])
    unseen: list[int] = []
    played = view.played
    for k in range(24):
        n = 2 - view.hand.count(k) - played.count(k) - known.count(k)
        n -= 1 if view.turn_up == k else 0
        unseen += [k] * n
    need = view.hand_sizes[other] - len(view.table[other]) - len(known_hidden)
    shuffle = rng.shuffle

    def draw() -> tuple[Hand, list[int]]:
        cards = list(unseen)
        shuffle(cards)
        return known_hidden + Hand.from_cards(cards[:need]), cards[need:]
    return draw


def _sampled(view: TwoHandedView, rng: random.Random, time: float,
             legal: Sequence[Action], standard: Action) -> Decision:
    solving = (view.stock_size <= SOLVE_STOCK
               and time * SOLVES_PER_SECOND / len(legal) >= MIN_SOLVED_DEALS)
    if solving:
        n = round(time * SOLVES_PER_SECOND / len(legal))
    else:
        n = max(MIN_DEALS, round(time / (1 / DEALS_PER_SECOND + len(legal) /
                                          ROLLOUTS_PER_SECOND)))
    draw = deal_sampler(view, rng)
    evaluate = _solved_values if solving else rollout_values
    # Deals in batches (the same deals for every action), so that a large budget
    # does not hold millions of deals at once: per action the sum, least, most.
    totals = {a: (0, _INF, -_INF) for a in legal}
    for start in range(0, n, BATCH):
        deals = [draw() for _ in range(min(BATCH, n - start))]
        for action in legal:
            values = evaluate(view, action, deals)
            total, low, high = totals[action]
            totals[action] = (total + sum(values), min(low, *values), max(high, *values))
    options = {_name(a): (t / n, low, high) for a, (t, low, high) in totals.items()}
    best = max(legal, key=lambda a: (options[_name(a)][0], a == standard))
    how = "draws then exact last tricks" if solving else "standard rollouts"
    return Decision(best, f"best mean hand score {options[_name(best)][0]:+.1f} ({how}, "
                          f"{n} deals)", options)


# -- the decision --------------------------------------------------------------------


def decide(view: TwoHandedView, rng: random.Random, time: float) -> Decision:
    """The expert's decision in ``view`` (the seat to act's view of a two-handed game)
    with a budget of ``time`` seconds of work; draws deals from ``rng`` only."""
    legal = list(view.legal_actions)
    if not legal or view.seat is None:
        raise ValueError(f"seat {view.seat} has nothing to do")
    if len(legal) == 1:
        return Decision(legal[0], "the only legal action", {})
    if view.stage is TwoStage.LATE:
        values = late_values(view)
        standard = two_standard(view)
        card = max(values, key=lambda c: (values[c], Play(ALL_CARDS[c]) == standard, -c))
        options = {str(ALL_CARDS[c]): (float(v), v, v) for c, v in values.items()}
        return Decision(Play(ALL_CARDS[card]), f"exact hand score {values[card]:+d} (every "
                        f"card known, solved)", options)
    return _sampled(view, rng, time, legal, two_standard(view))


def choose_two(view: View, rng: random.Random, time: float) -> Action:
    """The action of :func:`decide` for any view of the two-handed game."""
    if not isinstance(view, TwoHandedView):
        raise TypeError(f"not a view of the two-handed game: {type(view).__name__}")
    return decide(view, rng, time).action


def advise_two(view: View, rng: random.Random, time: float) -> Decision:
    """:func:`decide` for any view of the two-handed game (the action, why, each
    option's mean and sampled range), leaving ``rng`` as it was."""
    if not isinstance(view, TwoHandedView):
        raise TypeError(f"not a view of the two-handed game: {type(view).__name__}")
    state = rng.getstate()
    try:
        return decide(view, rng, time)
    finally:
        rng.setstate(state)


def explain_two(view: View, rng: random.Random, time: float) -> str:
    """:func:`advise_two` as text: ``action: why; option mean (low..high), ...``."""
    return advise_two(view, rng, time).text()



class ExpertGame(GamePlayer):
    """``expert`` in one game: besides choosing, its decision as data and the value of
    an action (what :class:`~pinochlekit.players.expert.ExpertPlayer` answers)."""

    @abstractmethod
    def advise(self, view: View) -> Decision:
        """The decision in ``view``: the action, why, each option weighed; leaves the
        player as it was."""

    @abstractmethod
    def value(self, view: View, action: Action) -> Estimate | None:
        """The expected score of ``action`` (legal in ``view``), or ``None`` for an
        action it does not value; leaves the player as it was."""

    def explain(self, view: View) -> str | None:
        """:meth:`advise` as text."""
        return self.advise(view).text()


class TwoExpert(ExpertGame):
    """``expert`` in the two-handed game (:func:`decide`), ``time`` seconds of work a
    decision, drawing from ``rng`` (the level's own generator)."""

    def __init__(self, rng: random.Random, time: float) -> None:
        self.rng = rng
        self.time = time

    def choose(self, view: View) -> Action:
        """:func:`choose_two`."""
        return choose_two(view, self.rng, self.time)

    def advise(self, view: View) -> Decision:
        """:func:`advise_two`."""
        return advise_two(view, self.rng, self.time)

    def value(self, view: View, action: Action) -> Estimate | None:
        """None: the two-handed expert values the options of its decision only."""
        return None
