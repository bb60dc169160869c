"""Shared helpers of the subprocess tests of the terminal table: ``pinochle play
--plain`` as a child process with pipes, a loop answering its turns, and
``pinochle history``; used by ``test_plain.py`` (four-handed),
``test_plain_two.py`` and ``test_plain_three.py``.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pinochlekit.engine.double.game import DoubleDeckGame
from pinochlekit.engine.game import Game
from pinochlekit.engine.two.game import TwoHandedGame

__all__ = ["ROOT", "Plain", "answer_turns", "auction_game", "environment", "history",
           "two_game"]

#: The checkout: the child processes run there with ``src`` on their path.
ROOT = Path(__file__).resolve().parent.parent

#: Seconds before a child that hangs is killed (the test then fails, never hangs).
WATCHDOG = 300


def environment(data: Path | None = None) -> dict[str, str]:
    """The environment of a ``python -m pinochlekit`` child: this checkout's sources,
    UTF-8 output and, if given, ``data`` as the directory of the saved games."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "PYTHONIOENCODING": "utf-8"}
    if data is not None:
        env["PINOCHLEKIT_DATA"] = str(data)
    return env


class Plain:
    """``pinochle play --plain`` as a child process with pipes."""

    def __init__(self, data: Path, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "pinochlekit", "play", "--plain", *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            encoding="utf-8", bufsize=1, env=environment(data), cwd=ROOT)
        self.watchdog = threading.Timer(WATCHDOG, self.proc.kill)
        self.watchdog.start()
        self.lines: list[str] = []

    def until_turn(self) -> list[str]:
        """Read up to and including the next ``your turn:`` line (or to the end)."""
        assert self.proc.stdout is not None
        got: list[str] = []
        for raw in self.proc.stdout:
            line = raw.rstrip("\n")
            got.append(line)
            if line.startswith("your turn:"):
                break
        self.lines += got
        return got

    def send(self, command: str) -> None:
        """Type one command line."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()

    def finish(self) -> tuple[int, str]:
        """Close the input, read the rest; the exit status and the stderr text."""
        out, err = self.proc.communicate(timeout=600)
        self.watchdog.cancel()
        self.lines += out.splitlines()
        return self.proc.returncode, err

    def kill(self) -> None:
        """SIGKILL the child, as a crash or a closed terminal would."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=60)
        self.watchdog.cancel()


def answer_turns(plain: Plain, choose: Callable[[list[str]], str], stop: object = None,
                 limit: int = 3000) -> list[str]:
    """Answer every turn with ``choose(lines read since the last turn)`` until
    ``stop(lines)`` is true or the game ends; the last lines read."""
    for _ in range(limit):
        lines = plain.until_turn()
        if not lines or not lines[-1].startswith("your turn:"):
            return lines
        if callable(stop) and stop(lines):
            return lines
        plain.send(choose(lines))
    raise AssertionError("too many turns")


def history(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``pinochle history ARGS`` on the games saved in ``data``."""
    return subprocess.run([sys.executable, "-m", "pinochlekit", "history", *args],
                          capture_output=True, text=True, env=environment(data), cwd=ROOT,
                          timeout=300, encoding="utf-8", stdin=subprocess.DEVNULL)


def cards_in(text: str) -> list[str]:
    """The cards named in a line, compact (``KD``), whichever way the line writes
    them (``KD`` in the commands to type, ``K♦`` in the lines told)."""
    found = re.findall(r"(?<![\w])(10|[9JQKTA])([SHDC♠♥♦♣])(?![\w])", text)
    suits = dict(zip("♠♥♦♣", "SHDC", strict=True))
    return [("T" if rank == "10" else rank) + suits.get(suit, suit) for rank, suit in found]


def pretty(card: str) -> str:
    """A compact card (``TD``) as the lines told write it (``10♦``)."""
    return ("10" if card[0] == "T" else card[0]) + dict(zip("SHDC", "♠♥♦♣", strict=True))[card[1]]


def auction_game(session: Any) -> Game | DoubleDeckGame:
    """A terminal session's game, which the test knows has an auction."""
    game = session.game
    assert isinstance(game, Game | DoubleDeckGame), type(game)
    return game


def two_game(session: Any) -> TwoHandedGame:
    """A terminal session's game, which the test knows is the two-handed one."""
    game = session.game
    assert isinstance(game, TwoHandedGame), type(game)
    return game
