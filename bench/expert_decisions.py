"""Decision times of the ``expert`` player at a budget: median, 95th percentile, max.

Plays whole hands (expert in every seat, so every kind of decision is timed:
bids, trump, passing, throw-in, card play) and times each decision with the
process clock (one core). The budget ``time`` maps to a fixed amount of work
(docs/players.md **expert**), so this is the check that the mapping keeps the
95th percentile under the budget on this machine.

    python bench/expert_decisions.py --time 1.0 --hands 4
    python bench/expert_decisions.py --time 0.2 --hands 8 --rules modern
    python bench/expert_decisions.py --time 0.1 --hands 2 --rules three
    python bench/expert_decisions.py --time 1.0 --hands 4 --rollout standard
"""

from __future__ import annotations

import argparse
import statistics
import time

from pinochlekit import Game, Phase, Rules
from pinochlekit.players import ExpertPlayer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=1.0, help="the expert's budget")
    parser.add_argument("--hands", type=int, default=4, help="hands to play")
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rollout", default=None, choices=("standard", "skilled"),
                        help="the expert's rollout policy (default: the player's default)")
    args = parser.parse_args()
    by_phase: dict[str, list[float]] = {}
    seats = Rules.from_string(args.rules).players
    for number in range(args.hands):
        game = Game.new(args.rules, seed=args.seed + number, dealer=number % seats)
        extra = {"rollout": args.rollout} if args.rollout else {}
        players = [ExpertPlayer(f"bench/{number}/{s}", time=args.time, **extra)
                   for s in range(seats)]
        while not game.results:
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            phase = str(view.phase)
            if phase == str(Phase.PLAY):
                phase += f" ({len(view.hand or ())} cards)" if len(view.hand or ()) <= 5 else ""
            start = time.process_time()
            action = players[seat].choose(view)
            by_phase.setdefault(phase, []).append(time.process_time() - start)
            game.apply(action, seat)
    every = sorted(t for ts in by_phase.values() for t in ts)
    policy = args.rollout or ExpertPlayer().rollout
    print(f"expert(time={args.time}, rollout={policy}), {args.rules}, {args.hands} hands, "
          f"{len(every)} decisions")
    for phase, times in sorted(by_phase.items()):
        times.sort()
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(f"  {phase:18} n={len(times):4}  median {statistics.median(times):.3f} s  "
              f"p95 {p95:.3f} s  max {times[-1]:.3f} s")
    p95 = every[min(len(every) - 1, int(0.95 * len(every)))]
    print(f"  all                n={len(every):4}  median {statistics.median(every):.3f} s  "
          f"p95 {p95:.3f} s  max {every[-1]:.3f} s")


if __name__ == "__main__":
    main()
