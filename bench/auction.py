"""The auctions four computer players of one level hold (docs/players.md "Round
score", "Auction habits").

For each level and preset, DEALS fresh deals (seed i, dealer i mod 4), each
played to its result by four players of the level: the share of hands where
the dealer is stuck (nobody bid), the contracts (median, 90th percentile, in
the game's scale), the share of contracts made, and how often more than one
player bids. Redeals are left out of the counts.

    python bench/auction.py                                  # easy, standard, pro; 500 deals
    python bench/auction.py --levels "expert(time=0.1)" --deals 100 --rules pagat
    python bench/auction.py --workers 2 --json out.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass

from pinochlekit import Bid, Game, Outcome, Rules
from pinochlekit.players import make_player


@dataclass
class Deal:
    """What one deal's auction and result were."""

    redeal: bool
    stuck: bool
    bidders: int
    contract: int
    made: bool


def play_deal(rules_text: str, level: str, seed: int) -> Deal:
    """One hand from deal ``seed``, four players of ``level`` (seeded per seat)."""
    rules = Rules.from_string(rules_text)
    game = Game.new(rules, seed=seed, dealer=seed % rules.players)
    players = [make_player(level, seed=f"{seed}-{s}") for s in range(rules.players)]
    bidders: set[int] = set()
    while not game.results:
        seat = game.to_act
        assert seat is not None
        action = players[seat].choose(game.view(seat))
        if isinstance(action, Bid):
            bidders.add(seat)
        game.apply(action, seat)
    result = game.results[0]
    if result.outcome in (Outcome.REDEAL, Outcome.PASSED_OUT):
        return Deal(True, False, len(bidders), 0, False)
    return Deal(False, not bidders, len(bidders), result.contract, result.made)


def _job(args: tuple[str, str, int]) -> Deal:
    return play_deal(*args)


def summarize(deals: list[Deal]) -> dict[str, float]:
    """The figures of one level under one preset."""
    hands = [d for d in deals if not d.redeal]
    n = len(hands) or 1
    contracts = sorted(d.contract for d in hands)
    p90 = contracts[min(len(contracts) - 1, int(0.9 * len(contracts)))] if contracts else 0
    return {
        "hands": len(hands),
        "stuck": sum(d.stuck for d in hands) / n,
        "median": statistics.median(contracts) if contracts else 0,
        "p90": p90,
        "made": sum(d.made for d in hands) / n,
        "contested": sum(d.bidders > 1 for d in hands) / n,
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one line per level and preset."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="easy,standard,pro",
                        help="levels separated by ';' or ',' (default: easy,standard,pro)")
    parser.add_argument("--rules", default="pagat;modern;playingcards",
                        help="presets separated by ';' (default: pagat;modern;playingcards)")
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--first", type=int, default=0, help="first deal seed")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", help="also write every figure to this file")
    args = parser.parse_args(argv)
    sep = ";" if ";" in args.levels or "(" in args.levels else ","
    levels = [x.strip() for x in args.levels.split(sep) if x.strip()]
    presets = [x.strip() for x in args.rules.split(";") if x.strip()]
    out = []
    print(f"{'level':<22} {'rules':<14} {'hands':>5} {'stuck':>6} {'median':>6} {'p90':>5} "
          f"{'made':>6} {'2+ bid':>6} {'s':>6}")
    for level in levels:
        for preset in presets:
            jobs = [(preset, level, seed) for seed in range(args.first, args.first + args.deals)]
            start = time.perf_counter()
            if args.workers > 1:
                with ProcessPoolExecutor(args.workers) as pool:
                    deals = list(pool.map(_job, jobs, chunksize=4))
            else:
                deals = [_job(job) for job in jobs]
            seconds = time.perf_counter() - start
            row = summarize(deals)
            out.append({"level": level, "rules": preset, **row, "seconds": seconds,
                        "deals": [asdict(d) for d in deals]})
            print(f"{level:<22} {preset:<14} {row['hands']:>5} {row['stuck']:>6.1%} "
                  f"{row['median']:>6g} {row['p90']:>5g} {row['made']:>6.1%} "
                  f"{row['contested']:>6.1%} {seconds:>6.0f}", flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
