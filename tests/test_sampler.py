"""The hidden-card sampler (pinochlekit.players.search.sampler).

* What a play reveals is checked exhaustively against ``tricks.legal_mask``: for
  random hands and tricks, under every must-beat / trump-follows-trump / first
  lead option, a card is legal exactly when the hand avoids the excluded kinds.
* Random hands under several presets: at many positions, for every seat and a
  spectator, the true deal satisfies the seat's knowledge (no void or must-beat
  inference ever excludes a card the player holds), and every sampled deal agrees
  with the view (own hand, hand sizes, the deck, meld shown, passed cards) and,
  rebuilt into a dealt hand, replays the deal's actions legally.
* Information: two games whose deals differ only in cards the seat cannot see
  (a sampled deal replayed to the same meld) give the seat identical views and
  identical knowledge.
* Exactness: on small constructed end-of-hand cases, a brute-force enumeration
  of physical deals gives the exact distribution; the sampler's own probabilities
  equal it, and a chi-square test of many seeded samples accepts it.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest

from pinochlekit import Action, Bid, Game, Hand, Moon, Pass, Phase, Redeal, Rules, ThrowIn, View
from pinochlekit.engine.cards import DECK_MASK, SUIT_MASKS
from pinochlekit.engine.tricks import legal_mask
from pinochlekit.players.search.sampler import (
    Knowledge,
    NoConsistentDealError,
    Sampler,
    Weighting,
    excluded_by_play,
    knowledge,
    sample_deal,
    sample_deals,
)

FULL = Hand(DECK_MASK, DECK_MASK)


# -- what a play reveals -------------------------------------------------------------

RULE_VARIANTS = [
    Rules(must_beat=mb, trump_follows_trump=tft, first_lead=fl)
    for mb in ("always", "trump_led", "following")
    for tft in (False, True)
    for fl in ("any", "trump")
]


def random_hand_kinds(rng: random.Random, trump: int) -> int:
    """A random set of kinds, biased towards few suits so voids are common."""
    suits = rng.sample(range(4), rng.randint(1, 4))
    if rng.random() < 0.5 and trump not in suits:
        suits.append(trump)
    mask = 0
    for suit in suits:
        mask |= rng.getrandbits(6) << (6 * suit)
    return mask or 1 << rng.randrange(24)


@pytest.mark.parametrize("rules", RULE_VARIANTS, ids=str)
def test_excluded_by_play_is_exactly_legality(rules: Rules) -> None:
    rng = random.Random(str(rules))
    for _ in range(3000):
        trump = rng.randrange(4)
        hand = random_hand_kinds(rng, trump)
        trick = [rng.randrange(24) for _ in range(rng.randint(0, 3))]
        first = rng.random() < 0.5
        legal = legal_mask(hand, trick, trump, rules, first)
        for card in range(24):
            if hand >> card & 1:
                excluded = excluded_by_play(trick, card, trump, rules, first)
                assert bool(legal >> card & 1) == (not hand & excluded), (
                    f"{rules}: hand {hand:#x} trick {trick} trump {trump} card {card}")


# -- driving random hands ------------------------------------------------------------

CONFIGS = {
    "pagat": Rules(),
    "modern": Rules.preset("modern"),
    "family1000": Rules.preset("family1000"),
    "cutthroat": Rules.preset("cutthroat"),
    "stonebridge": Rules.preset("stonebridge"),
    "playingcards": Rules.preset("playingcards"),
    "following": Rules(must_beat="following"),
    "always+tft": Rules(trump_follows_trump=True),
}


def random_action(game: Game, rng: random.Random) -> Action:
    """Pass or the lowest bid in the auction (not a uniform bid: bids go to ~9700),
    random trump, passes and plays; now and then a moon or a throw-in."""
    legal = game.legal_actions()
    if game.phase is Phase.AUCTION:
        bids = [a for a in legal if isinstance(a, Bid)]
        others = [a for a in legal if isinstance(a, Pass | Redeal)]
        if bids and (not others or rng.random() < 0.45):
            return bids[0]
        return rng.choice(others)
    if game.phase is Phase.PLAY:
        if any(isinstance(a, Moon) for a in legal) and rng.random() < 0.25:
            return Moon()
        plays = [a for a in legal if not isinstance(a, Moon | ThrowIn)]
        if len(plays) < len(legal) and rng.random() < 0.02:
            return ThrowIn()
        return rng.choice(plays)
    return rng.choice(legal)


@dataclass
class Position:
    """A game in the middle of a deal, and the actions of that deal so far."""

    game: Game
    deal_actions: list[Action]


def positions(rules: Rules, seed: int, deals: int, every: float) -> list[Position]:
    """Copies of random games at random moments, ``deals`` deals in all."""
    rng = random.Random(seed)
    game = Game.new(rules, seed=seed, dealer=seed % 4)
    out: list[Position] = []
    start, number, seen = 0, game.hand_number, 0
    while game.winner is None and seen < deals:
        if rng.random() < every:
            out.append(Position(game.copy(), list(game.actions[start:])))
        game.apply(random_action(game, rng))
        if game.hand_number != number:
            start, number, seen = len(game.actions), game.hand_number, seen + 1
    return out


def played_by(view: View, seat: int) -> Hand:
    cards = [c for t in view.tricks for s, c in zip(t.seats, t.cards, strict=True) if s == seat]
    cards += [c for s, c in view.trick if s == seat]
    return Hand.from_cards(cards)


def dealt_hands(view: View, hands: Sequence[Hand], given: Sequence[int] | None,
                returned: Sequence[int] | None) -> tuple[Hand, ...] | None:
    """The deal that leads to current ``hands`` with the view's plays and the given passes
    (``None`` if those passes could not have been made from these hands)."""
    dealt = [hands[s] + played_by(view, s) for s in range(4)]
    if given is not None and view.declarer is not None:
        declarer, partner = view.declarer, (view.declarer + 2) % 4
        give, back = Hand.from_cards(given), Hand.from_cards(returned or ())
        # The declarer received ``give`` and passed back ``back``; the partner the reverse.
        for seat, sign in ((declarer, 1), (partner, -1)):
            n = [dealt[seat].count(k) + sign * (back.count(k) - give.count(k)) for k in range(24)]
            if not all(0 <= c <= 2 for c in n):
                return None
            dealt[seat] = Hand.from_cards(k for k in range(24) for _ in range(n[k]))
        if not dealt[partner].issuperset(give):  # the partner gives before it gets back
            return None
    return tuple(dealt)


def replay(pos: Position, dealt: Sequence[Hand]) -> Game:
    """The current deal replayed (every action checked) from another dealt deal."""
    game = Game.new(pos.game.rules, seed=0, dealer=pos.game.dealer, deals=[tuple(dealt)])
    for action in pos.deal_actions:
        game.apply(action)
    return game


def check_agrees(view: View, known: Knowledge, hands: Sequence[Hand]) -> None:
    """A deal of current hands agrees with everything the view shows (written without
    the knowledge's own fields, apart from its verdict)."""
    assert known.violation(hands) is None, known.violation(hands)
    assert tuple(len(h) for h in hands) == view.hand_sizes
    if view.seat is not None:
        assert hands[view.seat] == view.hand
    assert sum(hands, Hand()) + view.played == FULL  # every card somewhere, once
    if view.melds is not None:
        for s in range(4):  # meld on the table was in the hand at meld time
            assert (hands[s] + played_by(view, s)).issuperset(view.melds[s].shown)
    if view.given is not None and view.declarer is not None:
        declarer, partner = view.declarer, (view.declarer + 2) % 4
        now_d = hands[declarer] + played_by(view, declarer)
        back = Hand.from_cards(view.returned or ())
        assert (now_d + back).issuperset(Hand.from_cards(view.given))
        assert (hands[partner] + played_by(view, partner)).issuperset(back)


def check_position(pos: Position, rng: random.Random) -> None:
    game = pos.game
    truth = tuple(game.hand(s) for s in range(4))
    for seat in (0, 1, 2, 3, None):
        view = game.view(seat)
        known = knowledge(view)
        # The key test: the real deal is one of the deals the sampler may return.
        assert known.violation(truth) is None, f"seat {seat}: {known.violation(truth)}"
        sampler = Sampler(known)
        assert sampler.probability(truth) > 0
        for i, hands in enumerate(sampler.samples(rng, 3)):
            check_agrees(view, known, hands)
            if seat is None or i:
                continue  # one replay per view is enough (meld makes replays slow)
            in_pair = view.given is not None or game.rules.cards_passed == 0
            dealt = dealt_hands(view, hands, game.given, game.returned)
            if dealt is None:
                assert not in_pair, "a partner's sample must allow the passes it saw"
                continue
            again = replay(pos, dealt)  # raises if any action is now illegal
            assert tuple(again.hand(s) for s in range(4)) == tuple(hands)


@pytest.mark.parametrize("name", list(CONFIGS))
def test_true_deal_and_samples_agree_with_every_view(name: str) -> None:
    rng = random.Random(name)
    count = 0
    for seed in range(3):
        for pos in positions(CONFIGS[name], seed, deals=2, every=0.3):
            check_position(pos, rng)
            count += 1
    assert count > 20


def test_moon_partner_sits_out_with_its_cards() -> None:
    rules = Rules.preset("family1000")
    checked = 0
    for seed in range(40):
        for pos in positions(rules, seed, deals=1, every=0.5):
            if pos.game.moon and pos.game.tricks:
                check_position(pos, random.Random(seed))
                checked += 1
        if checked >= 10:
            break
    assert checked >= 10


# -- information -----------------------------------------------------------------

_DEAL_FIELDS = ("phase", "to_act", "hand", "hand_sizes", "auction", "high_bid", "high_bidder",
                "declarer", "contract", "trump", "given", "returned", "melds", "moon",
                "tricks", "trick", "trick_points", "legal_actions")


def deal_part(view: View) -> dict[str, Any]:
    data = view.to_dict()
    return {key: data[key] for key in _DEAL_FIELDS}


def test_hidden_cards_do_not_change_knowledge() -> None:
    """Deals that differ only in cards hidden from a seat (another deal the seat
    cannot tell apart: a sample replayed to the same meld) give the same view."""
    rng = random.Random(5)
    compared = differing = in_play = 0
    for name, seeds in (("pagat", 4), ("cutthroat", 4), ("family1000", 2)):
        for seed in range(seeds):
            for pos in positions(CONFIGS[name], 100 + seed, deals=1, every=0.25):
                game = pos.game
                truth = tuple(game.hand(s) for s in range(4))
                for seat in range(4):
                    view = game.view(seat)
                    known = knowledge(view)
                    for hands in Sampler(known).samples(rng, 2):
                        dealt = dealt_hands(view, hands, game.given, game.returned)
                        if dealt is None:
                            continue
                        other = replay(pos, dealt)
                        if other.melds != game.melds:
                            continue  # the meld on the table would tell them apart
                        assert deal_part(other.view(seat)) == deal_part(view)
                        assert knowledge(other.view(seat)) == known
                        compared += 1
                        differing += tuple(hands) != truth
                        in_play += game.melds is not None and tuple(hands) != truth
    assert compared > 300 and differing > 200 and in_play > 50


def test_knowledge_reads_only_the_view_at_the_deal() -> None:
    # Two deals that swap cards between seats 1 and 3: seat 0 sees the same auction view.
    hands = Game.new("pagat", seed=3).dealt
    a, b = next((a, b) for a in hands[1] for b in hands[3]
                if a != b and hands[3].count(a) < 2 and hands[1].count(b) < 2)
    swapped = (hands[0], hands[1].remove(a).add(b), hands[2], hands[3].remove(b).add(a))
    one = Game.new("pagat", seed=1, deals=[hands])
    two = Game.new("pagat", seed=2, deals=[swapped])
    assert knowledge(one.view(0)) == knowledge(two.view(0))
    assert knowledge(one.view(1)) != knowledge(two.view(1))


# -- exactness on small cases --------------------------------------------------------

def counts(hand: Hand) -> list[int]:
    return [hand.count(k) for k in range(24)]


@dataclass(frozen=True)
class Story:
    """A small world: ``kinds`` (two copies each), the dealt hands, passes and plays.

    ``passes`` is (giver, taker, cards) in order; the viewer's team passes only
    between partners. ``known``/``forbidden`` are observations of the current hands.
    """

    kinds: tuple[int, ...]
    viewer: int
    dealt: tuple[Hand, ...]
    passes: tuple[tuple[int, int, Hand], ...]
    played: tuple[Hand, ...]
    known: tuple[Hand, ...]
    forbidden: tuple[int, ...]

    def run(self, dealt: Sequence[Hand]) -> tuple[Hand, ...] | None:
        """The current hands from ``dealt``, or ``None`` if a pass or play was impossible."""
        hands = list(dealt)
        try:
            for giver, taker, cards in self.passes:
                hands[giver] = hands[giver] - cards
                hands[taker] = hands[taker] + cards
            return tuple(h - p for h, p in zip(hands, self.played, strict=True))
        except ValueError:
            return None

    def observed(self, hands: Sequence[Hand]) -> bool:
        return all(h.issuperset(k) and not h.once & f
                   for h, k, f in zip(hands, self.known, self.forbidden, strict=True))

    def knowledge(self) -> Knowledge:
        current = self.run(self.dealt)
        assert current is not None and self.observed(current)
        v = self.viewer
        gone = [list(counts(p)) for p in self.played]
        came = [[0] * 24 for _ in range(4)]
        for giver, taker, cards in self.passes:
            for k, c in enumerate(counts(cards)):
                gone[giver][k] += c
                came[taker][k] += c
        known = [current[v] if s == v else self.known[s] for s in range(4)]
        in_view = [sum(counts(known[s])[k] + counts(self.played[s])[k] for s in range(4))
                   for k in range(24)]
        unseen = Hand.from_cards(k for k in self.kinds for _ in range(2 - in_view[k]))
        return Knowledge(seat=v, hand_sizes=tuple(len(h) for h in current), known=tuple(known),
                         forbidden=tuple(DECK_MASK & ~current[v].once if s == v else
                                         self.forbidden[s] for s in range(4)),
                         gone=tuple(Hand.from_cards(k for k in range(24)
                                                    for _ in range(g[k] - c[k]))
                                    for g, c in zip(gone, came, strict=True)),
                         received=tuple(Hand.from_cards(k for k in range(24)
                                                        for _ in range(c[k] - g[k]))
                                        for g, c in zip(gone, came, strict=True)),
                         unseen=unseen)


def shuffle_distribution(story: Story) -> dict[tuple[Hand, ...], Fraction]:
    """Brute force over physical deals: every way to deal the copies the viewer was
    not dealt to the other seats (dealt sizes fixed), kept if the story could happen
    and the observations hold; the viewer holds copy 0 of its kinds (symmetry)."""
    v = story.viewer
    mine = counts(story.dealt[v])
    cards = [(k, c) for k in story.kinds for c in range(mine[k], 2)]
    others = [s for s in range(4) if s != v]
    sizes = [len(story.dealt[s]) for s in others]
    tally: Counter[tuple[Hand, ...]] = Counter()
    for owners in itertools.product(range(3), repeat=len(cards)):
        if [owners.count(i) for i in range(3)] != sizes:
            continue
        dealt = [story.dealt[v]] * 4
        for i, s in enumerate(others):
            dealt[s] = Hand.from_cards(k for (k, _), o in zip(cards, owners, strict=True)
                                       if o == i)
        current = story.run(dealt)
        if current is not None and story.observed(current):
            tally[current] += 1
    total = sum(tally.values())
    return {hands: Fraction(n, total) for hands, n in tally.items()}


def unseen_distribution(known: Knowledge) -> dict[tuple[Hand, ...], Fraction]:
    """Brute force over the unseen physical copies: every placement into the free
    places of the seats, kept if no seat gets a kind it cannot hold."""
    copies = [(k, c) for k in range(24) for c in range(known.unseen.count(k))]
    caps = [known.capacity(s) for s in range(4)]
    tally: Counter[tuple[Hand, ...]] = Counter()
    for owners in itertools.product(range(4), repeat=len(copies)):
        if [owners.count(s) for s in range(4)] != caps:
            continue
        if any(known.forbidden[s] >> k & 1 for (k, _), s in zip(copies, owners, strict=True)):
            continue
        hands = tuple(known.known[s] + Hand.from_cards(
            k for (k, _), o in zip(copies, owners, strict=True) if o == s) for s in range(4))
        tally[hands] += 1
    total = sum(tally.values())
    return {hands: Fraction(n, total) for hands, n in tally.items()}


def random_story(rng: random.Random) -> Story:
    """A random small world with passes, plays and true observations."""
    kinds = tuple(rng.sample(range(24), rng.randint(3, 5)))
    deck = [k for k in kinds for _ in range(2)]
    rng.shuffle(deck)
    cuts = sorted(rng.randint(0, len(deck)) for _ in range(3))
    parts = [deck[a:b] for a, b in zip([0, *cuts], [*cuts, len(deck)], strict=True)]
    dealt = [Hand.from_cards(p) for p in parts]
    viewer = rng.randrange(4)
    if len(deck) - len(dealt[viewer]) > 8:  # keep the brute force small
        return random_story(rng)
    hands = list(dealt)
    passes: list[tuple[int, int, Hand]] = []
    if rng.random() < 0.6:
        partner = (viewer + 2) % 4
        declarer, other = (viewer, partner) if rng.random() < 0.5 else (partner, viewer)
        for giver, taker in ((other, declarer), (declarer, other)):
            cards = Hand.from_cards(c for c in hands[giver] if rng.random() < 0.5)
            hands[giver], hands[taker] = hands[giver] - cards, hands[taker] + cards
            passes.append((giver, taker, cards))
    played = [Hand.from_cards(c for c in h if rng.random() < 0.2) for h in hands]
    current = [h - p for h, p in zip(hands, played, strict=True)]
    known = [Hand.from_cards(c for c in h if rng.random() < 0.15) for h in current]
    # What the passes tell the viewer (as knowledge() reads them) must be among the known.
    if passes:
        (_, declarer, given), (_, partner, back) = passes
        if viewer == partner:  # the declarer kept what it did not pass back
            seat, implied = declarer, [given.count(k) - back.count(k) for k in range(24)]
        else:  # the partner holds what came back to it
            seat, implied = partner, [back.count(k) for k in range(24)]
        known[seat] = Hand.from_cards(k for k in range(24) for _ in range(
            max(known[seat].count(k), implied[k] - played[seat].count(k))))
    forbidden = []
    for h in current:
        free = [k for k in kinds if h.count(k) == 0]
        forbidden.append(sum(1 << k for k in free if rng.random() < 0.25))
    return Story(kinds, viewer, tuple(dealt), tuple(passes), tuple(played), tuple(known),
                 tuple(forbidden))


def test_random_small_worlds_are_exact() -> None:
    rng = random.Random(2024)
    nontrivial = 0
    for _ in range(300):
        story = random_story(rng)
        known = story.knowledge()
        cases: list[tuple[Weighting, dict[tuple[Hand, ...], Fraction]]] = [
            ("shuffle", shuffle_distribution(story)), ("unseen", unseen_distribution(known))]
        for weighting, exact in cases:
            sampler = Sampler(known, weighting)
            for hands, p in exact.items():
                assert sampler.probability(hands) == p, (story, weighting, hands)
            assert sum(exact.values()) == 1
        nontrivial += len(exact) > 2
    assert nontrivial > 50


def chi_square_critical(df: int, z: float = 3.719) -> float:
    """Wilson-Hilferty upper quantile of chi-square (z = 3.719: upper tail 1e-4)."""
    a = 2 / (9 * df)
    return df * (1 - a + z * math.sqrt(a)) ** 3


def chi_square(samples: Counter[tuple[Hand, ...]], exact: dict[tuple[Hand, ...], Fraction],
               n: int) -> tuple[float, int]:
    """The statistic and degrees of freedom, bins of expected count under 5 merged."""
    assert set(samples) <= set(exact), "a sample outside the consistent deals"
    bins: list[tuple[float, int]] = []
    small_e, small_o = 0.0, 0
    for hands, p in exact.items():
        e, o = float(p) * n, samples.get(hands, 0)
        if e < 5:
            small_e, small_o = small_e + e, small_o + o
        else:
            bins.append((e, o))
    if small_e:
        bins.append((small_e, small_o))
    return sum((o - e) ** 2 / e for e, o in bins), len(bins) - 1


def hands_of(*texts: str) -> tuple[Hand, ...]:
    return tuple(Hand.parse(t) for t in texts)


# Seat 0 sees; near the end of a hand. Story A: seat 1 was dealt QS 9C 9C and played
# the QS; the other QS and two of each of KH and 9C are unseen; seat 3 has shown a void
# in clubs.
STORY_A = Story(
    kinds=(2, 9, 18),  # QS, KH, 9C
    viewer=0,
    dealt=hands_of("", "QS 9C 9C", "QS KH", "KH"),
    passes=(),
    played=hands_of("", "QS", "", ""),
    known=hands_of("", "", "", ""),
    forbidden=(0, 0, 0, SUIT_MASKS[3]),
)
# Story B: seat 0 declares; partner (seat 2) passed it QS and got JD back (docs/rules.md §1
# Passing), then showed a void in hearts; seat 1 played a KH.
STORY_B = Story(
    kinds=(2, 9, 18, 13),  # QS, KH, 9C, JD
    viewer=0,
    dealt=hands_of("9C JD", "KH QS JD", "QS 9C", "KH"),
    passes=((2, 0, Hand.parse("QS")), (0, 2, Hand.parse("JD"))),
    played=hands_of("", "KH", "", ""),
    known=hands_of("", "", "JD", ""),
    forbidden=(0, 0, SUIT_MASKS[1], 0),
)


@pytest.mark.parametrize("weighting", ["shuffle", "unseen"])
@pytest.mark.parametrize("story", [STORY_A, STORY_B], ids=["played-twin", "passes"])
def test_chi_square_of_samples(story: Story, weighting: Weighting) -> None:
    known = story.knowledge()
    exact = shuffle_distribution(story) if weighting == "shuffle" else unseen_distribution(known)
    assert len(exact) >= 3
    sampler = Sampler(known, weighting)
    n = 20_000
    samples = Counter(sampler.samples(random.Random(7), n))
    stat, df = chi_square(samples, exact, n)
    assert stat < chi_square_critical(df), (stat, df)
    # The test has teeth: the same samples reject the other weighting's distribution.
    other = unseen_distribution(known) if weighting == "shuffle" else shuffle_distribution(story)
    if other != exact:
        wrong, df2 = chi_square(samples, other, n)
        assert wrong > chi_square_critical(df2), (wrong, df2)


def test_played_twin_halves_the_weight() -> None:
    # Story A: seat 1 played a QS; the other QS, KH KH and 9C 9C are unseen. Swapping the
    # QS and a KH between seats 1 and 2: with the QS, seat 1 was dealt both QS (1 physical
    # way, not 2), so a real shuffle makes that deal half as likely.
    known = STORY_A.knowledge()
    shuffle, unseen = Sampler(known), Sampler(known, "unseen")
    with_twin = hands_of("", "QS 9C", "KH 9C", "KH")
    without = hands_of("", "KH 9C", "QS 9C", "KH")
    assert known.is_consistent(with_twin) and known.is_consistent(without)
    assert unseen.probability(with_twin) == unseen.probability(without)
    assert 2 * shuffle.probability(with_twin) == shuffle.probability(without)


# -- the interface ---------------------------------------------------------------

def test_sampling_helpers_and_errors() -> None:
    game = Game.new("pagat", seed=9)
    view = game.view(2)
    rng = random.Random(1)
    deals = sample_deals(view, rng, 5)
    assert len(deals) == 5 and all(d[2] == view.hand for d in deals)
    known = knowledge(view)
    assert sample_deal(known, rng)[2] == view.hand
    assert Sampler.from_view(view).knowledge == known
    spectator = knowledge(game.view(None))
    assert spectator.seat is None and len(spectator.unseen) == 48
    with pytest.raises(NoConsistentDealError):
        Sampler(Knowledge(seat=0, hand_sizes=(0, 1, 0, 0), known=(Hand(),) * 4,
                          forbidden=(0, 1 << 5, 0, 0), gone=(Hand(),) * 4,
                          received=(Hand(),) * 4, unseen=Hand.parse("AS")))
    with pytest.raises(NoConsistentDealError):
        Sampler(Knowledge(seat=0, hand_sizes=(0, 2, 0, 0), known=(Hand(),) * 4,
                          forbidden=(0,) * 4, gone=(Hand(),) * 4, received=(Hand(),) * 4,
                          unseen=Hand.parse("AS")))
    with pytest.raises(ValueError):
        Sampler(known, "uniform")  # type: ignore[arg-type]
