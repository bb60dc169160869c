"""Two-handed hands per second (RULES.md §4), one core.

Two measures, each repeated ``--repeat`` times:

* ``engine``: random legal actions (uniform over ``game.legal_actions()``,
  melds and ``no meld`` included), every action through the checked
  ``game.apply``; a hand is the 24 tricks from deal to score.
* ``standard``: both seats played by the ``standard`` player through their
  views (``player.choose(game.view(seat))``), as in ``pinochle match``.

Rates are per CPU second of this process (time.process_time), so other load on
the machine disturbs them less. The C simulation core does not cover the
two-handed game: everything here is Python.

    python bench/two_handed.py [--seconds 5] [--repeat 3] [--rules two]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from pinochlekit import Rules, TwoHandedGame
from pinochlekit.players import make_player


def engine_hands(rules: Rules, seconds: float, seed: int) -> tuple[int, float]:
    """Random games until ``seconds`` pass; (hands finished, CPU seconds)."""
    rng = random.Random(seed)
    hands = 0
    start = time.process_time()
    game_seed = seed * 1_000_003
    while time.process_time() - start < seconds:
        game = TwoHandedGame.new(rules, seed=game_seed)
        game_seed += 1
        while game.winner is None:
            game.apply(rng.choice(game.legal_actions()))
        hands += len(game.results)
    return hands, time.process_time() - start


def player_hands(rules: Rules, spec: str, seconds: float, seed: int) -> tuple[int, float]:
    """Hands between two ``spec`` players until ``seconds`` pass."""
    hands = 0
    start = time.process_time()
    game_seed = seed * 1_000_003
    while time.process_time() - start < seconds:
        game = TwoHandedGame.new(rules, seed=game_seed)
        players = [make_player(spec, f"{game_seed}/{seat}") for seat in (0, 1)]
        game_seed += 1
        while not game.results:
            seat = game.to_act
            assert seat is not None
            game.apply(players[seat].choose(game.view(seat)), seat)
        hands += 1
    return hands, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rules", default="two")
    parser.add_argument("--player", default="standard")
    args = parser.parse_args()
    rules = Rules.from_string(args.rules)
    for name in ("engine (random actions)", f"{args.player} players"):
        rates = []
        for i in range(args.repeat):
            if name.startswith("engine"):
                hands, elapsed = engine_hands(rules, args.seconds, i + 1)
            else:
                hands, elapsed = player_hands(rules, args.player, args.seconds, i + 1)
            rates.append(hands / elapsed)
        spread = f"min {min(rates):.0f}, max {max(rates):.0f}"
        print(f"{name}: {statistics.median(rates):.0f} hands/s median of {args.repeat} "
              f"({spread}); rules {rules}")


if __name__ == "__main__":
    main()
