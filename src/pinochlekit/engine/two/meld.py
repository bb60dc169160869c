"""The most a two-handed player's cards can score in meld, laid one meld per won trick.

In the two-handed game (docs/rules.md §4) melds are laid one at a time, one after
each won early trick; a laid card stays on the table and may serve again only
in a meld of another class, and every meld takes at least one card from the
hand. :func:`best_two_meld` finds the order of lays that scores the most from a
holding, with the engine's rule for which copy of a card a meld uses
(:mod:`pinochlekit.engine.two.game`), and adds the dix: 10 for each nine of trump
held (counted with ``dix``, once per meld turn). It answers
``pinochle meld --rules two``.

>>> from pinochlekit.engine.cards import Suit, parse_cards
>>> from pinochlekit.engine.rules import Rules
>>> result = best_two_meld(parse_cards("AS TS KS QS JS 9S JD QS"), Suit.SPADES,
...                        Rules.preset("two"))
>>> [(item.name, item.points) for item in result.items], result.points
([('run', 150), ('pinochle', 40), ('dix', 10)], 200)
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from pinochlekit.engine.cards import ALL_CARDS, Card, Hand, Rank, Suit
from pinochlekit.engine.meld import MeldItem, MeldResult, meld_values
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.two.game import combinations

__all__ = ["MAX_CARDS", "best_two_meld"]

#: The most cards a two-handed player holds at once (hand and table together).
MAX_CARDS = 12

# A table card: (card kind, bits of the classes it has served in).
_Table = tuple[tuple[int, int], ...]


def best_two_meld(cards: Iterable[int], trump: Suit, rules: Rules) -> MeldResult:
    """The lays that score the most from ``cards`` under ``trump``, in a playable order.

    Each item is one meld turn (docs/rules.md §4: one meld per won trick); the dix
    items come last (each may be counted in the same turn as a meld). With
    ``meld_reuse=once`` a laid card never serves again. ``shown`` holds the cards
    the melds lay on the table. :class:`ValueError` for more than
    :data:`MAX_CARDS` cards.
    """
    held = [0] * 24
    for card in cards:
        held[card] += 1
    if sum(held) > MAX_CARDS:
        raise ValueError(f"a two-handed player holds at most {MAX_CARDS} cards, not "
                         f"{sum(held)}")
    values = meld_values(rules)
    reuse = rules.meld_reuse != "once"
    points, lays = _best(tuple(held), (), int(trump), reuse,
                         tuple(values[name] for name, _, _ in combinations(int(trump))))
    items = [MeldItem(name, cards_, values[name]) for name, cards_ in lays]
    nine = ALL_CARDS[int(trump) * 6 + Rank.NINE]
    for _ in range(held[nine]):  # docs/rules.md §4: the dix, 10 each, exchanged or shown
        items.append(MeldItem("dix", (nine,), values["dix"]))
    shown = _laid_counts(tuple(held), int(trump), reuse, lays)
    shown[nine] = held[nine]  # a dix counted is seen, exchanged or shown
    return MeldResult(points + values["dix"] * held[nine], tuple(items),
                      Hand.from_cards(k for k in range(24) for _ in range(shown[k])))


def _options(hand: tuple[int, ...], table: _Table, trump: int,
             reuse: bool) -> list[tuple[int, tuple[int, ...], _Table]]:
    """(combination index, new hand, new table) for every meld that may be laid now."""
    out = []
    for index, (_, bit, cards) in enumerate(combinations(trump)):
        free = {}
        for card in set(cards):
            on_table = sum(1 for c, used in table if c == card and not used & bit) if reuse else 0
            free[card] = (hand[card], on_table)
        need = {card: cards.count(card) for card in set(cards)}
        if not all(h + t >= need[c] for c, (h, t) in free.items()):
            continue
        if not any(h for h, _ in free.values()):
            continue  # docs/rules.md §4: at least one card of the meld from the hand
        # The engine's choice of copies: a table copy free for the class first, else the
        # hand; if that takes every card from the table, the first card held from the hand.
        use = [(card, free[card][1] > 0) for card in cards]
        if all(from_table for _, from_table in use):
            first = next(i for i, (c, _) in enumerate(use) if hand[c])
            use[first] = (use[first][0], False)
        new_hand = list(hand)
        new_table = list(table)
        for card, from_table in use:
            if from_table:
                i = next(i for i, (c, used) in enumerate(new_table)
                         if c == card and not used & bit)
                new_table[i] = (card, new_table[i][1] | bit)
            else:
                new_hand[card] -= 1
                new_table.append((card, bit))
        out.append((index, tuple(new_hand), tuple(sorted(new_table))))
    return out


@cache
def _best(hand: tuple[int, ...], table: _Table, trump: int, reuse: bool,
          values: tuple[int, ...]) -> tuple[int, tuple[tuple[str, tuple[Card, ...]], ...]]:
    """The best (points, lays) from this position: a search over every order of lays."""
    best: tuple[int, tuple[tuple[str, tuple[Card, ...]], ...]] = (0, ())
    combos = combinations(trump)
    for index, new_hand, new_table in _options(hand, table, trump, reuse):
        points, lays = _best(new_hand, new_table, trump, reuse, values)
        name, _, cards = combos[index]
        candidate = (points + values[index], ((name, cards), *lays))
        if candidate[0] > best[0]:
            best = candidate
    return best


def _laid_counts(hand: tuple[int, ...], trump: int, reuse: bool,
                 lays: tuple[tuple[str, tuple[Card, ...]], ...]) -> list[int]:
    """How many copies of each card the lays put on the table, replayed in order."""
    table: _Table = ()
    names = [name for name, _, _ in combinations(trump)]
    for name, _ in lays:
        index = names.index(name)
        for option, hand_after, table_after in _options(hand, table, trump, reuse):
            if option == index:
                hand, table = hand_after, table_after
                break
    counts = [0] * 24
    for card, _ in table:
        counts[card] += 1
    return counts
