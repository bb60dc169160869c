"""One hint service for the terminal and the web table (players/hints.py): the same
view, seed and level give the same hint through either interface, in the words the
player itself gives (its ``explain``), and the earlier views of the hand shape it as
they shape a computer seat's decision."""

from __future__ import annotations

import pytest

from pinochlekit import ALL_CARDS, Game, Hand
from pinochlekit.engine.actions import Bid, Give, NameTrump, Pass, Return, parse_action
from pinochlekit.engine.games import new_game
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.views import Phase, View
from pinochlekit.players import ExpertPlayer, make_player
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
    assert hint == Advice(make_player("simple", 9).choose(view), hint.text, "simple", (),
                          hint.sentence, ())
    assert hint.sentence.startswith(("Bid ", "Pass"))
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
    web = compute_hint(turn.view, turn.seed, hint_spec(turn.view.rules))
    assert terminal == f"hint (expert): {web.sentence}"
    advice = advise(turn.view, turn.seed)
    assert web.why == list(advice.why) and len(web.why) == len(advice.options) > 1
    assert web.options == [{"name": o.name, "mean": round(o.mean, 1), "low": o.low,
                            "high": o.high} | ({} if o.makes is None else
                                               {"makes": round(o.makes, 3)})
                           for o in advice.options]
    assert web.to_dict()["sentence"] == web.sentence


def test_spec_carries_the_budget() -> None:
    assert hint_spec() == "expert"
    assert hint_spec(Rules.preset("three"), time=0.3) == "expert(time=0.3)"
    assert hint_spec(Rules.preset("doubledeck"), time=0.3) == "expert(time=0.3)"
    assert Option("pass", 1.5, -2, 3).mean == 1.5


# -- the hint in words: a make-rate for a bid, a pass said in words (docs/terminal.md "Hints")

STRONG = Hand.parse("AS TS KS QS JS AS TS KS AH AD AC QD")  # run 150 + aces around 100


def strong_deal() -> list[Hand]:
    """Seat 1 (first to bid after dealer 0) holds :data:`STRONG`: 250 of meld in spades
    before a trick is taken; the rest in deck order."""
    left = [c for c in ALL_CARDS for _ in range(2)]
    for card in STRONG:
        left.remove(card)
    return [Hand.from_cards(left[0:12]), STRONG, Hand.from_cards(left[12:24]),
            Hand.from_cards(left[24:36])]


def test_a_bid_says_how_often_it_is_made() -> None:
    """Meld of 250 in spades makes a 250 contract in spades on every deal (docs/rules.md
    §1 Scoring a hand: meld plus trick points at least the bid); the sentence says so
    in words, the why gives each suit's share, and the hint decides as choose does."""
    game = Game.new("pagat", seed=1, dealer=0, deals=[strong_deal()])
    view = game.view(1)
    hint = advise(view, "s", FAST)
    assert hint.action == make_player(FAST, "s").choose(view) == Bid(250)
    makes = {o.name: o.makes for o in hint.options}
    assert makes["S at 250"] == 1.0 and makes["pass"] is None
    assert all(0.0 <= m <= 1.0 for m in makes.values() if m is not None)
    assert hint.sentence == "Bid 250: you make it in every sampled deal; naming ♠ spades"
    assert any(line.startswith("♠ at 250: ") and line.endswith("made in 100% of the deals")
               for line in hint.why)


@pytest.mark.parametrize(("rules", "seed"), [("pagat", 3), ("pagat", 5), ("three", 2)])
def test_a_bid_sentence_carries_the_share_of_the_named_suit(rules: str, seed: int) -> None:
    game = new_game(rules, seed=seed, dealer=0)
    view = game.view(game.to_act)
    hint = advise(view, 1, FAST)
    bids = [o for o in hint.options if " at " in o.name]
    assert bids and all(o.makes is not None for o in bids)
    best = bids[0]
    if isinstance(hint.action, Bid):
        tenths = round(10 * (best.makes or 0))
        assert hint.sentence.startswith(f"Bid {hint.action.amount}: you make it in ")
        if 0 < tenths < 10:
            assert f"about {tenths} of 10 deals" in hint.sentence
        assert hint.sentence.endswith(best.name[0].replace("S", "♠ spades").replace(
            "H", "♥ hearts").replace("D", "♦ diamonds").replace("C", "♣ clubs"))
    else:
        assert isinstance(hint.action, Pass)
        assert hint.sentence.startswith(("Pass: ", "Pass with help: "))
        assert "passing is worth more on average" in hint.sentence
    assert not any(ch.isdigit() and "." in hint.sentence for ch in hint.sentence)
    assert len(hint.why) == len(hint.options)


def test_advising_changes_no_decision() -> None:
    """Lock step: an expert asked for its advice before every decision (the make-rates
    looked at again on the same deals) takes the same actions as one that only
    chooses, through the auction, trump and passing of three deals."""
    for seed in (1, 2, 3):
        game = Game.new("pagat", seed=seed, dealer=0)
        plain = [ExpertPlayer(s, time=0.05) for s in range(4)]
        advised = [ExpertPlayer(s, time=0.05) for s in range(4)]
        while game.phase.value in ("auction", "trump", "give", "return"):
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            decision = advised[seat].advise(view)
            action = plain[seat].choose(view)
            assert advised[seat].choose(view) == action == decision.action
            game.apply(action)


def test_passing_and_trump_are_said_in_words() -> None:
    game = Game.new("pagat", seed=1, dealer=0, deals=[strong_deal()])
    for text in ("bid 250", "pass", "pass", "pass"):
        game.apply(parse_action(text))
    hint = advise(game.view(1), "s", FAST)
    assert isinstance(hint.action, NameTrump)
    assert hint.sentence.startswith(f"Name trump {hint.action.suit.symbol} ")
    assert " you make 250 in " in hint.sentence
    game.apply(hint.action)
    give = advise(game.view(3), "s", FAST)
    assert isinstance(give.action, Give)
    cards = " ".join(c.pretty for c in give.action.cards)
    assert give.sentence.startswith(f"Pass {cards} to your partner: they help your partner "
                                    "most (")
    assert f"the best of {len(give.options)} passes weighed" in give.sentence
    game.apply(give.action)
    back = advise(game.view(1), "s", FAST)
    assert isinstance(back.action, Return)
    assert back.sentence.startswith("Return ") and "returns weighed" in back.sentence
    for line in give.why:
        assert not any(c in line for c in ("AS", "TS", "KD")), line  # cards for people
