"""The double-deck C play-out (``_doublecore.c`` behind
:func:`pinochlekit.players.double.policy.playout`).

:func:`~pinochlekit.players.double.policy.python_playout` is the reference: on
random positions of seeded double-deck hands (every trick of the play, each legal
card added as ``pro`` and ``expert`` add it, every combination of the four play
flags of docs/rules.md §2) and on deals drawn by the exact sampler, the C core must
give the same trick points. ``pro`` and ``expert`` must take the same decisions and
``pinochle match`` give the same report (its timing aside) with and without
``PINOCHLEKIT_PURE_PYTHON=1``, by subprocess. The extension must be built
(``pip install -e .``): without it these tests fail rather than skip.

``DOUBLECORE_GAMES=N`` raises the number of random hands per rules (40 by default).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from typing import Any

import pytest

from pinochlekit.engine.actions import Play
from pinochlekit.engine.double.cards import DoubleHand
from pinochlekit.engine.double.game import DoubleDeckGame
from pinochlekit.engine.double.meld import double_meld, meld_counts, meld_table, table_meld
from pinochlekit.engine.double.views import DoubleView
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.tricks import play_flags
from pinochlekit.engine.views import Phase
from pinochlekit.native import PURE_PYTHON
from pinochlekit.native import _doublecore as core
from pinochlekit.players import make_player
from pinochlekit.players.double import mend, policy
from pinochlekit.players.double.sampler import (
    DoubleKnowledge,
    DoubleSampler,
    double_knowledge,
    sample_double_deals,
)

#: The play options the double deck leaves open (docs/rules.md §2, §6).
RULES = ["doubledeck", "doubledeck(must_beat=trump_led)", "doubledeck(must_beat=following)",
         "doubledeck(must_beat=following, trump_follows_trump=yes)",
         "doubledeck(cards_passed=0, trump_follows_trump=yes)"]
GAMES = int(os.environ.get("DOUBLECORE_GAMES", "40"))
#: Every combination of the four flags of tricks.play_flags.
ALL_FLAGS: list[tuple[bool, bool, bool, bool]] = [
    (bool(bits & 1), bool(bits & 2), bool(bits & 4), bool(bits & 8)) for bits in range(16)]


def positions(rules: str, seed: int, games: int) -> list[DoubleView]:
    """Views of the seat to play at a random card of the play of seeded hands, played
    by random or standard players (the first hand of a new game each time)."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        game = DoubleDeckGame.new(rules, seed=rng.randrange(10**9))
        spec = rng.choice(["random", "standard"])
        players = [make_player(spec, rng.randrange(10**9)) for _ in range(4)]
        stop, plays = rng.randrange(80), 0
        while not game.results:
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            if view.phase is Phase.PLAY:
                if plays == stop:
                    assert isinstance(view, DoubleView)
                    out.append(view)
                    break
                plays += 1
            game.apply(players[seat].choose(view), seat)
    return out


def leader_of(view: DoubleView) -> int:
    """The seat that leads the current trick."""
    assert view.declarer is not None
    if view.trick:
        return view.trick[0][0]
    return view.tricks[-1].winner if view.tricks else view.declarer


def both(hands: list[list[int]], trick: list[tuple[int, int]], leader: int, trump: int,
         flags: tuple[bool, bool, bool, bool], taken: list[int]) -> tuple[list[int], list[int]]:
    """The C and the Python play-outs of one position (the C core first, on hands the
    Python one consumes afterwards: the C core must leave them as they were)."""
    before = [list(h) for h in hands]
    ours = core.playout(hands, trick, leader, trump, flags, taken)
    assert hands == before, "the C core changed the hands it was given"
    return ours, policy.python_playout(hands, trick, leader, trump, flags, taken)


@pytest.mark.parametrize("rules", RULES)
def test_playouts_equal_python(rules: str) -> None:
    """Over many random positions and sampled deals, the same trick points: the
    position as it is, and each legal card added to the trick as ``pro`` and
    ``expert`` add it; the game's own flags and every other combination."""
    rng = random.Random(rules)
    checked = 0
    views = positions(rules, len(rules), GAMES)
    assert len(views) > GAMES // 2
    for view in views:
        assert view.trump is not None and view.seat is not None
        trump, seat, leader = int(view.trump), view.seat, leader_of(view)
        trick = [(s, int(c)) for s, c in view.trick]
        taken = list(view.trick_points)
        cards = [a.card for a in view.legal_actions if isinstance(a, Play)]
        for deal in sample_double_deals(view, rng, 3):
            for flags in [play_flags(view.rules), rng.choice(ALL_FLAGS)]:
                c, py = both([list(h) for h in deal], trick, leader, trump, flags, taken)
                assert c == py, (rules, view.seat, trick, deal, flags)
                assert sum(c) - sum(taken) == sum(
                    policy.COUNTERS >> k & 1 for h in deal for k in range(24) for _ in
                    range(h[k])) + sum(policy.COUNTERS >> k & 1 for _, k in trick) + 2
                checked += 1
                card = rng.choice(cards)
                hands = [list(h) for h in deal]
                hands[seat][card] -= 1
                c, py = both(hands, [*trick, (seat, card)], leader, trump, flags, taken)
                assert c == py, (rules, view.seat, trick, card, deal, flags)
                checked += 1
    assert checked > 10 * GAMES


def test_whole_hands_from_random_deals() -> None:
    """From the first lead of random 80-card deals, under every flag combination,
    every leader and trump: the same points, 50 in all (48 counters and the last trick)."""
    rng = random.Random(17)
    deck = [k for k in range(24) if k % 6 for _ in range(4)]
    for _ in range(120):
        rng.shuffle(deck)
        hands = [[0] * 24 for _ in range(4)]
        for i, card in enumerate(deck):
            hands[i % 4][card] += 1
        flags = rng.choice(ALL_FLAGS)
        leader, trump = rng.randrange(4), rng.randrange(4)
        c, py = both(hands, [], leader, trump, flags, [0, 0])
        assert c == py and sum(c) == 48 + 2 and min(c) >= 0, (hands, flags)


def test_a_complete_trick_is_scored_first() -> None:
    """A trick of four cards: it is scored, its winner leads the rest (as the Python)."""
    hands = [[0] * 24 for _ in range(4)]
    for seat, card in enumerate([23, 22, 11, 5]):  # AC TC AH AS: one card each left
        hands[seat][card] = 1
    trick = [(0, 21), (1, 20), (2, 19), (3, 23)]  # KC QC JC AC: seat 3 takes 2 and leads
    c, py = both(hands, trick, 0, 1, (True, True, False, False), [0, 0])
    assert c == py and c[1] >= 2


@pytest.mark.parametrize(("hands", "trick", "why"), [
    ([[0] * 24] * 3, [], "four sequences"),
    ([[0] * 23] * 4, [], "24 counts"),
    ([[5] + [0] * 23] + [[0] * 24] * 3, [], "count 5 is not in 0..4"),
    ([[0, 0, 0, 0, 0, 0, 1] + [0] * 17] + [[0] * 24] * 3, [], "no nines"),
    ([[0] * 24] * 4, [(0, 1)] * 5, "at most four cards"),
    ([[0] * 24] * 4, [(4, 1)], "seat 4 is not in 0..3"),
    ([[0] * 24] * 4, [(0, 24)], "card 24 is not in 0..23"),
    ([[0] * 24] * 4, [], "seat 0 must play and holds no card"),
])
def test_bad_positions_are_refused(hands: list[list[int]], trick: list[tuple[int, int]],
                                   why: str) -> None:
    """Each bad input: a ValueError that says what is wrong; the hands stay as given."""
    before = [list(h) for h in hands]
    with pytest.raises(ValueError, match=why):
        core.playout(hands, trick, 0, 0, (True, True, False, False), [0, 0])
    assert hands == before
    with pytest.raises(ValueError, match="leader is a seat"):
        core.playout([[0] * 24] * 4, [], 4, 0, (True, True, False, False), [0, 0])


def test_the_players_use_the_core() -> None:
    """policy.playout is the C core here (the extension is built), and the Python
    when the module's core is set to None."""
    assert policy.core is core
    deal = sample_double_deals(DoubleDeckGame.new("doubledeck", seed=4).view(0),
                               random.Random(4), 1)[0]
    flags = (True, True, False, False)
    ours = policy.playout([list(h) for h in deal], [], 2, 3, flags, (0, 0))
    saved, policy.core = policy.core, None
    try:
        assert policy.playout([list(h) for h in deal], [], 2, 3, flags, (0, 0)) == ours
    finally:
        policy.core = saved


DECISIONS = r"""
import json
from pinochlekit.engine.actions import Play
from pinochlekit.engine.double.game import DoubleDeckGame
from pinochlekit.players import make_player
from pinochlekit.players.double import policy

out = {"core": policy.core is not None}
for spec, rules, seed in [("pro", "doubledeck", 1), ("expert(time=0.03)", "doubledeck", 2),
                          ("pro", "doubledeck(must_beat=following, trump_follows_trump=yes)", 3),
                          ("expert(time=0.03)", "doubledeck(cards_passed=0)", 4)]:
    game = DoubleDeckGame.new(rules, seed=seed)
    players = [make_player(spec if s % 2 == 0 else "standard", seed * 4 + s) for s in range(4)]
    actions = []
    while not game.results:
        seat = game.to_act
        action = players[seat].choose(game.view(seat))
        game.apply(action, seat)
        actions.append(str(action))
    out[f"{spec} {rules} {seed}"] = [actions, list(game.scores)]
print(json.dumps(out))
"""


def run(args: list[str], pure: bool) -> str:
    """stdout of ``python ARGS`` in a fresh interpreter, with or without the variable."""
    env = {k: v for k, v in os.environ.items() if k != PURE_PYTHON}
    if pure:
        env[PURE_PYTHON] = "1"
    return subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True,
                          timeout=600, check=True).stdout


def test_pro_and_expert_decide_the_same_without_the_core() -> None:
    """Whole hands of pro and expert against standard: every action and the scores
    equal with the C core and under PINOCHLEKIT_PURE_PYTHON=1 (which turns it off)."""
    with_c, pure = (json.loads(run(["-c", DECISIONS], p)) for p in (False, True))
    assert with_c.pop("core") is True and pure.pop("core") is False
    assert with_c == pure
    assert all(len(actions) > 80 for actions, _ in with_c.values())


def test_match_is_the_same_without_the_core() -> None:
    """``pinochle match pro standard --rules doubledeck``: the same report both ways
    but for its timing."""
    args = ["-m", "pinochlekit", "match", "pro", "standard", "--rules", "doubledeck",
            "--deals", "4", "--seed", "1", "--workers", "1", "--json", "--quiet"]
    reports: list[dict[str, Any]] = [json.loads(run(args, p)) for p in (False, True)]
    for report in reports:
        assert report.pop("timing")["decisions"] > 0
    assert reports[0] == reports[1]
    assert reports[0]["deal_pairs"] == 4


def raw_deals(view: DoubleView, seed: int, n: int) -> tuple[DoubleKnowledge, list[list[list[int]]]]:
    """The seat's knowledge and ``n`` deals drawn by the exact sampler, not yet mended."""
    knowledge = double_knowledge(view)
    sampler = DoubleSampler(knowledge)
    rng = random.Random(seed)
    return knowledge, [sampler.sample(rng) for _ in range(n)]


@pytest.mark.parametrize("rules", ["doubledeck", "doubledeck(arounds=doubling, cards_passed=4)",
                                   "doubledeck(must_beat=following)"])
def test_the_mend_equals_python(rules: str) -> None:
    """On deals drawn for real views, C and Python make the same swaps: the same
    mended hands and the same answer; a mended deal that agrees scores exactly the
    meld each seat showed and keeps every other fact of the seat's knowledge."""
    agreed = tried = 0
    for index, view in enumerate(positions(rules, 11, GAMES // 4)):
        knowledge, deals = raw_deals(view, index, 6)
        shown = knowledge.meld
        assert shown is not None
        values = meld_table(shown.rules)
        for number, deal in enumerate(deals):
            seed = index * 1000 + number
            ok_c, ours = core.mend(deal, knowledge.known, knowledge.excluded, shown.played,
                                   shown.points, shown.trump, values, knowledge.seat, 200,
                                   seed)
            theirs = [list(h) for h in deal]
            ok_py = mend.python_mend(theirs, knowledge.known, knowledge.excluded, shown.played,
                                     shown.points, shown.trump, values, knowledge.seat, 200,
                                     seed)
            assert (ok_c, ours) == (ok_py, theirs)
            assert knowledge.violation(ours) is None
            assert ok_c == knowledge.meld_agrees(ours)
            tried += 1
            agreed += ok_c
    assert tried >= 30 and agreed > 0, (agreed, tried)


def test_the_meld_table_counts_as_the_engine() -> None:
    """The table count (engine/double/meld.py table_meld, which the C core follows step
    for step) equals the itemized meld of double_meld on random hands of every trump,
    both arounds options."""
    rng = random.Random(5)
    for arounds in ("standard", "doubling"):
        rules = Rules.from_string(f"doubledeck(arounds={arounds})")
        values = meld_table(rules)
        for _ in range(400):
            counts = [0 if k % 6 == 0 else rng.choice((0, 1, 2, 3, 4, 4)) for k in range(24)]
            trump = rng.randrange(4)
            points = double_meld(DoubleHand(counts), trump, rules).points
            assert table_meld(values, counts, trump) == meld_counts(counts, trump, rules) == points


def test_the_c_meld_counts_as_the_engine() -> None:
    """The C core's meld count (read through a mend of no step: whether each seat's
    hand scores exactly the meld given) equals engine/double/meld.py's on random
    hands of every trump, both arounds options."""
    rng = random.Random(6)
    zero = [[0] * 24 for _ in range(4)]
    for arounds in ("standard", "doubling"):
        rules = Rules.from_string(f"doubledeck(arounds={arounds})")
        values = meld_table(rules)
        for _ in range(300):
            hands = [[0] * 24 for _ in range(4)]
            for kind in (k for k in range(24) if k % 6):
                for _copy in range(4):
                    hands[rng.randrange(4)][kind] += rng.random() < 0.8
            trump = rng.randrange(4)
            points = [meld_counts(h, trump, rules) for h in hands]
            assert core.mend(hands, zero, [0] * 4, zero, points, trump, values, 0, 0, 1)[0]
            seat = rng.randrange(1, 4)
            more = [p + (s == seat) for s, p in enumerate(points)]
            assert not core.mend(hands, zero, [0] * 4, zero, more, trump, values, 0, 0, 1)[0]


@pytest.mark.parametrize(("change", "why"), [
    ("played", r"5 copies of kind 2 held and played, more than 4"),
    ("points", r"the meld shown is four ints from 0 to 100000"),
    ("values", r"the meld table is 32 ints from 0 to 100000"),
    ("steps", r"at most 1000000 steps"),
])
def test_a_mend_of_impossible_input_is_refused_alike(change: str, why: str) -> None:
    """Input no deal could give (more than four copies of a kind held and played, a
    negative meld, a meld table out of range, too many steps) is a ValueError saying
    so, in C and in Python alike, and the hands stay as given."""
    zero = [[0] * 24 for _ in range(4)]
    hands = [[0] * 24 for _ in range(4)]
    hands[1][2] = hands[2][2] = 2  # four queens of spades
    played = [list(h) for h in zero]
    points, values, steps = [0] * 4, list(meld_table(Rules.from_string("doubledeck"))), 10
    if change == "played":
        played[3][2] = 1
    elif change == "points":
        points[2] = -5
    elif change == "values":
        values[27] = -1
    else:
        steps = 10**6 + 1
    before = [list(h) for h in hands]
    with pytest.raises(ValueError, match=why):
        core.mend(hands, zero, [0] * 4, played, points, 0, values, 0, steps, 1)
    with pytest.raises(ValueError, match=why):
        mend.python_mend(hands, zero, [0] * 4, played, points, 0, values, 0, steps, 1)
    assert hands == before


def test_the_mend_is_the_python_without_the_core() -> None:
    """mend.mend falls back to the Python when the module's core is None, and bad
    input to the C mend is a ValueError that names it."""
    zero = [[0] * 24 for _ in range(4)]
    values = meld_table(Rules.from_string("doubledeck"))
    saved, mend.core = mend.core, None
    try:
        assert mend.mend([list(h) for h in zero], zero, [0] * 4, zero, [0] * 4, 0, values,
                         0, 10, 1)
    finally:
        mend.core = saved
    with pytest.raises(ValueError, match="meld table is 32 ints"):
        core.mend(zero, zero, [0] * 4, zero, [0] * 4, 0, values[:31], 0, 10, 1)
    with pytest.raises(ValueError, match=r"seat 0\.\.3"):
        core.mend(zero, zero, [0] * 4, zero, [0] * 4, 0, values, 4, 10, 1)
    with pytest.raises(ValueError, match=r"count 5 is not in 0\.\.4"):
        core.mend([[5] + [0] * 23, *zero[1:]], zero, [0] * 4, zero, [0] * 4, 0, values, 0, 10, 1)
