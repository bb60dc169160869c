"""expert with skilled rollouts (the default) against expert with standard rollouts.

The expert player (players/expert.py) plays out each candidate card, and the
throw-in decision, with simulated players: ``skilled`` ones by default
(docs/players.md **skilled**), ``standard`` ones with ``rollout=standard``.
Everything else (bidding, passing, the exact endgame solver, the number of
sampled deals) is the same, so this duplicate match measures what the
stronger rollout policy is worth. It is ``pinochle match`` in this process
(one worker):

    python bench/expert_policy.py [--deals 20] [--time 0.05] [--rules pagat] [--seed 1]

the same as ``pinochle match "expert(time=T)" "expert(time=T, rollout=standard)"
--deals N --seed S --rules R --workers 1``.
"""

from __future__ import annotations

import argparse
import time

from pinochlekit.match import run_match


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--time", type=float, default=0.05)
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--seed", default="1")
    args = parser.parse_args()
    started = time.perf_counter()
    result = run_match(f"expert(time={args.time})",
                       f"expert(time={args.time}, rollout=standard)",
                       deals=args.deals, seed=args.seed, rules=args.rules, workers=1)
    for line in result.report():
        print(line)
    print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
