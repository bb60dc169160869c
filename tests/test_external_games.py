"""External programs playing the three- and two-handed games (docs/protocol.md), through
real subprocesses: the views carry the widow, the declarer's discards, the stage,
the turned-up card, the stock and the melds on the table; the programs' answers
``discard C C C``, ``meld CARDS``, ``dix`` and ``no meld`` are read and played; the
``result`` message carries the widow and discards or the meld events; a wrong answer
of another game's kind is refused and changes nothing; matches and demos take them.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from pinochlekit.engine.game import Game
from pinochlekit.engine.games import new_game
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.two.game import TwoHandedGame
from pinochlekit.engine.two.views import TwoHandResult
from pinochlekit.match import run_match, seatings
from pinochlekit.players.external import ExternalPlayer, IllegalResponseError, ProtocolError

ROOT = Path(__file__).resolve().parent.parent
BOT = f"python {ROOT / 'examples' / 'random_bot.py'}"


def greedy_bot(tmp_path: Path) -> str:
    """A bot that counts the dix, else lays the first meld offered, else plays the first
    legal action; answering two-handed actions as bare text and the rest as JSON."""
    path = tmp_path / "greedy.py"
    path.write_text(textwrap.dedent("""\
        import json, sys
        for line in sys.stdin:
            message = json.loads(line)
            if message["type"] == "bye":
                break
            if message["type"] != "act":
                continue
            legal = message["view"]["legal_actions"]
            melds = [a for a in legal if a.startswith("meld ")]
            if "dix" in legal:
                print("dix", flush=True)
            elif melds:
                print(melds[0], flush=True)
            elif "no meld" in legal:
                print("no meld", flush=True)
            else:
                print(json.dumps({"action": legal[0]}), flush=True)
        """), encoding="utf-8")
    return f"python {path}"


def messages(transcript: io.StringIO, prefix: str) -> list[dict[str, Any]]:
    return [json.loads(line[2:]) for line in transcript.getvalue().splitlines()
            if line.startswith(prefix)]


def play_hand(game: Game | TwoHandedGame, players: list[ExternalPlayer]) -> None:
    """Play until the first hand is over with each seat's program, then tell them."""
    try:
        while not game.results:
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            action = players[seat].choose(view)
            assert action in view.legal_actions
            game.apply(action, seat)
        for player in players:
            player.observe(game.results[0])
    finally:
        for player in players:
            player.close()
    for player in players:
        assert player._process is not None and player._process.returncode == 0


def test_three_handed_with_the_widow_taken() -> None:
    game = new_game("three(widow=take)", seed=22, dealer=0)
    assert isinstance(game, Game)
    transcripts = [io.StringIO() for _ in range(3)]
    players = [ExternalPlayer(BOT, seed=f"t{seat}", transcript=transcripts[seat])
               for seat in range(3)]
    play_hand(game, players)
    result = game.results[0]
    declarer = result.declarer
    assert declarer is not None and len(result.discards) == 3
    sent = messages(transcripts[declarer], "> ")
    assert sent[0] == {"type": "hello", "protocol": 1, "seat": declarer,
                       "rules": "three(widow=take)", "players": 3, "seed": f"t{declarer}"}
    acts = [m["view"] for m in sent if m["type"] == "act"]
    answers = [m["action"] for m in messages(transcripts[declarer], "< ")]
    discard = next(i for i, v in enumerate(acts) if v["phase"] == "discard")
    view = acts[discard]
    assert view["widow"] == " ".join(map(str, result.widow))
    assert len(view["hand"].split()) == 18  # 15 and the widow
    assert all(a.startswith("discard ") and len(a.split()) == 4 for a in view["legal_actions"])
    assert answers[discard] == f"discard {' '.join(map(str, result.discards))}"
    later = acts[discard + 1]
    assert later["discards"] == answers[discard].removeprefix("discard ")
    assert len(later["hand"].split()) == 15 and len(later["hand_sizes"]) == 3
    # the opponents see the widow, never the discards
    for seat in {0, 1, 2} - {declarer}:
        views = [m["view"] for m in messages(transcripts[seat], "> ") if m["type"] == "act"]
        assert any(v["widow"] == view["widow"] for v in views)
        assert all(v["discards"] is None for v in views)
    hand = sent[-2]["hand"]
    assert sent[-2]["type"] == "result" and hand["declarer"] == declarer
    assert hand["widow"] == view["widow"] and hand["discards"] == later["discards"]
    assert hand["totals"] == list(game.scores)


def test_two_handed_melds_dix_and_no_meld_from_a_program(tmp_path: Path) -> None:
    game = new_game("two", seed=4)  # melds and a dix exchanged in the first hand
    assert isinstance(game, TwoHandedGame)
    transcripts = [io.StringIO(), io.StringIO()]
    players = [ExternalPlayer(greedy_bot(tmp_path), seed=seat, transcript=transcripts[seat])
               for seat in (0, 1)]
    play_hand(game, players)
    result = game.results[0]
    assert isinstance(result, TwoHandResult)
    answers = [line[2:].strip() for t in transcripts for line in t.getvalue().splitlines()
               if line.startswith("< ")]
    assert any(a.startswith("meld ") for a in answers) and "no meld" in answers
    played = [str(a) for a in game.actions]
    assert sorted(a for a in answers if a.startswith("meld ")) == sorted(
        a for a in played if a.startswith("meld "))
    assert any(not e.name.startswith("dix") for e in result.events)  # melds laid
    seen = [m["view"] for t in transcripts for m in messages(t, "> ") if m["type"] == "act"]
    first = seen[0]
    assert first["game"] == "two-handed" and first["stage"] == "early tricks"
    assert first["stock_size"] == 24 and first["turn_up"] is not None
    assert first["trump"] == first["turn_up"][-1]
    stages = {v["stage"] for v in seen}
    assert stages == {"early tricks", "meld", "last tricks"}
    meld_turns = [v for v in seen if v["stage"] == "meld"]
    assert all("no meld" in v["legal_actions"] for v in meld_turns)
    assert any(side for v in seen for side in v["table"])  # melds on the table, public
    hand = messages(transcripts[0], "> ")[-2]["hand"]
    assert [e["name"] for e in hand["events"]] == [e.name for e in result.events]
    assert hand["target"] == game.target and hand["totals"] == list(game.scores)
    assert "dix" in answers and "dix exchanged" in [e.name for e in result.events]


@pytest.mark.parametrize(("rules", "answer", "error"), [
    ("two", "bid 250", ProtocolError),  # an auction action in the two-handed game
    ("two", "meld KS QS", IllegalResponseError),  # a meld while a card must be played
    ("three", "meld KS QS", ProtocolError),  # a two-handed action in the auction game
])
def test_an_answer_of_another_game_is_refused(tmp_path: Path, rules: str, answer: str,
                                              error: type[Exception]) -> None:
    path = tmp_path / "wrong.py"
    path.write_text(textwrap.dedent(f"""\
        import json, sys
        for line in sys.stdin:
            if json.loads(line)["type"] == "act":
                print({answer!r}, flush=True)
        """), encoding="utf-8")
    game = new_game(rules, seed=1)
    seat = game.to_act
    assert seat is not None
    before = game.record
    with ExternalPlayer(f"python {path}", seed=1) as player, pytest.raises(error) as caught:
        game.apply(player.choose(game.view(seat)), seat)
    assert repr(answer) in str(caught.value)
    assert game.record == before


@pytest.mark.parametrize("rules", ["two", "three(widow=take)"])
def test_a_match_with_a_program(rules: str) -> None:
    result = run_match(f"cmd:{BOT}", "simple", deals=1, seed=5, rules=rules, workers=1)
    again = run_match(f"cmd:{BOT}", "simple", deals=1, seed=5, rules=rules, workers=1)
    assert result.to_dict(timing=False) == again.to_dict(timing=False)
    assert result.work.decisions["A"] > 0
    # both seats (two-handed) or every seat alone (three-handed) played the deal
    assert [len(pair.hands) for pair in result.deals] == [len(seatings(Rules.from_string(rules)))]


def test_demo_with_a_program_in_the_two_handed_game() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pinochlekit", "demo", "--rules", "two(target=300)",
         "--seed", "2", "--players", f"simple,cmd:{BOT}"],
        capture_output=True, text=True, cwd=ROOT, timeout=300, stdin=subprocess.DEVNULL,
        encoding="utf-8")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout.splitlines()[-1].startswith("winner: seat ")
    assert "melds" in done.stdout or "meld" in done.stdout
