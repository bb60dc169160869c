"""One meld-to-dict for the command line, the protocol's views and the web's hand
summaries (docs/protocol.md ``melds``: ``{"points", "shown", "items"}``)."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout

from pinochlekit import Game, Hand, Rules, Suit, meld
from pinochlekit.cli.main import main
from pinochlekit.engine.meld import meld_dict
from pinochlekit.players import RandomPlayer
from pinochlekit.web.messages import hand_summary

HAND = "AS TS KS KS QS JS 9S QH KH JD"


def test_meld_dict_shape_and_order() -> None:
    """docs/rules.md §1 Meld: run, its extra king married, a common marriage, dix and
    pinochle; the keys in the protocol's order."""
    data = meld_dict(meld(Hand.parse(HAND), Suit.SPADES, Rules()))
    assert json.dumps(data) == (
        '{"points": 260, "shown": "AS TS KS KS QS JS 9S KH QH JD", "items": ['
        '{"name": "run", "cards": "AS TS KS QS JS", "points": 150}, '
        '{"name": "royal marriage", "cards": "KS QS", "points": 40}, '
        '{"name": "common marriage", "cards": "KH QH", "points": 20}, '
        '{"name": "dix", "cards": "9S", "points": 10}, '
        '{"name": "pinochle", "cards": "QS JD", "points": 40}]}')
    assert meld_dict(meld(Hand.parse("AS KH"), Suit.SPADES, Rules())) == {
        "points": 0, "shown": "", "items": []}


def test_command_line_prints_the_same_dict() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["meld", "--trump", "S", "--json", HAND]) == 0
    assert out.getvalue() == json.dumps(meld_dict(meld(Hand.parse(HAND), Suit.SPADES,
                                                       Rules()))) + "\n"


def test_views_and_hand_summaries_carry_the_same_dicts() -> None:
    game = Game.new("pagat", seed=5)
    players = [RandomPlayer(f"m/{s}") for s in range(4)]
    checked = 0
    while len(game.results) < 2:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        if view.melds is not None:
            assert view.to_dict()["melds"] == [meld_dict(m) for m in view.melds]
            checked += 1
        game.apply(players[seat].choose(view), seat)
    assert checked > 0 and game.results
    for index, result in enumerate(game.results):
        summary = hand_summary("s", index, result, 4)
        assert summary["melds"] == [meld_dict(m) for m in result.melds]
