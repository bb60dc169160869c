"""The double deck (docs/rules.md §6) at the terminal table.

Driven headless by Textual's Pilot with keys only: a complete hand at 100×30
(the smallest terminal it is drawn in) in which the person bids on the ladder,
wins the auction, names trump and plays the twenty tricks, checking what is
drawn: the twenty cards of the hand by suit with every copy, each seat's meld,
and the hand's summary; the window resized to 120×40 and below 100×30 mid-hand;
a saved game resumed at the table. The plain mode as a real subprocess: a
complete hand from a stdin script, and the same hand stopped halfway (end of
input) and finished with ``--resume``, checked action for action against the
hand played straight through.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from helpers import ROOT, environment, history
from test_tui import human_move, run, settle
from textual.pilot import Pilot

from pinochlekit import Phase
from pinochlekit.engine.actions import Bid, Play
from pinochlekit.engine.cards import Card
from pinochlekit.engine.double.game import DoubleDeckGame
from pinochlekit.engine.rules import Rules
from pinochlekit.players import levels_for
from pinochlekit.players.base import PlayerSpecError
from pinochlekit.tui import double
from pinochlekit.tui.app import TableApp
from pinochlekit.tui.session import HUMAN, Session
from pinochlekit.tui.store import GameStore

RULES = "doubledeck"
SEED = 3  # the person wins the auction at 65 by bidding on (checked below)
_CARD = re.compile(r"(?<![\w])(?:10|[AKQJ])[♠♥♦♣]")


def deck_game(session: Session) -> DoubleDeckGame:
    game = session.game
    assert isinstance(game, DoubleDeckGame)
    return game


def hand_row(screen: str, cards: list[Card]) -> str:
    """The row of the screen that draws the person's hand (its cards, in order)."""
    want = [card.pretty for card in cards]
    rows = [line for line in screen.splitlines() if _CARD.findall(line) == want]
    assert rows, f"no row draws the hand {' '.join(want)}:\n{screen}"
    return rows[0]


def check_hand_drawn(app: TableApp, screen: str) -> None:
    """Every card of the hand drawn, in suit order, each copy its own card, suits
    apart (docs/terminal.md "The double deck")."""
    cards = app.session.game.hand(HUMAN).cards()
    row = hand_row(screen, cards)
    for suit in {card.suit for card in cards}:  # a suit's cards side by side
        shown = [c for c in _CARD.findall(row) if c.endswith(suit.symbol)]
        assert shown == [c.pretty for c in cards if c.suit == suit]
    groups = [g for g in re.split(r"\s{3,}", row.strip(" │")) if g]  # wider gaps between suits
    assert len(groups) == len({card.suit for card in cards}), row


def check_frame(screen: str, width: int, height: int) -> None:
    lines = screen.splitlines()
    assert len(lines) == height and all(len(line) <= width for line in lines)
    assert lines[0].rstrip().endswith("of 500")  # the header is whole
    assert lines[-1].rstrip().endswith("q quit")  # and so is the footer


async def bid_on(pilot: Pilot[None], app: TableApp) -> None:
    """The person's auction call: raise by ↑ to the second legal bid, Enter."""
    bids = [a.amount for a in app.session.game.legal_actions() if isinstance(a, Bid)]
    await pilot.press("up")
    await pilot.pause()
    assert app.bid == bids[1]  # one step along the ladder
    await pilot.press("enter")


def test_a_complete_double_deck_hand_by_keys_at_100x30(tmp_path: Path) -> None:
    async def test() -> None:
        store = GameStore(tmp_path / "games.sqlite3")
        session = Session.new(RULES, seed=SEED, levels=["easy"], store=store)
        game = deck_game(session)
        app = TableApp(session, delay=0)
        seen: dict[str, str] = {}
        async with app.run_test(size=double.MIN_SIZE) as pilot:
            for _ in range(400):
                await settle(pilot, app)
                if app.waiting:
                    seen["result"] = app.screen_text()
                    break
                screen = app.screen_text()
                if "first" not in seen:
                    seen["first"] = screen
                    dealt = game.hand(HUMAN).cards()
                    assert len(dealt) == 20
                if game.phase is Phase.PLAY:
                    seen.setdefault("meld", screen)
                before = len(game.actions)
                if game.phase is Phase.AUCTION:
                    await bid_on(pilot, app)
                else:
                    await human_move(pilot, app)
                await pilot.pause()
                assert len(game.actions) > before, app.screen_text()
        first, meld, result = seen["first"], seen["meld"], seen["result"]
        # the deal: twenty cards drawn by suit, copies each their own card
        check_frame(first, *double.MIN_SIZE)
        assert len(_CARD.findall(hand_row(first, dealt))) == 20
        assert "Your bid: " in first and "p pass" in first and "pass with help" not in first
        # the meld: every seat's, in words, on the table
        check_frame(meld, *double.MIN_SIZE)
        hand = game.results[0]
        assert hand.declarer == HUMAN and hand.contract == 65
        assert hand.melds is not None and len(hand.tricks) == 20
        for seat in range(4):
            assert f"meld {hand.melds[seat].points}" in meld
            for words in double.meld_words(hand.melds[seat]):
                assert words in meld, (words, meld)
        assert "Your card: ← → choose, Enter play" in meld
        # the summary of the hand
        us = hand.meld_points[0] + hand.trick_points[0]
        assert f"hand 1 over: You bid 65 in {hand.trump.symbol}" in result  # type: ignore[union-attr]
        assert f"{hand.outcome}: meld {hand.meld_points[0]} + counters " \
               f"{hand.trick_points[0]} = {us}" in result
        assert "You & North: meld" in result and "West & East: meld" in result
        # nobody thinks while the result waits for Enter: the prompt says what Enter does
        assert "is thinking" not in result and "Enter: on to hand 2" in result, result
        # each seat's meld starts its own line, a line too long for the dialog goes on
        # indented under it (docs/terminal.md "The table")
        inner = [line.split("█")[1][1:] for line in result.splitlines()
                 if line.count("█") >= 2]
        melds = inner[inner.index(next(x for x in inner if x.startswith("meld:"))) + 1:]
        melds = melds[:next(i for i, x in enumerate(melds) if not x.strip())]
        assert len(melds) > 4 and all(x.startswith("  ") for x in melds), melds
        assert all(x.startswith("    ") for x in melds
                   if not re.match(r"  (You|West|North|East): ", x)), melds
        assert sum(hand.trick_points) == 50  # docs/rules.md §6: 48 counters and the last 2
        assert session.game_id is not None
        assert store.load(session.game_id).actions == tuple(map(str, game.actions))
        store.close()

    run(test)


def test_the_double_deck_table_resized_to_120x40_and_below_100x30() -> None:
    async def test() -> None:
        session = Session.new(RULES, seed=SEED, levels=["easy"])
        app = TableApp(session, delay=0)
        async with app.run_test(size=double.MIN_SIZE) as pilot:
            await settle(pilot, app)
            assert app.compact
            check_hand_drawn(app, app.screen_text())
            await pilot.resize_terminal(120, 40)
            await pilot.pause()
            await pilot.pause()
            screen = app.screen_text()
            assert not app.compact
            check_frame(screen, 120, 40)
            check_hand_drawn(app, screen)
            assert screen.splitlines()[0].startswith(" pinochle doubledeck")
            await pilot.resize_terminal(99, 30)  # too small for the twenty cards
            await pilot.pause()
            assert ("The double deck's twenty cards need a terminal of at least 100×30; "
                    "this one is 99×30") in app.screen_text()
            await pilot.resize_terminal(100, 30)
            await pilot.pause()
            await pilot.pause()
            check_hand_drawn(app, app.screen_text())
            # and the person plays on: bid, and follow to meld and the first card
            while session.game.phase is not Phase.PLAY or not session.is_human_turn:
                await human_move(pilot, app, bid=session.game.phase is Phase.AUCTION)
                await settle(pilot, app)
            screen = app.screen_text()
            check_frame(screen, 100, 30)
            check_hand_drawn(app, screen)

    run(test)


def test_a_click_plays_the_card_drawn_under_the_pointer() -> None:
    async def test() -> None:
        session = Session.new(RULES, seed=SEED, levels=["easy"])
        app = TableApp(session, delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            while session.game.phase is not Phase.PLAY or not session.is_human_turn:
                await human_move(pilot, app, bid=session.game.phase is Phase.AUCTION)
                await settle(pilot, app)
            cards = session.game.hand(HUMAN).cards()
            legal = session.legal_cards()
            index = max(i for i, c in enumerate(cards) if c in legal)  # past a suit gap
            column = double.hand_columns(cards, 4)[index]
            assert app.card_at(column) == index and app.card_at(column + 3) == index
            before = len(session.game.actions)
            await pilot.click("#hand", offset=(column + 2, 2))  # border, padding, row 1
            await pilot.pause()
            played = session.game.actions[before]
            assert played == Play(cards[index])

    run(test)


def test_a_saved_double_deck_game_resumes_at_the_table(tmp_path: Path) -> None:
    async def test() -> None:
        store = GameStore(tmp_path / "games.sqlite3")
        session = Session.new(RULES, seed=SEED, levels=["standard", "easy", "random"],
                              store=store)
        while session.game.phase is not Phase.PLAY or len(session.game.tricks) < 2:
            if session.is_human_turn:
                session.act(session.game.legal_actions()[-1 if session.game.phase
                                                         is not Phase.AUCTION else 0])
            else:
                session.step()
        assert session.game_id is not None
        saved = tuple(map(str, session.game.actions))
        again = Session.resume(store, session.game_id)
        assert isinstance(again.game, DoubleDeckGame)
        assert tuple(map(str, again.game.actions)) == saved
        assert again.seats == ["you", "standard", "easy", "random"]
        app = TableApp(again, delay=0)
        async with app.run_test(size=double.MIN_SIZE) as pilot:
            await settle(pilot, app)
            screen = app.screen_text()
            check_hand_drawn(app, screen)
            assert "West (standard)" in screen and "East (random)" in screen
            assert any("trick 2:" in " ".join(lines) for _, lines in app.log_entries)
            await human_move(pilot, app)
            await pilot.pause()
            assert len(again.game.actions) > len(saved)
        # the game played on is the one the straight game plays, move for move
        straight = Session.new(RULES, seed=SEED, levels=["standard", "easy", "random"])
        for text in map(str, again.game.actions):
            if straight.is_human_turn:
                straight.act(text)
            else:
                straight.step()
                assert str(straight.game.actions[-1]) == text
        store.close()

    run(test)


def test_levels_that_do_not_play_the_double_deck_are_refused() -> None:
    levels = levels_for(Rules.preset("doubledeck"))
    for spec in ("simple", "skilled", "expert"):
        if spec in levels:
            continue  # learnt the double deck since (players.double.DOUBLE_LEVELS)
        try:
            Session.new(RULES, seed=1, levels=[spec])
        except PlayerSpecError as error:
            assert "does not play the double deck" in str(error)
            assert ", ".join(levels) in str(error)
        else:
            raise AssertionError(f"{spec} was seated at the double deck")


# -- the plain mode, as a real subprocess ---------------------------------------------


def plain(data: Path, script: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    """``pinochle play --plain ARGS`` reading ``script`` (one command a line) on stdin."""
    return subprocess.run(
        [sys.executable, "-m", "pinochlekit", "play", "--plain", *args],
        input="".join(f"{line}\n" for line in script), capture_output=True, text=True,
        encoding="utf-8", env=environment(data), cwd=ROOT, timeout=600)


LEVELS = "easy,random,easy"


def scripted_hand() -> tuple[list[str], DoubleDeckGame]:
    """The person's commands for hand 1 (bid once on the ladder, then the last legal
    card each time), from the same game played in process: the computers' moves are
    a pure function of the seed, so the subprocess plays the same hand."""
    session = Session.new(RULES, seed=SEED, levels=LEVELS.split(","))
    game = deck_game(session)
    script: list[str] = []
    while not game.results:
        if not session.is_human_turn:
            session.step()
            continue
        legal = game.legal_actions()
        bids = [a for a in legal if isinstance(a, Bid)]
        mine = [a for a, s in zip(game.actions, session.actors, strict=True) if s == HUMAN]
        if game.phase is Phase.AUCTION:
            command = str(bids[1].amount) if not mine else "pass"  # the shortcut, then pass
        elif game.phase is Phase.PLAY:
            command = str(legal[-1]).split()[1]  # the shortcut: just the card
        else:
            command = str(legal[0])
        script.append(command)
        session.act(command)
    return script, game


def test_the_plain_mode_plays_a_complete_double_deck_hand(tmp_path: Path) -> None:
    script, game = scripted_hand()
    done = plain(tmp_path, [*script, "quit"], "--rules", RULES, "--seed", str(SEED),
                 "--level", LEVELS)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "your hand: " + "  ".join(
        " ".join(c.pretty for c in game.dealt[HUMAN].suit(s).cards())
        for s in range(4) if game.dealt[HUMAN].suit(s).once) in out
    assert re.search(r"your turn: you may bid \d+ or more \(by 1 below 60, then by 5\), "
                     r"pass", out), out
    result = game.results[0]
    assert "hand 1 over: " in out and f"{result.outcome}: meld " in out
    assert "trick 20: " in out and "refused" not in out
    assert "meld:\n  You: " in out
    assert f"You & North: meld {result.meld_points[0]}" in out
    assert "stopped: the game is saved (game 1)" in out
    saved = GameStore(tmp_path / "games.sqlite3")
    actions = saved.load(1).actions
    saved.close()
    assert actions[:len(game.actions)] == tuple(map(str, game.actions))
    # and the saved game's hands, as pinochle history tells them
    listed = history(tmp_path, "1")
    assert listed.returncode == 0, listed.stderr
    assert "doubledeck  unfinished" in listed.stdout and "hand 1 over: " in listed.stdout
    steps = history(tmp_path, "1", "--hand", "1", "--no-pause")
    assert steps.returncode == 0, steps.stderr
    assert steps.stdout.count("trick ") >= 20 and "hand 1 over: " in steps.stdout
    review = history(tmp_path, "1", "--hand", "1", "--review", "--time", "0.05")
    assert review.returncode == 0, review.stderr  # docs/review.md "The double deck"
    assert "review of hand 1" in review.stdout.lower() or "Hand 1, seat 0" in review.stdout, \
        review.stdout


def test_the_plain_mode_resumes_a_double_deck_hand_stopped_halfway(tmp_path: Path) -> None:
    script, game = scripted_hand()
    half = len(script) // 2
    first = plain(tmp_path, script[:half], "--rules", RULES, "--seed", str(SEED),
                  "--level", LEVELS)
    assert first.returncode == 0, first.stderr
    assert ("end of input: the game is saved (game 1); go on with: pinochle play --plain "
            "--resume 1") in first.stdout
    second = plain(tmp_path, [*script[half:], "quit"], "--resume", "1")
    assert second.returncode == 0, second.stderr
    assert "rules doubledeck" in second.stdout and "hand 1 over" in second.stdout
    assert "refused" not in second.stdout
    saved = GameStore(tmp_path / "games.sqlite3")
    actions = saved.load(1).actions
    saved.close()
    assert actions[:len(game.actions)] == tuple(map(str, game.actions))


def test_passing_copies_by_keys_with_24_cards_in_one_row() -> None:
    async def test() -> None:
        session = Session.new("doubledeck(cards_passed=4)", seed=SEED, levels=["easy"])
        game = deck_game(session)
        app = TableApp(session, delay=0)
        async with app.run_test(size=double.MIN_SIZE) as pilot:
            await settle(pilot, app)
            while game.phase is not Phase.RETURN:
                await human_move(pilot, app, bid=game.phase is Phase.AUCTION)
                await settle(pilot, app)
            assert game.declarer == HUMAN and len(game.hand(HUMAN)) == 24
            cards = game.hand(HUMAN).cards()
            await pilot.press("space", "right", "space")  # two copies of the first card
            await pilot.pause()
            screen = app.screen_text()
            check_frame(screen, *double.MIN_SIZE)
            hand_row(screen, cards)  # all 24 in one row
            assert "Pick 4 cards for your partner with space (2 picked)" in screen
            assert f"got: {' '.join(c.pretty for c in game.given or ())}" in screen
            await pilot.press("right", "space", "right", "space", "enter")
            await settle(pilot, app)
            back = game.returned
            assert back is not None and tuple(back) == tuple(cards[:4])
            assert cards[0] == cards[1]  # a copy picked twice (seed 3: A♠ A♠)
            phase: Phase = game.phase  # moved on by the return
            assert phase is Phase.PLAY and len(game.hand(HUMAN)) == 20

    run(test)
