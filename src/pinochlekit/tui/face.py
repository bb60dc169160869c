"""What the table does differently for each game: one *face* per game (docs/terminal.md
"One table for every game").

The terminal's table (:mod:`pinochlekit.tui.app`) and its session never ask a game
for its class. They ask the game's face what to draw and how to read the keys: the
side panel, a seat's frame, the end of the status line, when cards are picked and
how many, how the hand is laid out, the level of the hints. :class:`Face` says what
every face answers; :class:`TableFace` is the auction game of four or three players
(docs/rules.md §1, §3), :class:`pinochlekit.tui.two.TwoFace` the two-handed game
(§4) and :class:`pinochlekit.tui.double.DoubleFace` the double deck (§6). Bringing a
game to the terminal means writing its face, not adding branches to the table.

>>> from pinochlekit.engine.games import new_game
>>> face = TableFace(new_game("pagat", seed=1))
>>> face.side_title, face.min_size, face.pick_limit()
('auction', (80, 24), 4)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar, Generic, TypeVar

from rich.text import Text

from pinochlekit.engine.actions import Action
from pinochlekit.engine.cards import Card, Suit
from pinochlekit.engine.events import Event
from pinochlekit.engine.games import AnyGame, AuctionGame
from pinochlekit.engine.meld import MeldResult
from pinochlekit.engine.views import Phase
from pinochlekit.players import hint_level
from pinochlekit.text.narrate import counted

if TYPE_CHECKING:
    from pinochlekit.tui.session import Session

__all__ = ["MIN_SIZE", "SUIT_STYLES", "Face", "TableFace", "bid_range", "card_text"]

#: A four-colour deck: every suit its own colour.
SUIT_STYLES = {Suit.SPADES: "bold #f4f4f4", Suit.HEARTS: "bold #ff5f5f",
               Suit.DIAMONDS: "bold #ffb347", Suit.CLUBS: "bold #7fdc7f"}
#: The smallest terminal the table is drawn in (docs/terminal.md "Screen sizes").
MIN_SIZE = (80, 24)
_HUMAN = 0  # the person's seat (South), as in the session
_MARK = "#f0c040"  # the colour of the table's marks: dealer, to act, picked


def card_text(card: Card, style: str = "") -> Text:
    """A card in its suit's colour: ``10♥``."""
    return Text(card.pretty, style=f"{SUIT_STYLES[card.suit]} {style}".strip())


def bid_range(bids: Sequence[int], step: int) -> str:
    """The bids allowed, in words. The highest legal bid is only the most the cards
    could ever score (thousands), never a bid anyone makes, so it is left out.

    >>> bid_range([260, 270, 3850], 10)
    'bid 260 or more (steps of 10)'
    >>> bid_range([350], 10)
    'bid 350'
    """
    if len(bids) == 1:
        return f"bid {bids[0]}"
    return f"bid {bids[0]} or more (steps of {step})"


G = TypeVar("G", bound=AnyGame)


class Face(ABC, Generic[G]):
    """What the table asks of a game, whatever the game."""

    #: The side panel's title (the auction, or the two-handed stock and melds).
    side_title: ClassVar[str] = "auction"
    #: The smallest terminal, in columns and rows, the table is drawn in.
    min_size: ClassVar[tuple[int, int]] = MIN_SIZE
    #: How the message for a terminal below :attr:`min_size` opens.
    needs: ClassVar[str] = "The table needs"
    #: Whether the hand review (key ``v``) values this game (docs/review.md).
    reviewable: ClassVar[bool] = True
    #: Whether every player's meld is shown at once after the auction, and listed in
    #: the hand's result (two-handed melds are laid one at a time, and told as laid).
    melds_at_once: ClassVar[bool] = True
    #: Whether the game has an auction (and so a pass with help, docs/rules.md §1.4).
    has_auction: ClassVar[bool] = True

    def __init__(self, game: G) -> None:
        """The face of ``game``."""
        self.game = game

    # -- telling what happened ------------------------------------------------------

    def before_step(self) -> object:
        """What :meth:`action_lines` needs from before the action (nothing here)."""
        return None

    def action_lines(self, session: Session, seat: int, action: Action,
                     events: Sequence[Event], before: object) -> list[str]:
        """The action just applied, told: one line (:meth:`Session.tell`)."""
        return [session.tell(seat, action)]

    def event_lines(self, session: Session, event: Event,
                    events: Sequence[Event]) -> list[str]:
        """What this game adds after an event of the action (nothing here)."""
        return []

    # -- reading the keys -----------------------------------------------------------

    def meld_turn(self) -> bool:
        """Whether the game waits for a meld to be laid (the two-handed meld turn)."""
        return False

    def picking(self) -> bool:
        """Whether the player to act picks cards (passing, discarding, laying a meld)."""
        return self.game.phase in (Phase.GIVE, Phase.RETURN) or self.pick_verb() is not None

    def pick_verb(self) -> str | None:
        """The action the picked cards make when Enter is pressed (``discard``), or
        ``None`` where picked cards are passed (a give or a return)."""
        return "discard" if self.game.phase.value == "discard" else None

    def pick_limit(self) -> int:
        """How many cards may be picked: the cards passed, or the widow laid away
        (docs/rules.md §1.6, §3)."""
        if self.game.phase.value == "discard":
            return self.game.rules.widow_size
        return self.game.rules.cards_passed

    def columns(self, cards: Sequence[Card], cell: int) -> list[int]:
        """Where each card of the hand starts in its row: ``cell`` columns a card."""
        return [i * cell for i in range(len(cards))]

    def hint_level(self) -> str:
        """The level whose advice the hint key shows."""
        return hint_level(self.game.rules)

    def bid_words(self, bids: Sequence[int]) -> str:
        """The legal bids in words: ``bid 260 or more (steps of 10)``."""
        return bid_range(bids, self.game.rules.step)

    def target(self) -> int:
        """The score that wins the game now."""
        return self.game.rules.game_target

    # -- drawing --------------------------------------------------------------------

    @abstractmethod
    def head(self, session: Session, scores: str, compact: bool) -> Text:
        """The status line's end, after the hand and the dealer: the contract (or the
        two-handed trump and stock) and the scores."""

    @abstractmethod
    def seat_text(self, session: Session, seat: int, compact: bool) -> Text:
        """A seat's frame: who it is, its cards, its meld."""

    @abstractmethod
    def side_text(self, session: Session, compact: bool, note: Sequence[str]) -> Text:
        """The side panel under :attr:`side_title`; ``note`` is the pass with help's
        explanation when it applies."""

    def idle_word(self, session: Session) -> str | None:
        """What the empty trick panel says instead of the phase, if anything."""
        return None

    def trick_note(self, session: Session, note: str) -> str:
        """The note under the last trick taken, with what follows it."""
        return note

    def meld_words(self, result: MeldResult) -> list[str] | None:
        """A seat's meld in a few words where its cards are too many to draw."""
        return None

    def prompt(self, melds: Sequence[Action], picked: int) -> Text | None:
        """The prompt of a turn the game has of its own (the two-handed meld turn),
        given the melds that may be laid and how many cards are picked."""
        return None

    def parse(self, text: str) -> Action | None:
        """The person's command read the game's own way, or ``None`` for the
        auction game's reading (the session's)."""
        return None

    def choices(self) -> list[str] | None:
        """What the person may do now, where the game says it its own way."""
        return None

    def deal_lines(self, session: Session) -> list[str]:
        """What a new deal shows the person, after its heading."""
        return [f"your hand: {session.hand_text()}"]

    def dealt_lines(self) -> list[str]:
        """What a hand's history shows of its deal beside the hands."""
        return []

    @abstractmethod
    def status_lines(self, session: Session) -> list[str]:
        """Where the hand stands, for the plain table's status: the auction or the
        stock, the contract, the melds."""


class TableFace(Face[AuctionGame]):
    """The auction game of four (two partnerships) or three players (each for
    itself, with a widow): docs/rules.md §1 and §3."""

    def head(self, session: Session, scores: str, compact: bool) -> Text:
        """``contract: West 260 in ♥ · us 0, them 0 of 1500``."""
        game = self.game
        contract = "no contract yet"
        if game.declarer is not None:
            trump = f" in {game.trump.symbol}" if game.trump is not None else ""
            contract = f"{session.name(game.declarer)} {game.contract}{trump}"
        return Text.assemble("" if compact else "contract: ", (contract, "bold"),
                             f" · {scores} of {self.target()}")

    def seat_text(self, session: Session, seat: int, compact: bool) -> Text:
        """Name, role and level, dealer and declarer, the cards held, the last call in
        the auction, the meld once shown; the person's passed cards."""
        game = self.game
        view = game.view(_HUMAN)
        text = Text()
        text.append(session.label(seat), style="bold")
        marks = [word for word, holder in (("dealer", game.dealer), ("declarer", game.declarer))
                 if seat == holder]
        if marks:
            text.append(f"  [{', '.join(marks)}]", style=_MARK)
        text.append("\n" + counted(view.hand_sizes[seat], "card"))
        said = [a for s, a in game.auction if s == seat]
        side = session.name(seat) in ("West", "East")
        if said and game.phase is Phase.AUCTION:
            # the narrow side seats (15 columns at every size): the call on its own line
            text.append(f"\n{said[-1]}" if side else f" · {said[-1]}")
        if game.to_act == seat:
            # the narrow side seats: the arrow alone (their frame is lit too), so that
            # the line is not broken inside "to act"
            text.append("  ◀" if side else "  ◀ to act" if seat != _HUMAN
                        else "  ◀ your turn", style=_MARK)
        if game.melds is not None:
            result = game.melds[seat]
            text.append(f"\nmeld {result.points}", style="bold")
            words = self.meld_words(result)
            if words is not None:
                text.append(("\n" if side else "  ") + ("\n" if side else " · ").join(words))
                return text
            narrow = compact and side
            for item in result.items:
                # The narrow side seats of the compact layout: one item a line, its
                # cards and points (the log and the result name each meld).
                text.append("\n" if narrow else f"  {item.name} {item.points} ")
                for card in item.cards:
                    text.append_text(card_text(card))
                if narrow:
                    text.append(f" {item.points}")
        elif seat == _HUMAN and view.given is not None:
            text.append("\npassed to declarer: " if game.declarer != _HUMAN else "\ngot: ")
            for card in view.given:
                text.append_text(card_text(card))
                text.append(" ")
        return text

    def side_text(self, session: Session, compact: bool, note: Sequence[str]) -> Text:
        """The last calls, a stuck dealer, trump, and the three-handed widow."""
        game = self.game
        text = Text()
        if not game.auction:
            text.append("no bids yet\n" if note else "no bids yet", style="dim")
        stuck = game.declarer is not None and game.high_bidder is None
        widow = game.widow  # docs/rules.md §3: face up after the auction
        # the panel's lines (4 compact, 7 full; table.tcss): the latest calls, and
        # whole what follows them (the note, the stuck dealer, trump, the widow)
        shown = (4 if compact else 7) - len(note) - 2 * stuck - (
            game.trump is not None) - bool(widow)
        for seat, action in game.auction[-shown:] if shown > 0 else []:
            text.append(f"{session.name(seat):<6}{action}\n")
        for line in note:
            text.append(line + "\n", style="dim")
        if stuck and game.declarer is not None:
            # docs/rules.md §1.4: the first three passed, the dealer holds the minimum bid
            text.append(f"{session.name(game.declarer)} stuck at {game.contract}\n")
            text.append("  the others all passed\n", style="dim")
        if game.trump is not None:
            text.append("trump ")
            text.append(game.trump.words,
                        style=SUIT_STYLES[game.trump])
        if widow:
            text.append("widow " if text.plain.endswith("\n") else "\nwidow ")
            for card in widow.cards():
                text.append_text(card_text(card))
                text.append(" ")
        return text

    def status_lines(self, session: Session) -> list[str]:
        """The calls, the contract, the three-handed widow and the melds shown."""
        game = self.game
        lines = []
        widow = game.widow  # docs/rules.md §3: shown after the auction
        if game.auction:
            lines.append("auction: " + ", ".join(
                f"{session.name(s)} {a}" for s, a in game.auction))
        if game.declarer is not None:
            trump = (f" in {game.trump.words}"
                     if game.trump is not None else "")
            lines.append(f"contract: {session.name(game.declarer)} {game.contract}{trump}")
        if widow:
            lines.append("widow: " + " ".join(c.pretty for c in widow.cards()))
        if game.melds is not None:
            lines += session.meld_lines(game.melds)
        return lines
