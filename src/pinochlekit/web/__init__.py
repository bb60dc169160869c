"""Play in a browser: ``pinochle serve`` runs a server for a club's tables.

Tables with invite links, computer players in empty seats, spectators,
reconnection with a grace period, provably fair deals (a hash of each hand's
deal seed before it, the seed after it) and every action committed to SQLite
or PostgreSQL before it is broadcast. See ``docs/web.md``.

The server needs the ``web`` extra (FastAPI, uvicorn, websockets, psycopg);
:mod:`pinochlekit.web.storage` and :mod:`pinochlekit.web.messages` need only
the standard library.
"""

from __future__ import annotations

__all__: list[str] = []
