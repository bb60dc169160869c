"""An exact solver for the last tricks of a double-deck hand, all cards known.

Given a deal (four lists of 24 copy counts), the cards already in the current
trick and the seat to play, :func:`solve_values` gives for each card that seat
may play the trick points (counters, docs/rules.md §6, and the last trick's 2)
each team takes from the current trick to the end when both teams play
perfectly afterwards: an alpha-beta search of the partnership game (seats of
one team maximise, the other minimise) under the engine's play rules
(:func:`~pinochlekit.engine.tricks.follow_mask`), with a table of bounds at the
start of each trick. Meant for the last few tricks (``expert`` uses it from three
tricks left: players/double/expert.py); its cost grows quickly with more.

>>> from pinochlekit.engine.cards import Card
>>> hands = [[0] * 24 for _ in range(4)]
>>> for seat, card in enumerate(["AS", "TS", "KS", "QS"]):
...     hands[seat][Card(card)] = 1
>>> solve_values(hands, [], 0, 0, (True, True, True, False))[Card("AS")]
(5, 0)
"""

from __future__ import annotations

from collections.abc import Sequence

from pinochlekit.engine.double.cards import DOUBLE_KINDS
from pinochlekit.engine.double.game import COUNTER_POINTS, LAST_TRICK
from pinochlekit.engine.tricks import follow_mask, winner_index

__all__ = ["solve_values"]

_INF = 10**6


class _Search:
    def __init__(self, hands: Sequence[Sequence[int]], trump: int, team: int,
                 flags: tuple[bool, bool, bool, bool]) -> None:
        self.hands = [list(h) for h in hands]
        self.masks = [sum(1 << k for k in DOUBLE_KINDS if h[k]) for h in self.hands]
        self.trump, self.team, self.flags = trump, team, flags
        self.table: dict[tuple[tuple[int, ...], int], tuple[int, int]] = {}

    def legal(self, seat: int, cards: Sequence[int]) -> int:
        if not cards:
            return self.masks[seat]
        high = cards[winner_index(cards, self.trump)]
        return follow_mask(self.masks[seat], cards[0] // 6, high, self.trump, self.flags)

    def play(self, seat: int, card: int) -> None:
        hand = self.hands[seat]
        hand[card] -= 1
        if not hand[card]:
            self.masks[seat] &= ~(1 << card)

    def unplay(self, seat: int, card: int) -> None:
        self.hands[seat][card] += 1
        self.masks[seat] |= 1 << card

    def value(self, cards: list[int], seats: list[int], turn: int, alpha: int,
              beta: int) -> int:
        """Points ``team`` takes from the current trick (``cards`` by ``seats``) on."""
        if len(cards) == 4:
            winner = seats[winner_index(cards, self.trump)]
            points = sum(COUNTER_POINTS[c] for c in cards)
            if not any(self.masks):
                points += LAST_TRICK
                return points if winner % 2 == self.team else 0
            mine = points if winner % 2 == self.team else 0
            return mine + self.trick_start(winner, alpha - mine, beta - mine)
        return self.choose(cards, seats, turn, alpha, beta)

    def trick_start(self, leader: int, alpha: int, beta: int) -> int:
        key = (tuple(c for h in self.hands for c in h), leader)
        low, high = self.table.get(key, (-_INF, _INF))
        if low >= beta:
            return low
        if high <= alpha:
            return high
        if low == high:
            return low
        a, b = max(alpha, low), min(beta, high)
        result = self.choose([], [], leader, a, b)
        if result <= a:
            high = result
        elif result >= b:
            low = result
        else:
            low = high = result
        self.table[key] = (low, high)
        return result

    def choose(self, cards: list[int], seats: list[int], turn: int, alpha: int,
               beta: int) -> int:
        mask = self.legal(turn, cards)
        maximising = turn % 2 == self.team
        best = -_INF if maximising else _INF
        while mask:
            low = mask & -mask
            mask ^= low
            card = low.bit_length() - 1
            self.play(turn, card)
            cards.append(card)
            seats.append(turn)
            score = self.value(cards, seats, (turn + 1) % 4, alpha, beta)
            cards.pop()
            seats.pop()
            self.unplay(turn, card)
            if maximising:
                best = max(best, score)
                alpha = max(alpha, score)
            else:
                best = min(best, score)
                beta = min(beta, score)
            if alpha >= beta:
                break
        return best


def solve_values(hands: Sequence[Sequence[int]], trick: Sequence[tuple[int, int]], trump: int,
                 seat: int, flags: tuple[bool, bool, bool, bool]) -> dict[int, tuple[int, int]]:
    """For each card ``seat`` may play onto ``trick`` ((seat, card) pairs) from
    ``hands``: the trick points (``seat``'s team, the other team) taken from the
    current trick to the end under perfect play. ``flags``:
    :func:`~pinochlekit.engine.tricks.play_flags`. The first lead in trump
    (docs/rules.md §2) is not modelled: the solver is for the last tricks."""
    team = seat % 2
    search = _Search(hands, trump, team, flags)
    cards = [c for _, c in trick]
    seats = [s for s, _ in trick]
    total = sum(COUNTER_POINTS[k] * n for h in hands for k, n in enumerate(h))
    total += sum(COUNTER_POINTS[c] for c in cards) + LAST_TRICK
    out: dict[int, tuple[int, int]] = {}
    mask = search.legal(seat, cards)
    while mask:
        low = mask & -mask
        mask ^= low
        card = low.bit_length() - 1
        search.play(seat, card)
        ours = search.value([*cards, card], [*seats, seat], (seat + 1) % 4, -_INF, _INF)
        search.unplay(seat, card)
        out[card] = (ours, total - ours)
    return out
