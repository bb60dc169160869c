"""The blunder the review must catch (issue's example): the ace of trump thrown on
partner's sure trick is marked ``??``, and the play that keeps it is not marked.

The deal is fixed: seat 1 declares at 330 in hearts and leads the ace of hearts to
the first trick; seat 3, its partner, holds the other ace of hearts (returned to it in
the passing) and the nine. An ace led is never beaten (docs/rules.md §1.9: of two
identical cards the first stays ahead), so the trick is seat 1's whatever seats 3
and 0 play; the ace of seat 3 is worth a trick later, the nine nothing.
"""

from __future__ import annotations

from pinochlekit import Game, Hand, Phase, parse_action
from pinochlekit.players import make_player
from pinochlekit.review import review_hand

DEAL = [Hand.parse("TS KS QS JS KH QH JH TD KD JD AC KC"),
        Hand.parse("KS QS 9S AH TH KH QH AD QD 9D AC QC"),
        Hand.parse("TS 9S TH 9H AD QD JD TC TC QC JC 9C"),
        Hand.parse("AS AS JS AH JH 9H TD KD 9D KC JC 9C")]
#: The auction (seat 1 declares at 330), trump, the passing and the first two cards.
BEFORE = ["bid 250", "pass", "pass", "bid 260", "bid 270", "bid 280", "bid 290",
          "bid 300", "bid 310", "bid 320", "bid 330", "pass", "trump H",
          "give AS AS AH JH", "return AS 9S AH 9D", "play AH", "play 9H"]


def played(card: str) -> tuple[Game, int]:
    """The hand with seat 3 playing ``card`` on partner's lead of the ace of trump,
    the rest played by seeded ``standard`` players; the game and that ply."""
    game = Game.new("pagat", seed=1, dealer=0, deals=[DEAL])
    for text in BEFORE:
        game.apply(parse_action(text))
    assert game.to_act == 3 and game.trump is not None and game.trump.letter == "H"
    assert [(s, str(c)) for s, c in game.public_view().trick] == [(1, "AH"), (2, "9H")]
    legal = {str(a) for a in game.legal_actions()}
    assert {"play AH", "play 9H"} <= legal, legal
    ply = len(game.actions)
    game.apply(parse_action(f"play {card}"))
    # partner's sure trick: whatever seat 0 plays last, seat 1 takes it and leads
    for action in game.legal_actions():
        after = game.copy()
        after.apply(action)
        assert after.to_act == 1, action
    players = [make_player("standard", seed=s) for s in range(4)]
    while game.hand_number == 1 and game.phase is not Phase.GAME_OVER:
        seat = game.to_act
        assert seat is not None
        game.apply(players[seat].choose(game.view(seat)))
    return game, ply


def test_the_ace_of_trump_on_partners_sure_trick_is_a_blunder() -> None:
    game, ply = played("AH")
    review = review_hand(game.record, 1, 3, time=0.1, repeats=3, seed=1, double_dummy=0)
    decision = next(d for d in review.decisions if d.ply == ply)
    assert decision.trick == 1 and decision.chosen == "AH" and decision.best == "9H"
    assert decision.loss >= 40 and decision.loss > 2 * decision.noise, decision
    assert decision.mark == "??", decision
    assert "??" in review.text() and "(best: 9H" in review.text()


def test_keeping_the_ace_is_not_marked() -> None:
    game, ply = played("9H")
    review = review_hand(game.record, 1, 3, time=0.1, repeats=3, seed=1, double_dummy=0)
    decision = next(d for d in review.decisions if d.ply == ply)
    assert decision.chosen == decision.best == "9H"
    assert decision.loss == 0 and decision.mark == "", decision
    values = {o.name: o.value for o in decision.options}
    assert values["9H"] is not None and values["AH"] is not None
    assert values["9H"] - values["AH"] >= 40  # the same gap, seen from the better side
