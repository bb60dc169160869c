"""Reviews of finished hands: where a seat lost points, what the best play was
(:mod:`pinochlekit.review.hand`)."""

from pinochlekit.review.hand import (
    BLUNDER,
    DOUBLE_DECK_SCALE,
    DOUBLE_DECK_TRICKS,
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
    "DOUBLE_DECK_SCALE",
    "DOUBLE_DECK_TRICKS",
    "DOUBTFUL",
    "DecisionReview",
    "DoubleDummy",
    "HandReview",
    "OptionValue",
    "ReviewError",
    "review_hand",
]
