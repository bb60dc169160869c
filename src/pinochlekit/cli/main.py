"""The ``pinochle`` command line: rules, meld, legal plays, demo games, replays.

Every subcommand has ``--help``. Every error is one line on stderr starting
with ``pinochle: error:``; the exit status is 2 for bad usage or bad input and
1 when a file cannot be read or written.

>>> main(["meld", "--trump", "S", "AS TS KS QS JS 9S"])
run  AS TS KS QS JS  150
dix  9S               10
total                160
0
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

from pinochlekit.engine.cards import Card, Hand, Suit, parse_cards, parse_suit
from pinochlekit.engine.errors import PinochleError
from pinochlekit.engine.games import new_any_game, replay_any
from pinochlekit.engine.meld import meld_dict
from pinochlekit.engine.record import GameRecord
from pinochlekit.engine.rules import PRESET_SOURCES, Rules
from pinochlekit.engine.tricks import explain_illegal, legal_plays
from pinochlekit.engine.variants import Variant, find_variant
from pinochlekit.match import ProgressBar, run_match
from pinochlekit.players import (
    PLAYERS,
    PlayerSpecError,
    level_name,
    levels_for,
    make_player,
    plays,
    split_specs,
)
from pinochlekit.players.seat import Seat
from pinochlekit.text.tell import hand_count, tell
from pinochlekit.usage import UsageError, seed_number

__all__ = ["UsageError", "build_parser", "main", "meld_dict"]

PROG = "pinochle"


class _FileError(Exception):
    """A file that cannot be read or written: reported as one line, exit status 1."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, raised rather than printed."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


_EPILOG = """\
examples:
  pinochle rules                          list the presets
  pinochle rules "pagat(min_bid=200)"     every option of some rules
  pinochle meld --trump S AS TS KS QS JS 9S
  pinochle legal --trump S --trick "KH AH" AH TH 9H KS
  pinochle demo --seed 1 --record game.json
  pinochle replay game.json --hand 2
  pinochle match simple random --deals 200
  pinochle play --level pro               play at the table: you sit South
  pinochle play --rules two               two-handed, against one computer player
  pinochle play --rules three             three-handed, each for itself
  pinochle play --rules doubledeck        double deck: 80 cards, 20 each, no nines
  pinochle history 1 --hand 2             replay a hand of a saved game
  pinochle serve                          play in a browser with friends

Cards are written rank then suit: ranks A T K Q J 9 (10 also works), suits
S H D C (symbols also work), e.g. TS 10S QS JD. Rules are a preset name,
optionally with changed options: "pagat(min_bid=200, cards_passed=3)".
"""


def _fill(text: str) -> str:
    """Wrap each paragraph of a help text to 79 columns, keeping ``example:`` lines."""
    return "\n\n".join(para if para.startswith("example") else textwrap.fill(para, 79)
                       for para in text.split("\n\n"))


def build_parser() -> argparse.ArgumentParser:
    """Build the ``pinochle`` argument parser with all its subcommands."""
    parser = _Parser(
        prog=PROG, formatter_class=argparse.RawDescriptionHelpFormatter,
        description=_fill("Pinochle: four-handed partnership auction pinochle, "
                          "three-handed with a widow (--rules three), two-handed "
                          "with a stock (--rules two) and the double deck (--rules "
                          "doubledeck): rules, meld, legal plays, games "
                          "between computer players, and a table to play at in the "
                          "terminal or in a browser."),
        epilog=_EPILOG)
    from pinochlekit import __version__
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)

    def command(name: str, run: Callable[[argparse.Namespace], int], summary: str,
                description: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=summary, description=_fill(description),
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
        sub.set_defaults(run=run)
        return sub

    rules_help = ("rules: a preset, optionally with changed options, e.g. "
                  "'modern' or 'pagat(min_bid=200)' (default: pagat)")

    sub = command("rules", _run_rules, "list the presets, or show every option of some rules",
                  "Without an argument, list the named presets and where each comes from. "
                  "With one, show every option of those rules: its value, what it means "
                  "and its source (the sources named in docs/rules.md).")
    sub.add_argument("rules", nargs="?", metavar="RULES",
                     help="a preset name or a rules string like 'pagat(min_bid=200)'")

    sub = command("meld", _run_meld, "score the meld of some cards",
                  "Show the best meld of one player's cards, item by item, and its total "
                  "(docs/rules.md §1 Meld). Two-handed (--rules two), the most the cards score "
                  "laid one meld at a time, one after each won trick, in a playable order "
                  "(docs/rules.md §4), with the dix counted for each nine of trump. Double "
                  "deck (--rules doubledeck), single to quadruple melds (docs/rules.md §6)."
                  "\n\nexample: pinochle meld --trump S AS TS KS QS JS 9S")
    sub.add_argument("--trump", required=True, metavar="SUIT",
                     help="the trump suit (S, H, D, C), or 'none' before trump is named")
    sub.add_argument("--rules", default="pagat", metavar="RULES", help=rules_help)
    sub.add_argument("--json", action="store_true",
                     help='print {"points": ..., "shown": ..., "items": [...]} as JSON')
    sub.add_argument("cards", nargs="+", metavar="CARD",
                     help="the cards, as separate arguments or one quoted string")

    sub = command("legal", _run_legal, "list the cards a hand may play to a trick",
                  "Show which cards of a hand may be played to the trick so far, and why "
                  "each other card may not (docs/rules.md §1 Play). Two-handed (--rules two): "
                  "the rule of the last 12 tricks, once the stock is gone; with --early, "
                  "the early tricks, where any card may be played (docs/rules.md §4).\n\n"
                  'example: pinochle legal --trump S --trick "KH AH" AH TH 9H KS')
    sub.add_argument("--trump", required=True, metavar="SUIT",
                     help="the trump suit (S, H, D or C)")
    sub.add_argument("--trick", default="", metavar="CARDS",
                     help="the cards already played to the trick, in order (default: "
                          "none, you lead)")
    sub.add_argument("--rules", default="pagat", metavar="RULES", help=rules_help)
    sub.add_argument("--first-trick", action="store_true",
                     help="this is the first trick of the hand (matters when the first "
                          "lead must be trump)")
    sub.add_argument("--early", action="store_true",
                     help="two-handed: a trick while the stock lasts (any card may be "
                          "played)")
    sub.add_argument("hand", nargs="+", metavar="CARD",
                     help="the cards in hand, as separate arguments or one quoted string")

    sub = command("demo", _run_demo, "play a whole game between computer players",
                  "Play a game to the target between built-in computer players and print "
                  "it hand by hand: the deal, the auction, trump, the cards passed, each "
                  "player's meld, every trick and the score. The same seed gives the same "
                  "game.")
    sub.add_argument("--seed", metavar="SEED",
                     help="the seed of every deal and every player (default: a random "
                          "seed, printed in the first line)")
    sub.add_argument("--rules", default="pagat", metavar="RULES", help=rules_help)
    sub.add_argument("--dealer", type=int, default=0, metavar="SEAT",
                     help="the first dealer, a seat from 0 to 3 (default: 0)")
    sub.add_argument("--players", default=None, metavar="NAMES",
                     help=f"one player for every seat, or one per seat separated by commas; "
                          f"names: {', '.join(PLAYERS)}, optionally with options, e.g. "
                          f"'standard(bid_sims=200)' (default: simple)")
    sub.add_argument("--record", metavar="FILE",
                     help="also write the game record (JSON) to FILE, for 'pinochle replay'")
    sub.add_argument("--max-hands", type=int, default=1000, metavar="N",
                     help="stop after N hands even without a winner (default: 1000)")

    sub = command("replay", _run_replay, "replay a game record and print it",
                  "Read a game record written by 'pinochle demo --record' (or any "
                  "pinochlekit record), check every action again and print the game "
                  "the way 'pinochle demo' does.")
    sub.add_argument("file", metavar="FILE", help="the record (JSON); '-' reads stdin")
    sub.add_argument("--hand", type=int, metavar="N",
                     help="print only hand N (hands are numbered from 1, redeals included)")

    from pinochlekit.cli.review import add_review, run_review
    add_review(command("review", run_review, "where a seat lost points in a finished hand",
                       "Value every decision of one seat in one finished hand with the "
                       "expert player, from what that seat could see at the time: the "
                       "options, the best, the points lost (? and ?? where the loss is "
                       "larger than its noise), and the declaring side's perfect-play "
                       "trick points over the last tricks."))

    from pinochlekit.cli.stats import add_stats, run_stats
    add_stats(command("stats", run_stats, "a person's statistics over saved games",
                      "Hands played, contracts bid, made and set, and the points lost per "
                      "decision by phase (auction, passing, play; each hand reviewed as "
                      "'pinochle review' does, cached), game by game and by opponent level, "
                      "over the terminal's saved games and, with --name, the web's."))

    sub = command("match", _run_match, "a duplicate match between two players",
                  "Play every deal twice with the partnerships swapped (A at seats 0 and "
                  "2, then at 1 and 3: same cards, same dealer; three-handed, six times: A "
                  "alone in every seat, then B alone in every seat) and report A's points "
                  "per hand minus B's with a 95% confidence interval, contracts made and set "
                  "by each side and, with --games, whole games won. A player is a name "
                  "(simple, random, ...) or cmd:PROGRAM ARGS, a program speaking the "
                  "protocol of docs/protocol.md. A player that fails stops the match "
                  "with an error naming it.\n\n"
                  'example: pinochle match simple "cmd:python examples/random_bot.py" '
                  "--deals 50")
    sub.add_argument("a", metavar="A", help="player A: a name or cmd:PROGRAM ARGS")
    sub.add_argument("b", metavar="B", help="player B: a name or cmd:PROGRAM ARGS")
    sub.add_argument("--deals", type=int, metavar="N",
                     help="deal pairs to play, one hand each way (default: 100, or 0 "
                          "with --games)")
    sub.add_argument("--games", type=int, default=0, metavar="N",
                     help="also play N whole games in duplicate pairs, to the target "
                          "(default: 0)")
    sub.add_argument("--seed", metavar="SEED",
                     help="the seed of every deal and player (default: random, printed)")
    sub.add_argument("--rules", default="pagat", metavar="RULES", help=rules_help)
    sub.add_argument("--workers", type=int, metavar="N",
                     help="worker processes (default: every core); results do not "
                          "depend on it")
    sub.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS",
                     help="run the deal pairs as Ray tasks: on a Ray started here (with "
                          "--workers CPUs) or, with ADDRESS, on that cluster; the results "
                          "are those of --workers (needs pip install 'pinochlekit[ray]')")
    sub.add_argument("--resume", metavar="DIR",
                     help="keep finished deal pairs in DIR; started again with the same "
                          "arguments, the match plays only the missing ones (needs --seed)")
    sub.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS",
                     help="time an external program has for each answer (default: 10)")
    sub.add_argument("--json", action="store_true",
                     help="print the result as JSON (format pinochlekit-match/1)")
    sub.add_argument("--quiet", action="store_true", help="no progress bar on stderr")

    from pinochlekit.tui.commands import add_commands  # play and history
    add_commands(command, rules_help)

    from pinochlekit.web.commands import add_commands as add_web_commands  # serve
    add_web_commands(command)
    return parser


# -- rules ------------------------------------------------------------------


def _run_rules(args: argparse.Namespace) -> int:
    if args.rules is None:
        width = max(map(len, PRESET_SOURCES))
        print("presets ('pinochle rules NAME' shows every option):")
        for name in Rules.presets(None):
            lines = textwrap.wrap(PRESET_SOURCES[name], 96 - width)
            print(f"  {name:<{width}}  {lines[0]}")
            for line in lines[1:]:
                print(f"  {'':<{width}}  {line}")
        print(f"default: {Rules.presets()[0]}")
        return 0
    rules = Rules.from_string(args.rules)
    # compared with the default preset of the same game (pagat, three, two, doubledeck)
    base_name = Rules.presets(rules.players, rules.deck)[0]
    base = Rules.preset(base_name)
    print(f"rules: {rules}")
    if rules.unit != 1:
        print(f"values in play (divided by ten): opening bid {rules.opening_bid}, step "
              f"{rules.step}, game {rules.game_target}")
    fixed = rules.fixed_options()
    print(f"options ('*': differs from {base_name}):")
    for (name, value, meaning, source), (_, default, _, _) in zip(
            rules.describe(), base.describe(), strict=True):
        if name in fixed:
            continue
        mark = "*" if value != default else " "
        changed = f"  ({base_name}: {default})" if value != default else ""
        print(f"{mark} {name} = {value}{changed}")
        for line in textwrap.wrap(meaning, 92):
            print(f"      {line}")
        print(f"      source: {source}")
    if fixed:  # docs/rules.md §4, §6: options this game does not have
        print("not options of this game: " + ", ".join(sorted(fixed)))
    return 0


# -- meld and legal ---------------------------------------------------------


def _read_trump(text: str, *, allow_none: bool) -> Suit | None:
    if allow_none and text.strip().lower() in ("none", "-", "no"):
        return None
    return parse_suit(text)


def _read_cards(words: Sequence[str], rules: Rules | None = None) -> list[Card]:
    cards = parse_cards(" ".join(words))
    _check_copies(cards, rules)
    return cards


def _check_copies(cards: list[Card], rules: Rules | None) -> None:
    """At most two of each card (four, and no nines, in the double deck: docs/rules.md §6)."""
    (find_variant(rules) if rules is not None else Variant).check_cards(cards)


def _run_meld(args: argparse.Namespace) -> int:
    rules = Rules.from_string(args.rules)
    variant = find_variant(rules)
    trump = _read_trump(args.trump, allow_none=not variant.meld_needs_trump)
    result = variant.meld(_read_cards(args.cards, rules), trump, rules)
    if variant.meld_note and not args.json:
        print(variant.meld_note)
    if args.json:
        print(json.dumps(meld_dict(result)))
        return 0
    if not result.items:
        print("no meld")
    rows = [(item.name, " ".join(map(str, item.cards)), str(item.points))
            for item in result.items]
    rows.append(("total", "", str(result.points)))
    name_w = max(len(r[0]) for r in rows[:-1]) if result.items else 0
    cards_w = max(len(r[1]) for r in rows)
    points_w = max(len(r[2]) for r in rows)
    for name, cards, points in rows[:-1]:
        print(f"{name:<{name_w}}  {cards:<{cards_w}}  {points:>{points_w}}")
    total_w = name_w + cards_w + 4 if result.items else 6
    print(f"{'total':<{total_w}}{result.points:>{points_w}}")
    return 0


def _run_legal(args: argparse.Namespace) -> int:
    rules = Rules.from_string(args.rules)
    trump = _read_trump(args.trump, allow_none=False)
    assert trump is not None
    hand_cards = _read_cards(args.hand, rules)
    trick = parse_cards(args.trick)
    if len(trick) >= rules.players:
        most = rules.players - 1
        raise UsageError(f"a trick holds at most {most} card{'s' * (most > 1)} before yours, "
                         f"not {len(trick)}: {args.trick!r}")
    _check_copies([*hand_cards, *trick], rules)  # no third (double deck: fifth) copy
    hand = Hand.from_cards(set(hand_cards))  # the play rules look at the kinds held
    if args.early and rules.players != 2:
        raise UsageError("--early is for the two-handed game (--rules two)")
    if rules.players == 2:  # docs/rules.md §4: free play while the stock lasts, then old rules
        print("two-handed, " + ("early trick (the stock lasts): any card may be played"
                                if args.early else "last 12 tricks (the stock is gone)"))
    if args.early:
        legal = list(Hand.from_cards(set(hand_cards)))
    else:
        legal = legal_plays(hand, trick, trump, rules, first_trick=args.first_trick)
    print("legal: " + " ".join(str(c) for c in Hand.from_cards(legal)))
    illegal = [c for c in Hand.from_cards(set(hand_cards)) if c not in legal]
    if illegal:
        print("not legal:")
        for card in illegal:
            reason = explain_illegal(hand.once, trick, trump, rules, args.first_trick, card)
            print(f"  {card}  {reason}")
    return 0


# -- demo and replay --------------------------------------------------------


def _read_seed(text: str | None) -> int | str | None:
    if text is None:
        return None
    text = text.strip()
    if not text:
        raise UsageError("the seed is empty")
    return seed_number(text)


def _run_demo(args: argparse.Namespace) -> int:
    rules = Rules.from_string(args.rules)
    names = split_specs(args.players or ("simple" if plays("simple", rules) else "random"))
    if len(names) == 1:
        names *= rules.players
    if len(names) != rules.players:
        raise UsageError(f"--players: give one name or {rules.players}, not {len(names)}")
    try:
        for name in names:  # check every spec before playing
            make_player(name).close()
    except PlayerSpecError as error:
        raise UsageError(f"--players: {error}") from None
    refused = sorted({n for n in names if not plays(n, rules)})
    if refused:
        raise UsageError(f"--players: the {find_variant(rules).name} is played by "
                         f"{', '.join(levels_for(rules))} (docs/players.md), not "
                         f"{', '.join(refused)}")
    if args.max_hands < 1:
        raise UsageError(f"--max-hands must be at least 1, not {args.max_hands}")
    game = new_any_game(rules, seed=_read_seed(args.seed), dealer=args.dealer)
    # one Seat per seat for the whole game, seeded by the one policy (docs/players.md "Seeds")
    seats = [Seat.new(name, seat, game.seed) for seat, name in enumerate(names)]
    try:
        while game.winner is None and len(game.results) < args.max_hands:
            seat = game.to_act
            assert seat is not None
            game.apply(seats[seat].choose(game.view(seat)), seat)
            for each in seats:
                each.observe(game.results)
    finally:
        for each in seats:
            each.close()
    if args.record:
        text = game.record.to_json(indent=2) + "\n"
        try:
            Path(args.record).write_text(text, encoding="utf-8")
        except OSError as error:
            raise _FileError(f"cannot write {args.record!r}: {error.strerror or error}") from None
        print(f"pinochle: record written to {args.record}", file=sys.stderr)
    _print_lines(tell(game))
    return 0


def _run_replay(args: argparse.Namespace) -> int:
    try:
        path = None if args.file == "-" else Path(args.file)
        text = sys.stdin.read() if path is None else path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{args.file!r} is not a text file (UTF-8)") from None
    except OSError as error:
        raise _FileError(f"cannot read {args.file!r}: {error.strerror or error}") from None
    game = replay_any(GameRecord.from_json(text))
    hands = None
    if args.hand is not None:
        count = hand_count(game)
        if not 1 <= args.hand <= count:
            raise UsageError(f"--hand {args.hand}: this record has hands 1 to {count}")
        hands = {args.hand}
    _print_lines(tell(game, hands))
    return 0


# -- match ------------------------------------------------------------------


def _run_match(args: argparse.Namespace) -> int:
    deals = args.deals if args.deals is not None else (0 if args.games else 100)
    for name, value in (("--deals", deals), ("--games", args.games)):
        if value < 0:
            raise UsageError(f"{name} must be at least 0, not {value}")
    if deals + args.games == 0:
        raise UsageError("give --deals or --games at least 1")
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers must be at least 1, not {args.workers}")
    if not args.timeout > 0:
        raise UsageError(f"--timeout must be more than 0, not {args.timeout}")
    rules = Rules.from_string(args.rules)
    for spec in (args.a, args.b):
        # a known level that does not play this game; an unknown name is refused below,
        # with the list of players, when the match builds it
        if level_name(spec) in PLAYERS and not plays(spec, rules):
            raise UsageError(f"--rules: the {find_variant(rules).name} is played by "
                             f"{', '.join(levels_for(rules))} (docs/players.md), not {spec}")
    bar = ProgressBar(sys.stderr, enabled=not args.quiet)
    try:
        result = run_match(args.a, args.b, deals=deals, games=args.games,
                           seed=_read_seed(args.seed), rules=args.rules,
                           workers=args.workers, timeout=args.timeout, progress=bar,
                           ray=args.ray, resume=args.resume)
    finally:
        bar.close()
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        _print_lines(result.report())
    return 0


def _print_lines(lines: Sequence[str]) -> None:
    sys.stdout.write("".join(line + "\n" for line in lines))


# -- entry point ------------------------------------------------------------


def _fail(message: str, status: int) -> int:
    first = message.strip().splitlines()[0] if message.strip() else "failed"
    print(f"{PROG}: error: {first}", file=sys.stderr)
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); the exit status."""
    if isinstance(sys.stdout, io.TextIOWrapper):  # never fail on a narrow terminal encoding
        sys.stdout.reconfigure(errors="replace")
    try:
        args = build_parser().parse_args(argv)
        status: int = args.run(args)
        sys.stdout.flush()
        return status
    except SystemExit as done:  # --help and --version
        return done.code if isinstance(done.code, int) else 0
    except UsageError as error:
        return _fail(str(error), 2)
    except _FileError as error:
        return _fail(str(error), 1)
    except BrokenPipeError:
        # The reader went away (``pinochle demo | head``): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except (PinochleError, ValueError) as error:
        return _fail(str(error), 2)
    except OSError as error:
        return _fail(str(error), 1)
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
