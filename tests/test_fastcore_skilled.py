"""The skilled card play (docs/players.md skilled): the C core against the Python
reference, move for move, and the rollout policy switch of the simulators.

Positions come from games of several rule sets driven to every card of a few
hands, half the cards random and half the skilled player's (through the C
core, itself checked here), so that memories with voids, shown meld and
passed cards occur. At each, :class:`SkilledPlayer` (Python) and
``fastcore.choose_card(level="skilled")`` must choose the same card among the
legal cards and among random subsets of them; whole simulated hands with
``policy="skilled"`` must give the same round scores in both backends.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from pinochlekit import (
    Action,
    Bid,
    Game,
    Give,
    Hand,
    Moon,
    Pass,
    Phase,
    Play,
    Return,
    Rules,
    ThrowIn,
)
from pinochlekit.engine.cards import card_mask
from pinochlekit.engine.views import View
from pinochlekit.players import SkilledPlayer, make_player
from pinochlekit.players.search import simulate
from pinochlekit.players.search.sampler import Sampler, knowledge, sample_deal

try:
    from pinochlekit.players.search import fastcore as fc
except ImportError:  # pragma: no cover - the extension is built by `pip install -e .`
    pytest.skip("the C core pinochlekit.native._core is not built", allow_module_level=True)

VARIANTS = ["pagat", "modern", "family1000", "playingcards", "stonebridge",
            "pagat(trump_follows_trump=yes)", "pagat(trick_points=classic)",
            "stonebridge(shoot_the_moon=yes)"]


def _choose(game: Game, rng: random.Random) -> Action:
    """A random legal action before the play (mostly the lowest bid or a pass)."""
    actions = game.legal_actions()
    if game.phase is Phase.AUCTION:
        bids = [a for a in actions if type(a) is Bid]
        passes = [a for a in actions if type(a) is Pass and not a.help]
        if bids and (not passes or rng.random() < 0.45):
            return bids[0]
        return passes[0] if passes else actions[0]
    if game.phase in (Phase.GIVE, Phase.RETURN):
        assert game.to_act is not None
        cards = tuple(rng.sample(game.hand(game.to_act).cards(), game.rules.cards_passed))
        return Give(cards) if game.phase is Phase.GIVE else Return(cards)
    return rng.choice(actions)


def _positions(rules: Rules, seed: int, hands: int = 2) -> list[Game]:
    """Copies of a game at every card play of ``hands`` hands."""
    rng = random.Random(seed)
    game = Game.new(rules, seed=seed, dealer=seed % 4)
    out: list[Game] = []
    played = 0
    while game.phase is not Phase.GAME_OVER and played < hands:
        n_results = len(game.results)
        if game.phase is Phase.PLAY:
            out.append(game.copy())
            plays = [a for a in game.legal_actions() if type(a) is Play]
            action: Action = rng.choice(plays) if rng.random() < 0.5 else \
                Play(fc.choose_card(rules, fc.Position.from_game(game), "skilled"))
        else:
            action = _choose(game, rng)
            if type(action) in (ThrowIn, Moon):
                action = next(a for a in game.legal_actions() if type(a) is Play)
        game.apply(action)
        played += len(game.results) > n_results
    return out


@pytest.mark.parametrize("name", VARIANTS)
def test_skilled_card_play_matches_python(name: str) -> None:
    """The same card at every position, among the legal cards and subsets of them."""
    rules = Rules.from_string(name)
    player = SkilledPlayer(seed=0, bid_sims=4)
    rng = random.Random(name)
    checked = differs = 0
    for seed in range(4):
        for game in _positions(rules, 300 + seed):
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            position = fc.Position.from_game(game)
            legal = card_mask(a.card for a in view.legal_actions if type(a) is Play)
            subsets = [legal] + [card_mask([k for k in range(24) if legal >> k & 1
                                            and rng.random() < 0.6]) or legal
                                 for _ in range(2)]
            for allowed in subsets:
                theirs, _ = player.play_card(view, allowed)
                ours = fc.choose_card(rules, position, "skilled", Hand(allowed).cards())
                assert int(ours) == theirs, (name, str(view.hand), view.trick, ours, theirs)
                checked += 1
            differs += fc.choose_card(rules, position) != fc.choose_card(rules, position,
                                                                         "skilled")
    assert checked > 150
    assert differs > 10  # a different policy, not standard under another name


@pytest.mark.parametrize("name", VARIANTS)
def test_skilled_backend_matches_python(name: str) -> None:
    """Round scores of bid rounds and of play-outs from real positions with
    ``policy="skilled"``: the C backend equals simulate.python_backend."""
    rules = Rules.from_string(name)
    rng = random.Random(name)
    changed = 0
    for i in range(6):
        deals = []
        for _ in range(6):
            deck = [k for k in range(24) for _ in range(2)]
            rng.shuffle(deck)
            deals.append(tuple(Hand.from_cards(deck[12 * s:12 * s + 12]) for s in range(4)))
        start = simulate.Start(rules=rules, declarer=i % 4, contract=rules.opening_bid,
                               trump=rng.randrange(4), knower=i % 4, policy="skilled")
        for team in (0, 1):
            ours = fc.backend(start, deals, team)
            assert ours == simulate.python_backend(start, deals, team)
            changed += ours != fc.backend(replace(start, policy="standard"), deals, team)
    for game in _positions(rules, 900, hands=1)[::4]:
        actor = game.to_act
        assert actor is not None
        view = game.view(actor)
        start = simulate.start_from_view(view, policy="skilled")
        deals = Sampler.from_view(view).samples(rng, 8)
        assert fc.backend(start, deals, actor % 2) == simulate.python_backend(
            start, deals, actor % 2)
    assert changed > 0


@pytest.mark.parametrize("name", ["three", "three(widow=take)"])
def test_skilled_three_handed_backend_matches_python(name: str) -> None:
    """Three-handed (docs/rules.md §3): bid rounds and play-outs with the skilled play."""
    rules = Rules.from_string(name)
    rng = random.Random(name)
    game = Game.new(rules, seed=5)
    player = make_player("skilled(bid_sims=8)", seed=1)
    views: list[View] = []
    while game.phase is not Phase.GAME_OVER and len(views) < 30:
        seat = game.to_act
        assert seat is not None
        if game.phase is Phase.PLAY:
            views.append(game.view(seat))
        game.apply(player.choose(game.view(seat)))
    for view in views[::3]:
        start = simulate.start_from_view(view, policy="skilled")
        deals = [sample_deal(knowledge(view), rng) for _ in range(6)]
        for team in range(3):
            assert fc.backend(start, deals, team) == simulate.python_backend(start, deals, team)
    assert views


def test_play_out_and_rollouts_take_the_policy() -> None:
    """play_out(policy="skilled") replays legally in the engine; rollouts and card
    values accept the policy and refuse an unknown one."""
    rules = Rules()
    for game in _positions(rules, 11, hands=1)[::6]:
        position = fc.Position.from_game(game)
        out = fc.play_out(rules, position, policy="skilled")
        replay = game.copy()
        for card in out.cards:
            replay.apply(Play(card))
        assert out.scores is not None and replay.results[-1].scores == out.scores
        assert isinstance(fc.rollout(rules, position, 3, policy="skilled"), tuple)
        assert fc.card_values(rules, position, 4, policy="skilled")
    with pytest.raises(ValueError, match="unknown card policy"):
        fc.rollout(rules, fc.Position.from_game(_positions(rules, 11, hands=1)[0]), 1,
                   policy="clever")  # type: ignore[arg-type]
