"""Three-handed play "perft" (STYLE.md, tests 3; docs/rules.md §3 "15 tricks; same play rules").

From the first lead of fixed three-handed deals (auction, widow, trump and
discards set up through the real ``Game``), count the sequences of legal plays
of every depth 1..N, per play option, and compare with the files
``tests/perft/three_<option>.txt``. The expected counts come from the slow
reference legal-play function of ``tests/test_perft.py`` (written from the text
of docs/rules.md §1 Play and §2), played here with three seats in turn, never from
the engine. To regenerate (nothing is written if engine and reference disagree)::

    PYTHONPATH=src python tests/test_three_perft.py [--depth 6]
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from test_perft import OPTIONS, RefRules, ref_legal, ref_rules, ref_winner

from pinochlekit import Game, Hand, Phase, Play, Rules, parse_action

PERFT_DIR = Path(__file__).parent / "perft"
DEPTH = 6


@dataclass(frozen=True)
class Position:
    """A fixed three-handed deal (dealer 0) and what happens before the first lead."""

    hands: tuple[str, str, str]
    auction: tuple[str, ...]
    declarer: int
    trump: str
    discard: str = ""  # widow taken: the declarer's discards ("": the widow stays out)


POSITIONS: dict[str, Position] = {
    # A shuffled deal (seed 2024); the widow (TS AH TC) stays out. Seat 2 outbids seat 1.
    "three1": Position(
        ("AS TS QS JS 9S TH KH JH 9H AD TD JD KC QC 9C",
         "KS QS JS AH KH QH 9H KD QD JD 9D TC KC JC JC",
         "AS KS 9S TH QH JH AD TD KD QD 9D AC AC QC 9C"),
        ("bid 250", "bid 260", "pass", "pass"), 2, "S"),
    # Voids made to order, widow (9S 9H 9D) taken: seat 1 has no diamonds, seat 0
    # one heart left in play; hearts are trump, the declarer discards three nines.
    "three2": Position(
        ("AS TS KS QS JS AH AD AC KH QH TD TD KC QC JC",
         "AS TS KS QS JS 9S AH TH TH KH QH JH JH 9C 9C",
         "AD KD KD QD QD JD JD 9D AC TC TC KC QC JC 9H"),
        ("pass", "bid 250", "pass"), 2, "H", discard="9S 9D 9H"),
}


def rules_for(option: str, position: Position) -> Rules:
    widow = "take" if position.discard else "out"
    return Rules.preset("three").replace(widow=widow, **OPTIONS[option])


def engine_start(option: str, name: str) -> Game:
    position = POSITIONS[name]
    hands = [Hand.parse(h) for h in position.hands]
    game = Game.new(rules_for(option, position), seed=0, dealer=0, deals=[hands])
    texts = [*position.auction, f"trump {position.trump}"]
    if position.discard:
        texts.append(f"discard {position.discard}")
    for text in texts:
        game.apply(parse_action(text))
    assert game.phase is Phase.PLAY and game.declarer == position.declarer
    return game


def engine_perft(game: Game, depth: int) -> list[int]:
    counts = [0] * depth

    def walk(node: Game, ply: int) -> None:
        plays = [a for a in node.legal_actions() if isinstance(a, Play)]
        counts[ply] += len(plays)
        if ply + 1 < depth:
            for play in plays:
                child = node.copy()
                child.apply(play)
                walk(child, ply + 1)

    walk(game, 0)
    return counts


# -- the reference, three seats ------------------------------------------------------

DECK = [r + s for s in "SHDC" for r in "AKQJT9" for _ in range(2)]


@dataclass
class RefState:
    hands: list[list[str]]
    trump: str
    to_act: int
    trick: list[tuple[int, str]]
    tricks_done: int


def ref_start(name: str) -> RefState:
    """The first lead from the position's text: docs/rules.md §3, the widow is what the
    three hands do not hold; taken, it joins the declarer's hand before the discards."""
    position = POSITIONS[name]
    hands = [h.split() for h in position.hands]
    if position.discard:
        widow = list(DECK)
        for hand in hands:
            for card in hand:
                widow.remove(card)
        hands[position.declarer] += widow
        for card in position.discard.split():
            hands[position.declarer].remove(card)
    return RefState(hands, position.trump, position.declarer, [], 0)


def ref_play(state: RefState, card: str) -> RefState:
    hands = [list(h) for h in state.hands]
    hands[state.to_act].remove(card)
    trick = [*state.trick, (state.to_act, card)]
    if len(trick) < 3:  # docs/rules.md §3: three players, play to the left
        return RefState(hands, state.trump, (state.to_act + 1) % 3, trick, state.tricks_done)
    winner = trick[ref_winner([c for _, c in trick], state.trump)][0]
    return RefState(hands, state.trump, winner, [], state.tricks_done + 1)


def ref_perft(state: RefState, rules: RefRules, depth: int) -> list[int]:
    counts = [0] * depth

    def walk(node: RefState, ply: int) -> None:
        moves = ref_legal(node.hands[node.to_act], [c for _, c in node.trick], node.trump,
                          rules, node.tricks_done == 0 and not node.trick)
        counts[ply] += len(moves)
        if ply + 1 < depth:
            for card in moves:
                walk(ref_play(node, card), ply + 1)

    walk(state, 0)
    return counts


# -- files and tests -----------------------------------------------------------------


def read_counts(option: str) -> dict[str, list[int]]:
    counts: dict[str, list[int]] = {}
    for line in (PERFT_DIR / f"three_{option}.txt").read_text().splitlines():
        words = line.split("#")[0].split()
        if not words:
            continue
        name, word, depth, count = words
        assert word == "depth" and int(depth) == len(counts.setdefault(name, [])) + 1, line
        counts[name].append(int(count))
    return counts


CASES = [(option, name) for option in OPTIONS for name in POSITIONS]


@pytest.mark.parametrize(("option", "name"), CASES, ids=[f"{o}-{n}" for o, n in CASES])
def test_three_perft_matches_file(option: str, name: str) -> None:
    expected = read_counts(option)[name]
    got = engine_perft(engine_start(option, name), len(expected))
    assert got == expected, f"perft three {option} {name}: engine {got}, file {expected}"


@pytest.mark.parametrize(("option", "name"), CASES, ids=[f"{o}-{n}" for o, n in CASES])
def test_three_reference_agrees_at_shallow_depth(option: str, name: str) -> None:
    engine = engine_perft(engine_start(option, name), 4)
    assert engine == ref_perft(ref_start(name), ref_rules(option), 4)


def test_three_options_make_a_difference() -> None:
    base = read_counts("always")
    assert sum(read_counts(o) != base for o in OPTIONS if o != "always") >= 4


def regenerate(depth: int) -> bool:
    results: dict[str, dict[str, list[int]]] = {}
    for option in OPTIONS:
        results[option] = {}
        for name in POSITIONS:
            ref = ref_perft(ref_start(name), ref_rules(option), depth)
            engine = engine_perft(engine_start(option, name), depth)
            print(f"{option:18} {name}: {ref}")
            if ref != engine:
                print(f"  engine disagrees: {engine}; nothing written")
                return False
            results[option][name] = ref
    for option, counts in results.items():
        fields = ", ".join(f"{k}={v!r}" for k, v in OPTIONS[option].items())
        lines = ["# Three-handed legal card sequences from the first lead "
                 "(tests/test_three_perft.py).",
                 f"# Options: {fields}. Generated by the reference ref_legal.",
                 "# Regenerate: PYTHONPATH=src python tests/test_three_perft.py"]
        for name, per_depth in counts.items():
            lines += [f"{name} depth {d} {n}" for d, n in enumerate(per_depth, 1)]
        (PERFT_DIR / f"three_{option}.txt").write_text("\n".join(lines) + "\n")
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="regenerate the three-handed perft files")
    parser.add_argument("--depth", type=int, default=DEPTH)
    args = parser.parse_args(argv)
    return 0 if regenerate(args.depth) else 1


if __name__ == "__main__":
    sys.exit(main())
