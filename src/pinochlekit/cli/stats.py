"""``pinochle stats``: a person's statistics over the terminal's saved games and the
web's tables (:mod:`pinochlekit.review.stats`), as text or JSON."""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path

from pinochlekit.engine.errors import PinochleError
from pinochlekit.engine.rules import Rules
from pinochlekit.review.stats import PlayedGame, ReviewCache, collect, stats_text, summarize
from pinochlekit.usage import UsageError

__all__ = ["add_stats", "run_stats"]


def add_stats(sub: argparse.ArgumentParser) -> None:
    """The options of ``pinochle stats``."""
    sub.add_argument("--name", metavar="NAME",
                     help="also the web games of the person seated under this name "
                          "(at the server's database, --db)")
    sub.add_argument("--db", metavar="URL",
                     help="the web server's database (default: the one 'pinochle serve' "
                          "uses)")
    sub.add_argument("--store", metavar="FILE", type=Path,
                     help="the terminal's saved games (default: the data directory's)")
    sub.add_argument("--no-terminal", action="store_true",
                     help="leave out the terminal's saved games")
    sub.add_argument("--cache", metavar="FILE", type=Path,
                     help="the reviews already made (default: review-cache.json in the "
                          "data directory); a second run reviews only new hands")
    sub.add_argument("--time", type=float, default=1.0, metavar="SECONDS",
                     help="expert's budget per valuation (default 1.0, as 'pinochle review')")
    sub.add_argument("--repeats", type=int, default=3, metavar="K",
                     help="valuations per decision (default 3)")
    sub.add_argument("--json", action="store_true", help="print the statistics as JSON")


def _terminal_games(path: Path | None) -> list[PlayedGame]:
    from pinochlekit.tui.store import GameStore, StoreError

    try:
        store = GameStore(path)
    except StoreError as error:
        raise UsageError(str(error)) from None
    games = []
    try:
        for game_id in store.game_ids(finished=None):
            try:
                games.append(store.load(game_id))
            except StoreError:  # a damaged game: left out, as one whose rules no longer read
                continue
    except StoreError as error:
        raise UsageError(str(error)) from None
    finally:
        store.close()
    out = []
    for saved in reversed(games):  # oldest first
        try:
            others = Rules.from_string(saved.record.rules).opponents(0)
        except (PinochleError, ValueError):  # rules that no longer read: left out
            continue
        opponents = ", ".join(sorted({saved.seats[s] for s in others if s < len(saved.seats)}))
        out.append(PlayedGame(f"terminal {saved.id}", saved.created[:16], saved.record, 0,
                              opponents))
    return out


def _web_games(url: str | None, name: str) -> list[PlayedGame]:
    try:
        from pinochlekit.web.hub import default_db_url
        from pinochlekit.web.review import played_games
        from pinochlekit.web.storage import StoreError, TableStore
    except ImportError as error:
        raise UsageError(f"the web games need the web extra ({error.name} is missing): "
                         "pip install 'pinochlekit[web]'") from None
    try:
        store = TableStore.open(url or default_db_url())
    except StoreError as error:
        raise UsageError(str(error)) from None
    try:
        rows = [row for row in (store.load_table(i) for i in store.tables_of(name)) if row]
    finally:
        store.close()
    return played_games(rows, name)


def _data_dir() -> Path:
    from pinochlekit.tui.store import data_dir

    try:
        return data_dir()
    except ImportError:
        return Path(os.environ.get("PINOCHLEKIT_DATA", Path.home() / ".local/share/pinochlekit"))


def run_stats(args: argparse.Namespace) -> int:
    """Run ``pinochle stats``; a progress line on stderr while hands are reviewed."""
    if args.repeats < 2:
        raise UsageError(f"--repeats: at least 2 (the noise needs two samples), not "
                         f"{args.repeats}")
    if not 0 < args.time <= 60:
        raise UsageError(f"--time: above 0 and at most 60 seconds, not {args.time}")
    if args.name is not None and not args.name.strip():
        raise UsageError("--name: give the display name of a web seat")
    games: list[PlayedGame] = []
    if not args.no_terminal:
        games += _terminal_games(args.store)
    if args.name:
        games += _web_games(args.db, args.name.strip())
    cache = ReviewCache(args.cache or _data_dir() / "review-cache.json")
    show = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if show:
            print(f"\rreviewing: hand {done} of {total}", end="", file=sys.stderr, flush=True)

    try:
        hands = collect(games, time=args.time, repeats=args.repeats, cache=cache,
                        progress=progress)
    finally:
        cache.save()  # the hands reviewed so far are kept, even after Ctrl-C
    if show and hands:
        print(file=sys.stderr)
    name = args.name or "you"
    summary = summarize(name, hands, time=args.time, repeats=args.repeats)
    summary["made_at"] = datetime.now(UTC).strftime("%Y-%m-%d %H:%M")
    print(json.dumps(summary, indent=2) if args.json else stats_text(summary))
    return 0
