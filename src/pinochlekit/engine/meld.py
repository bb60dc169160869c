"""Meld: the scoring combinations of docs/rules.md §1 Meld, under every meld option.

>>> from pinochlekit.engine.cards import parse_cards, Suit
>>> from pinochlekit.engine.rules import Rules
>>> result = meld(parse_cards("AS TS KS KS QS JS 9S QH KH JD"), Suit.SPADES, Rules())
>>> result.points
260
>>> [(item.name, item.points) for item in result.items]
[('run', 150), ('royal marriage', 40), ('common marriage', 20), ('dix', 10), ('pinochle', 40)]

Three classes (I: runs, marriages, dix; II: arounds; III: pinochles). A card
may count in melds of different classes but, with ``meld_reuse="per_class"``,
never twice in one class; with ``meld_reuse="once"`` every card counts in at
most one meld and the best total is taken.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from pinochlekit import native as _accel
from pinochlekit.engine.cards import ALL_CARDS, Card, Hand, Rank, Suit, trusted_hand
from pinochlekit.engine.rules import Rules

__all__ = ["MeldItem", "MeldResult", "meld", "meld_dict", "meld_values"]

# Ordinary-scale values (docs/rules.md §1 Meld table; §2 "double melds").
_SINGLE = {"run": 150, "royal marriage": 40, "common marriage": 20, "dix": 10,
           "aces around": 100, "kings around": 80, "queens around": 60, "jacks around": 40,
           "pinochle": 40}
_SPECIAL_DOUBLE = {"run": 1500, "aces around": 1000, "kings around": 800,
                   "queens around": 600, "jacks around": 400, "pinochle": 300}
_AROUNDS = ((Rank.ACE, "aces around"), (Rank.KING, "kings around"),
            (Rank.QUEEN, "queens around"), (Rank.JACK, "jacks around"))
_RUN_RANKS = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK)
_QS = Card(Suit.SPADES * 6 + Rank.QUEEN)
_JD = Card(Suit.DIAMONDS * 6 + Rank.JACK)


@dataclass(frozen=True)
class MeldItem:
    """One piece of meld: its name, the cards it uses and its points."""

    name: str
    cards: tuple[Card, ...]
    points: int

    def __str__(self) -> str:
        return f"{self.name} {' '.join(map(str, self.cards))} = {self.points}"


class MeldResult:
    """A player's meld: the total, the itemized pieces and the cards shown."""

    __slots__ = ("items", "points", "shown")

    points: int
    items: tuple[MeldItem, ...]
    #: The cards laid on the table: only what the melds need, never the rest of the hand.
    shown: Hand

    def __init__(self, points: int, items: tuple[MeldItem, ...], shown: Hand) -> None:
        self.points = points
        self.items = items
        self.shown = shown

    @property
    def dix_only(self) -> bool:
        """Whether the meld is one or two dix and nothing else (docs/rules.md §1 Scoring)."""
        return bool(self.items) and all(item.name == "dix" for item in self.items)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, MeldResult) and self.points == other.points
                and self.items == other.items and self.shown == other.shown)

    def __hash__(self) -> int:
        return hash((self.points, self.items))

    def __repr__(self) -> str:
        return f"MeldResult(points={self.points}, items={self.items!r})"

    def __str__(self) -> str:
        if not self.items:
            return "no meld"
        return ", ".join(str(item) for item in self.items) + f"; total {self.points}"


def meld_dict(result: MeldResult) -> dict[str, Any]:
    """A player's meld as JSON-ready data: the points, the cards shown and each meld
    with its name, cards and points (the shape of the protocol, docs/protocol.md, and
    of the command line's ``meld --json``).

    >>> from pinochlekit.engine.cards import Hand
    >>> meld_dict(meld(Hand.parse("KS QS 9S"), Suit.SPADES, Rules()))["items"][0]
    {'name': 'royal marriage', 'cards': 'KS QS', 'points': 40}
    """
    return {"points": result.points, "shown": str(result.shown),
            "items": [{"name": item.name, "cards": " ".join(map(str, item.cards)),
                       "points": item.points} for item in result.items]}


def meld_values(rules: Rules) -> dict[str, int]:
    """Meld name → points in the game's own scale, doubles named ``double …``.

    >>> meld_values(Rules(doubles="plain", divide_by_ten=True))["double run"]
    30
    """
    return dict(_values(rules.doubles, rules.unit))


@cache
def _values(doubles: str, unit: int) -> dict[str, int]:
    values = {name: v // unit for name, v in _SINGLE.items()}
    for name, v in _SPECIAL_DOUBLE.items():
        double = v if doubles == "special" else 2 * _SINGLE[name]
        values[f"double {name}"] = double // unit
    return values


def meld(cards: Iterable[int] | Hand, trump: Suit | int | None, rules: Rules) -> MeldResult:
    """The best meld of one player's cards with ``trump`` (``None``: before trump is named).

    With no trump every marriage is common and there is no run or dix; that is
    how a nines-redeal hand is judged to have "no meld".
    """
    hand = cards if isinstance(cards, Hand) else Hand.from_cards(cards)
    key = -1 if trump is None else int(trump)
    return meld_of_masks(hand.once, hand.twice, key, rules.doubles, rules.run_extra,
                         rules.meld_reuse, rules.unit)


_Group = tuple[tuple[MeldItem, ...], int, int, int]


def meld_of_masks(once: int, twice: int, trump: int, doubles: str, run_extra: str,
                  reuse: str, unit: int) -> MeldResult:
    """:func:`meld` of a hand given as masks (``trump`` -1 for none), with the meld
    options spelled out: the engine's entry, without building a :class:`Hand`."""
    if reuse == "once":
        return _meld_once(once, twice, trump, doubles, unit)
    table = _accel.table
    if table is None:
        return _meld_per_class(once, twice, trump, doubles, run_extra, unit)
    # The C meld gives the cards shown; the result is a function of those alone (the
    # cards not shown add no meld, tests/test_meld.py checks it), so it is built from the
    # shown cards and shared: nothing of the rest of the hand goes into it.
    _, shown_once, shown_twice = table.meld_masks(once, twice, trump, doubles == "special",
                                                  run_extra == "marries", unit)
    shown = _BY_SHOWN.get((doubles, run_extra, unit))
    if shown is None:
        shown = _BY_SHOWN[(doubles, run_extra, unit)] = {}
    key = shown_once | shown_twice << 24 | (trump + 1) << 48
    result = shown.get(key)
    if result is None:
        if len(shown) >= _BY_SHOWN_MAX:
            shown.clear()
        result = shown[key] = _meld_per_class(shown_once, shown_twice, trump, doubles,
                                              run_extra, unit)
    return result


#: (doubles, run_extra, unit) -> shown once | shown twice << 24 | (trump + 1) << 48
#: -> the per-class meld of those shown cards.
_BY_SHOWN: dict[tuple[str, str, int], dict[int, MeldResult]] = {}
_BY_SHOWN_MAX = 1 << 16


def _meld_per_class(once: int, twice: int, trump: int, doubles: str, run_extra: str,
                    unit: int) -> MeldResult:
    """The per-class meld in Python (docs/rules.md §2 card reuse 'once per class')."""
    # Per class, each class and each suit of class I depends on few bits: memoize those.
    # Groups use disjoint kinds within a class, and one physical card serves melds of
    # several classes, so the cards shown are the union (OR) of the groups' masks.
    tables = _SUIT_TABLES.get((doubles, run_extra, unit))
    if tables is None:
        tables = _SUIT_TABLES[(doubles, run_extra, unit)] = [{} for _ in range(9)]
    items: list[MeldItem] = []
    points = shown_once = shown_twice = 0
    for suit in range(4):  # class I but the dix: runs and marriages, suit by suit
        bits = (once >> 6 * suit & 63) | (twice >> 6 * suit & 63) << 6
        table = tables[suit + 4 if suit == trump else suit]
        group = table.get(bits)
        if group is None:
            group = table[bits] = _suit_items(suit, bits & 63, bits >> 6, suit == trump,
                                              doubles, run_extra, unit)
        if group[0]:
            items += group[0]
            points += group[3]
            shown_once |= group[1]
            shown_twice |= group[2]
    # The dix, class II (one of each suit, or two of each) and class III, each keyed by
    # the few bits it depends on in the ninth table.
    keys = []
    if trump >= 0 and once >> 6 * trump & 1:
        keys.append(trump * 2 + (twice >> 6 * trump & 1))
    for key, mask in _AROUND_KEYS:
        if once & mask == mask:
            keys.append(key + (twice & mask == mask))
    if once >> _QS & 1 and once >> _JD & 1:
        keys.append(16 + (twice >> _QS & 1) + 2 * (twice >> _JD & 1))
    if keys:
        others = tables[8]
        for key in keys:
            group = others.get(key)
            if group is None:
                group = others[key] = _other_items(key, doubles, unit)
            items += group[0]
            points += group[3]
            shown_once |= group[1]
            shown_twice |= group[2]
    return MeldResult(points, tuple(items), trusted_hand(shown_once, shown_twice))


def _other_items(key: int, doubles: str, unit: int) -> _Group:
    """The group of a key of :func:`meld_of_masks`' ninth table: 0-7 the dix (trump,
    twice), 8-15 arounds (rank order of ``_AROUNDS``, twice), 16-19 the pinochles."""
    if key < 8:
        return _dix_items(key // 2, 1 + key % 2, doubles, unit)
    if key < 16:
        return _around_items(_AROUNDS[(key - 8) // 2][0], 1 + key % 2, doubles, unit)
    return _pinochle_items(1, (key - 16) & 1, 1, (key - 16) >> 1, doubles, unit)


#: (doubles, run_extra, unit) -> for each suit, plain then as trump: its 12 bits -> group.
_SUIT_TABLES: dict[tuple[str, str, int], list[dict[int, _Group]]] = {}


@lru_cache(maxsize=1 << 14)
def _meld_once(once: int, twice: int, trump: int, doubles: str, unit: int) -> MeldResult:
    counts = [((once >> k) & 1) + ((twice >> k) & 1) for k in range(24)]
    items = _best_once(counts, trump, _values(doubles, unit))
    return MeldResult(sum(item.points for item in items), tuple(items),
                      _shown(items, counts, "once"))


def _group(items: list[MeldItem], counts: list[int]) -> _Group:
    """Items of one class with the masks of the cards they show and their points."""
    shown = _shown(items, counts, "per_class") if items else Hand()
    return (tuple(items), shown.once, shown.twice, sum(item.points for item in items))


def _counts_of(suit: int, once6: int, twice6: int) -> list[int]:
    counts = [0] * 24
    for rank in range(6):
        counts[suit * 6 + rank] = (once6 >> rank & 1) + (twice6 >> rank & 1)
    return counts


@cache
def _suit_items(suit: int, once6: int, twice6: int, is_trump: bool, doubles: str,
                run_extra: str, unit: int) -> _Group:
    """Class I melds of one suit: runs and marriages (dix apart)."""
    counts = _counts_of(suit, once6, twice6)
    counts[suit * 6 + Rank.NINE] = 0
    trump = suit if is_trump else -1
    items = _class_one(counts, trump, _values(doubles, unit), run_extra)
    return _group([item for item in items if item.name != "dix"], counts)


@cache
def _dix_items(trump: int, nines: int, doubles: str, unit: int) -> _Group:
    counts = [0] * 24
    counts[_card(trump, Rank.NINE)] = nines
    return _group([_item("dix", (_card(trump, Rank.NINE),), _values(doubles, unit))] * nines,
                  counts)


_AROUND_MASKS = tuple((rank, sum(1 << (s * 6 + rank) for s in range(4)))
                      for rank, _ in _AROUNDS)
_AROUND_KEYS = tuple((8 + 2 * i, mask) for i, (_, mask) in enumerate(_AROUND_MASKS))


@cache
def _around_items(rank: int, n: int, doubles: str, unit: int) -> _Group:
    counts = [0] * 24
    for suit in range(4):
        counts[suit * 6 + rank] = n
    return _group(_class_two(counts, _values(doubles, unit)), counts)


@cache
def _pinochle_items(qs1: int, qs2: int, jd1: int, jd2: int, doubles: str,
                    unit: int) -> _Group:
    counts = [0] * 24
    counts[_QS], counts[_JD] = qs1 + qs2, jd1 + jd2
    return _group(_class_three(counts, _values(doubles, unit)), counts)


def _card(suit: int, rank: int) -> Card:
    return ALL_CARDS[suit * 6 + rank]


def _item(name: str, cards: Iterable[Card], values: dict[str, int]) -> MeldItem:
    return MeldItem(name, tuple(cards), values[name])


def _doubled(name: str, cards: list[Card], values: dict[str, int]) -> list[MeldItem]:
    """A double meld: one special item, or two plain ones (docs/rules.md §2 double melds)."""
    if values[f"double {name}"] == 2 * values[name]:
        return [_item(name, cards, values), _item(name, cards, values)]
    return [_item(f"double {name}", cards + cards, values)]


def _class_one(counts: list[int], trump: int, values: dict[str, int],
               run_extra: str) -> list[MeldItem]:
    """Runs, marriages and dix (docs/rules.md §1 Meld, class I)."""
    items: list[MeldItem] = []
    for suit in range(4):
        king, queen = _card(suit, Rank.KING), _card(suit, Rank.QUEEN)
        kings, queens = counts[king], counts[queen]
        if suit != trump:
            items += [_item("common marriage", (king, queen), values)] * min(kings, queens)
            continue
        run = [_card(suit, r) for r in _RUN_RANKS]
        runs = min(counts[c] for c in run)
        if runs == 2:  # a double run, and nothing more from those ten cards
            items += _doubled("run", run, values)
        elif runs == 1:
            items.append(_item("run", run, values))
            extra_k, extra_q = kings - 1, queens - 1
            if run_extra == "marries":  # the extra card marries the run's partner
                items += [_item("royal marriage", (king, queen), values)] * (extra_k + extra_q)
            elif extra_k and extra_q:
                items.append(_item("royal marriage", (king, queen), values))
        else:
            items += [_item("royal marriage", (king, queen), values)] * min(kings, queens)
    if trump >= 0:
        nine = _card(trump, Rank.NINE)
        items += [_item("dix", (nine,), values)] * counts[nine]
    return items


def _class_two(counts: list[int], values: dict[str, int]) -> list[MeldItem]:
    """Aces, kings, queens and jacks around (docs/rules.md §1 Meld, class II)."""
    items: list[MeldItem] = []
    for rank, name in _AROUNDS:
        cards = [_card(s, rank) for s in range(4)]
        n = min(counts[c] for c in cards)
        if n == 2:
            items += _doubled(name, cards, values)
        elif n == 1:
            items.append(_item(name, cards, values))
    return items


def _class_three(counts: list[int], values: dict[str, int]) -> list[MeldItem]:
    """Pinochle and double pinochle (docs/rules.md §1 Meld, class III)."""
    n = min(counts[_QS], counts[_JD])
    if n == 2:
        return _doubled("pinochle", [_QS, _JD], values)
    return [_item("pinochle", (_QS, _JD), values)] if n else []


def _best_once(counts: list[int], trump: int, values: dict[str, int]) -> list[MeldItem]:
    """Each card in at most one meld: try every count of runs, arounds and pinochles,
    then marry what is left (docs/rules.md §2 card reuse 'once in all', seeds 001, 002)."""
    best: list[MeldItem] = []
    best_points = -1
    run = [_card(trump, r) for r in _RUN_RANKS] if trump >= 0 else []
    arounds = [[_card(s, rank) for s in range(4)] for rank, _ in _AROUNDS]
    groups: list[tuple[str, list[Card]]] = []
    if run:
        groups.append(("run", run))
    groups += [(name, cards) for (_, name), cards in zip(_AROUNDS, arounds, strict=True)]
    groups.append(("pinochle", [_QS, _JD]))
    limits = [range(min(counts[c] for c in cards) + 1) for _, cards in groups]
    for choice in itertools.product(*limits):
        left = counts[:]
        ok = True
        for n, (_, cards) in zip(choice, groups, strict=True):
            for c in cards:
                left[c] -= n
                ok = ok and left[c] >= 0
        if not ok:
            continue
        items: list[MeldItem] = []
        for n, (name, cards) in zip(choice, groups, strict=True):
            if n == 2:
                items += _doubled(name, list(cards), values)
            elif n == 1:
                items.append(_item(name, cards, values))
        items += _class_one(left, trump, values, "nothing") if not run else []
        if run:
            for suit in range(4):
                king, queen = _card(suit, Rank.KING), _card(suit, Rank.QUEEN)
                name = "royal marriage" if suit == trump else "common marriage"
                items += [_item(name, (king, queen), values)] * min(left[king], left[queen])
            nine = _card(trump, Rank.NINE)
            items += [_item("dix", (nine,), values)] * left[nine]
        points = sum(item.points for item in items)
        if points > best_points:
            best, best_points = items, points
    return _in_class_order(best)


_ORDER = ("double run", "run", "royal marriage", "common marriage", "dix",
          "double aces around", "aces around", "double kings around", "kings around",
          "double queens around", "queens around", "double jacks around", "jacks around",
          "double pinochle", "pinochle")


def _in_class_order(items: list[MeldItem]) -> list[MeldItem]:
    return sorted(items, key=lambda item: _ORDER.index(item.name))


def _shown(items: list[MeldItem], counts: list[int], reuse: str) -> Hand:
    """The cards laid on the table: within a class each card shows once per meld,
    across classes one physical card serves several melds."""
    need = [0] * 24
    classes: dict[int, list[int]] = {}
    for item in items:
        klass = 1 if "around" in item.name else 2 if "pinochle" in item.name else 0
        per = classes.setdefault(klass if reuse == "per_class" else 0, [0] * 24)
        for c in item.cards:
            per[c] += 1
    for per in classes.values():
        for k in range(24):
            need[k] = max(need[k], min(per[k], counts[k]))
    if reuse == "once":
        need = [min(n, counts[k]) for k, n in enumerate(need)]
    return Hand.from_cards(k for k in range(24) for _ in range(need[k]))
