"""Speed of the exact endgame solver: every legal card's value from random endgames.

Random hands of N cards each (from a 48-card deck, random trump and leader), the
C solver (:mod:`pinochlekit.native._solver`) or, with ``--python``, the pure-Python one;
prints the median and the maximum time of one ``card_values`` call per N.

    python bench/expert_solver.py --positions 40
    python bench/expert_solver.py --positions 10 --tricks 3,4,5 --python
    python bench/expert_solver.py --positions 40 --rules three   # three hands, a declarer
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from pinochlekit.engine.cards import Hand
from pinochlekit.engine.rules import Rules
from pinochlekit.players.search.solver import Endgame, card_values, native_solver


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--tricks", default="4,5,6,7,8")
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--python", action="store_true", help="the pure-Python solver")
    args = parser.parse_args()
    rules = Rules.from_string(args.rules)
    seats = 3 if rules.players == 3 else 4
    native = not args.python
    if native and native_solver() is None:
        raise SystemExit("the C solver is not built (pip install -e .)")
    rng = random.Random(1)
    print(f"{'C' if native else 'Python'} solver, {args.rules}, {args.positions} positions each")
    for tricks in (int(x) for x in args.tricks.split(",")):
        times = []
        for _ in range(args.positions):
            deck = [k for k in range(24) for _ in range(2)]
            rng.shuffle(deck)
            hands = tuple(Hand.from_cards(deck[i * tricks:(i + 1) * tricks])
                          for i in range(seats))
            # Three-handed (docs/rules.md §3): a random declarer alone against the two others.
            end = Endgame(rng.randrange(4), hands, rng.randrange(seats),
                          declarer=rng.randrange(3) if seats == 3 else -1)
            start = time.process_time()
            card_values(rules, end, 0, native=native)
            times.append(time.process_time() - start)
        print(f"  {tricks} tricks left: median {statistics.median(times) * 1e3:8.2f} ms, "
              f"max {max(times) * 1e3:8.2f} ms")


if __name__ == "__main__":
    main()
