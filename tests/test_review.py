"""The review of a finished hand (pinochlekit.review): a known blunder is marked, the
expert's own choices are not, values carry their noise, the review never runs on a
hand in play, and the command line prints it (text and JSON)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import auction_game

from pinochlekit import ALL_CARDS, Game, Hand, Phase, parse_action
from pinochlekit.engine.double.game import DoubleDeckGame
from pinochlekit.engine.games import new_game, replay
from pinochlekit.engine.two.game import TwoHandedGame
from pinochlekit.engine.two.views import TwoStage
from pinochlekit.players import make_player
from pinochlekit.review import ReviewError, review_hand

STRONG = Hand.parse("AS TS KS QS JS AS TS KS AH AD AC QD")  # a run in spades, aces around


def _deal() -> list[Hand]:
    """Seat 1 (first to bid after dealer 0) holds :data:`STRONG`; the rest in deck order."""
    left = [c for c in ALL_CARDS for _ in range(2)]
    for card in STRONG:
        left.remove(card)
    return [Hand.from_cards(left[0:12]), STRONG, Hand.from_cards(left[12:24]),
            Hand.from_cards(left[24:36])]


def _first_cards(game: Game, seat: int, verb: str) -> str:
    return f"{verb} " + " ".join(str(c) for c in list(game.hand(seat))[:4])


def thrown_in() -> Game:
    """Seat 1 wins the auction at 250 with a run and four aces, names spades, takes
    and returns four cards, then throws in a contract it cannot miss (docs/rules.md §1
    Play, throw-in): the known blunder."""
    game = Game.new("pagat", seed=1, dealer=0, deals=[_deal()])
    for text in ("bid 250", "pass", "pass", "pass", "trump S"):
        game.apply(parse_action(text))
    game.apply(parse_action(_first_cards(game, 3, "give")))
    game.apply(parse_action(_first_cards(game, 1, "return")))
    assert game.phase is Phase.PLAY and game.to_act == 1
    game.apply(parse_action("throw in"))
    return game


def test_throwing_in_a_sure_contract_is_marked_as_a_blunder() -> None:
    game = thrown_in()
    review = review_hand(game.record, 1, 1, time=0.1, repeats=2, seed=1)
    concede = [d for d in review.decisions if d.phase == "throw in"]
    assert len(concede) == 1, review.text()
    decision = concede[0]
    assert decision.chosen == "throw in" and decision.best == "play on"
    assert decision.loss > 100 and decision.loss > 2 * decision.noise
    assert decision.mark == "??"
    assert review.declarer == 1 and review.contract == 250
    assert "??" in review.text() and "play on" in review.text()


def test_the_experts_own_choices_are_not_marked() -> None:
    """Seat 0 plays a whole hand as ``expert`` at the review's budget and seed: every
    decision where the review's best is the chosen option has no loss and no mark."""
    game = Game.new("pagat", seed=11)
    players = [make_player("expert(time=0.1)", seed=3)] + \
        [make_player("standard", seed=s) for s in (1, 2, 3)]
    while game.hand_number == 1 and game.phase is not Phase.GAME_OVER:
        seat = game.to_act
        assert seat is not None
        game.apply(players[seat].choose(game.view(seat)))
    review = review_hand(game.record, 1, 0, time=0.1, repeats=2, seed=5)
    assert review.decisions, review.text()
    agreed = [d for d in review.decisions if d.best == d.chosen]
    assert agreed, review.text()
    for decision in agreed:
        assert decision.loss == 0 and decision.mark == "", decision
    for decision in review.decisions:  # a mark always exceeds twice the noise
        if decision.mark:
            assert decision.loss > 2 * decision.noise


def test_a_review_is_deterministic_and_sees_only_the_seats_view() -> None:
    game = thrown_in()
    a = review_hand(game.record, 1, 2, time=0.05, repeats=2, seed=4)
    b = review_hand(game.record, 1, 2, time=0.05, repeats=2, seed=4)
    assert a.to_dict() == b.to_dict()
    # the decisions reviewed are exactly seat 2's with a choice: its passes in the auction
    assert [d.phase for d in a.decisions] == ["auction"]
    # what expert would have bid: the auction decision's best option, in the text too
    first = a.decisions[0]
    assert a.auction == f"{first.best} (the seat chose {first.chosen})"
    assert first.best in {o.name for o in first.options}
    assert first.best.startswith(("bid ", "pass")) and f"expert would {a.auction}" in a.text()


def test_a_hand_in_play_or_out_of_the_record_is_refused() -> None:
    game = Game.new("pagat", seed=2)
    for _ in range(3):
        game.apply(game.legal_actions()[0])
    with pytest.raises(ReviewError, match="not finished"):
        review_hand(game.record, 1, 0, time=0.05, repeats=2)
    finished = thrown_in()
    with pytest.raises(ReviewError, match="finished hands are 1 to 1"):
        review_hand(finished.record, 5, 0, time=0.05, repeats=2)
    with pytest.raises(ReviewError, match="seat 7"):
        review_hand(finished.record, 1, 7, time=0.05, repeats=2)
    with pytest.raises(ReviewError, match="repeats"):
        review_hand(finished.record, 1, 1, time=0.05, repeats=1)
    with pytest.raises(ReviewError, match="double dummy: 0 to 15"):
        review_hand(finished.record, 1, 1, time=0.05, repeats=2, double_dummy=16)


def _standard_hand(seed: int) -> Game:
    """Hand 1 of a pagat game of four ``standard`` players, played to its end."""
    game = Game.new("pagat", seed=seed)
    players = [make_player("standard", seed=s) for s in range(4)]
    while game.hand_number == 1 and game.phase is not Phase.GAME_OVER:
        seat = game.to_act
        assert seat is not None
        game.apply(players[seat].choose(game.view(seat)))
    return game


def test_the_double_dummy_line_is_the_solvers_from_the_first_lead() -> None:
    """A hand played to the end: a perfect-play value at the start of every trick from
    the earliest the review's search budget reaches (this deal: the third; the first
    two need more) to the last, each the exact solver's for the position replayed from
    the record (the Python reference search for the last six tricks, the C search
    before); at the last trick nobody has a choice, so it equals what was taken. With a
    smaller budget the line starts later, with the same values."""
    from pinochlekit.players.search.solver import Endgame, solve

    game = _standard_hand(8)
    result = game.results[0]
    assert result.declarer is not None, "seed 8 deals a hand with a declarer"
    review = review_hand(game.record, 1, (result.declarer + 1) % 4, time=0.05, repeats=2)
    line = review.double_dummy
    assert line and [d.trick for d in line] == list(range(line[0].trick, 13)), review.text()
    assert line[0].trick <= 3, review.text()
    team = game.rules.team_of(result.declarer)
    starts = [ply for ply in range(len(game.record.actions))
              if (g := replay(game.record, ply)).phase is Phase.PLAY and not g.trick
              and g.hand_number == 1]
    assert len(starts) == 12
    for dd, ply in zip(line, starts[line[0].trick - 1:], strict=True):
        position = replay(game.record, ply)
        assert isinstance(position, Game) and position.trump is not None
        assert position.to_act is not None
        end = Endgame(trump=int(position.trump),
                      hands=tuple(position.hand(s) for s in range(4)),
                      to_act=position.to_act, first_trick=dd.trick == 1)
        exact = solve(game.rules, end, team, native=dd.trick < 7)
        assert dd.perfect == exact, (dd, exact)
        assert dd.actual == result.trick_points[team] - position.public_view().trick_points[team]
    assert line[-1].perfect == line[-1].actual
    small = review_hand(game.record, 1, (result.declarer + 1) % 4, time=0.05, repeats=2,
                        double_dummy_positions=20_000)
    assert 0 < len(small.double_dummy) < len(line)
    assert list(small.double_dummy) == list(line[-len(small.double_dummy):])


def test_pinochle_review_prints_text_and_json(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(thrown_in().record.to_json(), encoding="utf-8")
    run = [sys.executable, "-m", "pinochlekit", "review", str(path), "--hand", "1",
           "--seat", "1", "--time", "0.05", "--repeats", "2"]
    text = subprocess.run(run, capture_output=True, text=True, timeout=300, check=True)
    assert "??" in text.stdout and "throw in" in text.stdout
    data = json.loads(subprocess.run([*run, "--json"], capture_output=True, text=True,
                                     timeout=300, check=True).stdout)
    assert data["format"] == "pinochlekit-review/1" and data["seat"] == 1
    assert any(d["mark"] == "??" for d in data["decisions"])
    bad = subprocess.run([*run[:5], "--hand", "9", "--seat", "1"], capture_output=True,
                         text=True, timeout=300)
    assert bad.returncode == 2 and "pinochle: error: hand 9" in bad.stderr


def test_a_record_that_is_not_a_game_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "nothing"}', encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "pinochlekit", "review", str(path)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and run.stderr.startswith("pinochle: error:")


@pytest.mark.parametrize("rules", ["three", "two"])
def test_three_and_two_handed_hands_are_reviewed(rules: str) -> None:
    """docs/rules.md §3 and §4: the same review; every card decision names a card of
    the seat's hand."""
    game = _played(rules, 3)
    review = review_hand(game.record, 1, 0, time=0.05, repeats=2)
    assert review.decisions
    dealt = {str(c) for c in replay(game.record, 0).hand(0)}
    for decision in review.decisions:
        if decision.trick and decision.phase not in ("throw in",):
            assert decision.chosen in dealt or rules == "two", decision
    assert ("two-handed" in review.text()) == (rules == "two")


def _played(rules: str, seed: int) -> Game | TwoHandedGame | DoubleDeckGame:
    game = new_game(rules, seed=seed)
    players = [make_player("standard", seed=s) for s in range(game.rules.players)]
    while game.hand_number == 1 and game.phase is not Phase.GAME_OVER:
        seat = game.to_act
        assert seat is not None
        game.apply(players[seat].choose(game.view(seat)))
    return game


def _trick_starts(game: Game | TwoHandedGame | DoubleDeckGame) -> list[int]:
    """The plies of hand 1 at which a trick is about to be led."""
    out = []
    for ply in range(len(game.record.actions) + 1):
        g = replay(game.record, ply)
        if g.hand_number == 1 and g.phase is Phase.PLAY and not g.trick \
                and g.to_act is not None and len(g.hand(g.to_act)):
            out.append(ply)
    return out


def test_the_three_handed_double_dummy_line_is_the_solvers_plus_the_cards_set_aside(
        ) -> None:
    """docs/rules.md §3: at each trick start from the first lead, the declarer's perfect
    play value is the exact three-handed solver's (the Python reference search for the
    last six tricks) plus the points of the cards set aside, which count for the
    declarer; the last trick has no choice, so it equals what was taken."""
    from pinochlekit.players.search.solver import Endgame, solve

    game = _played("three", 3)
    assert isinstance(game, Game)
    result = game.results[0]
    declarer = result.declarer
    assert declarer is not None, "seed 3 deals a three-handed hand with a declarer"
    review = review_hand(game.record, 1, 1, time=0.05, repeats=2)
    line = review.double_dummy
    assert [d.trick for d in line] == list(range(1, 16)), review.text()
    assert not review.double_dummy_note
    won = sum(t.points for t in result.tricks if t.winner == declarer)
    aside = result.trick_points[declarer] - won
    assert aside > 0
    starts = _trick_starts(game)
    assert len(starts) == 15
    for dd, ply in zip(line, starts, strict=True):
        position = replay(game.record, ply)
        assert isinstance(position, Game) and position.trump is not None
        assert position.to_act is not None
        end = Endgame(trump=int(position.trump),
                      hands=tuple(position.hand(s) for s in range(3)),
                      to_act=position.to_act, first_trick=dd.trick == 1, declarer=declarer)
        exact = solve(game.rules, end, declarer, native=dd.trick < 10)
        assert dd.perfect == exact + aside, (dd, exact, aside)
        assert dd.seat == declarer
    assert line[-1].perfect == line[-1].actual
    assert "double dummy from trick 1: the declarer takes" in review.text()


def test_the_two_handed_double_dummy_line_covers_the_last_twelve_tricks() -> None:
    """docs/rules.md §4: once the stock is drawn every card is known; from trick 13 on the
    line is the reviewed seat's perfect-play trick points by the exact two-handed
    solver (its Python search, against the C one the review uses), and the review
    says why the first twelve tricks have none."""
    from pinochlekit.players.two.solver import LateSolver

    game = _played("two", 3)
    assert isinstance(game, TwoHandedGame)
    review = review_hand(game.record, 1, 1, time=0.05, repeats=2)
    line = review.double_dummy
    assert [d.trick for d in line] == list(range(13, 25)), review.text()
    assert "tricks 1 to 12" in review.double_dummy_note
    assert "double dummy: tricks 1 to 12" in review.text()
    assert review.to_dict()["double_dummy_note"] == review.double_dummy_note
    taken = game.results[0].trick_points[1]
    by_trick = {d.trick: d for d in line}
    for ply in range(len(game.record.actions)):
        g = replay(game.record, ply)
        assert isinstance(g, TwoHandedGame)
        if g.hand_number != 1 or g.stage is not TwoStage.LATE or g.trick \
                or g.to_act is None or not len(g.hand(0)):
            continue
        dd = by_trick.pop(len(g.tricks) + 1)
        solver = LateSolver(g.rules, int(g.trump), native=False)
        leader = g.to_act
        diff = solver.value(g.hand(leader), g.hand(1 - leader))
        rest = sum(solver.points[int(c)] for s in (0, 1) for c in g.hand(s)) + solver.bonus
        assert dd.perfect == (rest + (diff if leader == 1 else -diff)) // 2
        assert dd.actual == taken - g.trick_points[1]
    assert not by_trick
    assert line[-1].perfect == line[-1].actual


def test_pinochle_history_reviews_a_saved_hand(tmp_path: Path) -> None:
    """docs/review.md: ``pinochle history ID --hand N --review`` reviews the person's
    seat in a finished hand of a saved game, and refuses a hand not finished."""
    from helpers import history

    from pinochlekit.tui.session import Session
    from pinochlekit.tui.store import GameStore

    store = GameStore(tmp_path / "games.sqlite3")
    session = Session.new("pagat", seed=5, levels=["easy"], store=store)
    while not auction_game(session).results:
        if session.is_human_turn:
            seat = session.game.to_act
            assert seat is not None
            session.act(session.game.legal_actions()[0])
        else:
            session.step()
    game_id = session.game_id
    store.close()
    done = history(tmp_path, str(game_id), "--hand", "1", "--review", "--time", "0.05")
    assert done.returncode == 0, done.stderr
    assert "?: lost 10 points or more" in done.stdout and "Hand 1, seat 0" in done.stdout
    # cards for people (K♦ 10♣), never the compact form of the protocol
    assert re.search(r"(10|[9JQKA])[♠♥♦♣]", done.stdout), done.stdout
    assert not re.search(r"\b[9JQKTA][SHDC]\b", done.stdout), done.stdout
    bad = history(tmp_path, str(game_id), "--hand", "2", "--review")
    assert bad.returncode == 2 and "a finished hand of game" in bad.stderr, bad.stderr


def test_where_every_card_is_known_the_review_gives_the_solvers_values() -> None:
    """Two-handed, once the stock is gone every card is known (docs/rules.md §4): each
    card's value in the review is the exact solver's, with no noise."""
    from pinochlekit.engine.cards import Card
    from pinochlekit.engine.two.views import TwoHandedView
    from pinochlekit.players.two.expert import late_values

    game = new_game("two", seed=4)
    players = [make_player("standard", seed=s) for s in range(2)]
    while game.hand_number == 1 and game.phase is not Phase.GAME_OVER:
        seat = game.to_act
        assert seat is not None
        game.apply(players[seat].choose(game.view(seat)))
    review = review_hand(game.record, 1, 0, time=0.05, repeats=2)
    checked = 0
    for decision in review.decisions:
        view = replay(game.record, decision.ply).view(0)
        assert isinstance(view, TwoHandedView)
        if view.stock_size or not decision.trick:
            continue
        exact = {str(Card(c)): float(v) for c, v in late_values(view).items()}
        got = {o.name: o.value for o in decision.options}
        assert got == exact, (decision.ply, got, exact)
        assert all(o.noise == 0 for o in decision.options)
        checked += 1
    assert checked, review.text()


def test_a_jump_bid_and_a_pass_outside_the_candidates_are_valued() -> None:
    """Seat 1 jumps from the opening 250 to 1000 with 250 of meld (the contract cannot be
    made: a set); the review values the jump as declaring at 1000 on the same deals, so
    the loss against bidding 250 is measured and marked. Every pass of cards the seat
    made carries a value too, in or out of ``expert``'s candidates."""
    game = Game.new("pagat", seed=1, dealer=0, deals=[_deal()])
    for text in ("bid 1000", "pass", "pass", "pass", "trump S"):
        game.apply(parse_action(text))
    game.apply(parse_action(_first_cards(game, 3, "give")))
    game.apply(parse_action(_first_cards(game, 1, "return")))
    if game.hand_number == 1:  # the declarer may concede (or the hand ended by itself)
        game.apply(parse_action("throw in"))
    assert game.hand_number == 2
    review = review_hand(game.record, 1, 1, time=0.1, repeats=2, seed=2)
    bid = next(d for d in review.decisions if d.phase == "auction")
    values = {o.name: o.value for o in bid.options}
    assert bid.chosen == "bid 1000" and values["bid 1000"] is not None, review.text()
    assert values["bid 250"] is not None and values["bid 250"] > values["bid 1000"] + 100
    assert bid.best != "bid 1000" and bid.loss > 100 and bid.mark == "??", review.text()
    returned = next(d for d in review.decisions if d.phase == "return")
    assert {o.name: o.value for o in returned.options}[returned.chosen] is not None
    giver = review_hand(game.record, 1, 3, time=0.1, repeats=2, seed=2)
    given = next(d for d in giver.decisions if d.phase == "give")
    assert {o.name: o.value for o in given.options}[given.chosen] is not None, giver.text()


def _perfect(game: Any, team: int, results: int) -> int:
    """The trick points ``team`` ends the hand with when every seat plays perfectly from
    here: a plain minimax over the engine's own legal plays (apply, recurse, undo),
    written apart from the solvers the review uses."""
    if len(game.results) > results:
        return int(game.results[-1].trick_points[team])
    seat = game.to_act
    values = []
    for action in game.legal_actions():
        game.apply(action)
        values.append(_perfect(game, team, results))
        game.undo()
    return max(values) if seat % 2 == team else min(values)


def test_a_double_deck_hand_is_reviewed_with_its_own_expert_and_solver(
        tmp_path: Path) -> None:
    """docs/review.md "The double deck": every decision valued by the double deck's
    expert; the double-dummy line over the last four tricks equals a brute-force
    minimax of the engine's own plays; ``pinochle review`` prints it."""
    from pinochlekit.engine.games import new_any_game
    from pinochlekit.review import DOUBLE_DECK_TRICKS

    game = new_any_game("doubledeck", seed=3)
    assert isinstance(game, DoubleDeckGame)
    players = [make_player("standard", seed=s) for s in range(4)]
    starts: dict[int, Any] = {}  # trick number -> the game at that trick's first lead
    while not game.results:
        seat = game.to_act
        assert seat is not None
        if game.phase is Phase.PLAY and not game.trick and game.declarer is not None \
                and len(game.hand(game.declarer)) <= 2:
            starts[len(game.tricks) + 1] = game.copy()
        game.apply(players[seat].choose(game.view(seat)))
    result = game.results[0]
    assert result.declarer is not None and sorted(starts) == [19, 20], (result, starts)
    declarer = result.declarer
    review = review_hand(game.record, 1, declarer, time=0.05, repeats=2)
    phases = {d.phase for d in review.decisions}
    assert "auction" in phases and "play" in phases, review.text()
    for d in review.decisions:
        assert len([o for o in d.options if o.value is not None]) >= 2, d
    line = {d.trick: d for d in review.double_dummy}
    assert sorted(line) == list(range(21 - DOUBLE_DECK_TRICKS, 21)), review.text()
    team = declarer % 2
    assert line[20].perfect == line[20].actual  # one card each: nothing to choose
    for trick, start in starts.items():
        before = start.trick_points[team]
        assert line[trick].perfect == _perfect(start, team, 0) - before, trick
        assert line[trick].actual == result.trick_points[team] - before, trick
    assert "double deck's solver" in review.double_dummy_note, review.double_dummy_note
    path = tmp_path / "double.json"
    path.write_text(game.record.to_json(), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "pinochlekit", "review", str(path), "--hand",
                          "1", "--seat", str(declarer), "--time", "0.05", "--repeats", "2"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert f"double dummy from trick {21 - DOUBLE_DECK_TRICKS}: the declaring side" \
        in run.stdout, run.stdout


def test_pinochle_review_shows_its_progress_on_a_terminal(tmp_path: Path) -> None:
    """On a terminal (a real pseudo-terminal as stderr) ``pinochle review`` draws
    "reviewing: decision n of m" while it works, ending at m of m; stdout, a pipe,
    holds only the review."""
    import os
    import pty

    path = tmp_path / "game.json"
    path.write_text(thrown_in().record.to_json(), encoding="utf-8")
    master, slave = pty.openpty()
    child = subprocess.Popen([sys.executable, "-m", "pinochlekit", "review", str(path),
                              "--seat", "1", "--time", "0.05", "--repeats", "2"],
                             stdout=subprocess.PIPE, stderr=slave, text=True)
    os.close(slave)
    out, _ = child.communicate(timeout=300)
    said = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the child has closed its end
            break
        if not chunk:
            break
        said += chunk
    os.close(master)
    assert child.returncode == 0
    steps = [line for line in said.decode().replace("\r\n", "\n").split("\r") if line]
    assert steps and all(s.strip().startswith("reviewing: decision ") for s in steps), said
    last = steps[-1].split()
    assert last[2] == last[4], steps  # "reviewing: decision m of m"
    assert out.startswith("Hand 1, seat 1") and "reviewing" not in out
