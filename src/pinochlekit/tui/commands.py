"""The ``pinochle play`` and ``pinochle history`` subcommands.

``play`` opens the full-screen table (Textual) or, with ``--plain`` (or when
input is not a terminal), the plain line mode; ``history`` lists saved games
and replays any hand step by step. Textual is imported only when the
full-screen table starts.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator

from pinochlekit.engine.errors import PinochleError
from pinochlekit.engine.games import AnyGame, parse_game_action, replay_any
from pinochlekit.engine.record import GameRecord
from pinochlekit.engine.rules import PRESETS, Rules
from pinochlekit.players import PlayerSpecError, available_levels, split_specs
from pinochlekit.review import ReviewError
from pinochlekit.text.narrate import counted, format_hand
from pinochlekit.tui.review import review_text
from pinochlekit.tui.session import HUMAN, SEAT_NAMES, Session, Settings, seat_names
from pinochlekit.tui.store import GameStore, SavedGame, StoreError
from pinochlekit.usage import UsageError, seed_number

__all__ = ["LEVEL_WORDS", "PRESET_WORDS", "add_commands", "hand_steps", "level_ladder",
           "run_history", "run_play"]

Command = Callable[[str, Callable[[argparse.Namespace], int], str, str], argparse.ArgumentParser]


_NORTH_ROLE = " (your partner; two-handed: your opponent)"

#: The levels in players' words, with the strength ladder measured in README
#: "Measured" (points per hand in matches on the same deals, four-handed pagat unless
#: said); the web lobby's words (web/static/js/lobby.js, checked by
#: tests/test_tui_glossary.py).
LEVEL_WORDS = {
    "random": "plays any legal card: for trying the table",
    "simple": "a beginner with a few rules of thumb",
    "easy": "a casual player",
    "standard": "a solid club player: beats easy by about 360 points a hand",
    "skilled": "standard with sharper card play: about 25 points a hand better",
    "pro": "a strong player: beats standard by about 70 points a hand",
    "expert": "the strongest: beats pro in two-handed play by about 50 points a hand, "
              "four-handed by about 70 (pagat and modern, 2,000 deal pairs each)",
}


#: Each preset in players' words: the web lobby's words (web/static/js/lobby.js,
#: checked by tests/test_tui_glossary.py).
PRESET_WORDS = {
    "pagat": "The classic four-handed partnership game: bid from 250 in tens, the winner "
             "names trump and swaps 4 cards with partner, game to 1,500.",
    "modern": "As the classic game, but you must beat a trick only when trump is led (the "
              "rule of most modern books).",
    "stonebridge": "A lighter four-handed game: bidding from 190, no cards swapped with "
                   "partner, doubles score plainly, kings and queens count 5.",
    "playingcards": "The PlayingCards.io scoring: points divided by ten (bid 20 by 1), 3 "
                    "cards swapped, game to 150, a hand of nines may be redealt, meld kept "
                    "without a trick.",
    "chips": "The classic game scored with chips: a set pays the other side instead of "
             "going minus.",
    "cutthroat": "The classic game with no cards swapped between partners: each hand plays "
                 "as dealt.",
    "family1000": "A family four-handed game to 1,000: trump must be led first, trump "
                  "follows trump, every card in one meld only, a short declarer loses the "
                  "shortfall, and one may shoot the moon.",
    "three": "Three players, each for himself: 15 cards each and a widow of 3 shown to all "
             "once the bidding is won; a short declarer loses the shortfall; game to 1,000.",
    "doubledeck": "Double deck: 80 cards (four of each A 10 K Q J per suit), 20 each in two "
                  "partnerships; bid from 50 (by 1 to 60, then by 5), meld single to "
                  "quadruple, counters A 10 K 1 each, game to 500.",
    "two": "Two players: 12 cards each, the turned-up card makes trump, draw from the "
           "stock after each trick and lay one meld per trick won; game to 1,000.",
}


def level_ladder(levels: list[str]) -> str:
    """The levels, weakest first, each in players' words: ``easy (a casual player);
    standard (a solid club player: …)``."""
    return "; ".join(f"{level} ({LEVEL_WORDS.get(level, 'a computer player')})"
                     for level in levels)


def add_commands(command: Command, rules_help: str) -> None:
    """Register ``play`` and ``history`` with the command line's ``command`` helper."""
    levels = "|".join(available_levels())
    sub = command(
        "play", run_play, "play at the table against computer players",
        "Sit at seat 0 (South) with a computer partner (North) against two computer "
        "opponents (West and East) at a full-screen table (with --rules two, two-handed: "
        "against one computer opponent, North; with --rules three, three-handed: against "
        "West and East, each for itself; with --rules doubledeck, the 80-card double deck "
        "with the levels that play it, in a terminal of 100x30 or more); --plain reads "
        "commands and "
        "prints text instead (also used when input is not a terminal). Every action is "
        "saved as it happens; --resume continues the last unfinished game.\n\n"
        "example: pinochle play --level pro --rules playingcards")
    sub.add_argument("--level", default="standard", metavar="LEVEL",
                     help=f"the computer players' level: {levels}, or one per computer "
                          f"seat separated by commas, clockwise from West (default: "
                          f"standard). Weakest first: "
                          f"{level_ladder(available_levels())}")
    for seat in (1, 2, 3):
        name = SEAT_NAMES[seat].lower()
        sub.add_argument(f"--{name}", metavar="LEVEL",
                         help=f"the level of {SEAT_NAMES[seat]}"
                              f"{_NORTH_ROLE if seat == 2 else ''}, overriding --level")
    presets = " ".join(f"{name}: {words}" for name, words in PRESET_WORDS.items()
                       if name in PRESETS)
    sub.add_argument("--rules", default="pagat", metavar="RULES",
                     help=f"{rules_help}. The presets: {presets}")
    sub.add_argument("--seed", metavar="SEED", help="the seed of the deals (default: random)")
    sub.add_argument("--plain", action="store_true",
                     help="the plain line mode: commands in, text out")
    sub.add_argument("--resume", nargs="?", const=0, type=int, metavar="ID",
                     help="continue the last unfinished game (or saved game ID)")
    sub.add_argument("--no-hints", action="store_true", help="switch hints off")
    sub.add_argument("--no-undo", action="store_true", help="switch undo off")
    sub.add_argument("--delay", type=float, default=0.5, metavar="SECONDS",
                     help="pause between computer moves at the full-screen table "
                          "(default: 0.5)")

    sub = command(
        "history", run_history, "list saved games and replay their hands",
        "Without an argument, list the saved games, newest first (unfinished ones with "
        "the command that resumes them). With a game id, list its "
        "hands; with --hand N too, replay that hand step by step (press Enter for each "
        "step at a terminal).\n\nexample: pinochle history 3 --hand 2")
    sub.add_argument("game", nargs="?", type=int, metavar="ID", help="a saved game's id")
    sub.add_argument("--hand", type=int, metavar="N", help="replay hand N of the game")
    sub.add_argument("--finished", action="store_true", help="list only finished games")
    sub.add_argument("--all", action="store_true",
                     help="every game, finished or not (the default; kept for scripts)")
    sub.add_argument("--no-pause", action="store_true",
                     help="print every step at once, even at a terminal")
    sub.add_argument("--review", action="store_true",
                     help="with --hand N: review your decisions in that hand instead "
                          "(expert values each option from what you could see; "
                          "docs/review.md)")
    sub.add_argument("--time", type=float, default=1.0, metavar="SECONDS",
                     help="with --review: expert's budget per valuation (default 1.0)")


def _levels(args: argparse.Namespace, players: int) -> list[str]:
    names = seat_names(players)[1:]
    levels = split_specs(args.level)
    if len(levels) == 1:
        levels *= len(names)
    if len(levels) != len(names):
        raise PlayerSpecError(f"--level: give one level or {len(names)} ({', '.join(names)}), "
                              f"not {len(levels)}")
    for name in SEAT_NAMES[1:]:
        override = getattr(args, name.lower())
        if override and name not in names:
            raise PlayerSpecError(f"--{name.lower()}: no {name} at a {players}-handed table "
                                  f"(the seats are {', '.join(names)})")
        if override:
            levels[names.index(name)] = override
    return levels


def _seed(text: str | None) -> int | str | None:
    if text is None or not text.strip():
        return None
    return seed_number(text.strip())


def run_play(args: argparse.Namespace) -> int:
    """``pinochle play``: a new or resumed game, full-screen or plain."""
    store = GameStore()
    try:
        if args.resume is not None:
            session = Session.resume(store, args.resume or None)
            if args.no_hints or args.no_undo:
                session.settings.hints &= not args.no_hints
                session.settings.undo &= not args.no_undo
                if session.game_id is not None:
                    store.update(session.game_id, scores=list(session.game.scores),
                                 hands=len(session.game.results), winner=session.game.winner,
                                 settings=session.settings.to_dict())
        else:
            settings = Settings(hints=not args.no_hints, undo=not args.no_undo)
            rules = Rules.from_string(args.rules)
            session = Session.new(rules, seed=_seed(args.seed),
                                  levels=_levels(args, rules.players), settings=settings,
                                  store=store)
        if args.plain or not sys.stdin.isatty():
            return _run_plain(session)
        try:
            from pinochlekit.tui.app import TableApp
        except ImportError as error:
            raise StoreError(f"the full-screen table needs Textual ({error}): install "
                             f"pinochlekit[tui], or use --plain") from None
        app = TableApp(session, delay=max(0.0, args.delay))
        app.run()
        if app.goodbye:
            print(app.goodbye)
        return 0
    finally:
        store.close()


def _run_plain(session: Session) -> int:
    from pinochlekit.tui.plain import run_plain

    interactive = sys.stdin.isatty()

    def read() -> str | None:
        try:
            return input() if interactive else (sys.stdin.readline() or None)
        except EOFError:
            return None

    try:
        return run_plain(session, read, sys.stdout, prompt=interactive)
    except KeyboardInterrupt:  # Ctrl-C stops as 'quit' does: every action is saved
        lead = "\n" if interactive else ""  # off the line the '^C' was echoed on
        print(f"{lead}interrupted: {session.saved_text(plain=True)}", flush=True)
        return 130


# -- history ----------------------------------------------------------------


def _partnership(saved: SavedGame) -> bool:
    """Whether the saved game is played in partnerships (by its rules; four seats if
    its rules no longer read, so that one such game never breaks the list)."""
    try:
        return Rules.from_string(saved.record.rules).partnership
    except (PinochleError, ValueError):
        return len(saved.seats) == 4


def _describe(saved: SavedGame) -> str:
    names = seat_names(len(saved.seats)) if len(saved.seats) in (2, 3, 4) else SEAT_NAMES
    seats = ", ".join(f"{names[s]} {saved.seats[s]}" for s in range(1, len(saved.seats)))
    scores = list(saved.scores)
    # Each score beside whose it is, a negative one with a true minus sign, so that
    # "-470 – 600" is never read as a range.
    heads = ["us", "them"] if _partnership(saved) else [
        "you" if s == 0 else names[s] for s in range(len(saved.seats))]
    standing = ", ".join(f"{heads[t] if t < len(heads) else t} {_number(score)}"
                         for t, score in enumerate(scores))
    if saved.finished and saved.winner is not None and saved.winner < len(scores):
        how = f"{'won' if saved.winner == 0 else 'lost'}: {standing}"
    else:
        how = "unfinished" + (f": {standing}" if scores else "")
    line = (f"{saved.id:4d}  {saved.updated}  {saved.record.rules}  {how}; "
            f"{counted(saved.hands, 'hand')}  ({seats})")
    if not saved.finished:
        line += f"  resume: pinochle play --resume {saved.id}"
    return line


def _number(value: int) -> str:
    """A score for people: ``−470`` with a minus sign (U+2212), not a hyphen."""
    return f"\u2212{-value}" if value < 0 else str(value)


def hand_steps(record: GameRecord,
               number: int) -> tuple[AnyGame, list[str]]:
    """The game just before hand ``number`` starts, and the actions of that hand."""
    game = replay_any(GameRecord(record.rules, record.seed, record.dealer, (), record.deals))
    texts: list[str] = []
    for text in record.actions:
        if game.hand_number > number:
            break
        if game.hand_number == number:
            texts.append(text)
        else:
            game.apply(parse_game_action(game.rules, text))
    if game.hand_number < number or not texts:
        last = game.hand_number if texts or game.hand_number < number else number - 1
        raise StoreError(f"--hand {number}: this game has hands 1 to {max(1, last)}")
    return game, texts


def _steps(saved: SavedGame, number: int) -> Iterator[list[str]]:
    game, texts = hand_steps(saved.record, number)
    session = Session(game, saved.seats)
    yield [f"game {saved.id}, hand {number}, dealer {session.name(game.dealer)}; score "
           + ", ".join(f"{session.team_name(t)} {game.scores[t]}"
                       for t in range(game.rules.teams)),
           "the deal:"] + [f"  {session.label(s):<24} {format_hand(game.hand(s))}"
                           for s in range(game.rules.players)] + session.face.dealt_lines()
    for step, text in enumerate(texts, 1):
        seat = game.to_act
        assert seat is not None
        lines = session.apply_and_tell(seat, parse_game_action(game.rules, text))
        # History shows the cards passed between any two seats: the hand is over.
        if text.startswith(("give", "return")):
            lines[0] = f"{lines[0].split(':')[0]}: {text.split(' ', 1)[1]}"
        yield [f"{step:3d}. {lines[0]}", *lines[1:]]
        if game.hand_number != number or game.winner is not None:
            return  # the hand is over (its last lines named the next deal, if any)


def _replayed(saved: SavedGame) -> AnyGame:
    """The saved game replayed, every action checked, with a seat for each of its
    players; :class:`StoreError` naming the game if it does not replay."""
    try:
        game = replay_any(saved.record)
    except PinochleError as error:
        raise StoreError(f"saved game {saved.id} cannot be replayed: {error}") from None
    if len(saved.seats) != game.rules.players:
        raise StoreError(f"saved game {saved.id} is damaged: bad seats {saved.seats}")
    return game


def run_history(args: argparse.Namespace) -> int:
    """``pinochle history``: list games, a game's hands, or replay one hand."""
    store = GameStore()
    try:
        if args.game is None:
            ids = store.game_ids(finished=True if args.finished else None)
            if not ids:
                print(("no finished games yet" if args.finished else "no saved games yet")
                      + ": play one with 'pinochle play'")
            for game_id in ids:
                try:  # one damaged game is one line of the list, not the end of it
                    print(_describe(store.load(game_id)))
                except StoreError as error:
                    print(f"{game_id:4d}  {error}")
            return 0
        saved = store.load(args.game)
        game = _replayed(saved)
        if args.hand is None:
            print(_describe(saved))
            session = Session(game, saved.seats)
            for result in game.results:
                print(session.explain(result)[0])
            if not game.results:
                print("no hand finished yet")
            print(f"(replay a hand: pinochle history {saved.id} --hand N)")
            return 0
        if args.review:
            if not 0 < args.time <= 60:
                raise UsageError(f"--time: seconds above 0 and at most 60, not {args.time}")
            try:  # review_hand checks that the hand is in the record and finished
                print(review_text(saved.record, args.hand, HUMAN, args.time))
            except ReviewError as error:
                raise UsageError(f"--hand {args.hand} --review needs a finished hand of "
                                 f"game {saved.id}: {error}") from None
            return 0
        pause = sys.stdin.isatty() and sys.stdout.isatty() and not args.no_pause
        for lines in _steps(saved, args.hand):
            print("\n".join(lines))
            if pause:
                try:
                    if input("  [Enter] next step, q to stop ").strip().lower() == "q":
                        break
                except EOFError:
                    break
        return 0
    finally:
        store.close()
