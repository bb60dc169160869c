"""Reviews of finished hands: where a seat lost points, what the best play was
(:mod:`pinochlekit.review.hand`)."""

from pinochlekit.review.hand import (
    BLUNDER,
    DOUBTFUL,
    DecisionReview,
    DoubleDummy,
    HandReview,
    OptionValue,
    ReviewError,
    review_hand,
)

__all__ = [
    "BLUNDER",
    "DOUBTFUL",
    "DecisionReview",
    "DoubleDummy",
    "HandReview",
    "OptionValue",
    "ReviewError",
    "review_hand",
]
