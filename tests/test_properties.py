"""Random complete games under every preset and several option mixes (STYLE.md, tests 4).

A seeded random policy drives each game through ``game.legal_actions()``. It bids
the way people do (mostly pass, otherwise raise by one step, now and then jump),
so that hands are really played: uniform choice over the ~950 legal bids would
put every hand off the board. Along the way and at the end these hold:

* every card of a played hand is played exactly once: the 48 cards of the deck
  are the cards of ``result.tricks`` plus, in a moon hand, the partner's hand;
  each seat plays exactly the hand it held after passing;
* the trick points of a played non-moon hand total ``rules.trick_total``; every
  trick has the right leader, seats, winner and points (docs/rules.md §1 Play, Counting);
* each hand scores as docs/rules.md §1 Scoring a hand and §2 say (an independent
  scorer below), and team scores are the sums of the hand scores;
* ``legal_actions`` agrees with ``is_legal`` on a wide pool of candidate actions;
  every legal action applies; every illegal one (bad plays, low or off-step bids,
  wrong-phase actions, out-of-turn ``apply(action, seat=...)``, gives and returns
  of the wrong size or of cards not held) raises an ``IllegalActionError`` and
  leaves the game exactly as it was;
* ``undo()`` then re-applying gives the same state; ``copy()`` is equal and
  independent; a JSON record replays to the same game;
* the game ends with a winner at or over the target (both over: the declaring
  team; a made moon wins outright), and no earlier hand ended it.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_perft import RefRules, ref_legal

from pinochlekit import (
    Action,
    Bid,
    Card,
    Game,
    GameOverError,
    GameRecord,
    Give,
    Hand,
    HandResult,
    IllegalActionError,
    Moon,
    NameTrump,
    Outcome,
    OutOfTurnError,
    Pass,
    Phase,
    PhaseError,
    Play,
    Redeal,
    Return,
    Rules,
    Suit,
    ThrowIn,
    deal,
    deal_seed,
    parse_action,
)
from pinochlekit.engine.meld import meld

# -- configurations ----------------------------------------------------------------

Deal = tuple[Hand, Hand, Hand, Hand]


@dataclass(frozen=True)
class Config:
    """Rules to play under, and optionally fixed first deals (for nines redeals)."""

    name: str
    rules: Rules
    deals: tuple[Deal, ...] = ()


def nines_deal(rng: random.Random, seat: int, nines_hand: str) -> Deal:
    """A deal where ``seat`` holds ``nines_hand`` and the rest is shuffled."""
    mine = Hand.parse(nines_hand)
    rest = list((Hand((1 << 24) - 1, (1 << 24) - 1) - mine).cards())
    rng.shuffle(rest)
    hands: list[Hand] = []
    for s in range(4):
        if s == seat:
            hands.append(mine)
        else:
            hands.append(Hand.from_cards(rest[:12]))
            del rest[:12]
    return (hands[0], hands[1], hands[2], hands[3])


# Six nines (docs/rules.md §2 nines redeal 'six_or_five') and five nines with no meld at
# all before trump is named ('five', seed 004).
SIX_NINES = "9S 9S 9H 9H 9D 9D AS TS JS AH TH JD"
FIVE_NINES_NO_MELD = "9S 9S 9H 9H 9D AS TS JS AH TH JD TD"


def _nines_deals(hand: str) -> tuple[Deal, ...]:
    rng = random.Random(hand)
    # Dealer 0: seat 1 speaks first, seat 3 last; three deals in a row.
    return tuple(nines_deal(rng, seat, hand) for seat in (1, 3, 2))


PAGAT = Rules()
CONFIGS: list[Config] = [Config(name, Rules.preset(name)) for name in Rules.presets()
                         if Rules.preset(name).partnership] + [  # three-handed: tests/test_three*
    Config("playingcards+five-nines", Rules.preset("playingcards"),
           _nines_deals(FIVE_NINES_NO_MELD)),
    Config("following", PAGAT.replace(must_beat="following")),
    Config("tft-always", PAGAT.replace(trump_follows_trump=True)),
    Config("tft-trump_led", PAGAT.replace(trump_follows_trump=True, must_beat="trump_led")),
    Config("tft-following", PAGAT.replace(trump_follows_trump=True, must_beat="following")),
    Config("first-bid-required", PAGAT.replace(first_bid_required=True)),
    Config("dealer-not-stuck", PAGAT.replace(dealer_stuck=False)),
    Config("nines-six_or_five-max3", PAGAT.replace(nines_redeal="six_or_five", max_deals=3),
           _nines_deals(SIX_NINES)),
    Config("moon", PAGAT.replace(shoot_the_moon=True)),
    Config("house-mix", PAGAT.replace(
        trump_needs_meld=True, run_extra="nothing", doubles="plain", meld_reuse="once",
        pass_with_help=False, set_forfeits_meld=False, save_meld_needs_trick=False,
        cards_passed=3, target=1000)),
    Config("ten-chips", PAGAT.replace(divide_by_ten=True, set_penalty="chips",
                                      first_lead="trump", min_bid=200)),
    # A low target: games of a hand or two, now and then with both teams over it.
    Config("target-300", PAGAT.replace(target=300)),
]

# -- the policy ----------------------------------------------------------------------


def choose(game: Game, rng: random.Random, legal: Sequence[Action] | None = None) -> Action:
    """A sensible random action for the seat to act (passing avoids legal_actions)."""
    phase = game.phase
    seat = game.to_act
    assert seat is not None
    if phase in (Phase.GIVE, Phase.RETURN) and legal is None:
        cards = rng.sample(game.hand(seat).cards(), game.rules.cards_passed)
        return Give(tuple(cards)) if phase is Phase.GIVE else Return(tuple(cards))
    actions = list(game.legal_actions()) if legal is None else list(legal)
    if phase is Phase.AUCTION:
        if Redeal() in actions and rng.random() < 0.5:
            return Redeal()
        passes = [a for a in actions if isinstance(a, Pass)]
        bids = [a for a in actions if isinstance(a, Bid)]
        roll = rng.random()
        if passes and roll < 0.65:
            return passes[-1] if rng.random() < 0.1 else passes[0]
        if roll < 0.95 or len(bids) < 4:
            return bids[0]
        return bids[rng.randrange(1, 4)]
    if phase is Phase.PLAY:
        if Moon() in actions and rng.random() < 0.15:
            return Moon()
        if ThrowIn() in actions and rng.random() < 0.04:
            return ThrowIn()
        return rng.choice([a for a in actions if isinstance(a, Play)])
    return rng.choice(actions)


# -- snapshots -----------------------------------------------------------------------

Snapshot = tuple[object, ...]


def snapshot(game: Game) -> Snapshot:
    """Everything observable about a game: what its record is made of (the record
    itself, slow to build, is compared once per check), every view, scores, phase,
    turn."""
    record_key = (game.rules, game.seed, game.first_dealer, tuple(game.actions), game.deals)
    return (record_key, tuple(game.view(s) for s in range(4)), game.public_view(),
            tuple(game.scores), game.phase, game.to_act, tuple(game.results), game.winner,
            tuple(game.hand(s) for s in range(4)))


def fingerprint(game: Game) -> Snapshot:
    """A cheap summary of the state for checks repeated many times per position."""
    return (tuple(game.actions), game.phase, game.to_act, tuple(game.scores),
            tuple(game.hand(s) for s in range(4)), tuple(game.trick), len(game.tricks),
            len(game.results), game.winner, game.high_bid, game.high_bidder, game.declarer,
            game.trump, game.given, game.returned, game.melds, game.moon)


def check_views(game: Game) -> None:
    """Each view holds its own hand only; passed cards only for declarer and partner."""
    public = game.public_view()
    assert public.hand is None and public.given is None and public.returned is None
    assert public.legal_actions == ()
    pair = () if game.declarer is None else (game.declarer, (game.declarer + 2) % 4)
    for seat in range(4):
        view = game.view(seat)
        assert view.seat == seat
        assert view.hand == game.hand(seat)
        assert view.hand_sizes == tuple(len(game.hand(s)) for s in range(4))
        if seat in pair:
            assert view.given == game.given and view.returned == game.returned
        else:
            assert view.given is None and view.returned is None
        if seat == game.to_act:
            assert list(view.legal_actions) == game.legal_actions()
        else:
            assert view.legal_actions == ()
        data = view.to_dict()
        assert data["hand"] == str(game.hand(seat))
        assert json.loads(json.dumps(data)) == data


# -- legal and illegal actions --------------------------------------------------------

_PHASE_OF: dict[type[Action], Phase] = {
    Play: Phase.PLAY, ThrowIn: Phase.PLAY, Moon: Phase.PLAY, Bid: Phase.AUCTION,
    Pass: Phase.AUCTION, Redeal: Phase.AUCTION, NameTrump: Phase.TRUMP, Give: Phase.GIVE,
    Return: Phase.RETURN,
}


def candidate_actions(game: Game, rng: random.Random) -> list[Action]:
    """A wide pool of actions, legal and illegal, for the current position."""
    rules = game.rules
    step = rules.step
    low = rules.opening_bid if game.high_bidder is None else game.high_bid + step
    top = max((a.amount for a in game.legal_actions() if isinstance(a, Bid)), default=low)
    pool: list[Action] = [Play(Card(k)) for k in range(24)]
    amounts = {low - step, low - 1, low, low + 1, low + step, low + step // 2 + 1, top,
               top + step, top + 1, 0, -step, rules.opening_bid - step,
               low + step * rng.randrange(0, 50)}
    pool += [Bid(a) for a in sorted(amounts)]
    pool += [Pass(), Pass(help=True), Redeal(), ThrowIn(), Moon()]
    pool += [NameTrump(s) for s in Suit]
    seat = game.to_act if game.to_act is not None else 0
    hand = game.hand(seat).cards()
    n = rules.cards_passed
    missing = [Card(k) for k in range(24) if game.hand(seat).count(k) < 2]
    groups: list[list[Card]] = [[]]
    for size in {n, n - 1, n + 1, 4, 3}:
        if 0 <= size <= len(hand):
            groups.append(rng.sample(hand, size))
    if n and len(hand) >= n:
        bad = rng.sample(hand, n - 1)
        extra = rng.choice(missing)
        # One card more of a kind than the seat holds (a kind not held, or a third copy).
        while bad.count(extra) + 1 <= game.hand(seat).count(extra):
            extra = rng.choice(missing)
        groups.append([*bad, extra])
    for cards in groups:
        if len(cards) > 0 and max(Counter(cards).values()) > 2:
            continue
        pool += [Give(tuple(cards)), Return(tuple(cards))]
    return pool


def assert_rejected(game: Game, action: Action, before: Snapshot, seat: int | None = None,
                    error: type[IllegalActionError] = IllegalActionError,
                    state: Callable[[Game], Snapshot] = snapshot) -> None:
    """``action`` (by ``seat``) is illegal, raises ``error`` and changes nothing:
    ``state(game)`` still equals ``before``. (``check_actions`` compares the cheap
    :func:`fingerprint` after each action and the full :func:`snapshot` after all.)"""
    assert not game.is_legal(action, seat), (action, seat, game)
    with pytest.raises(error):
        game.apply(action, seat=seat)
    assert state(game) == before, (action, seat)


def check_legal_set(game: Game, legal: list[Action]) -> None:
    """``legal_actions`` outside the play, from the rules text: docs/rules.md §1 Auction,
    Trump, Passing and the §2 options (first bid required, pass with help, trump
    must hold meld, nines redeal with its three-deal limit)."""
    rules = game.rules
    seat = game.to_act
    assert seat is not None
    hand = game.hand(seat)
    if game.phase is Phase.AUCTION:
        spoken = any(s == seat for s, _ in game.auction)
        must_open = rules.first_bid_required and seat == (game.dealer + 1) % 4 and not spoken
        passes = [a for a in legal if isinstance(a, Pass)]
        assert passes == ([] if must_open else [Pass()] if not rules.pass_with_help
                          else [Pass(), Pass(help=True)])
        amounts = [a.amount for a in legal if isinstance(a, Bid)]
        low = rules.opening_bid if game.high_bidder is None else game.high_bid + rules.step
        assert amounts == list(range(low, amounts[-1] + 1, rules.step))
        nines = sum(hand.count(Card(s * 6)) for s in range(4))
        no_meld = meld(hand, None, rules).points == 0
        trailing = 0
        for result in reversed(game.results):
            if result.outcome is not Outcome.REDEAL:
                break
            trailing += 1
        may = {"off": False, "six_or_five": nines >= 6 or (nines == 5 and no_meld),
               "five": nines >= 5 and no_meld}[rules.nines_redeal]
        may = may and not spoken and not (rules.max_deals and trailing >= rules.max_deals - 1)
        assert (Redeal() in legal) == may
    elif game.phase is Phase.TRUMP:
        suits = list(Suit)
        if rules.trump_needs_meld:
            suits = [s for s in Suit if Card(s * 6) in hand
                     or (Card(s * 6 + 3) in hand and Card(s * 6 + 2) in hand)] or suits
        assert legal == [NameTrump(s) for s in suits]
    elif game.phase in (Phase.GIVE, Phase.RETURN):
        kind = Give if game.phase is Phase.GIVE else Return
        combos = {tuple(sorted(c)) for c in combinations(hand.cards(), rules.cards_passed)}
        assert set(legal) == {kind(c) for c in combos}
        assert all(type(a) is kind for a in legal)


def check_actions(game: Game, rng: random.Random) -> list[Action]:
    """Legal actions apply (on copies), illegal ones are rejected without a trace."""
    legal = game.legal_actions()
    check_legal_set(game, legal)
    assert len(set(legal)) == len(legal), "legal_actions repeats an action"
    record = game.record
    full = snapshot(game)
    before = fingerprint(game)
    seat = game.to_act
    assert seat is not None
    sample = legal if len(legal) <= 40 else [legal[0], legal[-1], *rng.sample(legal, 38)]
    for action in sample:
        assert game.is_legal(action) and game.is_legal(action, seat), action
        assert parse_action(str(action)) == action, action
        other = game.copy()
        other.apply(action, seat=seat)
        assert other.actions[-1] == action
    legal_set = set(legal)
    for action in candidate_actions(game, rng):
        if action in legal_set:
            assert game.is_legal(action), action
            continue
        wrong_phase = _PHASE_OF[type(action)] is not game.phase
        full_check = rng.random() < 0.1
        assert_rejected(game, action, full if full_check else before,
                        error=PhaseError if wrong_phase else IllegalActionError,
                        state=snapshot if full_check else fingerprint)
    for action in rng.sample(legal, min(3, len(legal))):
        for other_seat in range(4):
            if other_seat != seat:
                assert_rejected(game, action, before, other_seat, OutOfTurnError, fingerprint)
    assert snapshot(game) == full and game.record == record
    return legal


def check_undo_and_copy(game: Game, action: Action, rng: random.Random) -> None:
    """Apply ``action`` to ``game``, checking undo/re-apply and copy independence."""
    before = snapshot(game)
    record = game.record
    twin = game.copy()
    assert snapshot(twin) == before and twin.record == record
    game.apply(action)
    after = snapshot(game)
    assert snapshot(twin) == before, "copy() shares state with the original"
    assert game.undo() == action
    assert snapshot(game) == before, "undo() did not restore the position"
    assert game.record == record
    game.apply(action)
    assert snapshot(game) == after, "re-applying after undo() differs"
    twin.apply(action)
    assert snapshot(twin) == after
    if twin.phase is not Phase.GAME_OVER:
        twin.apply(choose(twin, rng))
        assert snapshot(game) == after, "a move on the copy changed the original"


def check_replay(game: Game) -> None:
    """The JSON record replays to the same game."""
    replayed = Game.from_record(GameRecord.from_json(game.record.to_json()))
    assert replayed.record == game.record
    assert replayed.scores == game.scores and replayed.results == game.results
    assert snapshot(replayed) == snapshot(game)


# -- the hand and game invariants --------------------------------------------------------

DECK = Counter(Card(k) for k in range(24) for _ in range(2))
FULL_DECK = Hand((1 << 24) - 1, (1 << 24) - 1)
PLAYED = (Outcome.MADE, Outcome.SET, Outcome.MOON, Outcome.MOON_FAILED)


def ref_trick_winner(cards: Sequence[Card], trump: Suit) -> int:
    """Highest trump, else highest of the suit led; the first of two equals wins."""
    def power(card: Card) -> int:
        if card.suit == trump:
            return 20 + int(card.rank)
        return 10 + int(card.rank) if card.suit == cards[0].suit else 0
    best = max(power(c) for c in cards)
    return [power(c) for c in cards].index(best)


def ref_points(card: Card, rules: Rules) -> int:
    """Trick points of one card (docs/rules.md §1 Counting, §2 trick points)."""
    table = {"counters": {"A": 10, "T": 10, "K": 10},
             "fives": {"A": 10, "T": 10, "K": 5, "Q": 5},
             "classic": {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}}[rules.trick_points]
    return table.get(str(card)[0], 0) // rules.unit


def ref_scores(rules: Rules, result: HandResult) -> tuple[int, int]:
    """The hand's scores by docs/rules.md §1 Scoring a hand and the §2 set options."""
    assert result.declarer is not None
    us = result.declarer % 2
    them = 1 - us
    meld = result.meld_points
    tricks = result.trick_points
    scores = [0, 0]
    played = result.outcome in PLAYED
    if played:
        team_items = [m.items for m in result.melds[them::2]]
        dix_only = any(team_items) and all(
            i.name == "dix" for items in team_items for i in items)
        saved = not rules.save_meld_needs_trick or tricks[them] > 0 or dix_only
        scores[them] = tricks[them] + (meld[them] if saved else 0)
        assert result.meld_saved[them] == saved
    else:
        assert tricks == (0, 0)
        scores[them] = meld[them]  # not on the board / thrown in: defenders keep meld
    if result.outcome is Outcome.MOON:
        scores[us] = 1000 // rules.unit
        return (scores[0], scores[1])
    if result.outcome is Outcome.MADE:
        assert meld[us] + tricks[us] >= result.contract
        scores[us] = meld[us] + tricks[us]
        return (scores[0], scores[1])
    if result.outcome is Outcome.SET:
        assert meld[us] + tricks[us] < result.contract
    kept = 0 if rules.set_forfeits_meld else meld[us]
    if rules.set_penalty == "chips":  # the set team loses nothing, opponents score it
        scores[us] = kept
        scores[them] += result.contract
    elif rules.set_penalty == "shortfall" and result.outcome is not Outcome.MOON_FAILED:
        scores[us] = -(result.contract - meld[us] - tricks[us])
    else:
        scores[us] = kept - result.contract
    return (scores[0], scores[1])


def check_hand(rules: Rules, result: HandResult, dealt: Deal, start: Deal | None,
               given: tuple[Card, ...] | None, returned: tuple[Card, ...] | None) -> None:
    """Cards, tricks, points and score of one finished hand."""
    if result.outcome in (Outcome.PASSED_OUT, Outcome.REDEAL):
        assert result.scores == (0, 0) and not result.tricks
        return
    assert result.declarer is not None and result.trump is not None
    declarer, partner = result.declarer, (result.declarer + 2) % 4
    assert len(result.melds) == 4
    for team in (0, 1):
        assert result.meld_points[team] == sum(m.points for m in result.melds[team::2])
    on_board = result.contract <= result.meld_points[declarer % 2] + rules.trick_total
    assert (result.outcome is Outcome.NOT_ON_BOARD) == (not on_board)
    if result.outcome not in PLAYED:
        assert not result.tricks
    else:
        assert start is not None
        moon = result.outcome in (Outcome.MOON, Outcome.MOON_FAILED)
        trump = result.trump
        # Passing (docs/rules.md §1 Passing): hands at the first lead are the dealt hands
        # with the given cards moved to the declarer and the returned ones back.
        moved = list(dealt)
        if given is not None and returned is not None:
            moved[partner] = moved[partner] - Hand.from_cards(given) + Hand.from_cards(returned)
            moved[declarer] = (moved[declarer] + Hand.from_cards(given)
                               - Hand.from_cards(returned))
        assert tuple(moved) == start
        if rules.cards_passed:
            assert given is not None and returned is not None
            assert len(given) == len(returned) == rules.cards_passed
        for seat in range(4):  # docs/rules.md §1 Meld: after passing, with the named trump
            assert result.melds[seat] == meld(start[seat], trump, rules)
            assert start[seat].issuperset(result.melds[seat].shown)
        seats_in_play = [s for s in range(4) if not (moon and s == partner)]
        assert len(result.tricks) == 12
        played: Counter[Card] = Counter()
        by_seat: dict[int, list[Card]] = {s: [] for s in range(4)}
        points = [0, 0]
        leader = declarer
        for number, trick in enumerate(result.tricks):
            assert trick.leader == leader
            order = [(leader + i) % 4 for i in range(4)]
            assert list(trick.seats) == [s for s in order if s in seats_in_play]
            assert len(trick.cards) == len(seats_in_play)
            winner = trick.seats[ref_trick_winner(trick.cards, trump)]
            assert trick.winner == winner
            value = sum(ref_points(c, rules) for c in trick.cards)
            if number == 11:
                value += 10 // rules.unit
            assert trick.points == value
            points[winner % 2] += value
            played.update(trick.cards)
            for s, c in zip(trick.seats, trick.cards, strict=True):
                by_seat[s].append(c)
            leader = winner
        assert tuple(points) == result.trick_points
        for seat in seats_in_play:
            assert Hand.from_cards(by_seat[seat]) == start[seat], seat
        if moon:
            assert not by_seat[partner]
            assert played + Counter(start[partner].cards()) == DECK
            assert (result.outcome is Outcome.MOON) == all(
                t.winner == declarer for t in result.tricks)
        else:
            assert played == DECK
            assert sum(result.trick_points) == rules.trick_total
    assert result.scores == ref_scores(rules, result), result.summary()


def check_game_over(game: Game) -> None:
    """The game ends at the target: the first team over it, or the declarers if both."""
    rules = game.rules
    assert game.phase is Phase.GAME_OVER and game.to_act is None
    assert game.winner is not None and game.legal_actions() == []
    totals = [0, 0]
    for number, result in enumerate(game.results):
        for team in (0, 1):
            totals[team] += result.scores[team]
        assert tuple(totals) == result.totals
        if number < len(game.results) - 1:
            assert result.outcome is not Outcome.MOON
            assert max(totals) < rules.game_target, "the game went on past its end"
    assert totals == game.scores
    # docs/rules.md §1 Deal: the deal passes to the left after each hand (a nines redeal
    # is dealt again by the same dealer).
    dealer = game.first_dealer
    for number, result in enumerate(game.results, 1):
        assert result.number == number and result.dealer == dealer
        dealer = dealer if result.outcome is Outcome.REDEAL else (dealer + 1) % 4
    last = game.results[-1]
    over = [t for t in (0, 1) if totals[t] >= rules.game_target]
    if last.outcome is Outcome.MOON or len(over) == 2:
        assert game.winner == last.declaring_team
    else:
        assert over == [game.winner]
    before = snapshot(game)
    last_action = game.actions[-1]
    assert game.undo() == last_action and game.winner is None
    assert game.phase is not Phase.GAME_OVER
    game.apply(last_action)
    assert snapshot(game) == before, "undo() and re-apply of the winning action differ"
    after_end = (Play(Card(0)), Bid(rules.opening_bid), Pass(), ThrowIn(), NameTrump(Suit.SPADES))
    for action in after_end:
        assert_rejected(game, action, before, error=GameOverError)
    with pytest.raises(GameOverError):
        game.apply(Pass(), seat=0)


# -- the driver ------------------------------------------------------------------------


def check_plays_against_reference(game: Game) -> None:
    """The legal plays are those of the slow reference of ``test_perft`` (docs/rules.md
    §1 Play, §2 options), deep into the hand where voids abound."""
    seat = game.to_act
    assert seat is not None and game.trump is not None
    rules = game.rules
    reference = ref_legal([str(c) for c in game.hand(seat).cards()],
                          [str(Card(c)) for c in game.trick], game.trump.letter,
                          RefRules(rules.must_beat, rules.trump_follows_trump, rules.first_lead),
                          not game.tricks and not game.trick)
    plays = sorted(str(a.card) for a in game.legal_actions() if isinstance(a, Play))
    assert plays == sorted(reference), (game.hand(seat), game.trick, game.trump)


def play_game(config: Config, seed: int, heavy: float, most: int = 20) -> Game:
    """Play one game to its end, checking as it goes. A share ``heavy`` of the
    positions, at most ``most`` of them, and the first position of every phase of
    the first hand get the expensive checks (every candidate action, undo, copy)."""
    rng = random.Random(seed)
    # Fixed deals are made for dealer 0; otherwise any dealer, and int or text seeds.
    dealer = 0 if config.deals else seed % 4
    game = Game.new(config.rules, seed=seed if seed % 3 else f"game-{seed}", dealer=dealer,
                    deals=config.deals)
    dealt: dict[int, Deal] = {}
    start: dict[int, Deal] = {}
    passed: dict[int, tuple[tuple[Card, ...] | None, tuple[Card, ...] | None]] = {}
    checked_results = 0
    replay_at = rng.randrange(50, 400)
    while game.phase is not Phase.GAME_OVER:
        index = game.deal_index
        if index not in dealt:
            hands = game.dealt
            dealt[index] = (hands[0], hands[1], hands[2], hands[3])
            assert all(len(h) == 12 for h in hands) and sum(hands, Hand()) == FULL_DECK
            if index >= len(config.deals):  # docs/rules.md §1 Deal: reproducible from the seed
                assert hands == deal(deal_seed(game.seed, index), game.dealer)
        if game.phase is Phase.PLAY and not game.tricks and not game.trick:
            start[index] = (game.hand(0), game.hand(1), game.hand(2), game.hand(3))
            passed[index] = (game.given, game.returned)
        if game.phase is Phase.PLAY:
            check_plays_against_reference(game)
        first_of_phase = game.phase is not Phase.AUCTION and (
            game.phase is not Phase.PLAY or (not game.tricks and not game.trick))
        fixed_auction = game.phase is Phase.AUCTION and index < len(config.deals)
        if ((first_of_phase and not game.results) or fixed_auction
                or (most > 0 and rng.random() < heavy)):
            most -= 1
            check_views(game)
            legal = check_actions(game, rng)
            action = choose(game, rng, legal)
            check_undo_and_copy(game, action, rng)
        else:
            action = choose(game, rng)
            game.apply(action)
        if len(game.actions) == replay_at:
            check_replay(game)
        while checked_results < len(game.results):
            result = game.results[checked_results]
            number = result.number - 1
            check_hand(game.rules, result, dealt[number], start.get(number),
                       *passed.get(number, (None, None)))
            checked_results += 1
    check_game_over(game)
    check_replay(game)
    return game


@pytest.mark.parametrize("config", CONFIGS, ids=[c.name for c in CONFIGS])
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          database=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_games(config: Config, seed: int) -> None:
    game = play_game(config, seed, heavy=0.03)
    assert game.results


def test_nines_redeal_at_most_three_deals() -> None:
    """docs/rules.md §2 nines redeal, 'at most three deals in a row': the third deal is played."""
    config = next(c for c in CONFIGS if c.name == "nines-six_or_five-max3")
    game = Game.new(config.rules, seed=5, dealer=0, deals=config.deals)
    for number in range(3):
        seat = (1, 3, 2)[number]
        while game.to_act != seat:
            game.apply(Pass())
        if number < 2:
            assert Redeal() in game.legal_actions()
            game.apply(Redeal(), seat=seat)
            assert game.results[-1].outcome is Outcome.REDEAL
            assert game.dealer == 0 and game.deal_index == number + 1
        else:
            assert Redeal() not in game.legal_actions()
            assert_rejected(game, Redeal(), snapshot(game))


@pytest.mark.parametrize("seed", range(3))
def test_every_position_of_one_hand(seed: int) -> None:
    """Every position of a first hand gets the full checks (cheap rules: cutthroat)."""
    rng = random.Random(seed)
    game = Game.new(Rules.preset("family1000").replace(cards_passed=3), seed=seed)
    while not game.results:
        check_views(game)
        legal = check_actions(game, rng)
        check_undo_and_copy(game, choose(game, rng, legal), rng)
    check_replay(game)


def test_moon_made_wins_the_game() -> None:
    """docs/rules.md §2 shoot the moon: every trick scores 1000 and wins the game, below
    the target too; partner's hand sits out and the tricks hold three cards."""
    rng = random.Random(7)
    spades = Hand.parse("AS AS TS TS KS KS QS QS JS JS 9S 9S")
    rest = (Hand((1 << 24) - 1, (1 << 24) - 1) - spades).cards()
    rng.shuffle(rest)
    hands = [Hand.from_cards(rest[0:12]), spades, Hand.from_cards(rest[12:24]),
             Hand.from_cards(rest[24:36])]
    deal: Deal = (hands[0], hands[1], hands[2], hands[3])
    rules = PAGAT.replace(shoot_the_moon=True)
    game = Game.new(rules, seed=1, dealer=0, deals=[deal])
    for action in (Bid(250), Pass(), Pass(), Pass(), NameTrump(Suit.SPADES)):
        game.apply(action)
    given = rng.sample(game.hand(3).cards(), 4)
    game.apply(Give(tuple(given)), seat=3)
    game.apply(Return(tuple(given)), seat=1)
    partner_hand = game.hand(3)
    game.apply(Moon(), seat=1)
    assert_rejected(game, ThrowIn(), snapshot(game), error=PhaseError)
    assert_rejected(game, Moon(), snapshot(game), error=PhaseError)
    while game.phase is Phase.PLAY:
        assert game.to_act != 3
        game.apply(rng.choice(game.legal_actions()))
    result = game.results[-1]
    assert result.outcome is Outcome.MOON and game.winner == 1
    assert result.scores[1] == 1000 and game.scores[1] < rules.target
    assert all(len(t.cards) == 3 and 3 not in t.seats for t in result.tricks)
    assert partner_hand == hands[3]  # the cards given came straight back
    check_hand(rules, result, deal, deal, game.given, game.returned)
    check_game_over(game)
    check_replay(game)


def test_both_over_the_target_the_declarers_win() -> None:
    """docs/rules.md §1 Game: "If both teams reach it in the same hand, the declaring
    team wins", here with the defenders far ahead: seat 1 melds double aces around
    (1000), the declarer 460 (double pinochle, queens around, marriages, two dix)."""
    declarer = Hand.parse("QS QS JD JD KH QH KC QC KD QD 9H 9H")
    aces = Hand.parse("AS AS AH AH AD AD AC AC 9S 9S 9D 9D")
    rest = (FULL_DECK - declarer - aces).cards()
    random.Random(3).shuffle(rest)
    deal: Deal = (declarer, aces, Hand.from_cards(rest[:12]), Hand.from_cards(rest[12:]))
    rules = PAGAT.replace(target=400, cards_passed=0)
    for seed in range(5):
        rng = random.Random(seed)
        game = Game.new(rules, seed=seed, dealer=3, deals=[deal])
        for action in (Bid(250), Pass(), Pass(), Pass(), NameTrump(Suit.HEARTS)):
            game.apply(action)
        assert game.melds is not None
        assert [m.points for m in game.melds[:2]] == [460, 1000]
        while game.phase is not Phase.GAME_OVER:
            game.apply(choose(game, rng))
        result = game.results[0]
        assert len(game.results) == 1 and result.outcome is Outcome.MADE
        assert min(game.scores) >= 400 and game.scores[1] > game.scores[0]
        assert game.winner == 0
        check_hand(rules, result, deal, deal, None, None)
        check_game_over(game)
