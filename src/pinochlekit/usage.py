"""The one error every command line shares: bad usage, reported as one line with
exit status 2 (``pinochle``, ``pinochle play``, ``pinochle serve``)."""

from __future__ import annotations

__all__ = ["UsageError", "seed_number"]


class UsageError(Exception):
    """Bad command-line usage: reported as one line, exit status 2."""


def seed_number(text: str) -> int | str:
    """A ``--seed`` as typed: a whole number (decimal digits, an optional minus) is
    that number, any other text (``²`` too) is a text seed; :class:`UsageError` for a
    number longer than Python reads (4,300 digits)."""
    digits = text.removeprefix("-")
    if not digits.isdecimal():
        return text
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"--seed: a number of at most 4300 digits, not {len(digits)}") from None
