"""External programs as players, through the real subprocess protocol (docs/protocol.md).

The example bot plays real hands and matches; every way a program can misbehave
(garbage, a bad JSON answer, an illegal action, sleeping past the timeout,
dying, never starting) gives a clear error naming the program and quoting it,
kills the program, and leaves the game exactly as it was.
"""

from __future__ import annotations

import io
import json
import sys
import textwrap
import time
from pathlib import Path

import pytest

from pinochlekit import Game, Phase
from pinochlekit.engine.views import Outcome
from pinochlekit.match import MatchError, run_match
from pinochlekit.players.external import (
    ExternalPlayer,
    ExternalPlayerError,
    IllegalResponseError,
    PlayerExitedError,
    PlayerTimeoutError,
    ProtocolError,
    is_command,
)

ROOT = Path(__file__).resolve().parent.parent
BOT = f"python {ROOT / 'examples' / 'random_bot.py'}"


def bot(tmp_path: Path, body: str, name: str = "bot.py") -> str:
    """Write a small bot whose ``answer(message)`` returns the line to print (or None)."""
    path = tmp_path / name
    path.write_text(textwrap.dedent("""\
        import json, sys, time
        decisions = 0
        def play_first(message):
            return json.dumps({"action": message["view"]["legal_actions"][0]})
        """) + textwrap.dedent(body) + textwrap.dedent("""\
        for line in sys.stdin:
            message = json.loads(line)
            if message["type"] == "bye":
                break
            if message["type"] == "act":
                decisions += 1
                out = answer(message)
                if out is not None:
                    print(out, flush=True)
        """), encoding="utf-8")
    return f"python {path}"


def play_until_error(game: Game, player: ExternalPlayer, seat: int) -> ExternalPlayerError:
    """Play ``game`` with ``player`` at ``seat`` (first legal action elsewhere) until the
    player fails; check the failure left the game unchanged."""
    while game.winner is None:
        to_act = game.to_act
        assert to_act is not None
        if to_act != seat:
            game.apply(game.legal_actions()[0], to_act)
            continue
        before = game.record
        view = game.view(seat)
        try:
            game.apply(player.choose(view), seat)
        except ExternalPlayerError as error:
            assert game.record == before
            assert game.view(seat) == view
            assert player._process is not None and player._process.poll() is not None
            return error
    raise AssertionError("the player never failed")


# -- the example bot ---------------------------------------------------------


def test_is_command() -> None:
    assert is_command("cmd:python bot.py") and is_command("  cmd: ./bot")
    assert not is_command("simple") and not is_command("pro(rollouts=50)")


def test_random_bot_plays_a_whole_hand_with_the_documented_messages() -> None:
    game = Game.new("pagat", seed=13, dealer=0)
    transcript = io.StringIO()
    players = [ExternalPlayer(BOT, seed=f"s{seat}", transcript=transcript if seat == 1 else None)
               for seat in range(4)]
    try:
        while not game.results:
            seat = game.to_act
            assert seat is not None
            game.apply(players[seat].choose(game.view(seat)), seat)
        for player in players:
            player.observe(game.results[0])
    finally:
        for player in players:
            player.close()
    for player in players:
        assert player._process is not None and player._process.returncode == 0
    lines = transcript.getvalue().splitlines()
    sent = [json.loads(line[2:]) for line in lines if line.startswith("> ")]
    answers = [json.loads(line[2:]) for line in lines if line.startswith("< ")]
    assert sent[0] == {"type": "hello", "protocol": 1, "seat": 1, "rules": "pagat",
                       "players": 4, "seed": "s1"}
    acts = [m for m in sent if m["type"] == "act"]
    assert len(acts) == len(answers) >= 2
    for act, answer in zip(acts, answers, strict=True):
        assert act["view"]["seat"] == 1 and act["view"]["to_act"] == 1
        assert answer["action"] in act["view"]["legal_actions"]
    assert [m["type"] for m in sent[-2:]] == ["result", "bye"]
    assert sent[-2]["hand"]["outcome"] == game.results[0].outcome.value
    assert sent[-2]["hand"]["scores"] == list(game.results[0].scores)


def test_bare_text_answers_and_blank_lines_are_accepted(tmp_path: Path) -> None:
    command = bot(tmp_path, """\
        def answer(message):
            print("", flush=True)  # a blank line first: ignored
            legal = message["view"]["legal_actions"]
            return "pass" if "pass" in legal else legal[0]
        """)
    game = Game.new("pagat", seed=2, dealer=0)
    with ExternalPlayer(command, seed=0) as player:
        while not game.results:
            seat = game.to_act
            assert seat is not None
            action = (player.choose(game.view(seat)) if seat == 1
                      else game.legal_actions()[0])
            game.apply(action, seat)
    assert game.results[0].outcome in tuple(Outcome)


def test_a_match_against_the_example_bot_is_reproducible() -> None:
    first = run_match("simple", f"cmd:{BOT}", deals=2, games=1, seed=5, workers=1)
    second = run_match("simple", f"cmd:{BOT}", deals=2, games=1, seed=5, workers=1)
    assert first.to_dict(timing=False) == second.to_dict(timing=False)
    assert first.work.decisions["B"] > 0
    assert first.hands.mean > 0  # simple beats the random bot on these deals
    # The bot takes either seat: both orientations of every deal were played.
    assert all(len(pair.hands) == 2 for pair in first.deals)


# -- misbehaving programs ----------------------------------------------------


def test_garbage_is_a_protocol_error(tmp_path: Path) -> None:
    command = bot(tmp_path, """\
        def answer(message):
            return "hello there, I am a bot"
        """)
    game = Game.new("pagat", seed=1)
    error = play_until_error(game, ExternalPlayer(command), seat=1)
    assert isinstance(error, ProtocolError)
    message = str(error)
    assert f"program {command!r} at seat 1" in message
    assert "answered 'hello there, I am a bot', which is not an action" in message


def test_bad_json_and_json_without_action_are_protocol_errors(tmp_path: Path) -> None:
    broken = bot(tmp_path, """\
        def answer(message):
            return '{"action": "pass"'
        """, "broken.py")
    error = play_until_error(Game.new("pagat", seed=1), ExternalPlayer(broken), seat=1)
    assert isinstance(error, ProtocolError) and "which is not JSON" in str(error)
    missing = bot(tmp_path, """\
        def answer(message):
            return '{"move": "pass"}'
        """, "missing.py")
    error = play_until_error(Game.new("pagat", seed=1), ExternalPlayer(missing), seat=1)
    assert isinstance(error, ProtocolError)
    assert '\'{"move": "pass"}\': expected {"action": "<action text>"}' in str(error)


def test_hostile_answers_are_short_protocol_errors(tmp_path: Path) -> None:
    """JSON nested past Python's recursion limit, a number too long for Python to read
    and a megabyte of text: each a protocol error of readable length."""
    answers = {"deep": '"[" * 100_000 + "]" * 100_000',
               "digits": """'{"action": ' + "1" * 10_000 + '}'""",
               "long": '"x" * 1_000_000'}
    for name, expression in answers.items():
        command = bot(tmp_path, f"""\
            def answer(message):
                return {expression}
            """, f"{name}.py")
        error = play_until_error(Game.new("pagat", seed=1), ExternalPlayer(command), seat=1)
        assert isinstance(error, ProtocolError), name
        assert f"program {command!r} at seat 1 answered" in str(error)
        assert len(str(error)) < 1000, name
        assert "set_int_max_str_digits" not in str(error)


def test_an_illegal_action_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    # A bid below the opening bid, then (in the play) a card it does not hold.
    command = bot(tmp_path, """\
        def answer(message):
            view = message["view"]
            if view["phase"] == "auction":
                return json.dumps({"action": "bid 100"})
            return play_first(message)
        """)
    game = Game.new("pagat", seed=1, dealer=0)
    error = play_until_error(game, ExternalPlayer(command, seed=3), seat=1)
    assert isinstance(error, IllegalResponseError)
    assert "answered an illegal action '{\"action\": \"bid 100\"}' in the auction" in str(error)
    assert "legal: pass, pass help, bid 250, bid 260" in str(error)
    assert game.phase is Phase.AUCTION and game.to_act == 1


def test_a_card_not_held_is_illegal(tmp_path: Path) -> None:
    command = bot(tmp_path, """\
        def answer(message):
            view = message["view"]
            if view["phase"] == "play":
                held = view["hand"].split()
                missing = [c for c in ("AS", "AH", "AD", "AC", "9S", "9H") if c not in held]
                return "play " + missing[0]
            return play_first(message)
        """)
    game = Game.new("pagat", seed=4, dealer=0)
    error = play_until_error(game, ExternalPlayer(command), seat=1)
    assert isinstance(error, IllegalResponseError)
    assert "in the play; legal: play " in str(error)
    assert game.phase is Phase.PLAY


def test_sleeping_past_the_timeout(tmp_path: Path) -> None:
    command = bot(tmp_path, """\
        def answer(message):
            if decisions == 2:
                print("thinking very hard", file=sys.stderr, flush=True)
                time.sleep(60)
            return play_first(message)
        """)
    player = ExternalPlayer(command, timeout=0.5)
    started = time.monotonic()
    error = play_until_error(Game.new("pagat", seed=1), player, seat=1)
    assert time.monotonic() - started < 20
    assert isinstance(error, PlayerTimeoutError)
    assert "did not answer within 0.5 s" in str(error)
    assert "its stderr ended: thinking very hard" in str(error)


def test_a_program_that_exits_or_crashes(tmp_path: Path) -> None:
    command = bot(tmp_path, """\
        def answer(message):
            if decisions == 3:
                sys.exit(3)
            return play_first(message)
        """, "exits.py")
    error = play_until_error(Game.new("pagat", seed=1), ExternalPlayer(command), seat=1)
    assert isinstance(error, PlayerExitedError)
    assert "exited with status 3 before answering" in str(error)
    crash = bot(tmp_path, """\
        def answer(message):
            return str(1 / 0)
        """, "crash.py")
    error = play_until_error(Game.new("pagat", seed=1), ExternalPlayer(crash), seat=1)
    assert isinstance(error, PlayerExitedError)
    assert "exited with status 1" in str(error)
    assert "ZeroDivisionError: division by zero" in str(error)


def test_a_program_that_cannot_start() -> None:
    player = ExternalPlayer("cmd:no-such-program-anywhere --flag")
    with pytest.raises(PlayerExitedError, match="cannot start program "
                       "'no-such-program-anywhere --flag'"):
        player.choose(Game.new("pagat", seed=1).view(1))
    with pytest.raises(ExternalPlayerError, match="empty program command"):
        ExternalPlayer("cmd:  ")
    with pytest.raises(ExternalPlayerError, match="bad program command"):
        ExternalPlayer("cmd:python 'unclosed")


def test_close_is_idempotent_and_a_closed_player_refuses_to_play() -> None:
    player = ExternalPlayer(BOT)
    game = Game.new("pagat", seed=1, dealer=0)
    player.choose(game.view(1))
    process = player._process
    player.close()
    player.close()
    assert process is not None and process.returncode == 0
    with pytest.raises(ExternalPlayerError, match="was closed"):
        player.choose(game.view(1))


def test_a_failing_program_stops_a_match_naming_it(tmp_path: Path) -> None:
    command = bot(tmp_path, """\
        def answer(message):
            return "play XX"
        """)
    with pytest.raises(MatchError) as caught:
        run_match("simple", f"cmd:{command}", deals=2, seed=1, workers=1)
    message = str(caught.value)
    assert message.startswith("deal 0 (A at seats 0 and 2), seat 1 (B: cmd:python ")
    assert "answered 'play XX', which is not an action: bad action 'play XX'" in message


@pytest.mark.skipif(sys.platform == "win32", reason="process groups are POSIX")
def test_kill_reaches_the_programs_children(tmp_path: Path) -> None:
    # A shell wrapper whose child holds the pipes: the whole group is killed.
    command = f"sh -c 'sleep 60; {sys.executable} -c pass'"
    player = ExternalPlayer(command, timeout=0.3)
    started = time.monotonic()
    with pytest.raises(PlayerTimeoutError):
        player.choose(Game.new("pagat", seed=1).view(1))
    player.close()
    assert time.monotonic() - started < 10
