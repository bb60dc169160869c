"""The full-screen table driven headless through Textual's Pilot: keys in, screen out.

A complete hand and a complete short game (``playingcards``: game 150) by
keyboard alone, an illegal card refused with its rule, hints, undo, the last
trick, a click on a card, and a snapshot of the table screen.

The snapshot is plain text (no colours) of a 100x34 screen for a fixed seed;
regenerate it after a deliberate change of the layout with

    PINOCHLEKIT_UPDATE_SNAPSHOTS=1 .venv/bin/python -m pytest tests/test_tui.py -k snapshot

and look at the diff before committing it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import threading
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest
from helpers import auction_game
from textual.pilot import Pilot
from textual.widgets import RichLog

from pinochlekit import Phase
from pinochlekit.engine.actions import NameTrump, Pass
from pinochlekit.tui.app import HELP, TableApp
from pinochlekit.tui.session import HUMAN, Session, Settings, hint_level
from pinochlekit.tui.store import GameStore

SNAPSHOTS = Path(__file__).parent / "snapshots"
SIZE = (100, 34)


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(test())


async def settle(pilot: Pilot[None], app: TableApp) -> None:
    """Wait until the person must act, a result is on screen, or the game is over."""
    for _ in range(2000):
        await pilot.pause()
        session = app.session
        if app.waiting or session.is_over or session.is_human_turn:
            await pilot.pause()
            return
    raise AssertionError("the table never came back to the person")


async def human_move(pilot: Pilot[None], app: TableApp, *, bid: bool = False) -> None:
    """One action by keys alone: pass (or bid), name trump, pick cards, play a card."""
    game = app.session.game
    legal = game.legal_actions()
    if game.phase is Phase.AUCTION:
        if bid or Pass() not in legal:
            await pilot.press("up", "enter")
        else:
            await pilot.press("p")
    elif game.phase is Phase.TRUMP:
        suit = next(a.suit for a in legal if isinstance(a, NameTrump))
        await pilot.press(suit.letter.lower())
    elif game.phase in (Phase.GIVE, Phase.RETURN):
        for _ in range(game.rules.cards_passed):
            await pilot.press("space", "right")
        await pilot.press("enter")
    else:
        await pilot.press("enter")  # the cursor starts on a legal card


async def play(pilot: Pilot[None], app: TableApp, stop: Callable[[], bool],
               on_result: Callable[[str], None] | None = None, bid_first: bool = False) -> None:
    bid = bid_first
    for _ in range(3000):
        await settle(pilot, app)
        if app.waiting:
            if on_result is not None:
                on_result(app.screen_text())
            await pilot.press("enter")
            continue
        if stop() or app.session.is_over:
            return
        before = len(app.session.game.actions)
        await human_move(pilot, app, bid=bid)
        bid = False
        await pilot.pause()
        assert len(app.session.game.actions) > before, app.screen_text()
    raise AssertionError("the game did not reach the stop condition")


def test_a_complete_hand_by_keyboard(tmp_path: Path) -> None:
    async def test() -> None:
        store = GameStore(tmp_path / "games.sqlite3")
        session = Session.new("pagat", seed=12, levels=["easy"], store=store)
        app = TableApp(session, delay=0)
        results: list[str] = []
        async with app.run_test(size=SIZE) as pilot:
            await play(pilot, app, lambda: bool(results), results.append, bid_first=True)
            screen = app.screen_text()
        assert auction_game(session).auction or session.game.results
        hand = session.game.results[0]
        story = results[0]
        assert f"hand {hand.number} over" in story
        assert "You & North: meld" in story and "West & East: meld" in story
        assert str(hand.outcome) in story
        assert any(a == HUMAN for a in session.actors)
        assert "You" in screen and "North (partner, easy)" in screen
        assert session.game_id is not None
        assert store.load(session.game_id).actions == tuple(map(str, session.game.actions))
        store.close()

    run(test)


def test_a_complete_short_game_by_keyboard(tmp_path: Path) -> None:
    async def test() -> None:
        store = GameStore(tmp_path / "games.sqlite3")
        session = Session.new("playingcards", seed=6, levels=["easy"], store=store)
        app = TableApp(session, delay=0)
        results: list[str] = []
        async with app.run_test(size=SIZE) as pilot:
            await play(pilot, app, lambda: False, results.append)
            await settle(pilot, app)
            assert session.is_over
            assert "game over:" in app.screen_text()
            await pilot.press("q")
        assert len(results) == len(session.game.results)
        assert "game over:" in results[-1]
        assert session.game_id is not None
        saved = store.load(session.game_id)
        assert saved.finished and saved.winner == session.game.winner
        assert saved.record.replay().winner == session.game.winner
        store.close()

    run(test)


def test_an_illegal_card_is_refused_with_the_rule(tmp_path: Path) -> None:
    async def test() -> None:
        session = Session.new("pagat", seed=2, levels=["easy"])
        app = TableApp(session, delay=0)

        def illegal_choice() -> bool:
            held = session.game.hand(HUMAN).cards()
            return session.is_human_turn and session.game.phase is Phase.PLAY and any(
                c not in session.legal_cards() for c in held)

        async with app.run_test(size=SIZE) as pilot:
            await play(pilot, app, illegal_choice)
            held = session.game.hand(HUMAN).cards()
            legal = session.legal_cards()
            target = next(i for i, c in enumerate(held) if c not in legal)
            steps = (target - app.cursor) % len(held)
            for _ in range(steps):
                await pilot.press("right")
            record = session.game.record
            await pilot.press("enter")
            await pilot.pause()
            screen = app.screen_text()
            assert session.game.record == record  # nothing changed
            assert f"Refused: illegal play {held[target].pretty}: " in screen
            assert "must" in screen or "first lead" in screen
            assert session.is_human_turn
            # and the game goes on: a legal card is accepted
            good = next(i for i, c in enumerate(held) if c in legal)
            steps = (good - app.cursor) % len(held)
            for _ in range(steps):
                await pilot.press("right")
            await pilot.press("enter")
            await pilot.pause()
            assert session.actors[len(record.actions)] == HUMAN
            assert session.game.record.actions[len(record.actions)] == f"play {held[good]}"

    run(test)


def test_hint_undo_last_trick_and_click(tmp_path: Path) -> None:
    async def test() -> None:
        session = Session.new("pagat", seed=7, levels=["easy"])
        app = TableApp(session, delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await play(pilot, app, lambda: session.game.phase is Phase.PLAY
                       and len(session.game.tricks) >= 1 and session.is_human_turn)
            actions = list(session.game.actions)
            await pilot.press("question_mark")
            for _ in range(600):  # the hint is worked out in a thread
                await pilot.pause(0.05)
                screen = app.screen_text()
                if "hint (" in screen:
                    break
            assert f"hint ({hint_level()}): Play " in screen
            assert session.game.actions == actions
            await pilot.press("l")
            await pilot.pause()
            assert "last trick" in app.screen_text()
            assert re.search(r"→ \w+ takes? \d+", app.screen_text())
            await pilot.press("escape")
            # click the first legal card: it is played
            held = session.game.hand(HUMAN).cards()
            index = next(i for i, c in enumerate(held) if c in session.legal_cards())
            await pilot.click("#hand", offset=(2 + 4 * index, 2))
            await pilot.pause()
            assert session.game.actions[len(actions)] is not None
            assert str(session.game.actions[len(actions)]) == f"play {held[index]}"
            await settle(pilot, app)
            await pilot.press("u")
            await pilot.pause()
            assert [str(a) for a in session.game.actions] == [str(a) for a in actions]
            assert "undone: play" in app.screen_text()

    run(test)


def test_no_hint_key_when_hints_are_off(tmp_path: Path) -> None:
    async def test() -> None:
        session = Session.new("pagat", seed=7, levels=["easy"],
                              settings=Settings(hints=False, undo=False))
        app = TableApp(session, delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            assert "? hint" not in app.screen_text()
            await pilot.press("question_mark")
            await pilot.pause()
            assert "hint (" not in app.screen_text()
            await human_move(pilot, app)
            await settle(pilot, app)
            assert "u undo" not in app.screen_text()

    run(test)


def test_snapshot_of_the_table() -> None:
    async def test() -> None:
        session = Session.new("pagat", seed=31, levels=["easy", "pro", "standard"])
        app = TableApp(session, delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await play(pilot, app, lambda: session.game.phase is Phase.PLAY
                       and len(session.game.trick) >= 1 and session.is_human_turn)
            await pilot.pause()
            screen = app.screen_text()
        path = SNAPSHOTS / "table_pagat_seed31.txt"
        if os.environ.get("PINOCHLEKIT_UPDATE_SNAPSHOTS"):
            path.parent.mkdir(exist_ok=True)
            path.write_text(screen, encoding="utf-8")
        expected = path.read_text(encoding="utf-8")
        assert screen == expected, "the table screen changed; see the module docstring"

    run(test)


@pytest.mark.parametrize("size", [(80, 24), SIZE, (120, 40)])
def test_bid_keys_reach_the_table_when_the_log_scrolls(size: tuple[int, int]) -> None:
    """docs/terminal.md "Keys": ↑ ↓ PgUp PgDn change the bid whatever has focus, even
    when the log panel holds more lines than it shows, at the compact size and above."""
    async def test() -> None:
        session = Session.new("pagat", seed=12, levels=["easy"])
        app = TableApp(session, delay=0)
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            assert session.game.phase is Phase.AUCTION and session.is_human_turn
            app._write_log([f"line {i}" for i in range(200)])
            await pilot.pause()
            log = app.query_one("#log")
            assert log.max_scroll_y > 0  # the log is scrollable
            start = app.bid
            await pilot.press("up")
            await pilot.pause()
            assert app.bid == start + session.game.rules.step
            assert f"Your bid: {app.bid}" in app.screen_text()
            await pilot.press("pageup")
            await pilot.pause()
            assert app.bid == start + 11 * session.game.rules.step
            await pilot.press("pagedown", "down")
            await pilot.pause()
            assert app.bid == start

    run(test)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs a pseudo-terminal")
def test_bid_keys_reach_the_table_in_a_real_terminal(tmp_path: Path) -> None:
    """docs/terminal.md "Keys": in a real (pseudo-)terminal the log panel never takes
    the keyboard either, from the first key on: ↑ raises the bid drawn in the
    prompt. (A real terminal focuses the first focusable widget as the screen starts,
    before the app's own start-up runs, which Textual's Pilot does not show.)"""
    import fcntl
    import pty
    import select
    import struct
    import sys
    import termios

    env = {**os.environ, "PINOCHLEKIT_DATA": str(tmp_path), "TERM": "xterm-256color"}
    pid, fd = pty.fork()
    if pid == 0:  # the child: the table, at 100×30
        os.execve(sys.executable, [sys.executable, "-m", "pinochlekit", "play", "--seed",
                                   "5", "--level", "easy", "--delay", "0"], env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    drawn = b""

    def until(pattern: bytes, seconds: float) -> bytes | None:
        nonlocal drawn
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            found = re.findall(pattern, drawn)
            if found:
                return found[-1]  # type: ignore[no-any-return]
            if select.select([fd], [], [], 0.1)[0]:
                with contextlib.suppress(OSError):
                    drawn += os.read(fd, 65536)
        return None

    try:
        first = until(rb"Your bid: (\d+)", 120)
        assert first is not None, drawn[-2000:]
        time.sleep(0.5)
        drawn = b""
        os.write(fd, b"\x1b[A")  # ↑
        raised = str(int(first) + 10).encode()
        assert until(rb"Your bid: " + raised, 20) is not None, drawn[-2000:]
        os.write(fd, b"q")
        until(rb"pinochle play --resume", 20)
    finally:
        with contextlib.suppress(OSError):
            os.kill(pid, 9)
        os.waitpid(pid, 0)
        os.close(fd)


async def _following(pilot: Pilot[None], app: TableApp) -> str:
    """Play to a turn where the person follows a led card, after meld; the screen."""
    session = app.session
    await play(pilot, app, lambda: session.game.phase is Phase.PLAY and bool(
        session.game.trick) and session.is_human_turn)
    await pilot.pause()
    return app.screen_text()


def _check_drawn(app: TableApp, screen: str, width: int, height: int) -> None:
    """What a player must read at any supported size (docs/terminal.md "Screen sizes")."""
    session = app.session
    game = auction_game(session)
    lines = screen.splitlines()
    assert len(lines) == height and all(len(line) <= width for line in lines)
    assert lines[0].rstrip().endswith(f"of {game.rules.game_target}")  # the header is whole
    assert lines[-1].rstrip().endswith("q quit")  # and so is the footer
    assert "West (easy)" in screen and "East (easy)" in screen
    assert game.melds is not None
    for seat in (1, 3):  # West's and East's meld, each piece with its cards
        assert f"meld {game.melds[seat].points}" in screen
        for item in game.melds[seat].items:
            assert "".join(c.pretty for c in item.cards) in screen
    leader, led = game.view(HUMAN).trick[0]
    assert f"{session.name(leader)} {led.pretty}" in screen  # the led card
    assert f"{session.name(leader)} led" in screen


def test_compact_layout_at_80x24() -> None:
    async def test() -> None:
        session = Session.new("pagat", seed=31, levels=["easy"])
        app = TableApp(session, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await _following(pilot, app)
            assert app.compact
            _check_drawn(app, screen, 80, 24)
            assert "Your card: ← → choose, Enter play" in screen

    run(test)


def test_full_layout_at_120x40() -> None:
    async def test() -> None:
        session = Session.new("pagat", seed=31, levels=["easy"])
        app = TableApp(session, delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await _following(pilot, app)
            assert not app.compact
            _check_drawn(app, screen, 120, 40)
            # docs/terminal.md "The table": cards for people as symbols, in the log too
            assert "meld:" in "\n".join(_log_lines(app))
            assert not re.search(r"\b[9JQKTA][SHDC]\b", screen), screen
            assert screen.splitlines()[0].startswith(" pinochle pagat")

    run(test)


_COMPACT_CARD = re.compile(r"\b[AKQJT9][SHDC]\b")  # KD, TC: what is typed, never drawn
_PEOPLES_CARD = re.compile(r"(?:10|[AKQJ9])[♠♥♦♣]")  # K♦, 10♣


@pytest.mark.parametrize("size", [(80, 24), SIZE, (120, 40)])
def test_cards_are_drawn_for_people_at_every_size(size: tuple[int, int]) -> None:
    """docs/terminal.md "The table": cards are written for people everywhere at the
    table (``K♦ 10♣``), never in the compact form (``KD TC``): a hand played by keys
    at the compact size and above ("Screen sizes"), the screen read at every turn
    (your hand, the melds at the seats, the trick, the log), a hint, the whole log
    panel and the hand's result."""
    async def test() -> None:
        session = Session.new("pagat", seed=31, levels=["easy"])
        app = TableApp(session, delay=0)
        hinted = tricks_seen = 0
        async with app.run_test(size=size) as pilot:
            for _ in range(200):
                await settle(pilot, app)
                screen = app.screen_text()
                assert not _COMPACT_CARD.search(screen), screen
                assert _PEOPLES_CARD.search(screen), screen  # the hand, at least
                if app.waiting:  # the hand's result: each meld with its cards
                    assert "meld" in screen and _PEOPLES_CARD.search(screen), screen
                    break
                game = auction_game(session)
                if game.phase is Phase.PLAY:
                    if game.trick:  # the seats' melds, the led card, the trick's cards
                        _check_drawn(app, screen, *size)
                        centre = "\n".join(_region_text(screen, app.query_one(
                            "#trick").region))
                        for _, card in game.view(HUMAN).trick:
                            assert card.pretty in centre, centre
                        tricks_seen += 1
                    if not hinted:
                        message = await _hint_shown(pilot, app)
                        assert message.startswith("hint (") and _PEOPLES_CARD.search(
                            message) and not _COMPACT_CARD.search(message), message
                        assert not _COMPACT_CARD.search(app.screen_text())
                        hinted += 1
                await human_move(pilot, app)
                await pilot.pause()
            else:
                raise AssertionError("the hand did not end")
            log = "\n".join(_log_lines(app))  # the whole log panel, scrolled out too
            assert "meld:" in log and "trick 12:" in log
            assert not _COMPACT_CARD.search(log), log
            assert len(_PEOPLES_CARD.findall(log)) >= 48  # every card played, at least
        assert hinted and tricks_seen

    run(test)


def test_a_terminal_below_80x24_is_told_so() -> None:
    async def test() -> None:
        session = Session.new("pagat", seed=31, levels=["easy"])
        app = TableApp(session, delay=0)
        async with app.run_test(size=(70, 20)) as pilot:
            await settle(pilot, app)
            screen = app.screen_text()
            assert "at least 80×24" in screen and "70×20" in screen
            assert "your hand" not in screen
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            screen = app.screen_text()
            assert "at least 80×24" not in screen and "your hand" in screen

    run(test)


@pytest.mark.parametrize("size", [(80, 24), SIZE, (120, 40)])
def test_a_trick_taken_stays_in_view_before_the_next_card(
        monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]) -> None:
    """docs/terminal.md "The table": a complete trick stays in the centre, every card
    with who played it, for at least the hold time before a computer plays on; at the
    compact size too ("Screen sizes").

    Without timing: the computer that would play after a taken trick is held at a gate
    until the test has looked; the hold is checked as a lower bound between the moment
    the trick's last card was drawn and the moment that computer was asked to move."""
    async def test() -> None:
        session = Session.new("pagat", seed=7, levels=["easy"])
        app = TableApp(session, delay=0.01, hold=0.6)
        game = session.game
        gate, reached = threading.Event(), threading.Event()
        drawn: dict[int, float] = {}  # tricks taken -> when the last one was drawn whole
        asked: list[float] = []
        schedule, choice = app._schedule, session.computer_choice

        def note_schedule() -> None:
            if app._trick_complete():
                drawn.setdefault(len(game.tricks), time.monotonic())
            schedule()

        def gated_choice(turn: Any) -> Any:
            if game.tricks and not game.trick and game.phase is Phase.PLAY \
                    and not reached.is_set():
                asked.append(time.monotonic())
                reached.set()
                assert gate.wait(timeout=300), "the test never opened the gate"
            return choice(turn)

        monkeypatch.setattr(app, "_schedule", note_schedule)
        monkeypatch.setattr(session, "computer_choice", gated_choice)
        try:
            async with app.run_test(size=size) as pilot:
                await play(pilot, app, lambda: game.phase is Phase.PLAY
                           and session.is_human_turn)
                for _ in range(30000):
                    await pilot.pause(0.01)
                    if reached.is_set():
                        break
                    if app.waiting or session.is_over:
                        raise AssertionError("the hand ended before a computer led a trick")
                    if session.is_human_turn and not app._pending:
                        await pilot.press("enter")
                else:
                    raise AssertionError("no computer was asked to lead after a trick")
                await pilot.pause()
                count, last = len(game.actions), game.tricks[-1]
                assert asked[0] - drawn[len(game.tricks)] >= 0.6  # held at least that long
                screen = app.screen_text()
                for seat, card in zip(last.seats, last.cards, strict=True):
                    assert f"{session.name(seat)} {card.pretty}" in screen
                trick = " ".join(" ".join(_region_text(
                    screen, app.query_one("#trick").region)).split())
                # who took it and its points, whole (broken between words at 80×24)
                assert (f"{session.name(last.winner)} took trick {len(game.tricks)} "
                        f"(+{last.points})") in trick, trick
                gate.set()
                for _ in range(3000):
                    await pilot.pause(0.05)
                    if len(game.actions) > count:
                        break
                assert len(game.actions) > count  # and then play goes on
        finally:
            gate.set()

    run(test)


def test_an_engine_refusal_names_the_person_as_you() -> None:
    """The engine's words with seat numbers are told with names: "seat 0" is "You"
    opening a sentence and "you" inside one; "by seat 0" goes."""
    session = Session.new("pagat", seed=12, levels=["easy"])
    west = session.name(1)
    assert west != "You"
    said = session.friendly("cannot play AS by seat 0 while trump is named: "
                            "seat 0 must name trump")
    assert said == "cannot play AS while trump is named: you must name trump"
    assert session.friendly("seat 0 must bid or pass") == "You must bid or pass"
    assert session.friendly("not your turn: seat 1 must play a card") == \
        f"not your turn: {west} must play a card"


@pytest.mark.parametrize("size", [(80, 24), SIZE, (120, 40)])
def test_q_says_how_to_resume(tmp_path: Path, size: tuple[int, int]) -> None:
    """docs/terminal.md "Keys": ``q`` quits, the game saved, and the terminal then
    shows how to go on. The key is drawn at the footer's end at every size ("Screen
    sizes"), F1 says how to resume too, and once the table has closed its goodbye
    (printed by ``pinochle play``) names the saved game."""
    async def test() -> None:
        store = GameStore(tmp_path / "games.sqlite3")
        session = Session.new("pagat", seed=12, levels=["easy"], store=store)
        app = TableApp(session, delay=0)
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            assert app.screen_text().splitlines()[-1].rstrip().endswith("q quit")
            await pilot.press("f1")
            await pilot.pause()
            assert "Resume later with: pinochle play --resume" in app.screen_text()
            await pilot.press("escape")
            await pilot.pause()
            assert app.goodbye == ""
            await pilot.press("q")
            await pilot.pause()
            assert not app.is_running  # the table has closed
        assert app.goodbye == (f"the game is saved (game {session.game_id}); go on with: "
                               f"pinochle play --resume {session.game_id}")
        store.close()

    run(test)


def _log_lines(app: TableApp) -> list[str]:
    """The log panel's lines as drawn (each already wrapped to the panel)."""
    return [strip.text.rstrip() for strip in app.query_one("#log", RichLog).lines]


def _newest_log_line_drawn(app: TableApp) -> None:
    """The log's newest line is drawn in the log panel (scrolled to its end)."""
    log = app.query_one("#log", RichLog)
    newest = next(line for line in reversed(_log_lines(app)) if line.strip())
    drawn = [row.rstrip() for row in _region_text(app.screen_text(), log.region)]
    assert any(newest.strip() in row for row in drawn), (newest, drawn)


@pytest.mark.parametrize("size", [(80, 24), SIZE, (120, 40)])
def test_the_log_drops_undone_moves_and_indents_wrapped_lines(size: tuple[int, int]) -> None:
    """docs/terminal.md "The table": the log is kept per action (an undo takes the
    undone moves out of it) and a line too long for the panel wraps with its
    continuation indented two spaces; at every size ("Screen sizes")."""
    async def test() -> None:
        session = Session.new("pagat", seed=8, levels=["easy"])
        app = TableApp(session, delay=0)
        async with app.run_test(size=size) as pilot:
            await play(pilot, app, lambda: session.game.phase is Phase.PLAY
                       and len(session.game.tricks) >= 1 and session.is_human_turn)
            lines = _log_lines(app)
            first = session.tell_trick(1, session.game.tricks[0])
            at = next(i for i, line in enumerate(lines) if line.startswith("trick 1:"))
            wrapped = [lines[at]]
            while lines[at + len(wrapped)].startswith("  "):
                wrapped.append(lines[at + len(wrapped)])
            width = app.query_one("#log", RichLog).scrollable_content_region.width - 1
            # wrapped, continuations indented, exactly when the line is wider than the
            # panel (the trick's line is, at every size)
            assert (len(wrapped) > 1) == (len(first) > width), (width, wrapped)
            assert all(len(part) <= width for part in wrapped), (width, wrapped)
            assert " ".join(part.strip() for part in wrapped) == first
            before = list(lines)
            held = session.game.hand(HUMAN).cards()
            card = held[app.cursor]
            await pilot.press("enter")
            await settle(pilot, app)
            assert f"You play {card.pretty}" in _log_lines(app)
            await pilot.press("u")
            await pilot.pause()
            assert _log_lines(app) == before  # the undone moves are gone from the log
            _newest_log_line_drawn(app)

    run(test)


@pytest.mark.parametrize("size", [(80, 24), SIZE, (120, 40)])
def test_a_resumed_game_shows_its_log(tmp_path: Path, size: tuple[int, int]) -> None:
    """docs/terminal.md "The table": a resumed game starts with the whole log of the
    game so far, drawn as it was; at every size ("Screen sizes")."""
    async def test() -> None:
        store = GameStore(tmp_path / "games.sqlite3")
        session = Session.new("pagat", seed=7, levels=["easy"], store=store)
        app = TableApp(session, delay=0)
        async with app.run_test(size=size) as pilot:
            await play(pilot, app, lambda: session.game.phase is Phase.PLAY
                       and len(session.game.tricks) >= 1 and session.is_human_turn)
            lines = _log_lines(app)
        resumed = Session.resume(store)
        again = TableApp(resumed, delay=0)
        async with again.run_test(size=size) as pilot:
            await pilot.pause()
            assert _log_lines(again) == lines
            _newest_log_line_drawn(again)
        store.close()

    run(test)


@pytest.mark.parametrize("size", [(80, 24), SIZE, (120, 40)])
def test_help_fits(size: tuple[int, int]) -> None:
    """docs/terminal.md "The table": F1 shows the keys in a dialog that fits an 80×24
    terminal, every line whole (nothing wrapped or cut), and at the larger sizes."""
    async def test() -> None:
        session = Session.new("pagat", seed=7, levels=["easy"])
        app = TableApp(session, delay=0)
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            await pilot.press("f1")
            await pilot.pause()
            screen = app.screen_text()
            for line in HELP.splitlines():  # every line whole: nothing wrapped or cut
                assert line.strip() in screen, line
            await pilot.press("escape")
            await pilot.pause()
            assert "Resume later with" not in app.screen_text()  # and it closes

    run(test)


async def _hint_shown(pilot: Pilot[None], app: TableApp) -> str:
    """Press ``?`` and wait for the hint (worked out in a thread); the message drawn,
    its lines joined."""
    await pilot.press("question_mark")
    for _ in range(600):
        await pilot.pause(0.05)
        rows = app.screen_text().splitlines()[-3:-1]  # the message's two rows
        message = " ".join(row.strip() for row in rows if row.strip())
        if message.startswith("hint ("):
            return message
    raise AssertionError("no hint came")


async def _why_shown_whole(pilot: Pilot[None], app: TableApp) -> None:
    """``y`` shows every option weighed, each a whole line on screen; ``y`` closes it."""
    assert len(app.why) > 1
    await pilot.press("y")
    await pilot.pause()
    screen = app.screen_text()
    for line in app.why:
        assert line in screen, line
    await pilot.press("y")
    await pilot.pause()
    assert "options weighed" not in app.screen_text()


@pytest.mark.parametrize("size", [(80, 24), SIZE, (120, 40)])
def test_a_hint_is_a_sentence_and_y_shows_why(size: tuple[int, int]) -> None:
    """docs/terminal.md "Hints": one sentence in words, whole; the numbers behind
    ``y``, every option a whole line; at every size ("Screen sizes"), in the auction
    and when passing cards (what the cards passed do)."""
    async def test() -> None:
        session = Session.new("pagat", seed=12, levels=["easy"])
        app = TableApp(session, delay=0)
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            assert session.game.phase is Phase.AUCTION
            message = await _hint_shown(pilot, app)
            assert re.match(r"hint \(expert\): (Bid \d+: you make it in [^;]+; naming "
                            r"[♠♥♦♣] \w+|Pass( with help)?: .*) +\(y: why\)$", message), message
            assert not re.search(r"\d\.\d", message)  # rounded numbers in the sentence
            await _why_shown_whole(pilot, app)
        # seed 1: you pass, North declares, and you pass cards to North
        session = Session.new("pagat", seed=1, levels=["easy"])
        app = TableApp(session, delay=0)
        async with app.run_test(size=size) as pilot:
            await play(pilot, app, lambda: session.game.phase is Phase.GIVE
                       and session.is_human_turn)
            message = await _hint_shown(pilot, app)
            assert re.match(r"hint \(expert\): Pass ((A|K|Q|J|10|9)[♠♥♦♣] ){4}to your "
                            r"partner: they help your partner most \([+−]\d+ on average, "
                            r"the best of \d+ passes weighed\) +\(y: why\)$", message), message
            await _why_shown_whole(pilot, app)

    run(test)


def _region_text(screen: str, region: Any) -> list[str]:
    """The rows of ``screen`` inside a widget's region (x, y, width, height)."""
    rows = screen.splitlines()[region.y:region.y + region.height]
    return [row[region.x:region.x + region.width] for row in rows]


def _check_log_stays_in_its_panel(app: TableApp, screen: str) -> None:
    """The log is drawn only inside its panel, beside the table and never over it: the
    panels do not overlap, the newest log line is in the panel, and no log line is
    drawn in the felt, the hand or the prompt."""
    log = app.query_one("#log", RichLog)
    felt, hand, prompt = (app.query_one(name).region for name in ("#felt", "#hand", "#prompt"))
    for one, other in ((log.region, felt), (log.region, hand), (log.region, prompt),
                       (felt, hand)):
        assert not one.overlaps(other), (one, other)
    width = log.scrollable_content_region.width
    assert all(len(line) <= width for line in _log_lines(app)), (width, [  # rewrapped, not cut
        line for line in _log_lines(app) if len(line) > width])
    lines = [line.strip() for line in _log_lines(app) if line.strip()]
    drawn = [row.strip() for row in _region_text(screen, log.region)]
    if lines and log.scroll_y >= log.max_scroll_y:  # at the bottom, the newest line shows
        assert any(lines[-1][:20] in row for row in drawn), (lines[-1], drawn)
    for name in ("#felt", "#hand", "#prompt"):
        inside = "\n".join(_region_text(screen, app.query_one(name).region))
        assert not re.search(r"\b(bids \d+|passes|trick \d+:|== hand \d+)", inside), (
            name, inside)


def test_the_log_is_drawn_in_its_panel_at_80x24_and_120x40_and_after_resizing() -> None:
    """Issue: "the log redraws behind the table". A whole hand by keys at 80×24, then
    120×40 and back (the layout switching between full and compact mid-hand): after
    every step the log's lines are in the log panel only, never drawn over the seats,
    the trick, the hand or the prompt, and the header and footer are whole
    (docs/terminal.md "Screen sizes")."""
    async def test() -> None:
        session = Session.new("pagat", seed=31, levels=["easy"])
        app = TableApp(session, delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            sizes = [(80, 24), (120, 40), (80, 24), (120, 40)]
            steps = 0
            while session.game.hand_number == 1 and not session.is_over:
                await settle(pilot, app)
                if app.waiting:
                    break
                size = sizes[min(steps // 3, len(sizes) - 1)]
                if app.size != size:
                    await pilot.resize_terminal(*size)
                    await pilot.pause()
                    await pilot.pause()
                    assert app.compact == (size == (80, 24))
                screen = app.screen_text()
                _check_log_stays_in_its_panel(app, screen)
                # the header and the footer whole at both sizes, in every phase (the
                # auction's keys too: at 80×24 the footer leaves out what F1 lists)
                lines = screen.splitlines()
                assert lines[0].rstrip().endswith("of 1500"), lines[0]
                assert lines[-1].rstrip().endswith("q quit"), lines[-1]
                await human_move(pilot, app, bid=steps == 0)
                await pilot.pause()
                steps += 1
            assert steps > 3 * 3  # every size was played at

    run(test)


def test_a_seat_with_one_card_left_says_1_card() -> None:
    """At the last trick each seat's frame says ``1 card``, not ``1 cards``."""
    async def test() -> None:
        session = Session.new("pagat", seed=12, levels=["easy"])
        app = TableApp(session, delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await play(pilot, app, lambda: session.game.phase is Phase.PLAY
                       and len(session.game.hand(HUMAN)) == 1)
            screen = app.screen_text()
        assert "1 cards" not in screen, screen
        assert re.search(r"\b1 card\b", screen), screen

    run(test)


def test_naming_trump_offers_the_suit_keys_not_enter() -> None:
    """docs/terminal.md "Keys": a key is offered only when it does something; while
    you name trump Enter has nothing to confirm, so the footer offers the suits and
    no ``⏎ confirm``."""
    async def test() -> None:
        session = Session.new("pagat", seed=1, levels=["easy"])
        app = TableApp(session, delay=0)
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(100):  # seed 1, always bidding: you win the auction
                await settle(pilot, app)
                if session.game.phase is not Phase.AUCTION:
                    break
                await human_move(pilot, app, bid=True)
                await pilot.pause()
            assert session.game.phase is Phase.TRUMP and session.is_human_turn
            footer = app.screen_text().splitlines()[-1]
            assert "s ♠" in footer and "c ♣" in footer, footer
            assert "confirm" not in footer, footer

    run(test)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_west_and_east_show_their_last_call_whole(size: tuple[int, int]) -> None:
    """The narrow West and East frames (compact and full) show the last call on a line
    of its own (``bid 250``), never broken between ``bid`` and the amount."""
    async def test() -> None:
        session = Session.new("pagat", seed=5, levels=["easy"])
        app = TableApp(session, delay=0)
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            screen = app.screen_text()
        calls = [str(a) for s, a in auction_game(session).auction if s in (1, 3)]
        assert calls, screen
        for call in calls:
            assert re.search(rf"[▊│] {call}\s", screen), (call, screen)
        # West to act (the computers held back): the arrow beside the call, whole
        session.act("pass")
        app = TableApp(session, delay=100)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            screen = app.screen_text()
        assert re.search(r"[█┃] bid \d+  ◀\s", screen), screen
        assert not re.search(r"◀ to\s*[│┃]?\s*$", screen, re.MULTILINE), screen

    run(test)
