"""Throwing in, claiming and auto-play at the full-screen table, driven headless by
Pilot and checked on what is drawn (docs/terminal.md "Keys" and "Claim"): ``t`` asks
before throwing in, ``k`` claims the rest (the exact solver checks it: a sure claim is
played out, an unsure one refused, one claim per hand), ``a`` plays a forced card for
you; and the running trick points in the centre while the hand is played.

The seeds are chosen so that the positions come up with the keys the tests press
(``pagat`` against ``easy`` players): seed 1, always bidding, makes you the declarer
before the first card; seed 35 gives you a sure claim at your first chance to claim;
seed 4 an unsure one; two-handed, seed 4 a sure claim with seven tricks left.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from helpers import auction_game, two_game
from test_tui import SIZE, _region_text, human_move, settle
from textual.pilot import Pilot

from pinochlekit import Phase
from pinochlekit.engine.actions import (
    Action,
    Bid,
    Give,
    NameTrump,
    Pass,
    Play,
    Return,
    ThrowIn,
)
from pinochlekit.engine.two.views import TwoStage
from pinochlekit.players.claim import claim_is_sure, claimable
from pinochlekit.tui.app import TableApp
from pinochlekit.tui.session import HUMAN, Session, Settings
from pinochlekit.tui.store import GameStore


async def _to_claim(pilot: Pilot[None], app: TableApp) -> None:
    """Play by keys until the person may claim (the key ``k`` is offered)."""
    session = app.session
    for _ in range(400):
        await settle(pilot, app)
        assert not app.waiting, "the hand ended before a claim could be made"
        if session.game.phase is Phase.PLAY and session.claim_refusal() is None:
            return
        await human_move(pilot, app)
        await pilot.pause()
    raise AssertionError("no claim was ever possible")


@pytest.mark.parametrize("size", [(80, 24), SIZE, (120, 40)])
def test_t_asks_before_throwing_in(size: tuple[int, int]) -> None:
    async def test() -> None:
        app = TableApp(Session.new("pagat", seed=1, levels=["easy"]), delay=0)
        session = app.session
        async with app.run_test(size=size) as pilot:
            for _ in range(100):
                await settle(pilot, app)
                if session.game.phase is Phase.PLAY:
                    break
                await human_move(pilot, app, bid=True)
                await pilot.pause()
            assert ThrowIn() in session.game.legal_actions()
            assert "t throw in" in app.screen_text()  # the footer offers it
            actions = len(session.game.actions)
            await pilot.press("t")
            await pilot.pause()
            screen = app.screen_text()
            assert "Throw in this hand?" in screen and "the declaring side is set" in screen
            assert f"Your contract is {auction_game(session).contract}" in screen
            assert "y: yes, throw in" in screen
            await pilot.press("n")  # no: nothing happens
            await pilot.pause()
            assert len(session.game.actions) == actions
            assert "Not thrown in: play on." in app.screen_text()
            await pilot.press("t")
            await pilot.pause()
            await pilot.press("enter")  # Enter is no, too: throwing in takes a y
            await pilot.pause()
            assert len(session.game.actions) == actions
            await pilot.press("t", "y")
            await settle(pilot, app)
            assert app.waiting and len(session.game.results) == 1
            screen = app.screen_text()
            assert "You throw in the hand" in screen or "thrown in" in screen, screen

    asyncio.run(test())


def test_k_claims_a_sure_rest_and_it_is_played_out() -> None:
    async def test() -> None:
        app = TableApp(Session.new("pagat", seed=35, levels=["easy"]), delay=0)
        session = app.session
        async with app.run_test(size=SIZE) as pilot:
            await _to_claim(pilot, app)
            assert "k claim" in app.screen_text()
            left = sum(len(session.game.hand(s)) for s in range(4))
            before = len(session.game.actions)
            await pilot.press("k")
            await settle(pilot, app)
            assert app.waiting and len(session.game.results) == 1  # played out, scored
            assert len(session.game.actions) == before + left  # ordinary plays, each saved
            assert all(isinstance(a, Play) for a in session.game.actions[before:])
            await pilot.press("enter")
            await pilot.pause()
            log = "\n".join("\n".join(lines) for _, lines in app.log_entries)
            assert "You claim the rest of the hand: it is sure, and it is played out" in log

    asyncio.run(test())


def test_an_unsure_claim_is_refused_and_only_one_per_hand() -> None:
    async def test() -> None:
        app = TableApp(Session.new("pagat", seed=4, levels=["easy"]), delay=0)
        session = app.session
        async with app.run_test(size=(80, 24)) as pilot:
            await _to_claim(pilot, app)
            before = len(session.game.actions)
            await pilot.press("k")
            await pilot.pause()
            screen = app.screen_text()
            assert "Refused: the claim is not sure" in screen, screen
            assert len(session.game.actions) == before  # nothing changed
            assert "k claim" not in screen  # the key goes: one claim per hand
            await pilot.press("k")  # the key is not offered; the session says why
            await pilot.pause()
            assert len(session.game.actions) == before
            assert session.claim_refusal() == "one claim per hand: the hand plays on"

    asyncio.run(test())


@pytest.mark.parametrize("size", [(80, 24), SIZE, (120, 40)])
def test_a_forced_card_is_played_with_auto_play_and_trick_points_run(
        size: tuple[int, int]) -> None:
    """docs/terminal.md "Keys" (``a``) and "The table": a forced card is played for
    you with no key pressed; through the whole hand the centre's last line counts each
    side's trick points (``us 40 · them 30``), drawn at every size ("Screen sizes")."""
    async def test() -> None:
        app = TableApp(Session.new("pagat", seed=1, levels=["easy"]), delay=0)
        session = app.session
        seen_points: set[str] = set()
        pressed = 0  # the cards the test played by a key
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            await pilot.press("a")
            await pilot.pause()
            assert "Auto-play of forced cards: on" in app.screen_text()
            for _ in range(400):
                await settle(pilot, app)
                if app.waiting:
                    break
                game = session.game
                if game.phase is Phase.PLAY:
                    screen = app.screen_text()
                    seen_points.update(re.findall(r"us \d+ · them \d+", screen))
                    expected = f"us {game.trick_points[0]} · them {game.trick_points[1]}"
                    if game.trick or game.tricks:  # in the centre, not only somewhere
                        trick = "\n".join(_region_text(screen, app.query_one("#trick").region))
                        assert expected in trick, screen
                legal = game.legal_actions()
                if game.phase is Phase.PLAY and len(legal) == 1:
                    position = len(game.actions)
                    for _ in range(20):  # no key pressed: auto-play plays it
                        await pilot.pause()
                        if len(session.game.actions) > position:
                            break
                    assert len(session.game.actions) > position
                    continue
                pressed += game.phase is Phase.PLAY
                await human_move(pilot, app)
                await pilot.pause()
            assert app.waiting
            yours = sum(1 for seat, action in zip(session.actors, session.game.actions,
                                                  strict=True)
                        if seat == 0 and isinstance(action, Play))
            assert pressed < yours  # the last trick's card at least was played for you
            assert "auto-play: You play" in app.screen_text()
            assert len(seen_points) > 1  # the count ran during the hand

    asyncio.run(test())


def test_two_handed_claim_once_the_stock_is_gone() -> None:
    """Two-handed (docs/rules.md §4): no claim while the stock lasts; once it is gone,
    a sure claim is played out to the hand's result."""
    async def test() -> None:
        app = TableApp(Session.new("two", seed=4, levels=["easy"]), delay=0)
        session = app.session
        game = two_game(session)
        assert game is not None
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(400):
                await settle(pilot, app)
                assert not app.waiting, "no sure claim came up in the hand"
                if game.stage is TwoStage.LATE and claim_is_sure(game, 0):
                    break
                if game.stage is not TwoStage.LATE and game.phase is Phase.PLAY:
                    assert "k claim" not in app.screen_text()
                    assert session.claim_refusal() == ("a claim is for the last twelve "
                                                       "tricks, once the stock is gone")
                await pilot.press("n" if game.stage is TwoStage.MELD else "enter")
                await pilot.pause()
            assert "k claim" in app.screen_text()
            await pilot.press("k")
            await settle(pilot, app)
            assert app.waiting and len(game.results) == 1
            assert "You claim the rest of the hand" in "\n".join(
                "\n".join(lines) for _, lines in app.log_entries)

    asyncio.run(test())


def _policy(session: Session) -> Action:
    """The person's fixed choice: pass (else the lowest bid), the first trump, the
    first cards of the hand to pass, the first legal card."""
    game = auction_game(session)
    legal = game.legal_actions()
    if Pass() in legal:
        return Pass()
    for action in legal:
        if isinstance(action, Bid | NameTrump | Play):
            return action
    cards = tuple(game.hand(0).cards()[:game.rules.cards_passed])
    return Give(cards) if game.phase is Phase.GIVE else Return(cards)


def test_a_claimed_game_resumes_and_plays_on_as_it_would_have(tmp_path: Path) -> None:
    """The played-out claim is saved as ordinary plays: a game resumed just after it
    plays on exactly as the same game kept open (the computer seats were shown the
    played-out cards, as a resumed game shows them)."""
    store = GameStore(tmp_path / "games.sqlite3")
    session = Session.new("pagat", seed=35, levels=["pro"], store=store)
    while not (session.is_human_turn and auction_game(session).phase is Phase.PLAY
               and session.claim_refusal() is None):
        session.act(_policy(session)) if session.is_human_turn else session.step()
    lines = session.claim()
    assert lines[0].startswith("You claim the rest of the hand")
    assert len(session.game.results) == 1  # played out to the hand's result
    resumed = Session.resume(store, session.game_id)
    assert resumed.game.actions == session.game.actions
    for each in (session, resumed):
        for _ in range(60):  # well into the next hand's auction and play
            each.act(_policy(each)) if each.is_human_turn else each.step()
    assert resumed.game.actions == session.game.actions
    store.close()


def test_three_handed_trick_points_name_each_player() -> None:
    """Each for itself (docs/rules.md §3): a count per player, shortened at 80×24
    (docs/terminal.md "The table"), and at 100×34 where the names do not fit."""
    async def test() -> None:
        app = TableApp(Session.new("three(widow=take)", seed=3, levels=["easy"]), delay=0)
        session = app.session
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(300):
                await settle(pilot, app)
                game = auction_game(session)
                if app.waiting:  # a hand ended before its play (not on the board)
                    await pilot.press("enter")
                elif game.phase is Phase.PLAY and sum(game.trick_points) > 0:
                    break
                elif game.phase.value == "discard":
                    await pilot.press("space", "right", "space", "right", "space", "enter")
                else:
                    await human_move(pilot, app)
                await pilot.pause()
            points = game.trick_points
            short = f"You {points[0]} W {points[1]} E {points[2]}"
            whole = f"You {points[0]} · West {points[1]} · East {points[2]}"
            assert short in app.screen_text()
            await pilot.resize_terminal(*SIZE)  # whole where it fits the centre's line
            await pilot.pause()
            assert (whole if len(whole) <= 24 else short) in app.screen_text()
            await pilot.resize_terminal(120, 40)
            await pilot.pause()
            assert whole in app.screen_text()

    asyncio.run(test())


def test_one_claim_per_hand_holds_across_resume_and_undo(tmp_path: Path) -> None:
    """The refused claim is saved with the game: resumed at the same point the claim is
    still used up (it cannot be tried again to learn the other hands), at the table
    too (``k`` is not offered), and an undo does not give it back; the next hand may
    claim again."""
    async def test() -> None:
        store = GameStore(tmp_path / "games.sqlite3")
        session = Session.new("pagat", seed=4, levels=["easy"], store=store,
                              settings=Settings(undo=True))
        app = TableApp(session, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await _to_claim(pilot, app)
            await pilot.press("k")
            await pilot.pause()
            assert "Refused: the claim is not sure" in app.screen_text()
        hand, game_id = session.game.hand_number, session.game_id
        assert game_id is not None
        assert store.claims(game_id) == {hand}
        resumed = Session.resume(store, game_id)
        assert resumed.game.actions == session.game.actions
        assert resumed.claim_refusal() == "one claim per hand: the hand plays on"
        app = TableApp(resumed, delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            assert "k claim" not in app.screen_text()
            before = len(resumed.game.actions)
            await pilot.press("k")
            await pilot.pause()
            assert len(resumed.game.actions) == before  # nothing changed
        resumed.undo()  # back before the claim's window: played on, it is still used up
        assert store.claims(game_id) == {hand}
        again = Session.resume(store, game_id)
        for each in (resumed, again):
            while not (each.is_human_turn and claimable(each.game, HUMAN) is None):
                assert each.game.hand_number == hand
                each.act(_policy(each)) if each.is_human_turn else each.step()
            assert each.claim_refusal() == "one claim per hand: the hand plays on"
        store.close()

    asyncio.run(test())
