"""An exact solver for the last tricks of a hand with every card known.

The ``expert`` player evaluates a card on sampled deals; once few tricks
remain it replaces the rollout by the perfect-information value of the
position: the most trick points one team can make against best defence, every
hand face up. :func:`solve` answers that by alpha-beta search over the rest of
the play (docs/rules.md §1 Play rules 1-3 and the §2 must-beat and
trump-follows-trump options, through :func:`pinochlekit.engine.tricks.follow_mask`),
with

- a transposition table at trick boundaries (the cards left in each hand and
  the seat to lead decide the rest; bounds are stored, so cut-off results are
  reused correctly);
- move ordering and pruning by card equivalence: two kinds of one suit in one
  hand with equal trick points are interchangeable once no other hand (and not
  the current trick) holds a kind between them, or either of them; only the
  lowest of such a group is searched.

The round score of a hand is a non-decreasing function of a team's trick
points (docs/rules.md §1 Scoring: more trick points never make a made contract
set, nor lose saved meld), so the minimax value of the round score is that
function of the minimax trick points: the solver works on trick points only.

**Three-handed** (docs/rules.md §3): the declarer plays alone against the two
defenders, who are one side for the solver (what they take together is what
the declarer does not). An :class:`Endgame` of three hands names its
``declarer``; ``team`` is then a seat, and the value is the trick points of
that seat's side (the declarer's own, or the two defenders' together). Such an
endgame is searched as a four-seat one with an empty seat sitting out (the
seat after the last defender), the declarer alone on one team and the
defenders on the other, so the same search (and the same C code) serves.

A C version (:mod:`pinochlekit.native._solver`) gives the same values much faster;
:func:`solve` uses it when it is built and ``PINOCHLEKIT_PURE_PYTHON`` is not set
(:func:`pinochlekit.native.load`), and ``tests/test_solver.py`` checks both against
a plain minimax written separately.

>>> from pinochlekit.engine.cards import Hand
>>> from pinochlekit.engine.rules import Rules
>>> hands = (Hand.parse("AS 9H"), Hand.parse("TS AH"), Hand.parse("KS KH"),
...          Hand.parse("QS TH"))
>>> end = Endgame(trump=3, hands=hands, to_act=0)
>>> solve(Rules(), end, team=0, native=False)  # 9H first, so that AS takes the last trick
40
>>> solve(Rules(), end, team=0, native=False) == solve(Rules(), end, team=0)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from types import ModuleType

from pinochlekit.engine.cards import SUIT_MASKS, Hand
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.tricks import card_points, follow_mask, play_flags, winner_index
from pinochlekit.native import load

__all__ = ["Endgame", "card_values", "native_solver", "solve", "solve_within"]

_native: ModuleType | None = load("_solver")


def native_solver() -> ModuleType | None:
    """The C solver module if it is built and allowed, else ``None``."""
    return _native


@dataclass(frozen=True)
class Endgame:
    """A position in the play with every hand known.

    ``hands`` are the four current hands (three-handed: the three); ``trick``
    the ``(seat, card)`` plays of the current trick; ``to_act`` the seat to
    play; ``first_trick`` marks the opening lead of the hand (docs/rules.md §2 first
    lead must be trump); ``sitting_out`` the seat out of play after a moon (-1
    if none); ``declarer`` the declarer of a three-handed endgame (docs/rules.md §3:
    alone against the two defenders; -1 with four hands).
    """

    trump: int
    hands: tuple[Hand, ...]
    to_act: int
    trick: tuple[tuple[int, int], ...] = ()
    first_trick: bool = False
    sitting_out: int = -1
    declarer: int = -1

    @property
    def tricks_left(self) -> int:
        """Tricks still to finish, the current one included."""
        return max(len(h) for h in self.hands)


@lru_cache(maxsize=16)
def _settings(rules: Rules) -> tuple[tuple[bool, bool, bool, bool], tuple[int, ...], int, bool]:
    return play_flags(rules), card_points(rules), 10 // rules.unit, rules.first_lead == "trump"


def _groups(once: int, others: int, points: Sequence[int]) -> int:
    """The kinds of ``once`` worth searching: of each group of interchangeable
    kinds (same suit, same points, nothing of ``others`` from the lowest to the
    highest of them) only the lowest."""
    keep = 0
    for suit in range(4):
        mask = once & SUIT_MASKS[suit]
        previous = -1
        for kind in range(suit * 6, suit * 6 + 6):
            if not mask >> kind & 1:
                if others >> kind & 1:
                    previous = -1
                continue
            if previous >= 0 and not others >> kind & 1 and points[kind] == points[previous]:
                continue  # interchangeable with the group's lowest
            keep |= 1 << kind
            previous = -1 if others >> kind & 1 else kind
    return keep


class _Search:
    """One alpha-beta search (its transposition table lives as long as it does)."""

    def __init__(self, rules: Rules, end: Endgame, team: int) -> None:
        self.flags, self.points, self.bonus, lead_trump = _settings(rules)
        self.trump = end.trump
        self.team = team
        self.out = end.sitting_out
        self.size = 3 if end.sitting_out >= 0 else 4
        self.first_lead_trump = lead_trump and end.first_trick
        self.table: dict[tuple[int, ...], tuple[int, int]] = {}

    def next_seat(self, seat: int) -> int:
        seat = (seat + 1) % 4
        return (seat + 1) % 4 if seat == self.out else seat

    def legal(self, once: int, trick: Sequence[int]) -> int:
        """The kinds of ``once`` that may be played onto ``trick`` (docs/rules.md §1.9
        and the §2 options: the engine's :func:`follow_mask`; the first lead in trump)."""
        if not trick:
            trumps = once & SUIT_MASKS[self.trump]
            if self.first_lead_trump and trumps:
                return trumps
            return once
        high = trick[winner_index(trick, self.trump)]
        return follow_mask(once, trick[0] // 6, high, self.trump, self.flags)

    def search(self, once: list[int], twice: list[int], trick: list[int], seats: list[int],
               seat: int, alpha: int, beta: int) -> int:
        """The team's trick points from here (cards of ``trick`` included)."""
        key: tuple[int, ...] = ()
        if not trick:
            if not once[seat]:
                return 0
            key = (*once, *twice, seat)
            bounds = self.table.get(key)
            if bounds is not None:
                low, high = bounds
                if low >= beta or low == high:
                    return low
                if high <= alpha:
                    return high
                alpha, beta = max(alpha, low), min(beta, high)
        maximize = seat % 2 == self.team
        others = 0
        for s in range(4):
            if s != seat:
                others |= once[s]
        for card in trick:
            others |= 1 << card
        moves = _groups(self.legal(once[seat], trick), others, self.points)
        best = -1 if maximize else 1 << 30
        a, b = alpha, beta
        while moves:
            bit = moves & -moves
            moves ^= bit
            card = bit.bit_length() - 1
            o, t = once[seat], twice[seat]
            if t & bit:
                twice[seat] = t & ~bit
            else:
                once[seat] = o & ~bit
            trick.append(card)
            seats.append(seat)
            if len(trick) == self.size:
                winner = seats[winner_index(trick, self.trump)]
                value = sum(self.points[c] for c in trick)
                if not once[winner]:
                    value += self.bonus  # docs/rules.md §1 Counting: last trick 10
                gained = value if winner % 2 == self.team else 0
                saved = trick[:], seats[:]
                trick.clear()
                seats.clear()
                score = gained + self.search(once, twice, trick, seats, winner,
                                             a - gained, b - gained)
                trick[:], seats[:] = saved
            else:
                score = self.search(once, twice, trick, seats, self.next_seat(seat), a, b)
            trick.pop()
            seats.pop()
            once[seat], twice[seat] = o, t
            if maximize:
                if score > best:
                    best = score
                    a = max(a, score)
            elif score < best:
                best = score
                b = min(b, score)
            if a >= b:
                break
        if key:
            low, high = self.table.get(key, (0, 1 << 30))
            if best <= alpha:
                high = min(high, best)
            elif best >= beta:
                low = max(low, best)
            else:
                low = high = best
            self.table[key] = (low, high)
        return best


def _start(end: Endgame) -> tuple[list[int], list[int], list[int], list[int]]:
    return ([h.once for h in end.hands], [h.twice for h in end.hands],
            [c for _, c in end.trick], [s for s, _ in end.trick])


def _python_values(rules: Rules, end: Endgame, team: int) -> dict[int, int]:
    search = _Search(rules, end, team)
    once, twice, trick, _ = _start(end)
    seat = end.to_act
    values = {}
    legal = search.legal(once[seat], trick)
    for card in range(24):
        if not legal >> card & 1:
            continue
        moved = Hand(once[seat], twice[seat]).remove(card)
        hands = tuple(moved if s == seat else h for s, h in enumerate(end.hands))
        after = Endgame(end.trump, hands, search.next_seat(seat),
                        (*end.trick, (seat, card)), end.first_trick, end.sitting_out)
        values[card] = _python_solve(rules, after, team, search)
    return values


def _python_solve(rules: Rules, end: Endgame, team: int, search: _Search | None = None) -> int:
    search = search or _Search(rules, end, team)
    once, twice, trick, seats = _start(end)
    return _finish_trick(search, once, twice, trick, seats, end.to_act)


def _finish_trick(search: _Search, once: list[int], twice: list[int], trick: list[int],
                  seats: list[int], seat: int) -> int:
    if len(trick) == search.size:  # the last card of a trick was just played
        winner = seats[winner_index(trick, search.trump)]
        value = sum(search.points[c] for c in trick)
        if not once[winner]:
            value += search.bonus
        gained = value if winner % 2 == search.team else 0
        return gained + search.search(once, twice, [], [], winner, -1, 1 << 30)
    return search.search(once, twice, trick, seats, seat, -1, 1 << 30)


def _check(end: Endgame, team: int) -> None:
    if len(end.hands) == 3:
        if team not in (0, 1, 2):
            raise ValueError(f"team must be a seat 0-2 in a three-handed endgame, not {team!r}")
        if end.declarer not in (0, 1, 2) or end.sitting_out != -1:
            raise ValueError(f"a three-handed endgame needs its declarer (0-2) and nobody "
                             f"sitting out, not declarer {end.declarer!r}")
        if not 0 <= end.to_act < 3 or any(not 0 <= s < 3 for s, _ in end.trick):
            raise ValueError("a three-handed endgame has seats 0-2 only")
        size = 3
    elif len(end.hands) == 4:
        if team not in (0, 1):
            raise ValueError(f"team must be 0 or 1, not {team!r}")
        size = 3 if end.sitting_out >= 0 else 4
    else:
        raise ValueError(f"an endgame needs four hands (or three), not {len(end.hands)}")
    if not end.hands[end.to_act] and len(end.trick) < size:
        raise ValueError(f"seat {end.to_act} is to play but holds no card")


def _as_four(end: Endgame, team: int) -> tuple[Endgame, int]:
    """A three-handed endgame (docs/rules.md §3) as a four-seat one with the same play and
    value: seat ``s`` moves to slot ``(s - declarer + 1) % 3``, so the declarer sits
    at slot 1 (team 1, alone: slot 3 is empty and sits out) and the defenders, who
    follow it in turn, at slots 2 and 0 (team 0). Four-handed endgames pass as they are."""
    if len(end.hands) != 3:
        return end, team
    d = end.declarer

    def slot(seat: int) -> int:
        return (seat - d + 1) % 3

    hands = [Hand()] * 4
    for seat, hand in enumerate(end.hands):
        hands[slot(seat)] = hand
    four = Endgame(end.trump, tuple(hands), slot(end.to_act),
                   tuple((slot(s), c) for s, c in end.trick), end.first_trick, sitting_out=3)
    return four, 1 if team == d else 0


def _native_args(rules: Rules, end: Endgame, team: int) -> tuple[object, ...]:
    flags, points, bonus, lead_trump = _settings(rules)
    bits = sum(1 << i for i, f in enumerate(flags) if f) | (16 if lead_trump and end.first_trick
                                                       else 0)
    return (end.trump, bits, bytes(points), bonus,
            tuple(x for h in end.hands for x in (h.once, h.twice)),
            bytes(x for play in end.trick for x in play), end.to_act, end.sitting_out, team)


def solve(rules: Rules, end: Endgame, team: int, *, native: bool = True) -> int:
    """The trick points ``team`` (0 or 1) takes from ``end`` to the end of the hand
    with best play by both sides, every hand known: the cards of the current
    trick and the last-trick bonus count. ``native=False`` forces the Python search.
    Three-handed, ``team`` is a seat: the value is its side's (module docstring)."""
    _check(end, team)
    end, team = _as_four(end, team)
    if native and _native is not None:
        return int(_native.solve(*_native_args(rules, end, team)))
    return _python_solve(rules, end, team)


def solve_within(rules: Rules, end: Endgame, team: int, positions: int
                 ) -> tuple[int | None, int]:
    """:func:`solve`, searching at most ``positions`` positions of the play: the value
    (``None`` when that is not enough) and the positions searched. The count is the
    same on every machine, so a caller with this budget gets the same answers
    everywhere (a clock would not). Without the C solver (``PINOCHLEKIT_PURE_PYTHON``)
    the Python search answers up to eight tricks (counted as one position) and
    ``None`` beyond."""
    if positions < 1:
        raise ValueError(f"positions: a positive number, not {positions}")
    _check(end, team)
    end, team = _as_four(end, team)
    if _native is not None:
        value, searched = _native.solve_within(positions, *_native_args(rules, end, team))
        return (None if value is None else int(value)), int(searched)
    if max(len(hand) for hand in end.hands) <= 8:
        return _python_solve(rules, end, team), 1
    return None, 0


def card_values(rules: Rules, end: Endgame, team: int, *, native: bool = True) -> dict[int, int]:
    """For each legal card of the seat to act: :func:`solve` after playing it."""
    _check(end, team)
    end, team = _as_four(end, team)
    if native and _native is not None:
        return dict(_native.card_values(*_native_args(rules, end, team)))
    return _python_values(rules, end, team)
