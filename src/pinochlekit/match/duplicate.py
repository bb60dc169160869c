"""Duplicate matches between two players, A and B: who scores more per hand.

Luck of the deal dominates single hands of pinochle, so a match plays every
deal twice with the partnerships swapped: A at seats 0 and 2 against B at 1
and 3, then B at 0 and 2 against A at 1 and 3, with the same deal seed and the
same dealer. Both orientations get the same cards; the difference between A
and B over the *deal pair* is skill (and the players' own randomness), not
cards. A deal pair's value is A's net score per hand,

    ((A − B in orientation 1) + (A − B in orientation 2)) / 2,

where A − B is A's team's hand score minus B's. A hand is played from the
deal to the end of that hand only (not a whole game), so the two
orientations compare cleanly; a passed-out or nines-redeal deal counts as a
hand where nobody scores. The dealer rotates across deal pairs (seat
``index % 4``).

Three-handed (docs/rules.md §3, every player for themself) a "pair" is six hands
of the same deal: A alone against two B's in each of the three seats, then B
alone against two A's in each seat, so each side sits in every seat equally
often. A hand's net is A's score per seat it holds minus B's per seat, and the
deal's value the mean over the six hands. With ``games`` > 0 the match also plays whole games in
duplicate pairs (the same game seed in both orientations, played to the
target) and counts game wins.

Every player is created afresh for each hand (a whole game: for the game) with a
seed derived from (match seed, deal index, seat) by the one seeding policy of
:func:`pinochlekit.players.seat.seat_seed`, so seat *s* of deal pair *i* draws the same random
numbers in both orientations, and results do not depend on the number of
worker processes: a deal pair is a pure function of the match settings and
its index. A player that fails (an illegal action, or an external program
that misbehaves: :mod:`pinochlekit.players.external`) stops the match with a
:class:`MatchError` naming the deal, the seat and the player; a forfeit would
bias the comparison, and the failed action is never applied.

>>> from pinochlekit.match import run_match
>>> result = run_match("simple", "simple", deals=4, seed=1, workers=1)
>>> result.hands.mean, result.hands.n   # a player against itself: exactly even
(0.0, 4)
>>> [pair.dealer for pair in result.deals]
[0, 1, 2, 3]
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from pinochlekit.engine.errors import IllegalActionError, PinochleError
from pinochlekit.engine.games import AnyGame, new_any_game
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.views import HandResult, Outcome
from pinochlekit.match.stats import Interval, interval, t_quantile
from pinochlekit.players import make_player
from pinochlekit.players.base import Player
from pinochlekit.players.external import ExternalPlayer, is_command
from pinochlekit.players.seat import Seat, seat_seed

__all__ = [
    "FORMAT",
    "DealPair",
    "GamePair",
    "HandOutcome",
    "Interval",
    "MatchConfig",
    "MatchError",
    "MatchResult",
    "ProgressBar",
    "Work",
    "create_player",
    "interval",
    "play_deal_pair",
    "play_game_pair",
    "t_quantile",
]

#: The ``format`` field of :meth:`MatchResult.to_dict`.
FORMAT = "pinochlekit-match/1"

#: The two sides of a match.
SIDES = ("A", "B")

class MatchError(PinochleError):
    """A match could not go on: the message names the deal, seat and player."""


# -- players ------------------------------------------------------------------


def create_player(spec: str, seed: int | str, *, timeout: float = 10.0) -> Player:
    """The player a spec names (:func:`~pinochlekit.players.make_player`), with
    ``timeout`` seconds per answer for an external program (``cmd:PROGRAM ARGS``).

    >>> create_player("cmd:python examples/random_bot.py", seed=3, timeout=2.5)
    ExternalPlayer('python examples/random_bot.py', seed=3, timeout=2.5)
    """
    if is_command(spec):
        return ExternalPlayer(spec, seed, timeout)
    return make_player(spec, seed)


def _seed(config: MatchConfig, kind: str, index: int) -> str:
    """The seed of a deal or game; its seats' players are seeded from it by
    :func:`~pinochlekit.players.seat.seat_seed` (docs/players.md "Seeds")."""
    return f"pinochle match/{config.seed}/{kind}/{index}"


# -- one deal pair, one game pair --------------------------------------------


@dataclass(frozen=True)
class MatchConfig:
    """What every deal pair of a match needs: the players, rules and seed."""

    a: str
    b: str
    rules: str = "pagat"
    seed: int | str = 0
    timeout: float = 10.0
    max_hands: int = 1000  # a whole game that reaches no winner stops here


@dataclass(frozen=True)
class HandOutcome:
    """One hand of a deal pair, from the match's point of view."""

    outcome: Outcome
    declarer_side: str | None  # "A", "B", or None when nobody declared
    contract: int
    a_score: int  # A's team's score for the hand (three-handed: A's seats' scores summed)
    b_score: int
    a_seats: int = 1  # three-handed: how many seats A holds in this hand (1 or 2)
    b_seats: int = 1

    @property
    def net(self) -> float:
        """A's hand score minus B's (three-handed: per seat held)."""
        return self.a_score / self.a_seats - self.b_score / self.b_seats


@dataclass(frozen=True)
class DealPair:
    """One deal played twice: ``hands[0]`` with A at seats 0 and 2, ``hands[1]``
    with A at seats 1 and 3; same deal seed, same dealer. Three-handed, six
    times, one per seating of :func:`seatings`."""

    index: int
    seed: str
    dealer: int
    hands: tuple[HandOutcome, ...]

    @property
    def value(self) -> float:
        """A's points per hand minus B's over the pair."""
        return sum(hand.net for hand in self.hands) / len(self.hands)


@dataclass(frozen=True)
class GamePair:
    """One game seed played to the target in both orientations (as :class:`DealPair`)."""

    index: int
    seed: str
    dealer: int
    winners: tuple[str | None, ...]  # "A", "B", or None if unfinished (one per seating)
    hands: tuple[int, ...]  # hands played in each game
    scores: tuple[tuple[int, int], ...]  # (A, B) final scores of each game (summed by seat)


@dataclass
class Work:
    """Decisions taken and seconds spent choosing, per side (not deterministic)."""

    decisions: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SIDES, 0))
    seconds: dict[str, float] = field(default_factory=lambda: dict.fromkeys(SIDES, 0.0))

    def add(self, other: Work) -> None:
        """Add another count to this one."""
        for side in SIDES:
            self.decisions[side] += other.decisions[side]
            self.seconds[side] += other.seconds[side]


def seatings(rules: Rules) -> list[tuple[str, ...]]:
    """The side at each seat in each hand of a pair: A at the seats of each team in
    turn, then B at them where that is not the same (three-handed, each seat its own
    team: A alone in each seat, then B alone in each seat); with partnerships or two
    players, the teams swapped.

    >>> seatings(Rules.preset("pagat"))
    [('A', 'B', 'A', 'B'), ('B', 'A', 'B', 'A')]
    >>> seatings(Rules.preset("three"))[:4]
    [('A', 'B', 'B'), ('B', 'A', 'B'), ('B', 'B', 'A'), ('B', 'A', 'A')]
    """
    seats = range(rules.players)
    alone = [tuple("A" if rules.team_of(s) == team else "B" for s in seats)
             for team in range(rules.teams)]
    swapped = [tuple("B" if side == "A" else "A" for side in sides) for sides in alone]
    return list(dict.fromkeys(alone + swapped))


def _orientation_name(sides: Sequence[str]) -> str:
    seats = [str(s) for s, side in enumerate(sides) if side == "A"]
    return f"A at seat{'s' if len(seats) > 1 else ''} {' and '.join(seats)}"


def _play(config: MatchConfig, rules: Rules, kind: str, index: int, orientation: int,
          whole_game: bool, work: Work) -> AnyGame:
    """Play one hand (or one whole game) of a pair in one orientation.

    A sits at the seats whose team is ``orientation``; each seat is a
    :class:`~pinochlekit.players.seat.Seat` made afresh for the hand (or game),
    seeded from the game's seed (match seed, kind, index) and its seat, and its
    player sees only its view.
    """
    sides = seatings(rules)[orientation]
    specs = {"A": config.a, "B": config.b}
    # new_any_game: the double deck too (docs/rules.md §6)
    game = new_any_game(rules, seed=_seed(config, kind, index), dealer=index % rules.players)
    seats: list[Seat] = []
    try:
        for place in range(rules.players):
            spec = specs[sides[place]]
            seats.append(Seat(create_player(spec, seat_seed(game.seed, place),
                                            timeout=config.timeout), place, spec))
        while game.winner is None and (len(game.results) < config.max_hands if whole_game
                                       else not game.results):
            seat = game.to_act
            assert seat is not None
            side = sides[seat]
            where = (f"{kind} {index} ({_orientation_name(sides)}), seat {seat} "
                     f"({side}: {specs[side]})")
            view = game.view(seat)
            started = time.perf_counter()
            try:
                action = seats[seat].choose(view)
            except (PinochleError, ValueError) as error:
                raise MatchError(f"{where}: {error}") from None
            work.seconds[side] += time.perf_counter() - started
            work.decisions[side] += 1
            try:
                game.apply(action, seat)
            except IllegalActionError as error:
                raise MatchError(f"{where} chose an illegal action {action}: {error}") from None
            for each in seats:
                each.observe(game.results)
    finally:
        for each in seats:
            each.close()
    return game


def _check_rules(rules: str | Rules) -> Rules:
    """The rules of a match: the four-handed partnership game, the three-handed game
    (each side alone in every seat) or the two-handed game (A at seat 0 then at seat
    1, docs/rules.md §4)."""
    if isinstance(rules, str):
        rules = Rules.from_string(rules)
    if rules.players not in (4, 3, 2):
        raise MatchError(f"a duplicate match needs the four-, three- or two-handed game, not "
                         f"rules {str(rules)!r} ({rules.players} players)")
    return rules


def _hand_outcome(result: HandResult, sides: Sequence[str], rules: Rules) -> HandOutcome:
    declarer = None if result.declarer is None else sides[result.declarer]
    teams = {side: sorted({rules.team_of(s) for s in range(rules.players) if sides[s] == side})
             for side in SIDES}
    return HandOutcome(result.outcome, declarer, result.contract,
                       sum(result.scores[t] for t in teams["A"]),
                       sum(result.scores[t] for t in teams["B"]),
                       len(teams["A"]), len(teams["B"]))


def play_deal_pair(config: MatchConfig, index: int, work: Work | None = None) -> DealPair:
    """Play deal pair ``index``: one hand in each orientation (spawn-safe)."""
    rules = _check_rules(config.rules)
    work = work if work is not None else Work()
    hands = tuple(_hand_outcome(_play(config, rules, "deal", index, o, False, work).results[0],
                                sides, rules) for o, sides in enumerate(seatings(rules)))
    return DealPair(index, _seed(config, "deal", index), index % rules.players, hands)


def play_game_pair(config: MatchConfig, index: int, work: Work | None = None) -> GamePair:
    """Play game pair ``index``: a whole game in each orientation (spawn-safe)."""
    rules = _check_rules(config.rules)
    work = work if work is not None else Work()
    winners: list[str | None] = []
    hands: list[int] = []
    scores: list[tuple[int, int]] = []
    for orientation, sides in enumerate(seatings(rules)):
        game = _play(config, rules, "game", index, orientation, True, work)
        # The winner is a team: seat t belongs to team t (and three-handed is a seat).
        winners.append(None if game.winner is None else sides[game.winner])
        hands.append(len(game.results))
        teams = {side: {rules.team_of(s) for s in range(rules.players) if sides[s] == side}
                 for side in SIDES}
        scores.append((sum(game.scores[t] for t in teams["A"]),
                       sum(game.scores[t] for t in teams["B"])))
    return GamePair(index, _seed(config, "game", index), index % rules.players,
                    tuple(winners), tuple(hands), tuple(scores))


def _run_chunk(config: MatchConfig, kind: str, start: int,
               stop: int) -> tuple[list[DealPair] | list[GamePair], Work]:
    """Play pairs ``start`` to ``stop - 1`` of one kind: the unit of work of a worker."""
    work = Work()
    if kind == "deal":
        return [play_deal_pair(config, i, work) for i in range(start, stop)], work
    return [play_game_pair(config, i, work) for i in range(start, stop)], work


# -- the match ----------------------------------------------------------------


@dataclass(frozen=True)
class MatchResult:
    """Every deal pair and game pair of a match, with timing.

    Everything but :attr:`workers`, :attr:`seconds` and :attr:`work` depends
    only on the :class:`MatchConfig` and the numbers of pairs.
    """

    config: MatchConfig
    deals: tuple[DealPair, ...]
    games: tuple[GamePair, ...]
    workers: int
    seconds: float
    work: Work

    @property
    def hands(self) -> Interval:
        """A's points per hand minus B's, over the deal pairs."""
        return interval([pair.value for pair in self.deals])

    def side_stats(self, side: str) -> dict[str, int]:
        """Counts for one side over every hand of the deal pairs: hands declared,
        made, set, thrown in (and not on the board), moons, and points scored."""
        stats = dict.fromkeys(("declared", "made", "set", "thrown_in", "not_on_board",
                               "moon_made", "moon_failed", "points"), 0)
        keys = {Outcome.MADE: "made", Outcome.SET: "set", Outcome.THROWN_IN: "thrown_in",
                Outcome.NOT_ON_BOARD: "not_on_board", Outcome.MOON: "moon_made",
                Outcome.MOON_FAILED: "moon_failed"}
        for hand in self._all_hands():
            stats["points"] += hand.a_score if side == "A" else hand.b_score
            if hand.declarer_side == side and hand.outcome in keys:
                stats["declared"] += 1
                stats[keys[hand.outcome]] += 1
        return stats

    def _all_hands(self) -> Iterator[HandOutcome]:
        for pair in self.deals:
            yield from pair.hands

    @property
    def no_play(self) -> dict[str, int]:
        """Hands without a declarer: passed out, or a nines redeal."""
        hands = list(self._all_hands())
        return {"passed_out": sum(h.outcome is Outcome.PASSED_OUT for h in hands),
                "redeals": sum(h.outcome is Outcome.REDEAL for h in hands)}

    def game_stats(self) -> dict[str, int]:
        """Whole games: wins per side, unfinished games, and pairs one side swept."""
        winners = [w for pair in self.games for w in pair.winners]
        return {"pairs": len(self.games), "games": len(winners),
                "A": winners.count("A"), "B": winners.count("B"),
                "unfinished": winners.count(None),
                "A_swept": sum(all(w == "A" for w in p.winners) for p in self.games),
                "B_swept": sum(all(w == "B" for w in p.winners) for p in self.games)}

    @property
    def decisions(self) -> int:
        """Every decision taken by both sides."""
        return sum(self.work.decisions.values())

    def to_dict(self, *, timing: bool = True) -> dict[str, Any]:
        """A JSON-ready dict (format :data:`FORMAT`); ``timing=False`` leaves out
        the parts that vary from run to run (workers and times)."""
        hands = self.hands

        def num(x: float) -> float | None:
            return None if math.isnan(x) else round(x, 6)

        def hand_dict(h: HandOutcome) -> dict[str, Any]:
            return {"outcome": h.outcome.value, "declarer": h.declarer_side,
                    "contract": h.contract, "A": h.a_score, "B": h.b_score}

        out: dict[str, Any] = {
            "format": FORMAT,
            "players": {"A": self.config.a, "B": self.config.b},
            "rules": self.config.rules, "seed": self.config.seed,
            "deal_pairs": len(self.deals), "game_pairs": len(self.games),
            "points_per_hand": {
                "n": hands.n, "mean": num(hands.mean), "sd": num(hands.sd),
                "ci95": [num(hands.low), num(hands.high)],
                "ci95_t": [num(hands.low_t), num(hands.high_t)]},
            "sides": {side: self.side_stats(side) for side in SIDES},
            **self.no_play,
            "games": self.game_stats() if self.games else None,
            "deals": [{"index": p.index, "seed": p.seed, "dealer": p.dealer,
                       "value": p.value, "hands": [hand_dict(h) for h in p.hands]}
                      for p in self.deals],
            "game_list": [{"index": p.index, "seed": p.seed, "dealer": p.dealer,
                           "winners": list(p.winners), "hands": list(p.hands),
                           "scores": [{"A": a, "B": b} for a, b in p.scores]}
                          for p in self.games],
        }
        if timing:
            out["timing"] = {
                "workers": self.workers, "seconds": round(self.seconds, 3),
                "decisions": self.decisions,
                "decisions_per_second": round(self.decisions / self.seconds, 1)
                if self.seconds > 0 else None,
                **{side: {"decisions": self.work.decisions[side],
                          "seconds": round(self.work.seconds[side], 3)} for side in SIDES}}
        return out

    def report(self) -> list[str]:
        """The match as lines of text for a person."""
        c = self.config
        lines = [f"match: A = {c.a}, B = {c.b}; rules {c.rules}, seed {c.seed}"]
        if self.deals:
            hands = self.hands
            played = sum(len(pair.hands) for pair in self.deals)
            if Rules.from_string(c.rules).players != 3:
                lines.append(f"deal pairs: {len(self.deals)} (each deal played twice, "
                             f"partnerships swapped: {played} hands)")
            else:
                lines.append(f"deal sets: {len(self.deals)} (each deal played six times, "
                             f"A and B alone in every seat: {played} hands; points per seat)")
            if hands.n > 1:
                lines.append(f"points per hand, A minus B: {hands.mean:+.1f} "
                             f"± {hands.half_z:.1f} (95% CI {hands.low:+.1f} to "
                             f"{hands.high:+.1f}; t: {hands.low_t:+.1f} to {hands.high_t:+.1f}); "
                             f"sd {hands.sd:.1f}")
            else:
                lines.append(f"points per hand, A minus B: {hands.mean:+.1f} (one deal "
                             f"pair: no confidence interval)")
            stats = {side: self.side_stats(side) for side in SIDES}
            rows = [("hands declared", "declared"), ("  made", "made"), ("  set", "set"),
                    ("  thrown in", "thrown_in"), ("  not on the board", "not_on_board"),
                    ("  moon made", "moon_made"), ("  moon failed", "moon_failed"),
                    ("points scored", "points")]
            lines.append(f"{'':<20}{'A':>10}{'B':>10}")
            for label, key in rows:
                if key.startswith("moon") and not stats["A"][key] + stats["B"][key]:
                    continue
                if key != "points" and not stats["A"]["declared"] + stats["B"]["declared"]:
                    continue  # no contracts at all (the two-handed game)
                lines.append(f"{label:<20}{stats['A'][key]:>10}{stats['B'][key]:>10}")
            no_play = self.no_play
            if any(no_play.values()):
                lines.append(f"hands without a declarer: {no_play['passed_out']} passed "
                             f"out, {no_play['redeals']} nines redeals")
        if self.games:
            g = self.game_stats()
            unfinished = f", {g['unfinished']} unfinished" if g["unfinished"] else ""
            lines.append(f"games: {g['games']} in {g['pairs']} duplicate pairs: A won "
                         f"{g['A']}, B won {g['B']}{unfinished}; pairs swept: A {g['A_swept']}, "
                         f"B {g['B_swept']}")
        rate = self.decisions / self.seconds if self.seconds > 0 else math.inf
        per_side = ", ".join(
            f"{side} {self.work.decisions[side] / self.work.seconds[side]:,.0f}/s"
            for side in SIDES if self.work.seconds[side] > 0)
        lines.append(f"decisions: {self.decisions:,} in {self.seconds:.1f} s with "
                     f"{self.workers} worker{'s' if self.workers != 1 else ''}: "
                     f"{rate:,.0f}/s (thinking alone: {per_side})")
        return lines


class ProgressBar:
    """A one-line text progress bar on a terminal stream, redrawn in place.

    It draws nothing when the stream is not a terminal (or ``enabled`` is
    false), so logs and pipes stay clean.
    """

    def __init__(self, stream: TextIO | None = None, *, label: str = "pairs",
                 enabled: bool = True, width: int = 30) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled and self.stream.isatty()
        self.label = label
        self.width = width
        self.started = time.perf_counter()
        self._drawn = False

    def __call__(self, done: int, total: int) -> None:
        """Redraw for ``done`` of ``total``."""
        if not self.enabled:
            return
        filled = self.width * done // total if total else self.width
        elapsed = time.perf_counter() - self.started
        eta = f", {elapsed * (total - done) / done:.0f} s left" if 0 < done < total else ""
        self.stream.write(f"\r[{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} "
                          f"{self.label} {elapsed:.0f} s{eta}\033[K")
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        """Clear the bar's line."""
        if self._drawn:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self._drawn = False
