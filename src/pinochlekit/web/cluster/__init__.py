"""The web server as several processes sharing one PostgreSQL and one Redis
(docs/web-cluster.md).

- :mod:`~pinochlekit.web.cluster.leases`: which process owns each table (a Redis
  key with an expiry, renewed), and the JSON log lines of lease changes.
- :mod:`~pinochlekit.web.cluster.bus`: the processes' messages over Redis pub/sub,
  reconnecting after Redis restarts.
- :mod:`~pinochlekit.web.cluster.sockets`: a WebSocket as the owner's server code
  sees it when the browser is connected to another process (or this one).
- :mod:`~pinochlekit.web.cluster.node`: one process of the cluster: owner routing,
  relaying a browser's socket to the owner, hand-over, health.
- :mod:`~pinochlekit.web.cluster.supervisor`: ``pinochle serve --workers N``.

Redis (the ``cluster`` extra) is imported only when a cluster is asked for.
"""

from __future__ import annotations

__all__: list[str] = []
