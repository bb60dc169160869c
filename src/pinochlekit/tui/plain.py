"""The plain line mode: commands in, text out, for screen readers, scripts and dumb
terminals (``pinochle play --plain``).

It uses the same :class:`~pinochlekit.tui.session.Session` as the full-screen
table, so the rules, the messages and the saved game are the same. Each turn
of the person ends with one line starting ``your turn:`` that lists what may
be done; then one command is read. End of input leaves the game saved.

Cards are written for people (``K♦ 10♣``) in every line told, as at the
full-screen table; the compact form (``KD TC``) only in what is typed: the
``your turn:`` line (the commands it lists) and the help.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from pinochlekit.engine.errors import PinochleError
from pinochlekit.engine.rules import Rules
from pinochlekit.tui.glossary import glossary_text
from pinochlekit.tui.session import Session, for_people

__all__ = ["HELP", "help_text", "run_plain"]

HELP = """\
commands:
  bid 260 | 260        bid (the amounts allowed are listed at your turn)
  pass | pass help     pass; 'pass help' tells partner you hold meld for them
  redeal               a nines redeal, when the rules and your hand allow it
  trump H | H          name trump (S, H, D, C) when you won the auction
  give AS TS KS QS     pass cards to the declarer (partner of the declarer)
  return AS TS KS QS   pass cards back to partner (the declarer)
  discard AS TS KS     three-handed, widow taken: the declarer lays 3 cards aside
  play TS | TS         play a card (10S and symbols like 10♠ work too)
  throw in | moon      concede the hand, or shoot the moon, before the first card
  claim                claim the rest of the hand: the solver checks it is sure
  meld KS QS | KS QS   two-handed, after winning an early trick: lay one meld
  dix                  two-handed: count the nine of trump (exchanged or shown)
  no meld | n          two-handed: end the meld turn (then both players draw)
  hint                 what the strongest computer player would do, in a sentence
  why                  the numbers behind the last hint, one option a line
  undo                 take back your last action
  show                 the table: score, auction, contract, meld, trick, hand
  last                 the last trick
  scores               the score pad, hand by hand
  glossary             the table's words (counters, set, stuck, ...) explained
  help                 this list
  quit                 stop; the game is saved (the line printed says how to go on)"""


def help_text(rules: Rules) -> str:
    """:data:`HELP` for the game of ``rules``: only the commands it has (docs/rules.md
    §3 widow, §4 two-handed, §6 double deck), the bid example on its own ladder.

    >>> "meld KS QS" in help_text(Rules.preset("two")), "bid" in help_text(Rules.preset("two"))
    (True, False)
    >>> [line for line in help_text(Rules.preset("doubledeck")).splitlines()
    ...  if "bid" in line or "pass" in line or "throw" in line]  # doctest: +NORMALIZE_WHITESPACE
    ['  bid 51 | 51          bid (the amounts allowed are listed at your turn)',
     '  pass                 pass']
    """
    auction = rules.players != 2
    single = rules.deck == "single"
    keep = {
        "bid": auction, "pass": auction, "redeal": auction and rules.nines_redeal != "off",
        "trump": auction, "give": auction and bool(rules.cards_passed),
        "return": auction and bool(rules.cards_passed),
        "discard": rules.players == 3 and rules.widow == "take",
        "throw": auction and single, "meld": not auction, "dix": not auction,
        "no": not auction,
    }
    lines = []
    for line in HELP.splitlines():
        word = line.split()[0]
        if not keep.get(word, True):
            continue
        if word == "bid":
            amount = rules.opening_bid + rules.step
            line = f"  {f'bid {amount} | {amount}':<21}" + line[23:]
        elif word in ("give", "return"):
            cards = " ".join(["AS", "TS", "KS", "QS"][:rules.cards_passed])
            line = f"  {f'{word} {cards}':<21}" + line[23:]
        elif word == "pass" and not rules.pass_with_help:
            line = f"  {'pass':<21}pass"
        elif word == "throw" and not rules.shoot_the_moon:
            line = f"  {'throw in':<21}concede the hand before the first card"
        lines.append(line)
    return "\n".join(lines)


def _score_pad(session: Session) -> list[str]:
    game = session.game
    names = [session.team_name(t) for t in range(game.rules.teams)]
    lines = [f"score pad (game {game.rules.game_target}): " + " | ".join(names)]
    for result in game.results:
        cells = " | ".join(f"{result.scores[t]:+d} = {result.totals[t]}"
                           for t in range(game.rules.teams))
        lines.append(f"  hand {result.number:2d} ({result.outcome}): {cells}")
    if not game.results:
        lines.append("  no hand finished yet")
    return lines


def run_plain(session: Session, read: Callable[[], str | None], out: TextIO,
              prompt: bool = False) -> int:
    """Play ``session`` reading commands with ``read`` (``None`` at end of input)
    and writing lines to ``out``; returns 0."""

    def say(lines: list[str] | str, typed: bool = False) -> None:
        """Write lines, cards for people unless ``typed`` (commands to type)."""
        for line in [lines] if isinstance(lines, str) else lines:
            out.write((line if typed else for_people(line)) + "\n")
        out.flush()

    game = session.game
    why: list[str] = []
    seats = ", ".join(session.label(s) for s in range(1, game.rules.players))
    say(f"pinochle: game {session.game_id or '-'}, rules {game.rules}, seed {game.seed}; "
        f"you sit South with {seats}; type 'help' for the commands")
    say(session.status_lines())
    if session.is_over:
        say(session.game_over_text())
        return 0
    while True:
        while not session.is_over and not session.is_human_turn:
            say(session.step())
        if session.is_over:  # the last action's lines told the end of the game
            return 0
        say(f"your turn: {session.choices_text()}", typed=True)
        if prompt:
            out.write("> ")
            out.flush()
        line = read()
        if line is None:
            say(f"end of input: {session.saved_text(plain=True)}")
            return 0
        command = line.strip()
        word = command.lower()
        try:
            if not command:
                continue
            if word in ("quit", "exit", "q"):
                say(f"stopped: {session.saved_text(plain=True)}")
                return 0
            if word in ("help", "?"):
                say(help_text(session.game.rules), typed=True)
            elif word == "hint":
                advice = session.hint_advice(session.hint_request())
                why = list(advice.why)
                say(session.hint_line(advice) + (" ('why' shows the numbers)" if why else ""))
            elif word == "why":
                say(["why: the options weighed", *(f"  {line}" for line in why)] if why
                    else "no numbers to show: ask for a 'hint' first")
            elif word == "undo":
                say(session.undo())
                say(session.status_lines())
            elif word in ("show", "table"):
                say(session.status_lines())
            elif word == "last":
                tricks = game.tricks
                say(session.tell_trick(len(tricks), tricks[-1]) if tricks else
                    "no trick has been taken in this hand yet")
            elif word == "claim":
                say(session.claim())
            elif word == "glossary":
                say(glossary_text().splitlines())
            elif word in ("scores", "score"):
                say(_score_pad(session))
            elif word == "hand":
                say(f"your hand: {session.hand_text()}")
            else:
                say(session.act(command))
        except PinochleError as error:
            say(f"refused: {error}")
