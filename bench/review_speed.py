"""How long the review of one finished hand takes, and how noisy its values are.

Plays ``--hands`` first hands of seeded games (``standard`` players in every seat;
under ``--rules``, a preset or rules text: ``pagat``, ``three``, ``two``...), then
reviews each from seat 0 at the given budget (the defaults are ``pinochle review``'s:
expert time 1.0, 3 repeats) and prints per hand the CPU
seconds, the decisions valued, the median noise (standard error of an option's
value) and the trick the double-dummy line starts from (1: the first lead; later when
the exact search from earlier does not fit its budget of positions; two-handed 13, the
first of the last twelve tricks), then the median and largest time.

    python bench/review_speed.py                    # 5 hands, pagat, the defaults
    python bench/review_speed.py --rules three      # three-handed (docs/rules.md §3)
    python bench/review_speed.py --rules two        # two-handed (docs/rules.md §4)
    python bench/review_speed.py --rules doubledeck # the double deck (docs/rules.md §6)
    python bench/review_speed.py --hands 3 --time 0.25
"""

from __future__ import annotations

import argparse
import statistics
import time

from pinochlekit import Phase
from pinochlekit.engine.games import new_game
from pinochlekit.players import make_player
from pinochlekit.review import review_hand


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5)
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--time", type=float, default=1.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--first", type=int, default=1, help="the first game seed")
    args = parser.parse_args()
    seconds: list[float] = []
    for seed in range(args.first, args.first + args.hands):
        game = new_game(args.rules, seed=seed)
        players = [make_player("standard", seed=s) for s in range(game.rules.players)]
        while game.hand_number == 1 and game.phase is not Phase.GAME_OVER:
            seat = game.to_act
            assert seat is not None
            game.apply(players[seat].choose(game.view(seat)))
        start = time.process_time()
        review = review_hand(game.record, 1, 0, time=args.time, repeats=args.repeats)
        took = time.process_time() - start
        seconds.append(took)
        noise = [o.noise for d in review.decisions for o in d.options
                 if o.noise is not None]
        marks = sum(1 for d in review.decisions if d.mark)
        line = review.double_dummy
        starts = f"double dummy from trick {line[0].trick}" if line else "no double dummy"
        print(f"seed {seed}: {took:.1f} s CPU, {len(review.decisions)} decisions, "
              f"{marks} marked, median noise of an option's value "
              f"{statistics.median(noise) if noise else 0:.1f} points, {starts}", flush=True)
    print(f"{args.hands} hands: median {statistics.median(seconds):.1f} s, "
          f"largest {max(seconds):.1f} s (time={args.time}, repeats={args.repeats}, "
          f"{args.rules})")


if __name__ == "__main__":
    main()
