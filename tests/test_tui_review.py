"""The terminal's review of a finished hand (key ``v``), driven headless by Pilot:
refused while no hand is finished, then from the hand's result dialog a review screen
with the person's decisions valued (docs/review.md)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from test_tui import SIZE, human_move, settle

from pinochlekit.tui.app import TableApp
from pinochlekit.tui.session import Session
from pinochlekit.tui.store import GameStore


def test_v_reviews_the_last_finished_hand(tmp_path: Path) -> None:
    async def test() -> None:
        store = GameStore(tmp_path / "games.sqlite3")
        session = Session.new("pagat", seed=12, levels=["easy"], store=store)
        app = TableApp(session, delay=0)
        app.review_time = 0.05
        results: list[str] = []
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("v")
            await pilot.pause()
            assert "a hand in play is never reviewed" in app.screen_text()

            # play until the first hand's result is on screen (and not yet closed)
            bid = True
            for _ in range(300):
                await settle(pilot, app)
                if app.waiting:
                    results.append(app.screen_text())
                    break
                await human_move(pilot, app, bid=bid)
                bid = False
                await pilot.pause()
            assert app.waiting and "hand 1" in results[0]
            await pilot.press("v")  # from the result dialog
            for _ in range(600):
                await pilot.pause(0.05)
                if "review of hand 1" in app.screen_text() and "decisions" in \
                        app.screen_text():
                    break
            screen = app.screen_text()
            assert "review of hand 1" in screen, screen
            assert "?: lost 10 points or more" in screen
            assert "Hand 1, seat 0" in screen
            assert "auction" in screen or "trick" in screen
            await pilot.press("enter")
        store.close()

    asyncio.run(test())
