"""Decision times of the two-handed ``expert`` (the target: at most 1 s at the
95th percentile at the default ``time=1.0``, one core).

Plays ``--hands`` two-handed hands, ``expert(time=T)`` against ``standard`` (the
opponent only shapes the positions), and times every decision of the expert
in CPU seconds of this process (``time.process_time``, so other load on the
machine disturbs it less), by stage: early tricks, meld turns, last tricks.
Repeated ``--repeat`` times with other deals; prints each run and the spread.
With ``--solver N`` it times the exact solver instead: the values of every
legal lead at the first of the last tricks (12 tricks to play) of ``N`` hands
played by standard players, in C and, with ``--python``, in Python.

    python bench/expert_two.py [--time 1.0] [--hands 4] [--repeat 3] [--seed 1]
    python bench/expert_two.py --solver 20 [--python]
"""

from __future__ import annotations

import argparse
import statistics
import time

from pinochlekit import TwoHandedGame, TwoStage
from pinochlekit.players import make_player
from pinochlekit.players.two.levels import two_standard
from pinochlekit.players.two.solver import LateSolver, native_solver


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def run(budget: float, hands: int, seed: int) -> dict[str, list[float]]:
    """CPU seconds of each expert decision in ``hands`` hands, by stage."""
    times: dict[str, list[float]] = {"early tricks": [], "meld": [], "last tricks": []}
    for number in range(hands):
        game = TwoHandedGame.new("two", seed=f"bench-{seed}-{number}")
        expert_seat = number % 2
        players = {expert_seat: make_player(f"expert(time={budget})", seed),
                   1 - expert_seat: make_player("standard", seed)}
        while not game.results:
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            start = time.process_time()
            action = players[seat].choose(view)
            spent = time.process_time() - start
            if seat == expert_seat and len(view.legal_actions) > 1:
                times[str(view.stage)].append(spent)
            game.apply(action, seat)
    return times


def solver_times(positions: int, seed: int, native: bool) -> list[float]:
    """CPU seconds of the values of every lead at 12 tricks to play, per position."""
    out = []
    for number in range(positions):
        game = TwoHandedGame.new("two", seed=f"solver-{seed}-{number}")
        while game.stage is not TwoStage.LATE:
            game.apply(two_standard(game.view(game.to_act)))
        leader = game.to_act
        assert leader is not None
        solver = LateSolver(game.rules, int(game.trump), native=native)
        start = time.process_time()
        solver.lead_values(game.hand(leader), game.hand(1 - leader))
        out.append(time.process_time() - start)
    return out


def main() -> None:
    """Run the benchmark and print per-stage and overall percentiles."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=1.0)
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--solver", type=int, default=0, metavar="N")
    parser.add_argument("--python", action="store_true")
    args = parser.parse_args()
    if args.solver:
        kinds = [True, False] if args.python else [True]
        for native in kinds:
            if native and native_solver() is None:
                print("C solver not built")
                continue
            solved = solver_times(args.solver, args.seed, native)
            print(f"{'C' if native else 'Python'} solver, every lead at 12 tricks, "
                  f"{len(solved)} positions: median {statistics.median(solved) * 1000:.1f} ms, "
                  f"p95 {percentile(solved, 0.95) * 1000:.1f} ms, max {max(solved) * 1000:.1f} "
                  f"ms")
        return
    print(f"expert(time={args.time}) two-handed decisions (C solver: "
          f"{'yes' if native_solver() else 'no'}), {args.hands} hands per run")
    p95s = []
    for run_index in range(args.repeat):
        times = run(args.time, args.hands, args.seed + run_index)
        every = [t for values in times.values() for t in values]
        parts = ", ".join(f"{stage} n={len(v)} p95={percentile(v, 0.95):.3f} "
                          f"max={max(v):.3f}" for stage, v in times.items() if v)
        p95s.append(percentile(every, 0.95))
        print(f"run {run_index + 1}: all n={len(every)} median={statistics.median(every):.3f} "
              f"p95={p95s[-1]:.3f} max={max(every):.3f} s; {parts}")
    print(f"p95 over runs: min {min(p95s):.3f}, median {statistics.median(p95s):.3f}, "
          f"max {max(p95s):.3f} s")


if __name__ == "__main__":
    main()
