r"""A double-deck game (docs/rules.md §6) told hand by hand, as lines of text.

What ``pinochle demo`` and ``pinochle replay`` print for ``--rules doubledeck``:
the story is rebuilt by replaying the game's record, so a finished game and the
same game read back from its JSON record read alike.

>>> from pinochlekit.engine.actions import parse_action
>>> from pinochlekit.engine.double.game import DoubleDeckGame
>>> game = DoubleDeckGame.new("doubledeck", seed=1, dealer=3)
>>> for text in ("bid 50", "pass", "pass", "pass"):
...     game.apply(parse_action(text))
>>> lines = narrate_double(game)
>>> lines[0]
'game: rules doubledeck (double deck), seed 1, first dealer seat 3'
>>> [line for line in lines if line.startswith(("auction", "contract"))]
['auction: 0 bid 50, 1 pass, 2 pass, 3 pass', 'contract: seat 0 bids 50']
"""

from __future__ import annotations

from collections.abc import Collection

from pinochlekit.engine.actions import parse_action
from pinochlekit.engine.double.game import DoubleDeckGame
from pinochlekit.engine.events import (
    BidMade,
    CardsPassed,
    ContractWon,
    Dealt,
    HandScored,
    MeldShown,
    Passed,
    TrickWon,
    TrumpNamed,
)
from pinochlekit.engine.record import GameRecord
from pinochlekit.text.narrate import format_hand, format_meld, format_trick
from pinochlekit.text.results import winner_note

__all__ = ["narrate_double"]


def _deal_lines(game: DoubleDeckGame) -> list[str]:
    lines = [f"== hand {game.hand_number}, dealer seat {game.dealer} ==", "deal:"]
    return lines + [f"  seat {s}: {format_hand(game.hand(s))}" for s in range(4)]


def narrate_double(game: DoubleDeckGame, hands: Collection[int] | None = None) -> list[str]:
    """Tell the game as text lines (only the hands numbered in ``hands``, if given)."""
    record = game.record
    shadow = DoubleDeckGame.from_record(GameRecord(record.rules, record.seed, record.dealer,
                                                   (), record.deals))
    lines = [f"game: rules {record.rules} (double deck), seed {record.seed}, first dealer "
             f"seat {record.dealer}", ""]
    told: list[str] = _deal_lines(shadow)
    auction: list[str] = []
    tricks: list[str] = []

    def close(number: int) -> None:
        nonlocal told, auction, tricks
        if hands is None or number in hands:
            lines.extend(told)
            lines.append("")
        told, auction, tricks = [], [], []

    for text in record.actions:
        number = shadow.hand_number
        for event in shadow.step(parse_action(text)):
            if isinstance(event, BidMade | Passed):
                word = f"bid {event.amount}" if isinstance(event, BidMade) else "pass"
                auction.append(f"{event.seat} {word}")
            elif isinstance(event, ContractWon):
                told.append("auction: " + ", ".join(auction))
                stuck = all(a.endswith("pass") for a in auction)
                how = "is stuck with" if stuck else "bids"
                told.append(f"contract: seat {event.seat} {how} {event.contract}")
            elif isinstance(event, TrumpNamed):
                told.append(f"trump: {event.suit.letter} ({event.suit.name.lower()})")
            elif isinstance(event, CardsPassed):
                verb = "gives" if shadow.returned is None and shadow.melds is None else "returns"
                told.append(f"pass: seat {event.seat} {verb} {' '.join(map(str, event.cards))}")
            elif isinstance(event, MeldShown):
                if event.seat == 0:
                    told.append("meld:")
                assert shadow.melds is not None
                told.append(f"  seat {event.seat}: {format_meld(shadow.melds[event.seat])}")
            elif isinstance(event, TrickWon):
                if event.number == 1:
                    told.append("tricks:")
                told.append("  " + format_trick(event.number, event.trick))
            elif isinstance(event, HandScored):
                if not any(line.startswith("auction") for line in told):
                    told.append("auction: " + ", ".join(auction))
                told += event.result.summary().splitlines()
            elif isinstance(event, Dealt):
                close(number)
                told = _deal_lines(shadow)
    if shadow.winner is None:
        if shadow.phase.value == "auction" and auction:
            told.append("auction so far: " + ", ".join(auction))
        if shadow.trick:
            told.append("  current trick: " + " ".join(
                f"{s}:{c}" for s, c in shadow.view(None).trick))
        told.append(f"in progress: seat {shadow.to_act} to act ({shadow.phase})")
        close(shadow.hand_number)
        lines.append(f"game in progress after {len(shadow.results)} hands: team 0 "
                     f"{shadow.scores[0]}, team 1 {shadow.scores[1]}")
    else:
        close(shadow.hand_number)
        note = winner_note(shadow.scores, shadow.winner, shadow.rules.game_target,
                           shadow.results)
        lines.append(f"winner: team {shadow.winner} (seats {shadow.winner} and "
                     f"{shadow.winner + 2}); team 0 {shadow.scores[0]}, team 1 "
                     f"{shadow.scores[1]} after {len(shadow.results)} hands"
                     + (f" ({note})" if note else ""))
    return lines
