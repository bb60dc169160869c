"""Whether expert's opening bids are too timid: both branches of one call, played out.

For each deal, four (or three) players of one level hold the auction until the
caller at ``--position`` (0: the dealer's left) speaks with nobody having bid; there
the hand is played out twice from the same state with the same seeded players:
once after a pass, once after the lowest bid (docs/rules.md §1 Auction). The
difference of the caller's side's margin for the hand (its score minus the best
other side's) says what opening would have been worth on that deal; expert's own
estimates of both calls are kept beside (``--json``) to see whether they lean: they
are in its own measure, the side's score minus the others' average (three-handed:
minus the average of the two opponents), so compare them with ``pass_net`` and
``bid_net``, not with the side's own hand score (``*_own``), which three-handed
lies about 125 points above them when declaring. Grouped by
what the level chose there, a mean difference above zero where it passed says it
passes hands it should open (and below zero where it bid, the reverse).

    python bench/auction_branches.py --rules cutthroat --position 1 --deals 100
    python bench/auction_branches.py --rules three --position 1 --deals 100 \\
        --level "expert(time=0.05)" --workers 2
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from pinochlekit import Bid, Game, Pass, Rules
from pinochlekit.players import make_player


def _margin(game: Game, seat: int) -> tuple[int, int, int]:
    """The hand's score of ``seat``'s side, that minus the best other side's, and
    that minus the others' average rounded down (expert's own measure, docs/players.md
    expert "Three-handed"; four-handed the same as the margin)."""
    rules = game.rules
    scores = game.results[0].scores
    ours = rules.team_of(seat)
    others = [s for t, s in enumerate(scores) if t != ours]
    return scores[ours], scores[ours] - max(others), scores[ours] - sum(others) // len(others)


def branch(rules_text: str, level: str, seed: int, position: int) -> dict[str, Any] | None:
    """Deal ``seed``: the caller at ``position`` facing an unopened auction, both
    branches played out; ``None`` if someone bid before it (or a redeal)."""
    rules = Rules.from_string(rules_text)
    dealer = seed % rules.players
    game = Game.new(rules, seed=seed, dealer=dealer)
    players = [make_player(level, seed=f"{seed}-{s}") for s in range(rules.players)]
    caller = (dealer + 1 + position) % rules.players
    while game.to_act != caller:
        seat = game.to_act
        assert seat is not None
        action = players[seat].choose(game.view(seat))
        if isinstance(action, Bid) or game.results:
            return None
        game.apply(action, seat)
    view = game.view(caller)
    bids = [a for a in view.legal_actions if isinstance(a, Bid)]
    passes = [a for a in view.legal_actions if isinstance(a, Pass) and not a.help]
    if not bids or not passes:
        return None
    advise = getattr(players[caller], "advise", None)
    estimates: dict[str, float] = {}
    if advise is not None:  # expert: its choice with its estimates (the same choice)
        decision = advise(view)
        chosen = decision.action
        estimates = {"est_pass": decision.options["pass"][0],
                     "est_bid": max((v[0] for k, v in decision.options.items()
                                     if k != "pass"), default=float("nan"))}
    else:
        chosen = players[caller].choose(view)
    out: dict[str, Any] = {"seed": seed, "caller": caller,
                           "chose": "bid" if isinstance(chosen, Bid) else "pass", **estimates}
    for name, first in (("pass", passes[0]), ("bid", bids[0])):
        # the same players from the same state for both branches: fresh, seeded alike
        again = [make_player(level, seed=f"{seed}-{s}-after") for s in range(rules.players)]
        play = game.copy()
        play.apply(first, caller)
        while not play.results:
            seat = play.to_act
            assert seat is not None
            play.apply(again[seat].choose(play.view(seat)), seat)
        out[f"{name}_own"], out[name], out[f"{name}_net"] = _margin(play, caller)
        out[f"{name}_declarer"] = play.results[0].declarer
    return out


def _job(args: tuple[str, str, int, int]) -> dict[str, Any] | None:
    return branch(*args)


def _mean_ci(values: list[float]) -> str:
    if len(values) < 2:
        return f"n={len(values)}"
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{mean:+.1f} (95% CI {mean - half:+.1f} to {mean + half:+.1f}, n={len(values)})"


def main(argv: list[str] | None = None) -> int:
    """Play the branches and print the mean worth of opening, by what was chosen."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="cutthroat")
    parser.add_argument("--level", default="expert(time=0.05)")
    parser.add_argument("--position", type=int, default=1,
                        help="the caller, counted from the dealer's left (0)")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", help="also write every deal's branches to this file")
    args = parser.parse_args(argv)
    jobs = [(args.rules, args.level, seed, args.position)
            for seed in range(args.first, args.first + args.deals)]
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            rows = [r for r in pool.map(_job, jobs) if r is not None]
    else:
        rows = [r for r in map(_job, jobs) if r is not None]
    print(f"{args.level} under {args.rules}, caller {args.position} from the dealer's left, "
          f"{len(rows)} of {args.deals} deals unopened when it spoke")
    for chose in ("pass", "bid"):
        diffs = [float(r["bid"] - r["pass"]) for r in rows if r["chose"] == chose]
        print(f"  chose {chose}: worth of opening (bid minus pass) {_mean_ci(diffs)}")
    print(f"  all: {_mean_ci([float(r['bid'] - r['pass']) for r in rows])}")
    print(f"  opened in {sum(r['chose'] == 'bid' for r in rows)} of {len(rows)}; opening "
          f"would have paid in {sum(r['bid'] > r['pass'] for r in rows)}")
    if rows and "est_bid" in rows[0]:  # the estimates against the outcome, one measure
        declared = [float(r["bid_net"] - r["est_bid"]) for r in rows
                    if r["bid_declarer"] == r["caller"]]
        print(f"  outcome minus estimate: declaring (where it declared after the bid) "
              f"{_mean_ci(declared)}; passing "
              f"{_mean_ci([float(r['pass_net'] - r['est_pass']) for r in rows])}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as file:
            json.dump(rows, file)
    return 0


if __name__ == "__main__":
    sys.exit(main())
