"""The table's session logic and the saved-games store, in process.

The interfaces (tests/test_tui.py, tests/test_plain.py) drive the same code
through their real surfaces; these tests pin the rules of the session itself:
computer moves reproducible from (seed, seat, position), every action saved
as it happens, undo and hints and their settings, messages that name the rule.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from pinochlekit import Card, Phase, PinochleError
from pinochlekit.engine.actions import Bid, Pass, Play
from pinochlekit.engine.games import new_any_game
from pinochlekit.engine.rules import Rules
from pinochlekit.players import PLAYERS, PlayerSpecError, plays
from pinochlekit.players.seat import Seat
from pinochlekit.tui.session import HUMAN, Session, Settings, check_level, hint_level
from pinochlekit.tui.store import GameStore, StoreError


def first_legal(session: Session) -> str:
    """A fixed, simple policy for the person: pass if allowed, else the first legal action."""
    legal = session.game.legal_actions()
    return str(Pass() if Pass() in legal else legal[0])


def run_until(session: Session, stop: object, limit: int = 5000) -> None:
    for _ in range(limit):
        if callable(stop) and stop():
            return
        if session.is_over:
            return
        if session.is_human_turn:
            session.act(first_legal(session))
        else:
            session.step()
    raise AssertionError("the game did not reach the stop condition")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[GameStore]:
    store = GameStore(tmp_path / "games.sqlite3")
    yield store
    store.close()


def test_every_action_is_saved_as_it_happens(store: GameStore) -> None:
    session = Session.new("playingcards", seed=4, levels=["easy"], store=store)
    assert session.game_id is not None
    run_until(session, lambda: len(session.game.actions) >= 30)
    saved = store.load(session.game_id)
    assert saved.actions == tuple(str(a) for a in session.game.actions)
    assert saved.seats == ("you", "easy", "easy", "easy")
    assert saved.record.replay().record == session.game.record


def test_resume_replays_and_the_computers_play_on_identically(store: GameStore) -> None:
    # One game played straight through, one interrupted and resumed: same actions.
    straight = Session.new("playingcards", seed=9, levels=["easy", "standard", "easy"])
    run_until(straight, lambda: len(straight.game.results) >= 2)
    broken = Session.new("playingcards", seed=9, levels=["easy", "standard", "easy"],
                         store=store)
    run_until(broken, lambda: broken.game.phase is Phase.PLAY and len(broken.game.trick) == 2)
    resumed = Session.resume(store)
    assert resumed.game.record == broken.game.record
    assert resumed.actors == broken.actors
    run_until(resumed, lambda: len(resumed.game.results) >= 2)
    n = len(straight.game.actions)
    assert [str(a) for a in resumed.game.actions[:n]] == [str(a) for a in straight.game.actions]


def test_undo_takes_back_the_persons_action_and_the_computer_moves_after_it(
        store: GameStore) -> None:
    session = Session.new("pagat", seed=2, levels=["easy"], store=store)
    run_until(session, lambda: session.is_human_turn)
    before = [str(a) for a in session.game.actions]
    session.act(first_legal(session))
    run_until(session, lambda: session.is_human_turn)
    assert len(session.game.actions) > len(before) + 1
    lines = session.undo()
    assert lines[0].startswith("undone: ")
    assert [str(a) for a in session.game.actions] == before
    assert session.game_id is not None
    assert list(store.load(session.game_id).actions) == before


def test_undo_and_hints_can_be_switched_off() -> None:
    session = Session.new("pagat", seed=2, levels=["easy"],
                          settings=Settings(hints=False, undo=False))
    run_until(session, lambda: session.is_human_turn)
    with pytest.raises(PinochleError, match="hints are switched off"):
        session.hint()
    session.act(first_legal(session))
    with pytest.raises(PinochleError, match="undo is switched off"):
        session.undo()


def test_a_hint_names_an_action_and_plays_nothing() -> None:
    session = Session.new("pagat", seed=2, levels=["easy"])
    run_until(session, lambda: session.is_human_turn)
    actions = list(session.game.actions)
    hint = session.hint()
    assert hint.startswith(f"hint ({hint_level()}): ")
    assert session.game.actions == actions
    advice = session.hint_advice(session.hint_request())
    assert advice.action in session.game.legal_actions()
    assert hint == f"hint ({hint_level()}): {advice.sentence}"
    # the sentence names the action first: "Bid 260: …", "Pass: …"
    said = hint.split(": ")[1].lower()
    assert said.split(" (")[0] in {str(a) for a in session.game.legal_actions()}


def test_an_illegal_card_is_refused_with_the_rule_and_nothing_changes() -> None:
    session = Session.new("pagat", seed=2, levels=["easy"])
    for _ in range(400):
        run_until(session, lambda: session.is_human_turn)
        legal = session.legal_cards()
        held = set(session.game.hand(HUMAN).cards())
        if session.game.phase is Phase.PLAY and held - legal:
            break
        session.act(first_legal(session))
    else:
        raise AssertionError("never had an illegal card")
    card = sorted(held - legal)[0]
    record = session.game.record
    with pytest.raises(PinochleError) as refused:
        session.act(f"play {card}")
    message = str(refused.value)
    assert message.startswith(f"illegal play {card}: ")
    assert "seat 0" not in message
    assert any(str(c) in message for c in legal)
    assert session.game.record == record


def test_shortcuts_read_the_phase() -> None:
    session = Session.new("pagat", seed=2, levels=["easy"])
    run_until(session, lambda: session.is_human_turn)
    assert session.game.phase is Phase.AUCTION
    assert session.parse("300") == Bid(300)
    with pytest.raises(PinochleError, match="you may bid"):
        session.parse("AS")
    assert session.parse("play 10S") == Play(Card("TS"))
    with pytest.raises(PinochleError, match="cannot play TS during the auction"):
        session.act("play 10S")


def test_moves_are_refused_out_of_turn() -> None:
    session = Session.new("pagat", seed=1, levels=["easy"])  # dealer 0: West bids first
    assert not session.is_human_turn
    with pytest.raises(PinochleError, match="wait: it is West's turn"):
        session.act("pass")


def test_levels_are_checked() -> None:
    assert check_level("easy") == "easy"
    with pytest.raises(PlayerSpecError, match="external programs"):
        check_level("cmd:python bot.py")
    with pytest.raises(PlayerSpecError, match="unknown level 'grandmaster'; levels: easy, "):
        check_level("grandmaster")
    if "expert" not in PLAYERS:
        with pytest.raises(PlayerSpecError, match="expert level is not available yet"):
            check_level("expert")
    with pytest.raises(PlayerSpecError, match="one level or 3"):
        Session.new("pagat", levels=["easy", "pro"])


def test_hidden_cards_are_not_told() -> None:
    # Cards passed between two computer seats are never named to the person.
    session = Session.new("pagat", seed=0, levels=["easy"])
    told: list[str] = []
    for _ in range(3000):
        if session.is_over or len(session.game.results) >= 6:
            break
        if session.is_human_turn:
            told += session.act(first_legal(session))
        else:
            told += session.step()
    passes = [line for line in told if " cards to " in line]
    assert passes
    for line in passes:
        named = ": " in line
        assert named == ("You" in line), line


def test_a_damaged_database_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="cannot open the saved games"):
        GameStore(path)
    good = GameStore(tmp_path / "ok.sqlite3")
    game_id = good.create("pagat", 1, 0, ["you", "easy", "easy", "easy"], {})
    good.append(game_id, 0, 1, "bid 250")
    good.append(game_id, 1, 2, "fly away")
    with pytest.raises(StoreError, match="cannot be resumed"):
        Session.resume(good, game_id)
    with pytest.raises(StoreError, match="no saved game 99"):
        good.load(99)
    db = sqlite3.connect(tmp_path / "ok.sqlite3")
    with db:
        db.execute("UPDATE games SET seats = 'nonsense' WHERE id = ?", (game_id,))
    db.close()
    with pytest.raises(StoreError, match="damaged"):
        good.load(game_id)
    good.close()


def test_resume_without_a_game_says_so(store: GameStore) -> None:
    with pytest.raises(StoreError, match="no unfinished game"):
        Session.resume(store)
    finished = Session.new("playingcards", seed=3, levels=["easy"], store=store)
    run_until(finished, lambda: False)
    assert finished.is_over
    assert finished.game_id is not None
    assert store.load(finished.game_id).finished
    with pytest.raises(StoreError, match="no unfinished game"):
        Session.resume(store)
    assert [g.id for g in store.games()] == [finished.game_id]


@pytest.mark.parametrize(("rules", "seed", "note"), [
    ("doubledeck", 1, "both sides reached 500 in the last hand: the declaring side wins"),
    ("three", 16, "more than one player reached 1000 in the last hand: the declarer wins"),
])
def test_game_over_says_why_the_declaring_side_wins_with_fewer_points(
        rules: str, seed: int, note: str) -> None:
    """Both over the target in one hand, the declaring side wins (docs/rules.md §1.12,
    §3, §6): the game of ``pinochle demo --seed S`` (its players, its seeds) ends
    with the winner behind, and the terminal's last line says why."""
    game = new_any_game(Rules.from_string(rules), seed=seed, dealer=0)
    name = "simple" if plays("simple", game.rules) else "random"  # as the demo chooses
    seats = [Seat.new(name, seat, game.seed) for seat in range(game.rules.players)]
    for _ in range(20_000):
        if game.winner is not None:
            break
        seat = game.to_act
        assert seat is not None
        game.apply(seats[seat].choose(game.view(seat)), seat)
        for each in seats:
            each.observe(game.results)
    assert game.winner is not None, "no winner in 20,000 actions"
    winner = game.scores[game.winner]
    assert any(score >= winner for side, score in enumerate(game.scores) if side != game.winner)
    session = Session(game, ["you", *[name] * (game.rules.players - 1)])
    text = session.game_over_text()
    assert text.startswith("game over: ") and text.endswith(f"; {note})"), text
