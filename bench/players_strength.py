"""Strength check: duplicate deal pairs between two player specs, real Game.

Each deal is played twice with the same cards and dealer, player A at seats 0
and 2 then at 1 and 3; a pair's value is A's net score per hand, the mean of
(A's team score - B's team score) over the two orientations. Every player is
made afresh for each hand with a seed from (deal, seat), so both orientations
draw the same random numbers. Also prints decision timings of one standard
bid and one pro card play.

    python bench/players_strength.py "standard" "easy" --deals 40
    python bench/players_strength.py "pro(rollouts=50)" "standard" --deals 40 --workers 2
    python bench/players_strength.py --timings
"""

from __future__ import annotations

import argparse
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from pinochlekit import Game, Phase, Rules
from pinochlekit.players import StandardPlayer, make_player


def play_hand(rules: str, seed: int, a: str, b: str, a_team: int) -> int:
    """A's team score minus B's for the first hand of game ``seed``."""
    game = Game.new(rules, seed=seed, dealer=seed % 4)
    specs = [a if seat % 2 == a_team else b for seat in range(4)]
    players = [make_player(spec, f"strength/{seed}/{seat}") for seat, spec in enumerate(specs)]
    while not game.results:
        seat = game.to_act
        assert seat is not None
        game.apply(players[seat].choose(game.view(seat)), seat)
    scores = game.results[0].scores
    return scores[a_team] - scores[1 - a_team]


def deal_pair(job: tuple[str, int, str, str]) -> float:
    """A's net score per hand over the two orientations of one deal."""
    rules, seed, a, b = job
    return (play_hand(rules, seed, a, b, 0) + play_hand(rules, seed, a, b, 1)) / 2


def timings() -> None:
    """Seconds for one standard bid (N = 1000) and one pro card play (200 rollouts)."""
    game = Game.new("pagat", seed=11)
    view = game.view(game.to_act)
    start = time.process_time()
    StandardPlayer(1).choose(view)
    print(f"standard first bid, N = 1000: {time.process_time() - start:.2f} s")
    helpers = [StandardPlayer(s, bid_sims=40) for s in range(4)]
    pro = make_player("pro(bid_sims=40)", 2)
    samples: list[tuple[int, float]] = []
    while not game.results:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        if game.phase is Phase.PLAY and not game.results:
            plays = sum(1 for a in view.legal_actions if a.verb == "play")
            start = time.process_time()
            pro.choose(view)
            if plays > 1:
                samples.append((plays, time.process_time() - start))
        game.apply(helpers[seat].choose(view), seat)
    for plays, seconds in samples:
        print(f"pro card play, {plays} legal cards x 200 rollouts: {seconds:.2f} s")


def main() -> None:
    """Run the check from the command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", nargs="?", default="standard")
    parser.add_argument("b", nargs="?", default="easy")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--timings", action="store_true")
    args = parser.parse_args()
    if args.timings:
        timings()
        return
    Rules.from_string(args.rules)
    jobs = [(args.rules, args.seed + i, args.a, args.b) for i in range(args.deals)]
    begin = time.time()
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            values = list(pool.map(deal_pair, jobs))
    else:
        values = [deal_pair(job) for job in jobs]
    mean = statistics.fmean(values)
    error = statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
    print(f"{args.a} vs {args.b}, {args.rules}, {len(values)} deal pairs: "
          f"{mean:+.1f} points per hand for A (standard error {error:.1f}); "
          f"{time.time() - begin:.0f} s")


if __name__ == "__main__":
    main()
