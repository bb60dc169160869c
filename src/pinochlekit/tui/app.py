"""The full-screen table (``pinochle play``): a Textual app over a :class:`Session`.

The same app seats four (two partnerships), three (each for itself, with a
widow) or two (with a stock and a meld turn after each won early trick): the
seats shown and the side panels follow the game.

The app keeps no game state of its own beyond the cursor, the cards picked for
passing and the bid being chosen: every widget is redrawn from the session
after each action. Keys are declared as data (:attr:`TableApp.BINDINGS`) and
offered only when they apply (:meth:`TableApp.check_action`); the mouse works
on the hand too.
"""

from __future__ import annotations

import io
import textwrap
from bisect import bisect_left
from collections.abc import Callable
from contextlib import suppress
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from rich.console import Console
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, RichLog, Static

from pinochlekit.engine.actions import (
    Action,
    Bid,
    Give,
    Moon,
    NameTrump,
    Pass,
    Play,
    Redeal,
    Return,
    ThrowIn,
)
from pinochlekit.engine.cards import Card
from pinochlekit.engine.errors import PinochleError
from pinochlekit.engine.two.actions import Dix, LayMeld, NoMeld
from pinochlekit.engine.views import Phase
from pinochlekit.players.hints import Advice
from pinochlekit.tui.face import MIN_SIZE, SUIT_STYLES, card_text
from pinochlekit.tui.glossary import GLOSSARY, glossary_text, terms_in
from pinochlekit.tui.review import progress_bar, review_text
from pinochlekit.tui.session import HUMAN, Session, Turn, for_people, seat_names

__all__ = ["AUTOPLAY_DELAY", "COMPACT_BELOW", "HELP", "MIN_SIZE", "SUIT_STYLES", "TRICK_HOLD",
           "ConfirmScreen", "TableApp", "card_text"]

_CELL = 4  # columns per card in the hand
_LOG_ENTRIES = 400  # actions kept in the log panel (the saved game keeps all)
#: Seconds a complete trick stays in the centre before a computer plays on
#: (docs/terminal.md "The table").
TRICK_HOLD = 1.5
#: Below this width or height the table uses its compact layout.
COMPACT_BELOW = (100, 32)
#: Seconds before a forced card is played for you, with auto-play on (key ``a``), as
#: on the web table (docs/terminal.md "Keys").
AUTOPLAY_DELAY = 0.5


def _params(action: str) -> tuple[object, ...]:
    """The parameters of a binding's action text: ``call('pass')`` → ``('pass',)``."""
    inside = action.partition("(")[2].rstrip(")")
    return (inside.strip("'"),) if inside else ()


#: The columns a dialog's text is wrapped to by :func:`_hanging`: the dialog's width
#: (78, table.tcss) less its borders, its padding and room for a scroll bar.
_DIALOG_TEXT = 72


def _hanging(body: str, width: int = _DIALOG_TEXT) -> str:
    """``body`` wrapped to ``width`` columns, each line's continuations indented two
    spaces deeper than the line, so that every seat's meld in a hand's result starts
    its own line, and each decision of a review (docs/terminal.md "The table"), as the
    log wraps its lines."""
    lines = []
    for line in body.splitlines():
        lead = " " * (len(line) - len(line.lstrip(" ")) + 2)
        lines += textwrap.wrap(line, width, subsequent_indent=lead, break_on_hyphens=False,
                               break_long_words=True) or [""]
    return "\n".join(lines)


class HandView(Static):
    """The person's cards; a click picks the card under the pointer."""

    def on_click(self, event: events.Click) -> None:
        """Pick (and play or mark) the clicked card."""
        app = self.app
        if isinstance(app, TableApp) and event.y >= 1:
            app.click_card(app.card_at(event.x - 1))


class TextScreen(ModalScreen[None]):
    """A dialog of lines (hand result, last trick, help); any listed key closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "close", "continue"), Binding("escape", "close", "close"),
        Binding("space", "close", "continue", show=False),
        Binding("y", "close", "close", show=False),  # y toggles the hint's "why"
        Binding("v", "review", "review the hand"),
        Binding("g", "glossary", "glossary")]

    def __init__(self, body: Text | str, title: str) -> None:
        super().__init__()
        self._body, self._title = body, title

    def compose(self) -> ComposeResult:
        """The lines, then how to close."""
        with VerticalScroll(classes="dialog") as box:
            box.border_title = self._title
            yield Static(self._body, id="dialog-body")
            yield Static(Text("Enter: continue", style="dim"))

    def action_close(self) -> None:
        """Close the dialog."""
        self.dismiss(None)

    def action_glossary(self) -> None:
        """The glossary on top of this dialog (the table's ``g``)."""
        self.app.push_screen(TextScreen(glossary_text(), "glossary"))

    def action_review(self) -> None:
        """Close the dialog and review the last finished hand (the table's ``v``)."""
        self.dismiss(None)
        app = self.app
        if isinstance(app, TableApp):
            app.action_review()


class ConfirmScreen(ModalScreen[bool]):
    """A question before an action that cannot be taken back (throwing in): ``y``
    does it, ``n``, Escape or Enter keep playing."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "yes"), Binding("n", "answer(False)", "no"),
        Binding("escape", "answer(False)", "no", show=False),
        Binding("enter", "answer(False)", "no", show=False)]

    def __init__(self, question: str, title: str) -> None:
        super().__init__()
        self._question, self._title = question, title

    def compose(self) -> ComposeResult:
        """The question, then the keys that answer it."""
        with VerticalScroll(classes="dialog") as box:
            box.border_title = self._title
            yield Static(self._question, id="dialog-body")
            yield Static(Text("y: yes, throw in · n or Esc: no, keep playing", style="dim"))

    def action_answer(self, yes: bool) -> None:
        """Close with the answer."""
        self.dismiss(yes)


HELP = """\
Keys
  ← →        choose a card          Enter      play / bid / confirm
  ↑ ↓        bid a step more, less  PgUp PgDn  ten steps more, less
  space      pick a card to pass    p          pass
  w          pass with help         r          nines redeal
  s h d c    name trump             t          throw in
  m          shoot the moon         ?          hint (y: why)
  u          undo your last action  l          last trick
  v          review the last hand   F1         these keys
  k          claim the rest (sure)  a          auto-play forced cards
  g          glossary of the words  q          quit (the game is saved)
Two-handed meld turn, after winning an early trick:
  1-9        lay the meld of that number in the prompt
  space      pick cards, then Enter to lay them as one meld
  x          count the dix          n          no meld (then both draw)
A click on a card plays it (or picks it); the wheel scrolls the log.
Resume later with: pinochle play --resume"""


class LogPanel(RichLog):
    """The log panel: its lines are wrapped to its width by the app, so a new width
    (the window resized, the layout switched between full and compact) wraps them
    anew once the panel has its new size (``rewrap``, set by the app).

    The panel never takes focus, not even the focus a terminal gives the first
    focusable widget as the screen starts: focused, a scrollable panel would take
    ↑ ↓ PgUp PgDn for itself, and those keys belong to the table (docs/terminal.md
    "Keys"); the mouse wheel still scrolls it."""

    can_focus = False

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rewrap: Callable[[], None] | None = None
        self._wrapped_at = 0

    def on_resize(self, event: events.Resize) -> None:
        """Wrap the lines anew at the panel's new width."""
        if self.rewrap is not None and event.size.width != self._wrapped_at:
            self._wrapped_at = event.size.width
            self.call_after_refresh(self.rewrap)


class TableFooter(Footer):
    """The keys that apply now; in the compact layout (80×24), and in the full one when
    they would not all fit on the line (the auction with pass with help at 100
    columns), without the keys F1 lists anyway (last trick, review, auto-play,
    glossary), so that the rest fits on one line and ends with ``q quit``
    (docs/terminal.md "Screen sizes"). The keys left out still work."""

    #: Actions the compact footer leaves out.
    COMPACT_HIDDEN = frozenset({"last_trick", "review", "autoplay", "glossary"})

    def compose(self) -> ComposeResult:
        """Footer's keys, less :data:`COMPACT_HIDDEN` when compact or too many."""
        widgets = list(super().compose())
        # a key of the full footer is drawn " key description " (Textual's FooterKey)
        wide = sum(Text(f" {getattr(w, 'key_display', '')} {getattr(w, 'description', '')} ")
                   .cell_len for w in widgets)
        narrow = self.compact or wide > self.app.size.width
        for widget in widgets:
            if narrow and getattr(widget, "action", None) in self.COMPACT_HIDDEN:
                continue
            yield widget


class TableApp(App[None]):
    """The pinochle table: you (South), your partner (North), West and East."""

    CSS_PATH = Path(__file__).with_name("table.tcss")
    TITLE = "pinochle"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(-1)", "card", show=False),
        Binding("right", "cursor(1)", "card", show=False),
        Binding("enter", "confirm", "confirm"),
        Binding("space", "pick", "pick card"),
        Binding("up", "bid_change(1)", "bid +", show=False),
        Binding("down", "bid_change(-1)", "bid -", show=False),
        Binding("pageup", "bid_change(10)", "bid ++", show=False),
        Binding("pagedown", "bid_change(-10)", "bid --", show=False),
        Binding("p", "call('pass')", "pass"),
        Binding("w", "call('pass help')", "pass with help"),
        Binding("r", "call('redeal')", "redeal"),
        Binding("s", "call('trump S')", "♠"),
        Binding("h", "call('trump H')", "♥"),
        Binding("d", "call('trump D')", "♦"),
        Binding("c", "call('trump C')", "♣"),
        Binding("t", "throw_in", "throw in"),
        Binding("m", "call('moon')", "moon"),
        Binding("x", "call('dix')", "dix"),
        Binding("n", "call('no meld')", "no meld"),
        *(Binding(str(i), f"lay({i})", f"meld {i}", show=False) for i in range(1, 10)),
        Binding("question_mark", "hint", "hint"),
        Binding("y", "why", "why"),
        Binding("u", "undo", "undo"),
        Binding("l", "last_trick", "last trick"),
        Binding("v", "review", "review hand"),
        Binding("k", "claim", "claim"),
        Binding("a", "autoplay", "auto-play"),
        Binding("g", "glossary", "glossary"),
        Binding("f1", "help", "keys"),
        Binding("q", "quit", "quit"),
    ]

    def __init__(self, session: Session, delay: float = 0.5, hold: float | None = None) -> None:
        """A table for ``session``; ``delay`` seconds between computer moves, and at
        least ``hold`` seconds (default: 1.5 when there is a delay) before the next
        card once a trick is complete, so that it can be read."""
        super().__init__()
        self.session = session
        self.delay = delay
        self.hold = (TRICK_HOLD if delay > 0 else 0.0) if hold is None else hold
        self.cursor = 0
        self.picked: set[int] = set()
        self.bid = 0
        self._results_seen = len(session.game.results)
        self._turn_key: tuple[int, int] | None = None
        self._pending = False
        self._waiting = False  # a hand result is on screen
        self._offered: tuple[bool, ...] = ()
        self._reviewing = False
        #: ``expert``'s budget per valuation in a review (key ``v``; docs/review.md).
        self.review_time = 1.0
        #: What to print once the table has closed: how to come back to the game.
        self.goodbye = ""
        #: The log: (number of actions applied, the lines told then), so that an undo
        #: takes its moves out and a resumed game starts with what happened before.
        self.log_entries: list[tuple[int, list[str]]] = []
        #: The numbers behind the hint on screen, one option a line (``y`` shows them).
        self.why: list[str] = []
        #: Whether a forced card (your only legal play) is played for you (key ``a``).
        self.autoplay = False
        self._autoplay_at: int | None = None  # the position a forced card is due at
        self._width = 0  # the terminal's width, as the last resize told it

    # -- layout ---------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """The felt with the four seats and the trick, the side panels, the hand."""
        yield Static(id="too-small")
        yield Static(id="status")
        with Horizontal(id="middle"):
            with Vertical(id="felt"):
                with Horizontal(id="north-row"):
                    yield Static(id="north", classes="seat")
                with Horizontal(id="centre-row"):
                    yield Static(id="west", classes="seat")
                    yield Static(id="trick")
                    yield Static(id="east", classes="seat")
                with Horizontal(id="south-row"):
                    yield Static(id="south", classes="seat")
            with Vertical(id="side"):
                yield Static(id="auction")
                yield Static(id="pad")
                yield LogPanel(id="log", wrap=False, markup=False, min_width=20)
        yield HandView(id="hand")
        yield Static(id="prompt")
        yield Static(id="message")
        yield TableFooter()

    def on_mount(self) -> None:
        """Draw the table and let the computer players start."""
        self.query_one(LogPanel).rewrap = self._render_log
        game = self.session.game
        self.sub_title = f"{game.rules} · seed {game.seed}"
        self.query_one("#auction", Static).border_title = (
            self.session.face.side_title)
        present = {name.lower() for name in seat_names(game.rules.players)}
        for name in ("north", "west", "east"):
            self.query_one(f"#{name}", Static).display = name in present
        log = self.query_one("#log", RichLog)
        log.border_title = "play"
        self.query_one("#hand", Static).border_title = "your hand"
        self.log_entries = self.session.told()
        self._fit(self.size.width, self.size.height)
        self.call_after_refresh(self._render_log)
        self.redraw()
        self._schedule()

    def on_resize(self, event: events.Resize) -> None:
        """Pick the layout for the new terminal size (and wrap the log anew)."""
        self._fit(event.size.width, event.size.height)
        self.call_after_refresh(self._render_log)

    @property
    def min_size(self) -> tuple[int, int]:
        """The smallest terminal this game's table is drawn in: 80×24, or 100×30 for the
        double deck's hand of twenty (docs/terminal.md "Screen sizes")."""
        return self.session.face.min_size

    @property
    def compact(self) -> bool:
        """Whether the compact layout (for terminals below 100×32) is in use."""
        return self.screen.has_class("compact") if self.screen_stack else False

    def _fit(self, width: int, height: int) -> None:
        """The layout for a ``width``×``height`` terminal: the full one, the compact one,
        or a message that the terminal is too small (docs/terminal.md "Screen sizes")."""
        if not self.screen_stack:
            return
        self._width = width
        screen = self.screen_stack[0]
        least = self.min_size
        small = width < least[0] or height < least[1]
        compact = not small and (width < COMPACT_BELOW[0] or height < COMPACT_BELOW[1])
        screen.set_class(small, "too-small")
        screen.set_class(compact, "compact")
        if small:
            what = self.session.face.needs
            self.query_one("#too-small", Static).update(Text(
                f"{what} a terminal of at least {least[0]}×{least[1]}; this "
                f"one is {width}×{height}.\nEnlarge the window, or quit (q) and play "
                f"with 'pinochle play --plain --resume'.", justify="center"))
        target = self.session.game.rules.game_target
        self.query_one("#pad", Static).border_title = (
            f"score · game {target}" if compact else f"score pad · game {target}")
        footer = self.query_one(TableFooter)
        footer.compact = compact
        footer.refresh(recompose=True)  # which keys fit depends on the width too
        self.redraw()  # the header fits the new width (and the layout may change)

    # -- drawing ----------------------------------------------------------------

    def redraw(self) -> None:
        """Redraw every widget from the session."""
        session, game = self.session, self.session.game
        key = (len(game.actions), game.hand_number)
        if session.is_human_turn and self._turn_key != key:
            self._turn_key = key
            self._start_turn()
        self.query_one("#status", Static).update(self._status_text())
        for seat, name in enumerate(seat_names(game.rules.players)):
            widget = self.query_one(f"#{name.lower()}", Static)
            widget.update(self._seat_text(seat))
            if widget.has_class("to-act") != (game.to_act == seat):
                widget.set_class(game.to_act == seat, "to-act")
        self.query_one("#trick", Static).update(self._trick_text())
        self.query_one("#auction", Static).update(self._auction_text())
        self.query_one("#pad", Static).update(self._pad_text())
        self.query_one("#hand", Static).update(self._hand_text())
        self.query_one("#prompt", Static).update(self._prompt_text())
        offered = tuple(bool(self.check_action(b.action.split("(")[0], _params(b.action)))
                        for b in self.BINDINGS if isinstance(b, Binding))
        if offered != self._offered:  # redraw the footer only when the keys change
            self._offered = offered
            self.refresh_bindings()

    def _start_turn(self) -> None:
        game = self.session.game
        self.picked = set()
        cards = game.hand(HUMAN).cards()
        legal = self.session.legal_cards()
        if legal:
            self.cursor = next((i for i, c in enumerate(cards) if c in legal), 0)
        self.cursor = min(self.cursor, max(0, len(cards) - 1))
        bids = [a.amount for a in game.legal_actions() if isinstance(a, Bid)]
        self.bid = bids[0] if bids else 0

    def _status_text(self) -> Text:
        """The status line; where it would not fit the terminal's width it leaves out,
        in turn, what the table shows elsewhere: the target (the score pad's title),
        the dealer (the ``[dealer]`` mark on its seat), the seats' names in the scores
        but for their first letter, and the rules' options (docs/terminal.md "Screen
        sizes": the header stays whole)."""
        session, game = self.session, self.session.game
        rules = game.rules
        compact = self.compact
        room = (self._width or self.size.width) - 2  # the status line's padding
        target = f" of {session.face.target()}"
        text = Text()
        for short in range(5):
            if rules.partnership:
                scores = f"us {game.scores[0]}, them {game.scores[1]}"
            else:
                scores = ", ".join(
                    f"{name if short < 3 or name == 'You' else name[0]} {game.scores[s]}"
                    for s, name in ((s, session.name(s)) for s in range(rules.players)))
            name = str(rules) if short < 4 else str(rules).split("(")[0] + "(…)"
            dealer = f"dealer {session.name(game.dealer)} · " if short < 2 else ""
            text = Text.assemble(("" if compact else "pinochle ", "bold #f0c040"),
                                 f"{name} · hand {game.hand_number} · {dealer}")
            text += session.face.head(session, scores, compact)
            if short and text.plain.endswith(target):
                text.right_crop(len(target))
            if text.cell_len <= room:
                break
        return text

    def _seat_text(self, seat: int) -> Text:
        return self.session.face.seat_text(self.session, seat, self.compact)

    def _trick_text(self) -> Text:
        session, game = self.session, self.session.game
        view = game.view(HUMAN)
        names = seat_names(game.rules.players)
        played = dict(view.trick)
        note = ""
        style = ""
        if not played and view.tricks and game.phase is Phase.PLAY:
            last = view.tricks[-1]
            played = dict(zip(last.seats, last.cards, strict=True))
            note = f"{session.name(last.winner)} took trick {len(view.tricks)} (+{last.points})"
            style = "dim"
        if not played:
            what = {Phase.AUCTION: "the auction", Phase.TRUMP: "naming trump",
                    Phase.GIVE: "passing cards", Phase.RETURN: "passing cards back",
                    Phase.PLAY: "play", Phase.GAME_OVER: "game over"}.get(
                game.phase, str(game.phase))
            what = session.face.idle_word(session) or what
            return Text(f"\n\n{what}", style="dim", justify="center")

        wide = 18 if self.compact else 24  # the trick panel's width in the layout
        gap = "\n" if self.compact else "\n\n"

        def slot(seat: int, width: int) -> Text:
            out = Text(f"{session.name(seat)} ", style="dim")
            card = played.get(seat)
            out.append_text(card_text(card, style) if card is not None else Text("·"))
            pad = max(0, width - out.cell_len)
            return Text(" " * (pad // 2)) + out + Text(" " * (pad - pad // 2))

        footer = note
        if not note and view.trick:  # who led: the suit to follow (docs/rules.md §1 Play)
            number, leader = len(game.tricks) + 1, session.name(view.trick[0][0])
            footer = f"trick {number} · {leader} led"
            if len(footer) > wide:  # the compact centre: "North led trick 10" fits
                footer = f"{leader} led trick {number}"
        elif not note and game.tricks:
            footer = f"trick {len(game.tricks) + 1}"
        if note:
            footer = session.face.trick_note(session, note)
        half = wide // 2
        top = slot(names.index("North"), wide) if "North" in names else Text(" " * wide)
        sides = (slot(names.index("West"), half) if "West" in names else Text(" " * half)) + \
            (slot(names.index("East"), half) if "East" in names else Text(" " * half))
        # A note wider than the panel (``North took trick 12 (+30)`` in the compact
        # layout's 18 columns) is broken between words, each line centred.
        under = "\n".join(f"{part:^{wide}}" for part in textwrap.wrap(footer, wide) or [""])
        return Text.assemble(top, gap, sides, gap, slot(0, wide), gap,
                             (under, "italic"), "\n",
                             (f"{self._points_text(wide):^{wide}}", "bold #f0c040"))

    def _points_text(self, wide: int) -> str:
        """The trick points each side has taken so far this hand (``us 40 · them 30``;
        docs/terminal.md "The table"), shortened to fit ``wide`` columns."""
        session, game = self.session, self.session.game
        rules = game.rules
        points = game.trick_points
        if rules.partnership:
            names = ["us", "them"] if rules.team_of(HUMAN) == 0 else ["them", "us"]
        else:
            names = [session.name(s) for s in range(rules.teams)]
        text = " · ".join(f"{n} {p}" for n, p in zip(names, points, strict=True))
        if len(text) > wide:
            text = " ".join(f"{n if n in ('us', 'them', 'You') else n[0]} {p}"
                            for n, p in zip(names, points, strict=True))
        return text

    def _auction_text(self) -> Text:
        return self.session.face.side_text(self.session, self.compact, self._pass_help_note())

    def _pass_help_note(self) -> list[str]:
        """The line(s) under the bids explaining the ``w`` key when a pass with help is
        legal for the person (docs/rules.md §1.4's pass with help), as the glossary says."""
        session, game = self.session, self.session.game
        if not session.face.has_auction or game.phase is not Phase.AUCTION \
                or not session.is_human_turn:
            return []
        if not any(isinstance(a, Pass) and a.help for a in game.legal_actions()):
            return []
        lines = ["w pass with help: tells", " partner you hold help"]
        return lines if self.compact else [*lines, " (an ace or meld)"]

    def _pad_text(self) -> Text:
        session, game = self.session, self.session.game
        rules = game.rules
        if rules.partnership:
            heads = ["us", "them"]
        else:  # each seat for itself (two- and three-handed): one column each
            heads = [session.name(s)[:5] for s in range(rules.teams)]
        wide = rules.teams == 2  # two columns fit the hand's score too; three only totals
        width = (10 if self.compact else 11) if wide else 7
        shown = 1 if self.compact else 9
        text = Text("  #" + "".join(f"{h:>{width}}" for h in heads) + "\n", style="bold")
        for result in game.results[-shown:]:
            text.append(f"{result.number:>3}" + "".join(
                f"{result.scores[t]:>+5}{result.totals[t]:>{width - 5}}" if wide else
                f"{result.totals[t]:>7}" for t in range(rules.teams)) + "\n")
        text.append("   " + "".join(f"{game.scores[t]:>{width}}" for t in range(rules.teams)),
                    style="bold")
        return text

    def _hand_text(self) -> Text:
        session, game = self.session, self.session.game
        cards = game.hand(HUMAN).cards()
        legal = session.legal_cards()
        marks, row, under = Text(), Text(), Text()
        choosing = session.is_human_turn and (
            game.phase in (Phase.PLAY, Phase.GIVE, Phase.RETURN) or self._picking())
        columns = self._columns(cards)
        for i, card in enumerate(cards):
            if i and columns[i] > columns[i - 1] + _CELL:  # the double deck: suits apart
                gap = " " * (columns[i] - columns[i - 1] - _CELL)
                marks.append(gap)
                row.append(gap)
                under.append(gap)
            style = ""
            if legal and card not in legal:
                style = "dim"
            if choosing and i == self.cursor:
                style += " reverse"
            marks.append(" ▼  " if choosing and i in self.picked else "    ", style="#f0c040")
            row.append_text(card_text(card, style))
            row.append(" " * (_CELL - len(card.pretty)))
            under.append("▔▔▔ " if choosing and i == self.cursor else "    ", style="#f0c040")
        return Text.assemble(marks, "\n", row, "\n", under)

    def _columns(self, cards: list[Card]) -> list[int]:
        """Where each card of the hand starts in its row: a cell each, and with the
        double deck a gap between suits (twenty cards read by suit)."""
        return self.session.face.columns(cards, _CELL)

    def card_at(self, column: int) -> int:
        """The index of the card drawn at ``column`` of the hand's row (-1: none)."""
        cards = self.session.game.hand(HUMAN).cards()
        for i, start in enumerate(self._columns(cards)):
            if start <= column < start + _CELL:
                return i
        return -1

    def _prompt_text(self) -> Text:
        session, game = self.session, self.session.game
        if session.is_over:
            return Text(session.game_over_text())
        if self._waiting:  # a hand's result is on screen; nobody moves until Enter
            return Text(f"Enter: on to hand {game.hand_number}", style="dim")
        if not session.is_human_turn:
            return Text(f"{session.label(game.to_act or 0)} is thinking…", style="dim")
        phase = game.phase
        own = session.face.prompt(self._melds(), len(self.picked))
        if own is not None:
            return own
        if phase.value == "discard":
            return Text(f"Pick {self._pick_limit()} cards to discard with space "
                        f"({len(self.picked)} picked), then Enter")
        if phase is Phase.AUCTION:
            passes = [a for a in game.legal_actions() if isinstance(a, Pass)]
            extra = (", p pass" + (", w pass with help" if any(a.help for a in passes) else "")
                     if passes else " (you must open)")
            return Text(f"Your bid: {self.bid}  (↑ ↓ change, Enter bid{extra})")
        if phase is Phase.TRUMP:
            suits = [a.suit for a in game.legal_actions() if isinstance(a, NameTrump)]
            return Text("Name trump: " + "  ".join(f"{s.letter.lower()} {s.symbol}"
                                                   for s in suits))
        if phase in (Phase.GIVE, Phase.RETURN):
            n = game.rules.cards_passed
            to = "the declarer" if phase is Phase.GIVE else "your partner"
            return Text(f"Pick {n} cards for {to} with space ({len(self.picked)} picked), "
                        f"then Enter")
        concede = ", t throw in" if any(isinstance(a, ThrowIn) for a in game.legal_actions()) \
            else ""
        if any(isinstance(a, Moon) for a in game.legal_actions()):
            concede += ", m moon"
        return Text(f"Your card: ← → choose, Enter play{concede}")

    def _melds(self) -> list[LayMeld]:
        return [a for a in self.session.game.legal_actions() if isinstance(a, LayMeld)]

    def _picking(self) -> bool:
        """Whether the person picks cards now (passing, discarding, or laying a meld)."""
        return self.session.is_human_turn and self.session.face.picking()

    def _pick_limit(self) -> int:
        return self.session.face.pick_limit()

    def _write_log(self, lines: list[str]) -> None:
        """Add what the last action did to the log."""
        self.log_entries.append((len(self.session.game.actions), lines))
        log = self.query_one("#log", RichLog)
        for line in lines:
            self._log_line(log, line)

    def _render_log(self) -> None:
        """Write the whole log again (after an undo, or at a new width)."""
        log = self.query_one("#log", RichLog)
        log.clear()
        for _, lines in self.log_entries[-_LOG_ENTRIES:]:
            for line in lines:
                self._log_line(log, line)

    @staticmethod
    def _log_line(log: RichLog, line: str) -> None:
        """One line of the log wrapped to its width, continuations indented two
        spaces deeper than the line's own indent."""
        width = log.scrollable_content_region.width - 1  # the scrollbar's column
        width = width if width > 10 else 26
        line = for_people(line)
        lead = " " * (len(line) - len(line.lstrip(" ")) + 2)
        for part in textwrap.wrap(line, width, subsequent_indent=lead,
                                  break_on_hyphens=False, break_long_words=True) or [""]:
            log.write(Text(part))

    def _say(self, message: str, kind: str = "") -> None:
        widget = self.query_one("#message", Static)
        if kind != "hint":
            self.why = []  # the hint's numbers go with the hint
        widget.update(for_people(message))
        for name in ("error", "hint"):
            if widget.has_class(name) != (kind == name):
                widget.set_class(kind == name, name)

    @property
    def waiting(self) -> bool:
        """Whether a hand's result is on screen, waiting for Enter."""
        return self._waiting

    def screen_text(self) -> str:
        """The screen as plain text (no colours), as the snapshot test stores it."""
        width, height = self.size
        console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                          color_system=None, record=True, legacy_windows=False, safe_box=False)
        console.print(self.screen._compositor.render_update(
            full=True, screen_stack=self._background_screens))
        return console.export_text()

    # -- the flow -------------------------------------------------------------

    def _schedule(self) -> None:
        session = self.session
        if session.is_human_turn and not self._waiting:
            self._autoplay_soon()
        if self._pending or self._waiting or session.is_over or session.is_human_turn:
            return
        self._pending = True
        delay = max(self.delay, self.hold) if self._trick_complete() else self.delay
        if delay > 0:
            self.set_timer(delay, self._computer_step)
        else:
            self.call_later(self._computer_step)

    def _trick_complete(self) -> bool:
        """Whether the last action completed a trick (it is in the centre, whole)."""
        game = self.session.game
        return bool(game.actions) and isinstance(game.actions[-1], Play) and bool(
            game.tricks) and not game.trick

    def _computer_step(self) -> None:
        if self._waiting or self.session.is_over or self.session.is_human_turn:
            self._pending = False
            return
        turn = self.session.computer_turn()
        self.run_worker(partial(self._think, turn), thread=True, group="computer")

    def _think(self, turn: Turn) -> None:
        """In a worker thread: the computer's choice, handed back to the app's thread."""
        action = self.session.computer_choice(turn)
        with suppress(RuntimeError):  # the app has closed meanwhile
            self.call_from_thread(self._computer_move, turn, action)

    def _computer_move(self, turn: Turn, action: Action) -> None:
        self._pending = False
        try:
            lines = self.session.apply_computer(turn, action)
        except PinochleError:
            self._schedule()  # the game moved on (an undo): think again
            return
        self._after(lines)

    def _after(self, lines: list[str]) -> None:
        """Show what happened; pause on a finished hand; let the computers go on."""
        self._write_log(lines)
        passed = [line for line in lines if " cards to You: " in line]
        if passed:
            self._say(passed[-1])
        self.redraw()
        game = self.session.game
        if len(game.results) > self._results_seen:
            self._results_seen = len(game.results)
            result = game.results[-1]
            body = for_people("\n".join(self.session.explain(result)))
            if result.melds and self.session.face.melds_at_once:
                body += "\n" + "\n".join(self.session.meld_lines(result.melds))
            if game.winner is not None:
                body += "\n\n" + self.session.game_over_text()
            words = terms_in(body)
            if words:  # the jargon of the dialog, explained by the glossary
                body += f"\n\nWords used here ({', '.join(words)}): g explains them."
            body = _hanging(body)
            self._waiting = True
            self.query_one("#prompt", Static).update(self._prompt_text())
            self.push_screen(TextScreen(body, f"hand {game.results[-1].number}"),
                             self._result_seen)
            return
        self._schedule()

    def _result_seen(self, _: None = None) -> None:
        self._waiting = False
        self.redraw()
        if self.session.is_over:
            self._say("Game over. q quits; 'pinochle history' lists your games.")
        self._schedule()

    def _act(self, command: str | Action) -> None:
        if not self.session.is_human_turn:
            self._say("Wait for your turn.", "error")
            return
        try:
            lines = self.session.act(command)
        except PinochleError as error:
            self._say(f"Refused: {error}", "error")
            self.bell()
            return
        self._say("")
        self._after(lines)

    def _forced(self) -> Play | None:
        """Your only legal action, when it is a card (nothing else to choose)."""
        legal = self.session.game.legal_actions() if self.session.is_human_turn else []
        return legal[0] if len(legal) == 1 and isinstance(legal[0], Play) else None

    def _autoplay_soon(self) -> None:
        """With auto-play on, play your forced card after :data:`AUTOPLAY_DELAY` (at
        once without a move delay), unless the game has moved on meanwhile."""
        position = len(self.session.game.actions)
        if not self.autoplay or self._forced() is None or self._autoplay_at == position:
            return
        self._autoplay_at = position
        if self.delay > 0:
            self.set_timer(AUTOPLAY_DELAY, partial(self._play_forced, position))
        else:
            self.call_later(self._play_forced, position)

    def _play_forced(self, position: int) -> None:
        forced = self._forced()
        if (forced is not None and self.autoplay and not self._waiting
                and position == len(self.session.game.actions)):
            try:
                lines = self.session.act(forced)
            except PinochleError:
                return
            self._say(f"auto-play: {lines[0]}, your only legal card")
            self._after(lines)

    # -- actions (keys) -------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer a key only when it applies (the footer shows just those)."""
        session, game = self.session, self.session.game
        if action == "quit":
            return True
        if self._waiting:
            return False  # a hand result is on screen: Enter closes it first
        if action in ("help", "last_trick", "glossary", "autoplay"):
            return True
        if action == "review" and not session.face.reviewable:
            return False  # docs/review.md: the review does not value every game yet
        if action == "undo":
            return session.can_undo() and not self._pending
        mine = session.is_human_turn and not self._waiting
        if action == "why":
            return mine and bool(self.why)
        if action == "hint":
            return mine and session.settings.hints
        if action == "claim":
            return mine and session.claim_refusal() is None
        if action == "throw_in":
            return mine and any(isinstance(a, ThrowIn) for a in game.legal_actions())
        phase = game.phase
        if action == "confirm" and phase is Phase.TRUMP:
            return False  # nothing to confirm: the suit keys name trump
        if action in ("cursor", "confirm"):
            return mine and (phase in (Phase.PLAY, Phase.GIVE, Phase.RETURN, Phase.AUCTION)
                             or self._picking() or action == "confirm")
        if action == "pick":
            return mine and self._picking()
        if action == "lay":
            return mine and bool(parameters) and 0 < int(str(parameters[0])) <= len(
                self._melds())
        if action == "bid_change":
            return mine and phase is Phase.AUCTION
        if action == "call" and parameters:
            text = str(parameters[0])
            legal = game.legal_actions() if mine else []
            kinds = {"pass": lambda a: isinstance(a, Pass) and not a.help,
                     "pass help": lambda a: isinstance(a, Pass) and a.help,
                     "redeal": lambda a: isinstance(a, Redeal),
                     "throw in": lambda a: isinstance(a, ThrowIn),
                     "moon": lambda a: isinstance(a, Moon),
                     "dix": lambda a: isinstance(a, Dix),
                     "no meld": lambda a: isinstance(a, NoMeld)}
            if text.startswith("trump"):
                return any(isinstance(a, NameTrump) and a.suit.letter == text[-1] for a in legal)
            test = kinds.get(text)
            return bool(test and any(test(a) for a in legal))
        return True

    def action_cursor(self, step: int) -> None:
        """Move the card cursor."""
        count = len(self.session.game.hand(HUMAN))
        if count:
            self.cursor = (self.cursor + step) % count
            self.redraw()

    def action_pick(self) -> None:
        """Pick or unpick the card under the cursor for passing."""
        if self.cursor in self.picked:
            self.picked.discard(self.cursor)
        elif len(self.picked) < self._pick_limit():
            self.picked.add(self.cursor)
        else:
            self._say(f"You pick at most {self._pick_limit()} cards: unpick one first.",
                      "error")
        self.redraw()

    def action_bid_change(self, steps: int) -> None:
        """Raise or lower the bid being chosen, within the legal bids."""
        bids = [a.amount for a in self.session.game.legal_actions() if isinstance(a, Bid)]
        if bids:  # steps along the legal bids (the double deck's ladder is not even)
            at = bisect_left(bids, self.bid)
            self.bid = bids[min(len(bids) - 1, max(0, at + steps))]
            self.redraw()

    def action_confirm(self) -> None:
        """Enter: bid, play the card under the cursor, or pass the picked cards."""
        game = self.session.game
        verb = self.session.face.pick_verb()
        if self._picking() and verb is not None:
            cards = game.hand(HUMAN).cards()
            picked = [cards[i] for i in sorted(self.picked)]
            if not picked:
                self._say("Pick the cards with space first (or use the keys shown).", "error")
                return
            self._act(f"{verb} {' '.join(map(str, picked))}")
        elif game.phase is Phase.AUCTION:
            self._act(Bid(self.bid))
        elif game.phase is Phase.PLAY:
            cards = game.hand(HUMAN).cards()
            if cards:
                self._act(Play(cards[min(self.cursor, len(cards) - 1)]))
        elif game.phase in (Phase.GIVE, Phase.RETURN):
            cards = game.hand(HUMAN).cards()
            chosen = tuple(cards[i] for i in sorted(self.picked))
            self._act(Give(chosen) if game.phase is Phase.GIVE else Return(chosen))

    def action_lay(self, number: int) -> None:
        """Lay the meld numbered ``number`` in the meld turn's prompt (two-handed)."""
        melds = self._melds()
        if 0 < number <= len(melds):
            self._act(melds[number - 1])

    def action_call(self, text: str) -> None:
        """A call by its text: pass, pass help, redeal, trump X, throw in, moon."""
        self._act(text)

    def action_throw_in(self) -> None:
        """Ask first, then throw in the hand (it cannot be taken back by the others)."""
        game = self.session.game
        if not any(isinstance(a, ThrowIn) for a in game.legal_actions()):
            return
        contract = getattr(game, "contract", None)
        question = (f"Throw in this hand? {GLOSSARY['throw in']} Your contract is "
                    f"{contract}.")

        def answered(yes: bool | None) -> None:
            if yes:
                self._act("throw in")
            else:
                self._say("Not thrown in: play on.")

        self.push_screen(ConfirmScreen(question, "throw in?"), answered)

    def action_claim(self) -> None:
        """Claim the rest of the hand; the solver checks that it is sure (one claim
        per hand) and, sure, plays it out."""
        try:
            lines = self.session.claim()
        except PinochleError as error:
            self._say(f"Refused: {error}", "error")
            self.refresh_bindings()
            return
        self._say("")
        self._after(lines)

    def action_autoplay(self) -> None:
        """Switch auto-play of forced cards on or off."""
        self.autoplay = not self.autoplay
        self._autoplay_at = None
        self._say("Auto-play of forced cards: " + (
            "on (your only legal card is played for you)" if self.autoplay else "off"))
        self._autoplay_soon()

    def action_glossary(self) -> None:
        """Show the glossary: the table's words in a few words each."""
        self.push_screen(TextScreen(glossary_text(), "glossary"))

    def action_hint(self) -> None:
        """Ask the strongest computer player what it would do (nothing is played)."""
        try:
            turn = self.session.hint_request()
        except PinochleError as error:
            self._say(str(error), "error")
            return
        self.why = []
        self._say("hint: thinking…", "hint")
        self.run_worker(partial(self._hint, turn), thread=True, group="hint")

    def _hint(self, turn: Turn) -> None:
        """In a worker thread: the hint, handed back to the app's thread."""
        advice = self.session.hint_advice(turn)
        with suppress(RuntimeError):  # the app has closed meanwhile
            self.call_from_thread(self._show_hint, advice, turn.position)

    def _show_hint(self, advice: Advice, position: int) -> None:
        if position == len(self.session.game.actions):  # still the same decision
            self._say(self.session.hint_line(advice) + ("  (y: why)" if advice.why else ""),
                      "hint")
            self.why = list(advice.why)
            self.refresh_bindings()

    def action_why(self) -> None:
        """Show the numbers behind the hint: every option weighed, one a line."""
        if self.why:
            self.push_screen(TextScreen("\n".join(self.why), "why: the options weighed"))

    def action_undo(self) -> None:
        """Take back your last action (and the computer moves after it)."""
        if self._pending:
            self._say("Wait: a computer player is thinking.", "error")
            return
        try:
            lines = self.session.undo()
        except PinochleError as error:
            self._say(str(error), "error")
            return
        self._results_seen = len(self.session.game.results)
        self._turn_key = None
        kept = len(self.session.game.actions)  # the undone moves leave the log
        self.log_entries = [(n, told) for n, told in self.log_entries if n <= kept]
        self._render_log()
        self._say(lines[0])
        self.redraw()

    def action_review(self) -> None:
        """Review your decisions in the last finished hand (``expert`` values each
        option from what you could see; docs/review.md), in a worker thread."""
        results = self.session.game.results
        if not results:
            self._say("No hand is finished yet: a hand in play is never reviewed.", "error")
            return
        if self._reviewing:
            return
        self._reviewing = True
        self._say(f"reviewing hand {results[-1].number}…", "hint")
        self.run_worker(partial(self._review, results[-1].number), thread=True,
                        group="review")

    def _review(self, hand: int) -> None:
        """In a worker thread: the review, handed back to the app's thread."""
        def progress(done: int, total: int) -> None:
            with suppress(RuntimeError):
                self.call_from_thread(self._say, f"reviewing hand {hand}: "
                                      f"{progress_bar(done, total)} decision {done} of "
                                      f"{total}", "hint")

        try:
            text = review_text(self.session.game.record, hand, HUMAN, self.review_time,
                               progress)
        except PinochleError as error:
            text = f"The review failed: {error}"
        with suppress(RuntimeError):  # the app has closed meanwhile
            self.call_from_thread(self._show_review, text, hand)

    def _show_review(self, text: str, hand: int) -> None:
        self._reviewing = False
        self._say(f"review of hand {hand}: Enter closes it", "hint")
        self.push_screen(TextScreen(_hanging(text), f"review of hand {hand}"))

    def action_last_trick(self) -> None:
        """Show the last trick taken in this hand."""
        tricks = self.session.game.tricks
        if not tricks:
            self._say("No trick has been taken in this hand yet.", "error")
            return
        self.push_screen(TextScreen(for_people(self.session.tell_trick(
            len(tricks), tricks[-1])), "last trick"))

    async def action_quit(self) -> None:
        """Close the table; :attr:`goodbye` then says how to resume the game."""
        self.goodbye = self.session.saved_text()
        self.exit()

    def action_help(self) -> None:
        """Show the keys."""
        self.push_screen(TextScreen(HELP, "keys"))

    def click_card(self, index: int) -> None:
        """A click on card ``index``: move there, then play it or pick it."""
        cards = self.session.game.hand(HUMAN).cards()
        if not 0 <= index < len(cards) or not self.session.is_human_turn:
            return
        self.cursor = index
        if self._picking():
            self.action_pick()
        elif self.session.game.phase is Phase.PLAY:
            self.action_confirm()
        else:
            self.redraw()

