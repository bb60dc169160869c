"""How far above their best meld the levels of 003 bid: the evidence behind
``players.inference.OFFSET`` (docs/players.md expert, "Deals and inference").

Plays only the auctions of DEALS fresh deals (seed i, dealer i mod 4) with four
players of LEVEL, and for every call prints the distribution of *bid minus the
caller's best meld* (over the four trump suits) and of *lowest bid declined
minus best meld* for passes: the likelihood in players/inference.py says a bid
``a`` comes from a hand whose best meld plus OFFSET is about ``a``.

    python bench/auction_calibration.py "standard(bid_sims=400)" --deals 150
    python bench/auction_calibration.py "pro(bid_sims=1000, rollouts=4)" --deals 150
"""

from __future__ import annotations

import argparse
import statistics
import sys

from pinochlekit import Bid, Game, Pass, Phase, Rules
from pinochlekit.players import make_player
from pinochlekit.players.search.inference import meld_function


def _quantile(values: list[int], q: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    """Print the two distributions for one level and preset."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("level")
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--deals", type=int, default=150)
    args = parser.parse_args(argv)
    rules = Rules.from_string(args.rules)
    meld = meld_function(rules)
    bids: list[int] = []
    passes: list[int] = []
    for seed in range(args.deals):
        game = Game.new(rules, seed=seed, dealer=seed % rules.players)
        players = [make_player(args.level, seed=f"{seed}-{s}") for s in range(rules.players)]
        high = 0
        while game.phase is Phase.AUCTION and not game.results:
            seat = game.to_act
            assert seat is not None
            action = players[seat].choose(game.view(seat))
            best = max(meld(game.hand(seat), trump) for trump in range(4)) * rules.unit
            lowest = (rules.opening_bid if not high else high + rules.step) * rules.unit
            if isinstance(action, Bid):
                bids.append(action.amount * rules.unit - best)
                high = action.amount
            elif isinstance(action, Pass):
                passes.append(lowest - best)
            game.apply(action, seat)
    for name, values in (("bid - best meld", bids), ("lowest declined - best meld", passes)):
        if values:
            print(f"{args.level} {args.rules} {name}: {len(values)} calls, median "
                  f"{statistics.median(values):g}, 10% {_quantile(values, 0.1)}, "
                  f"90% {_quantile(values, 0.9)} (ordinary scale)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
