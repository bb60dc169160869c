"""Load on one `pinochle serve` process: many tables of computer players, one person each.

Starts the server on 127.0.0.1 in a subprocess (SQLite in a temporary
directory), creates ``--tables`` tables of ``--rules`` (one open seat, the others
computer seats of ``--level``, computers moving after ``--pace`` seconds; with
``--rules three`` or ``--rules two`` the three- or two-handed game), and connects one
WebSocket client per table that takes that seat and plays it: after each of its
turns comes, it waits ``--think`` seconds (at random, up to that) like a
person, then sends a legal action. The figure is the time from sending an
action to receiving the broadcast state that holds it (the server checks it,
commits it to the database, applies it and sends every client its view).

Each run lasts ``--seconds`` after every client is connected; ``--repeat`` runs,
each on a fresh server. Prints p50, p95 and max per run and over the runs,
with the actions the whole server applied per second (people and computers).
Every request goes to 127.0.0.1 only, and each run stops by itself.

With ``--processes N`` the server is a cluster (docs/web-cluster.md): N processes
sharing the PostgreSQL of ``--db`` and the Redis of ``--redis``; table ``i`` is
created at process ``i mod N`` and its person connects to the next process, so
with N > 1 every action and broadcast crosses processes through Redis.

    python bench/web_load.py [--tables 200] [--seconds 60] [--repeat 3] [--rules pagat]
    python bench/web_load.py --processes 3 --db postgresql://... --redis redis://...
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from pinochlekit.engine.rules import Rules
from pinochlekit.web.process import ServerProcess


def choose(view: dict[str, Any], rng: random.Random) -> str:
    """A legal action from the compact legal form: pass or the lowest bid, else random."""
    legal = view["legal"]
    if legal["pass_cards"]:
        cards = view["hand"].split()
        rng.shuffle(cards)
        verb = view["phase"]  # give, return, or discard (three-handed, widow taken)
        return f"{verb} {' '.join(cards[:legal['pass_cards']])}"
    actions = [a for a in legal["actions"] if a not in ("throw in", "moon", "redeal")]
    if view["phase"] == "auction":
        if legal["bid"] and (not actions or rng.random() < 0.3):
            return f"bid {legal['bid']['min']}"
        return "pass" if "pass" in actions else actions[0]
    return str(rng.choice(actions))


def post(url: str, body: Any) -> Any:
    request = urllib.request.Request(url, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.load(response)


async def player(server: ServerProcess, table: str, token: str, seed: int, think: float,
                 stop_at: list[float], latencies: list[float], ready: asyncio.Event,
                 counter: list[int]) -> None:
    """One person at one table: act on every turn, time each action's broadcast."""
    rng = random.Random(seed)
    async with connect(f"{server.ws_url}/ws/{table}", max_size=2 ** 22,
                       open_timeout=60) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        counter[0] += 1
        await ready.wait()
        sent_ply: int | None = None
        sent_at = 0.0
        pending: asyncio.Task[None] | None = None
        while time.monotonic() < stop_at[0]:
            try:
                text = await asyncio.wait_for(ws.recv(), max(0.1, stop_at[0] - time.monotonic()))
            except TimeoutError:
                break
            now = time.monotonic()
            message = json.loads(text)
            if message["type"] == "state" and message["view"] is not None:
                ply = message["ply"]
                if sent_ply is not None and ply > sent_ply:
                    latencies.append(now - sent_at)
                    sent_ply = None
                view = message["view"]
                if view["phase"] == "game over":
                    await ws.send(json.dumps({"type": "rematch"}))
                elif view["to_act"] == message["seat"] and sent_ply is None:
                    if pending is not None:
                        pending.cancel()

                    async def act(view: dict[str, Any] = view, ply: int = ply) -> None:
                        nonlocal sent_ply, sent_at
                        await asyncio.sleep(rng.random() * think)
                        sent_ply, sent_at = ply, time.monotonic()
                        with contextlib.suppress(ConnectionClosed):
                            await ws.send(json.dumps({"type": "act",
                                                      "action": choose(view, rng), "ply": ply}))

                    pending = asyncio.create_task(act())
            elif message["type"] == "error" and message["code"] != "stale":
                print(f"table {table}: {message['message']}", file=sys.stderr)
                sent_ply = None
        if pending is not None:
            pending.cancel()


async def run(args: argparse.Namespace, number: int) -> dict[str, float]:
    players = Rules.from_string(args.rules).players
    with tempfile.TemporaryDirectory() as base:
        # one client (127.0.0.1) creates every table and opens every socket: lift the
        # per-address limits
        extra: tuple[str, ...] = ("--max-tables", "1000000",
                                  "--create-limit", str(args.tables + 10),
                                  "--max-per-address", str(args.tables + 10))
        if args.processes > 1 or args.redis:
            extra += ("--redis", args.redis)
        db = args.db or str(Path(base) / "load.db")
        servers = [ServerProcess(db, log=Path(base) / f"server{n}.log", extra=extra)
                   for n in range(args.processes)]
        server = servers[0]
        for each in servers:
            each.start()
        try:
            tables = []
            for i in range(args.tables):
                made = post(servers[i % len(servers)].url + "/api/tables", {
                    "title": f"load {i}", "rules": args.rules,
                    "seats": ["open"] + [args.level] * (players - 1),
                    "pace": args.pace, "grace": 600})
                joined = post(f"{server.url}/api/tables/{made['id']}/join",
                              {"seat": 0, "name": f"p{i}"})
                tables.append((made["id"], joined["token"]))
            latencies: list[float] = []
            ready = asyncio.Event()
            counter = [0]
            stop_at = [float("inf")]
            tasks = [asyncio.create_task(player(servers[(i + 1) % len(servers)], t, token,
                                                number * 10_000 + i,
                                                args.think, stop_at, latencies, ready,
                                                counter))
                     for i, (t, token) in enumerate(tables)]
            while counter[0] < len(tables):
                await asyncio.sleep(0.1)
            # counted before the people start (nothing moves meanwhile) and off the
            # players' event loop; each table asked of the process that made it (its
            # owner: a count at another process reads and replays the table from the
            # database, seconds for hundreds of tables)
            plies_before = await asyncio.to_thread(total_plies, servers, tables)
            cpu_before = sum(cpu_seconds(s) for s in servers)
            start = time.monotonic()
            stop_at[0] = start + args.seconds
            ready.set()
            await asyncio.gather(*tasks)
            elapsed = time.monotonic() - start
            cpu = sum(cpu_seconds(s) for s in servers) - cpu_before
            plies = await asyncio.to_thread(total_plies, servers, tables) - plies_before
        finally:
            for each in servers:
                each.stop()
    if not latencies:
        raise SystemExit("no action was timed: the server did not answer")
    latencies.sort()
    return {"actions": len(latencies), "p50": pct(latencies, 50) * 1000,
            "p95": pct(latencies, 95) * 1000, "max": latencies[-1] * 1000,
            "server_actions_per_s": plies / elapsed,
            "cpu_ms_per_action": 1000 * cpu / max(1, plies), "cpu_share": cpu / elapsed}


def cpu_seconds(server: ServerProcess) -> float:
    """CPU time (user + system) the server process has used so far (Linux)."""
    assert server.process is not None
    try:
        fields = Path(f"/proc/{server.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def total_plies(servers: list[ServerProcess], tables: list[tuple[str, str]]) -> int:
    """Actions applied at every table so far (people's and computers'); table ``i``
    asked of process ``i mod N``, the one that made it."""
    total = 0
    for i, (table, _) in enumerate(tables):
        url = f"{servers[i % len(servers)].url}/api/tables/{table}"
        with urllib.request.urlopen(url, timeout=60) as response:
            total += int(json.load(response)["ply"])
    return total


def pct(values: list[float], q: float) -> float:
    index = min(len(values) - 1, max(0, round(q / 100 * len(values) + 0.5) - 1))
    return values[index]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--level", default="easy", help="computer level (default: easy)")
    parser.add_argument("--rules", default="pagat",
                        help="the tables' rules (default: pagat; 'three(widow=take)', 'two')")
    parser.add_argument("--pace", type=float, default=0.8,
                        help="seconds a computer waits before each move (default: 0.8, "
                             "the server's default)")
    parser.add_argument("--think", type=float, default=1.0,
                        help="a person waits up to this many seconds before acting (default: 1)")
    parser.add_argument("--processes", type=int, default=1,
                        help="server processes (a cluster when more than 1: needs --db "
                             "postgresql://... and --redis URL)")
    parser.add_argument("--db", help="the database (default: SQLite in a temporary folder)")
    parser.add_argument("--redis", default="", help="the cluster's Redis URL")
    args = parser.parse_args()
    if args.processes > 1 and not (args.redis and args.db):
        parser.error("--processes N needs --db postgresql://... and --redis URL")
    results = []
    for number in range(args.repeat):
        result = asyncio.run(run(args, number))
        results.append(result)
        print(f"run {number + 1}: {result['actions']:.0f} actions timed, "
              f"p50 {result['p50']:.1f} ms, p95 {result['p95']:.1f} ms, "
              f"max {result['max']:.1f} ms; the server applied "
              f"{result['server_actions_per_s']:.0f} actions per second using "
              f"{100 * result['cpu_share']:.0f}% of a core "
              f"({result['cpu_ms_per_action']:.2f} ms of CPU per action)", flush=True)
    for key in ("p50", "p95", "max"):
        values = [r[key] for r in results]
        print(f"{key}: median {statistics.median(values):.1f} ms "
              f"({min(values):.1f} to {max(values):.1f}) over {len(values)} runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
