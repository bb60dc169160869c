"""``pinochle serve --workers N``: N server processes on one listening socket.

The supervisor binds the address once and starts N ``pinochle serve`` processes
that inherit the socket (the kernel hands each new connection to one of them);
together they form a cluster through the shared PostgreSQL and Redis
(docs/web-cluster.md). A worker that exits unasked is started again (its tables
move to the others meanwhile); SIGTERM or Ctrl-C stops every worker gracefully,
each handing its tables over before it exits.
"""

from __future__ import annotations

import contextlib
import signal
import socket
import subprocess
import sys
import time
from types import FrameType

from pinochlekit.web.cluster.leases import log_event

__all__ = ["supervise", "worker_arguments"]


def worker_arguments(argv: list[str]) -> list[str]:
    """The command line of one worker: the supervisor's without ``--workers``.

    >>> worker_arguments(["serve", "--workers", "3", "--port", "80", "--workers=2"])
    ['serve', '--port', '80']
    """
    out: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--workers":
            skip = True
        elif not arg.startswith("--workers="):
            out.append(arg)
    return out


def supervise(argv: list[str], workers: int, host: str, port: int) -> int:
    """Bind ``host:port``, run ``workers`` copies of ``pinochle serve`` (``argv``
    without ``--workers``) on it until SIGTERM or SIGINT; the exit status."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((host, port))
    listener.listen(2048)
    listener.set_inheritable(True)
    fd = listener.fileno()
    command = [sys.executable, "-m", "pinochlekit", *worker_arguments(argv),
               "--listen-fd", str(fd)]
    stopping = False

    def stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    def start(number: int) -> subprocess.Popen[bytes]:
        child = subprocess.Popen(command, pass_fds=(fd,), stdin=subprocess.DEVNULL)
        log_event("worker_started", worker=number, worker_pid=child.pid)
        return child

    children = [start(n) for n in range(workers)]
    try:
        while not stopping:
            time.sleep(0.2)
            for number, child in enumerate(children):
                if child.poll() is not None and not stopping:
                    log_event("worker_exited", worker=number, worker_pid=child.pid,
                              status=child.returncode)
                    children[number] = start(number)
    finally:
        for child in children:
            with contextlib.suppress(ProcessLookupError):
                child.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 30
        for child in children:
            try:
                child.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
        listener.close()
    return 0
