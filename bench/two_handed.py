"""Two-handed hands per second (docs/rules.md §4), one core.

Two measures, each repeated ``--repeat`` times:

* ``engine``: random legal actions (uniform over ``game.legal_actions()``,
  melds and ``no meld`` included), every action through the checked
  ``game.apply``; a hand is the 24 tricks from deal to score.
* ``standard``: both seats played by the ``standard`` player through their
  views (``player.choose(game.view(seat))``), as in ``pinochle match``.
* ``pro`` (``--pro``): both seats ``pro``; hands per second and CPU
  milliseconds per decision. Its rollouts run in the two-handed C core
  (``pinochlekit.players.two.core``) when it is built; ``--python-rollouts`` turns the
  core off to measure the pure-Python rollouts.

* ``rollouts`` (``--rollouts``): ``players.twohanded.rollout_values`` from the
  first lead of a game, a whole hand per rollout, on 500 deals of the unseen
  cards a call (the time of the rollouts only); ``--python-rollouts`` as above.

Rates are per CPU second of this process (time.process_time), so other load on
the machine disturbs them less. The engine itself is Python.

    python bench/two_handed.py [--seconds 5] [--repeat 3] [--rules two]
    python bench/two_handed.py --pro [--python-rollouts] [--pro-spec pro]
    python bench/two_handed.py --rollouts [--python-rollouts]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from pinochlekit import Rules, TwoHandedGame
from pinochlekit.players import make_player
from pinochlekit.players.two import core as twocore
from pinochlekit.players.two.levels import rollout_values, sample_hidden


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
    hands, elapsed, _ = player_decisions(rules, spec, seconds, seed)
    return hands, elapsed


def player_decisions(rules: Rules, spec: str, seconds: float,
                     seed: int) -> tuple[int, float, int]:
    """Hands between two ``spec`` players until ``seconds`` pass (at least one hand);
    (hands, CPU seconds, decisions)."""
    hands = decisions = 0
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
            decisions += 1
        hands += 1
    return hands, time.process_time() - start, decisions


def rollouts_report(rules: Rules, seconds: float, repeat: int) -> None:
    """Print whole-hand standard rollouts per second from first leads."""
    rates = []
    for i in range(repeat):
        done, spent = 0, 0.0
        seed = i * 1_000_003
        while spent < seconds:
            game = TwoHandedGame.new(rules, seed=seed)
            view = game.view(game.to_act)
            rng = random.Random(seed)
            seed += 1
            deals = [sample_hidden(view, rng) for _ in range(500)]
            start = time.process_time()  # the rollouts only, not the dealing
            done += len(rollout_values(view, view.legal_actions[0], deals))
            spent += time.process_time() - start
        rates.append(done / spent)
    where = "C core" if twocore.core is not None else "Python"
    print(f"standard rollouts of a whole hand ({where}): {statistics.median(rates):,.0f}/s "
          f"median of {repeat} (min {min(rates):,.0f}, max {max(rates):,.0f}); rules {rules}")


def pro_report(rules: Rules, spec: str, seconds: float, repeat: int) -> None:
    """Print pro's hands per second and milliseconds per decision."""
    rates, per_decision = [], []
    for i in range(repeat):
        hands, elapsed, decisions = player_decisions(rules, spec, seconds, i + 1)
        rates.append(hands / elapsed)
        per_decision.append(1000 * elapsed / decisions)
    where = "C core" if twocore.core is not None else "Python"
    print(f"{spec} players ({where} rollouts): {statistics.median(rates):.2f} hands/s median "
          f"of {repeat} (min {min(rates):.2f}, max {max(rates):.2f}); "
          f"{statistics.median(per_decision):.1f} ms per decision (min "
          f"{min(per_decision):.1f}, max {max(per_decision):.1f}); rules {rules}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rules", default="two")
    parser.add_argument("--player", default="standard")
    parser.add_argument("--pro", action="store_true",
                        help="measure pro players (both seats) instead")
    parser.add_argument("--pro-spec", default="pro")
    parser.add_argument("--rollouts", action="store_true",
                        help="measure whole-hand standard rollouts instead")
    parser.add_argument("--python-rollouts", action="store_true",
                        help="turn the two-handed C core off")
    args = parser.parse_args()
    rules = Rules.from_string(args.rules)
    if args.python_rollouts:
        twocore.core = None
    if args.pro:
        pro_report(rules, args.pro_spec, args.seconds, args.repeat)
        return
    if args.rollouts:
        rollouts_report(rules, args.seconds, args.repeat)
        return
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
