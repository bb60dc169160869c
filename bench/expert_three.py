"""A match played deal by deal, each result printed as it finishes (for slow players).

``pinochle match A B --workers 1`` reports only at the end; when every deal takes
minutes (the three-handed ``expert`` and ``pro`` in the Python simulator) this
script plays the same deal pairs, ``--first`` to ``--first + --deals - 1``, with
the same seeds (the match module's own :func:`~pinochlekit.match.duplicate.play_deal_pair`),
and prints one JSON line per deal pair and a running summary, so that a run
stopped early still gives its finished deals. Deal ``i`` here is deal ``i`` of
``pinochle match A B --seed SEED --rules RULES``.

    python bench/expert_three.py "expert(time=0.1)" pro --rules three --seed 7 --deals 16
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from pinochlekit.engine.rules import Rules
from pinochlekit.match import MatchConfig, interval, play_deal_pair


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--rules", default="three")
    parser.add_argument("--seed", default="7")
    parser.add_argument("--deals", type=int, default=16)
    parser.add_argument("--first", type=int, default=0)
    args = parser.parse_args()
    seed: int | str = int(args.seed) if args.seed.isdigit() else args.seed
    config = MatchConfig(args.a.strip(), args.b.strip(), str(Rules.from_string(args.rules)),
                         seed)
    values: list[float] = []
    sides = {s: {"declared": 0, "made": 0, "set": 0, "thrown in / not on board": 0}
             for s in ("A", "B")}
    for index in range(args.first, args.first + args.deals):
        started = time.perf_counter()
        pair = play_deal_pair(config, index)
        values.append(pair.value)
        for hand in pair.hands:
            if hand.declarer_side is None:
                continue
            side = sides[hand.declarer_side]
            side["declared"] += 1
            name = hand.outcome.name.lower()
            key = name if name in ("made", "set") else "thrown in / not on board"
            side[key] += 1
        print(json.dumps({"deal": index, "value": pair.value,
                          "nets": [h.net for h in pair.hands],
                          "seconds": round(time.perf_counter() - started, 1)}), flush=True)
        summary = f"{len(values)} deal pairs: A minus B {sum(values) / len(values):+.1f}"
        if len(values) > 1:
            result = interval(values)
            summary += f" (95% CI {result.low:+.1f} to {result.high:+.1f})"
        print(summary, json.dumps(sides), file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
