"""The easy, standard and pro players of docs/players.md (docs/rules.md §5).

Game-level tests drive whole games with views only and check legality,
determinism and that no decision depends on a card the seat cannot see. The
simulator is checked against the real :class:`~pinochlekit.Game`. Unit tests
pin each rule of docs/players.md on constructed positions (the section they
test is named in each test's docstring).
"""

from __future__ import annotations

import dataclasses
import random
import re
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from pinochlekit import (
    Action,
    Bid,
    Card,
    Game,
    Give,
    Hand,
    IllegalActionError,
    Moon,
    NameTrump,
    Outcome,
    Pass,
    Phase,
    Play,
    Redeal,
    Return,
    Rules,
    Suit,
    ThrowIn,
    View,
    legal_plays,
    parse_action,
    parse_cards,
)
from pinochlekit.engine.games import new_game
from pinochlekit.engine.meld import meld
from pinochlekit.engine.tricks import card_points
from pinochlekit.players import (
    PLAYERS,
    EasyPlayer,
    Player,
    PlayerSpecError,
    ProPlayer,
    RandomPlayer,
    StandardPlayer,
    make_player,
    split_specs,
)
from pinochlekit.players.base import GamePlayer, Level
from pinochlekit.players.double.expert import DoubleExpert
from pinochlekit.players.double.levels import DoubleStandard
from pinochlekit.players.easy import easy_trump
from pinochlekit.players.policy import (
    HIGH_ORDER,
    LOW_ORDER,
    Memory,
    highest,
    is_guaranteed,
    lowest,
    opponents_to_play,
    pass_cards,
    pro_give_key,
    pro_lead,
    return_cards,
    standard_follow,
    standard_give_key,
    standard_lead,
)
from pinochlekit.players.pro import filter_cards
from pinochlekit.players.search import backends
from pinochlekit.players.search import simulate as sim
from pinochlekit.players.standard import willing_bid
from pinochlekit.players.two.expert import TwoExpert
from pinochlekit.players.two.levels import TwoEasy, TwoPro, TwoStandard

S, H, D, C = 0, 1, 2, 3
SRC = Path(__file__).resolve().parents[1] / "src"
FAST = {"standard": "standard(bid_sims=8)", "pro": "pro(bid_sims=8, rollouts=2)",
        "easy": "easy"}
GAME_PRESETS = ["pagat", "modern", "cutthroat", "playingcards", "family1000"]


def k(text: str) -> int:
    """A card kind from text."""
    return int(Card(text))


def mask(text: str) -> int:
    out = 0
    for card in parse_cards(text):
        out |= 1 << card
    return out


def names(cards: Sequence[int]) -> str:
    return " ".join(str(Card(c)) for c in cards)


# -- whole games ---------------------------------------------------------------


def play(game: Game, players: Sequence[Player], max_hands: int = 60,
         until_hands: int | None = None) -> Iterator[tuple[int, View, Action]]:
    """Drive ``game`` with ``players``; yield (seat, view, action) for each step,
    checking every answer is legal."""
    while game.winner is None and len(game.results) < (until_hands or max_hands):
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        action = players[seat].choose(view)
        assert action in view.legal_actions, (type(players[seat]).__name__, action, view.phase)
        assert game.is_legal(action, seat)
        yield seat, view, action
        game.apply(action, seat)
    assert until_hands is not None or game.winner is not None, "no winner"


@pytest.mark.parametrize("rules", GAME_PRESETS)
def test_every_player_is_legal_over_a_full_game(rules: str) -> None:
    """Every answer is one of ``view.legal_actions`` and the game ends; easy,
    standard and pro never shoot the moon and never throw in (docs/players.md)."""
    specs = [FAST["standard"], FAST["pro"], FAST["easy"], FAST["pro"]]
    for seed in (1, 2):
        order = specs if seed == 1 else specs[1:] + specs[:1]
        players = [make_player(spec, f"{rules}/{seed}/{s}") for s, spec in enumerate(order)]
        game = Game.new(rules, seed=seed)
        for _, _, action in play(game, players):
            assert not isinstance(action, Moon | ThrowIn)
        assert game.winner in (0, 1)


def test_players_are_deterministic() -> None:
    """The same seeds and the same views give the same decisions (docs/players.md
    "Simulation details": the random numbers come from the player's generator)."""
    def record(seed_offset: int) -> list[Action]:
        players = [make_player(spec, seat + seed_offset) for seat, spec in
                   enumerate([FAST["standard"], FAST["pro"], FAST["easy"], FAST["standard"]])]
        game = Game.new("pagat", seed=21)
        return [action for _, _, action in play(game, players, until_hands=2)]

    first = record(0)
    assert record(0) == first
    assert record(100) != first  # the seeds matter (easy's random play, the sampler)


def test_a_player_rebuilt_from_its_seed_repeats_its_decisions() -> None:
    """A player rebuilt with the same seed and shown the same views decides alike."""
    game = Game.new("pagat", seed=8)
    players = [make_player(FAST["pro"], s) for s in range(4)]
    steps = list(play(game, players, until_hands=1))
    for seat in range(4):
        views = [v for s, v, _ in steps if s == seat]
        again = make_player(FAST["pro"], seat)
        assert [again.choose(v) for v in views] == [a for s, _, a in steps if s == seat]


# -- information: decisions depend only on the view ---------------------------------


def named_kinds(actions: Sequence[Action]) -> set[int]:
    """Every card kind an action of ``actions`` names."""
    out: set[int] = set()
    for action in actions:
        if isinstance(action, Play):
            out.add(int(action.card))
        elif isinstance(action, Give | Return):
            out.update(int(c) for c in action.cards)
    return out


def swapped_deal(dealt: Sequence[Hand], seat: int, avoid: set[int],
                 rng: random.Random) -> list[Hand] | None:
    """The deal with one card swapped between two seats other than ``seat``:
    a card ``seat`` cannot have seen (none of its kind is named by the history)."""
    others = [s for s in range(4) if s != seat]
    rng.shuffle(others)
    a, b = others[:2]
    xs = [c for c in set(dealt[a]) if c not in avoid and c not in dealt[b]]
    ys = [c for c in set(dealt[b]) if c not in avoid and c not in dealt[a]]
    if not xs or not ys:
        return None
    x, y = rng.choice(sorted(xs)), rng.choice(sorted(ys))
    hands = list(dealt)
    hands[a] = hands[a].remove(x).add(y)
    hands[b] = hands[b].remove(y).add(x)
    return hands


@pytest.mark.parametrize(("rules", "spec"), [("pagat", "pro"), ("pagat", "standard"),
                                              ("cutthroat", "pro"), ("pagat", "easy")])
def test_decisions_do_not_depend_on_hidden_cards(rules: str, spec: str) -> None:
    """docs/rules.md §5: no player may see a card its seat could not see. Two deals that
    differ only in cards seat 1 cannot see (swapped between two other seats, never
    named by the history so far) give seat 1 identical views, and a player with the
    same seed makes the same decision from each, at every step of seat 1."""
    rng = random.Random(rules + spec)
    seat = 1
    compared = 0
    for game_seed in (3, 4, 5):
        players = [make_player(FAST["standard"], s) for s in range(4)]
        players[seat] = make_player(FAST[spec], 77)
        game = Game.new(rules, seed=game_seed)
        dealt = game.dealt
        steps = list(play(game, players, until_hands=1))
        actions = [a for _, _, a in steps]
        real = Game.new(rules, seed=game_seed)
        for i, (actor, view, _) in enumerate(steps):
            if i:
                real.apply(actions[i - 1])
            if actor != seat:
                continue
            alt = swapped_deal(dealt, seat, named_kinds(actions[:i]) | named_kinds(
                [a for a in actions if isinstance(a, Give | Return)]), rng)
            if alt is None:
                continue
            other = Game.new(rules, seed=game_seed, deals=[alt])
            try:
                for action in actions[:i]:
                    other.apply(action)
            except IllegalActionError:  # the swap made another seat's play illegal
                continue
            if other.melds != real.melds:
                continue  # a swap that changes meld is visible to everyone
            other_view = other.view(seat)
            assert other.hand(seat) == view.hand
            assert other_view == view, f"step {i}: the views differ"
            assert (make_player(FAST[spec], 77).choose(other_view)
                    == make_player(FAST[spec], 77).choose(view)), f"step {i}"
            compared += 1
    assert compared >= 12, compared


# -- the simulator against the real game -------------------------------------------


def declare(rules: str, seed: int, declarer: int, trump: int, contract: int) -> Game:
    """A game whose first hand has ``declarer`` at ``contract`` (or the stuck dealer)."""
    game = Game.new(rules, seed=seed, dealer=3)
    for seat in range(4):
        if game.phase is not Phase.AUCTION:
            break
        game.apply(Bid(contract) if seat == declarer else Pass())
    return game


@pytest.mark.parametrize("rules", ["pagat", "modern", "cutthroat", "playingcards",
                                   "family1000", "stonebridge", "chips",
                                   "pagat(must_beat=following, trump_follows_trump=yes)"])
def test_simulator_plays_exactly_like_standard_players_in_a_real_game(rules: str) -> None:
    """simulate.py's round score equals the real game's when every seat is a
    StandardPlayer acting on its view: passing, meld, not on the board, play and
    scoring follow the real rules, and the simulated memories equal the ones the
    players read from their views (docs/players.md "Simulation details")."""
    for seed in range(6):
        rng = random.Random(seed)
        declarer, trump = rng.randrange(4), rng.randrange(4)
        base = Rules.from_string(rules)
        game = declare(rules, seed, declarer, trump,
                       base.opening_bid + rng.randrange(0, 25) * base.step)
        contract = game.contract
        assert game.declarer is not None
        declarer = game.declarer
        hands = game.dealt
        start = sim.start_for_bid(game.view(declarer), trump, contract)
        team = rng.randrange(2)
        predicted = sim.simulate_hand(start, hands, team)
        game.apply(NameTrump(Suit(trump)))
        players = [StandardPlayer(s, bid_sims=4) for s in range(4)]
        middles = []
        for _, _, _ in play(game, players, until_hands=1):
            if game.phase is Phase.PLAY and rng.random() < 0.3:
                knower = rng.choice([declarer, (declarer + 2) % 4])
                now = [game.hand(s) for s in range(4)]
                middles.append(sim.simulate_hand(sim.start_from_view(game.view(knower)), now,
                                                 team))
        result = game.results[0]
        actual = result.scores[team] - result.scores[1 - team]
        assert predicted == actual, (seed, result.outcome)
        assert all(m == actual for m in middles), (seed, middles, actual)


def test_simulator_follows_a_moon_shot_by_another_player() -> None:
    """After a moon (docs/rules.md §2, family1000) partner sits out; the simulator plays
    three-card tricks and scores the moon like the game."""
    moons = 0
    for seed in range(8):
        game = declare("family1000", seed, 0, seed % 4, 250)
        game.apply(NameTrump(Suit(seed % 4)))
        players = [StandardPlayer(s, bid_sims=4) for s in range(4)]
        while game.phase is not Phase.PLAY:
            seat = game.to_act
            assert seat is not None
            game.apply(players[seat].choose(game.view(seat)), seat)
        if game.results:
            continue
        moons += 1
        game.apply(Moon())
        start = sim.start_from_view(game.view(0))
        predicted = sim.simulate_hand(start, [game.hand(s) for s in range(4)], 0)
        for _ in play(game, players, until_hands=1):
            pass
        result = game.results[0]
        assert predicted == result.scores[0] - result.scores[1]
    assert moons >= 4


@pytest.mark.parametrize("rules", ["pagat", "chips", "family1000", "playingcards",
                                   "pagat(set_forfeits_meld=no)"])
def test_hand_scores_match_the_game_for_every_outcome(rules: str) -> None:
    """simulate.hand_scores is docs/rules.md §1 Scoring a hand (and §2 set variants) as
    the game scores it: made, set, not on the board, thrown in, moon made or failed."""
    outcomes = set()
    for seed in range(40):
        game = Game.new(rules, seed=seed)
        players = [RandomPlayer(f"{seed}/{s}") for s in range(4)]
        for _ in play(game, players, until_hands=3):
            pass
        for result in game.results:
            if result.declarer is None:
                continue
            outcomes.add(result.outcome)
            points = [m.points for m in result.melds]
            dix = [m.dix_only for m in result.melds]
            team_dix = [all(dix[s] or not points[s] for s in (t, t + 2))
                        and any(points[s] for s in (t, t + 2)) for t in (0, 1)]
            played = result.outcome not in (Outcome.NOT_ON_BOARD, Outcome.THROWN_IN)
            moon = result.outcome in (Outcome.MOON, Outcome.MOON_FAILED)
            assert sim.hand_scores(game.rules, result.declarer, result.contract,
                                   result.meld_points, team_dix, result.trick_points, played,
                                   moon, result.outcome is Outcome.MOON) == result.scores
    assert {Outcome.MADE, Outcome.SET, Outcome.THROWN_IN} <= outcomes


def test_backend_hook_is_used_and_restored() -> None:
    calls = []

    def backend(start: sim.Start, deals: Sequence[Sequence[Hand]], team: int) -> list[int]:
        calls.append(len(deals))
        return [0] * len(deals)

    previous = backends.set_backend(backend)
    try:
        game = Game.new("pagat", seed=1)
        StandardPlayer(0, bid_sims=40).choose(game.view(game.to_act or 0))
    finally:
        backends.set_backend(previous)
    assert calls == [10, 10, 10, 10]  # N / 4 per suit, one batch per suit
    assert backends.get_backend() is previous


# -- make_player ----------------------------------------------------------------


def test_make_player_parses_names_and_options() -> None:
    assert set(PLAYERS) == {"random", "simple", "easy", "standard", "skilled", "pro", "expert"}
    pro = make_player(" pro(rollouts=100, bid_sims=1000) ", seed=5)
    assert isinstance(pro, ProPlayer) and (pro.rollouts, pro.bid_sims) == (100, 1000)
    assert pro.seed == 5
    standard = make_player("standard", 1)
    assert isinstance(standard, StandardPlayer) and standard.bid_sims == 1000
    assert type(standard) is StandardPlayer
    assert make_player("pro", 1).bid_sims == 4000  # type: ignore[attr-defined]
    assert isinstance(make_player("easy()", 1), EasyPlayer)
    assert split_specs("easy,pro(rollouts=3, bid_sims=8), standard") == [
        "easy", "pro(rollouts=3, bid_sims=8)", "standard"]


@pytest.mark.parametrize(("spec", "two", "double"), [
    ("easy", TwoEasy, None),
    ("standard(bid_sims=8)", TwoStandard, DoubleStandard),
    ("skilled(bid_sims=8)", TwoStandard, DoubleExpert),
    ("pro(bid_sims=8, rollouts=20)", TwoPro, DoubleStandard),
    ("expert(time=0.02)", TwoExpert, DoubleExpert),
])
def test_a_level_made_before_the_game_hands_each_view_to_that_games_player(
        spec: str, two: type[GamePlayer], double: type[GamePlayer] | None) -> None:
    """A level is made without a game (as the command line, matches and tables make it);
    the view's rules name the game and ``Level.for_game`` picks its player, view by view."""
    player = make_player(spec, 1)
    assert isinstance(player, Level)
    for rules, expected in (("two", two), ("doubledeck", double), ("pagat", None),
                            ("three", None)):
        game = new_game(rules, seed=1)
        view = game.view(game.to_act)
        handler = player.for_game(view)
        assert (None if handler is None else type(handler)) is expected, rules
        assert player.choose(view) in view.legal_actions


@pytest.mark.parametrize(("spec", "message"), [
    ("grandmaster", "unknown player 'grandmaster'"),
    ("pro(depth=3)", "pro: no option 'depth' (options: bid_sims, rollouts)"),
    ("standard(rollouts=3)", "standard: no option 'rollouts' (options: bid_sims)"),
    ("easy(x=1)", "easy: no option 'x' (options: none)"),
    ("pro(rollouts)", "pro: bad option 'rollouts'"),
    ("pro(rollouts=0)", "pro: rollouts: must be a whole number of at least 1"),
    ("standard(bid_sims=lots)", "standard: bid_sims: must be a whole number"),
    ("pro[3]", "bad player 'pro[3]'"),
])
def test_make_player_errors_name_the_problem(spec: str, message: str) -> None:
    with pytest.raises(PlayerSpecError, match=re.escape(message)):
        make_player(spec, 0)
    with pytest.raises(ValueError):
        make_player(spec, 0)


def test_cmd_specs_import_the_external_player_lazily() -> None:
    code = ("import sys, pinochlekit.players as p; "
            "print('pinochlekit.players.external' in sys.modules); "
            "x = p.make_player('cmd:python -c pass', 3); "
            "print(type(x).__name__, 'pinochlekit.players.external' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={"PYTHONPATH": str(SRC)}).stdout.split()
    assert out == ["False", "ExternalPlayer", "True"]


# -- positions for unit tests -----------------------------------------------------

# Seat 0 holds a heart run and two dix; partner (seat 2) the other heart run.
DEAL = ("AH TH KH QH JH 9H 9H AS TS KS QS JS",
        "AS TS KS QS JS 9S AD TD KD QD JD 9D",
        "AH TH KH QH JH AC TC KC QC JC 9C 9S",
        "AD TD KD QD JD 9D AC TC KC QC JC 9C")


def fixed_game(rules: str = "pagat", *actions: str) -> Game:
    game = Game.new(rules, seed=0, dealer=3, deals=[[Hand.parse(h) for h in DEAL]])
    for text in actions:
        game.apply(parse_action(text))
    return game


def play_view(seat: int, hand: str, trick: list[tuple[int, str]], trump: int,
              rules: str = "cutthroat") -> View:
    """A play-phase view of ``seat`` holding ``hand`` with ``trick`` on the table (the
    first trick; its leader, or ``seat`` leading, is the declarer), no meld shown and
    hand sizes the sampler can fill."""
    game = fixed_game(rules, "bid 250", "pass", "pass", "pass", "trump H")
    while game.phase in (Phase.GIVE, Phase.RETURN):
        game.apply(game.legal_actions()[0])
    base = game.view(0)
    cards = [(s, Card(c)) for s, c in trick]
    held = Hand.parse(hand)
    legal = tuple(Play(c) for c in legal_plays(held, [c for _, c in cards], trump,
                                                base.rules, first_trick=False))
    leader = trick[0][0] if trick else seat
    sizes = [0] * 4
    sizes[seat] = len(held)
    others = [s for s in range(4) if s != seat]
    rest = 48 - len(held) - len(cards)
    for i, other in enumerate(others):
        sizes[other] = rest // 3 + (1 if i < rest % 3 else 0)
    no_meld = tuple(meld(Hand(), trump, base.rules) for _ in range(4))
    return dataclasses.replace(base, seat=seat, to_act=seat, phase=Phase.PLAY, hand=held,
                               trick=tuple(cards), trump=Suit(trump), legal_actions=legal,
                               declarer=leader, melds=no_meld, hand_sizes=tuple(sizes),
                               given=None, returned=None, tricks=())


def decide(player: Player, view: View) -> str:
    action = player.choose(view)
    assert action in view.legal_actions
    return str(action)


# -- orders ---------------------------------------------------------------------


def test_highest_and_lowest_card_orders() -> None:
    """docs/players.md "Orders": highest by (is trump, rank, -suit), lowest by
    (rank, is trump, suit)."""
    assert names(HIGH_ORDER[D][:7]) == "AD TD KD QD JD 9D AS"
    assert names(HIGH_ORDER[D][6:10]) == "AS AH AC TS"
    assert names(LOW_ORDER[D][:5]) == "9S 9H 9C 9D JS"
    assert Card(highest(mask("AS KD 9D"), D)) == Card("KD")
    assert Card(lowest(mask("9D JS AS"), D)) == Card("9D")
    assert Card(lowest(mask("9D 9C JS"), D)) == Card("9C")  # a non-trump before a trump
    assert highest(0, S) == lowest(0, S) == -1


# -- guaranteed to take the trick ------------------------------------------------------


def memory(seat: int = 0, played: str = "", known: dict[int, str] | None = None,
           voids: dict[int, int] | None = None) -> Memory:
    m = Memory(seat)
    for card in parse_cards(played):
        m.observe((seat + 1) % 4, card, card // 6, -1)  # a lead: no void inferred
    for other, text in (known or {}).items():
        h = Hand.parse(text)
        m.known_once[other], m.known_twice[other] = h.once, h.twice
    for other, suits in (voids or {}).items():
        m.voids[other] = suits
    return m


def lead_inputs(m: Memory, hand: str, seat: int = 0, in_trick: int = 0,
                sitting_out: int = -1) -> tuple[list[int], list[int], list[int]]:
    h = Hand.parse(hand)
    opponents = opponents_to_play(seat, in_trick, 3 if sitting_out >= 0 else 4, sitting_out)
    unlocated = m.unlocated(h.once, h.twice)
    possible = [m.possible(o, unlocated) if o in opponents else 0 for o in range(4)]
    return opponents, possible, m.known_once


def test_opponents_still_to_play() -> None:
    assert opponents_to_play(0, 0, 4) == [1, 3]
    assert opponents_to_play(1, 1, 4) == [2]
    assert opponents_to_play(3, 3, 4) == []
    assert opponents_to_play(3, 0, 3, sitting_out=2) == [0]  # moon: partner 2 sits out
    assert opponents_to_play(0, 0, 3, sitting_out=2) == [1, 3]


def test_a_trump_is_guaranteed_when_every_higher_trump_is_accounted_for() -> None:
    """docs/players.md "Guaranteed to take the trick": TS is guaranteed once one AS
    is played and partner showed the other in meld; with the other AS unseen it is
    not, and standard then leads its highest non-trump."""
    hand = "TS KS AH 9C"
    known = memory(played="AS", known={2: "AS KS QS JS"})
    opponents, possible, known_once = lead_inputs(known, hand)
    assert is_guaranteed(k("TS"), [], S, opponents, possible, known_once)
    assert not is_guaranteed(k("KS"), [], S, opponents, possible, known_once)  # TS unseen
    assert Card(standard_lead(mask(hand), S, opponents, possible, known_once)) == Card("TS")
    unseen = memory(played="AS")
    opponents, possible, known_once = lead_inputs(unseen, hand)
    assert not is_guaranteed(k("TS"), [], S, opponents, possible, known_once)
    assert Card(standard_lead(mask(hand), S, opponents, possible, known_once)) == Card("AH")


def test_a_plain_card_is_guaranteed_when_no_opponent_can_beat_or_trump_it() -> None:
    """docs/players.md: an opponent can trump only if no card of the suit led is
    known in its hand; a shown void in trump also rules trumps out."""
    hand = "AH 9S 9C"  # spades trump
    # Seat 1 showed KH QH (it must follow hearts); seat 3 failed to trump (no trump).
    m = memory(known={1: "KH QH"}, voids={3: 1 << D | 1 << S})
    opponents, possible, known_once = lead_inputs(m, hand)
    assert is_guaranteed(k("AH"), [], S, opponents, possible, known_once)
    m = memory(known={1: "KH QH"})  # seat 3 may be void in hearts and trump
    opponents, possible, known_once = lead_inputs(m, hand)
    assert not is_guaranteed(k("AH"), [], S, opponents, possible, known_once)
    # Pro leads the guaranteed non-trump; standard leads only guaranteed trumps.
    m = memory(known={1: "KH QH"}, voids={3: 1 << D | 1 << S})
    opponents, possible, known_once = lead_inputs(m, "AH TS 9C")
    assert Card(pro_lead(mask("AH TS 9C"), S, opponents, possible, known_once)) == Card("AH")
    assert Card(pro_lead(mask("TS 9C"), S, opponents, possible, known_once)) == Card("9C")


def test_a_card_following_is_guaranteed_only_against_players_still_to_come() -> None:
    """Seat 3, last to play, takes the trick with anything that beats the winner;
    seat 1 (second) must fear seat 2's possible cards."""
    m = memory(seat=3)
    opponents, possible, known_once = lead_inputs(m, "KH", seat=3, in_trick=3)
    assert is_guaranteed(k("KH"), [k("9H"), k("JH"), k("QH")], S, opponents, possible,
                         known_once)
    assert not is_guaranteed(k("JH"), [k("9H"), k("QH")], S, opponents, possible, known_once)
    m = memory(seat=1)
    opponents, possible, known_once = lead_inputs(m, "KH", seat=1, in_trick=1)
    assert opponents == [2]
    assert not is_guaranteed(k("KH"), [k("9H")], S, opponents, possible, known_once)


def test_memory_from_a_view_replays_voids_and_meld() -> None:
    """docs/players.md "What a player knows": voids shown in play, meld on the
    table less the cards since played, read from the view by the simulator's replay."""
    game = fixed_game("cutthroat", "bid 250", "pass", "pass", "pass", "trump C")
    players = [StandardPlayer(s, bid_sims=4) for s in range(4)]
    for _ in range(8):
        seat = game.to_act
        assert seat is not None
        game.apply(players[seat].choose(game.view(seat)), seat)
    view = game.view(0)
    m = sim.memory_from_view(view)
    assert game.melds is not None
    voids = [0] * 4
    played: list[list[Card]] = [[] for _ in range(4)]
    for trick in view.tricks:
        led = trick.cards[0].suit
        for seat, card in zip(trick.seats, trick.cards, strict=True):
            played[seat].append(card)
            if card.suit != led:
                voids[seat] |= 1 << led | (1 << C if card.suit != C else 0)
    assert m.voids == voids
    for seat in (1, 2, 3):
        shown = game.melds[seat].shown
        expected = Hand.from_cards(c for c in range(24) for _ in range(
            max(0, shown.count(c) - played[seat].count(Card(c)))))
        assert Hand(m.known_once[seat], m.known_twice[seat]) == expected


# -- leading and following ------------------------------------------------------------


@pytest.mark.parametrize(("seat", "hand", "trick", "expected", "rule"), [
    (2, "KH JH 9S", [(0, "AH"), (1, "9H")], "KH", "partner winning: the lowest counter"),
    (2, "QH JH 9S", [(0, "AH"), (1, "9H")], "JH", "partner winning, no counter: lowest"),
    (2, "KH JH 9S", [(0, "9H"), (1, "AH")], "JH", "opponent winning: the lowest card"),
    (2, "AH TH 9H KS", [(1, "KH")], "AH", "can win, more to play: the highest winner"),
    (2, "AH TH 9H KS", [(3, "9H"), (0, "QH"), (1, "KH")], "TH",
     "last to play: the lowest card that wins"),
    (2, "TS AS 9C", [(3, "KH"), (0, "QH"), (1, "AH")], "TS",
     "void, last: the lowest winning trump"),
    (2, "9C TD AD", [(3, "KH"), (0, "QH"), (1, "AH")], "9C",
     "void of hearts and trump: the lowest card"),
])
def test_standard_following(seat: int, hand: str, trick: list[tuple[int, str]],
                            expected: str, rule: str) -> None:
    """docs/players.md standard **Following** (spades trump)."""
    view = play_view(seat, hand, trick, S)
    assert decide(StandardPlayer(1, bid_sims=4), view) == f"play {expected}", rule
    explanation = StandardPlayer(1, bid_sims=4).explain(view)
    assert explanation is not None and explanation.startswith(f"play {expected}: follow")


def test_lowest_counter_follows_the_rules_trick_points() -> None:
    """docs/players.md "Counter": a queen counts with 'fives', not with 'counters'."""
    legal = mask("QH JH")
    trick = [k("AH"), k("9H")]
    counters = sum(1 << c for c, p in enumerate(card_points(Rules())) if p)
    fives = sum(1 << c for c, p in enumerate(card_points(Rules(trick_points="fives"))) if p)
    assert Card(standard_follow(legal, trick, S, True, False, counters)) == Card("JH")
    assert Card(standard_follow(legal, trick, S, True, False, fives)) == Card("QH")


def test_standard_leads_a_guaranteed_trump_else_the_highest_non_trump() -> None:
    """docs/players.md standard **Leading**, through a real view: seat 0 (hearts
    run; partner showed the other run) leads AH; with no trump guaranteed, the
    highest non-trump; with only trumps, the highest trump."""
    game = fixed_game("cutthroat", "bid 250", "pass", "pass", "pass", "trump H")
    view = game.view(0)
    player = StandardPlayer(1, bid_sims=4)
    assert decide(player, view) == "play AH"  # the other AH is in partner's meld

    def holding(text: str) -> View:
        return dataclasses.replace(view, hand=Hand.parse(text), legal_actions=tuple(
            Play(c) for c in parse_cards(text)))

    # Without its own AH, the second AH (not in partner's meld) is unseen: TH is not
    # guaranteed, so the highest non-trump; with only trumps, the highest trump.
    assert decide(player, holding("TH KS 9S JD")) == "play KS"
    assert decide(player, holding("TH 9H")) == "play TH"


# -- passing ------------------------------------------------------------------------


def ranking(hand: str, trump: int, key: object, rules: Rules | None = None) -> str:
    cards = Hand.parse(hand)
    return names(pass_cards(cards, trump, rules or Rules(), len(cards), key))  # type: ignore[arg-type]


def test_standard_passing_to_the_declarer_order() -> None:
    """docs/players.md standard **Passing to the declarer**: no meld, so trumps from
    the highest, then non-trumps from the highest (highest-card order)."""
    hand = "TH AS QS JC JS 9S 9D KD TD QC 9C AD"  # no meld with hearts trump
    assert ranking(hand, H, standard_give_key) == "TH AS AD TD KD QS QC JS JC 9S 9D 9C"


def test_pro_passing_to_the_declarer_order() -> None:
    """docs/players.md pro **Passing to the declarer**: trumps but nines, aces,
    (nines of trump), Q♠ and J♦, jacks, nines, the rest."""
    hand = "TH AS QS JC JS 9S 9D KD TD QC 9C AD"
    assert ranking(hand, H, pro_give_key) == "TH AS AD QS JS JC 9S 9D 9C TD KD QC"
    assert ranking("JD 9C KC TS", S, pro_give_key) == "TS JD 9C KC"


def test_partner_keeps_meld_cards_and_passes_the_cheapest_one_last() -> None:
    """docs/players.md: meld cards go only when the non-meld cards run out, least
    meld cost first; a second copy of a kind is free until the first is passed."""
    hand = Hand.parse("AH AH TH KH QH JH 9H AS KS QS JD 9C")  # run, dix, pinochle, marriage
    give = pass_cards(hand, H, Rules(), 4, standard_give_key)
    assert names(give) == "AH AS 9C 9H"  # the second AH, AS, 9C, then the dix (cost 10)
    game = fixed_game("pagat", "bid 250", "pass", "pass", "pass", "trump H")
    view = dataclasses.replace(game.view(2), hand=hand)
    action = StandardPlayer(1, bid_sims=4).choose(view)
    assert action == Give(tuple(Card(c) for c in give))


RETURN_HAND = "AS TS KS QS JS 9S AH AH TH KH TC JC KD QD JD 9D"  # spades trump


def test_declarer_passing_back_voids_a_suit_first() -> None:
    """docs/players.md standard **Passing back**, step 1: the clubs (no ace, no
    meld) make the hand void; then a non-trump king (2), then the lowest (5)."""
    back = return_cards(Hand.parse(RETURN_HAND), S, Rules(), 4, Hand())
    assert names(back) == "JC TC KH 9D"


def test_declarer_voids_the_shortest_suit_that_fits() -> None:
    """Step 1: the shortest suit first; a suit that does not fit is not voided."""
    hand = Hand.parse("AS TS KS QS JS 9S KH JH 9H QC 9C AD AD TD TD 9D")
    assert names(return_cards(hand, S, Rules(), 4, Hand())) == "9C QC KH 9H"
    hand = Hand.parse("AS TS KS QS JS 9S KH JH 9H AC TC AD AD TD TD 9D")  # clubs: an ace
    assert names(return_cards(hand, S, Rules(), 3, Hand())) == "9H JH KH"
    assert names(return_cards(hand, S, Rules(), 2, Hand())) == "KH 9H"  # hearts do not fit


def test_pro_passing_back_has_no_voiding_step() -> None:
    """docs/players.md pro **Passing back**: steps 2 to 7 only."""
    back = return_cards(Hand.parse(RETURN_HAND), S, Rules(), 4, Hand(), voiding=False)
    assert names(back) == "KH 9D JC TH"


@pytest.mark.parametrize(("received", "expected"), [
    ("JD 9S AD TD", "KS QH JD 9S"),  # the declarer's own J♦ goes at step 4
    ("JD JD 9S TD", "KS QH 9S 9H"),  # both J♦ just received: step 4 skips them
])
def test_declarer_passing_back_kings_queens_and_the_jack_of_diamonds(received: str,
                                                                     expected: str) -> None:
    """Steps 2-5: non-trump kings, non-trump queens, the J♦ unless just received
    from partner, the lowest non-trumps (clubs trump; every plain suit holds an ace)."""
    hand = Hand.parse("AC TC KC QC JC 9C KS QH JD JD 9S 9H AD TD AH AS")
    back = return_cards(hand, C, Rules(), 4, Hand.parse(received))
    assert names(back) == expected


def test_declarer_passes_trumps_then_meld_cards_last() -> None:
    """Steps 5-7: the lowest non-trumps, the lowest trumps, then meld cards by
    least meld cost (here the dix, 10)."""
    hand = Hand.parse("AC AC TC TC KC QC JC 9C KH QH KD QD KS QS AS TH")
    assert names(return_cards(hand, C, Rules(), 5, Hand())) == "TH AS TC AC 9C"


def test_players_pass_back_through_their_views() -> None:
    game = fixed_game("pagat", "bid 250", "pass", "pass", "pass", "trump C")
    game.apply(Give(tuple(parse_cards("AC TC KC 9S"))))
    view = dataclasses.replace(game.view(0), hand=Hand.parse(
        "AC TC KC QC JC 9C KS QH JD JD 9S 9H AD TD AH AS"),
        given=tuple(parse_cards("JD 9S AD TD")))
    assert StandardPlayer(0, bid_sims=4).choose(view) == Return(tuple(parse_cards(
        "KS QH JD 9S")))
    assert ProPlayer(0, bid_sims=4).choose(view) == Return(tuple(parse_cards("KS QH JD 9S")))


# -- bidding and trump -----------------------------------------------------------------


def test_willing_bid_levels() -> None:
    """docs/players.md standard **Bid**: reached in *more than* 83% (75% for pro)."""
    scores = [400] * 83 + [300] * 1 + [0] * 16
    assert willing_bid(scores, 83, 10) == 300
    assert willing_bid(scores, 75, 10) == 400
    assert willing_bid([255] * 84 + [0] * 16, 83, 10) == 250
    assert willing_bid([-5] * 10, 83, 10) == -10


def fake_bidding(start: sim.Start, deals: Sequence[Sequence[Hand]], team: int) -> list[int]:
    """Spades: 400 in 83 of 100 rounds; hearts: 300 in 84; the others -100."""
    assert len(deals) == 100 and start.phase == "pass"
    if start.trump == S:
        return [400] * 83 + [0] * 17
    if start.trump == H:
        return [300] * 84 + [0] * 16
    return [-100] * 100


def test_standard_and_pro_bid_and_name_trump_from_the_simulation() -> None:
    """docs/players.md standard **Bid**/**Trump** at 83%, pro at 75%: standard's
    maximum is 300 (hearts), pro's 400 (spades)."""
    previous = backends.set_backend(fake_bidding)
    try:
        standard, pro = StandardPlayer(1, bid_sims=400), ProPlayer(1, bid_sims=400)
        game = fixed_game("pagat")
        assert decide(standard, game.view(0)) == "bid 250"
        assert decide(pro, game.view(0)) == "bid 250"
        game = fixed_game("pagat", "bid 250", "bid 300", "bid 310", "pass")
        view = game.view(0)
        assert decide(standard, view) == "pass"  # 320 > 300 (kept from the first call)
        assert decide(pro, view) == "bid 320"
        fresh = StandardPlayer(2, bid_sims=400)  # first call now: same answer
        assert decide(fresh, view) == "pass"
        game = fixed_game("pagat", "bid 250", "pass", "pass", "pass")
        assert decide(standard, game.view(0)) == "trump H"
        assert decide(pro, game.view(0)) == "trump S"
    finally:
        backends.set_backend(previous)


def test_redeal_whenever_allowed_and_must_open() -> None:
    view = fixed_game().view(0)
    redeal = dataclasses.replace(view, legal_actions=(Pass(), Bid(250), Redeal()))
    for player in (EasyPlayer(0), StandardPlayer(0, bid_sims=4), ProPlayer(0, bid_sims=4)):
        assert player.choose(redeal) == Redeal()
    forced = dataclasses.replace(view, legal_actions=(Bid(250), Bid(260)),
                                 hand=Hand.parse("9S JH QD 9C KS 9D JC QH TS 9H JS QC"))
    for player in (EasyPlayer(0), StandardPlayer(0, bid_sims=4)):
        assert player.choose(forced) == Bid(250)


def test_easy_bids_up_to_a_random_maximum() -> None:
    """docs/players.md easy **Bid**: a maximum drawn uniformly from the multiples of
    the step in [opening - 5 steps, opening + 15 steps], kept for the hand; the
    lowest legal bid while it is at most the maximum, else pass."""
    view = fixed_game("pagat").view(0)
    counts = set()
    for seed in range(400):
        player = EasyPlayer(seed)
        bids = 0
        for amount in range(250, 500, 10):
            asked = dataclasses.replace(view, legal_actions=(Pass(), Bid(amount),
                                                             Bid(amount + 10)))
            if player.choose(asked) != Bid(amount):
                break
            bids += 1
        counts.add(bids)
    # The maximum is 200 + 10 j, j = 0..20: bids 250..maximum, so 0 to 16 of them.
    assert counts == set(range(17))


def test_easy_trump_and_passing() -> None:
    """docs/players.md easy **Trump**: the highest sum of card values, ties to the
    earlier suit; **Passing**: a random set."""
    hand = Hand.parse("AS 9S KH QH TD")  # S: 6+1 = 7, H: 4+3 = 7, D: 5
    assert easy_trump(hand, [S, H, D, C]) == S
    assert easy_trump(hand, [H, D]) == H
    game = fixed_game("pagat", "bid 250", "pass", "pass", "pass", "trump H")
    gives = {EasyPlayer(seed).choose(game.view(2)) for seed in range(20)}
    assert len(gives) > 10 and all(isinstance(g, Give) for g in gives)


# -- pro's filter --------------------------------------------------------------------


def test_filter_margin_is_five_points_or_half_a_point() -> None:
    """docs/rules.md §5: "more than half a point lower" is 5 (0.5 with divide by ten)."""
    totals = {0: 100 * 10, 1: 95 * 10, 2: 94 * 10}
    assert filter_cards(totals, 10, 1) == 0b011
    assert filter_cards({0: 100, 1: 95, 2: 94}, 10, 10) == 0b011  # 10, 9.5, 9.4


def fake_rollouts(values: dict[str, list[int]]) -> sim.Backend:
    def backend(start: sim.Start, deals: Sequence[Sequence[Hand]], team: int) -> list[int]:
        _, card = start.plays[-1]
        scores = values[str(Card(card))]
        return [scores[i % len(scores)] for i in range(len(deals))]
    return backend


@pytest.mark.parametrize(("rules", "values", "expected"), [
    # Cannot win, opponent winning: standard plays the lowest card, 9H; it loses 6 a hand.
    ("cutthroat", {"QH": [100], "JH": [95], "9H": [94]}, "JH"),
    ("cutthroat", {"QH": [100], "JH": [94], "9H": [95]}, "9H"),
    ("cutthroat", {"QH": [100], "JH": [90], "9H": [90]}, "QH"),
    # Divide by ten: 10, 9.5 and 9.4 on average.
    ("playingcards", {"QH": [10], "JH": [9, 10], "9H": [9, 9, 9, 10, 10]}, "JH"),
])
def test_pro_drops_cards_that_lose_more_than_the_margin(
        rules: str, values: dict[str, list[int]], expected: str) -> None:
    """docs/players.md pro **Trick-taking**: simulate each legal card, drop those whose
    average is more than 5 points (0.5) below the best, then follow as standard."""
    view = play_view(2, "QH JH 9H", [(0, "KH"), (1, "AH")], S, rules)
    previous = backends.set_backend(fake_rollouts(values))
    try:
        assert decide(ProPlayer(3, bid_sims=4, rollouts=10), view) == f"play {expected}"
    finally:
        backends.set_backend(previous)
    assert decide(StandardPlayer(3, bid_sims=4), view) == "play 9H"


def test_pro_leads_the_lowest_card_when_nothing_is_guaranteed() -> None:
    """docs/players.md pro leading: guaranteed trump, guaranteed non-trump, else the
    lowest card (standard would lead its highest non-trump)."""
    view = play_view(0, "KS QS TD 9C", [], S)
    previous = backends.set_backend(fake_rollouts({"KS": [0], "QS": [0], "TD": [0], "9C": [0]}))
    try:
        assert decide(ProPlayer(3, bid_sims=4, rollouts=4), view) == "play 9C"
    finally:
        backends.set_backend(previous)
    assert decide(StandardPlayer(3, bid_sims=4), view) == "play TD"


def test_explain_leaves_the_player_unchanged() -> None:
    game = Game.new("pagat", seed=4)
    view = game.view(game.to_act or 0)
    a, b = StandardPlayer(9, bid_sims=8), StandardPlayer(9, bid_sims=8)
    text = a.explain(view)
    assert text is not None and text.split(":")[0] == str(b.choose(view))
    assert a.choose(view) == b.choose(view)
    assert a.rng.random() == b.rng.random()
