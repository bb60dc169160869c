"""The terminal's glossary (key ``g``): the same terms and words as the web table's
(``web/static/js/glossary.js``), reachable from the table and from a hand's result,
listed in the footer and in F1; and the review dialog (key ``v``) in people's card
notation; and ``pinochle play --help`` naming the levels in the lobby's words.
Driven headless by Pilot, checked on what is drawn."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from helpers import auction_game
from test_tui import SIZE, human_move, settle

from pinochlekit.engine.rules import Rules
from pinochlekit.players import available_levels
from pinochlekit.tui.app import HELP, TableApp
from pinochlekit.tui.commands import LEVEL_WORDS, PRESET_WORDS
from pinochlekit.tui.glossary import GLOSSARY
from pinochlekit.tui.session import Session

WEB_GLOSSARY = (Path(__file__).resolve().parent.parent / "src" / "pinochlekit" / "web"
                / "static" / "js" / "glossary.js")


def test_the_terminal_glossary_is_the_web_glossary() -> None:
    text = WEB_GLOSSARY.read_text(encoding="utf-8")
    body = text[text.index("export const GLOSSARY = {") + len("export const GLOSSARY = "):]
    body = body[:body.index("};") + 1]
    body = re.sub(r",\s*}", "}", body)  # the trailing comma JSON does not take
    assert json.loads(body) == GLOSSARY


def test_g_shows_the_glossary_at_the_table_and_from_a_result() -> None:
    async def test() -> None:
        app = TableApp(Session.new("pagat", seed=12, levels=["easy"]), delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            # F1 lists it at every size; the footer where there is room (not at 80×24,
            # where the auction's keys fill the line)
            assert "g          glossary of the words" in HELP
            await pilot.press("f1")
            await pilot.pause()
            assert "glossary of the words" in app.screen_text()
            await pilot.press("enter")
            await pilot.resize_terminal(120, 40)
            await pilot.pause()
            assert "g glossary" in app.screen_text().splitlines()[-1]
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            assert "g glossary" not in app.screen_text().splitlines()[-1]
            await pilot.press("g")
            await pilot.pause()
            seen = app.screen_text()
            for _ in range(6):  # the dialog scrolls at 80×24: page down through it
                await pilot.press("pagedown")
                await pilot.pause()
                seen += app.screen_text()
            for term in ("counters", "not on the board", "pass with help", "(not saved)",
                         "stuck", "set", "trick points"):
                assert re.search(rf"^\W*{re.escape(term)}\W*$", seen, re.M), term
            assert "Everyone else passed, so the dealer" in seen
            await pilot.press("enter")
            await pilot.pause()
            assert "glossary" not in app.screen_text().splitlines()[1]

            for _ in range(300):  # to the first hand's result
                await settle(pilot, app)
                if app.waiting:
                    break
                await human_move(pilot, app)
                await pilot.pause()
            screen = app.screen_text()
            assert "Words used here (" in screen and "g explains them" in screen, screen
            await pilot.press("g")  # over the result dialog
            await pilot.pause()
            assert "The points taken in tricks" in app.screen_text()
            await pilot.press("enter")
            await pilot.pause()
            assert app.waiting  # the result is still there

    asyncio.run(test())


def test_the_review_is_in_peoples_notation() -> None:
    async def test() -> None:
        app = TableApp(Session.new("pagat", seed=12, levels=["easy"]), delay=0)
        app.review_time = 0.05
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(300):
                await settle(pilot, app)
                if app.waiting:
                    break
                await human_move(pilot, app)
                await pilot.pause()
            await pilot.press("v")
            for _ in range(600):
                await pilot.pause(0.05)
                if "review of hand 1" in app.screen_text() and "decisions" in \
                        app.screen_text():
                    break
            screen = app.screen_text()
            assert "review of hand 1" in screen
            assert re.search(r"(10|[9JQKA])[♠♥♦♣]", screen), screen
            assert not re.search(r"\b[9JQKTA][SHDC]\b", screen), screen

    asyncio.run(test())


def test_play_help_describes_levels_and_presets_in_the_lobbys_words() -> None:
    lobby = (WEB_GLOSSARY.parent / "lobby.js").read_text(encoding="utf-8")
    block = lobby[lobby.index("const LEVEL_WORDS = {"):]
    block = block[:block.index("};")]
    assert dict(re.findall(r'^\s*(\w+): "([^"]*)",', block, re.M)) == LEVEL_WORDS
    out = subprocess.run([sys.executable, "-m", "pinochlekit", "play", "--help"],
                         capture_output=True, text=True, check=True,
                         env={**os.environ, "COLUMNS": "200"}).stdout
    text = " ".join(out.split())
    assert "Weakest first: easy (a casual player); standard (a solid club player: beats " \
           "easy by about 360 points a hand); pro (" in text, text
    for level in available_levels():
        assert f"{level} ({LEVEL_WORDS[level]})" in text
    block = lobby[lobby.index("const PRESET_WORDS = {"):]
    block = block[:block.index("};")]
    assert dict(re.findall(r'^\s*(\w+): "([^"]*)",', block, re.M)) == PRESET_WORDS
    for name, words in PRESET_WORDS.items():  # the presets in the lobby's words too
        assert f"{name}: {words}" in text, name


def test_a_stuck_dealer_is_explained_where_it_is_drawn() -> None:
    """docs/rules.md §1.4: the first three pass and the dealer holds the minimum; the
    auction panel says so beside the word (seed 75: the person deals, three pass)."""
    async def test() -> None:
        app = TableApp(Session.new("pagat", seed=75, levels=["easy"]), delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            game = auction_game(app.session)
            assert game.declarer == 0 and game.high_bidder is None  # stuck, not a bid
            lines = app.screen_text().splitlines()
            at = next(n for n, line in enumerate(lines) if "You stuck at 250" in line)
            assert "the others all passed" in lines[at + 1]
    asyncio.run(test())


def test_pass_with_help_is_explained_beside_the_bid_prompt() -> None:
    """docs/rules.md §1.4: where the person may pass with help, the auction panel says
    under the bids what ``w`` does, at 80×24 and 120×40; once they have spoken, or
    under rules without it, the line is gone."""
    async def test() -> None:
        for size in ((80, 24), (120, 40)):
            session = Session.new("pagat", seed=12, levels=["easy"])
            assert session.game.rules.pass_with_help
            app = TableApp(session, delay=0)
            async with app.run_test(size=size) as pilot:
                await settle(pilot, app)
                assert session.is_human_turn and "w pass with help" in app.screen_text()
                screen = app.screen_text()
                assert "w pass with help: tells" in screen, size
                assert "partner you hold help" in screen, size
                assert ("(an ace or meld)" in screen) == (size == (120, 40)), size
                await pilot.press("p")
                await settle(pilot, app)
                assert "w pass with help: tells" not in app.screen_text(), size
        session = Session.new(Rules.preset("pagat").replace(pass_with_help=False),
                              seed=12, levels=["easy"])
        app = TableApp(session, delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            assert session.is_human_turn
            assert "w pass with help" not in app.screen_text()

    asyncio.run(test())
