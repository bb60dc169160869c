"""Full hands per second through the checked Game API, one core.

Random legal players: in the auction each seat passes or raises one step with
equal chance (uniform over the ~950 legal bids would bid every hand off the
board, so no trick would ever be played); passing picks cards uniformly from
the hand; every card play is uniform over ``game.legal_actions()``. Every
action goes through ``game.apply`` (checked). Only hands whose tricks are all
played (twelve, or fifteen three-handed: ``--rules three``) count as full hands.

Rates are per CPU second of this one process (time.process_time), so other load on
the machine disturbs them less.

    python bench/hands_per_second.py [--seconds 10] [--rules pagat] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from pinochlekit import Action, Bid, Discard, Game, Give, Pass, Phase, Return, Rules

PLAY = Phase.PLAY


def play_hands(rules: Rules, seconds: float, seed: int) -> tuple[int, int, float]:
    """Play games until ``seconds`` pass; return (full hands, all deals, elapsed)."""
    rng = random.Random(seed)
    full = deals = 0
    start = time.process_time()
    game_seed = seed * 1_000_003
    while time.process_time() - start < seconds:
        game = Game.new(rules, seed=game_seed)
        game_seed += 1
        while True:
            phase = game.phase
            action: Action
            if phase is PLAY:
                action = rng.choice(game.legal_actions())
            elif phase is Phase.AUCTION:
                if len(game.results) > 500:
                    break  # a safety stop: these games always end far sooner
                actions = game.legal_actions()
                bids = [a for a in actions[:4] if type(a) is Bid]
                passes = [a for a in actions[:2] if type(a) is Pass]
                action = rng.choice(passes) if passes and (not bids or rng.random() < 0.5) \
                    else bids[0]
            elif phase is Phase.GIVE or phase is Phase.RETURN:
                assert game.to_act is not None
                cards = rng.sample(game.hand(game.to_act).cards(), rules.cards_passed)
                action = Give(tuple(cards)) if phase is Phase.GIVE else Return(tuple(cards))
            elif phase is Phase.DISCARD:  # three-handed, widow taken: 3 random cards
                assert game.to_act is not None
                action = Discard(tuple(rng.sample(game.hand(game.to_act).cards(),
                                                  rules.widow_size)))
            elif phase is Phase.GAME_OVER:
                break
            else:
                action = rng.choice(game.legal_actions())
            game.apply(action)
        deals += len(game.results)
        full += sum(len(result.tricks) == rules.hand_size for result in game.results)
    return full, deals, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rules = Rules.from_string(args.rules)
    rates = []
    for run in range(args.repeat):
        full, deals, elapsed = play_hands(rules, args.seconds, run + 1)
        rates.append(full / elapsed)
        print(f"run {run + 1}: {full} full hands ({deals} deals) in {elapsed:.1f} s = "
              f"{full / elapsed:,.0f} full hands/s")
    print(f"{args.rules}: median {statistics.median(rates):,.0f} full hands/s "
          f"(min {min(rates):,.0f}, max {max(rates):,.0f}, {args.repeat} runs)")


if __name__ == "__main__":
    main()
