"""Double-deck "perft" (STYLE.md, tests 3; docs/rules.md §6): counts of legal card sequences.

From the first lead of fixed double-deck deals (auction and trump set up through
the real game), count the sequences of legal plays of every depth 1..N under
each play option of docs/rules.md §2.1 (the ones §6 says apply). The expected
counts live in ``tests/perft/double.txt`` as lines ``deal option depth d count``.

They come from ``ref_legal`` and ``ref_winner`` of ``test_perft`` (a legal-play
function written from the sentences of docs/rules.md §1.9 and §2.1 on plain card
strings; nothing in it assumes two copies of a card), never from the engine.
Regenerate (the reference is checked against the engine first, nothing is
written if they disagree)::

    PYTHONPATH=src:tests python tests/test_double_perft.py
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from test_perft import OPTIONS, ref_legal, ref_rules, ref_winner

from pinochlekit import Bid, Card, Pass, Phase, Play, Rules, parse_action
from pinochlekit.engine.double.game import DoubleDeckGame

FILE = Path(__file__).parent / "perft" / "double.txt"
DEPTH = 7
PLAY_OPTIONS = ["always", "trump_led", "following", "tft_always", "tft_trump_led", "tft_following",
                "first_lead_trump"]
#: Deal name → (seed of the deal, dealer, auction and trump actions).
DEALS: dict[str, tuple[int, int, tuple[str, ...]]] = {
    "seed1": (1, 0, ("bid 50", "pass", "pass", "pass", "trump S")),
    "seed2": (2, 3, ("pass", "bid 60", "pass", "pass", "trump D")),
}


def start(deal: str, option: str) -> DoubleDeckGame:
    seed, dealer, actions = DEALS[deal]
    rules = Rules.preset("doubledeck").replace(**OPTIONS[option])
    game = DoubleDeckGame.new(rules, seed=seed, dealer=dealer)
    for text in actions:
        game.apply(parse_action(text))
    assert game.phase is Phase.PLAY
    return game


def engine_perft(game: DoubleDeckGame, depth: int) -> int:
    if depth == 0:
        return 1
    legal = game.legal_actions()
    if depth == 1:
        return len(legal)
    total = 0
    for action in legal:
        child = game.copy()
        child.apply(action)
        total += engine_perft(child, depth - 1)
    return total


def ref_perft(hands: list[list[str]], to_act: int, trick: list[tuple[int, str]], trump: str,
              option: str, first: bool, depth: int) -> int:
    """The same count on card strings, by the reference's rules."""
    if depth == 0:
        return 1
    rules = ref_rules(option)
    cards = [c for _, c in trick]
    legal = ref_legal(hands[to_act], cards, trump, rules, first and not trick)
    if depth == 1:
        return len(legal)
    total = 0
    for card in legal:
        hand = list(hands[to_act])
        hand.remove(card)
        new_hands = [hand if s == to_act else hands[s] for s in range(4)]
        new_trick = [*trick, (to_act, card)]
        if len(new_trick) == 4:
            winner = new_trick[ref_winner([c for _, c in new_trick], trump)][0]
            total += ref_perft(new_hands, winner, [], trump, option, False, depth - 1)
        else:
            total += ref_perft(new_hands, (to_act + 1) % 4, new_trick, trump, option, first,
                               depth - 1)
    return total


def reference(deal: str, option: str, depth: int) -> int:
    game = start(deal, option)
    assert game.trump is not None and game.to_act is not None
    hands = [[str(c) for c in game.hand(s)] for s in range(4)]
    return ref_perft(hands, game.to_act, [], "SHDC"[game.trump], option, True, depth)


def load() -> dict[tuple[str, str, int], int]:
    out = {}
    for line in FILE.read_text().splitlines():
        if line and not line.startswith("#"):
            deal, option, _, depth, count = line.split()
            out[(deal, option, int(depth))] = int(count)
    return out


CASES = [(d, o) for d in DEALS for o in PLAY_OPTIONS]


@pytest.mark.parametrize(("deal", "option"), CASES, ids=[f"§6-{d}-{o}" for d, o in CASES])
def test_perft_counts(deal: str, option: str) -> None:
    expected = load()
    game = start(deal, option)
    for depth in range(1, DEPTH + 1):
        assert engine_perft(game, depth) == expected[(deal, option, depth)], (deal, option,
                                                                              depth)


def test_reference_agrees_at_shallow_depth() -> None:
    """Keeps the reference exercised: engine and reference agree to depth 4 here."""
    for deal, option in CASES:
        assert engine_perft(start(deal, option), 4) == reference(deal, option, 4)


def test_the_first_lead_is_the_declarers() -> None:
    game = start("seed1", "always")
    assert game.to_act == 1 and all(isinstance(a, Play) for a in game.legal_actions())



@pytest.mark.parametrize("option", PLAY_OPTIONS)
def test_every_play_of_whole_hands_agrees_with_the_reference(option: str) -> None:
    """The perft counts reach the first tricks only; here every position of whole random
    hands (to the twentieth trick, with the 4-card passing, so hands hold up to four
    copies and lose them one by one) is checked: the engine's legal cards are exactly
    ``ref_legal``'s (docs/rules.md §6 Play, the options of §2.1)."""
    rules = Rules.from_string("doubledeck(cards_passed=4)").replace(**OPTIONS[option])
    ref = ref_rules(option)
    rng = random.Random(option)
    checked = 0
    for seed in range(3):
        game = DoubleDeckGame.new(rules, seed=f"{option}-{seed}", dealer=seed % 4)
        game.apply(Bid(50))
        for _ in range(3):
            game.apply(Pass())
        for action in ("trump " + "SHDC"[seed], None, None):
            game.apply(parse_action(action) if action else rng.choice(game.legal_actions()))
        while game.phase is Phase.PLAY and game.hand_number == 1:
            seat = game.to_act
            assert seat is not None and game.trump is not None
            hand = [str(c) for c in game.hand(seat)]
            trick = [str(Card(c)) for c in game.trick]
            expected = sorted(ref_legal(hand, trick, game.trump.letter, ref, not game.tricks))
            legal = game.legal_actions()
            assert sorted(str(a.card) for a in legal if isinstance(a, Play)) == expected
            game.apply(rng.choice(legal))
            checked += 1
    assert checked == 3 * 80

def main() -> int:
    lines = ["# Legal card sequences from the first lead (tests/test_double_perft.py).",
             "# Generated by the reference ref_legal of tests/test_perft.py.",
             "# Regenerate: PYTHONPATH=src:tests python tests/test_double_perft.py"]
    for deal, option in CASES:
        for depth in range(1, DEPTH + 1):
            count = reference(deal, option, depth)
            engine = engine_perft(start(deal, option), depth)
            if count != engine:
                print(f"{deal} {option} depth {depth}: reference {count}, engine {engine}")
                return 1
            lines.append(f"{deal} {option} depth {depth} {count}")
    FILE.write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
