"""The review of one finished hand from one seat: where points were lost.

For each decision of the seat with a choice (bid or pass, trump, the cards passed or
returned or discarded, throw in or play on, each card played) the ``expert`` player
values the options from that seat's view at that moment: the view holds only what
the seat could see then, so a review never uses a card the seat did not know.
Each valuation is repeated ``repeats`` times on independent samples of the unseen
cards (``expert``'s seed differs); an option's value is the mean of the repeats
and its noise the standard error of that mean. The loss of a decision is the best
option's value minus the chosen one's; a mark is given only where the loss is
larger than twice its noise and larger than :data:`DOUBTFUL` (``?``) or
:data:`BLUNDER` (``??``) points (in the rules' scale: a tenth with divide by ten).

The values are ``expert``'s round scores (docs/players.md **expert**: the hand's
net result for the seat's side). A chosen action ``expert`` does not list among its
options is valued the same way on the same sampled deals
(:meth:`~pinochlekit.players.expert.ExpertPlayer.value`): a bid above the lowest
legal one as declaring at that bid in the best suit, cards given, returned or
discarded outside its candidates by the hand's result after that pass.

The double-dummy line (every hand face up, docs/rules.md §1 Play) gives, at the
start of each of the last ``double_dummy`` tricks, the trick points a side takes from
there with perfect play by both sides, beside what it took. Four-handed the declaring
side's, by the exact solver (:mod:`pinochlekit.players.search.solver`); three-handed
(docs/rules.md §3) the declarer's, by the same solver with three seats, plus the cards
set aside, which count for the declarer; two-handed (docs/rules.md §4) the reviewed
seat's over the last twelve tricks only, once the stock is drawn and every card known
(:mod:`pinochlekit.players.two.solver`): the tricks while the stock lasts have no exact
value, and :attr:`HandReview.double_dummy_note` says so. The line goes from the first
lead when the exact searches fit in :data:`DOUBLE_DUMMY_POSITIONS` positions (about
ten seconds of one core; most hands do), else from the earliest trick that fits:
solved from the last trick back, each earlier one costlier, the budget counted in
positions so the line is the same on every machine. The double deck (docs/rules.md §6)
has the declaring side's line over its last :data:`DOUBLE_DECK_TRICKS` tricks, by
the double deck's own exact solver (:mod:`pinochlekit.players.double.solver`, the one
``expert`` plays its last tricks with); its marks are on the double deck's scale
(:data:`DOUBLE_DECK_SCALE`).

A review is deterministic: the same record, hand, seat, budget and seed give the
same values.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pinochlekit.engine.actions import Action, Bid, Discard, Give, NameTrump, Pass, Play, Return
from pinochlekit.engine.cards import parse_cards
from pinochlekit.engine.double.game import DoubleDeckGame
from pinochlekit.engine.errors import PinochleError
from pinochlekit.engine.game import Game
from pinochlekit.engine.games import AnyGame, for_game, parse_game_action, replay
from pinochlekit.engine.record import GameRecord
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.tricks import play_flags
from pinochlekit.engine.two.game import TwoHandedGame
from pinochlekit.engine.two.views import TwoStage
from pinochlekit.engine.views import Phase, View
from pinochlekit.players.double.solver import solve_values
from pinochlekit.players.expert import ExpertPlayer
from pinochlekit.players.search.solver import Endgame, solve_within
from pinochlekit.players.two.solver import LateSolver

__all__ = [
    "BLUNDER",
    "DOUBLE_DECK_SCALE",
    "DOUBLE_DECK_TRICKS",
    "DOUBLE_DUMMY_POSITIONS",
    "DOUBTFUL",
    "DecisionReview",
    "DoubleDummy",
    "HandReview",
    "OptionValue",
    "ReviewError",
    "review_hand",
]

#: A loss of at least this many points (ordinary scale) that exceeds its noise: ``?``.
DOUBTFUL = 10
#: A loss of at least this many points (ordinary scale) that exceeds its noise: ``??``.
BLUNDER = 40
#: The positions the double-dummy searches of one review may visit together (the C
#: solver visits some 15 to 20 million a second on one core).
DOUBLE_DUMMY_POSITIONS = 200_000_000

#: The last tricks of a double-deck hand (docs/rules.md §6) the double-dummy line
#: covers: its solver is exact but has no table of positions, and four tricks of 20
#: cards take it a fraction of a second where five may take minutes.
DOUBLE_DECK_TRICKS = 4
#: The double deck's marks: its trick points are 50 a hand against the single deck's
#: 250, so a loss of :data:`BLUNDER` / 5 (8 points) there is a blunder (docs/review.md).
DOUBLE_DECK_SCALE = 5


class ReviewError(PinochleError, ValueError):
    """A hand that cannot be reviewed: not in the record, not finished, or no such seat."""


@dataclass(frozen=True)
class OptionValue:
    """One option of a decision: its name, mean value over the repeats and the
    standard error of that mean (``None`` for both when ``expert`` does not value it)."""

    name: str
    value: float | None
    noise: float | None


@dataclass(frozen=True)
class DecisionReview:
    """One decision of the reviewed seat."""

    ply: int
    phase: str
    #: The trick number (1-based) of a card played, else 0.
    trick: int
    chosen: str
    best: str
    options: tuple[OptionValue, ...]
    #: The best option's value minus the chosen one's (0 when the chosen one is best or
    #: not valued), with its standard error.
    loss: float
    noise: float
    mark: str
    #: ``expert``'s own words for its choice (from the first repeat).
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {"ply": self.ply, "phase": self.phase, "trick": self.trick,
                "chosen": self.chosen, "best": self.best, "loss": round(self.loss, 1),
                "noise": round(self.noise, 1), "mark": self.mark, "reason": self.reason,
                "options": [{"name": o.name,
                             "value": None if o.value is None else round(o.value, 1),
                             "noise": None if o.noise is None else round(o.noise, 1)}
                            for o in self.options]}


@dataclass(frozen=True)
class DoubleDummy:
    """At the start of trick ``trick`` (1-based): the trick points the side of ``seat``
    (the declarer; two-handed, the seat reviewed) takes from there with every hand face
    up and perfect play, and what it took."""

    trick: int
    perfect: int
    actual: int
    seat: int = -1


@dataclass(frozen=True)
class HandReview:
    """The review of hand ``hand`` (1-based, redeals counted) from ``seat``."""

    rules: str
    hand: int
    seat: int
    declarer: int | None
    contract: int
    decisions: tuple[DecisionReview, ...]
    double_dummy: tuple[DoubleDummy, ...]
    #: What ``expert`` would have done at the seat's first auction decision.
    auction: str | None
    time: float
    repeats: int
    seed: int | str
    scale: int = 1
    lost: dict[str, float] = field(default_factory=dict)
    players: int = 4
    #: Why the double-dummy line is missing or starts late (empty when it is whole).
    double_dummy_note: str = ""
    #: Who the double-dummy line speaks for, in words (the game's: see ``_KINDS``).
    side: str = "the declaring side"
    #: The hand's head when nobody declared (the two-handed game has no auction).
    undeclared: str = "nobody declared"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (``pinochle review --json``)."""
        return {"format": "pinochlekit-review/1", "rules": self.rules, "players": self.players,
                "hand": self.hand,
                "seat": self.seat, "declarer": self.declarer, "contract": self.contract,
                "budget": {"time": self.time, "repeats": self.repeats, "seed": self.seed},
                "auction": self.auction,
                "lost": {k: round(v, 1) for k, v in self.lost.items()},
                "decisions": [d.to_dict() for d in self.decisions],
                "double_dummy": [{"trick": d.trick, "perfect": d.perfect, "actual": d.actual,
                                  "seat": d.seat} for d in self.double_dummy],
                "double_dummy_note": self.double_dummy_note}

    def text(self) -> str:
        """The review for people: one line per decision, marks first."""
        who = self.undeclared if self.declarer is None \
            else f"seat {self.declarer} declared at {self.contract}"
        lines = [f"Hand {self.hand}, seat {self.seat} ({who}); expert(time={self.time}), "
                 f"{self.repeats} repeats, values in points of the seat's side"]
        if self.auction:
            lines.append(f"auction: expert would {self.auction}")
        for d in self.decisions:
            where = f"trick {d.trick}" if d.trick else d.phase
            valued = [o for o in self.decisions_options(d) if o.value is not None]
            line = f"{d.mark or ' ':2} {where:9} {d.chosen}"
            if d.best != d.chosen and d.loss > d.noise:  # inside its noise: not shown
                line += f"  (best: {d.best}, {d.loss:.1f} ± {d.noise:.1f} better)"
            if valued:
                line += "  [" + ", ".join(f"{o.name} {o.value:+.1f}" for o in valued[:4]) + "]"
            lines.append(line)
        if self.lost:
            lines.append("points lost by phase: " + ", ".join(
                f"{k} {v:.1f}" for k, v in self.lost.items()))
        for dd in self.double_dummy:
            lines.append(f"double dummy from trick {dd.trick}: {self.side} takes "
                         f"{dd.perfect} with perfect play, took {dd.actual}")
        if self.double_dummy_note:
            lines.append(f"double dummy: {self.double_dummy_note}")
        return "\n".join(lines)

    @staticmethod
    def decisions_options(decision: DecisionReview) -> list[OptionValue]:
        """A decision's options, best first (unvalued ones last)."""
        return sorted(decision.options,
                      key=lambda o: -math.inf if o.value is None else -o.value)


# -- walking the record ---------------------------------------------------------------


@dataclass
class _Position:
    ply: int
    game: AnyGame
    action: Action


def _positions(record: GameRecord, hand: int) -> tuple[list[_Position], AnyGame]:
    """Every position of hand ``hand`` (a copy of the game before each action) and the
    game after the hand's last action."""
    game = replay(GameRecord(record.rules, record.seed, record.dealer, (), record.deals))
    rules = game.rules
    out: list[_Position] = []
    for ply, text in enumerate(record.actions):
        if game.hand_number > hand:
            return out, game
        action = parse_game_action(rules, text)
        if game.hand_number == hand:
            out.append(_Position(ply, game.copy(), action))
        game.apply(action)
    if game.hand_number > hand or (out and game.phase is Phase.GAME_OVER):
        return out, game
    if not out and game.hand_number < hand:
        finished = game.hand_number - (game.phase is not Phase.GAME_OVER)
        raise ReviewError(f"hand {hand}: the record's finished hands are 1 to {finished}")
    raise ReviewError(f"hand {hand} is not finished: a hand in play is never reviewed")


# -- one decision ---------------------------------------------------------------------


def _bid_options(options: dict[str, tuple[float, int, int]]) -> dict[str, float]:
    """``expert``'s auction options ("pass", "S at 250", ...) as "pass" and "bid N"
    (the best suit at that bid)."""
    out: dict[str, float] = {}
    for name, (mean, _, _) in options.items():
        if " at " in name:
            key = "bid " + name.split(" at ")[1]
            out[key] = max(out.get(key, -math.inf), mean)
        else:
            out[name] = mean
    return out


def _same_cards(a: str, b: str) -> bool:
    try:
        return sorted(map(str, parse_cards(a))) == sorted(map(str, parse_cards(b)))
    except PinochleError:
        return False


def _name_of(action: Action, names: Sequence[str]) -> str:
    """The option name of ``action`` among ``expert``'s option names."""
    text = str(action)
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Bid):
        return f"bid {action.amount}"
    if isinstance(action, NameTrump):
        return action.suit.letter if action.suit.letter in names else text
    if isinstance(action, Play):
        return str(action.card)
    if isinstance(action, Give | Return | Discard):
        cards = " ".join(str(c) for c in action.cards)
        return next((n for n in names if _same_cards(n, cards)), cards)
    return text


def _split(action: Action, options: dict[str, tuple[float, int, int]],
           auction: bool) -> list[tuple[str, dict[str, float]]]:
    """The decisions in one valuation: the auction's options collapsed; at a first lead
    the throw-in choice ("play on" / "throw in") apart from the card."""
    if auction:
        return [("auction", _bid_options(options))]
    means = {name: mean for name, (mean, _, _) in options.items()}
    concede: dict[str, float] = {k: means.pop(k) for k in ("play on", "throw in")
                                 if k in means}
    out: list[tuple[str, dict[str, float]]] = []
    if concede:
        out.append(("throw in", concede))
    if means:
        out.append(("", means))
    return out


def _value_chosen(player: ExpertPlayer, view: View, action: Action,
                  run: dict[str, dict[str, float]]) -> None:
    """Add the chosen action's value to ``run`` when ``expert`` did not list it (a jump
    bid, cards outside its candidates), on the same sampled deals as the others."""
    if not isinstance(action, Bid | Give | Return | Discard):
        return
    group = "auction" if isinstance(action, Bid) else ""
    options = run.get(group)
    if options is None or _name_of(action, list(options)) in options:
        return
    estimate = player.value(view, action)
    if estimate is not None:
        options[_name_of(action, list(options))] = estimate[0]


def _value(game: AnyGame, position: _Position, seat: int, time: float, repeats: int,
           seed: int | str, scale: int) -> list[DecisionReview]:
    view = game.view(seat)
    auction = view.phase is Phase.AUCTION
    runs: list[dict[str, dict[str, float]]] = []
    reason = ""
    for repeat in range(repeats):
        player = ExpertPlayer(seed=f"{seed}:{position.ply}:{repeat}", time=time)
        decision = player.advise(view)
        reason = reason or decision.reason
        run = dict(_split(position.action, decision.options, auction))
        _value_chosen(player, view, position.action, run)
        runs.append(run)
    groups = list(runs[0])
    out: list[DecisionReview] = []
    phase = view.phase.value
    trick = len(view.tricks) + 1 if isinstance(position.action, Play) else 0
    for group in groups:
        names = [n for n in runs[0][group] if all(n in run.get(group, {}) for run in runs)]
        if len(names) < 2:
            continue
        if group == "throw in":
            chosen = "throw in" if str(position.action) == "throw in" else "play on"
        else:
            chosen = _name_of(position.action, names)
        values = {n: statistics.fmean(run[group][n] for run in runs) for n in names}
        noise = {n: _se([run[group][n] for run in runs]) for n in names}
        best = max(names, key=lambda n: values[n])
        if chosen in values and values[chosen] >= values[best] - 1e-9:
            best = chosen  # a tie with the best is no loss
        options = [OptionValue(n, values[n], noise[n]) for n in names]
        if chosen not in values:
            options.append(OptionValue(chosen, None, None))
            loss = spread = 0.0
        else:
            loss = values[best] - values[chosen]
            spread = _se([run[group][best] - run[group][chosen] for run in runs])
        out.append(DecisionReview(position.ply, group or phase, trick, chosen, best,
                                  tuple(options), loss, spread,
                                  _mark(loss, spread, scale), reason))
    return out


def _se(values: Sequence[float]) -> float:
    if len(values) < 2:
        return math.nan
    return statistics.stdev(values) / math.sqrt(len(values))


def _mark(loss: float, noise: float, scale: int) -> str:
    """``??``, ``?`` or nothing: the loss must exceed twice its noise and the threshold."""
    if math.isnan(noise) or loss <= 2 * noise:
        return ""
    if loss >= BLUNDER / scale:
        return "??"
    if loss >= DOUBTFUL / scale:
        return "?"
    return ""


# -- double dummy ---------------------------------------------------------------------


def _double_dummy(positions: Sequence[_Position], after: AnyGame, seat: int, tricks: int,
                  budget: int) -> list[DoubleDummy]:
    """At each trick start among the last ``tricks`` tricks, the perfect-play trick points
    from there of the declaring side (four- and three-handed) or of ``seat``
    (two-handed, its last twelve tricks only), and what that side took."""
    if tricks <= 0 or not positions:
        return []
    return for_game(_KINDS, after).double_dummy(positions, after, seat, tricks, budget)


def _double_dummy_auction(positions: Sequence[_Position], after: AnyGame, seat: int,
                          tricks: int, budget: int) -> list[DoubleDummy]:
    """:func:`_double_dummy` of the four- and three-handed game, by the exact solver."""
    last = positions[-1].game
    if not isinstance(last, Game) or last.declarer is None or last.trump is None:
        return []
    rules: Rules = last.rules
    declarer = last.declarer
    three = rules.players == 3
    # three-handed the declarer plays alone: the solver's side is the seat (its docstring)
    team = declarer if three else rules.team_of(declarer)
    final = after.results[-1] if after.results else None
    if final is None or final.declarer != declarer:
        return []
    taken = final.trick_points[team]
    # docs/rules.md §3: the cards set aside count for the declarer, outside the play
    aside = taken - sum(t.points for t in final.tricks
                        if (t.winner if three else rules.team_of(t.winner)) == team) \
        if three else 0
    out: list[DoubleDummy] = []
    for position in reversed(positions):
        game = position.game
        assert isinstance(game, Game)
        view = game.public_view()
        if view.phase is not Phase.PLAY or view.trick or view.moon:
            continue
        left = len(game.hand(declarer))
        if left > tricks or left == 0:
            continue
        hands = tuple(game.hand(s) for s in range(rules.players))
        assert game.trump is not None and game.to_act is not None
        end = Endgame(trump=int(game.trump), hands=hands, to_act=game.to_act,
                      first_trick=not view.tricks, declarer=declarer if three else -1)
        perfect, searched = solve_within(rules, end, team, max(1, budget))
        budget -= searched
        if perfect is None:
            break
        out.append(DoubleDummy(len(view.tricks) + 1, perfect + aside,
                               taken - view.trick_points[team], declarer))
    return out[::-1]


def _double_dummy_two(positions: Sequence[_Position], after: AnyGame, seat: int,
                      tricks: int, budget: int) -> list[DoubleDummy]:
    """Two-handed (docs/rules.md §4): at each trick start of the last twelve tricks
    (the stock drawn, every card known to both) the trick points ``seat`` takes from
    there with perfect play by both, by the exact solver of
    :mod:`pinochlekit.players.two.solver`; the tricks while the stock lasts have no
    exact value (the draws and melds between them are beyond that solver)."""
    assert isinstance(after, TwoHandedGame)
    final = after.results[-1] if after.results else None
    if final is None:
        return []
    taken = final.trick_points[seat]
    solver: LateSolver | None = None
    out: list[DoubleDummy] = []
    for position in positions:
        game = position.game
        assert isinstance(game, TwoHandedGame)
        if game.stage is not TwoStage.LATE or game.trick or game.to_act is None:
            continue
        hands = (game.hand(0), game.hand(1))
        left = len(hands[seat])
        if left > tricks or left == 0:
            continue
        if solver is None:
            solver = LateSolver(game.rules, int(game.trump))
        leader = game.to_act
        lead = solver.value(hands[leader], hands[1 - leader])  # leader's minus the other's
        rest = sum(solver.points[int(card)] for hand in hands for card in hand) \
            + solver.bonus
        mine = (rest + (lead if leader == seat else -lead)) // 2
        out.append(DoubleDummy(len(game.tricks) + 1, mine, taken - game.trick_points[seat],
                               seat))
    return out


def _double_dummy_double(positions: Sequence[_Position], after: AnyGame, seat: int,
                         tricks: int, budget: int) -> list[DoubleDummy]:
    """The double deck (docs/rules.md §6): at each trick start of the last
    :data:`DOUBLE_DECK_TRICKS` tricks (or ``tricks``, if fewer) the trick points the
    declaring side takes from there with perfect play by both sides, by
    :func:`~pinochlekit.players.double.solver.solve_values`."""
    final = after.results[-1] if after.results else None
    last = positions[-1].game
    assert isinstance(last, DoubleDeckGame)
    declarer = last.declarer
    if final is None or declarer is None or last.trump is None or final.declarer != declarer:
        return []
    team = declarer % 2
    taken = final.trick_points[team]
    flags = play_flags(last.rules)
    out: list[DoubleDummy] = []
    for position in positions:
        game = position.game
        assert isinstance(game, DoubleDeckGame)
        if game.phase is not Phase.PLAY or game.trick or game.to_act is None \
                or game.trump is None:
            continue
        left = len(game.hand(declarer))
        if left > min(tricks, DOUBLE_DECK_TRICKS) or left == 0:
            continue
        hands = [[game.hand(s).count(k) for k in range(24)] for s in range(4)]
        leader = game.to_act
        values = solve_values(hands, [], int(game.trump), leader, flags)
        best = max(ours for ours, _ in values.values())
        total = next(iter(values.values()))
        perfect = best if leader % 2 == team else sum(total) - best
        out.append(DoubleDummy(len(game.tricks) + 1, perfect,
                               taken - game.trick_points[team], declarer))
    return out


@dataclass(frozen=True)
class _Kind:
    """What the review does differently for one game."""

    #: The double-dummy line of the hand.
    double_dummy: Callable[[Sequence[_Position], AnyGame, int, int, int], list[DoubleDummy]]
    #: The scale of the marks (:func:`_mark`) under the game's rules.
    scale: Callable[[Rules], int]
    #: Why a line starts after the first lead, given the positions' budget.
    beyond: Callable[[int], str]
    #: Who the line speaks for, given the rules and the reviewed seat.
    side: Callable[[Rules, int], str] = lambda rules, seat: (
        "the declaring side" if rules.partnership else "the declarer")
    #: The hand's head when nobody declared.
    undeclared: str = "nobody declared"
    #: Why the line is missing or starts late (:func:`_note`'s arguments).
    note: Callable[[Sequence[DoubleDummy], int, str], str] = lambda line, first, beyond: (
        _auction_note(line, first, beyond))


#: Each game's review, by the game's class (:func:`~pinochlekit.engine.games.for_game`).
_KINDS: dict[type, _Kind] = {
    Game: _Kind(_double_dummy_auction, lambda rules: rules.unit,
                lambda budget: f"needs more than {budget:,} positions"),
    TwoHandedGame: _Kind(_double_dummy_two, lambda rules: 1, lambda budget: "",
                         side=lambda rules, seat: f"seat {seat}", undeclared="two-handed",
                         note=lambda line, first, beyond: _two_note(line)),
    DoubleDeckGame: _Kind(_double_dummy_double, lambda rules: DOUBLE_DECK_SCALE,
                          lambda budget: f"is beyond the double deck's solver, which "
                                         f"covers the last {DOUBLE_DECK_TRICKS} tricks"),
}


# -- the review -----------------------------------------------------------------------


def review_hand(record: GameRecord, hand: int, seat: int, *, time: float = 1.0,
                repeats: int = 3, seed: int | str = 0, double_dummy: int = 15,
                double_dummy_positions: int = DOUBLE_DUMMY_POSITIONS,
                progress: Callable[[int, int], None] | None = None) -> HandReview:
    """Review hand ``hand`` (1-based, as ``pinochle replay --hand``) of ``record`` from
    ``seat``: every decision of that seat with a choice, valued by ``expert(time=...)``
    ``repeats`` times (at least 2, so that each value has a noise), and the double-dummy
    values of the last ``double_dummy`` tricks (as far back as ``double_dummy_positions``
    positions of exact search reach; two-handed the last twelve at most). ``time``
    defaults to ``expert``'s own budget, as ``pinochle review`` and the tables use.
    ``progress(done, total)`` is called after each decision. :class:`ReviewError` if
    the hand is not in the record, is not finished, or the seat does not exist."""
    if repeats < 2:
        raise ReviewError(f"repeats: at least 2 (the noise needs two samples), not {repeats}")
    if not 0 < time <= 60:
        raise ReviewError(f"time: seconds per valuation above 0 and at most 60, not {time}")
    if hand < 1:
        raise ReviewError(f"hand {hand}: hands are numbered from 1")
    if double_dummy_positions < 1:
        raise ReviewError(f"double dummy positions: a positive number, not "
                          f"{double_dummy_positions}")
    if not 0 <= double_dummy <= 15:
        raise ReviewError(f"double dummy: 0 to 15 tricks from the end, not {double_dummy}")
    try:
        Rules.from_string(record.rules)
    except PinochleError as error:
        raise ReviewError(f"the record's rules: {error}") from None
    positions, after = _positions(record, hand)
    rules = after.rules
    if not 0 <= seat < rules.players:
        raise ReviewError(f"seat {seat}: the seats are 0 to {rules.players - 1}")
    kind = for_game(_KINDS, after)
    scale = kind.scale(rules)
    mine = [p for p in positions if p.game.to_act == seat
            and len(p.game.legal_actions()) > 1]
    decisions: list[DecisionReview] = []
    for done, position in enumerate(mine, 1):
        decisions.extend(_value(position.game, position, seat, time, repeats, seed, scale))
        if progress is not None:
            progress(done, len(mine))
    auction = next((f"{d.best} (the seat chose {d.chosen})" for d in decisions
                    if d.phase == "auction"), None)
    lost: dict[str, float] = {}
    for d in decisions:
        key = "auction" if d.phase == "auction" else "play" if d.trick or \
            d.phase == "throw in" else "passing" if d.phase in ("give", "return", "discard") \
            else d.phase
        lost[key] = lost.get(key, 0.0) + max(0.0, d.loss)
    result = after.results[hand - 1]  # the hand reviewed is finished (_positions)
    declarer, contract = result.declarer, result.contract
    line = tuple(_double_dummy(positions, after, seat, double_dummy,
                               double_dummy_positions))
    return HandReview(rules=str(rules), hand=hand, seat=seat, declarer=declarer,
                      contract=contract, decisions=tuple(decisions), double_dummy=line,
                      auction=auction, time=time, repeats=repeats, seed=seed, scale=scale,
                      lost=lost, players=rules.players, side=kind.side(rules, seat),
                      undeclared=kind.undeclared,
                      double_dummy_note=_note(line, positions, rules.players, double_dummy,
                                              kind, kind.beyond(double_dummy_positions)))


def _note(line: Sequence[DoubleDummy], positions: Sequence[_Position], players: int,
          tricks: int, kind: _Kind, beyond: str) -> str:
    """Why the double-dummy line is missing, or does not start at the first lead."""
    if tricks == 0:
        return ""
    played = sum(1 for p in positions if isinstance(p.action, Play)) // players
    return kind.note(line, played - tricks + 1 if played > tricks else 1, beyond)


def _auction_note(line: Sequence[DoubleDummy], first: int, beyond: str) -> str:
    """:func:`_note` of the games with an auction: no line without a hand played
    against a declarer; a line that starts after trick ``first`` says why."""
    if not line:
        return "none: no trick was played against a declarer (thrown in, or nobody bid)"
    if line[0].trick > first:
        return (f"the exact search from trick {first} to {line[0].trick - 1} {beyond}: "
                f"the line starts at trick {line[0].trick}")
    return ""


def _two_note(line: Sequence[DoubleDummy]) -> str:
    """:func:`_note` of the two-handed game (docs/rules.md §4): exact from trick 13."""
    if not line:
        return "the hand ended before the last twelve tricks"
    return ("tricks 1 to 12 (the stock still drawn) have no exact value; from trick 13 "
            "every card is known and the line is exact")
