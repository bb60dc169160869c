"""A meld result carries only what is laid on the table, never the rest of the hand.

docs/rules.md §1 Meld: "Each player places face-up on the table only those cards
necessary to show the value of their meld" (seed 003); views hand every seat
the other seats' ``MeldResult``, so nothing else may be reachable from it.
"""

from __future__ import annotations

from pinochlekit import Game, Hand, Rules, Suit, parse_action
from pinochlekit.engine.meld import meld


def test_result_holds_only_points_items_and_shown() -> None:
    hand = Hand.parse("AS TS KS KS QS JS 9S 9H 9H 9D 9C JC")
    result = meld(hand, Suit.SPADES, Rules(run_extra="nothing"))
    assert result.points == 160  # run 150 + dix 10; the extra king alone scores nothing
    assert str(result.shown) == "AS TS KS QS JS 9S"  # one king shown, not both
    assert set(type(result).__slots__) == {"points", "items", "shown"}
    reachable = [getattr(result, name) for name in type(result).__slots__]
    assert Hand.parse("9H") not in [r for r in reachable if isinstance(r, Hand)]


def test_views_show_meld_cards_not_hands() -> None:
    game = Game.new("cutthroat", seed=11, dealer=3)
    for text in ("bid 250", "pass", "pass", "pass", "trump S"):
        game.apply(parse_action(text))
    view = game.view(1)
    assert view.melds is not None
    for seat, result in enumerate(view.melds):
        assert game.hand(seat).issuperset(result.shown)
        item_kinds = {c for item in result.items for c in item.cards}
        assert set(result.shown) <= item_kinds
