"""Claims at the web table: the checks live in :mod:`pinochlekit.players.claim`, shared
with the terminal table (docs/web.md "Claim")."""

from pinochlekit.players.claim import (
    CLAIM_TRICKS,
    best_play,
    claim_is_sure,
    claimable,
    in_play,
    other_side,
)

__all__ = ["CLAIM_TRICKS", "best_play", "claim_is_sure", "claimable", "in_play",
           "other_side"]
