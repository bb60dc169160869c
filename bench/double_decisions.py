"""Decision time of the double-deck ``expert`` (players/double/expert.py) at its budget.

    python bench/double_decisions.py                 # 4 hands, expert at seats 1 and 3
    python bench/double_decisions.py --hands 10 --spec "expert(time=0.5)" --against pro

Plays whole seeded hands of ``--rules`` (default ``doubledeck``) in this one process,
``--spec`` at seats 1 and 3 against ``--against`` at 0 and 2, and times every decision
of ``--spec`` with a wall clock (``time.perf_counter``) and the process's CPU clock
(``time.process_time``: the figure a loaded machine distorts least). Prints p50, p95
and the largest time over all decisions and by phase; say the machine's load with a
figure.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from pinochlekit.engine.double.game import DoubleDeckGame
from pinochlekit.players import make_player


def percentile(values: list[float], share: float) -> float:
    """The ``share`` percentile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def main() -> int:
    """Play the hands and print the decision times."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--spec", default="expert")
    parser.add_argument("--against", default="pro")
    parser.add_argument("--rules", default="doubledeck")
    args = parser.parse_args()
    times: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    for hand in range(args.hands):
        game = DoubleDeckGame.new(args.rules, seed=args.seed + hand, dealer=hand % 4)
        players = [make_player(args.spec if s % 2 else args.against, 10 * hand + s)
                   for s in range(4)]
        while not game.results:
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            start, start_cpu = time.perf_counter(), time.process_time()
            action = players[seat].choose(view)
            spent, spent_cpu = time.perf_counter() - start, time.process_time() - start_cpu
            if seat % 2:
                times.setdefault(str(view.phase), []).append(spent)
                cpu.setdefault(str(view.phase), []).append(spent_cpu)
            game.apply(action, seat)
    every = [t for ts in times.values() for t in ts]
    every_cpu = [t for ts in cpu.values() for t in ts]
    load = os.getloadavg()[0]
    print(f"python bench/double_decisions.py --hands {args.hands} --seed {args.seed} "
          f"--spec {args.spec!r} --against {args.against!r} --rules {args.rules}")
    print(f"  load average (1 min) at the end: {load:.1f}")
    for clock, table, total in (("wall", times, every), ("cpu", cpu, every_cpu)):
        for name, values in [("all", total), *sorted(table.items())]:
            print(f"  {clock:4} {name:8} n {len(values):4}  p50 {percentile(values, 0.5):.3f} s"
                  f"  p95 {percentile(values, 0.95):.3f} s  max {max(values):.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
