"""When a computer's move is sent: a pace that does not show what the seat held.

A spectator sees when each move arrives. A forced move (a single legal action)
is decided at once and a chosen one takes the level's thinking time, so if moves
were sent as soon as decided, their timing would tell who had no choice, and
how hard a choice was (docs/web.md "Security and limits").

Every move is therefore sent at a *target* time after its seat took up the turn:
the table's pace, raised to a high quantile of that seat's own recent decision
times in the same phase (the chosen ones; forced ones are instant and say
nothing; an auction call thinks longer than a card, so each phase has its own). A forced move
waits for the same target as a chosen one, and nearly every chosen move is done
within it, so nearly every move of a seat arrives after the same delay; only a
decision slower than every recent one still arrives later.

>>> timing = MoveTiming()
>>> for seconds in (0.9, 1.1, 1.0, 1.2):
...     timing.record(2, "play", seconds)
>>> timing.target(2, "play", pace=0.8)  # the slowest recent card of seat 2
1.2
>>> timing.target(2, "auction", pace=0.8)  # no call timed yet: the pace
0.8
>>> timing.forced(2, "auction", pace=0.8)
0.8
"""

from __future__ import annotations

import random
from collections import deque

__all__ = ["KEPT", "QUANTILE", "MoveTiming"]

#: The recent chosen decisions kept per seat.
KEPT = 40
#: The share of a seat's recent decisions the target waits for.
QUANTILE = 0.95


class MoveTiming:
    """The recent decision times of a table's computer seats, and the delay after
    which each next move of a seat is sent."""

    def __init__(self, rng: random.Random | None = None) -> None:
        # the delays' own random numbers: they decide no move, only when one is sent
        self._rng = rng or random.Random()
        self._times: dict[tuple[int, str], deque[float]] = {}

    def record(self, seat: int, phase: str, seconds: float) -> None:
        """A chosen decision of ``seat`` in ``phase`` took ``seconds`` (not a forced
        one)."""
        kept = self._times.setdefault((seat, phase), deque(maxlen=KEPT))
        kept.append(max(0.0, seconds))

    def target(self, seat: int, phase: str, pace: float) -> float:
        """Seconds after the turn was taken up at which ``seat``'s move in ``phase``
        is sent: the pace, or the :data:`QUANTILE` of its recent decision times in
        that phase if longer."""
        times = sorted(self._times.get((seat, phase), ()))
        if not times:
            return pace
        quantile = times[min(len(times) - 1, int(QUANTILE * len(times)))]
        return max(pace, quantile)

    def forced(self, seat: int, phase: str, pace: float) -> float:
        """Seconds after the turn was taken up at which a *forced* move of ``seat``
        in ``phase`` is sent: the :meth:`target`, or a recent decision time of the
        seat in that phase, drawn at random with a little jitter, if longer."""
        target = self.target(seat, phase, pace)
        times = self._times.get((seat, phase))
        if not times:
            return target
        drawn = self._rng.choice(times) * self._rng.uniform(0.95, 1.05)
        return max(target, drawn)
