"""Table leases in Redis: one owner process per table at a time, and JSON log lines.

A lease is the key ``PREFIX lease:TABLE`` holding the owner's node id, with an
expiry (``ttl`` seconds). The owner renews its leases every third of the ttl; a
process that dies stops renewing, its leases expire, and the next process a
browser reaches takes the table over (docs/web-cluster.md "Ownership"). Taking
and renewing are one Lua script, so two processes never both believe they hold
a lease that Redis gave to one of them.

>>> json.loads(event_line("lease_acquired", table="abc", node="n1"))["event"]
'lease_acquired'
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

__all__ = ["Leases", "event_line", "log_event"]

# take the lease if nobody holds it, extend it if we do; 1 if ours afterwards
_ACQUIRE = """
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
if redis.call('get', KEYS[1]) == ARGV[1] then
    redis.call('pexpire', KEYS[1], ARGV[2])
    return 1
end
return 0
"""
# give the lease up only if it is still ours
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


def event_line(event: str, **fields: Any) -> str:
    """One structured log line: a JSON object with the time, the event and ``fields``."""
    return json.dumps({"ts": round(time.time(), 3), "event": event, "pid": os.getpid(),
                       **fields}, separators=(",", ":"))


def log_event(event: str, **fields: Any) -> None:
    """Write :func:`event_line` to standard error (the server's log)."""
    print(event_line(event, **fields), file=sys.stderr, flush=True)


class Leases:
    """The leases of one node (process) in one Redis (``client``: a
    ``redis.asyncio.Redis``)."""

    def __init__(self, client: Any, prefix: str, node: str, ttl: float) -> None:
        self.redis = client
        self.prefix = prefix
        self.node = node
        self.ttl_ms = max(100, int(ttl * 1000))

    def key(self, table_id: str) -> str:
        """The Redis key of a table's lease."""
        return f"{self.prefix}lease:{table_id}"

    async def acquire(self, table_id: str) -> bool:
        """Take (or renew) the lease of ``table_id``; whether this node holds it now."""
        return bool(await self.redis.eval(_ACQUIRE, 1, self.key(table_id), self.node,
                                          self.ttl_ms))

    async def renew(self, table_ids: list[str]) -> dict[str, bool]:
        """Renew (or take again, after Redis lost them) many leases in one round trip."""
        if not table_ids:
            return {}
        pipe = self.redis.pipeline(transaction=False)
        for table_id in table_ids:
            pipe.eval(_ACQUIRE, 1, self.key(table_id), self.node, self.ttl_ms)
        results = await pipe.execute()
        return {t: bool(r) for t, r in zip(table_ids, results, strict=True)}

    async def owner(self, table_id: str) -> str | None:
        """The node holding ``table_id``'s lease now, or None."""
        value = await self.redis.get(self.key(table_id))
        if value is None:
            return None
        return value.decode() if isinstance(value, bytes) else str(value)

    async def release(self, table_id: str) -> bool:
        """Give up the lease (if still ours), so another node may take it at once."""
        return bool(await self.redis.eval(_RELEASE, 1, self.key(table_id), self.node))
