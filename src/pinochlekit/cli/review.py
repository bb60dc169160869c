"""``pinochle review RECORD``: where a seat lost points in a finished hand
(:mod:`pinochlekit.review`), as text or JSON."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from pinochlekit.engine.record import GameRecord
from pinochlekit.review import review_hand
from pinochlekit.usage import UsageError

__all__ = ["add_review", "run_review"]


def add_review(sub: argparse.ArgumentParser) -> None:
    """The options of ``pinochle review``."""
    sub.add_argument("file", metavar="FILE",
                     help="a game record (JSON: 'pinochle demo --record', a saved game)")
    sub.add_argument("--hand", type=int, default=1, metavar="N",
                     help="the hand to review, numbered from 1 as 'pinochle replay' does "
                          "(default 1)")
    sub.add_argument("--seat", type=int, default=0, metavar="S",
                     help="the seat whose decisions are reviewed (default 0)")
    sub.add_argument("--time", type=float, default=1.0, metavar="SECONDS",
                     help="expert's budget per valuation (default 1.0, its default level)")
    sub.add_argument("--repeats", type=int, default=3, metavar="K",
                     help="independent valuations per decision, for the noise (default 3)")
    sub.add_argument("--seed", default="0", help="the seed of the valuations (default 0)")
    sub.add_argument("--double-dummy", type=int, default=15, metavar="TRICKS",
                     help="perfect-play values from this many tricks before the end "
                          "(default 15: from the first lead of any game, as far back as the "
                          "exact search's budget reaches; two-handed the last twelve "
                          "tricks; 0: none)")
    sub.add_argument("--json", action="store_true", help="print the review as JSON")


def run_review(args: argparse.Namespace) -> int:
    """Run ``pinochle review``; a progress line on stderr while it works."""
    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"cannot read {args.file!r}: {error}") from None
    record = GameRecord.from_json(text)
    show = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if show:
            print(f"\rreviewing: decision {done} of {total}", end="", file=sys.stderr,
                  flush=True)

    review = review_hand(record, args.hand, args.seat, time=args.time,
                         repeats=args.repeats, seed=args.seed,
                         double_dummy=args.double_dummy, progress=progress)
    if show:
        print(file=sys.stderr)
    print(json.dumps(review.to_dict(), indent=2) if args.json else review.text())
    return 0
