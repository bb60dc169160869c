"""The hidden-card sampler under three-handed ``widow=take`` (docs/rules.md §3).

Every seat saw the widow turned up and taken into the declarer's hand, so a
defender knows each widow copy the declarer has not played since is in the
declarer's hand or among its three discards, never with the other defender.
Written here without the knowledge's own fields, the fact reads: the declarer's
current hand, plus its discards, plus the cards it played, holds the widow.

* Real hands (seeded games of ``standard`` players): for both defenders and a
  spectator, after the discard and through the play, the true deal satisfies the
  knowledge and every sampled deal keeps the widow with the declarer or in the
  pile; without the new fact the same sampler breaks it (the test has teeth).
  A sampled deal, rebuilt into a dealt hand (the declarer's: its hand, discards
  and plays less the widow) and replayed with its own discards, gives the
  defender the same view and the same knowledge. On real hands the constrained
  sampler is the unconstrained one conditioned on the fact: the ratio of their
  probabilities is the same for every deal that satisfies it.
* Exactness on tiny worlds: the deals that some physical history (deal, widow
  taken, any discard, the plays and the meld shown) leads to are exactly the
  deals the sampler can return, and its probabilities are the weights of the
  sampler's docstring, computed here by brute force; a chi-square test of
  seeded samples agrees.
* Nothing changes elsewhere: four-handed views, ``widow=out`` views, the
  declarer's own view and the views before the discard carry no such fact.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import pytest
from test_sampler import chi_square, chi_square_critical

from pinochlekit import Action, Discard, Game, Hand, Phase, Rules, View
from pinochlekit.engine.cards import DECK_MASK, SUIT_MASKS
from pinochlekit.players import StandardPlayer
from pinochlekit.players.search.sampler import (
    Knowledge,
    NoConsistentDealError,
    Sampler,
    Weighting,
    _widow_left,
    knowledge,
)

THREE = Rules.preset("three")
TAKE = THREE.replace(widow="take")
PILE = 3  # the set-aside place comes after the three seats


def played_by(view: View, seat: int) -> Hand:
    cards = [c for t in view.tricks for s, c in zip(t.seats, t.cards, strict=True) if s == seat]
    cards += [c for s, c in view.trick if s == seat]
    return Hand.from_cards(cards)


def keeps_widow(view: View, hands: Sequence[Hand]) -> bool:
    """The declarer's hand, its discards and its plays hold every widow copy."""
    assert view.declarer is not None and view.widow is not None
    declarer = view.declarer
    held = hands[declarer] + hands[PILE] + played_by(view, declarer)
    return held.issuperset(Hand.from_cards(view.widow))


@dataclass
class Position:
    """A copy of a game in the play of its first hand, and the actions so far."""

    game: Game
    actions: list[Action]


def take_positions(seeds: range, every: float = 1.0) -> Iterator[Position]:
    """Positions of the first hand of seeded ``widow=take`` games by standard players,
    from the first lead (after the discard, meld on the table) to the last card."""
    for seed in seeds:
        rng = random.Random(seed)
        game = Game.new(TAKE, seed=seed)
        players = [StandardPlayer(10 * seed + s, bid_sims=8) for s in range(3)]
        while not game.results:
            if game.phase is Phase.PLAY and rng.random() < every:
                yield Position(game.copy(), list(game.actions))
            seat = game.to_act
            assert seat is not None
            game.apply(players[seat].choose(game.view(seat)))


def truth_of(game: Game) -> tuple[Hand, ...]:
    return (*(game.hand(s) for s in range(3)), Hand.from_cards(game.discards or ()))


# -- real hands ------------------------------------------------------------------------


def test_defenders_keep_the_widow_with_the_declarer_or_the_discards() -> None:
    rng = random.Random(1)
    views = constrained = samples = broken_without = 0
    for pos in take_positions(range(10)):
        game = pos.game
        declarer = game.declarer
        assert declarer is not None
        truth = truth_of(game)
        for seat in [s for s in range(3) if s != declarer] + [None]:
            view = game.view(seat)
            known = knowledge(view)
            assert known.violation(truth) is None, (seat, known.violation(truth))
            assert keeps_widow(view, truth)
            views += 1
            constrained += bool(known.at_least)
            for hands in Sampler(known).samples(rng, 8):
                assert known.is_consistent(hands)
                assert keeps_widow(view, hands), (seat, hands)
                samples += 1
            # Without the widow's fact (the knowledge as it was), the same draws break it.
            weaker = Sampler(replace(known, at_least=()))
            broken_without += sum(not keeps_widow(view, h) for h in weaker.samples(rng, 8))
    assert views > 500 and constrained > 200 and samples > 4000
    assert broken_without > 200


def test_the_fact_is_per_copy_and_net_of_the_declarers_plays() -> None:
    """The least number kept with the declarer, per kind, is the widow's copies less
    those the declarer played and those known in its hand (meld on the table not
    played since, counted once even when the widow's card is among them)."""
    seen: Counter[str] = Counter()
    for pos in take_positions(range(10, 16)):
        game = pos.game
        declarer = game.declarer
        assert declarer is not None
        for seat in [s for s in range(3) if s != declarer]:
            view = game.view(seat)
            assert view.widow is not None and view.melds is not None
            widow = Hand.from_cards(view.widow)
            played = played_by(view, declarer)
            shown = view.melds[declarer].shown
            expected = []
            for k in range(24):
                in_hand = max(0, shown.count(k) - played.count(k))  # meld not played since
                need = widow.count(k) - played.count(k) - in_hand
                if need > 0:
                    expected.append((k, 1 << declarer | 1 << PILE, need))
                seen["widow card played"] += bool(widow.count(k) and played.count(k))
                seen["widow card shown"] += bool(widow.count(k) and shown.count(k))
                seen["one of two in widow"] += widow.count(k) == 1 and need == 1
            assert list(knowledge(view).at_least) == expected
    assert seen["widow card played"] > 20 and seen["widow card shown"] > 5
    assert seen["one of two in widow"] > 20


def test_probabilities_are_the_weaker_ones_conditioned_on_the_widow() -> None:
    """Exactness on real hands: constrained and unconstrained samplers weigh deals
    alike, so p_new / p_old is one constant (the inverse of the old probability of
    the fact) on every deal that keeps the widow, and p_new is 0 on the others."""
    rng = random.Random(2)
    checked = zero = 0
    for pos in take_positions(range(3), every=0.3):
        game = pos.game
        declarer = game.declarer
        assert declarer is not None
        for seat in (s for s in range(3) if s != declarer):
            view = game.view(seat)
            known = knowledge(view)
            if not known.at_least:
                continue
            new, old = Sampler(known), Sampler(replace(known, at_least=()))
            ratios = set()
            for hands in new.samples(rng, 10) + old.samples(rng, 10):
                p_new, p_old = new.probability(hands), old.probability(hands)
                assert p_old > 0
                if keeps_widow(view, hands):
                    ratios.add(p_new / p_old)
                else:
                    assert p_new == 0
                    zero += 1
            assert len(ratios) == 1 and ratios.pop() >= 1
            checked += 1
    assert checked > 20 and zero > 10


_DEAL_FIELDS = ("phase", "to_act", "hand", "hand_sizes", "auction", "high_bid", "high_bidder",
                "declarer", "contract", "trump", "widow", "discards", "melds", "tricks",
                "trick", "trick_points", "legal_actions")


def deal_part(view: View) -> dict[str, Any]:
    data = view.to_dict()
    return {key: data[key] for key in _DEAL_FIELDS}


def test_sampled_deals_replay_and_knowledge_reads_only_the_view() -> None:
    """A defender's sampled deal is a deal that could have been: dealt as rebuilt,
    the hand replays (with the sampled discards) to the same view for the defender,
    hence the same knowledge (docs/rules.md §5: it sees the widow, not the discards)."""
    rng = random.Random(3)
    compared = differing = 0
    for pos in take_positions(range(16, 24), every=0.25):
        game = pos.game
        declarer = game.declarer
        assert declarer is not None and game.discards is not None
        widow = Hand.from_cards(game.view(declarer).widow or ())
        for seat in (s for s in range(3) if s != declarer):
            view = game.view(seat)
            known = knowledge(view)
            for hands in Sampler(known).samples(rng, 2):
                dealt = [hands[s] + played_by(view, s) for s in range(3)]
                # Raises if a widow card were missing from the declarer's side.
                dealt[declarer] = dealt[declarer] + hands[PILE] - widow
                other = Game.new(TAKE, seed=0, dealer=game.dealer, deals=[tuple(dealt)])
                for action in pos.actions:
                    if isinstance(action, Discard):
                        action = Discard(tuple(hands[PILE].cards()))
                    other.apply(action)  # raises if the sampled deal makes an action illegal
                if other.melds != game.melds:
                    continue  # the meld on the table would tell them apart
                assert truth_of(other) == tuple(hands)
                assert deal_part(other.view(seat)) == deal_part(view)
                assert knowledge(other.view(seat)) == known
                compared += 1
                differing += tuple(hands) != truth_of(game)
    assert compared > 60 and differing > 50


def test_no_new_fact_for_the_declarer_four_hands_or_a_kept_widow() -> None:
    """The declarer knows its discards, a kept-out widow is known to all, the four-
    handed game has no widow, and before the discard the widow is among the
    declarer's known cards: those knowledges are what they were, with no
    ``at_least``."""
    rng = random.Random(4)
    counted: Counter[str] = Counter()
    for rules, label in ((TAKE, "take"), (THREE, "out"), (Rules(), "four"),
                         (Rules.preset("modern"), "four")):
        for seed in range(6 if label == "take" else 3):
            game = Game.new(rules, seed=seed)
            players = [StandardPlayer(s, bid_sims=6) for s in range(rules.players)]
            while not game.results:
                for seat in [*range(rules.players), None]:
                    view = game.view(seat)
                    defending = (label == "take" and seat != game.declarer
                                 and game.phase is Phase.PLAY)
                    if not defending:
                        assert knowledge(view).at_least == (), (label, seat, game.phase)
                        counted[label] += 1
                        counted["take, the declarer in play"] += (
                            label == "take" and seat is not None and game.phase is Phase.PLAY)
                actor = game.to_act
                assert actor is not None
                game.apply(players[actor].choose(game.view(actor))
                           if rng.random() < 0.9 else rng.choice(game.legal_actions()))
    assert len(counted) == 4 and min(counted.values()) > 80, counted


# -- exactness on tiny worlds -------------------------------------------------------------


def counts(hand: Hand) -> list[int]:
    return [hand.count(k) for k in range(24)]


def at_most(a: Hand, b: Hand) -> Hand:
    """``a`` less ``b``, per kind, never below 0."""
    return Hand.from_cards(k for k in range(24) for _ in range(max(0, a.count(k) - b.count(k))))


def sub_hands(hand: Hand, size: int) -> set[Hand]:
    """Every sub-multiset of ``hand`` with ``size`` cards."""
    return {Hand.from_cards(c) for c in itertools.combinations(hand.cards(), size)}


@dataclass(frozen=True)
class WidowStory:
    """A tiny three-handed world under ``widow=take``, seen by defender seat 0.

    Seat 1 declares: it takes the ``widow``, lays ``discards`` aside, shows
    ``shown[1]`` (from its hand after the discard) and plays ``played[1]``; seat 2
    shows ``shown[2]`` and plays ``played[2]``; seat 0 plays ``played[0]``.
    ``forbidden`` are voids observed of the current hands of seats 1 and 2.
    """

    kinds: tuple[int, ...]
    dealt: tuple[Hand, Hand, Hand]
    widow: Hand
    discards: Hand
    shown: tuple[Hand, Hand, Hand]
    played: tuple[Hand, Hand, Hand]
    forbidden: tuple[int, int, int]

    def current(self, dealt: Sequence[Hand], discards: Hand) -> tuple[Hand, ...] | None:
        """The current hands and pile from a dealt deal and a discard, or ``None`` if
        the story could not happen that way (a card short, meld not held, a void)."""
        after = [dealt[0], dealt[1] + self.widow - discards, dealt[2]]  # hands at meld
        for s in range(3):
            if not (after[s].issuperset(self.shown[s]) and after[s].issuperset(self.played[s])):
                return None
        hands = [a - p for a, p in zip(after, self.played, strict=True)]
        if any(h.once & f for h, f in zip(hands, self.forbidden, strict=True)):
            return None
        return (*hands, discards)

    def reached(self, parts: Sequence[Hand]) -> set[tuple[Hand, ...]]:
        """The current deals reached from seats 1 and 2 dealt ``parts[:2]``, by any
        discard of the declarer after it took the widow."""
        dealt = (self.dealt[0], parts[0], parts[1])
        out = set()
        for discards in sub_hands(parts[0] + self.widow, len(self.widow)):
            hands = self.current(dealt, discards)
            if hands is not None:
                out.add(hands)
        return out

    def truth(self) -> tuple[Hand, ...]:
        hands = self.current(self.dealt, self.discards)
        assert hands is not None
        return hands

    def knowledge(self, with_widow: bool = True) -> Knowledge:
        """What seat 0 knows, built as :func:`knowledge` builds it from a view."""
        now = self.truth()
        known = [now[0], at_most(self.shown[1], self.played[1]),
                 at_most(self.shown[2], self.played[2]), Hand()]
        in_view = [sum(counts(known[s])[k] for s in range(4))
                   + sum(counts(self.played[s])[k] for s in range(3)) for k in range(24)]
        unseen = Hand.from_cards(k for k in self.kinds for _ in range(2 - in_view[k]))
        left = _widow_left(self.widow, counts(self.played[1]), known[1], Hand())
        at_least = tuple((k, 1 << 1 | 1 << PILE, c) for k, c in enumerate(left) if c)
        return Knowledge(seat=0, hand_sizes=tuple(len(h) for h in now), known=tuple(known),
                         forbidden=(DECK_MASK & ~now[0].once, self.forbidden[1],
                                    self.forbidden[2], 0),
                         gone=(*self.played, Hand()), received=(Hand(),) * 4, unseen=unseen,
                         at_least=at_least if with_widow else ())


def possible_deals(story: WidowStory) -> set[tuple[Hand, ...]]:
    """Brute force over physical histories: every deal of the copies seat 0 was not
    dealt to seat 1, seat 2 and the widow (sizes as dealt, the widow as seen), and
    every discard from the declarer's 18-card-like hand; the current deals reached."""
    mine = counts(story.dealt[0])
    cards = [k for k in story.kinds for _ in range(mine[k], 2)]
    sizes = (len(story.dealt[1]), len(story.dealt[2]), len(story.widow))
    out: set[tuple[Hand, ...]] = set()
    everything = range(len(cards))
    for first in itertools.combinations(everything, sizes[0]):
        rest = [i for i in everything if i not in first]
        for second in itertools.combinations(rest, sizes[1]):
            picks = (first, second, [i for i in rest if i not in second])
            parts = [Hand.from_cards(cards[i] for i in p) for p in picks]
            if parts[2] == story.widow:
                out |= story.reached(parts)
    return out


def docstring_weight(known: Knowledge, hands: Sequence[Hand], weighting: Weighting) -> int:
    """The weight the sampler's docstring gives a deal: ``"unseen"``, the physical
    placements of the unseen copies; ``"shuffle"``, the physical deals of each place's
    dealt cards (its hand plus what left it), the pile as a place of its own."""
    total = 1
    for k in range(24):
        if weighting == "unseen":
            placed = [hands[s].count(k) - known.known[s].count(k) for s in range(4)]
            ways = math.factorial(sum(placed))
        else:
            placed = [hands[s].count(k) + known.gone[s].count(k) for s in range(4)]
            ways = math.factorial(sum(placed))
        for x in placed:
            ways //= math.factorial(x)
        total *= ways
    return total


def random_widow_story(rng: random.Random) -> WidowStory:
    """A random tiny world: 3-5 kinds, a widow of 2 or 3, the rest dealt; a random
    discard, meld shown, plays and voids, all true of the dealt deal."""
    while True:
        kinds = tuple(rng.sample(range(24), rng.randint(3, 5)))
        deck = [k for k in kinds for _ in range(2)]
        rng.shuffle(deck)
        w = rng.choice((2, 3))
        a = rng.randint(1, 3)
        d = rng.randint(1, 3)
        if len(deck) - a > 8 or len(deck) - a - w - d < 1:
            continue  # keep the brute force small, give seat 2 a card
        hand0, widow = Hand.from_cards(deck[:a]), Hand.from_cards(deck[a:a + w])
        hand1, hand2 = Hand.from_cards(deck[a + w:a + w + d]), Hand.from_cards(deck[a + w + d:])
        taken = hand1 + widow
        discards = Hand.from_cards(rng.sample(taken.cards(), w))
        after = (hand0, taken - discards, hand2)
        shown = tuple(Hand.from_cards(c for c in h if rng.random() < 0.4) for h in after)
        played = tuple(Hand.from_cards(c for c in h if rng.random() < 0.35) for h in after)
        now = [h - p for h, p in zip(after, played, strict=True)]
        forbidden = tuple(0 if s == 0 else sum(1 << k for k in kinds if not now[s].count(k)
                                               and rng.random() < 0.3) for s in range(3))
        return WidowStory(kinds, (hand0, hand1, hand2), widow, discards,
                          (shown[0], shown[1], shown[2]), (played[0], played[1], played[2]),
                          (forbidden[0], forbidden[1], forbidden[2]))


def test_widow_left_worked_examples() -> None:
    """The brief's cases, one kind (QS) at a time: widow copies, the declarer's QS
    played and the QS it shows (known in hand while not played)."""
    qs = Hand.parse("QS").cards()[0]

    def left(widow: int, played: int, shown: int) -> int:
        plays = [0] * 24
        plays[qs] = played
        known = Hand.from_cards([qs] * max(0, shown - played))
        return _widow_left(Hand.from_cards([qs] * widow), plays, known, Hand())[qs]

    assert left(1, 0, 0) == 1  # one QS in the widow: that one, not the other
    assert left(2, 0, 0) == 2  # both: neither may be with a defender
    assert left(1, 1, 0) == 0  # it played a QS: the widow's or its own, nothing left to say
    assert left(2, 1, 0) == 1
    assert left(1, 0, 1) == 0  # the QS it shows may be the widow's: not counted twice
    assert left(2, 0, 1) == 1
    assert left(2, 1, 2) == 0  # two shown, one played: the other is known in hand
    assert left(2, 0, 0) == 2 and left(0, 0, 0) == 0


def test_tiny_worlds_are_exact() -> None:
    rng = random.Random(77)
    binding = 0
    for _ in range(250):
        story = random_widow_story(rng)
        known = story.knowledge()
        reachable = possible_deals(story)
        assert story.truth() in reachable and known.is_consistent(story.truth())
        assert all(known.is_consistent(h) for h in reachable)
        for weighting in ("shuffle", "unseen"):
            sampler = Sampler(known, weighting)
            weights = {h: docstring_weight(known, h, weighting) for h in reachable}
            total = sum(weights.values())
            for hands, w in weights.items():
                assert sampler.probability(hands) == Fraction(w, total), (story, weighting)
        # The weaker knowledge (no ``at_least``) gives weight to deals no history reaches.
        weaker = Sampler(story.knowledge(with_widow=False), "unseen")
        binding += sum(weaker.probability(h) for h in reachable) < 1
    assert binding > 60


def test_chi_square_of_widow_samples() -> None:
    """Story: both QS and a KH in the widow; the declarer kept one QS, discarded
    the other with the KH and a 9C, and has shown nothing: the QS it discarded can
    never be with seat 2, the other KH can."""
    story = WidowStory(
        kinds=(2, 9, 18, 13),  # QS, KH, 9C, JD
        dealt=(Hand.parse("JD"), Hand.parse("9C KH JD"), Hand.parse("9C")),
        widow=Hand.parse("QS QS KH"),
        discards=Hand.parse("QS KH 9C"),
        shown=(Hand(), Hand(), Hand()),
        played=(Hand(), Hand(), Hand()),
        forbidden=(0, 0, SUIT_MASKS[1]),  # seat 2 showed a void in hearts
    )
    known = story.knowledge()
    reachable = possible_deals(story)
    n = 20_000
    for weighting in ("shuffle", "unseen"):
        weights = {h: docstring_weight(known, h, weighting) for h in reachable}
        total = sum(weights.values())
        exact = {h: Fraction(w, total) for h, w in weights.items()}
        assert len(exact) >= 4
        samples = Counter(Sampler(known, weighting).samples(random.Random(9), n))
        stat, df = chi_square(samples, exact, n)
        assert stat < chi_square_critical(df), (weighting, stat, df)
        # The same count of samples from the weaker knowledge lands outside.
        weaker = Sampler(story.knowledge(with_widow=False), weighting)
        assert any(h not in exact for h in weaker.samples(random.Random(9), 200))


def tiny(at_least: tuple[tuple[int, int, int], ...]) -> Knowledge:
    """Two AS unseen, one place each at seats 1 and 2."""
    return Knowledge(seat=0, hand_sizes=(0, 1, 1, 0), known=(Hand(),) * 4, forbidden=(0,) * 4,
                     gone=(Hand(),) * 4, received=(Hand(),) * 4, unseen=Hand.parse("AS AS"),
                     at_least=at_least)


def test_at_least_is_checked() -> None:
    for bad in ((24, 2, 1), (5, 1 << 4, 1), (5, 0, 1), (5, 2, 3), (5, 2, 0)):
        with pytest.raises(ValueError, match="at_least"):
            tiny((bad,))
    with pytest.raises(NoConsistentDealError):
        Sampler(tiny(((5, 2, 2),)))  # seat 1 holds one card, both AS must go there
    deal = (Hand(), Hand.parse("AS"), Hand.parse("AS"), Hand())
    assert Sampler(tiny(((5, 2, 1),))).probability(deal) == 1
    assert Sampler(tiny(((5, 2 | 4, 2),))).probability(deal) == 1
    assert "not at least 2" in (tiny(((5, 2, 2),)).violation(deal) or "")
    assert tiny(((5, 2, 1),)).violation(deal) is None
