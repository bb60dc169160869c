"""When the web sends a computer's move (docs/web.md "Security and limits"): a forced
move waits as long as a chosen one, so its timing does not show the seat had no
choice."""

from __future__ import annotations

import random

from pinochlekit.web.timing import KEPT, MoveTiming


def test_a_forced_move_waits_as_long_as_nearly_every_chosen_one() -> None:
    rng = random.Random(5)
    timing = MoveTiming()
    chosen = [rng.uniform(0.05, 1.4) for _ in range(200)]  # an expert's thinking times
    delays = []
    for seconds in chosen:
        timing.record(1, "play", seconds)
        delays.append(max(seconds, timing.target(1, "play", pace=0.8)))  # when it is sent
    forced = timing.target(1, "play", pace=0.8)  # decided at once, sent at the target
    late = [d for d in delays[KEPT:] if d > forced + 0.2]
    # nearly every chosen move of the seat arrives no later than the forced one would
    assert len(late) <= 0.1 * len(delays[KEPT:]), late
    assert forced > 0.8  # the slow choices raised the seat's delay above the pace
    assert max(chosen[-KEPT:]) >= forced >= sorted(chosen[-KEPT:])[int(0.9 * KEPT)]


def test_forced_and_chosen_moves_arrive_after_delays_of_the_same_spread() -> None:
    """Thinking longer than the pace: the share of (chosen, forced) pairs in which the
    chosen move arrives later is about a half (the delay tells nothing), where one
    pace after the turn it was nearly every pair."""
    rng = random.Random(9)
    timing = MoveTiming(random.Random(1))
    chosen, forced, old_forced = [], [], []
    for _ in range(400):
        seconds = rng.lognormvariate(-1.0, 0.6)  # median 0.37 s, against a pace of 0.1 s
        timing.record(0, "play", seconds)
        chosen.append(max(seconds, timing.target(0, "play", pace=0.1)))
        forced.append(timing.forced(0, "play", pace=0.1))
        old_forced.append(0.1)

    def later(a: list[float], b: list[float]) -> float:
        return sum((x > y) + 0.5 * (x == y) for x in a for y in b) / (len(a) * len(b))

    assert later(chosen, old_forced) > 0.95  # the old rule: told apart nearly always
    assert 0.4 < later(chosen[KEPT:], forced[KEPT:]) < 0.6


def test_without_slow_choices_the_pace_is_the_delay() -> None:
    timing = MoveTiming()
    assert timing.target(0, "play", pace=0.8) == 0.8
    for _ in range(10):
        timing.record(0, "play", 0.01)
    assert timing.target(0, "play", pace=0.8) == 0.8
    timing.record(3, "auction", 1.5)
    assert timing.target(3, "play", pace=0.0) == 0.0  # each phase its own times
    assert timing.target(2, "auction", pace=0.0) == 0.0  # each seat its own times
    assert timing.target(3, "auction", pace=0.0) == 1.5
    assert timing.forced(3, "play", pace=0.0) == 0.0
