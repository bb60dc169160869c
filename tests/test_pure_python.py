"""PINOCHLEKIT_PURE_PYTHON turns every C extension off, and the results stay the same.

Each check runs the same script in two fresh interpreters, one with the variable set:
the script reports which accelerated paths are on (the engine's ``_table``, the
simulation core behind ``fastcore`` and ``simulate``, the endgame solver, the
two-handed core and solver) and what they compute on a few seeds: computer players'
actions through whole hands of the four-, three- and two-handed games (deals, legal
plays, meld, passing and bid simulations, rollouts), exact endgame values and the
two-handed last-tricks values. With the variable every path must be off and every
result equal to the run with C.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

from pinochlekit.native import EXTENSIONS, PURE_PYTHON, load

SCRIPT = r"""
import json
import random

from pinochlekit import native
from pinochlekit.engine.cards import Hand
from pinochlekit.engine.games import new_game
from pinochlekit.engine.rules import Rules
from pinochlekit.players import make_player
from pinochlekit.players.search import backends, simulate, solver
from pinochlekit.players.search.solver import Endgame
from pinochlekit.players.two import core as two_core
from pinochlekit.players.two.solver import LateSolver, native_solver


def fastcore_on():
    try:
        import pinochlekit.players.search.fastcore  # noqa: F401
    except ImportError:
        return False
    return True


paths = {
    "table": native.table is not None,
    "fastcore": fastcore_on(),
    "simulate": backends.get_backend() is not simulate.python_backend,
    "solver": solver.native_solver() is not None,
    "twocore": two_core.core is not None,
    "twosolver": native_solver() is not None,
}


def one_hand(rules, spec, seed):
    game = new_game(rules, seed=seed)
    players = [make_player(spec, f"{seed}/{seat}") for seat in range(game.rules.players)]
    actions = []
    while game.to_act is not None and not game.results:
        seat = game.to_act
        action = players[seat].choose(game.view(seat))
        game.apply(action)
        actions.append(str(action))
    return {"actions": actions, "scores": list(game.scores)}


def random_hands(rng, n, size):
    deck = [kind for kind in range(24) for _ in range(2)]
    rng.shuffle(deck)
    return tuple(Hand.from_cards(deck[i * size:(i + 1) * size]) for i in range(n))


def endgames(seed):
    rng = random.Random(seed)
    out = []
    for rules in (Rules(), Rules.preset("modern")):
        four = Endgame(rng.randrange(4), random_hands(rng, 4, 3), rng.randrange(4))
        out.append(sorted(solver.card_values(rules, four, team=rng.randrange(2)).items()))
    three = Endgame(rng.randrange(4), random_hands(rng, 3, 3), 0, declarer=1)
    out.append(sorted(solver.card_values(Rules.preset("three"), three, team=1).items()))
    return out


def late_values(seed):
    rng = random.Random(seed)
    leader, follower = random_hands(rng, 2, 5)
    late = LateSolver(Rules.preset("two"), rng.randrange(4))
    lead = min(int(card) for card in leader.cards())  # still in the leader's hand
    return [late.value(leader, follower), sorted(late.lead_values(leader, follower).items()),
            sorted(late.follow_values(lead, leader, follower).items())]


results = {}
for seed in (1, 2):
    results[f"four {seed}"] = one_hand("pagat", "pro(bid_sims=8, rollouts=6)", seed)
    results[f"three {seed}"] = one_hand("three", "pro(bid_sims=8, rollouts=6)", seed)
    results[f"two {seed}"] = one_hand("two", "pro(rollouts=40)", seed)
    results[f"endgames {seed}"] = endgames(seed)
    results[f"late {seed}"] = late_values(seed)
print(json.dumps({"paths": paths, "results": results}))
"""


def run(pure: bool) -> dict[str, Any]:
    """The script's report from a fresh interpreter, with or without the variable."""
    env = {k: v for k, v in os.environ.items() if k != PURE_PYTHON}
    if pure:
        env[PURE_PYTHON] = "1"
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True,
                          text=True, timeout=600, check=True)
    report: dict[str, Any] = json.loads(done.stdout)
    return report


@pytest.fixture(scope="module")
def reports() -> tuple[dict[str, Any], dict[str, Any]]:
    return run(pure=False), run(pure=True)


def test_the_variable_turns_every_accelerated_path_off(
        reports: tuple[dict[str, Any], dict[str, Any]]) -> None:
    with_c, pure = reports
    assert not any(pure["paths"].values()), pure["paths"]
    if all(load(name) is not None for name in EXTENSIONS) and not os.environ.get(PURE_PYTHON):
        assert all(with_c["paths"].values()), with_c["paths"]


def test_pure_python_gives_the_same_results(
        reports: tuple[dict[str, Any], dict[str, Any]]) -> None:
    with_c, pure = reports
    assert pure["results"].keys() == with_c["results"].keys()
    for name, value in with_c["results"].items():
        assert pure["results"][name] == value, name
    # The hands were played to the end: actions and a result in each game.
    assert all(len(with_c["results"][f"{game} 1"]["actions"]) > 20
               for game in ("four", "three", "two"))


def test_load_names_only_the_extensions() -> None:
    with pytest.raises(ValueError, match="not a C extension"):
        load("os")
