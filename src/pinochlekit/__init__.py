"""pinochlekit: four-handed partnership auction pinochle as a typed library.

>>> from pinochlekit import Game, Rules, meld, parse_cards, Suit
>>> meld(parse_cards("QS JD QS JD"), Suit.HEARTS, Rules()).points
300
"""

from pinochlekit.engine.actions import (
    Action,
    Bid,
    Discard,
    Give,
    Moon,
    NameTrump,
    Pass,
    Play,
    Redeal,
    Return,
    ThrowIn,
    parse_action,
)
from pinochlekit.engine.cards import ALL_CARDS, Card, Hand, Rank, Suit, parse_cards, parse_suit
from pinochlekit.engine.deals import deal, deal_seed
from pinochlekit.engine.errors import (
    GameOverError,
    IllegalActionError,
    NotationError,
    OutOfTurnError,
    PhaseError,
    PinochleError,
    RecordError,
    RulesError,
)
from pinochlekit.engine.events import (
    BidMade,
    CardPlayed,
    CardsPassed,
    ContractWon,
    Dealt,
    Discarded,
    Drew,
    Event,
    GameWon,
    HandScored,
    MeldDeclined,
    MeldShown,
    MoonShot,
    Passed,
    RedealCalled,
    ThrownIn,
    TrickWon,
    TrumpNamed,
)
from pinochlekit.engine.game import Game
from pinochlekit.engine.games import AnyGame, new_game, parse_game_action, replay
from pinochlekit.engine.meld import MeldItem, MeldResult, meld
from pinochlekit.engine.record import GameRecord
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.three.game import ThreeHandedGame
from pinochlekit.engine.tricks import legal_plays, trick_winner
from pinochlekit.engine.two.actions import Dix, LayMeld, NoMeld, parse_two_action
from pinochlekit.engine.two.game import TwoHandedGame
from pinochlekit.engine.two.views import TwoHandedView, TwoStage
from pinochlekit.engine.views import HandResult, Outcome, Phase, Trick, View

__version__ = "0.1.0"

__all__ = [
    "ALL_CARDS",
    "Action",
    "AnyGame",
    "Bid",
    "BidMade",
    "Card",
    "CardPlayed",
    "CardsPassed",
    "ContractWon",
    "Dealt",
    "Discard",
    "Discarded",
    "Dix",
    "Drew",
    "Event",
    "Game",
    "GameOverError",
    "GameRecord",
    "GameWon",
    "Give",
    "Hand",
    "HandResult",
    "HandScored",
    "IllegalActionError",
    "LayMeld",
    "MeldDeclined",
    "MeldItem",
    "MeldResult",
    "MeldShown",
    "Moon",
    "MoonShot",
    "NameTrump",
    "NoMeld",
    "NotationError",
    "OutOfTurnError",
    "Outcome",
    "Pass",
    "Passed",
    "Phase",
    "PhaseError",
    "PinochleError",
    "Play",
    "Rank",
    "RecordError",
    "Redeal",
    "RedealCalled",
    "Return",
    "Rules",
    "RulesError",
    "Suit",
    "ThreeHandedGame",
    "ThrowIn",
    "ThrownIn",
    "Trick",
    "TrickWon",
    "TrumpNamed",
    "TwoHandedGame",
    "TwoHandedView",
    "TwoStage",
    "View",
    "__version__",
    "deal",
    "deal_seed",
    "legal_plays",
    "meld",
    "new_game",
    "parse_action",
    "parse_cards",
    "parse_game_action",
    "parse_suit",
    "parse_two_action",
    "replay",
    "trick_winner",
]
