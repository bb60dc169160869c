"""Run ``pinochle serve`` in a subprocess on a free port of 127.0.0.1 (tests, benchmarks).

>>> free_port() > 0
True
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from types import TracebackType

__all__ = ["ServerProcess", "free_port"]


def free_port() -> int:
    """A TCP port of 127.0.0.1 nobody listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ServerProcess:
    """``pinochle serve --db URL`` on 127.0.0.1, started and stopped like a real server
    (``db`` None: without ``--db``, the default database in ``$PINOCHLEKIT_DATA``)."""

    def __init__(self, db: str | None, port: int | None = None, log: Path | None = None,
                 extra: tuple[str, ...] = (), max_files: int | None = None) -> None:
        """``max_files``: the process's descriptor limit (soft and hard), if given."""
        self.db = db
        self.max_files = max_files
        self.port = port or free_port()
        self.log = log
        self.extra = extra
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The server's base address, e.g. ``http://127.0.0.1:8123``."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        """The WebSocket base address."""
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> ServerProcess:
        """Start the server and wait until it answers."""
        out = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pinochlekit", "serve", "--port", str(self.port),
             *(("--db", self.db) if self.db is not None else ()), *self.extra],
            stdin=subprocess.DEVNULL, stdout=out, stderr=out, start_new_session=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            preexec_fn=None if self.max_files is None else self._limit_files)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with status {self.process.returncode}")
            try:
                with urllib.request.urlopen(self.url + "/api/tables", timeout=2):
                    return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server did not answer within {timeout} s")

    def _limit_files(self) -> None:
        """In the child, before the server starts: its descriptor limit."""
        import resource

        assert self.max_files is not None
        resource.setrlimit(resource.RLIMIT_NOFILE, (self.max_files, self.max_files))

    def stop(self, kill: bool = False) -> None:
        """Stop the server: SIGTERM (or SIGKILL with ``kill``), then wait."""
        if self.process is None or self.process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL if kill else signal.SIGTERM)
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()
