"""External programs as players: a line-based JSON protocol over stdin and stdout.

An :class:`ExternalPlayer` runs a program (any language) and talks to it the
way a chess GUI talks to a UCI engine: one JSON object per line each way. The
full protocol, with an example exchange, is ``docs/protocol.md``; in short:

- the server sends ``{"type": "hello", "protocol": 1, "seat": S, "rules": R,
  "players": N, "seed": X}`` once, before the first decision;
- whenever the seat must act, ``{"type": "act", "view": VIEW}`` where VIEW is
  :meth:`pinochlekit.View.to_dict` (with ``legal_actions`` as text; the
  three-handed widow and discards and the two-handed stage, turned-up card,
  stock and table included), and the program answers one line:
  ``{"action": "play TS"}`` or the bare ``play TS`` (two-handed also ``meld
  KS QS``, ``dix``, ``no meld``);
- ``{"type": "result", "hand": HAND}`` after each hand, no answer;
- ``{"type": "bye"}`` when the player is closed; the program should exit.

The program sees only its own seat's view: each seat gets its own process,
partners included. Whatever it writes to stderr is kept (the last lines) and
quoted if it fails. A non-JSON or unknown answer, an illegal action, a
timeout or the program exiting raises an :class:`ExternalPlayerError`
subclass naming the program and quoting what it said; :meth:`choose` never
returns an action that is not in ``view.legal_actions``, so a misbehaving
program cannot change a game.

>>> player = ExternalPlayer("python examples/random_bot.py", seed=1)
>>> player.command
'python examples/random_bot.py'
>>> player.close()
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import queue
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from typing import IO, Any, ClassVar, TextIO

from pinochlekit.engine.actions import Action
from pinochlekit.engine.errors import NotationError, PinochleError
from pinochlekit.engine.games import parse_game_action
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.two.views import TwoHandResult
from pinochlekit.engine.views import HandResult, View
from pinochlekit.players.base import Player

__all__ = [
    "PROTOCOL",
    "ExternalPlayer",
    "ExternalPlayerError",
    "IllegalResponseError",
    "PlayerExitedError",
    "PlayerTimeoutError",
    "ProtocolError",
    "hand_result_dict",
    "is_command",
]

#: The protocol version sent in ``hello``.
PROTOCOL = 1

#: The prefix that names an external program wherever a player is named.
COMMAND_PREFIX = "cmd:"

_EOF = None  # what the reader thread queues when the program's stdout closes
_STDERR_LINES = 20  # how many of the program's last stderr lines are kept
_QUOTE = 200  # the longest answer quoted in an error message
_CLOSE_GRACE = 2.0  # seconds a program has to exit after bye


class ExternalPlayerError(PinochleError):
    """An external program misbehaved; the message names it and quotes it."""


class ProtocolError(ExternalPlayerError):
    """The program answered something that is not an action (not JSON, no
    ``action`` field, or text that is no action at all)."""


class IllegalResponseError(ExternalPlayerError):
    """The program answered an action that is not one of the legal actions."""


class PlayerTimeoutError(ExternalPlayerError):
    """The program did not answer within the time allowed."""


class PlayerExitedError(ExternalPlayerError):
    """The program could not be started, or exited before it was told ``bye``."""


def is_command(spec: str) -> bool:
    """Whether a player spec names an external program (``cmd:PROGRAM ARGS``).

    >>> is_command("cmd:python examples/random_bot.py"), is_command("standard")
    (True, False)
    """
    return spec.strip().startswith(COMMAND_PREFIX)


def hand_result_dict(result: HandResult) -> dict[str, Any]:
    """A JSON-ready dict of a finished hand (the ``hand`` of a ``result`` message).

    Three-handed hands add the ``widow`` and the declarer's ``discards`` (docs/rules.md
    §3); two-handed hands every meld ``events`` in order and the game's ``target``
    (docs/rules.md §4).
    """
    out = {
        "number": result.number, "dealer": result.dealer, "outcome": result.outcome.value,
        "declarer": result.declarer, "contract": result.contract,
        "trump": None if result.trump is None else result.trump.letter,
        "meld_points": list(result.meld_points), "trick_points": list(result.trick_points),
        "meld_saved": list(result.meld_saved), "scores": list(result.scores),
        "totals": list(result.totals),
        "tricks": [{"leader": t.leader, "seats": list(t.seats),
                    "cards": " ".join(map(str, t.cards)), "winner": t.winner,
                    "points": t.points} for t in result.tricks],
    }
    if result.widow:
        out["widow"] = " ".join(map(str, result.widow))
        out["discards"] = " ".join(map(str, result.discards)) or None
    if isinstance(result, TwoHandResult):
        out["events"] = [{"seat": e.seat, "name": e.name, "cards": " ".join(map(str, e.cards)),
                          "points": e.points} for e in result.events]
        out["target"] = result.target
    return out


def _quote(text: str) -> str:
    """``text`` quoted, cut to a readable length."""
    return repr(text if len(text) <= _QUOTE else text[:_QUOTE] + "...")


def _cut(text: str) -> str:
    """``text`` cut to a readable length (an error quoting a long answer)."""
    return text if len(text) <= 2 * _QUOTE else text[:2 * _QUOTE] + "..."


def _argv(command: str) -> list[str]:
    """The program's argument vector; a first word ``python``/``python3`` is this
    Python, so examples run the same interpreter as ``pinochle``."""
    try:
        argv = shlex.split(command)
    except ValueError as error:
        raise ExternalPlayerError(f"bad program command {command!r}: {error}") from None
    if not argv:
        raise ExternalPlayerError("empty program command: write cmd:PROGRAM ARGS")
    if argv[0] in ("python", "python3"):
        argv[0] = sys.executable
    return argv


class ExternalPlayer(Player):
    """A seat played by an external program speaking the protocol of
    ``docs/protocol.md``.

    The program starts at the first :meth:`choose` (``hello`` needs the seat)
    and lives until :meth:`close`, which sends ``bye``. ``timeout`` is the time
    allowed for each answer, in seconds. ``transcript``, if given, receives
    every line sent (``> ``) and received (``< ``), for debugging a program.
    """

    name: ClassVar[str] = "cmd"

    def __init__(self, command: str, seed: int | str = 0, timeout: float = 10.0, *,
                 transcript: TextIO | None = None) -> None:
        super().__init__(seed)
        command = command.strip()
        if command.startswith(COMMAND_PREFIX):
            command = command[len(COMMAND_PREFIX):].strip()
        if timeout <= 0:
            raise ExternalPlayerError(f"the timeout must be positive, not {timeout}")
        self.command = command
        self.argv = _argv(command)
        self.timeout = timeout
        self.transcript = transcript
        self.seat: int | None = None
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=_STDERR_LINES)
        self._threads: list[threading.Thread] = []
        self._closed = False

    # -- the process ----------------------------------------------------------

    def _start(self, view: View) -> None:
        """Start the program and say hello (seat, rules, seed)."""
        try:
            self._process = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, encoding="utf-8", errors="replace",
                bufsize=1, start_new_session=True)
        except OSError as error:
            raise PlayerExitedError(f"cannot start program {self.command!r}: "
                                    f"{error.strerror or error}") from None
        assert self._process.stdout is not None and self._process.stderr is not None
        for stream, sink in ((self._process.stdout, self._lines.put),
                             (self._process.stderr, self._stderr.append)):
            thread = threading.Thread(target=_pump, args=(stream, sink), daemon=True)
            thread.start()
            self._threads.append(thread)
        self.seat = view.seat
        self._send({"type": "hello", "protocol": PROTOCOL, "seat": view.seat,
                    "rules": str(view.rules), "players": view.rules.players,
                    "seed": self.seed})

    def _who(self) -> str:
        seat = "" if self.seat is None else f" at seat {self.seat}"
        return f"program {self.command!r}{seat}"

    def _said(self) -> str:
        """The program's last stderr lines, for error messages."""
        if self._process is not None and self._process.poll() is not None:
            for thread in self._threads:  # a dead program's pipes are closing: read them out
                thread.join(timeout=0.5)
        lines = [line.rstrip("\n") for line in list(self._stderr) if line and line.strip()]
        return f"; its stderr ended: {' | '.join(lines[-3:])}" if lines else ""

    def _exited(self, doing: str) -> PlayerExitedError:
        """The error for a program found dead while ``doing`` something."""
        assert self._process is not None
        try:
            status = self._process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            status = None
        how = "closed its output" if status is None else f"exited with status {status}"
        said = self._said()
        self._kill()
        return PlayerExitedError(f"{self._who()} {how} {doing}{said}")

    def _send(self, message: dict[str, Any]) -> None:
        assert self._process is not None and self._process.stdin is not None
        line = json.dumps(message, separators=(",", ":"))
        if self.transcript is not None:
            self.transcript.write(f"> {line}\n")
        try:
            self._process.stdin.write(line + "\n")
            self._process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._exited(f"before it was sent {message['type']!r}") from None

    def _receive(self) -> str:
        """The program's next non-blank line, within the timeout."""
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self._kill()
                raise PlayerTimeoutError(f"{self._who()} did not answer within "
                                         f"{self.timeout:g} s{self._said()}") from None
            if line is _EOF:
                raise self._exited("before answering")
            if self.transcript is not None:
                self.transcript.write(f"< {line}")
            if line.strip():
                return line.strip()

    def _kill(self) -> None:
        """Stop the program and anything it started, at once (after an error)."""
        self._closed = True
        process = self._process
        if process is None:
            return
        if process.poll() is None:
            try:
                if hasattr(os, "killpg"):
                    os.killpg(process.pid, signal.SIGKILL)  # its own session: see _start
                else:  # pragma: no cover - Windows
                    process.kill()
            except OSError:
                pass
            process.wait()
        self._close_stdin()

    def _close_stdin(self) -> None:
        """Close our end of the program's stdin (its stdout and stderr are closed by
        the threads that read them, so no read is ever closed under a thread)."""
        if self._process is not None and self._process.stdin is not None:
            with contextlib.suppress(OSError):
                self._process.stdin.close()

    # -- the Player interface -----------------------------------------------

    def choose(self, view: View) -> Action:
        """Send ``act`` with the view; read, check and return the program's action.

        Raises :class:`ProtocolError`, :class:`IllegalResponseError`,
        :class:`PlayerTimeoutError` or :class:`PlayerExitedError`; the action
        returned is always one of ``view.legal_actions``.
        """
        if self._closed:
            raise ExternalPlayerError(f"{self._who()} was closed (or failed) already")
        if not view.legal_actions:
            raise ExternalPlayerError(f"{self._who()}: seat {view.seat} has nothing to do "
                                      f"in the {view.phase}")
        if self._process is None:
            self._start(view)
        self._send({"type": "act", "view": view.to_dict()})
        line = self._receive()
        action = self._parse(line, view.rules)
        if action not in view.legal_actions:
            self._kill()
            raise IllegalResponseError(
                f"{self._who()} answered an illegal action {_quote(line)} in the "
                f"{view.phase}; legal: {_legal_summary(view.legal_actions)}")
        return action

    def _parse(self, line: str, rules: Rules) -> Action:
        """The action in an answer line: ``{"action": TEXT}`` or the bare TEXT, read
        as an action of the game ``rules`` describe (two-handed: ``meld``, ``dix``,
        ``no meld``)."""
        text: object = line
        if line.startswith(("{", "[", '"')):
            try:
                data = json.loads(line)
            except (json.JSONDecodeError, RecursionError, ValueError) as error:
                # beyond bad JSON: nested past the recursion limit, or a number longer
                # than Python reads
                reason = (error.msg if isinstance(error, json.JSONDecodeError) else
                          "nested too deeply" if isinstance(error, RecursionError) else
                          "a number too long")
                self._kill()
                raise ProtocolError(f"{self._who()} answered {_quote(line)}, which is not "
                                    f"JSON: {reason}") from None
            text = data.get("action") if isinstance(data, dict) else None
            if not isinstance(text, str):
                self._kill()
                raise ProtocolError(f"{self._who()} answered {_quote(line)}: expected "
                                    '{"action": "<action text>"}')
        assert isinstance(text, str)
        try:
            return parse_game_action(rules, text)
        except NotationError as error:
            self._kill()
            raise ProtocolError(f"{self._who()} answered {_quote(line)}, which is not an "
                                f"action: {_cut(str(error))}") from None

    def observe(self, result: HandResult) -> None:
        """Tell the program how a hand ended (``result``); nothing is read back."""
        if self._process is not None and not self._closed:
            self._send({"type": "result", "hand": hand_result_dict(result)})

    def close(self) -> None:
        """Send ``bye``, wait briefly for the program to exit, else kill it;
        idempotent, and never raises."""
        process = self._process
        if process is None or self._closed:
            self._kill()
            return
        self._closed = True
        try:
            assert process.stdin is not None
            process.stdin.write(json.dumps({"type": "bye"}) + "\n")
            process.stdin.flush()
            if self.transcript is not None:
                self.transcript.write('> {"type":"bye"}\n')
            process.stdin.close()
        except (BrokenPipeError, OSError):
            pass
        try:
            process.wait(timeout=_CLOSE_GRACE)
        except subprocess.TimeoutExpired:
            self._kill()
        for thread in self._threads:
            thread.join(timeout=1.0)

    def __enter__(self) -> ExternalPlayer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"ExternalPlayer({self.command!r}, seed={self.seed!r}, timeout={self.timeout})"


def _pump(stream: IO[str], sink: Any) -> None:
    """Copy lines from a pipe to ``sink`` until it closes, then send :data:`_EOF`."""
    try:
        for line in stream:
            sink(line)
    except (OSError, ValueError):
        pass
    finally:
        stream.close()
        sink(_EOF)


def _legal_summary(actions: Sequence[Action]) -> str:
    """The legal actions, shortened: at most eight, then how many more."""
    texts = [str(a) for a in actions]
    more = f" ... ({len(texts) - 8} more)" if len(texts) > 8 else ""
    return ", ".join(texts[:8]) + more
