"""How much the expert's inference helps: log-likelihood of the true hidden hands.

Plays hands with ``pro`` players (the record of each is kept in memory), then,
at fixed moments of each hand, asks :func:`pinochlekit.players.search.inference.log_gain`
how much more probable the weighted sampler makes the true current hands of the
other seats than the exact uniform sampler does (natural log; 0 means no
gain, negative means the weighting misleads):

- ``auction``: every seat's view when trump is named (the auction evidence);
- ``meld``: the view of the seat to play at tricks 1, 4 and 8 (the meld not shown).

    python bench/expert_inference.py --hands 40
    python bench/expert_inference.py --hands 40 --offsets 150,190,230
"""

from __future__ import annotations

import argparse
import math
import random
import statistics

from pinochlekit import Game, Phase
from pinochlekit.players import make_player
from pinochlekit.players.search import inference


def positions(hands: int, rules: str) -> tuple[list[tuple[Game, int]], list[tuple[Game, int]]]:
    """(game at trump naming, seat) for every seat, and (game in play, seat) at
    tricks 1, 4 and 8, from ``hands`` hands played by pro players."""
    auction, play = [], []
    for number in range(hands):
        game = Game.new(rules, seed=f"inference/{number}", dealer=number % 4)
        players = [make_player("pro(bid_sims=400, rollouts=40)", f"i/{number}/{s}")
                   for s in range(4)]
        while not game.results:
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            if view.phase is Phase.TRUMP:
                auction += [(game.copy(), s) for s in range(4)]
            if view.phase is Phase.PLAY and not view.trick and len(view.tricks) in (1, 4, 8):
                play.append((game.copy(), seat))
            game.apply(players[seat].choose(view), seat)
    return auction, play


def gains(cases: list[tuple[Game, int]], samples: int, **switches: bool) -> list[float]:
    out = []
    for index, (game, seat) in enumerate(cases):
        truth = tuple(game.hand(s) for s in range(4))
        out.append(inference.log_gain(game.view(seat), truth, random.Random(index), samples,
                                      **switches))
    return out


def report(name: str, values: list[float]) -> None:
    finite = [v for v in values if math.isfinite(v)]
    ruled_out = sum(1 for v in values if v == -math.inf)
    sd = statistics.stdev(finite) if len(finite) > 1 else float("nan")
    half = 1.96 * sd / math.sqrt(len(finite)) if finite else float("nan")
    mean = statistics.fmean(finite) if finite else float("nan")
    print(f"  {name:28} n={len(values):4}  mean gain {mean:+.3f} nats "
          f"(95% CI {mean - half:+.3f} to {mean + half:+.3f})  truth ruled out: {ruled_out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--samples", type=int, default=400,
                        help="uniform deals estimating the normalizing constant")
    parser.add_argument("--offsets", default=str(inference.OFFSET),
                        help="comma-separated OFFSET values to compare for the auction")
    args = parser.parse_args()
    auction, play = positions(args.hands, args.rules)
    print(f"{args.hands} hands by pro players, {args.rules}; gain over the uniform sampler")
    for offset in (int(x) for x in args.offsets.split(",")):
        inference.OFFSET = offset
        report(f"auction (OFFSET={offset})", gains(auction, args.samples, meld=False))
    report("meld not shown (play)", gains(play, args.samples, auction=False))


if __name__ == "__main__":
    main()
