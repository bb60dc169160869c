"""The one error every command line shares: bad usage, reported as one line with
exit status 2 (``pinochle``, ``pinochle play``, ``pinochle serve``)."""

from __future__ import annotations

__all__ = ["UsageError"]


class UsageError(Exception):
    """Bad command-line usage: reported as one line, exit status 2."""
