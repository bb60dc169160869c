"""Duplicate matches between two players, with confidence intervals.

:mod:`pinochlekit.match.duplicate` plays the deal pairs (and game pairs);
:mod:`pinochlekit.match.run` shares them among processes or Ray tasks, with
:mod:`pinochlekit.match.resume` keeping finished ones for an interrupted match;
:mod:`pinochlekit.match.stats` holds the statistics.
"""

from pinochlekit.match.duplicate import (
    FORMAT,
    DealPair,
    GamePair,
    HandOutcome,
    MatchConfig,
    MatchError,
    MatchResult,
    ProgressBar,
    Work,
    create_player,
    play_deal_pair,
    play_game_pair,
    seatings,
)
from pinochlekit.match.run import RAY_INSTALL, run_match
from pinochlekit.match.stats import Interval, interval, t_quantile

__all__ = [
    "FORMAT",
    "RAY_INSTALL",
    "DealPair",
    "GamePair",
    "HandOutcome",
    "Interval",
    "MatchConfig",
    "MatchError",
    "MatchResult",
    "ProgressBar",
    "Work",
    "create_player",
    "interval",
    "play_deal_pair",
    "play_game_pair",
    "run_match",
    "seatings",
    "t_quantile",
]
