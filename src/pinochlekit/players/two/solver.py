"""An exact solver for the last tricks of the two-handed game (docs/rules.md §4).

Once the stock is drawn every card is known to both players: a seat's own
hand, the cards played, and therefore the opponent's hand. The last twelve
tricks are then a two-player game of perfect information under the play rules
of docs/rules.md §1 (follow suit and beat the card led if possible, else trump;
the ``must_beat`` options through :func:`pinochlekit.engine.tricks.follow_mask`).
:class:`LateSolver` answers it exactly: the trick points the side to play makes
minus the opponent's, against best defence, the 10 of the last trick included
(docs/rules.md §4).

The search is alpha-beta over whole tricks (the leader's card, then the
follower's answers) with a transposition table keyed by the two hands at trick
boundaries, seen from the leader, holding lower and upper bounds so that the
results of cut-off searches are reused correctly. Leads are ordered by the
table's best lead first; answers by cheapest winning card first. Two kinds of
one suit held by the same player with equal trick points and no kind between
them held by the other player play alike (the ``counters`` and ``fives``
scales; never with classic points): only the lowest is searched.

>>> from pinochlekit.engine.cards import Hand
>>> from pinochlekit.engine.rules import Rules
>>> solver = LateSolver(Rules.preset("two"), trump=0)
>>> values = solver.lead_values(Hand.parse("AS 9H"), Hand.parse("TS AH"))
>>> {str(ALL_CARDS[card]): value for card, value in values.items()}
{'AS': 0, '9H': 20}

Leading AS wins AS and TS (21), and the opponent's AH then takes 9H and the
last trick (11 + 10): 21 - 21 = 0. Leading 9H gives up 11, but the opponent
must then lead TS into AS: 31 - 11 = 20.
"""

from __future__ import annotations

from types import ModuleType

from pinochlekit.engine.cards import ALL_CARDS, Hand
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.tricks import card_points, follow_mask, play_flags, winner_index
from pinochlekit.native import load

__all__ = ["LateSolver", "card_list", "describe", "native_solver"]

_native = load("_twosolver")


def native_solver() -> ModuleType | None:
    """The C version of the solver (:mod:`pinochlekit.native._twosolver`) if built
    and ``PINOCHLEKIT_PURE_PYTHON`` is not set, else ``None``."""
    return _native

#: A hand in the search: (kinds held at least once, kinds held twice).
_Masks = tuple[int, int]
_INF = 1 << 20


def card_list(mask: int) -> list[int]:
    """The kinds of ``mask``, lowest first.

    >>> card_list(0b10110)
    [1, 2, 4]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _remove(once: int, twice: int, card: int) -> _Masks:
    bit = 1 << card
    if twice & bit:
        return once, twice ^ bit
    return once ^ bit, twice


def _masks(hand: Hand) -> _Masks:
    return hand.once, hand.twice


class LateSolver:
    """Exact values of last-trick positions for one trump suit and one set of rules.

    Values are trick points (in the rules' unit) of the remaining play, for the
    player named by the method, minus the opponent's. The transposition table
    lives as long as the solver, so one solver may answer many positions of the
    same hand (``nodes`` counts the tricks searched, for benchmarks). The C
    version answers when it is built, unless ``native=False``; it gives the same
    values (``tests/test_expert_two.py``).
    """

    def __init__(self, rules: Rules, trump: int, *, native: bool = True) -> None:
        self.trump = trump
        self.flags = play_flags(rules)
        self.points = card_points(rules)
        self.bonus = 10 // rules.unit  # docs/rules.md §4: 10 for the last trick
        self.native = _native if native else None
        self._args = (trump, int(self.flags[0]) | int(self.flags[1]) << 1,
                      bytes(self.points), self.bonus)
        self.table: dict[tuple[int, int, int, int], tuple[int, int, int]] = {}
        self.nodes = 0
        # Equal trick points within a suit: only then may kinds be grouped.
        self._groupable = any(self.points[k] == self.points[k + 1]
                              for k in range(24) if k % 6 != 5)

    # -- the public questions ------------------------------------------------------

    def value(self, leader: Hand, follower: Hand) -> int:
        """The exact value for the player to lead, at a trick boundary."""
        lo, lt = _masks(leader)
        fo, ft = _masks(follower)
        if self.native is not None:
            value: int = self.native.value(*self._args, lo, lt, fo, ft)
            return value
        return self._search(lo, lt, fo, ft, -_INF, _INF)

    def lead_values(self, leader: Hand, follower: Hand) -> dict[int, int]:
        """For each kind the leader may lead: the exact value for the leader."""
        lo, lt = _masks(leader)
        fo, ft = _masks(follower)
        if self.native is not None:
            return dict(self.native.values(*self._args, lo, lt, fo, ft, -1))
        last = lt == 0 and lo & (lo - 1) == 0
        return {card: self._lead(lo, lt, fo, ft, card, last, -_INF, _INF)
                for card in card_list(lo)}

    def follow_values(self, lead: int, leader: Hand, follower: Hand) -> dict[int, int]:
        """For each legal answer to ``lead`` (already played from ``leader``): the
        exact value for the follower, the current trick included."""
        lo, lt = _masks(leader)
        fo, ft = _masks(follower)
        if self.native is not None:
            return dict(self.native.values(*self._args, lo, lt, fo, ft, lead))
        last = ft == 0 and fo & (fo - 1) == 0
        allowed = follow_mask(fo, lead // 6, lead, self.trump, self.flags)
        return {card: -self._answer(lo, lt, fo, ft, lead, card, last, -_INF, _INF)
                for card in card_list(allowed)}

    # -- the search ------------------------------------------------------------------

    def _beats(self, lead: int, card: int) -> bool:
        """Whether ``card`` played second takes the trick led with ``lead`` (docs/rules.md
        §1: the higher trump, else the higher card of the suit led; of two identical
        cards the first played wins: the engine's :func:`winner_index`)."""
        return winner_index((lead, card), self.trump) == 1

    def _answer(self, lo: int, lt: int, fo: int, ft: int, lead: int, card: int, last: bool,
                alpha: int, beta: int) -> int:
        """The leader's value once ``lead`` and ``card`` are out of the two hands
        (``lo, lt`` and ``fo, ft`` still hold them)."""
        lo2, lt2 = _remove(lo, lt, lead)
        fo2, ft2 = _remove(fo, ft, card)
        points = self.points[lead] + self.points[card] + (self.bonus if last else 0)
        if last:
            return -points if self._beats(lead, card) else points
        if self._beats(lead, card):
            return -points - self._search(fo2, ft2, lo2, lt2, -beta - points, -alpha - points)
        return points + self._search(lo2, lt2, fo2, ft2, alpha - points, beta - points)

    def _lead(self, lo: int, lt: int, fo: int, ft: int, lead: int, last: bool,
              alpha: int, beta: int) -> int:
        """The leader's value of leading ``lead``: the follower's best answer."""
        allowed = follow_mask(fo, lead // 6, lead, self.trump, self.flags)
        if self._groupable:
            allowed = self._grouped(allowed, lo)
        winners = [c for c in card_list(allowed) if self._beats(lead, c)]
        losers = [c for c in card_list(allowed) if not self._beats(lead, c)]
        points = self.points
        # Cheapest winner first, then the loser giving the fewest points.
        order = sorted(winners, key=lambda c: points[c]) + sorted(losers,
                                                                  key=lambda c: points[c])
        worst = _INF
        for card in order:
            value = self._answer(lo, lt, fo, ft, lead, card, last, alpha, min(beta, worst))
            if value < worst:
                worst = value
                if worst <= alpha:
                    break
        return worst

    def _grouped(self, mine: int, theirs: int) -> int:
        """The kinds of ``mine`` worth searching: of each run of kinds of one suit
        with equal points and none of ``theirs`` between them, the lowest."""
        keep = 0
        points = self.points
        for suit in range(4):
            previous = -1
            for kind in range(suit * 6, suit * 6 + 6):
                if theirs >> kind & 1:
                    previous = -1
                if not mine >> kind & 1:
                    continue
                if previous >= 0 and points[kind] == points[previous]:
                    continue
                keep |= 1 << kind
                previous = kind
        return keep

    def _search(self, lo: int, lt: int, fo: int, ft: int, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta at a trick boundary: the leader's value."""
        if not lo:
            return 0
        self.nodes += 1
        key = (lo, lt, fo, ft)
        entry = self.table.get(key)
        first = -1
        if entry is not None:
            lower, upper, first = entry
            if lower >= beta:
                return lower
            if upper <= alpha:
                return upper
            if lower == upper:
                return lower
            alpha, beta = max(alpha, lower), min(beta, upper)
        start = alpha
        last = lt == 0 and lo & (lo - 1) == 0
        leads = self._grouped(lo, fo) if self._groupable else lo
        points = self.points
        order = sorted(card_list(leads), key=lambda c: (c != first, -points[c], -c))
        best, best_card = -_INF, -1
        for card in order:
            value = self._lead(lo, lt, fo, ft, card, last, max(alpha, best), beta)
            if value > best:
                best, best_card = value, card
                if best >= beta:
                    break
        lower, upper = -_INF, _INF
        if entry is not None:
            lower, upper = entry[0], entry[1]
        if best <= start:
            upper = min(upper, best)
        elif best >= beta:
            lower = max(lower, best)
        else:
            lower = upper = best
        self.table[key] = (lower, upper, best_card)
        return best


def describe(values: dict[int, int]) -> str:
    """``values`` (kind → value) as text, best first: ``9H +20, AS +0``."""
    ranked = sorted(values.items(), key=lambda kv: (-kv[1], kv[0]))
    return ", ".join(f"{ALL_CARDS[card]} {value:+d}" for card, value in ranked)

