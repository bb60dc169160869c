"""The computer levels that play the double deck (docs/double-deck.md): ``random`` and
``easy``. ``easy`` is docs/rules.md §5's easy player unchanged (a random maximum bid
of the opening bid -5 to +15 steps, trump by card values, random passing, a random
legal card), reading the double deck's opening bid (50) and step (1) from the rules.
"""

from __future__ import annotations

from pinochlekit import Bid, Pass, Phase
from pinochlekit.engine.double.game import DoubleDeckGame
from pinochlekit.players import make_player
from pinochlekit.players.easy import EasyPlayer


def play_game(level: str, seed: int, rules: str = "doubledeck") -> DoubleDeckGame:
    game = DoubleDeckGame.new(rules, seed=seed)
    players = [make_player(level, f"double/{seed}/{s}") for s in range(4)]
    while game.winner is None and len(game.results) < 200:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        action = players[seat].choose(view)
        assert action in view.legal_actions
        game.apply(action, seat)
    return game


def test_easy_and_random_play_whole_games() -> None:
    for level in ("easy", "random"):
        for rules in ("doubledeck", "doubledeck(cards_passed=4)"):
            game = play_game(level, 3, rules)
            assert game.winner in (0, 1) and max(game.scores) >= 500
            # same seeds, same decisions (docs/rules.md: a game is a pure function)
            assert play_game(level, 3, rules).record == game.record


def test_easy_bids_within_its_range() -> None:
    """The opening bid 50 and step 1: easy's maximum is 45 to 65, so it never bids above
    65 and opens at the minimum when it bids."""
    for seed in range(40):
        game = DoubleDeckGame.new("doubledeck", seed=seed)
        player = EasyPlayer(seed)
        while game.phase is Phase.AUCTION:
            seat = game.to_act
            assert seat is not None
            action = player.choose(game.view(seat)) if seat == 1 else Pass()
            game.apply(action, seat)
        bids = [a.amount for s, a in game.auction if isinstance(a, Bid)]
        assert all(50 <= b <= 65 for b in bids)
