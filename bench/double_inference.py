"""The double deck's auction model (players/double/inference.py) fitted to the levels.

Plays the auctions of ``--hands`` fresh double-deck deals with four players of each
``--levels`` level and records every call: the caller's best meld (over the four
trumps, docs/rules.md §6) and the amount it bid, or the lowest bid it declined.
Then fits the two constants of the likelihood ``sigmoid((meld + OFFSET - amount) /
SCALE)`` (bid; one minus it for a pass) by maximum likelihood over a grid, and
prints the fit, its log-likelihood per call and that of the model with no
information (every call as likely as its share), per level and pooled.

    python bench/double_inference.py --hands 400
    python bench/double_inference.py --hands 200 --levels "pro;expert(time=0.3)"
"""

from __future__ import annotations

import argparse
import math

from pinochlekit.engine.actions import Bid, Pass
from pinochlekit.engine.double.game import DoubleDeckGame
from pinochlekit.engine.double.meld import meld_table
from pinochlekit.engine.views import Phase
from pinochlekit.players import make_player
from pinochlekit.players.double.mend import best_table_meld
from pinochlekit.players.search.inference import sigmoid

Call = tuple[int, int, bool]  # best meld, amount, whether a bid


def calls_of(level: str, hands: int, rules: str) -> list[Call]:
    """Every call of ``hands`` auctions of four ``level`` players."""
    out: list[Call] = []
    for number in range(hands):
        game = DoubleDeckGame.new(rules, seed=f"double-inference/{number}", dealer=number % 4)
        values = meld_table(game.rules)
        best = [best_table_meld(values, list(game.hand(s).counts)) for s in range(4)]
        players = [make_player(level, f"di/{number}/{s}") for s in range(4)]
        while game.phase is Phase.AUCTION and not game.results:
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            lowest = min((a.amount for a in view.legal_actions if isinstance(a, Bid)),
                         default=None)
            action = players[seat].choose(view)
            if isinstance(action, Bid):
                out.append((best[seat], action.amount, True))
            elif isinstance(action, Pass) and lowest is not None:
                out.append((best[seat], lowest, False))
            game.apply(action, seat)
    return out


def log_likelihood(calls: list[Call], offset: float, scale: float) -> float:
    """The mean log-likelihood per call of the model."""
    total = 0.0
    for meld, amount, bid in calls:
        p = sigmoid((meld + offset - amount) / scale)
        p = min(max(p, 1e-9), 1 - 1e-9)
        total += math.log(p if bid else 1 - p)
    return total / len(calls)


def fit(calls: list[Call]) -> tuple[float, float, float]:
    """(offset, scale, mean log-likelihood) of the best model on a grid."""
    return max(((o, s, log_likelihood(calls, o, s)) for o in range(-20, 81, 2)
                for s in (2, 3, 4, 6, 8, 10, 12, 15, 20, 25, 30)), key=lambda t: t[2])


def main() -> int:
    """Play, fit and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--levels", default="pro;expert(time=0.3)")
    parser.add_argument("--rules", default="doubledeck")
    args = parser.parse_args()
    pooled: list[Call] = []
    for level in args.levels.split(";"):
        calls = calls_of(level, args.hands, args.rules)
        pooled += calls
        bids = sum(b for _, _, b in calls) / len(calls)
        flat = bids * math.log(bids) + (1 - bids) * math.log(1 - bids)
        offset, scale, ll = fit(calls)
        print(f"{level}: {len(calls)} calls ({bids:.0%} bids); OFFSET {offset}, SCALE {scale}: "
              f"log-likelihood {ll:.3f} per call (no information: {flat:.3f})")
    offset, scale, ll = fit(pooled)
    print(f"pooled: {len(pooled)} calls; OFFSET {offset}, SCALE {scale}: {ll:.3f} per call")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
