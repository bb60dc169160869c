"""expert with skilled rollouts against expert with standard rollouts.

The expert player (players/expert.py) plays out each candidate card with
``standard`` players. This script measures what the ``skilled`` card play
(docs/players.md skilled) is worth as its rollout policy, at the same number
of sampled deals: ``expert_skilled`` is expert whose card-play rollouts start
from ``start_from_view(view, policy="skilled")``; everything else (bidding,
passing, the exact endgame solver) is unchanged. A duplicate match as
``pinochle match`` plays it, in this process (one worker).

    python bench/expert_policy.py [--deals 20] [--time 0.05] [--rules pagat] [--seed 1]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from functools import partial

from pinochlekit.cards import Hand
from pinochlekit.match import run_match
from pinochlekit.players import PLAYERS, expert
from pinochlekit.players.expert import ExpertPlayer
from pinochlekit.players.simulate import start_from_view
from pinochlekit.views import View


class SkilledRolloutExpert(ExpertPlayer):
    """expert whose card-play rollouts play the skilled card play."""

    name = "expert_skilled"

    def _rolled(self, view: View, deals: Sequence[tuple[Hand, ...]],
                cards: Sequence[int]) -> dict[int, list[int]]:
        # expert._rolled builds its start with expert.start_from_view: point that name
        # at the skilled start for this call only (the one-line change of the report).
        names = vars(expert)
        plain = names["start_from_view"]
        names["start_from_view"] = partial(start_from_view, policy="skilled")
        try:
            return super()._rolled(view, deals, cards)
        finally:
            names["start_from_view"] = plain


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--time", type=float, default=0.05)
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--seed", default="1")
    args = parser.parse_args()
    PLAYERS["expert_skilled"] = SkilledRolloutExpert
    started = time.perf_counter()
    result = run_match(f"expert_skilled(time={args.time})", f"expert(time={args.time})",
                       deals=args.deals, seed=args.seed, rules=args.rules, workers=1)
    for line in result.report():
        print(line)
    print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
