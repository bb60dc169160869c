r"""A game told hand by hand, as lines of text.

This is what ``pinochle demo`` and ``pinochle replay`` print.
The story is rebuilt from the game's public record (rules, seed, first dealer,
actions) by replaying it, so a finished game and the same game read back
from its JSON record read exactly alike.

>>> from pinochlekit import Game, parse_action
>>> game = Game.new("pagat", seed=1, dealer=3)
>>> for text in ("bid 250", "pass", "pass", "pass"):
...     game.apply(parse_action(text))
>>> print("\n".join(narrate(game)[:2]))
game: rules pagat, seed 1, first dealer seat 3
<BLANKLINE>
>>> [line for line in narrate(game) if line.startswith(("auction", "contract"))]
['auction: 0 bid 250, 1 pass, 2 pass, 3 pass', 'contract: seat 0 bids 250']
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from pinochlekit.engine.actions import (
    Action,
    Bid,
    Discard,
    Give,
    Moon,
    NameTrump,
    Pass,
    Redeal,
    Return,
    ThrowIn,
    parse_action,
)
from pinochlekit.engine.cards import Card, Hand, Suit
from pinochlekit.engine.events import ContractWon, Dealt, HandScored
from pinochlekit.engine.game import Game
from pinochlekit.engine.meld import MeldResult
from pinochlekit.engine.record import GameRecord
from pinochlekit.engine.views import HandResult, Trick, View
from pinochlekit.text.results import winner_note

__all__ = ["HandStory", "counted", "format_hand", "format_meld", "format_trick", "narrate",
           "stories"]


@dataclass
class HandStory:
    """What happened in one deal, in the order it happened.

    ``result`` is ``None`` while the hand is in progress; ``now`` is then the
    public view of the game at the end of the record.
    """

    number: int
    dealer: int
    dealt: tuple[Hand, ...]
    auction: list[tuple[int, Action]] = field(default_factory=list)
    declarer: int | None = None
    contract: int = 0
    trump: Suit | None = None
    given: tuple[int, tuple[Card, ...]] | None = None
    returned: tuple[int, tuple[Card, ...]] | None = None
    widow: Hand | None = None
    discarded: tuple[int, tuple[Card, ...]] | None = None
    calls: list[tuple[int, Action]] = field(default_factory=list)
    result: HandResult | None = None
    now: View | None = None


def stories(game: Game) -> list[HandStory]:
    """Rebuild every deal of ``game`` so far, the last one possibly in progress."""
    record = game.record
    shadow = Game.from_record(GameRecord(record.rules, record.seed, record.dealer, (),
                                         record.deals))
    told = [_new_story(shadow)]
    for text in record.actions:
        action = parse_action(text)
        seat = shadow.to_act
        assert seat is not None
        happened = shadow.step(action, seat)
        story = told[-1]
        if isinstance(action, Bid | Pass | Redeal):
            story.auction.append((seat, action))
        elif isinstance(action, Give):
            story.given = (seat, action.cards)
        elif isinstance(action, Return):
            story.returned = (seat, action.cards)
        elif isinstance(action, Discard):
            story.discarded = (seat, action.cards)
        elif isinstance(action, ThrowIn | Moon):
            story.calls.append((seat, action))
        elif isinstance(action, NameTrump):
            story.trump = action.suit
        for event in happened:
            if isinstance(event, ContractWon):  # docs/rules.md §3: the widow turned up
                story.declarer, story.contract = event.seat, event.contract
                story.widow = Hand.from_cards(event.widow) if event.widow else None
            elif isinstance(event, HandScored):
                story.result = event.result
            elif isinstance(event, Dealt):
                told.append(_new_story(shadow))
    if told[-1].result is None:
        told[-1].now = shadow.public_view()
    return told


def _new_story(game: Game) -> HandStory:
    return HandStory(game.hand_number, game.dealer, game.dealt)


def counted(number: int, word: str) -> str:
    """``number`` and ``word``, plural unless it is one.

    >>> counted(1, "card"), counted(12, "hand")
    ('1 card', '12 hands')
    """
    return f"{number} {word}" if number == 1 else f"{number} {word}s"


def format_hand(hand: Hand) -> str:
    """Write a hand by suit, highest first, two spaces between suits.

    >>> format_hand(Hand.parse("9S AS AH TD KD"))
    'AS 9S  AH  TD KD'
    """
    return "  ".join(str(hand.suit(s)) for s in Suit if hand.suit(s).once)


def format_meld(result: MeldResult) -> str:
    """Write a player's meld itemized: ``60: common marriage KD QD 20, pinochle QS JD 40``."""
    if not result.items:
        return "0"
    items = ", ".join(f"{item.name} {' '.join(map(str, item.cards))} {item.points}"
                      for item in result.items)
    return f"{result.points}: {items}"


def format_trick(number: int, trick: Trick) -> str:
    """Write one trick: `` 3. 1:AH 2:9H 3:TH 0:KH -> 1 (+30)``."""
    played = " ".join(f"{s}:{c}" for s, c in zip(trick.seats, trick.cards, strict=True))
    return f"{number:2d}. {played} -> {trick.winner} (+{trick.points})"


def narrate(game: Game, hands: Collection[int] | None = None) -> list[str]:
    """Tell a four- or three-handed game as text lines.

    A header, then each deal (only those numbered in ``hands``, if given), then
    the winner or where the game stands. The two-handed game is told by
    :func:`~pinochlekit.text.two.narrate_two`, the double deck by
    :func:`~pinochlekit.text.double.narrate_double`; :func:`~pinochlekit.text.tell.tell`
    tells any game.
    """
    record = game.record
    lines = [f"game: rules {record.rules}, seed {record.seed}, first dealer seat "
             f"{record.dealer}", ""]
    for story in stories(game):
        if hands is None or story.number in hands:
            lines += _story_lines(story, game)
            lines.append("")
    lines.append(_ending(game))
    return lines


def _story_lines(story: HandStory, game: Game) -> list[str]:
    lines = [f"== hand {story.number}, dealer seat {story.dealer} =="]
    lines.append("deal:")
    lines += [f"  seat {seat}: {format_hand(hand)}" for seat, hand in enumerate(story.dealt)]
    if story.auction:
        lines.append("auction: " + ", ".join(f"{s} {a}" for s, a in story.auction))
    if story.declarer is not None:
        stuck = (all(isinstance(a, Pass) for _, a in story.auction)
                 and story.declarer == story.dealer)
        how = "is stuck with" if stuck else "bids"
        lines.append(f"contract: seat {story.declarer} {how} {story.contract}")
    if story.widow is not None:  # docs/rules.md §3: turned up for all to see
        taken = "taken by" if game.rules.widow == "take" else "out of play, its points to"
        lines.append(f"widow: {story.widow} ({taken} seat {story.declarer})")
    if story.trump is not None:
        lines.append(f"trump: {story.trump.letter} ({story.trump.name.lower()})")
    for passed, verb in ((story.given, "gives"), (story.returned, "returns")):
        if passed is not None:
            lines.append(f"pass: seat {passed[0]} {verb} {' '.join(map(str, passed[1]))}")
    if story.discarded is not None:
        lines.append(f"discard: seat {story.discarded[0]} lays aside "
                     f"{' '.join(map(str, story.discarded[1]))}")
    melds = story.result.melds if story.result is not None else (
        story.now.melds if story.now is not None else None)
    if melds:
        lines.append("meld:")
        lines += [f"  seat {seat}: {format_meld(m)}" for seat, m in enumerate(melds)]
    for seat, call in story.calls:
        lines.append(f"seat {seat}: {call}")
    tricks = story.result.tricks if story.result is not None else (
        story.now.tricks if story.now is not None else ())
    if tricks:
        lines.append("tricks:")
        lines += ["  " + format_trick(i, t) for i, t in enumerate(tricks, 1)]
    if story.result is not None:
        lines += story.result.summary().splitlines()
    elif story.now is not None:
        if story.now.trick:
            played = " ".join(f"{s}:{c}" for s, c in story.now.trick)
            lines.append(f"  {len(tricks) + 1:2d}. {played} ...")
        lines.append(f"in progress: seat {story.now.to_act} to act ({story.now.phase})")
    return lines


def _ending(game: Game) -> str:
    who = "team" if game.rules.partnership else "seat"
    scores = ", ".join(f"{who} {t} {s}" for t, s in enumerate(game.scores))
    played = counted(len(game.results), "hand")
    if game.winner is None:
        return f"game in progress after {played}: {scores}"
    note = winner_note(game.scores, game.winner, game.rules.game_target,
                       game.results)
    why = f" ({note})" if note else ""
    if not game.rules.partnership:
        return f"winner: seat {game.winner}; {scores} after {played}{why}"
    seats = " and ".join(str(s) for s in range(game.rules.players)
                         if game.rules.team_of(s) == game.winner)
    return f"winner: team {game.winner} (seats {seats}); {scores} after {played}{why}"
