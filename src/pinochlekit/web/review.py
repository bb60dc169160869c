"""The review of a finished hand at the web table and in its history (docs/review.md,
docs/web.md "Review").

A review (:func:`pinochlekit.review.review_hand`) takes seconds of CPU, so it never
runs on the event loop: :class:`Reviews` hands it to a small thread pool with a
bounded queue. One client (its seat token, else its address) has at most one review
running at a time; another request of it, or one beyond the queue, is refused as
``busy``. A finished review is kept in memory by (table, game, hand, seat, budget),
so asking again, from any page, answers at once; while it runs, each request answers
with its progress (decisions done of all). The per-hand summaries behind the statistics
page are kept in a JSON file beside the database (:func:`cache_path`), so a restart
does not review every hand again.

Only finished hands are reviewed: their cards are public by then (the history shows
them), so any seat's decisions may be reviewed; the hand in play is refused before
anything runs, so a review can never leak a card of it.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pinochlekit.engine.games import parse_game_action, replay
from pinochlekit.engine.record import GameRecord
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.views import Phase
from pinochlekit.review import HandReview, review_hand
from pinochlekit.review.stats import PlayedGame, ReviewCache, collect, summarize
from pinochlekit.web.messages import view_dict

if TYPE_CHECKING:
    from pinochlekit.web.storage import TableRow
    from pinochlekit.web.table import Table

__all__ = ["ReviewRefusedError", "Reviews", "SharedReviewCache", "boards", "cache_path",
           "played_games"]

log = logging.getLogger("pinochlekit.web")

#: Finished reviews kept in memory (the oldest asked is dropped first).
CACHE_SIZE = 256


class ReviewRefusedError(Exception):
    """A review that is not run: ``code`` (``in_play``, ``no_hand``, ``bad_seat``,
    ``busy``), the HTTP ``status`` and a message for people."""

    def __init__(self, code: str, message: str, status: int) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


@dataclass
class _Job:
    """A review queued or running: its progress and the client that asked."""

    client: str
    done: int = 0
    total: int = 0
    error: str | None = None


Key = tuple[str, int, int, int, float, int]


def cache_path(db_url: str, data_dir: Path) -> Path | None:
    """Where the server keeps its hand summaries: beside a SQLite file
    (``web.db`` -> ``web-reviews.json``), in ``data_dir`` for PostgreSQL, nowhere for an
    in-memory database."""
    if db_url.startswith(("postgresql://", "postgres://")):
        return data_dir / "web-reviews.json"
    path = db_url.removeprefix("sqlite://")
    if not path or path == ":memory:":
        return None
    file = Path(path)
    return file.with_name(file.stem + "-reviews.json")


class SharedReviewCache(ReviewCache):
    """A :class:`~pinochlekit.review.stats.ReviewCache` the review threads share: every
    read and write under one lock, so a save never meets a summary being added."""

    def __init__(self, path: Path | None) -> None:
        super().__init__(path)
        self.lock = threading.Lock()

    def get(self, key: str) -> dict[str, Any] | None:
        """A cached summary."""
        with self.lock:
            return super().get(key)

    def put(self, key: str, value: dict[str, Any]) -> None:
        """Keep a summary (until :meth:`save`)."""
        with self.lock:
            super().put(key, value)

    def save(self) -> None:
        """Write the file if anything was added; a failure to write is logged, not raised
        (the summaries stay in memory)."""
        with self.lock:
            try:
                super().save()
            except OSError as error:
                log.warning("cannot save the review summaries to %s: %s", self.path, error)


def boards(record: GameRecord, seat: int, plies: set[int]) -> dict[int, dict[str, Any]]:
    """What ``seat`` saw before each ply of ``plies``: its cards, the trick on the table,
    trump and the phase (so the panel draws the decision on the cards)."""
    game = replay(GameRecord(record.rules, record.seed, record.dealer, (), record.deals))
    out: dict[int, dict[str, Any]] = {}
    last = max(plies, default=-1)
    for ply, text in enumerate(record.actions):
        if ply > last:
            break
        if ply in plies:
            view = view_dict(game.view(seat))
            out[ply] = {"hand": view["hand"], "trick": view["trick"], "trump": view["trump"],
                        "phase": view["phase"]}
        game.apply(parse_game_action(game.rules, text))
    return out


def _payload(review: HandReview, record: GameRecord, game_no: int) -> dict[str, Any]:
    data = review.to_dict()
    data["game_no"] = game_no
    seen = boards(record, review.seat, {d.ply for d in review.decisions})
    for decision in data["decisions"]:
        decision["board"] = seen.get(decision["ply"])
    return data


def played_games(rows: list[TableRow], name: str) -> list[PlayedGame]:
    """The games of the person seated as ``name`` at the stored tables ``rows``, for
    :func:`pinochlekit.review.stats.collect`: the opponents are the other side's seats
    (their levels, "people" for persons)."""
    out: list[PlayedGame] = []
    for row in rows:
        kinds = {s.seat: ("people" if s.kind == "human" else s.kind) for s in row.seats}
        when = datetime.fromtimestamp(row.created, UTC).strftime("%Y-%m-%d %H:%M")
        for seat in (s.seat for s in row.seats if s.kind == "human" and s.name == name):
            for game in row.games:
                others = Rules.from_string(game.rules).opponents(seat)
                opponents = ", ".join(sorted({kinds.get(s, "?") for s in others}))
                if Rules.from_string(game.rules).deck == "double":
                    continue  # docs/review.md "Statistics": single-deck games, one scale
                record = GameRecord(game.rules, game.seed, game.dealer, tuple(game.actions))
                out.append(PlayedGame(f"web {row.id} game {game.game_no + 1}",
                                      f"{when} #{game.game_no + 1}", record, seat, opponents))
    return out


class Reviews:
    """The web's reviews: a pool of ``threads`` threads, at most ``queue`` more waiting,
    one review per client at a time, finished ones cached. ``time`` and ``repeats``
    are the budget (docs/review.md)."""

    def __init__(self, threads: int = 1, queue: int = 8, time: float = 1.0,
                 repeats: int = 3, cache: Path | None = None) -> None:
        self.threads = max(1, threads)
        self.queue = max(0, queue)
        self.time = time
        self.repeats = repeats
        self.pool = ThreadPoolExecutor(self.threads, thread_name_prefix="review")
        self.cache: OrderedDict[Key, dict[str, Any]] = OrderedDict()
        self.jobs: dict[Key, _Job] = {}
        self.stats_cache = SharedReviewCache(cache)  # hand summaries for the stats page
        self.stats_jobs: dict[str, _Job] = {}
        self.stats_done: OrderedDict[str, dict[str, Any]] = OrderedDict()

    def _check(self, table: Table, game_no: int, hand: int, seat: Any,
               token_seat: int | None) -> int:
        """The seat to review; :class:`ReviewRefusedError` unless the hand is finished."""
        if not table.games:
            raise ReviewRefusedError("no_hand", "no game has started at this table yet", 404)
        if not 0 <= game_no < len(table.games):
            raise ReviewRefusedError("no_hand", f"no game {game_no} at this table "
                                f"(games: 0 to {len(table.games) - 1})", 404)
        game = table.games[game_no][1]
        finished = len(game.results)
        if hand < 1:
            raise ReviewRefusedError("no_hand", f"hand {hand}: hands are numbered from 1", 404)
        if hand > finished:
            if hand == finished + 1 and game.phase is not Phase.GAME_OVER:
                raise ReviewRefusedError(
                    "in_play", f"hand {hand} is in play: a hand is reviewed only once it "
                    "is over", 409)
            raise ReviewRefusedError("no_hand", f"no finished hand {hand} in game {game_no} "
                                f"(finished hands: 1 to {finished})", 404)
        players = len(table.seats)
        if seat is None:
            seat = token_seat if token_seat is not None else 0
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
            raise ReviewRefusedError("bad_seat", f"seat: 0 to {players - 1}", 422)
        return seat

    async def request(self, table: Table, game_no: int, hand: int, seat: Any,
                      token_seat: int | None, client: str) -> dict[str, Any]:
        """Start the review of hand ``hand`` of game ``game_no`` from ``seat`` (``None``:
        the client's own seat, a spectator's seat 0), or say how far it is: ``{"status":
        "done", "review": ...}`` or ``{"status": "running", "done": D, "total": T}``.
        :class:`ReviewRefusedError` for a hand not finished, a bad seat, or too much work."""
        seat = self._check(table, game_no, hand, seat, token_seat)
        key: Key = (table.id, game_no, hand, seat, self.time, self.repeats)
        if key in self.cache:
            self.cache.move_to_end(key)
            return {"status": "done", "seat": seat, "review": self.cache[key]}
        job = self.jobs.get(key)
        if job is not None:
            if job.error is not None:
                del self.jobs[key]
                raise ReviewRefusedError("failed", job.error, 500)
            return {"status": "running", "seat": seat, "done": job.done, "total": job.total}
        if any(j.client == client and j.error is None for j in self.jobs.values()):
            raise ReviewRefusedError("busy", "you have a review running already: wait for it "
                                "(one review at a time)", 429)
        if sum(j.error is None for j in self.jobs.values()) >= self.threads + self.queue:
            raise ReviewRefusedError("busy", "the server is busy with other reviews; try again "
                                "in a minute", 503)
        record = table.games[game_no][1].record
        job = self.jobs[key] = _Job(client)
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self.pool, self._run, key, job, record, hand, seat,
                                      game_no)
        future.add_done_callback(lambda f: self._finished(key, job, f))
        return {"status": "running", "seat": seat, "done": 0, "total": 0}

    def _run(self, key: Key, job: _Job, record: GameRecord, hand: int, seat: int,
             game_no: int) -> dict[str, Any]:
        """In a pool thread: the review, its progress kept in ``job``."""

        def progress(done: int, total: int) -> None:
            job.done, job.total = done, total

        review = review_hand(record, hand, seat, time=self.time, repeats=self.repeats,
                             seed=f"{key[0]}/{game_no}/{hand}", progress=progress)
        return _payload(review, record, game_no)

    def _finished(self, key: Key, job: _Job, future: asyncio.Future[dict[str, Any]]) -> None:
        """On the loop: cache a finished review; keep a failure for the next request."""
        error = None if future.cancelled() else future.exception()
        if future.cancelled() or error is not None:
            log.error("review %s failed: %r", key, error)
            job.error = "the review failed; try again"
            return
        self.jobs.pop(key, None)
        self.cache[key] = future.result()
        while len(self.cache) > CACHE_SIZE:
            self.cache.popitem(last=False)

    def stats(self, name: str, games: list[PlayedGame], client: str) -> dict[str, Any]:
        """The statistics of ``name`` over ``games`` (docs/review.md "Statistics"):
        ``{"status": "done", "stats": ...}``, or its progress while its hands are
        reviewed in the pool (the same limits as a review)."""
        hands = sum(len(g.record.actions) for g in games)
        key = f"{name}\n{len(games)}\n{hands}"
        if key in self.stats_done:
            return {"status": "done", "stats": self.stats_done[key]}
        job = self.stats_jobs.get(key)
        if job is not None:
            if job.error is not None:
                del self.stats_jobs[key]
                raise ReviewRefusedError("failed", job.error, 500)
            return {"status": "running", "done": job.done, "total": job.total}
        running = [j for j in (*self.jobs.values(), *self.stats_jobs.values())
                   if j.error is None]
        if any(j.client == client for j in running):
            raise ReviewRefusedError("busy", "you have a review running already: wait for "
                                     "it (one review at a time)", 429)
        if len(running) >= self.threads + self.queue:
            raise ReviewRefusedError("busy", "the server is busy with other reviews; try "
                                     "again in a minute", 503)
        job = self.stats_jobs[key] = _Job(client)

        def run() -> dict[str, Any]:
            def progress(done: int, total: int) -> None:
                job.done, job.total = done, total

            try:
                found = collect(games, time=self.time, repeats=self.repeats,
                                cache=self.stats_cache, progress=progress)
            finally:
                self.stats_cache.save()  # the hands reviewed so far survive a restart
            return summarize(name, found, time=self.time, repeats=self.repeats)

        future = asyncio.get_running_loop().run_in_executor(self.pool, run)

        def finished(f: asyncio.Future[dict[str, Any]]) -> None:
            if f.cancelled() or f.exception() is not None:
                log.error("stats of %r failed: %r", name, None if f.cancelled()
                          else f.exception())
                job.error = "the statistics failed; try again"
                return
            self.stats_jobs.pop(key, None)
            self.stats_done[key] = f.result()
            while len(self.stats_done) > CACHE_SIZE:
                self.stats_done.popitem(last=False)

        future.add_done_callback(finished)
        return {"status": "running", "done": 0, "total": 0}

    def shutdown(self) -> None:
        """Stop the pool (running reviews are abandoned)."""
        self.pool.shutdown(wait=False, cancel_futures=True)
