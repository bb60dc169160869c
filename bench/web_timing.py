"""How much a spectator learns from when a web table's computer moves arrive.

Plays hands in this process with four computer seats (the web's own Seat driver
and level), times each real decision, and sends each move by two rules: *old*,
one pace after the turn (a slower decision arrives when it is done), and *new*,
the web's rule (``pinochlekit.web.timing``: the pace raised to what the seat's
recent choices in that phase took). For each rule and phase (a spectator sees
the phase) it prints how well the arrival delay tells a forced move (one legal
action) from a chosen one: the area under the ROC curve (0.5: the delay says
nothing; 1.0: it tells them apart every time), and the median delay of each kind.

    python bench/web_timing.py --level "expert(time=0.3)" --pace 0.3 --hands 2
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from pinochlekit.engine.games import new_game
from pinochlekit.players.seat import Seat
from pinochlekit.web.timing import MoveTiming


def auc(forced: list[float], chosen: list[float]) -> float:
    """The chance a random chosen move arrives later than a random forced one (ties
    count a half)."""
    if not forced or not chosen:
        return float("nan")
    wins = sum((c > f) + 0.5 * (c == f) for c in chosen for f in forced)
    return wins / (len(forced) * len(chosen))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="expert(time=0.3)")
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--pace", type=float, default=0.3)
    parser.add_argument("--hands", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = new_game(args.rules, seed=args.seed)
    seats = [Seat.new(args.level, s, game.seed) for s in range(game.rules.players)]
    timing = MoveTiming(random.Random(args.seed))
    delays: dict[tuple[str, str], dict[bool, list[float]]] = {}
    while len(game.results) < args.hands and game.to_act is not None:
        seat = game.to_act
        view = game.view(seat)
        forced = len(game.legal_actions()) == 1
        started = time.monotonic()
        action = seats[seat].choose(view)
        took = time.monotonic() - started
        phase = str(view.phase)
        if not forced:
            timing.record(seat, phase, took)
        send_at = timing.forced if forced else timing.target
        for rule, delay in (("old", max(args.pace, took)),
                            ("new", max(send_at(seat, phase, args.pace), took))):
            delays.setdefault((rule, phase), {True: [], False: []})[forced].append(delay)
        game.apply(action, seat)
    print(f"{args.level}, {args.rules}, pace {args.pace} s, {args.hands} hands, "
          f"seed {args.seed}")
    for (rule, phase), kinds in sorted(delays.items(), key=lambda item: item[0][::-1]):
        forced_d, chosen_d = kinds[True], kinds[False]
        print(f"  {phase} {rule}: {len(forced_d)} forced, {len(chosen_d)} chosen; "
              f"AUC {auc(forced_d, chosen_d):.2f}; median delay forced "
              f"{statistics.median(forced_d or [0]):.3f} s, chosen "
              f"{statistics.median(chosen_d or [0]):.3f} s")


if __name__ == "__main__":
    main()
