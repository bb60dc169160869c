"""Where expert's three-handed bid estimate goes wrong: estimate against outcome, split.

For each deal, players of ``--level`` hold the auction until the caller at
``--position`` (0: the dealer's left) speaks with nobody having bid (as
``bench/auction_branches.py``); there the hand is played out twice by the same
level, after the lowest bid and after a pass (the "realized" round scores).
Beside them, on the same deal, the value of declaring at the lowest bid is
computed several ways, all in the expert's own measure (docs/players.md expert
"Three-handed": the player's hand score minus the average of its two opponents',
rounded down; the hand score alone, ``own``, is not comparable with it):

- ``est``: the estimate of standard-play simulations on the expert's sampled,
  weighted deals, the best suit's mean (what ``bid_rollout=standard`` compares
  with passing); ``est_best_skilled`` the same with the skilled card play;
- ``est_suit``: the same deals, at the trump it named when it did declare;
- ``est_skilled``: the same deals and suit, the simulated hand played by the
  skilled card play instead of standard's;
- ``true_std`` / ``true_skilled``: the true deal (hands and widow) at that suit,
  standard or skilled play (both deterministic: one hand each);
- ``realized``: the hand played out by the level (at ``--defenders`` for the
  other two seats if given: e.g. ``skilled`` to see the declarer's play alone);
- ``pass_standard`` / ``pass_skilled``: the value of passing on the same deals
  with either card play, against ``realized_pass``.

Only deals where the caller ended up declaring at the lowest bid count in the
declaring summary. Each difference of means says what one step adds:
``est_suit - est`` (the suit chosen after the widow), ``true_std - est_suit``
(the sampled deals), ``true_skilled - true_std`` (the simulated card play),
``realized - true_skilled`` (the rest: the level's own play against the
skilled play).

    python bench/three_bid_bias.py --position 0 --deals 100 --workers 2
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from pinochlekit import Bid, Game, Pass, Rules
from pinochlekit.engine.cards import Hand
from pinochlekit.players import make_player
from pinochlekit.players.easy import seat_hand
from pinochlekit.players.expert import ExpertPlayer
from pinochlekit.players.search.backends import simulate_hands
from pinochlekit.players.search.simulate import Start
from pinochlekit.players.standard import trump_suits


def _mean(scores: list[int], weights: list[float]) -> float:
    return sum(s * w for s, w in zip(scores, weights, strict=True))


def branch(rules_text: str, level: str, defenders: str | None, seed: int,
           position: int) -> dict[str, Any] | None:
    """Deal ``seed``: the caller's estimates of declaring at the lowest bid, and the
    hand played out after it bids; ``None`` if someone bid before it."""
    rules = Rules.from_string(rules_text)
    dealer = seed % rules.players
    game = Game.new(rules, seed=seed, dealer=dealer)
    truth = (*(Hand.from_cards(h) for h in game.dealt), Hand.from_cards(game._widow))
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
    if not bids or Pass() not in view.legal_actions:
        return None
    lowest = bids[0].amount
    expert = players[caller]
    assert isinstance(expert, ExpertPlayer)
    decision = expert.advise(view)
    state = expert.rng.getstate()
    deals, weights = expert._deals(view, expert.bid_deals)  # the deals advise used
    expert.rng.setstate(state)
    suits = trump_suits(rules, seat_hand(view))

    def sampled(suit: int, policy: str) -> float:
        start = Start(rules, caller, lowest, suit, caller, policy=policy)  # type: ignore[arg-type]
        return _mean(simulate_hands(start, deals, caller), weights)

    def true(suit: int, policy: str) -> int:
        start = Start(rules, caller, lowest, suit, caller, policy=policy)  # type: ignore[arg-type]
        return simulate_hands(start, [truth], caller)[0]

    est = {s: sampled(s, "standard") for s in suits}
    out: dict[str, Any] = {
        "seed": seed, "chose": "bid" if isinstance(decision.action, Bid) else "pass",
        "est": max(est.values()), "est_best_skilled": max(sampled(s, "skilled") for s in suits),
        "own_pass": decision.options["pass"][0]}
    kept = expert.bid_rollout
    for policy in ("standard", "skilled"):  # the value of passing, both card plays
        expert.bid_rollout = policy
        out[f"pass_{policy}"] = expert._pass_value(view, deals, weights)[0]
    expert.bid_rollout = kept
    for name, first in (("pass", Pass()), ("bid", bids[0])):
        again = [make_player(level if s == caller or defenders is None else defenders,
                             seed=f"{seed}-{s}-after") for s in range(rules.players)]
        play = game.copy()
        play.apply(first, caller)
        while not play.results:
            seat = play.to_act
            assert seat is not None
            play.apply(again[seat].choose(play.view(seat)), seat)
        if name == "pass":
            each = play.results[0].scores
            out["realized_pass"] = each[caller] - (sum(each) - each[caller]) // 2
            out["own_score_pass"] = each[caller]
            stuck = play.results[0].declarer == dealer and play.results[0].contract == lowest
            out["pass_stuck"] = stuck  # the model of the value of passing (stuck dealer)
    result = play.results[0]
    each = result.scores
    out["declarer"], out["contract"] = result.declarer, result.contract
    out["realized"] = each[caller] - (sum(each) - each[caller]) // 2
    out["best_opp"] = each[caller] - max(s for i, s in enumerate(each) if i != caller)
    out["own"] = each[caller]
    if result.declarer == caller and result.contract == lowest and result.trump is not None:
        suit = int(result.trump)
        out["trump"] = suit
        out["est_suit"] = est.get(suit, sampled(suit, "standard"))
        out["est_skilled"] = sampled(suit, "skilled")
        out["true_std"] = true(suit, "standard")
        out["true_skilled"] = true(suit, "skilled")
        out["true_std_best"] = max(true(s, "standard") for s in suits)
    return out


def _job(args: tuple[str, str, str | None, int, int]) -> dict[str, Any] | None:
    return branch(*args)


def _mean_ci(values: list[float]) -> str:
    if len(values) < 2:
        return f"n={len(values)}"
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{mean:+.1f} (95% CI {mean - half:+.1f} to {mean + half:+.1f}, n={len(values)})"


def main(argv: list[str] | None = None) -> int:
    """Play the deals and print each measure's mean and the steps between them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="three")
    parser.add_argument("--level", default="expert(time=0.1)")
    parser.add_argument("--defenders", help="the level of the other two seats after the bid")
    parser.add_argument("--position", type=int, default=0,
                        help="the caller, counted from the dealer's left (0)")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", help="also write every deal's figures to this file")
    args = parser.parse_args(argv)
    jobs = [(args.rules, args.level, args.defenders, seed, args.position)
            for seed in range(args.first, args.first + args.deals)]
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            rows = [r for r in pool.map(_job, jobs) if r is not None]
    else:
        rows = [r for r in map(_job, jobs) if r is not None]
    if args.json:
        with open(args.json, "w", encoding="utf-8") as file:
            json.dump(rows, file)
    report(rows, f"{args.level} under {args.rules}, caller {args.position}, "
                 f"defenders {args.defenders or args.level}")
    return 0


def report(rows: list[dict[str, Any]], title: str) -> None:
    """Print the measures' means and the steps between them, for the declared rows."""
    kept = [r for r in rows if "true_std" in r]
    print(f"{title}: {len(rows)} unopened calls, declared at the lowest bid in {len(kept)}")
    names = ("est", "est_suit", "est_skilled", "true_std", "true_skilled", "realized")
    for name in (*names, "true_std_best"):
        print(f"  {name:14} {_mean_ci([float(r[name]) for r in kept])}")
    for a, b in itertools.pairwise(names):
        print(f"  {b} - {a}: {_mean_ci([float(r[b] - r[a]) for r in kept])}")
    for name in ("realized", "own", "best_opp"):
        print(f"  {name} - est: {_mean_ci([float(r[name] - r['est']) for r in kept])}")
    print(f"  realized - est_best_skilled: "
          f"{_mean_ci([float(r['realized'] - r['est_best_skilled']) for r in kept])}")
    print(f"  the value of passing ({len(rows)} calls), realized after a pass minus:")
    for name in ("pass_standard", "pass_skilled"):
        print(f"    {name} {_mean_ci([float(r['realized_pass'] - r[name]) for r in rows])}")
    for stuck in (True, False):
        some = [r for r in rows if r["pass_stuck"] == stuck]
        print(f"    {'dealer stuck' if stuck else 'another contract'}: minus pass_standard "
              f"{_mean_ci([float(r['realized_pass'] - r['pass_standard']) for r in some])}"
              f", minus pass_skilled "
              f"{_mean_ci([float(r['realized_pass'] - r['pass_skilled']) for r in some])}")
    print(f"    (own hand score after a pass minus pass_standard: "
          f"{_mean_ci([float(r['own_score_pass'] - r['pass_standard']) for r in rows])})")
    for policy in ("standard", "skilled"):
        best = "est" if policy == "standard" else "est_best_skilled"
        would = sum(r[best] > r[f"pass_{policy}"] for r in rows)
        print(f"  {policy} simulations: declaring worth more than passing in {would} of "
              f"{len(rows)}")


if __name__ == "__main__":
    sys.exit(main())
