"""Two runs of the same deals against the same opponent, compared deal by deal.

Each ``pinochle match --json`` result (a chunk of ``bench/expert_strength.sh``)
or each deal line of ``bench/expert_three.py`` gives one value per deal, and a
deal is named by its match seed and index, so two runs of the same commands
with two versions of a player play the same deals. The difference of the two
values deal by deal measures the change between the versions with the noise
of the deals taken out (the pairing), with a 95% confidence interval by the
match module's own :func:`interval`:

    python bench/expert_paired.py OLD_DIR NEW_DIR
    python bench/expert_paired.py old_three.jsonl new_three.jsonl

A directory stands for its ``seed-*.json`` files; only deals in both runs count.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from pinochlekit.match import interval


def values(where: str) -> dict[tuple[str, int], float]:
    """The value of every deal of a run: (match seed, deal index) -> points per hand."""
    path = Path(where)
    files = sorted(path.glob("seed-*.json")) if path.is_dir() else [path]
    out: dict[tuple[str, int], float] = {}
    for file in files:
        text = file.read_text(encoding="utf-8")
        if file.suffix == ".json":
            data = json.loads(text)
            for deal in data["deals"]:
                out[(str(data["seed"]), int(deal["index"]))] = float(deal["value"])
            continue
        for line in text.splitlines():  # bench/expert_three.py: one JSON line per deal
            if line.startswith('{"deal"'):
                row = json.loads(line)
                out[("", int(row["deal"]))] = float(row["value"])
    return out


def main(args: list[str]) -> None:
    if len(args) != 2:
        raise SystemExit(__doc__)
    old, new = values(args[0]), values(args[1])
    both = sorted(set(old) & set(new))
    if len(both) < 2:
        raise SystemExit("fewer than two deals in both runs")
    diff = interval([new[k] - old[k] for k in both])
    before = interval([old[k] for k in both])
    after = interval([new[k] for k in both])
    same = sum(new[k] == old[k] for k in both)
    print(f"{len(both)} deals in both runs ({same} with the same value)")
    print(f"  old {before.mean:+.1f} (95% CI {before.low:+.1f} to {before.high:+.1f})")
    print(f"  new {after.mean:+.1f} (95% CI {after.low:+.1f} to {after.high:+.1f})")
    print(f"  new minus old {diff.mean:+.2f} (95% CI {diff.low:+.2f} to {diff.high:+.2f})")


if __name__ == "__main__":
    main(sys.argv[1:])
