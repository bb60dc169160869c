"""Two-handed "perft" (STYLE.md, tests 3; docs/rules.md §4): counts of legal action sequences.

From fixed positions of the two-handed game, count the sequences of legal
actions (plays, melds, ``dix``, ``no meld``) of every depth 1..N. The expected
counts live in ``tests/perft/two.txt`` as lines ``start depth 4 123456``. On a
mismatch the test prints the per-first-action breakdown, engine next to
reference.

The counts come from a slow reference written from the sentences of docs/rules.md
§4 (hands as lists of card strings, the table as (card, classes used) pairs),
never from the engine; the last tricks use ``ref_legal`` of ``test_perft``.
Positions inside a hand are set up through the real game and then copied card
by card into the reference. Regenerate (the reference is checked against the
engine first, nothing is written if they disagree)::

    PYTHONPATH=src:tests python tests/test_two_perft.py
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest
from test_perft import RefRules, ref_legal, ref_winner

from pinochlekit import Hand, TwoHandedGame, TwoStage, parse_cards, parse_two_action

FILE = Path(__file__).parent / "perft" / "two.txt"
OLD_RULES = RefRules("always", False, "any")
SUITS, RANKS = "SHDC", "9JQKTA"

S0 = "KS QS KH KD KC QH QD QC JD 9C 9D TH"
S1 = "9S 9H JH JS JC AD TD AC TC AH TS JD"
REST = "AS TS KS QS JS 9S AH TH KH QH JH 9H AD TD KD QD 9D AC TC KC QC JC 9C AS"

#: Position name → (how it is reached from the worked deal or a seed, perft depth).
STARTS: dict[str, tuple[str, tuple[str, ...], int]] = {
    "worked": ("worked", (), 5),
    "seed7": ("seed7", (), 5),
    "table": ("worked", ("play 9H", "play TH", "meld KS KH KD KC", "play 9C", "play JH",
                         "meld KH QH", "play 9D", "play TD"), 5),
}


def engine_start(name: str, rules: str = "two") -> TwoHandedGame:
    source, actions, _ = STARTS[name]
    if source == "worked":
        deal = (Hand.parse(S0), Hand.parse(S1), tuple(parse_cards(REST)))
        game = TwoHandedGame.new(rules, seed=0, dealer=0, deals=[deal])
    else:
        game = TwoHandedGame.new("two", seed=7, dealer=1)
    for text in actions:
        game.apply(parse_two_action(text))
    return game


def late_start(rules: str = "two") -> TwoHandedGame:
    """The worked deal played to the last tricks (lowest card each, no meld)."""
    game = engine_start("worked", rules)
    while game.stage is not TwoStage.LATE:
        actions = game.legal_actions()
        game.apply(actions[-1] if game.stage is TwoStage.MELD else actions[0])
    return game


# -- the reference -----------------------------------------------------------------------


@dataclass
class Ref:
    trump: str
    hidden: list[list[str]]
    table: list[list[tuple[str, frozenset[str]]]]
    stock: list[str]  # drawing order, the turned-up card last
    turn_up: str | None
    stage: str  # "early", "meld" or "late"
    to_act: int
    trick: list[tuple[int, str]] = field(default_factory=list)
    dix_done: bool = False
    rules: RefRules = OLD_RULES


def ref_from_engine(game: TwoHandedGame) -> Ref:
    classes = {1: "I", 2: "II", 4: "III"}
    table = [[(str(t.card), frozenset(v for b, v in classes.items() if t.classes & b))
              for t in game.table(s)] for s in (0, 1)]
    stock = [str(c) for c in game._stock[game._next:]]
    if game.turn_up is not None:
        stock.append(str(game.turn_up))
    stage = {TwoStage.EARLY: "early", TwoStage.MELD: "meld", TwoStage.LATE: "late"}[game.stage]
    assert game.to_act is not None and not game.trick
    return Ref(SUITS[game.trump], [[str(c) for c in game.hidden(s)] for s in (0, 1)], table,
               stock, None if game.turn_up is None else str(game.turn_up), stage, game.to_act,
               rules=RefRules(game.rules.must_beat, False, "any"))


def melds_of(trump: str) -> list[tuple[str, list[str]]]:
    """The two-handed meld table (docs/rules.md §1 Meld), one combination at a time."""
    table = [("I", [r + trump for r in "ATKQJ"])]
    table += [("I", ["K" + s, "Q" + s]) for s in SUITS]
    table += [("II", [r + s for s in SUITS]) for r in "AKQJ"]
    return [*table, ("III", ["QS", "JD"])]


def text(cards: list[str]) -> str:
    return " ".join(sorted(cards, key=lambda c: (SUITS.index(c[1]), -RANKS.index(c[0]))))


def ref_moves(state: Ref) -> list[str]:
    seat = state.to_act
    hidden, table = state.hidden[seat], state.table[seat]
    if state.stage == "meld":
        moves = []
        for klass, cards in melds_of(state.trump):
            # "at least one card of it from the hand; a card already melded may be
            # used again only in a meld of a different class"
            usable = all(c in hidden or any(t == c and klass not in used for t, used in table)
                         for c in cards)
            if usable and any(c in hidden for c in cards):
                moves.append("meld " + text(cards))
        if "9" + state.trump in hidden and not state.dix_done:
            moves.append("dix")
        return [*moves, "no meld"]
    cards = sorted(set(hidden + [t for t, _ in table]))
    if state.stage == "late" and state.trick:
        cards = ref_legal(cards, [state.trick[0][1]], state.trump, state.rules, False)
    return ["play " + c for c in cards]


def ref_apply(state: Ref, move: str) -> Ref:
    new = replace(state, hidden=[list(h) for h in state.hidden],
                  table=[list(t) for t in state.table], stock=list(state.stock),
                  trick=list(state.trick))
    seat = new.to_act
    hidden, table = new.hidden[seat], new.table[seat]
    if move.startswith("play "):
        card = move[5:]
        from_table = [i for i, (t, _) in enumerate(table) if t == card]
        if from_table:  # the table copy first, the most used one
            del table[max(from_table, key=lambda i: (len(table[i][1]), -i))]
        else:
            hidden.remove(card)
        new.trick.append((seat, card))
        if len(new.trick) == 1:
            new.to_act = 1 - seat
            return new
        winner = new.trick[ref_winner([c for _, c in new.trick], new.trump)][0]
        new.trick, new.to_act = [], winner
        new.stage = "meld" if new.stage == "early" else "late"
        return new
    if move == "dix":
        nine = "9" + new.trump
        hidden.remove(nine)
        if new.turn_up is not None and new.turn_up != nine:  # exchange for the turned-up card
            hidden.append(new.turn_up)
            new.stock[-1] = nine
            new.turn_up = nine
        else:
            table.append((nine, frozenset({"I"})))
        new.dix_done = True
        return new
    if move.startswith("meld "):
        cards = move[5:].split()
        klass = next(k for k, cs in melds_of(new.trump) if text(cs) == text(cards))
        use_table = [any(t == c and klass not in used for t, used in table) for c in cards]
        if all(use_table):
            use_table[next(i for i, c in enumerate(cards) if c in hidden)] = False
        for card, on_table in zip(cards, use_table, strict=True):
            if on_table:
                i = next(i for i, (t, used) in enumerate(table) if t == card and klass not in used)
                table[i] = (card, table[i][1] | {klass})
            else:
                hidden.remove(card)
                table.append((card, frozenset({klass})))
    # "then draws first; the loser draws second; the last card drawn is the turned-up trump"
    new.hidden[seat].append(new.stock.pop(0))
    new.hidden[1 - seat].append(new.stock.pop(0))
    if not new.stock:
        new.turn_up = None
        for s in (0, 1):
            new.hidden[s] += [t for t, _ in new.table[s]]
            new.table[s] = []
    new.stage = "early" if new.stock else "late"
    new.dix_done = False
    return new


# -- counting ----------------------------------------------------------------------------


def ref_perft(state: Ref, depth: int) -> list[int]:
    counts = [0] * depth

    def walk(node: Ref, ply: int) -> None:
        for move in ref_moves(node):
            counts[ply] += 1
            if ply + 1 < depth:
                walk(ref_apply(node, move), ply + 1)

    walk(state, 0)
    return counts


def engine_perft(game: TwoHandedGame, depth: int) -> list[int]:
    counts = [0] * depth

    def walk(node: TwoHandedGame, ply: int) -> None:
        for action in node.legal_actions():
            counts[ply] += 1
            if ply + 1 < depth:
                child = node.copy()
                child.apply(action)
                walk(child, ply + 1)

    walk(game, 0)
    return counts


def positions() -> dict[str, tuple[TwoHandedGame, int]]:
    out = {name: (engine_start(name), depth) for name, (_, _, depth) in STARTS.items()}
    out["late"] = (late_start(), 8)
    out["late_trump_led"] = (late_start("two(must_beat=trump_led)"), 8)
    out["late_following"] = (late_start("two(must_beat=following)"), 8)
    return out


def read_counts() -> dict[str, list[int]]:
    counts: dict[str, list[int]] = {}
    for line in FILE.read_text().splitlines():
        words = line.split("#")[0].split()
        if words:
            name, word, depth, count = words
            assert word == "depth" and int(depth) == len(counts.setdefault(name, [])) + 1
            counts[name].append(int(count))
    return counts


def breakdown(game: TwoHandedGame, depth: int) -> str:
    lines = []
    for action in game.legal_actions():
        child = game.copy()
        child.apply(action)
        ref = ref_apply(ref_from_engine(game), str(action))
        engine = engine_perft(child, depth - 1)[-1] if depth > 1 else 1
        reference = ref_perft(ref, depth - 1)[-1] if depth > 1 else 1
        lines.append(f"{action}: engine {engine}, reference {reference}")
    return "\n".join(lines)


LATE = ["late", "late_trump_led", "late_following"]


@pytest.mark.parametrize("name", [*STARTS, *LATE])
def test_two_perft_matches_file(name: str) -> None:
    game, depth = positions()[name]
    expected = read_counts()[name]
    got = engine_perft(game, min(depth, len(expected)))
    assert got == expected[:len(got)], breakdown(game, len(got))


@pytest.mark.parametrize("name", [*STARTS, *LATE])
def test_reference_agrees_with_the_engine_move_by_move(name: str) -> None:
    game, _ = positions()[name]
    state = ref_from_engine(game)
    for _ in range(40):  # follow one line, comparing every move list on the way
        moves = ref_moves(state)
        assert sorted(str(a) for a in game.legal_actions()) == sorted(moves)
        if not moves:
            break
        pick = moves[len(game.actions) % len(moves)]
        game.apply(parse_two_action(pick))
        if game.results:
            break
        state = ref_apply(state, pick)


def main() -> int:
    lines = ["# Legal action sequences of the two-handed game (tests/test_two_perft.py).",
             "# Generated by the reference; regenerate: PYTHONPATH=src:tests python "
             "tests/test_two_perft.py"]
    for name, (game, depth) in positions().items():
        ref = ref_perft(ref_from_engine(game), depth)
        engine = engine_perft(game, depth)
        if ref != engine:
            print(f"{name}: reference {ref} engine {engine}\n{breakdown(game, depth)}")
            return 1
        lines += [f"{name} depth {d} {n}" for d, n in enumerate(ref, 1)]
        print(name, ref)
    FILE.write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
