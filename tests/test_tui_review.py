"""The terminal's review of a finished hand (key ``v``), driven headless by Pilot:
refused while no hand is finished, then from the hand's result dialog a review screen
with the person's decisions valued (docs/review.md); while a review runs its progress
bar is drawn, and the result replaces it."""

from __future__ import annotations

import asyncio
import re
import threading
from pathlib import Path

import pytest
from test_tui import SIZE, human_move, settle
from textual.pilot import Pilot

import pinochlekit.tui.app as app_module
from pinochlekit.engine.record import GameRecord
from pinochlekit.tui import double
from pinochlekit.tui.app import TableApp
from pinochlekit.tui.review import progress_bar, review_text
from pinochlekit.tui.session import Session
from pinochlekit.tui.store import GameStore


@pytest.mark.parametrize(("rules", "size", "marks"), [
    ("pagat", SIZE, "?: lost 10 points or more"),
    # docs/review.md "The double deck": its own scale, a fifth of the single deck's
    ("doubledeck", double.MIN_SIZE, "?: lost 2 points or more, ??: 8 or more")])
def test_v_reviews_the_last_finished_hand(tmp_path: Path, rules: str, size: tuple[int, int],
                                          marks: str) -> None:
    async def test() -> None:
        store = GameStore(tmp_path / "games.sqlite3")
        session = Session.new(rules, seed=12, levels=["easy"], store=store)
        app = TableApp(session, delay=0)
        app.review_time = 0.05
        results: list[str] = []
        async with app.run_test(size=size) as pilot:
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
            for _ in range(1200):
                await pilot.pause(0.05)
                if "review of hand 1" in app.screen_text() and "decisions" in \
                        app.screen_text():
                    break
            screen = app.screen_text()
            assert "review of hand 1" in screen, screen
            assert marks in screen, screen
            assert "Hand 1, seat 0" in screen
            assert "auction" in screen or "trick" in screen
            # a line too long for the dialog goes on indented under it, so that each
            # decision starts its own line (docs/terminal.md "The table")
            lines = screen.splitlines()
            top = next(i for i, line in enumerate(lines) if "█▀ review of hand 1" in line)
            left = lines[top].index("█▀")
            inner = [line[left + 2:] for line in lines[top + 1:]
                     if line[left:left + 1] == "█" and "▄" not in line]
            heads = re.compile(r"(\?|  |Hand |auction|points lost|double dummy|no decision|"
                               r"\d+ of \d+ decisions|Enter|\s*$)")
            assert [x for x in inner if not heads.match(x)] == [], inner
            await pilot.press("enter")
        store.close()

    asyncio.run(test())


async def _finish_hand_one(pilot: Pilot[None], app: TableApp) -> None:
    """Play the person's moves until hand 1's result is on screen."""
    bid = True
    for _ in range(300):
        await settle(pilot, app)
        if app.waiting:
            return
        await human_move(pilot, app, bid=bid)
        bid = False
        await pilot.pause()
    raise AssertionError("hand 1 did not end")


def test_the_progress_is_drawn_while_a_review_runs_and_the_result_replaces_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The real review runs in its worker thread; after its first decision it waits on
    a gate, so the test sees what is drawn meanwhile without any timing: the message
    line's bar and "decision 1 of N", no review screen yet. Opened, the gate lets the
    review finish: its screen is drawn and the progress line is gone."""
    gate = threading.Event()
    totals: list[int] = []

    def gated(record: GameRecord, hand: int, seat: int, time: float,
              progress: object = None) -> str:
        def hold(done: int, total: int) -> None:
            assert callable(progress)
            progress(done, total)
            totals.append(total)
            if done == 1:
                assert gate.wait(timeout=300), "the test never opened the gate"
        return review_text(record, hand, seat, time, hold)

    monkeypatch.setattr(app_module, "review_text", gated)

    async def test() -> None:
        store = GameStore(tmp_path / "games.sqlite3")
        session = Session.new("pagat", seed=12, levels=["easy"], store=store)
        app = TableApp(session, delay=0)
        app.review_time = 0.05
        try:
            async with app.run_test(size=SIZE) as pilot:
                await _finish_hand_one(pilot, app)
                await pilot.press("enter")  # close the result: the table is drawn
                await pilot.pause()
                await pilot.press("v")
                screen = ""
                for _ in range(1200):
                    await pilot.pause(0.05)
                    screen = app.screen_text()
                    if "decision 1 of" in screen:
                        break
                bar = progress_bar(1, totals[0])
                assert f"reviewing hand 1: {bar} decision 1 of {totals[0]}" in screen, screen
                assert "review of hand 1" not in screen, screen
                gate.set()
                for _ in range(1200):
                    await pilot.pause(0.05)
                    screen = app.screen_text()
                    if "Hand 1, seat 0" in screen:
                        break
                assert "Hand 1, seat 0" in screen and "review of hand 1" in screen, screen
                assert "decision 1 of" not in screen and "reviewing hand" not in screen
                await pilot.press("enter")
                await pilot.pause()
                assert "review of hand 1: Enter closes it" in app.screen_text()
        finally:
            gate.set()
            store.close()

    asyncio.run(test())


def test_pinochle_history_reviews_a_saved_hand(tmp_path: Path) -> None:
    """``pinochle history ID --hand N --review`` (a real child process on a real saved
    game): the review of your seat in a finished hand; the hand in play is refused in
    one line, exit status 2, nothing reviewed."""
    from helpers import history

    from pinochlekit import Game, Phase
    from pinochlekit.players import make_player

    game = Game.new("pagat", seed=4, dealer=3)
    players = [make_player("standard", seed=s) for s in range(4)]
    while len(game.results) < 1:
        seat = game.to_act
        assert seat is not None and game.phase is not Phase.GAME_OVER
        game.apply(players[seat].choose(game.view(seat)))
    store = GameStore(tmp_path / "games.sqlite3")
    game_id = store.create("pagat", game.seed, game.first_dealer, ["you", "easy", "easy",
                                                                   "easy"], {})
    for n, action in enumerate(game.record.actions):
        store.append(game_id, n, 0, action)
    store.close()
    done = history(tmp_path, str(game_id), "--hand", "1", "--review", "--time", "0.05")
    assert done.returncode == 0, done.stderr
    assert "?: lost 10 points or more" in done.stdout
    assert "Hand 1, seat 0" in done.stdout and "decisions marked" in done.stdout
    bad = history(tmp_path, str(game_id), "--hand", "2", "--review", "--time", "0.05")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.startswith("pinochle: error: ") and "not finished" in bad.stderr, \
        bad.stderr
    assert len(bad.stderr.splitlines()) == 1


def test_v_reviews_a_three_handed_hand_with_its_double_dummy_line(tmp_path: Path) -> None:
    """docs/rules.md §3 at the terminal: ``v`` after hand 1 shows the review of the
    person's decisions and the double-dummy line (or the note that says why none)."""
    async def test() -> None:
        store = GameStore(tmp_path / "games.sqlite3")
        session = Session.new("three", seed=12, levels=["easy"], store=store)
        app = TableApp(session, delay=0)
        app.review_time = 0.05
        try:
            async with app.run_test(size=SIZE) as pilot:
                await _finish_hand_one(pilot, app)
                await pilot.press("v")
                screen = ""
                for _ in range(1200):
                    await pilot.pause(0.05)
                    screen = app.screen_text()
                    if "Hand 1, seat 0" in screen:
                        break
                assert "review of hand 1" in screen and "Hand 1, seat 0" in screen, screen
                # the dialog's text (its end is below the fold): the same review again
                review = review_text(session.game.record, 1, 0, 0.05)
                assert "double dummy" in review, review
                assert ("double dummy from trick" in review) == \
                    (session.game.results[0].declarer is not None
                     and "none:" not in review)
        finally:
            store.close()

    asyncio.run(test())
