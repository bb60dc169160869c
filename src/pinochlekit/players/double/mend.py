"""Mending a sampled double-deck deal until it agrees with the meld shown.

Every seat shows its whole meld (docs/rules.md §6 meld), so a seat's hand at the
meld (what it holds now plus what it has played since) scores exactly the meld it
showed, never more. The exact sampler (:mod:`pinochlekit.players.double.sampler`)
cannot hold that fact, so :func:`mend` swaps cards between two other seats until the
deal agrees *(ours: a local search, so the mended deals are not exactly uniform)*:

1. the seats whose hands at the meld score more than they showed are the bad ones;
   if none is left, the deal agrees;
2. a bad seat ``s`` is drawn, then one of the two other seats ``t``;
3. a kind ``a`` that ``s`` holds beyond what it is known to hold and ``t`` may hold,
   and a kind ``b`` the other way round, are drawn, and one copy of each changes
   hands (no swap if either list is empty or ``a == b``);
4. the swap is undone if it raises the two seats' excess meld together;

for at most ``steps`` swaps. Every draw is ``below(n)`` of :class:`SplitMix`, a
splitmix64 stream from one 64-bit seed, so that the C twin in
``pinochlekit.native._doublecore`` (used when it is built and
``PINOCHLEKIT_PURE_PYTHON`` is not set) makes the same swaps as
:func:`python_mend`, the reference; tests/test_doublecore.py checks both give the
same deals.

>>> hands = [[0] * 24 for _ in range(4)]
>>> python_mend(hands, [[0] * 24] * 4, [0] * 4, [[0] * 24] * 4, [0] * 4, 0,
...             (0,) * 32, 0, 10, 1)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

from pinochlekit.engine.double.cards import DOUBLE_KINDS
from pinochlekit.engine.double.meld import table_meld
from pinochlekit.native import load

__all__ = ["MASK64", "MELD_MAX", "MEND_STEPS_MAX", "SplitMix", "best_table_meld", "check",
           "core", "mend", "python_mend"]

#: 64 bits.
MASK64 = (1 << 64) - 1
#: The most swaps one mend may be asked for.
MEND_STEPS_MAX = 1_000_000
#: The bound of a meld value or total (no meld of §6 comes near it).
MELD_MAX = 100_000

#: ``pinochlekit.native._doublecore`` when it is built and allowed, else ``None`` (read
#: at each call, so a test may set it to ``None``).
core: ModuleType | None = load("_doublecore")

class SplitMix:
    """The splitmix64 stream (Steele, Lea and Flood 2014) that :func:`mend` draws from.

    >>> hex(SplitMix(0).next())  # the published first output for seed 0
    '0xe220a8397b1dcdaf'
    >>> mix = SplitMix(7)
    >>> [mix.below(10) for _ in range(5)]
    [7, 4, 6, 3, 4]
    """

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        """The next 64-bit number."""
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A number in ``0..n-1`` (the 64-bit number modulo ``n``)."""
        return self.next() % n


def check(hands: Sequence[Sequence[int]], played: Sequence[Sequence[int]],
          points: Sequence[int], trump: int, values: Sequence[int], seat: int,
          steps: int) -> None:
    """:class:`ValueError` naming what is wrong with a mend's input, as the C core says
    it: four hands and four played of 24 counts from 0 to 4, no kind with more than
    four copies held and played in all, no nine; trump a suit and the seat a seat;
    0 to :data:`MEND_STEPS_MAX` steps; meld shown and values from 0 to
    :data:`MELD_MAX`."""
    for name, table in (("hands", hands), ("played", played)):
        if len(table) != 4 or any(len(h) != 24 for h in table):
            raise ValueError(f"not a double-deck position: the {name} are four sequences "
                             f"of 24 counts")
        for h in table:
            for kind, n in enumerate(h):
                if not 0 <= n <= 4:
                    raise ValueError(f"not a double-deck position: a count {n} is not in 0..4")
                if n and kind % 6 == 0:
                    raise ValueError("not a double-deck position: the double deck has no nines")
    if not (0 <= trump <= 3 and 0 <= seat <= 3 and steps >= 0):
        raise ValueError("not a double-deck position: trump is a suit 0..3, the seat 0..3 "
                         "and the steps at least 0")
    if steps > MEND_STEPS_MAX:
        raise ValueError(f"not a double-deck position: at most {MEND_STEPS_MAX} steps")
    for kind in range(24):
        copies = sum(hands[s][kind] + played[s][kind] for s in range(4))
        if copies > 4:
            raise ValueError(f"not a double-deck position: {copies} copies of kind {kind} "
                             f"held and played, more than 4")
    if len(points) != 4 or not all(0 <= p <= MELD_MAX for p in points):
        raise ValueError(f"not a double-deck position: the meld shown is four ints from 0 "
                         f"to {MELD_MAX}")
    if len(values) != 32 or not all(0 <= v <= MELD_MAX for v in values):
        raise ValueError(f"not a double-deck position: the meld table is 32 ints from 0 "
                         f"to {MELD_MAX}")


def best_table_meld(values: Sequence[int], counts: Sequence[int]) -> int:
    """The best meld of 24 counts over the four trump suits (:func:`table_meld`), in the
    C core when it is there.

    >>> from pinochlekit.engine.double.meld import meld_table
    >>> from pinochlekit.engine.rules import Rules
    >>> hand = [0] * 24
    >>> hand[8] = hand[9] = 2  # two K and two Q of hearts
    >>> best_table_meld(meld_table(Rules.preset("doubledeck")), hand)  # two royal marriages
    8
    """
    if core is not None:
        return int(core.best_meld(counts, values))
    return max(table_meld(values, counts, trump) for trump in range(4))


def python_mend(hands: list[list[int]], known: Sequence[Sequence[int]],
                excluded: Sequence[int], played: Sequence[Sequence[int]],
                points: Sequence[int], trump: int, values: Sequence[int], seat: int,
                steps: int, seed: int) -> bool:
    """Mend ``hands`` in place (see the module docstring); whether it now agrees.

    ``known``, ``excluded``, ``played`` and ``points`` are the sampler's knowledge of
    the other seats (:class:`~pinochlekit.players.double.sampler.DoubleKnowledge`),
    ``values`` the meld table, ``seat`` the seat sampling (never changed).
    :class:`ValueError` for input no deal could give (:func:`check`)."""
    check(hands, played, points, trump, values, seat, steps)
    others = [s for s in range(4) if s != seat]

    def excess(s: int) -> int:
        held = [n + p for n, p in zip(hands[s], played[s], strict=True)]
        return table_meld(values, held, trump) - points[s]

    over = {s: excess(s) for s in others}
    mix = SplitMix(seed)
    for _ in range(steps):
        bad = [s for s in others if over[s]]
        if not bad:
            return True
        s = bad[mix.below(len(bad))]
        rest = [o for o in others if o != s]
        t = rest[mix.below(2)]
        give = [x for x in DOUBLE_KINDS if hands[s][x] > known[s][x] and not excluded[t] >> x & 1]
        take = [x for x in DOUBLE_KINDS if hands[t][x] > known[t][x] and not excluded[s] >> x & 1]
        if not give or not take:
            continue
        a, b = give[mix.below(len(give))], take[mix.below(len(take))]
        if a == b:
            continue
        hands[s][a] -= 1
        hands[t][a] += 1
        hands[t][b] -= 1
        hands[s][b] += 1
        es, et = excess(s), excess(t)
        if es + et > over[s] + over[t]:  # undo a swap that adds unshown meld
            hands[s][a] += 1
            hands[t][a] -= 1
            hands[t][b] += 1
            hands[s][b] -= 1
        else:
            over[s], over[t] = es, et
    return not any(over.values())


def mend(hands: list[list[int]], known: Sequence[Sequence[int]], excluded: Sequence[int],
         played: Sequence[Sequence[int]], points: Sequence[int], trump: int,
         values: Sequence[int], seat: int, steps: int, seed: int) -> bool:
    """:func:`python_mend`, in the C core when it is there (the same swaps)."""
    if core is None:
        return python_mend(hands, known, excluded, played, points, trump, values, seat,
                           steps, seed)
    ok, mended = core.mend(hands, known, excluded, played, points, trump, values, seat,
                           steps, seed)
    hands[:] = mended
    return bool(ok)
