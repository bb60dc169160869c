"""Play "perft" (STYLE.md, tests 3): counts of legal card sequences from fixed deals.

From the first lead of a few fixed deals (hands, auction, trump and passing set
up through the real ``Game``), count the sequences of legal plays of every
depth 1..N, per play option of docs/rules.md §2: each ``must_beat`` value, with and
without ``trump_follows_trump``, and ``first_lead="trump"``. The expected
counts live in ``tests/perft/<option>.txt`` as lines ``deal1 depth 6 123456``.
On a mismatch the test prints a per-first-card breakdown (as python-chess perft
does), the engine's next to the reference's.

The expected numbers come from :func:`ref_legal`, a slow legal-play function
written from the text of docs/rules.md §1 Play and §2 (plain lists of card strings,
one ``if`` per sentence of the rules), never from the engine. To regenerate the
files (the reference is checked against the engine first, and nothing is
written if they disagree)::

    PYTHONPATH=src python tests/test_perft.py            # depth 8
    PYTHONPATH=src python tests/test_perft.py --depth 9

A quick comparison of engine and reference at shallow depth also runs as a test,
so the reference itself stays exercised.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from pinochlekit import Game, Hand, Phase, Play, Rules, parse_action

PERFT_DIR = Path(__file__).parent / "perft"
DEPTH = 8


# -- the positions ---------------------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """A fixed deal (dealer 0) and what happens before the first lead."""

    hands: tuple[str, str, str, str]
    auction: tuple[str, ...]
    declarer: int
    trump: str
    give: str = ""  # cards the declarer's partner passes ("": no passing)
    ret: str = ""  # cards the declarer passes back


POSITIONS: dict[str, Position] = {
    # A shuffled deal; seat 1 opens, everyone passes, diamonds are trump.
    "deal1": Position(
        ("AS JS 9S KH JH 9H 9H AD KD AC KC QC", "TS TS QS QH AD TD TD QD 9D 9D JC 9C",
         "KS KS QS JS 9S JH QD TC TC KC QC JC", "AS AH AH TH TH KH QH KD JD JD AC 9C"),
        ("bid 250", "pass", "pass", "pass"), 1, "D"),
    # Voids made to order: seat 0 has no clubs, seats 2 and 3 no hearts (seat 3 no
    # diamonds either); spades are trump. Hearts led by the declarer (seat 1) are
    # trumped by seat 2, over-trumped (or not) by seat 3, and seat 0 holds both
    # hearts and spades: every must-beat and trump-follows-trump case comes up.
    "deal2": Position(
        ("TS QS AH AH TH KH QH 9H AD TD KD KD", "AS KS JS TH KH QH JH JH 9H 9D TC TC",
         "TS QS 9S AD TD QD QD JD JD 9D QC 9C", "AS KS JS 9S AC AC KC KC QC JC JC 9C"),
        ("bid 250", "bid 260", "pass", "pass", "bid 270", "pass"), 1, "S"),
    # With passing: seat 2 declares in spades, partner (seat 0) gives four cards,
    # the declarer returns four, two of them just received.
    "deal3": Position(
        ("AS JS TH KH 9H TD KD QD JD 9D TC QC", "KS 9S JH 9H AD TD QD JD AC KC QC 9C",
         "TS TS KS QS 9S AH TH KH QH AC JC JC", "AS QS JS AH QH JH AD KD 9D TC KC 9C"),
        ("pass", "bid 250", "pass", "pass"), 2, "S", give="AS JS TH KH",
        ret="TH KH JC JC"),
}

#: Option file name -> the rules fields it sets (docs/rules.md §2 must beat, first lead,
#: trump follows trump).
OPTIONS: dict[str, dict[str, object]] = {
    "always": {"must_beat": "always"},
    "trump_led": {"must_beat": "trump_led"},
    "following": {"must_beat": "following"},
    "tft_always": {"must_beat": "always", "trump_follows_trump": True},
    "tft_trump_led": {"must_beat": "trump_led", "trump_follows_trump": True},
    "tft_following": {"must_beat": "following", "trump_follows_trump": True},
    "first_lead_trump": {"must_beat": "always", "first_lead": "trump"},
}


def rules_for(option: str, position: Position) -> Rules:
    return Rules(cards_passed=4 if position.give else 0).replace(**OPTIONS[option])


# -- the engine --------------------------------------------------------------------------


def engine_start(option: str, name: str) -> Game:
    """The real game at the first lead of ``name`` under ``option``."""
    position = POSITIONS[name]
    hands = [Hand.parse(h) for h in position.hands]
    game = Game.new(rules_for(option, position), seed=0, dealer=0, deals=[hands])
    texts = [*position.auction, f"trump {position.trump}"]
    if position.give:
        texts += [f"give {position.give}", f"return {position.ret}"]
    for text in texts:
        game.apply(parse_action(text))
    assert game.phase is Phase.PLAY and game.declarer == position.declarer
    assert game.to_act == position.declarer
    return game


def engine_moves(game: Game) -> list[str]:
    return [str(a.card) for a in game.legal_actions() if isinstance(a, Play)]


def engine_perft(game: Game, depth: int) -> list[int]:
    """Counts of legal card sequences of each length 1..depth, through the Game API."""
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


def engine_breakdown(game: Game, depth: int) -> dict[str, int]:
    """For each first card, the count of sequences of ``depth`` cards starting with it."""
    out: dict[str, int] = {}
    for play in [a for a in game.legal_actions() if isinstance(a, Play)]:
        child = game.copy()
        child.apply(play)
        out[str(play.card)] = 1 if depth == 1 else engine_perft(child, depth - 1)[-1]
    return out


# -- the reference: docs/rules.md §1 Play and §2, on lists of card strings --------------------

RANKS = "9JQKTA"  # lowest first (docs/rules.md §1 Deck and order: A 10 K Q J 9)


@dataclass(frozen=True)
class RefRules:
    """The three play options of docs/rules.md §2 the reference knows about."""

    must_beat: str
    trump_follows_trump: bool
    first_lead: str


def ref_rules(option: str) -> RefRules:
    fields = OPTIONS[option]
    return RefRules(str(fields.get("must_beat", "always")),
                    bool(fields.get("trump_follows_trump", False)),
                    str(fields.get("first_lead", "any")))


def ref_winner(trick: list[str], trump: str) -> int:
    """"The trick goes to the highest trump, else the highest card of the suit led";
    "of two identical cards in one trick, the one played first wins"."""
    trumps = [i for i, card in enumerate(trick) if card[1] == trump]
    candidates = trumps if trumps else [i for i, card in enumerate(trick)
                                        if card[1] == trick[0][1]]
    best = candidates[0]
    for i in candidates[1:]:
        if RANKS.index(trick[i][0]) > RANKS.index(trick[best][0]):  # strictly higher only
            best = i
    return best


def ref_legal(hand: list[str], trick: list[str], trump: str, rules: RefRules,
              first_lead_of_hand: bool) -> list[str]:
    """The distinct cards of ``hand`` that may be played onto ``trick``."""
    cards = sorted(set(hand))
    if not trick:
        # §2 first lead: "must be trump if held".
        if first_lead_of_hand and rules.first_lead == "trump":
            trumps = [c for c in cards if c[1] == trump]
            if trumps:
                return trumps
        return cards
    led = trick[0][1]
    winning = trick[ref_winner(trick, trump)]
    trump_led = led == trump
    trumped = (not trump_led) and winning[1] == trump
    of_led = [c for c in cards if c[1] == led]
    trumps = [c for c in cards if c[1] == trump]

    def beating(options: list[str]) -> list[str]:
        # "A card beats another only if strictly higher" (same suit: the winning card
        # is the highest trump if there is one, else the highest of the suit led).
        return [c for c in options
                if c[1] == winning[1] and RANKS.index(c[0]) > RANKS.index(winning[0])]

    # The must-beat option (§2): 'always' beats whenever possible, over-trumping
    # included; 'trump_led' beats only when trump was led; 'following' beats when
    # following suit, with no need to over-trump when trump was not led.
    beat_when_following = rules.must_beat in ("always", "following") or (
        rules.must_beat == "trump_led" and trump_led)
    over_trump = rules.must_beat == "always"

    # §2 trump follows trump: once a trump is played to a non-trump lead, a later
    # player holding a trump must play one, even holding the led suit.
    if rules.trump_follows_trump and trumped and len(trumps) > 0:
        if over_trump and len(beating(trumps)) > 0:
            return beating(trumps)
        return trumps
    # Rule 1: holding the suit led, follow suit and beat the winning card if you can;
    # if a non-trump lead has already been trumped, any card of the suit led.
    if len(of_led) > 0:
        if trumped:
            return of_led
        if beat_when_following and len(beating(of_led)) > 0:
            return beating(of_led)
        return of_led
    # Rule 2: void in the suit led, play a trump; beat the highest trump if required.
    if len(trumps) > 0:
        if trumped and over_trump and len(beating(trumps)) > 0:
            return beating(trumps)
        return trumps
    # Rule 3: void in the suit led and in trump, any card.
    return cards


@dataclass
class RefState:
    """Hands (lists of card strings), the trick so far as (seat, card), who acts."""

    hands: list[list[str]]
    trump: str
    to_act: int
    trick: list[tuple[int, str]]
    tricks_done: int


def ref_start(name: str) -> RefState:
    """The first lead of ``name``, from the position's text alone (docs/rules.md §1 Passing)."""
    position = POSITIONS[name]
    hands = [h.split() for h in position.hands]
    if position.give:
        declarer, partner = position.declarer, (position.declarer + 2) % 4
        for card in position.give.split():
            hands[partner].remove(card)
            hands[declarer].append(card)
        for card in position.ret.split():
            hands[declarer].remove(card)
            hands[partner].append(card)
    return RefState(hands, position.trump, position.declarer, [], 0)


def ref_moves(state: RefState, rules: RefRules) -> list[str]:
    return ref_legal(state.hands[state.to_act], [c for _, c in state.trick], state.trump,
                     rules, state.tricks_done == 0 and not state.trick)


def ref_play(state: RefState, card: str) -> RefState:
    """The state after ``to_act`` plays ``card`` (a new state; the old one is kept)."""
    hands = [list(h) for h in state.hands]
    hands[state.to_act].remove(card)
    trick = [*state.trick, (state.to_act, card)]
    if len(trick) < 4:
        return RefState(hands, state.trump, (state.to_act + 1) % 4, trick, state.tricks_done)
    winner = trick[ref_winner([c for _, c in trick], state.trump)][0]
    return RefState(hands, state.trump, winner, [], state.tricks_done + 1)


def ref_perft(state: RefState, rules: RefRules, depth: int) -> list[int]:
    counts = [0] * depth

    def walk(node: RefState, ply: int) -> None:
        moves = ref_moves(node, rules)
        counts[ply] += len(moves)
        if ply + 1 < depth:
            for card in moves:
                walk(ref_play(node, card), ply + 1)

    walk(state, 0)
    return counts


def ref_breakdown(state: RefState, rules: RefRules, depth: int) -> dict[str, int]:
    return {card: 1 if depth == 1 else ref_perft(ref_play(state, card), rules, depth - 1)[-1]
            for card in ref_moves(state, rules)}


# -- files ---------------------------------------------------------------------------------


def read_counts(option: str) -> dict[str, list[int]]:
    """``deal -> [count at depth 1, 2, ...]`` from ``tests/perft/<option>.txt``."""
    counts: dict[str, list[int]] = {}
    for line in (PERFT_DIR / f"{option}.txt").read_text().splitlines():
        words = line.split("#")[0].split()
        if not words:
            continue
        name, word, depth, count = words
        assert word == "depth" and int(depth) == len(counts.setdefault(name, [])) + 1, line
        counts[name].append(int(count))
    return counts


def write_counts(option: str, counts: dict[str, list[int]]) -> None:
    fields = ", ".join(f"{k}={v!r}" for k, v in OPTIONS[option].items())
    lines = ["# Legal card sequences from the first lead (tests/test_perft.py).",
             f"# Options: {fields}. Generated by the reference ref_legal.",
             "# Regenerate: PYTHONPATH=src python tests/test_perft.py"]
    for name, per_depth in counts.items():
        lines += [f"{name} depth {d} {n}" for d, n in enumerate(per_depth, 1)]
    PERFT_DIR.mkdir(exist_ok=True)
    (PERFT_DIR / f"{option}.txt").write_text("\n".join(lines) + "\n")


def breakdown_report(option: str, name: str, depth: int) -> str:
    """Per-first-card counts at ``depth``, engine next to reference."""
    engine = engine_breakdown(engine_start(option, name), depth)
    ref = ref_breakdown(ref_start(name), ref_rules(option), depth)
    lines = [f"perft {option} {name} depth {depth}: per first card (engine / reference)"]
    for card in sorted(set(engine) | set(ref)):
        mark = "" if engine.get(card) == ref.get(card) else "   <-- differs"
        lines.append(f"  {card}: {engine.get(card, '-')} / {ref.get(card, '-')}{mark}")
    lines.append(f"  total: {sum(engine.values())} / {sum(ref.values())}")
    return "\n".join(lines)


# -- tests ---------------------------------------------------------------------------------

CASES = [(option, name) for option in OPTIONS for name in POSITIONS]


@pytest.mark.parametrize(("option", "name"), CASES, ids=[f"{o}-{n}" for o, n in CASES])
def test_perft_matches_file(option: str, name: str) -> None:
    expected = read_counts(option)[name]
    got = engine_perft(engine_start(option, name), len(expected))
    for depth, (want, have) in enumerate(zip(expected, got, strict=True), 1):
        if want != have:
            pytest.fail(f"perft {option} {name} depth {depth}: engine {have}, file {want}\n"
                        + breakdown_report(option, name, depth), pytrace=False)


@pytest.mark.parametrize(("option", "name"), CASES, ids=[f"{o}-{n}" for o, n in CASES])
def test_reference_agrees_at_shallow_depth(option: str, name: str) -> None:
    """The reference and the engine agree move by move for the first five cards."""
    engine = engine_perft(engine_start(option, name), 5)
    ref = ref_perft(ref_start(name), ref_rules(option), 5)
    assert engine == ref, breakdown_report(option, name, 5)


def test_options_make_a_difference() -> None:
    """Each option file differs from the old rules somewhere (the positions exercise
    every option), and the shallow counts are the same in every file for depth 1."""
    base = read_counts("always")
    for option in OPTIONS:
        if option != "always":
            assert read_counts(option) != base, option
    for name in POSITIONS:
        firsts = {read_counts(o)[name][0] for o in OPTIONS if o != "first_lead_trump"}
        assert len(firsts) == 1, name


def test_ref_legal_examples() -> None:
    """The reference on the examples of docs/rules.md §1 Play and the tricks doctest."""
    old = RefRules("always", False, "any")
    modern = RefRules("trump_led", False, "any")
    hand = ["AH", "TH", "9H", "KS"]
    assert ref_legal(hand, ["KH"], "S", old, False) == ["AH", "TH"]
    assert ref_legal(hand, ["KH"], "S", modern, False) == ["9H", "AH", "TH"]
    # Trumped already: any card of the suit led will do.
    assert ref_legal(hand, ["KH", "9S"], "S", old, False) == ["9H", "AH", "TH"]
    # Void in the suit led: trump, over-trumping under the old rules only.
    assert ref_legal(["AS", "9S", "QD"], ["KH", "TS"], "S", old, False) == ["AS"]
    assert ref_legal(["AS", "9S", "QD"], ["KH", "TS"], "S", modern, False) == ["9S", "AS"]
    # Trump follows trump: trump even holding the suit led.
    tft = RefRules("always", True, "any")
    assert ref_legal(hand, ["QH", "9S"], "S", tft, False) == ["KS"]
    # The first of two identical cards wins.
    assert ref_winner(["KH", "AH", "AH", "9C"], "S") == 1
    assert ref_winner(["KH", "AH", "AH", "TS"], "S") == 3


# -- regeneration ----------------------------------------------------------------------------


def regenerate(depth: int, report: Callable[[str], None] = print) -> bool:
    """Compute every count with the reference, check the engine agrees, write files."""
    results: dict[str, dict[str, list[int]]] = {}
    ok = True
    for option in OPTIONS:
        results[option] = {}
        for name in POSITIONS:
            ref = ref_perft(ref_start(name), ref_rules(option), depth)
            engine = engine_perft(engine_start(option, name), depth)
            report(f"{option:18} {name}: {ref}")
            if ref != engine:
                ok = False
                bad = next(d for d in range(depth) if ref[d] != engine[d]) + 1
                report(f"  engine disagrees: {engine}\n" + breakdown_report(option, name, bad))
            results[option][name] = ref
    if not ok:
        report("not written: the engine and the reference disagree")
        return False
    for option, counts in results.items():
        write_counts(option, counts)
    report(f"wrote {len(results)} files to {PERFT_DIR}")
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--depth", type=int, default=DEPTH)
    args = parser.parse_args(argv)
    return 0 if regenerate(args.depth) else 1


if __name__ == "__main__":
    sys.exit(main())
