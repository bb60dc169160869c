"""A TCP proxy on 127.0.0.1 for the fault tests: in front of PostgreSQL it stands for
a database server that restarts or a network that drops (:meth:`TcpProxy.down` cuts
every connection and refuses new ones until :meth:`TcpProxy.up`); in front of
several ``pinochle serve`` processes it is a load balancer that sends each new
connection to the first target that accepts."""

from __future__ import annotations

import contextlib
import socket
import threading

__all__ = ["TcpProxy"]


class TcpProxy:
    """Each connection to :attr:`port` goes to the first of ``targets`` that accepts
    (closed at once if none does, or while the proxy is down)."""

    def __init__(self, *targets: tuple[str, int]) -> None:
        self.targets = list(targets)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.refused = 0  #: connections closed at once while down
        self._up = True
        self._open: list[socket.socket] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def down(self) -> None:
        """Cut every connection; refuse new ones."""
        with self._lock:
            self._up = False
            for end in self._open:
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)
            self._open.clear()

    def up(self) -> None:
        """Let connections through again."""
        with self._lock:
            self._up = True

    def close(self) -> None:
        """Stop accepting."""
        self.listener.close()

    def _connect(self) -> socket.socket | None:
        for target in self.targets:
            with contextlib.suppress(OSError):
                return socket.create_connection(target, timeout=5)
        return None

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            with self._lock:
                up = self._up
                if not up:
                    self.refused += 1
            server = self._connect() if up else None
            if server is None:
                client.close()
                continue
            server.settimeout(None)
            with self._lock:
                self._open += [client, server]
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
