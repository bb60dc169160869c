"""The two-handed game told at the table (docs/rules.md §4, docs/two-handed.md).

The text a :class:`~pinochlekit.tui.session.Session` shows when the game is a
:class:`~pinochlekit.engine.two.game.TwoHandedGame`: the turned-up card and the
stock, each player's laid melds with the classes every card has served in, the
meld turn after a won early trick and the draw (each hand's result is told by
:func:`pinochlekit.text.results.explain_two_result`). Names come from the session
(``You``, ``North``), so the lines read like the four-handed ones.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rich.text import Text

from pinochlekit.engine.actions import Action, Play
from pinochlekit.engine.cards import Card, parse_cards
from pinochlekit.engine.errors import NotationError
from pinochlekit.engine.events import Drew, Event, MeldShown, TrickWon
from pinochlekit.engine.meld import meld_values
from pinochlekit.engine.two.actions import DIX, Dix, LayMeld, NoMeld, parse_two_action
from pinochlekit.engine.two.game import TwoHandedGame, combinations
from pinochlekit.engine.two.views import MeldEvent, TableCard, TwoStage
from pinochlekit.text.narrate import counted, format_hand
from pinochlekit.tui.face import SUIT_STYLES, Face, card_text

if TYPE_CHECKING:
    from pinochlekit.tui.session import Session

__all__ = ["TwoFace", "choices", "meld_name", "parse", "status", "table_text", "tell_meld_turn"]

Namer = Callable[[int], str]


def meld_name(game: TwoHandedGame, action: LayMeld) -> str:
    """What a legal meld is and scores: ``royal marriage 40``."""
    values = meld_values(game.rules)
    wanted = tuple(sorted(action.cards))
    for name, _, cards in combinations(int(game.trump)):
        if tuple(sorted(cards)) == wanted:
            return f"{name} {values[name]}"
    return "meld"


def _pretty(cards: Sequence[Card]) -> str:
    return " ".join(card.pretty for card in cards)


def table_text(side: Sequence[TableCard]) -> str:
    """A player's cards laid on the table with the meld classes each has served in:
    ``K♠(I) Q♠(I+III)``, or ``nothing``."""
    return " ".join(f"{entry.card.pretty}({str(entry).split('(')[1]}" for entry in side) \
        or "nothing"


def event_text(event: MeldEvent, name: Namer, turn_up: Card | None = None) -> str:
    """One meld scored: ``North lays royal marriage K♠ Q♠ (+40)``."""
    who = name(event.seat)
    you = who == "You"
    if event.name == "dix turned up":
        return f"{who} dealt a nine turned up: dix {event.cards[0].pretty} (+{event.points})"
    if event.name == "dix exchanged":
        got = f" for the turned-up {turn_up.pretty}" if turn_up is not None else ""
        return (f"{who} {'count' if you else 'counts'} the dix: {event.cards[0].pretty} "
                f"exchanged{got} (+{event.points})")
    if event.name == "dix":
        return (f"{who} {'show' if you else 'shows'} the dix {event.cards[0].pretty} "
                f"(+{event.points})")
    return f"{who} {'lay' if you else 'lays'} {event.name} {_pretty(event.cards)} " \
           f"(+{event.points})"


def tell_meld_turn(seat: int, action: Action, name: Namer, events: Sequence[Event],
                   turn_up_before: Card | None) -> str:
    """A meld-turn action as a line, from the events its step emitted (the meld it
    scored, or ``North lays no meld``)."""
    who = name(seat)
    if isinstance(action, NoMeld):
        return f"{who} {'lay' if who == 'You' else 'lays'} no meld"
    shown = next((e for e in events if isinstance(e, MeldShown) and e.items), None)
    if isinstance(action, LayMeld | Dix) and shown is not None:
        item = shown.items[0]
        return event_text(MeldEvent(shown.seat, item.name, item.cards, item.points), name,
                          turn_up_before)
    return f"{who}: {action}"


def draw_lines(game: TwoHandedGame, you: int, events: Sequence[Event]) -> list[str]:
    """After a meld turn both players draw (the step's :class:`Drew` events): what the
    person drew, the stock left, and the start of the last tricks once it is gone."""
    drawn = [e for e in events if isinstance(e, Drew)]
    if not drawn:
        return []
    mine = [e.card for e in drawn if e.seat == you]
    drew = f"you draw {_pretty(mine)}" if mine else "you draw"
    lines = [f"{drew}; the stock has {game.stock_size} cards"]
    if game.stage is TwoStage.LATE:  # these draws emptied the stock
        lines.append("the stock is gone: melds go back to the hands; the last 12 tricks "
                     "follow suit and must win (docs/rules.md §4)")
    return lines


def status(game: TwoHandedGame, you: int, name: Namer) -> list[str]:
    """The two-handed table as lines: trump and stock, the melds laid, the meld turn."""
    trump = game.trump
    turn_up = (f"turned up {game.turn_up.pretty}" if game.turn_up is not None
               else "the turned-up card has been drawn")
    lines = [f"trump {trump.words} ({turn_up}); stock "
             f"{game.stock_size} cards; {game.stage}"]
    for seat in (you, 1 - you):
        lines.append(f"  {name(seat)}: meld {game.meld_points[seat]} this hand; on the "
                     f"table: {table_text(game.table(seat))}")
    return lines


def choices(game: TwoHandedGame) -> list[str]:
    """What the player to act may do, as parts of ``you may …``."""
    legal = game.legal_actions()
    if game.stage is TwoStage.MELD:
        parts = [f"{a} ({meld_name(game, a)})" for a in legal if isinstance(a, LayMeld)]
        parts += [str(a) for a in legal if isinstance(a, Dix | NoMeld)]
        return parts
    plays = sorted((a.card for a in legal if isinstance(a, Play)),
                   key=lambda c: (c // 6, -(c % 6)))
    return ["play " + " or ".join(map(str, plays))] if plays else []


def parse(game: TwoHandedGame, text: str) -> Action:
    """A two-handed command: an action's text, or a shortcut (``TS`` plays a card,
    ``KS QS`` lays a meld in the meld turn, ``n`` or ``none`` lays no meld)."""
    try:
        return parse_two_action(text)
    except NotationError as error:
        words = text.lower().split()
        if words and words[0] in ("play", "meld", "dix", "no", "done", "nomeld"):
            raise  # an action's text gone wrong: its own error, never a card's
        if game.stage is TwoStage.MELD:
            if words in (["n"], ["none"], ["pass"]):
                return parse_two_action("no meld")
            return LayMeld(tuple(parse_cards(words)))
        try:
            if len(words) == 1:
                return Play(parse_cards(words)[0])
        except NotationError:
            pass  # a word that is no card ('pass'): the actions' error says what to type
        raise error from None


def deal_lines(game: TwoHandedGame, you: int, name: Namer) -> list[str]:
    """The start of a two-handed deal, told to the person."""
    assert game.turn_up is not None or game.stock_size == 0
    lines = [f"turned up: {game.turn_up.pretty if game.turn_up else '-'} (trump "
             f"{game.trump.words}); the stock has "
             f"{game.stock_size} cards"]
    lines += [event_text(e, name) for e in game.events]
    lines.append(f"your hand: {format_hand(game.hand(you))}")
    return lines


class TwoFace(Face[TwoHandedGame]):
    """The two-handed game at the table (docs/rules.md §4): a stock and melds side
    panel instead of the auction, a meld turn after each trick won while the stock
    lasts (a meld is picked and laid with Enter), and a target that rises when both
    players reach it in one hand."""

    side_title = "stock & melds"
    melds_at_once = False
    has_auction = False

    def meld_turn(self) -> bool:
        """Whether the winner of the last trick may lay a meld now."""
        return self.game.stage is TwoStage.MELD

    def before_step(self) -> Card | None:
        """The turned-up card (once drawn, none): a dix exchanged takes it, and its line
        names it."""
        return self.game.turn_up

    def action_lines(self, session: Session, seat: int, action: Action,
                     events: Sequence[Event], before: object) -> list[str]:
        """A meld turn told with the draws after it (docs/rules.md §4); else one line."""
        if isinstance(action, LayMeld | Dix | NoMeld):
            assert before is None or isinstance(before, Card)
            return [tell_meld_turn(seat, action, session.name, events, before),
                    *draw_lines(self.game, 0, events)]  # the person sits at seat 0
        return [session.tell(seat, action)]

    def event_lines(self, session: Session, event: Event,
                    events: Sequence[Event]) -> list[str]:
        """After the trick that opens a meld turn: who may meld now."""
        if isinstance(event, TrickWon) and len(events) == 2 \
                and self.game.stage is TwoStage.MELD:
            return [f"{session.name(self.game.to_act or 0)} may meld (meld, dix or no meld)"]
        return []

    def picking(self) -> bool:
        """Cards are picked only to lay a meld."""
        return self.meld_turn()

    def pick_verb(self) -> str:
        """Picked cards are laid as a meld."""
        return "meld"

    def pick_limit(self) -> int:
        """docs/rules.md §1: the largest single meld (a run) has five cards."""
        return 5

    def target(self) -> int:
        """The target of this game, raised when both players passed it (§4)."""
        return self.game.target

    def head(self, session: Session, scores: str, compact: bool) -> Text:
        """``trump ♥ (turned up 9♥) · stock 22 · You 0, North 0 of 1000``."""
        game = self.game
        turn_up = f" (turned up {game.turn_up.pretty})" if game.turn_up else ""
        return Text.assemble((f"trump {game.trump.symbol}{turn_up} · stock {game.stock_size}",
                              "bold"), f" · {scores} of {self.target()}")

    def seat_text(self, session: Session, seat: int, compact: bool) -> Text:
        """Name and level, the dealer, the cards held, the turn (a meld turn too),
        this hand's meld and the cards laid on the table with their classes."""
        game = self.game
        text = Text()
        text.append(session.label(seat), style="bold")
        if seat == game.dealer:
            text.append("  [dealer]", style="#f0c040")
        text.append("\n" + counted(len(game.hand(seat)), "card"))
        if game.to_act == seat:
            what = " (meld turn)" if self.meld_turn() else ""
            text.append(("  ◀ to act" if seat != 0 else "  ◀ your turn") + what,
                        style="#f0c040")
        text.append(f"\nmeld {game.meld_points[seat]} this hand", style="bold")
        side = game.table(seat)
        if side:
            text.append("  on the table: ")
            for entry in side:
                text.append_text(card_text(entry.card))
                text.append(f"({str(entry).split('(')[1]} ")
        return text

    def side_text(self, session: Session, compact: bool, note: Sequence[str]) -> Text:
        """The turned-up card, the stock, this hand's last melds."""
        game = self.game
        text = Text("trump ")
        text.append(f"{game.trump.words}",
                    style=SUIT_STYLES[game.trump])
        if game.turn_up is not None:
            text.append("\nturned up ")
            text.append_text(card_text(game.turn_up))
        text.append(f"\nstock {game.stock_size} cards · {game.stage}\n")
        for event in game.events[-6:]:
            text.append(f"{session.name(event.seat):<6}{event.name} +{event.points}\n")
        return text

    def idle_word(self, session: Session) -> str | None:
        """``North: meld turn`` while a meld may be laid."""
        return f"{session.name(self.game.to_act or 0)}: meld turn" if self.meld_turn() else None

    def trick_note(self, session: Session, note: str) -> str:
        """The trick taken, and who may meld now."""
        if self.meld_turn() and note:
            return f"{note}; {session.name(self.game.to_act or 0)} to meld"
        return note

    def prompt(self, melds: Sequence[Action], picked: int) -> Text | None:
        """The meld turn: the melds that may be laid, numbered for the keys 1-9."""
        if not self.meld_turn():
            return None
        game = self.game
        text = Text("Meld turn: ")
        for i, action in enumerate(melds[:9], 1):
            assert isinstance(action, LayMeld)
            text.append(f"{i} ", style="bold #f0c040")
            text.append(f"{meld_name(game, action)} ")
            for card in action.cards:
                text.append_text(card_text(card))
            text.append(" · ")
        if DIX in game.legal_actions():
            text.append("x ", style="bold #f0c040")
            text.append("dix · ")
        text.append("n ", style="bold #f0c040")
        text.append(f"no meld · or pick cards with space, Enter ({picked} picked)")
        return text

    def parse(self, text: str) -> Action:
        """Cards lay a meld, ``n`` is no meld (:func:`parse`)."""
        return parse(self.game, text)

    def choices(self) -> list[str]:
        """The two-handed game's choices (:func:`choices`)."""
        return choices(self.game)

    def deal_lines(self, session: Session) -> list[str]:
        """The hand, the turned-up card and the stock (:func:`deal_lines`)."""
        return deal_lines(self.game, 0, session.name)

    def dealt_lines(self) -> list[str]:
        """The turned-up card and the stock in drawing order."""
        dealt = self.game.dealt[2]
        return [f"  turned up: {dealt[0]}; the stock in drawing order: "
                f"{' '.join(map(str, dealt[1:]))}"]

    def status_lines(self, session: Session) -> list[str]:
        """The turned-up card, the stock and the melds laid (:func:`status`)."""
        return status(self.game, 0, session.name)
