r"""A two-handed game told hand by hand (what ``pinochle demo --rules two`` prints).

Like :mod:`pinochlekit.text.narrate`, the story is rebuilt by replaying the game's
record and reading the events each action causes (:meth:`TwoHandedGame.step`), so a
finished game and its JSON record read alike: the deal, the turned-up card, every
trick with the meld laid after it, the moment the stock runs out, and each hand's
score.

>>> from pinochlekit.engine.two.game import TwoHandedGame
>>> game = TwoHandedGame.new("two", seed=2)
>>> for _ in range(3):
...     game.apply(game.legal_actions()[0])
>>> lines = narrate_two(game)
>>> lines[0]
'game: rules two (two-handed), seed 2, first dealer seat 0'
>>> lines[-1]
'game in progress after 0 hands: seat 0 0, seat 1 0'
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from pinochlekit.engine.cards import Hand, Suit
from pinochlekit.engine.events import Dealt, HandScored, MeldShown, TrickWon
from pinochlekit.engine.record import GameRecord
from pinochlekit.engine.two.actions import parse_two_action
from pinochlekit.engine.two.game import TwoHandedGame

__all__ = ["narrate_two"]


def _hand(hand: Hand) -> str:
    return "  ".join(str(hand.suit(s)) for s in Suit if hand.suit(s).once)


def narrate_two(game: TwoHandedGame, hands: Collection[int] | None = None) -> list[str]:
    """Tell the game as text lines (only the hands numbered in ``hands``, if given)."""
    record = game.record
    lines = [f"game: rules {record.rules} (two-handed), seed {record.seed}, first dealer "
             f"seat {record.dealer}", ""]
    shadow = TwoHandedGame.from_record(GameRecord(record.rules, record.seed, record.dealer,
                                                  (), record.deals))
    told: list[str] = []
    late = False

    def deal() -> None:
        nonlocal late
        first, second, rest = shadow.dealt
        told.extend([f"== hand {shadow.hand_number}, dealer seat {shadow.dealer} ==",
                     "deal:", f"  seat 0: {_hand(first)}", f"  seat 1: {_hand(second)}",
                     f"turned up: {rest[0]} (trump {shadow.trump.name.lower()}); stock "
                     f"{len(rest)} cards"])
        late = False

    def flush(number: int) -> None:
        if hands is None or number in hands:
            lines.extend(told)
            lines.append("")
        told.clear()

    deal()
    # docs/rules.md §4: a nine turned up at the first deal scores the dealer at once
    told.extend(_meld_line(e.seat, e.name, e.cards, e.points) for e in shadow.events)
    for text in record.actions:
        number = shadow.hand_number
        # what the action caused, from the engine's events (engine/events.py)
        for event in shadow.step(parse_two_action(text)):
            if isinstance(event, TrickWon):
                trick = event.trick
                told.append(_trick_line(event.number, trick.seats, trick.cards,
                                        trick.winner, trick.points))
            elif isinstance(event, MeldShown):
                told.extend(_meld_line(event.seat, item.name, item.cards, item.points)
                            for item in event.items)
            elif isinstance(event, HandScored):
                told.extend(event.result.summary().splitlines())
                flush(number)
            elif isinstance(event, Dealt):
                deal()
        if shadow.stock_size == 0 and not late and shadow.winner is None:
            late = True
            told.append("  the stock is gone: the last 12 tricks follow suit and must win")
    if told:
        told.append(f"in progress: seat {shadow.to_act} to act ({shadow.stage})")
        flush(shadow.hand_number)
    scores = ", ".join(f"seat {s} {v}" for s, v in enumerate(game.scores))
    count = len(game.results)
    played = f"{count} hand" if count == 1 else f"{count} hands"
    if game.winner is None:
        lines.append(f"game in progress after {played}: {scores}")
    else:
        lines.append(f"winner: seat {game.winner}; {scores} after {played} (target "
                     f"{game.target})")
    return lines


def _meld_line(seat: int, name: str, cards: Sequence[object], points: int) -> str:
    return f"      seat {seat}: {name} {' '.join(map(str, cards))} +{points}"


def _trick_line(number: int, seats: tuple[int, ...], cards: tuple[object, ...], winner: int,
                points: int) -> str:
    played = " ".join(f"{s}:{c}" for s, c in zip(seats, cards, strict=True))
    return f"  {number:2d}. {played} -> {winner} (+{points})"
