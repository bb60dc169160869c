"""Full double-deck hands per second against the single deck, in the same run, one core.

The random legal players of ``bench/hands_per_second.py`` (pass or raise one step
with equal chance in the auction, uniform passing and card play), every action
checked through ``apply``; runs alternate single deck and double deck so both
see the same load. Only hands whose tricks are all played count (12 tricks
single deck, 20 double deck). Rates are per CPU second of this process.

    python bench/double_speed.py [--seconds 10] [--repeat 3] [--single pagat]
        [--double doubledeck]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from pinochlekit import Action, Bid, Give, Pass, Phase, Return, Rules
from pinochlekit.engine.games import new_any_game


def play_hands(rules: Rules, seconds: float, seed: int) -> tuple[int, int, float]:
    """Play games until ``seconds`` pass; return (full hands, all deals, elapsed)."""
    rng = random.Random(seed)
    full = deals = 0
    start = time.process_time()
    game_seed = seed * 1_000_003
    while time.process_time() - start < seconds:
        game = new_any_game(rules, seed=game_seed)
        game_seed += 1
        while game.phase is not Phase.GAME_OVER and len(game.results) <= 500:
            phase = game.phase
            action: Action
            if phase is Phase.AUCTION:
                actions = game.legal_actions()
                bids = [a for a in actions[:4] if type(a) is Bid]
                passes = [a for a in actions[:2] if type(a) is Pass]
                action = rng.choice(passes) if passes and (not bids or rng.random() < 0.5) \
                    else bids[0]
            elif phase is Phase.GIVE or phase is Phase.RETURN:
                assert game.to_act is not None
                cards = tuple(rng.sample(game.hand(game.to_act).cards(), rules.cards_passed))
                action = Give(cards) if phase is Phase.GIVE else Return(cards)
            else:
                action = rng.choice(game.legal_actions())
            game.apply(action)
        deals += len(game.results)
        full += sum(len(result.tricks) == rules.hand_size for result in game.results)
    return full, deals, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--single", default="pagat")
    parser.add_argument("--double", default="doubledeck")
    args = parser.parse_args()
    rates: dict[str, list[float]] = {args.single: [], args.double: []}
    for run in range(args.repeat):
        for text in (args.single, args.double):
            full, deals, elapsed = play_hands(Rules.from_string(text), args.seconds, run + 1)
            rates[text].append(full / elapsed)
            print(f"run {run + 1} {text}: {full} full hands ({deals} deals) in {elapsed:.1f} s"
                  f" = {full / elapsed:,.0f} full hands/s")
    for text, values in rates.items():
        print(f"{text}: median {statistics.median(values):,.0f} full hands/s (min "
              f"{min(values):,.0f}, max {max(values):,.0f}, {args.repeat} runs)")
    ratio = statistics.median(rates[args.double]) / statistics.median(rates[args.single])
    print(f"double / single: {ratio:.2f}")


if __name__ == "__main__":
    main()
