"""The two-handed game at the full-screen table, driven headless by Textual's Pilot
with keys only: tricks, the meld turn (a meld picked with space and Enter, a meld
by its number, the dix, no meld), the turned-up card, the stock and the laid
melds with their classes on screen, undo and a hint in the meld turn, the hand's
result explained, and a short game to its end, saved as it went.
"""

from __future__ import annotations

import re
from pathlib import Path

from test_tui import SIZE, run, settle
from textual.pilot import Pilot

from pinochlekit.engine.games import replay
from pinochlekit.engine.two.actions import DIX, LayMeld
from pinochlekit.engine.two.game import TwoHandedGame
from pinochlekit.engine.two.views import TwoStage
from pinochlekit.tui.app import TableApp
from pinochlekit.tui.session import HUMAN, Session
from pinochlekit.tui.store import GameStore


def two_game(app: TableApp) -> TwoHandedGame:
    game = app.session.game
    assert isinstance(game, TwoHandedGame)
    return game


async def pick_and_lay(pilot: Pilot[None], app: TableApp, meld: LayMeld) -> None:
    """Lay ``meld`` by moving the cursor to each card, space, then Enter."""
    cards = two_game(app).hand(HUMAN).cards()
    wanted = list(meld.cards)
    for index, card in enumerate(cards):
        if card in wanted:
            wanted.remove(card)
            steps = (index - app.cursor) % len(cards)
            await pilot.press(*(["right"] * steps), "space")
    assert not wanted
    await pilot.press("enter")


def test_two_handed_table_by_keyboard(tmp_path: Path) -> None:
    async def test() -> None:
        store = GameStore(tmp_path / "games.sqlite3")
        session = Session.new("two(target=300)", seed=4, levels=["easy"], store=store)
        app = TableApp(session, delay=0)
        seen: dict[str, str] = {}
        results: list[str] = []
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            first = app.screen_text()
            assert "North (easy)" in first and "West" not in first
            assert re.search(r"trump . \(turned up \S+\) · stock 24", first)
            assert "stock & melds" in first
            for _ in range(3000):
                await settle(pilot, app)
                if app.waiting:
                    results.append(app.screen_text())
                    await pilot.press("enter")
                    continue
                if session.is_over:
                    break
                game = two_game(app)
                before = len(game.actions)
                if game.stage is not TwoStage.MELD:
                    await pilot.press("enter")  # the cursor starts on a legal card
                else:
                    screen = app.screen_text()
                    assert "Meld turn: " in screen
                    legal = game.legal_actions()
                    melds = [a for a in legal if isinstance(a, LayMeld)]
                    if DIX in legal:
                        await pilot.press("x")
                    elif melds and "picked" not in seen:
                        seen["picked"] = str(melds[0])
                        await pick_and_lay(pilot, app, melds[0])
                    elif melds and "undo" not in seen:
                        seen["undo"] = str(melds[0])
                        await pilot.press("question_mark")
                        for _ in range(600):  # the hint is worked out in a thread
                            await pilot.pause(0.05)
                            if "hint (" in app.screen_text():
                                break
                        seen["hint"] = app.screen_text()
                        assert len(game.actions) == before  # a hint plays nothing
                        await pilot.press("1")
                        await settle(pilot, app)
                        assert str(game.actions[before]) == str(melds[0])
                        await pilot.press("u")
                        await pilot.pause()
                        assert len(game.actions) == before  # back in the meld turn
                        assert game.stage is TwoStage.MELD and game.to_act == HUMAN
                        await pilot.press("1")
                    elif melds:
                        await pilot.press("1")
                    else:
                        await pilot.press("n")
                    if game.events and game.events[-1].seat == HUMAN:
                        seen.setdefault("table", app.screen_text())
                await pilot.pause()
                assert len(game.actions) > before or app.waiting or session.is_over, \
                    app.screen_text()
            assert session.is_over
            assert "game over:" in app.screen_text()
            await pilot.press("q")
        game = two_game(app)
        assert "picked" in seen and "undo" in seen
        assert "hint (expert): " in seen["hint"]
        # the meld turn's hint in words, as every hint (docs/terminal.md "Hints"): what
        # to do, then why in whole numbers, not the player's own shorthand
        hint = " ".join(seen["hint"].split("hint (expert): ")[1].split())
        assert re.match(r"(Lay .+|Count the dix|Lay no meld): the best choice here "
                        r"\([+−]\d+ on average, (played out|solved) over \d+ deals\)", hint), hint
        assert "rollouts" not in hint and "mean hand score" not in hint
        # the person's laid meld, with the classes its cards served in
        assert re.search(r"on the table: (\S+\((I|II|III)(\+\w+)*\) ?)+", seen["table"])
        laid = [str(a) for a in game.actions if str(a).startswith("meld")]
        assert seen["picked"] in laid and seen["undo"] in laid
        assert len(results) == len(game.results)
        assert "meld + tricks each" in results[0]
        assert re.search(r"You: meld \d+ \+ tricks \d+ = \+\d+", results[0])
        assert "game over:" in results[-1]
        assert session.game_id is not None
        saved = store.load(session.game_id)
        assert saved.finished and saved.winner == game.winner
        assert saved.actions == tuple(str(a) for a in game.actions)
        assert replay(saved.record).scores == game.scores
        store.close()

    run(test)


def test_the_meld_turn_is_told_from_the_engines_events() -> None:
    """docs/terminal.md (two-handed): the line of a meld turn comes from the step's
    events: the dix exchanged names the turned-up card it was exchanged for, a meld
    laid its points; the draw says the card the person drew and the stock left."""
    told: dict[str, list[str]] = {}
    for seed in range(40):
        session = Session.new("two", seed=seed, levels=["easy"])
        game = session.game
        assert isinstance(game, TwoHandedGame)
        assert game is not None
        for _ in range(400):
            if game.stage is not TwoStage.MELD or game.to_act != HUMAN:
                if session.is_over or game.hand_number > 1:
                    break
                if session.is_human_turn:
                    session.act(game.legal_actions()[0])
                else:
                    session.step()
                continue
            legal = game.legal_actions()
            turn_up = game.turn_up
            if DIX in legal and "dix" not in told:
                lines = session.act(DIX)
                assert turn_up is not None
                assert lines[0].startswith("You count the dix: "), lines
                assert f"exchanged for the turned-up {turn_up.pretty} (+" in lines[0], lines
                told["dix"] = lines
            else:
                lines = session.act(legal[0])
                told.setdefault("meld", lines)
            for line in lines[1:]:
                if line.startswith("you draw"):  # the meld turn is over: both drew
                    assert re.fullmatch(r"you draw \S+; the stock has \d+ cards", line), lines
                    told["draw"] = lines
        if "dix" in told:
            break
    assert "dix" in told, "no seed of 40 gave the person the dix to exchange"
    assert "draw" in told and "meld" in told, told


def test_the_header_and_the_meld_turn_whole_at_80x24() -> None:
    """At the smallest table (80×24) the header keeps every score whole, and the meld
    turn's prompt shows every numbered meld, the dix and no meld (docs/terminal.md
    "Screen sizes" and "Two and three at the table")."""
    async def test() -> None:
        session = Session.new("two", seed=4, levels=["easy"])
        app = TableApp(session, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            header = app.screen_text().splitlines()[0]
            assert re.search(r"You 0, (North|N) 0( of 1000)?\s*$", header), header
            game = two_game(app)
            for _ in range(200):
                await settle(pilot, app)
                if game.stage is TwoStage.MELD and game.to_act == HUMAN:
                    break
                await pilot.press("enter")
            assert game.stage is TwoStage.MELD and game.to_act == HUMAN
            melds = [a for a in game.legal_actions() if isinstance(a, LayMeld)]
            assert len(melds) >= 2
            screen = app.screen_text()
            start = screen.index("Meld turn: ")
            prompt = " ".join(screen[start:].split())
            for number in range(1, min(9, len(melds)) + 1):
                assert f" {number} " in prompt, screen
            assert "n no meld" in prompt and "picked)" in prompt, screen
            if DIX in game.legal_actions():
                assert "x dix" in prompt, screen
            # the centre still shows the trick just taken and the trick points
            assert re.search(r"You \d+ · North \d+", screen), screen

    run(test)
