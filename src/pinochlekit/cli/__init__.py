"""The ``pinochle`` command line (:mod:`pinochlekit.cli.main`)."""

from pinochlekit.cli.main import build_parser, main, meld_dict
from pinochlekit.usage import UsageError

__all__ = ["UsageError", "build_parser", "main", "meld_dict"]
