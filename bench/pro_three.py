"""Decision time of the ``pro`` player in the three-handed game, C core against Python.

A pro (default settings: 4,000 bidding rounds, 200 rollouts per card) sits at
seat 0 among two standard players for ``--hands`` hands of the three-handed game
(docs/rules.md §3). At each of the pro's decisions a copy of the player decides the
same view with the Python simulator (``simulate.python_backend``), then the
player itself with the C core (``fastcore.backend``); both must choose the same
action. Reported: the CPU time (``time.process_time``) of the pro's card
decisions (more than one legal card) and of its bidding decisions (the
simulation runs at its first bid of a hand, and again on naming trump after
taking the widow), median and max, for each backend. ``--repeat`` replays the
same games to show the spread on a noisy machine.

    python bench/pro_three.py [--rules three] [--hands 3] [--seed 1] [--repeat 3]
          [--no-python-bids]  (skip the slow Python bidding simulations)
"""

from __future__ import annotations

import argparse
import copy
import statistics
import time

from pinochlekit import Game, Phase, Play, Rules
from pinochlekit.players import ProPlayer, StandardPlayer
from pinochlekit.players.easy import hand_key
from pinochlekit.players.search import backends, simulate
from pinochlekit.players.search import fastcore as fc


def timed_choice(player: ProPlayer, game: Game, backend: simulate.Backend
                 ) -> tuple[object, float]:
    previous = backends.set_backend(backend)
    try:
        start = time.process_time()
        action = player.choose(game.view(0))
        return action, time.process_time() - start
    finally:
        backends.set_backend(previous)


def run(rules: Rules, hands: int, seed: int, python_bids: bool
        ) -> dict[str, list[float]]:
    """One series of games; CPU seconds per decision kind and backend."""
    game = Game.new(rules, seed=seed)
    pro = ProPlayer(seed)
    others = [StandardPlayer(seed + 1), StandardPlayer(seed + 2)]
    times: dict[str, list[float]] = {"card C": [], "card Python": [], "bid C": [],
                                     "bid Python": []}
    while game.phase is not Phase.GAME_OVER and len(game.results) < hands:
        seat = game.to_act
        assert seat is not None
        if seat != 0:
            game.apply(others[seat - 1].choose(game.view(seat)), seat)
            continue
        view = game.view(0)
        kind = "card" if view.phase is Phase.PLAY else "bid"
        cards = sum(type(a) is Play for a in view.legal_actions)
        simulating = kind == "card" and cards > 1
        if kind == "bid":
            # The bidding simulation runs when the table is missing (its first call).
            simulating = pro._table is None or pro._table[0] != hand_key(view)
        if simulating and (kind == "card" or python_bids):
            twin = copy.deepcopy(pro)
            theirs, seconds = timed_choice(twin, game, simulate.python_backend)
            times[f"{kind} Python"].append(seconds)
        else:
            theirs = None
        ours, seconds = timed_choice(pro, game, fc.backend)
        if simulating:
            times[f"{kind} C"].append(seconds)
        if theirs is not None and theirs != ours:
            raise AssertionError(f"the backends chose differently: {theirs} and {ours}")
        game.apply(ours, 0)  # type: ignore[arg-type]
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="three")
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-python-bids", dest="python_bids", action="store_false")
    args = parser.parse_args()
    rules = Rules.from_string(args.rules)
    medians: dict[str, list[float]] = {}
    for i in range(args.repeat):
        times = run(rules, args.hands, args.seed, args.python_bids)
        for name, values in times.items():
            if not values:
                continue
            median = statistics.median(values)
            medians.setdefault(name, []).append(median)
            print(f"  run {i + 1}: {name}: {len(values)} decisions, median {median:.4f} s, "
                  f"max {max(values):.3f} s")
    for name, values in medians.items():
        print(f"{name} [{args.rules}]: median of run medians {statistics.median(values):.4f} s "
              f"(min {min(values):.4f}, max {max(values):.4f}, {len(values)} runs)")


if __name__ == "__main__":
    main()
