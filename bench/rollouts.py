"""Speed of the C simulation core (pinochlekit.players.search.fastcore), one core.

Three measurements, each repeated ``--repeat`` times (median, min and max):

* ``rollouts``: standard-player rollouts of a full hand (twelve tricks, from the
  first lead, every seat deciding from its own memory) per second. Positions are
  the starts of play of real games (standard passing); each rollout deals the
  cards the declarer cannot see anew (so no two rollouts are the same), which
  includes the cost of the deal. Target: at least 100,000 a second.
* ``pro``: one pro-style card decision at the first lead: 200 rollouts per legal
  card, the same 200 deals of the unseen cards for every card (C dealing), as
  ``fastcore.card_values`` does; and the same decision through
  ``fastcore.backend`` with deals from the Python hidden-card sampler, which is
  how ``players.pro`` calls the core.
* ``bid``: one bidding simulation of 4,000 hands (1,000 deals, each played with
  the four trump suits: pro's bid), with C dealing (``simulate_bid_hands``), and
  through ``fastcore.backend`` with 1,000 deals drawn by the Python sampler.
  Target: at most 100 ms.

Times are CPU seconds of this process (``time.process_time``), so other load on
the machine disturbs them less. ``--policy skilled`` measures the same with the
skilled card play (docs/players.md skilled) in every simulated seat.

    python bench/rollouts.py [--repeat 5] [--rules pagat] [--only rollouts,pro,bid]
                             [--policy standard|skilled]

Under ``--rules three`` only the two backend measurements run (the C core's own
dealing holds four hands).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from pinochlekit import Game, Give, Hand, NameTrump, Pass, Phase, Play, Return, Rules, Suit
from pinochlekit.engine.actions import Bid
from pinochlekit.players.search import fastcore as fc
from pinochlekit.players.search import simulate
from pinochlekit.players.search.sampler import knowledge, sample_deal
from pinochlekit.players.standard import StandardPlayer

#: The card play of the simulated seats (``--policy``).
POLICY: fc.CardPolicy = "standard"


def start_of_play(rules: Rules, seed: int) -> Game:
    """A game at its first lead: seat 0 declares the opening bid in its best meld suit,
    standard passing both ways (a throw-in forced by meld is skipped); in the
    three-handed game the declarer takes the widow and a ``standard`` player chooses
    the discard (docs/rules.md §3)."""
    while True:
        game = Game.new(rules, seed=seed, dealer=rules.players - 1)
        seed += 1_000_003
        game.apply(Bid(rules.opening_bid))
        for _ in range(rules.players - 1):
            game.apply(Pass())
        hand = game.hand(0)
        trump = max(Suit, key=lambda s: fc.meld(rules, hand, s).points)
        game.apply(NameTrump(trump))
        if rules.cards_passed:
            given = fc.give_cards(rules, game.hand(2), trump)
            game.apply(Give(tuple(given)))
            back = fc.return_cards(rules, game.hand(0), given, trump)
            game.apply(Return(tuple(back)))
        chooser = StandardPlayer(seed)
        while game.phase in (Phase.DISCARD, Phase.GIVE, Phase.RETURN) \
                and game.to_act is not None:
            game.apply(chooser.choose(game.view(game.to_act)))
        if game.phase is Phase.PLAY:
            return game


def own_spec(game: Game, seat: int) -> fc.DealSpec:
    """What ``seat`` sees: its own hand; every other card is dealt at random."""
    return fc.DealSpec(seat, tuple(game.hand(s) if s == seat else Hand() for s in range(4)))


def timed(run: Callable[[], int]) -> tuple[int, float]:
    start = time.process_time()
    count = run()
    return count, time.process_time() - start


def bench_rollouts(rules: Rules, seed: int) -> tuple[float, str]:
    games = [start_of_play(rules, seed * 100 + i) for i in range(20)]
    cases = [(fc.Position.from_game(g), own_spec(g, g.to_act or 0)) for g in games]
    per = 10_000

    def run() -> int:
        for i, (position, spec) in enumerate(cases):
            fc.rollout(rules, position, per, seed=seed + i, spec=spec, policy=POLICY)
        return per * len(cases)

    count, elapsed = timed(run)
    return count / elapsed, f"{count:,} rollouts in {elapsed:.2f} s"


def bench_pro(rules: Rules, seed: int) -> tuple[float, str]:
    game = start_of_play(rules, seed)
    position = fc.Position.from_game(game)
    seat = game.to_act or 0
    spec = own_spec(game, seat)
    cards = len(fc.card_values(rules, position, 1, seed, spec, POLICY))
    _, elapsed = timed(lambda: len(fc.card_values(rules, position, 200, seed, spec, POLICY)))
    return elapsed * 1000, f"{cards} legal cards x 200 rollouts"


def bench_pro_backend(rules: Rules, seed: int) -> tuple[float, str]:
    game = start_of_play(rules, seed)
    seat = game.to_act or 0
    view = game.view(seat)
    rng = random.Random(seed)

    def run() -> int:
        known = knowledge(view)
        deals = [sample_deal(known, rng) for _ in range(200)]
        start = simulate.start_from_view(view, POLICY)
        legal = sorted({int(a.card) for a in view.legal_actions if isinstance(a, Play)})
        for card in legal:
            after = [tuple(h.remove(card) if s == seat else h for s, h in enumerate(d))
                     for d in deals]
            fc.backend(start.then(seat, card), after, seat % 2)
        return len(legal)

    cards, elapsed = timed(run)
    return elapsed * 1000, f"{cards} legal cards x 200 rollouts, Python sampler"


def bench_bid(rules: Rules, seed: int) -> tuple[float, str]:
    game = Game.new(rules, seed=seed)
    hand = game.hand(1)
    _, elapsed = timed(lambda: len(fc.simulate_bid_hands(rules, hand, rules.opening_bid, 1000,
                                                         seed, seat=1, policy=POLICY)))
    return elapsed * 1000, "1,000 deals x 4 trumps, C dealing"


def bench_bid_backend(rules: Rules, seed: int) -> tuple[float, str]:
    game = Game.new(rules, seed=seed)
    seat = game.to_act or 0
    view = game.view(seat)
    rng = random.Random(seed)

    def run() -> int:
        known = knowledge(view)
        deals = [sample_deal(known, rng) for _ in range(1000)]
        for trump in range(4):
            start = simulate.Start(rules=rules, declarer=seat, contract=rules.opening_bid,
                                   trump=trump, knower=seat, policy=POLICY)
            fc.backend(start, deals, seat % 2)
        return 4000

    _, elapsed = timed(run)
    return elapsed * 1000, "1,000 deals x 4 trumps, Python sampler"


BENCHES: dict[str, tuple[str, str, Callable[[Rules, int], tuple[float, str]]]] = {
    "rollouts": ("rollouts of a full hand", "/s", bench_rollouts),
    "pro": ("pro card decision (C dealing)", " ms", bench_pro),
    "pro-backend": ("pro card decision (backend)", " ms", bench_pro_backend),
    "bid": ("4,000-hand bid simulation (C dealing)", " ms", bench_bid),
    "bid-backend": ("4,000-hand bid simulation (backend)", " ms", bench_bid_backend),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--only", default=None,
                        help="comma-separated measurements (default: all the rules allow)")
    parser.add_argument("--policy", choices=["standard", "skilled"], default="standard")
    args = parser.parse_args()
    global POLICY
    POLICY = args.policy
    rules = Rules.from_string(args.rules)
    if rules.players == 2 or rules.deck == "double":
        parser.error("--rules: this core plays the four- and three-handed single-deck games; "
                     "the two-handed core is measured by bench/two_speed.py")
    # The C core's own dealing and positions hold four hands: the three-handed game
    # is simulated through the backend only (docs/rules.md §3).
    allowed = list(BENCHES) if rules.players == 4 else ["pro-backend", "bid-backend"]
    names = args.only.split(",") if args.only else allowed
    refused = [n for n in names if n not in allowed]
    if refused:
        parser.error(f"--only: {', '.join(refused)} not measured under --rules {args.rules} "
                     f"(measured: {', '.join(allowed)})")
    for name in names:
        label, unit, bench = BENCHES[name]
        values = []
        for run in range(args.repeat):
            value, detail = bench(rules, run + 1)
            values.append(value)
            print(f"  {name} run {run + 1}: {value:,.1f}{unit} ({detail})")
        median = statistics.median(values)
        print(f"{label} [{args.rules}, {args.policy}]: median {median:,.1f}{unit} "
              f"(min {min(values):,.1f}, max {max(values):,.1f}, {args.repeat} runs)")


if __name__ == "__main__":
    main()
