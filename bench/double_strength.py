"""The double-deck strength ladder (docs/double-deck.md): duplicate deal pairs of
``pinochle match --rules doubledeck`` between adjacent levels, with the 95%
confidence interval of A's points per hand minus B's.

    python bench/double_strength.py                      # 500 pairs, seed 17, one worker
    python bench/double_strength.py --deals 100 --seed 3 --pairs standard:easy
    python bench/double_strength.py --deals 200 --pairs "expert(time=0.1):pro"

Each pair of levels is one ``pinochle match A B --rules doubledeck --deals N --seed S
--workers W --json --quiet`` run as a subprocess; the figures are printed with the
command that reproduces them and the CPU seconds each side spent thinking.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

#: Adjacent levels; ``expert`` at a small budget (``time=0.1``) so a run stays short.
LADDER = ("standard:easy", "pro:standard", "expert(time=0.1):pro")


def run(a: str, b: str, deals: int, seed: int, workers: int) -> dict[str, object]:
    """The JSON figures of one ``pinochle match`` of the double deck."""
    argv = [sys.executable, "-m", "pinochlekit", "match", a, b, "--rules", "doubledeck",
            "--deals", str(deals), "--seed", str(seed), "--workers", str(workers), "--json",
            "--quiet"]
    done = subprocess.run(argv, capture_output=True, text=True, check=True)
    data: dict[str, object] = json.loads(done.stdout)
    return data


def main() -> int:
    """Play each pair of the ladder and print its points per hand and CI."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--pairs", nargs="*", default=list(LADDER), metavar="A:B")
    args = parser.parse_args()
    for pair in args.pairs:
        a, b = pair.rsplit(":", 1)
        data = run(a, b, args.deals, args.seed, args.workers)
        points = data["points_per_hand"]
        assert isinstance(points, dict)
        low, high = points["ci95"]
        print(f"pinochle match {a} {b} --rules doubledeck --deals {args.deals} "
              f"--seed {args.seed} --workers {args.workers}")
        print(f"  {a} - {b}: {points['mean']:+.1f} points per hand "
              f"(95% CI {low:+.1f} to {high:+.1f}; sd {points['sd']:.1f}; "
              f"n {points['n']} pairs){'' if low > 0 else '  -- CI not above zero'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
