"""One hint service for the terminal and the web table (players/hints.py): the same
view, seed and level give the same hint through either interface, in the words the
player itself gives (its ``explain``), and the earlier views of the hand shape it as
they shape a computer seat's decision."""

from __future__ import annotations

import pytest

from pinochlekit.engine.games import new_game
from pinochlekit.engine.views import Phase, View
from pinochlekit.players import make_player
from pinochlekit.players.hints import Advice, Option, advise, hint_spec
from pinochlekit.tui.session import HUMAN, Session
from pinochlekit.web.hints import compute_hint

FAST = "expert(time=0.05)"


def auction_views(rules: str, seed: int) -> list[View]:
    """Seat 0's views at each of its decisions before the play, simple players acting."""
    game = new_game(rules, seed=seed, dealer=0)
    players = [make_player("simple", seed=s) for s in range(game.rules.players)]
    views = []
    while game.phase is not Phase.PLAY and game.to_act is not None:
        seat = game.to_act
        view = game.view(seat)
        if seat == 0:
            views.append(view)
        game.apply(players[seat].choose(view))
    return views


@pytest.mark.parametrize("rules", ["pagat", "three", "two"])
def test_hint_is_the_players_own_explanation(rules: str) -> None:
    game = new_game(rules, seed=3)
    view = game.view(game.to_act)
    hint = advise(view, "seed", FAST)
    player = make_player(FAST, "seed")
    assert hint.text == player.explain(view)
    assert hint.action in view.legal_actions and hint.text.startswith(f"{hint.action}:")
    assert hint.level == "expert" and len(hint.options) >= 1
    means = [o.mean for o in hint.options]
    assert means == sorted(means, reverse=True)


def test_earlier_views_are_shown_first() -> None:
    """With the seat's earlier views replayed, the hint is what a player that chose at
    each of them explains now (a bid's table is computed at the first bid)."""
    views = auction_views("pagat", seed=11)
    assert len(views) >= 2
    *earlier, now = views
    player = make_player(FAST, "s")
    for seen in earlier:
        player.choose(seen)
    assert advise(now, "s", FAST, earlier).text == player.explain(now)


def test_a_level_that_only_chooses_gets_its_choice() -> None:
    game = new_game("pagat", seed=4)
    view = game.view(game.to_act)
    hint = advise(view, 9, "simple")
    assert hint == Advice(make_player("simple", 9).choose(view), hint.text, "simple", ())
    assert hint.text in (str(hint.action), make_player("simple", 9).explain(view))


def test_terminal_and_web_give_one_hint() -> None:
    """The terminal's hint (its seed and level, the level's own budget) and the web's
    (its seed and budget) are the one service: given the same seed and spec, the web
    message carries the terminal's sentence."""
    session = Session.new("pagat", seed=2, levels=["easy"])
    while not session.is_human_turn:
        session.step()
    turn = session.hint_request()
    assert turn.view.seat == HUMAN
    terminal = session.hint_for(turn)
    web = compute_hint(turn.view, turn.seed, hint_spec(4))
    assert terminal == f"hint (expert): {session.friendly(web.text)}"
    assert web.options == [{"name": o.name, "mean": round(o.mean, 1), "low": o.low,
                            "high": o.high} for o in advise(turn.view, turn.seed).options]


def test_spec_carries_the_budget() -> None:
    assert hint_spec(4) == "expert" and hint_spec(3, time=0.3) == "expert(time=0.3)"
    assert Option("pass", 1.5, -2, 3).mean == 1.5
