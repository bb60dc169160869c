"""The terminal's review of a finished hand (key ``v``): the text of
:func:`pinochlekit.review.review_hand` for the person's seat, in the table's words
and cards (``K♦ 10♣``, never ``KD TC``)."""

from __future__ import annotations

from collections.abc import Callable

from pinochlekit.engine.record import GameRecord
from pinochlekit.review import BLUNDER, DOUBTFUL, review_hand
from pinochlekit.tui.session import for_people

__all__ = ["progress_bar", "review_text"]


def review_text(record: GameRecord, hand: int, seat: int, time: float,
                progress: Callable[[int, int], None] | None = None) -> str:
    """The review of ``hand`` from ``seat`` as lines for the dialog (and for
    ``pinochle history --review``), with a key to the marks first; cards in people's
    notation (``K♦ 10♣``)."""
    review = review_hand(record, hand, seat, time=time, progress=progress)
    # the marks' thresholds in the game's own scale (docs/review.md)
    key = (f"?: lost {DOUBTFUL / review.scale:g} points or more, ??: "
           f"{BLUNDER / review.scale:g} or more (beyond the noise). Values: what "
           "expert expects your side to score from each option, from what you could see.")
    marked = sum(1 for d in review.decisions if d.mark)
    summary = (f"{marked} of {len(review.decisions)} decisions marked" if review.decisions
               else "no decision of yours had a choice")
    return for_people("\n".join([key, summary, "", review.text()]))


def progress_bar(done: int, total: int, width: int = 20) -> str:
    """A review's progress as a bar of ``width`` cells for the message line.

    >>> progress_bar(3, 12, 8)
    '██░░░░░░'
    >>> progress_bar(0, 0, 4)
    '░░░░'
    """
    filled = width * done // total if total > 0 else 0
    return "█" * filled + "░" * (width - filled)
