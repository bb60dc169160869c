"""Running a match: the deal pairs and game pairs shared among worker processes on this
machine, or among the tasks of a Ray cluster, optionally kept in a folder so that an
interrupted match goes on where it stopped.

Every pair is a pure function of the match settings and its index
(:mod:`pinochlekit.match.duplicate`), so the per-pair results are the same whatever
the number of workers, where they run, in which order they finish, and whether the
match was interrupted and resumed.
"""

from __future__ import annotations

import multiprocessing
import os
import secrets
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

from pinochlekit.engine.errors import PinochleError
from pinochlekit.engine.rules import Rules
from pinochlekit.match import duplicate
from pinochlekit.match.duplicate import (
    SIDES,
    DealPair,
    GamePair,
    MatchConfig,
    MatchError,
    MatchResult,
    Work,
    _check_rules,
    _run_chunk,
)

__all__ = ["RAY_INSTALL", "run_match"]

#: What to install for ``--ray`` (the optional extra).
RAY_INSTALL = "pip install 'pinochlekit[ray]'"

Task = tuple[str, int, int]
Collect = Callable[[str, Sequence[DealPair | GamePair], Work], None]


def _runs(missing: Sequence[int], size: int) -> list[tuple[int, int]]:
    """The missing indices (sorted) as ranges of at most ``size`` consecutive ones."""
    out: list[tuple[int, int]] = []
    for index in missing:
        if out and out[-1][1] == index and out[-1][1] - out[-1][0] < size:
            out[-1] = (out[-1][0], index + 1)
        else:
            out.append((index, index + 1))
    return out


def _size(total: int, workers: int) -> int:
    """Pairs per unit of work: small enough to share among workers (and to lose little
    when a match is interrupted), large enough to keep the overhead low."""
    return max(1, min(25, total // (workers * 8) or 1))


def _local(config: MatchConfig, tasks: Sequence[Task], workers: int,
           collect: Collect) -> None:
    if workers == 1:
        for kind, start, stop in tasks:
            collect(kind, *_run_chunk(config, kind, start, stop))
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        pending: dict[Future[Any], str] = {
            pool.submit(_run_chunk, config, kind, start, stop): kind
            for kind, start, stop in tasks}
        try:
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    kind = pending.pop(future)
                    collect(kind, *future.result())
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise


def ray_module() -> Any:
    """The ``ray`` package, or :class:`MatchError` saying how to install it."""
    try:
        import ray
    except ImportError:
        raise MatchError(f"--ray needs Ray, which is not installed: {RAY_INSTALL}") from None
    return ray


def _on_ray(config: MatchConfig, tasks: Sequence[Task], address: str,
            workers: int | None, collect: Collect) -> int:
    """Run the tasks as Ray tasks: on a local Ray (``address`` "local", at most
    ``workers`` CPUs) or on the cluster at ``address``. Returns the CPUs Ray offered."""
    ray = ray_module()
    started_here = not ray.is_initialized()
    if started_here:
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                   "configure_logging": False}
        if address == "local":
            options["num_cpus"] = workers or os.cpu_count() or 1
        else:
            options["address"] = address
        try:
            ray.init(**options)
        except Exception as error:  # Ray raises many kinds; say which address failed
            raise MatchError(f"--ray {address}: Ray did not start: {error}") from None
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        remote = ray.remote(num_cpus=1, max_retries=0)(_run_chunk)
        pending = {remote.remote(config, kind, start, stop): kind
                   for kind, start, stop in tasks}
        try:
            while pending:
                finished, _ = ray.wait(list(pending), num_returns=1)
                for ref in finished:
                    kind = pending.pop(ref)
                    try:
                        pairs, part = ray.get(ref)
                    except ray.exceptions.RayTaskError as error:
                        cause = error.as_instanceof_cause()
                        if isinstance(cause, PinochleError):
                            raise MatchError(str(cause).splitlines()[-1]) from None
                        raise
                    collect(kind, pairs, part)
        except BaseException:
            for ref in pending:
                ray.cancel(ref, force=True)
            raise
        return cpus
    finally:
        if started_here:
            ray.shutdown()


def run_match(a: str, b: str, *, deals: int = 100, games: int = 0,
              seed: int | str | None = None, rules: str | Rules = "pagat",
              workers: int | None = None, timeout: float = 10.0,
              progress: Callable[[int, int], None] | None = None,
              ray: str | None = None, resume: str | Path | None = None) -> MatchResult:
    """Play ``deals`` deal pairs and ``games`` game pairs between players A and B.

    ``a`` and ``b`` are player specs (``simple``, ``cmd:PROGRAM ARGS`` …);
    ``seed`` fixes everything (a random one is drawn if omitted); ``workers``
    processes share the pairs (default: every core) without changing any
    result. ``ray``: run the pairs as Ray tasks instead, ``"local"`` for a Ray
    started here (with ``workers`` CPUs) or a cluster's address (needs the ``ray``
    extra). ``resume``: a folder where finished pairs are kept; started again with
    the same arguments, the match plays only the pairs missing there (with
    ``resume`` a seed must be given). ``progress(done, total)`` is called as pairs
    finish. Raises :class:`MatchError` when a player fails.
    """
    if deals < 0 or games < 0 or deals + games == 0:
        raise MatchError(f"a match needs at least one deal pair or game pair, not "
                         f"deals={deals}, games={games}")
    if workers is not None and workers < 1:
        raise MatchError(f"workers must be at least 1, not {workers}")
    if resume is not None and seed is None:
        raise MatchError("--resume needs a --seed: a resumed match must play the same deals")
    if ray is not None:
        ray_module()
    rules_text = str(_check_rules(rules))
    for side, spec in zip(SIDES, (a, b), strict=True):
        try:  # an unknown name or option fails here, before any work
            duplicate.create_player(spec, 0, timeout=timeout).close()
        except PinochleError as error:
            raise MatchError(f"player {side} ({spec}): {error}") from None
    config = MatchConfig(a.strip(), b.strip(), rules_text,
                         secrets.randbelow(10**9) if seed is None else seed, timeout)
    found: dict[str, dict[int, Any]] = {"deal": {}, "game": {}}
    work = Work()
    folder = None
    if resume is not None:
        from pinochlekit.match.resume import ResumeFolder

        folder = ResumeFolder(resume, config, deals, games)  # same deals and games, or refused
        found, work = folder.finished()
    share = workers or os.cpu_count() or 1
    tasks: list[Task] = []
    for kind, total in (("deal", deals), ("game", games)):
        missing = [i for i in range(total) if i not in found[kind]]
        tasks += [(kind, s, e) for s, e in _runs(missing, _size(total, share))]
    done = sum(len(pairs) for pairs in found.values())
    total_pairs = deals + games
    started = time.perf_counter()

    def collect(kind: str, pairs: Iterable[DealPair | GamePair], part: Work) -> None:
        nonlocal done
        pairs = list(pairs)
        for pair in pairs:
            found[kind][pair.index] = pair
        work.add(part)
        if folder is not None:
            folder.save(kind, pairs, part)
        done += len(pairs)
        if progress is not None:
            progress(done, total_pairs)

    if progress is not None:
        progress(done, total_pairs)
    if ray is not None:
        used = _on_ray(config, tasks, ray, workers, collect) if tasks else 0
    else:
        used = max(1, min(share, len(tasks) or 1))
        _local(config, tasks, used, collect)
    seconds = time.perf_counter() - started
    return MatchResult(config, tuple(found["deal"][i] for i in range(deals)),
                       tuple(found["game"][i] for i in range(games)), max(1, used),
                       seconds, work)
