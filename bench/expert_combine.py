"""Pool the deal pairs of several ``pinochle match --json`` results into one figure.

Used by ``bench/expert_strength.sh``: every chunk is a match with its own seed
(so its own deals); the pooled mean and 95% confidence interval are over all
their deal pairs, computed by the match module's own :func:`interval`.

    python bench/expert_combine.py expert_strength_results/pagat/seed-*.json
"""

from __future__ import annotations

import json
import sys

from pinochlekit.match import interval


def main(paths: list[str]) -> None:
    values: list[float] = []
    players: dict[str, str] | None = None
    rules: str | None = None
    sides = {"A": {"declared": 0, "made": 0, "set": 0}, "B": {"declared": 0, "made": 0, "set": 0}}
    seconds = 0.0
    for path in paths:
        with open(path, encoding="utf-8") as file:
            data = json.load(file)
        if players not in (None, data["players"]) or rules not in (None, data["rules"]):
            raise SystemExit(f"{path}: other players or rules than the first file")
        players, rules = data["players"], data["rules"]
        values += [deal["value"] for deal in data["deals"]]
        for side in sides:
            for key in sides[side]:
                sides[side][key] += data["sides"][side][key]
        seconds += data["timing"]["seconds"]
    if not values or players is None:
        raise SystemExit("no finished chunk")
    result = interval(values)
    print(f"{players['A']} vs {players['B']}, {rules}: {len(values)} deal pairs from "
          f"{len(paths)} chunks")
    print(f"points per hand, A minus B: {result.mean:+.1f} (95% CI {result.low:+.1f} to "
          f"{result.high:+.1f}; t: {result.low_t:+.1f} to {result.high_t:+.1f})")
    for side, counts in sides.items():
        print(f"  {side} declared {counts['declared']}, made {counts['made']}, "
              f"set {counts['set']}")
    print(f"  {seconds:.0f} s of match time")


if __name__ == "__main__":
    main(sys.argv[1:])
