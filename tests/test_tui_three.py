"""The three-handed game at the full-screen table, driven headless by Textual's Pilot
with keys only: a complete hand under ``three(widow=take)`` in which the person bids
once and wins the auction (seed 6), sees the widow turned up, takes it, names trump, picks three
discards with space and Enter (a fourth pick refused), plays fifteen tricks, and
reads the hand's result with the widow and the discards; then a complete short
three-handed game to its end, saved as it went and replayed to the same score.
"""

from __future__ import annotations

import re
from pathlib import Path

from test_tui import SIZE, human_move, run, settle
from textual.pilot import Pilot

from pinochlekit import Phase
from pinochlekit.engine.actions import Bid, Discard
from pinochlekit.engine.game import Game
from pinochlekit.engine.games import replay
from pinochlekit.tui.app import TableApp
from pinochlekit.tui.session import HUMAN, Session
from pinochlekit.tui.store import GameStore

TAKE = "three(widow=take)"


def three_game(app: TableApp) -> Game:
    game = app.session.game
    assert isinstance(game, Game)
    return game


async def discard_by_keys(pilot: Pilot[None], app: TableApp, seen: dict[str, str]) -> None:
    """Pick the last three cards (the lowest of the last suit) with space, a fourth
    refused, then Enter."""
    game = three_game(app)
    seen["discard"] = app.screen_text()
    await pilot.press("left", "space", "left", "space", "left", "space", "left", "space")
    await pilot.pause()
    seen["fourth"] = app.screen_text()
    assert len(app.picked) == 3
    await pilot.press("enter")
    await pilot.pause()
    assert game.phase is not Phase.DISCARD


def _own_calls(session: Session) -> list[object]:
    """The person's actions so far."""
    return [a for a, seat in zip(session.game.actions, session.actors, strict=False)
            if seat == HUMAN]


def test_a_complete_three_handed_hand_with_the_widow_taken(tmp_path: Path) -> None:
    async def test() -> None:
        store = GameStore(tmp_path / "games.sqlite3")
        session = Session.new(TAKE, seed=12, levels=["easy"], store=store)
        app = TableApp(session, delay=0)
        seen: dict[str, str] = {}
        results: list[str] = []
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            first = app.screen_text()
            assert "West (easy)" in first and "East (easy)" in first
            assert "North" not in first
            for _ in range(500):
                await settle(pilot, app)
                if app.waiting:
                    results.append(app.screen_text())
                    break
                game = three_game(app)
                before = len(game.actions)
                if game.phase is Phase.AUCTION:
                    # the person bids once (Enter: the lowest bid shown), then passes
                    bid = not any(isinstance(a, Bid) for a in _own_calls(session))
                    await pilot.press("enter" if bid else "p")
                elif game.phase is Phase.DISCARD:
                    assert len(game.hand(HUMAN)) == 18  # 15 and the widow
                    await discard_by_keys(pilot, app, seen)
                else:
                    if game.phase is Phase.TRUMP:
                        seen["trump"] = app.screen_text()
                    await human_move(pilot, app)
                await pilot.pause()
                assert len(game.actions) > before, app.screen_text()
            game = three_game(app)
            assert game.results, "the hand did not end"
            await pilot.press("q")
        hand = game.results[0]
        assert hand.declarer == HUMAN and hand.contract >= 250
        bids = [a for a in game.actions if isinstance(a, Bid)]
        assert bids and len(hand.widow) == 3 and len(hand.discards) == 3
        widow = " ".join(c.pretty for c in hand.widow)
        assert "widow" in seen["trump"] and all(c.pretty in seen["trump"] for c in hand.widow), \
            (widow, seen["trump"])
        assert "Pick 3 cards to discard with space (0 picked), then Enter" in seen["discard"]
        assert "You pick at most 3 cards" in seen["fourth"]
        discard = next(a for a in game.actions if isinstance(a, Discard))
        assert tuple(discard.cards) == hand.discards
        assert len(hand.tricks) == 15
        story = results[0]
        assert f"hand {hand.number} over" in story
        assert re.search(r"You: meld \d+", story) and re.search(r"West: meld \d+", story)
        assert str(hand.outcome) in story
        assert session.game_id is not None
        saved = store.load(session.game_id)
        assert saved.actions == tuple(str(a) for a in game.actions)
        assert "discard " + " ".join(map(str, hand.discards)) in saved.actions
        store.close()

    run(test)


def test_a_complete_short_three_handed_game(tmp_path: Path) -> None:
    async def test() -> None:
        store = GameStore(tmp_path / "games.sqlite3")
        session = Session.new("three(widow=take, target=500)", seed=5, levels=["easy"],
                              store=store)
        app = TableApp(session, delay=0)
        results: list[str] = []

        async with app.run_test(size=SIZE) as pilot:
            async def move() -> None:
                game = three_game(app)
                if game.phase is Phase.DISCARD:
                    for _ in range(3):
                        await pilot.press("space", "right")
                    await pilot.press("enter")
                else:
                    await human_move(pilot, app)

            for _ in range(3000):
                await settle(pilot, app)
                if app.waiting:
                    results.append(app.screen_text())
                    await pilot.press("enter")
                    continue
                if session.is_over:
                    break
                before = len(session.game.actions)
                await move()
                await pilot.pause()
                assert len(session.game.actions) > before, app.screen_text()
            assert session.is_over
            assert "game over:" in app.screen_text()
            await pilot.press("q")
        game = three_game(app)
        assert game.winner is not None and max(game.scores) >= 500
        assert len(results) == len(game.results) and "game over:" in results[-1]
        assert session.game_id is not None
        saved = store.load(session.game_id)
        assert saved.finished and saved.winner == game.winner
        assert replay(saved.record).scores == game.scores
        store.close()

    run(test)



def test_the_header_whole_at_80x24() -> None:
    """At 80×24 the header of ``three(widow=take)`` keeps the contract and every
    seat's score whole, leaving out what the table shows elsewhere (the dealer's
    mark on its seat, the target in the score pad's title) rather than cutting it
    (docs/terminal.md "Screen sizes")."""
    async def test() -> None:
        session = Session.new(TAKE, seed=12, levels=["easy"])
        app = TableApp(session, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            screen = app.screen_text()
            header = screen.splitlines()[0].rstrip()
            assert "no contract yet" in header, header
            assert re.search(r"You 0, (West|W) 0, (East|E) 0( of 1000)?$", header), header
            assert "game 1000" in screen and "[dealer]" in screen

    run(test)


def test_the_widow_stays_in_the_auction_panel_at_every_size() -> None:
    """docs/terminal.md "Two and three at the table": the widow stays in the auction
    panel, after trump is named too, however long the auction was, in the compact
    layout (80×24, 100×30) and the full one (120×40)."""
    async def test() -> None:
        for size in ((80, 24), (100, 30), (120, 40)):
            session = Session.new(TAKE, seed=8, levels=["easy"])
            app = TableApp(session, delay=0)
            async with app.run_test(size=size) as pilot:
                for _ in range(100):  # always bidding: you win a long auction
                    await settle(pilot, app)
                    if three_game(app).phase is not Phase.AUCTION:
                        break
                    await human_move(pilot, app, bid=True)
                    await pilot.pause()
                game = three_game(app)
                assert game.phase is Phase.TRUMP and len(game.auction) >= 6
                assert game.widow is not None
                widow = "widow " + " ".join(c.pretty for c in game.widow.cards())
                assert widow in app.screen_text(), (size, app.screen_text())
                await human_move(pilot, app)  # trump named: your discard is next
                await pilot.pause()
                assert three_game(app).phase is Phase.DISCARD and session.is_human_turn
                screen = app.screen_text()
                assert game.trump is not None
                assert widow in screen and f"trump {game.trump.words}" in screen, (
                    size, screen)

    run(test)
