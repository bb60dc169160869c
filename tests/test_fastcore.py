"""The C simulation core against the Python engine: identical results required.

Random games of every preset (and of variants that reach the options no preset
sets) are driven through :class:`pinochlekit.Game` with random legal actions;
for every hand the C core replays the same cards from the start of play and
must give the same legal-card set at every step, the same trick winners and
points, the same meld and the same hand score. From random mid-hand positions
the C core plays on by itself (random cards, then the standard player) and
the Python game replays its cards, checking each one and the final score.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field, replace

import pytest

from pinochlekit import (
    Action,
    Bid,
    Card,
    Game,
    Give,
    Hand,
    HandResult,
    Moon,
    NameTrump,
    Outcome,
    Pass,
    Phase,
    Play,
    Return,
    Rules,
    ThrowIn,
    Trick,
)
from pinochlekit.engine.cards import DECK_MASK, SUIT_MASKS, card_mask
from pinochlekit.engine.meld import meld as py_meld
from pinochlekit.engine.tricks import legal_mask as py_legal_mask

try:
    from pinochlekit.players.search import fastcore as fc
except ImportError:  # pragma: no cover - the extension is built by `pip install -e .`
    pytest.skip("the C core pinochlekit.native._core is not built", allow_module_level=True)

#: Every preset, and variants for the options (and combinations) no preset sets.
VARIANTS = [*(p for p in Rules.presets() if Rules.preset(p).partnership),  # test_three*
            "pagat(must_beat=following)",
            "pagat(trump_follows_trump=yes)",
            "pagat(trump_follows_trump=yes, must_beat=following, first_lead=trump)",
            "modern(trump_follows_trump=yes)",
            "family1000(must_beat=always, meld_reuse=per_class, set_penalty=contract)",
            "pagat(run_extra=nothing, doubles=plain, trick_points=classic)",
            "pagat(meld_reuse=once, run_extra=nothing)",
            "playingcards(meld_reuse=once, doubles=plain)",
            "chips(set_forfeits_meld=no)",
            "pagat(set_forfeits_meld=no, save_meld_needs_trick=no)",
            "family1000(trick_points=fives, set_forfeits_meld=yes)",
            "stonebridge(shoot_the_moon=yes, set_penalty=chips)"]

GAMES_PER_VARIANT = 6


@dataclass
class PlayedHand:
    """One deal of a driven game, as the tests need it."""

    rules: Rules
    meld_hands: list[Hand] = field(default_factory=list)
    start: Game | None = None  # a copy of the game just before the first card
    legal: list[int] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    cards: list[Card] = field(default_factory=list)
    mid: Game | None = None  # a copy at a random point of the play
    result: HandResult | None = None


def _choose(game: Game, rng: random.Random) -> Action:
    """A random legal action: pass or the lowest bid (now and then a jump, to reach
    'not on the board'), random trump and passed cards, random cards; a throw-in or
    a moon now and then."""
    rules = game.rules
    phase = game.phase
    actions = game.legal_actions()
    if phase is Phase.AUCTION:
        bids = [a for a in actions if type(a) is Bid]
        passes = [a for a in actions if type(a) is Pass and not a.help]
        roll = rng.random()
        if bids and (not passes or roll < 0.45):
            return bids[0] if rng.random() < 0.93 else bids[min(len(bids) - 1, 40)]
        return passes[0] if passes else actions[0]
    if phase is Phase.TRUMP:
        return rng.choice(actions)
    if phase in (Phase.GIVE, Phase.RETURN):
        assert game.to_act is not None
        cards = tuple(rng.sample(game.hand(game.to_act).cards(), rules.cards_passed))
        return Give(cards) if phase is Phase.GIVE else Return(cards)
    plays = [a for a in actions if type(a) is Play]
    others = [a for a in actions if type(a) is not Play]
    if others and rng.random() < 0.12:
        return rng.choice(others)
    return rng.choice(plays)


def drive(rules: Rules, seed: int, max_hands: int = 4) -> list[PlayedHand]:
    """Play a game with random legal actions, recording every deal."""
    rng = random.Random(seed)
    game = Game.new(rules, seed=seed, dealer=seed % 4)
    hands: list[PlayedHand] = []
    current = PlayedHand(rules)
    mid_at = rng.randrange(48)
    while game.phase is not Phase.GAME_OVER and len(hands) < max_hands:
        action = _choose(game, rng)
        n_results = len(game.results)
        if type(action) is Return or (type(action) is NameTrump and not rules.cards_passed):
            # The hands meld is computed from (the next action melds).
            meld_hands = [game.hand(s) for s in range(4)]
            if type(action) is Return:
                declarer = game.to_act
                assert declarer is not None
                for card in action.cards:
                    meld_hands[declarer] = meld_hands[declarer].remove(card)
                    partner = (declarer + 2) % 4
                    meld_hands[partner] = meld_hands[partner].add(card)
            current.meld_hands = meld_hands
        if type(action) is Play:
            if current.start is None:
                current.start = game.copy()
            if len(current.cards) == mid_at:
                current.mid = game.copy()
            assert game.to_act is not None
            current.legal.append(card_mask(a.card for a in game.legal_actions()
                                           if type(a) is Play))
            current.seats.append(game.to_act)
            current.cards.append(action.card)
        game.apply(action)
        if len(game.results) > n_results:
            current.result = game.results[-1]
            if current.result.outcome not in (Outcome.PASSED_OUT, Outcome.REDEAL):
                hands.append(current)
            current = PlayedHand(rules)
            mid_at = rng.randrange(48)
    return hands


@pytest.fixture(scope="module", params=VARIANTS)
def played(request: pytest.FixtureRequest) -> list[PlayedHand]:
    rules = Rules.from_string(request.param)
    out: list[PlayedHand] = []
    for i in range(GAMES_PER_VARIANT):
        out += drive(rules, 1000 * VARIANTS.index(request.param) + i)
    return out


def _melds(result: HandResult) -> tuple[list[int], list[bool]]:
    return [m.points for m in result.melds], [m.dix_only for m in result.melds]


# -- whole hands ------------------------------------------------------------------------


def test_replayed_hands_match(played: list[PlayedHand]) -> None:
    """Every legal-card set, trick winner, trick's points and hand score."""
    n_played = 0
    for hand in played:
        result = hand.result
        assert result is not None
        if hand.start is None:
            continue
        n_played += 1
        position = fc.Position.from_game(hand.start)
        out = fc.play_out(hand.rules, position, hand.cards, policy="stop")
        assert list(out.seats) == hand.seats
        assert [hex(m) for m in out.legal] == [hex(m) for m in hand.legal]
        assert list(out.winners) == [t.winner for t in result.tricks]
        assert list(out.trick_points) == [t.points for t in result.tricks]
        assert out.points == tuple(result.trick_points)
        assert out.scores == tuple(result.scores), result.summary()
        assert out.outcome is result.outcome
    assert n_played


def test_scores_of_every_outcome(played: list[PlayedHand]) -> None:
    """hand_score against Game._finish for every hand: made, set, thrown in, not on
    the board, moon made or failed."""
    outcomes = Counter[Outcome]()
    for hand in played:
        result = hand.result
        assert result is not None and result.declarer is not None
        outcomes[result.outcome] += 1
        melds, dix_only = _melds(result)
        played_out = result.outcome not in (Outcome.THROWN_IN, Outcome.NOT_ON_BOARD)
        took_all = all(t.winner == result.declarer for t in result.tricks)
        scores = fc.hand_score(hand.rules, contract=result.contract, declarer=result.declarer,
                               melds=melds, dix_only=dix_only, tricks=result.trick_points,
                               played=played_out, moon=result.outcome in (
                                   Outcome.MOON, Outcome.MOON_FAILED), took_all=took_all)
        assert scores == tuple(result.scores), result.summary()
    assert outcomes[Outcome.MADE] + outcomes[Outcome.SET] > 0


@pytest.mark.parametrize("name", VARIANTS)
def test_scores_against_finish(name: str) -> None:
    """Game._finish on crafted hands (a private hook, used only here): every branch of
    docs/rules.md §1 Scoring and the §2 set options, the dix exception and the moon."""
    rules = Rules.from_string(name)
    rng = random.Random(name)
    base = Game.new(rules, seed=1, dealer=3)
    base.apply(Bid(rules.opening_bid))
    for _ in range(3):
        base.apply(Pass())
    base.apply(next(a for a in base.legal_actions() if type(a) is NameTrump))
    trump = int(base.trump or 0)
    nines = [s * 6 for s in range(4)]  # 9s: dix in trump, nothing elsewhere
    for _ in range(400):
        game = base.copy()
        declarer = rng.randrange(4)
        contract = rules.opening_bid + rules.step * rng.randrange(60)
        game.declarer, game.contract = declarer, contract
        melds = []
        for _seat in range(4):
            kind = rng.randrange(3)
            cards = (rng.sample([k for k in range(24) for _ in range(2)], 12) if kind == 0
                     else rng.sample(nines + nines, rng.randrange(1, 4)) if kind == 1 else [])
            melds.append(py_meld(cards, trump, rules))
        game.melds = tuple(melds)
        them = rng.choice([0, 0, 1, rng.randrange(rules.trick_total + 1)])
        tricks = [0, 0]
        tricks[1 - declarer % 2], tricks[declarer % 2] = them, rules.trick_total - them
        game.trick_points = tricks
        moon = game.moon = rules.shoot_the_moon and rng.random() < 0.4
        took_all = rng.random() < 0.5
        game.tricks = [Trick(declarer, (), (), declarer if took_all else (declarer + 1) % 4, 0)]
        outcome = rng.choice([Outcome.MADE, Outcome.MADE, Outcome.THROWN_IN, Outcome.NOT_ON_BOARD])
        game._finish(outcome)
        result = game.results[-1]
        scores = fc.hand_score(rules, contract=contract, declarer=declarer,
                               melds=[m.points for m in melds],
                               dix_only=[m.dix_only for m in melds], tricks=tricks,
                               played=outcome is Outcome.MADE, moon=moon, took_all=took_all)
        assert scores == tuple(result.scores), result.summary()


def test_meld_of_every_hand(played: list[PlayedHand]) -> None:
    for hand in played:
        result = hand.result
        assert result is not None and result.trump is not None
        for seat, cards in enumerate(hand.meld_hands):
            ours = fc.meld(hand.rules, cards, result.trump)
            theirs = result.melds[seat]
            assert (ours.points, ours.dix_only, ours.shown) == (
                theirs.points, theirs.dix_only, theirs.shown), (str(cards), str(theirs))


def _replay(game: Game, out: fc.Playout) -> HandResult:
    """Apply the C core's cards to ``game`` one by one, comparing legal sets."""
    n_results = len(game.results)
    for seat, card, legal in zip(out.seats, out.cards, out.legal, strict=True):
        assert game.to_act == seat
        assert card_mask(a.card for a in game.legal_actions() if type(a) is Play) == legal
        game.apply(Play(card), seat)
    assert len(game.results) == n_results + 1
    return game.results[-1]


@pytest.mark.parametrize("policy", ["random", "standard"])
def test_core_plays_replayed_in_python(played: list[PlayedHand], policy: fc.Policy) -> None:
    """From a random point of each hand, the C core plays on; Python checks each card."""
    for i, hand in enumerate(played):
        for game in (hand.mid, hand.start):
            if game is None:
                continue
            position = fc.Position.from_game(game)
            out = fc.play_out(hand.rules, position, policy=policy, seed=i)
            result = _replay(game.copy(), out)
            assert list(out.winners) == [t.winner for t in result.tricks][-len(out.winners):]
            assert out.scores == tuple(result.scores)
            assert out.outcome is result.outcome
            if policy == "standard":
                assert fc.rollout(hand.rules, position, 3) == tuple(3 * s for s in result.scores)


# -- rules tables, exhaustively random ------------------------------------------------------


def _random_hand(rng: random.Random, size: int, deck: list[int] | None = None) -> Hand:
    pool = deck if deck is not None else [k for k in range(24) for _ in range(2)]
    return Hand.from_cards(rng.sample(pool, size))


MELD_RULES = [Rules(run_extra=run_extra, doubles=doubles, meld_reuse=reuse, divide_by_ten=ten)
              for run_extra in ("marries", "nothing") for doubles in ("special", "plain")
              for reuse in ("per_class", "once") for ten in (False, True)]


@pytest.mark.parametrize("rules", MELD_RULES, ids=str)
def test_meld_random_hands(rules: Rules) -> None:
    """Random hands of 12 and 16 cards, and meld-rich hands from A, 10, K, Q, J only
    (runs, arounds, doubles), under every meld option and every trump."""
    rng = random.Random(str(rules))
    rich = [k for k in range(24) if k % 6 >= 1 for _ in range(2)] + [0, 6, 12, 18]
    for i in range(1500):
        size = (12, 16)[i % 2]
        cards = _random_hand(rng, size, rich if i % 3 == 0 else None)
        for trump in (None, 0, 1, 2, 3):
            ours = fc.meld(rules, cards, trump)
            theirs = py_meld(cards, trump, rules)
            assert (ours.points, ours.dix_only, ours.shown) == (
                theirs.points, theirs.dix_only, theirs.shown), (str(cards), trump, str(theirs))


PLAY_RULES = [Rules(must_beat=must_beat, trump_follows_trump=tft, first_lead=first)
              for must_beat in ("always", "trump_led", "following") for tft in (False, True)
              for first in ("any", "trump")]


@pytest.mark.parametrize("rules", PLAY_RULES, ids=str)
def test_legal_masks_random(rules: Rules) -> None:
    rng = random.Random(str(rules))
    for _ in range(6000):
        cards = rng.sample([k for k in range(24) for _ in range(2)], 3 + rng.randrange(1, 13))
        trick = cards[:rng.randrange(4)]
        hand = Hand.from_cards(cards[3:])
        trump = rng.randrange(4)
        first = rng.random() < 0.3
        assert fc.legal_mask(rules, hand.once, trick, trump, first) == py_legal_mask(
            hand.once, trick, trump, rules, first)


# -- the standard player -----------------------------------------------------------------


@pytest.mark.parametrize("name", ["pagat", "family1000", "playingcards", "modern"])
def test_bid_rounds_replayed_in_python(name: str) -> None:
    """A simulated bid round, replayed through Game: the same passing is legal, the
    same cards are legal, the same round score results."""
    rules = Rules.preset(name)
    rng = random.Random(name)
    checked = 0
    for i in range(120):
        deck = [k for k in range(24) for _ in range(2)]
        rng.shuffle(deck)
        hands = [Hand.from_cards(deck[12 * s:12 * s + 12]) for s in range(4)]
        seat = i % 4
        contract = rules.opening_bid + rules.step * rng.choice([0, 0, 5, 20, 60])
        game = Game.new(rules, seed=i, dealer=(seat - 1) % 4, deals=[hands])
        game.apply(Bid(contract))
        for _ in range(3):
            game.apply(Pass())
        trump = rng.choice([a for a in game.legal_actions() if type(a) is NameTrump]).suit
        game.apply(NameTrump(trump))
        out = fc.bid_hand(rules, hands, seat, trump, contract)
        if rules.cards_passed:
            game.apply(Give(out.given))
            game.apply(Return(out.returned))
        for card in out.plays:
            game.apply(Play(card))
        result = game.results[-1]
        assert tuple(result.scores) == out.scores, result.summary()
        assert (result.outcome is Outcome.NOT_ON_BOARD) == (not out.plays)
        checked += 1
    assert checked


@pytest.mark.parametrize("level", ["standard", "pro"])
def test_passing_takes_cards_of_the_hand(level: fc.Level) -> None:
    rng = random.Random(level)
    for name in ("pagat", "playingcards", "family1000"):
        rules = Rules.preset(name)
        for _ in range(300):
            deck = [k for k in range(24) for _ in range(2)]
            rng.shuffle(deck)
            partner, declarer = Hand.from_cards(deck[:12]), Hand.from_cards(deck[12:24])
            trump = rng.randrange(4)
            given = fc.give_cards(rules, partner, trump, level)
            assert len(given) == rules.cards_passed
            partner - Hand.from_cards(given)  # raises unless every card is held
            received = declarer + Hand.from_cards(given)
            back = fc.return_cards(rules, received, given, trump, level)
            assert len(back) == rules.cards_passed
            received - Hand.from_cards(back)


def test_rollout_with_redeals_keeps_what_is_known() -> None:
    rules = Rules()
    hands = drive(rules, 77, max_hands=3)
    hand = next(h for h in hands if h.mid is not None)
    assert hand.mid is not None
    position = fc.Position.from_game(hand.mid)
    seat = hand.mid.to_act
    assert seat is not None
    spec = fc.DealSpec(seat, known=tuple(hand.mid.hand(s) if s == seat else Hand()
                                          for s in range(4)))
    counts = Counter[tuple[int, int]]()
    for i in range(400):
        dealt = fc.deal(rules, position, spec, seed=i)
        assert dealt[seat] == hand.mid.hand(seat)
        assert [len(h) for h in dealt] == [len(h) for h in position.hands]
        assert sum(dealt, Hand()) + hand.mid.view(None).played == Hand(DECK_MASK, DECK_MASK)
        for s in range(4):
            for card in dealt[s]:
                counts[s, card] += 1
    # Voids: a spec that forbids a suit to a seat is respected.
    other = (seat + 1) % 4
    forbidden = tuple(SUIT_MASKS[0] if s == other else 0 for s in range(4))
    spec2 = fc.DealSpec(seat, known=spec.known, forbidden=forbidden)
    try:
        dealt = fc.deal(rules, position, spec2, seed=1)
    except ValueError:
        pass  # the other seats cannot absorb every spade
    else:
        assert not dealt[other].once & SUIT_MASKS[0]
    total = fc.rollout(rules, position, 50, seed=3, spec=spec)
    assert isinstance(total[0], int)
    values = fc.card_values(rules, position, 20, seed=3, spec=spec)
    legal = [a.card for a in hand.mid.legal_actions() if type(a) is Play]
    assert sorted(values) == sorted(set(legal))


# -- the Python players' policy (players/policy.py, players/simulate.py) ------------------

policy = pytest.importorskip("pinochlekit.players.policy")
simulate = pytest.importorskip("pinochlekit.players.search.simulate")

POLICY_VARIANTS = ["pagat", "family1000", "playingcards", "stonebridge",
                   "pagat(trump_follows_trump=yes)", "pagat(meld_reuse=once, doubles=plain)",
                   "pagat(run_extra=nothing, cards_passed=3)"]


@pytest.mark.parametrize("name", POLICY_VARIANTS)
def test_passing_matches_python_policy(name: str) -> None:
    rules = Rules.from_string(name)
    n = rules.cards_passed or 4
    rng = random.Random(name)
    for _ in range(400):
        deck = [k for k in range(24) for _ in range(2)]
        rng.shuffle(deck)
        partner, declarer = Hand.from_cards(deck[:12]), Hand.from_cards(deck[12:24])
        trump = rng.randrange(4)
        for pro in (False, True):
            level: fc.Level = "pro" if pro else "standard"
            given = policy.pass_cards(partner, trump, rules, n, policy.give_order(pro))
            ours = fc.give_cards(rules.replace(cards_passed=n), partner, trump, level)
            assert ours == given, (str(partner), trump, level)
            received = Hand.from_cards(given)
            hand = declarer + received
            back = policy.return_cards(hand, trump, rules, n, received, voiding=not pro)
            ours = fc.return_cards(rules.replace(cards_passed=n), hand, given, trump, level)
            assert ours == back, (str(hand), [str(Card(c)) for c in given], trump, level)


def _positions(rules: Rules, seed: int, hands: int = 2) -> list[Game]:
    """Games at every card play of a few hands, played half by the standard rules
    (through the C core, checked by the tests below) and half at random."""
    rng = random.Random(seed)
    game = Game.new(rules, seed=seed, dealer=seed % 4)
    out: list[Game] = []
    played = 0
    while game.phase is not Phase.GAME_OVER and played < hands:
        n_results = len(game.results)
        if game.phase is Phase.PLAY:
            plays = [a for a in game.legal_actions() if type(a) is Play]
            out.append(game.copy())
            if rng.random() < 0.5:
                action: Action = rng.choice(plays)
            else:
                action = Play(fc.choose_card(rules, fc.Position.from_game(game)))
        else:
            action = _choose(game, rng)
            if type(action) in (ThrowIn, Moon):
                action = next(a for a in game.legal_actions() if type(a) is Play)
        game.apply(action)
        played += len(game.results) > n_results
    return out


def _subsets(mask: int, rng: random.Random) -> list[int]:
    kinds = [k for k in range(24) if mask >> k & 1]
    out = [mask]
    for _ in range(2):
        picked = [k for k in kinds if rng.random() < 0.5] or kinds[:1]
        out.append(card_mask(picked))
    return out


@pytest.mark.parametrize("name", [*POLICY_VARIANTS, "stonebridge(shoot_the_moon=yes)"])
def test_card_play_matches_python_policy(name: str) -> None:
    """The standard player's card at every position, and the pro's final rule (and
    standard's) among subsets of the legal cards, as the Python player decides."""
    from pinochlekit.players.standard import StandardPlayer

    rules = Rules.from_string(name)
    player = StandardPlayer(seed=0, bid_sims=4)
    rng = random.Random(name)
    checked = 0
    for seed in range(5):
        for game in _positions(rules, 500 + seed):
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            position = fc.Position.from_game(game)
            legal = card_mask(a.card for a in view.legal_actions if type(a) is Play)
            for allowed in _subsets(legal, rng):
                theirs, _ = player.play_card(view, allowed)
                ours = fc.choose_card(rules, position, among=Hand(allowed).cards())
                assert ours == theirs, (str(view.hand), view.trick, Card(theirs), ours)
                if not view.trick:
                    inputs = player._lead_inputs(view)
                    theirs = policy.pro_lead(allowed, int(game.trump or 0), *inputs)
                    ours = fc.choose_card(rules, position, "pro", Hand(allowed).cards())
                    assert ours == theirs
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("name", POLICY_VARIANTS)
def test_backend_matches_python_simulator(name: str) -> None:
    """simulate.python_backend is the reference: bid rounds from dealt hands and
    play-outs from real positions, round scores for both teams."""
    from pinochlekit.players.search.sampler import Sampler

    rules = Rules.from_string(name)
    rng = random.Random(name)
    for i in range(12):
        deals = []
        for _ in range(8):
            deck = [k for k in range(24) for _ in range(2)]
            rng.shuffle(deck)
            deals.append(tuple(Hand.from_cards(deck[12 * s:12 * s + 12]) for s in range(4)))
        seat = i % 4
        contract = rules.opening_bid + rules.step * rng.choice([0, 3, 10, 40])
        start = simulate.Start(rules=rules, declarer=seat, contract=contract,
                               trump=rng.randrange(4), knower=seat)
        for team in (0, 1):
            assert fc.backend(start, deals, team) == simulate.python_backend(start, deals, team)
            take = replace(start, score="take")  # docs/rules.md §5 round score
            assert fc.backend(take, deals, team) == simulate.python_backend(take, deals, team)
    for seed in range(3):
        for game in _positions(rules, 900 + seed, hands=1)[::5]:
            actor = game.to_act
            assert actor is not None
            view = game.view(actor)
            start = simulate.start_from_view(view)
            sampler = Sampler.from_view(view)
            deals = sampler.samples(rng, 10)
            for measured in (start, replace(start, score="take")):
                assert fc.backend(measured, deals, actor % 2) == simulate.python_backend(
                    measured, deals, actor % 2)
            card = next(a.card for a in view.legal_actions if type(a) is Play)
            after = [tuple(h.remove(card) if s == actor else h for s, h in enumerate(d))
                     for d in deals]
            if len(view.hand or ()) > 1:
                for then in (start.then(actor, card),
                             replace(start.then(actor, card), score="take")):
                    assert fc.backend(then, after, 1 - actor % 2) == simulate.python_backend(
                        then, after, 1 - actor % 2)
