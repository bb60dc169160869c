"""The ``pinochle serve``, ``pinochle tables`` and ``pinochle verify`` subcommands.

``verify`` needs only the engine: it recomputes a hand's deal from the deal
seed the table revealed after the hand, and checks the hash shown before it.

>>> from pinochlekit.engine.deals import deal_seed
>>> seed = deal_seed("club night", 0)
>>> lines = verify_lines(seed, 1, None)
>>> lines[0] == "commitment (SHA-256 of the deal seed): " + commitment(seed)
True
>>> len(lines)
5
>>> verify_lines(seed, 1, None, players=3)[-1].startswith("widow: ")
True
>>> [len(line.split()) - 2 for line in verify_lines(seed, 1, None, deck="double")[1:]]
[20, 20, 20, 20]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from pinochlekit.engine.deals import deal_seed
from pinochlekit.web.dealing import client_commitment, dealt_cards, game_seed, server_commitment
from pinochlekit.web.messages import commitment

__all__ = ["add_commands", "check_record", "fair_deal_seed", "verify_lines"]

Command = Callable[..., argparse.ArgumentParser]


class VerifyError(ValueError):
    """The revealed seed does not match what the table showed."""


def add_commands(command: Command) -> None:
    """Register ``serve``, ``tables`` and ``verify`` with the ``pinochle`` parser's ``command``."""
    sub = command("serve", _run_serve, "play in a browser: run a server for your club",
                  "Start the web server and print the address to open. Create a table in "
                  "the lobby, send the invite link to friends, put computer players in "
                  "empty seats. Tables are stored (SQLite in the user data directory by "
                  "default, or PostgreSQL with --db postgresql://...) and resume exactly "
                  "after a restart.\n\nexample: pinochle serve --port 8000")
    sub.add_argument("--host", default="127.0.0.1",
                     help="address to listen on (default: 127.0.0.1; 0.0.0.0 for the "
                          "local network)")
    sub.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    sub.add_argument("--db", metavar="URL",
                     help="database: a SQLite file path or sqlite:///PATH, or "
                          "postgresql://USER@HOST/DB (default: web.db in the user data "
                          "directory, or in $PINOCHLEKIT_DATA)")
    sub.add_argument("--max-tables", type=int, default=1000, metavar="N",
                     help="tables the server holds at most (default: 1000)")
    sub.add_argument("--create-limit", type=int, default=20, metavar="N",
                     help="tables one client address may create per --create-window "
                          "(default: 20)")
    sub.add_argument("--create-window", type=float, default=600.0, metavar="SECONDS",
                     help="the window of --create-limit (default: 600)")
    sub.add_argument("--waiting-expiry", type=float, default=86400.0, metavar="SECONDS",
                     help="a table still waiting for players this long after it was "
                          "created expires (default: 86400, a day)")
    sub.add_argument("--max-finished", type=int, default=50, metavar="N",
                     help="finished tables kept in memory; every table stays in the "
                          "database for its history (default: 50)")
    sub.add_argument("--sweep-interval", type=float, default=30.0, metavar="SECONDS",
                     help="seconds between sweeps for expired, removed and finished "
                          "tables (default: 30)")

    cluster = sub.add_argument_group("several processes (docs/web-cluster.md)")
    cluster.add_argument("--workers", type=int, default=1, metavar="N",
                         help="run N server processes on this address, sharing --db "
                              "postgresql://... and --redis (default: 1)")
    cluster.add_argument("--redis", metavar="URL",
                         help="join a cluster of processes (on this host or others) "
                              "through this Redis, e.g. redis://HOST:6379/0; needs --db "
                              "postgresql://...")
    cluster.add_argument("--lease-ttl", type=float, default=5.0, metavar="S",
                         help="seconds a table's owner may be silent before another "
                              "process takes the table over (default: 5)")
    cluster.add_argument("--listen-fd", type=int, help=argparse.SUPPRESS)  # a worker's socket

    _add_limits(sub)

    sub = command("tables", _run_tables, "list or remove a server's stored tables",
                  "For the operator of 'pinochle serve': list the tables stored in the "
                  "database (all, or one status, or only the old ones), or remove tables "
                  "with their seats, games and actions. A running server forgets a "
                  "removed table at its next sweep (--sweep-interval).\n\nexamples: "
                  "pinochle tables list --status waiting --older-than 3600\n"
                  "pinochle tables remove -- Xb3k9Q -aZ0pr (after --, an id may start with -)")
    actions = sub.add_subparsers(dest="action", required=True, metavar="{list,remove}")
    for name, summary in (("list", "list the stored tables, newest first"),
                          ("remove", "remove tables with their seats, games and actions")):
        part = actions.add_parser(name, help=summary, description=summary)
        if name == "remove":
            part.add_argument("ids", nargs="*", metavar="ID",
                              help="the tables to remove (after --, an id may start with -)")
        part.add_argument("--db", metavar="URL",
                          help="the server's database (default: as 'pinochle serve')")
        part.add_argument("--status", choices=("waiting", "playing", "over", "expired"),
                          help="only tables of this status (remove: every such table)")
        part.add_argument("--older-than", type=float, default=0.0, metavar="SECONDS",
                          help="only tables created at least this long ago")

    sub = command("verify", _run_verify, "check a hand's deal from its revealed seed",
                  "Recompute a hand's deal from the deal seed a table revealed after the "
                  "hand, print the hash that was shown before the hand, and the hands as "
                  "dealt (three-handed also the widow; two-handed the turned-up card and "
                  "the stock in drawing order; --deck double the four hands of 20 of the "
                  "80-card deck). With --commitment, check the hash too (exit status 1 if it "
                  "differs); with --record, check the hands against a game record too."
                  "\n\nexample: pinochle verify 3f2a...e9 --dealer 2 --commitment 9b1c...07"
                  "\n         pinochle verify 3f2a...e9 --dealer 2 --deck double")
    sub.add_argument("seed", metavar="DEAL_SEED", nargs="?",
                     help="the deal seed revealed after the hand (or give --server-seed)")
    sub.add_argument("--dealer", type=int, required=True, metavar="SEAT",
                     help="the dealer's seat of that hand (0 to players - 1)")
    sub.add_argument("--players", type=int, default=4, metavar="N",
                     help="players at the table: 4 (default), 3 (three-handed, with a widow) "
                          "or 2 (two-handed, with a stock)")
    sub.add_argument("--deck", choices=("single", "double"), default="single",
                     help="single (default) or double: the 80-card double deck "
                          "(docs/rules.md §6; four players)")
    sub.add_argument("--record", metavar="FILE",
                     help="a game record (pinochle demo --record, the table's history): "
                          "the hands it deals for that seed must be the ones printed")
    sub.add_argument("--commitment", metavar="HASH",
                     help="the hash the table showed before the hand")
    sub.add_argument("--server-seed", metavar="SEED",
                     help="the game's server seed, revealed when the game is over: the "
                          "deal seed is then computed from it, the --client-seed values, "
                          "--game and --hand (docs/web.md 'Fairness and privacy')")
    sub.add_argument("--client-seed", action="append", default=[], metavar="VALUE",
                     help="the value each seat's browser revealed, in seat order, once per "
                          "seat ('-' for a seat that gave none: a computer, or a browser that "
                          "did not reveal)")
    sub.add_argument("--client-commitment", action="append", default=[], metavar="HASH",
                     help="the commitment (SHA-256 of the value) each seat's browser sent "
                          "before any value was revealed, in seat order ('-': none); each "
                          "--client-seed must match its seat's commitment")
    sub.add_argument("--game", type=int, default=0, metavar="N",
                     help="with --server-seed: the game number at the table, from 0")
    sub.add_argument("--hand", type=int, default=0, metavar="N",
                     help="with --server-seed: the deal number in the game, from 0 "
                          "(redeals counted)")
    sub.add_argument("--server-commitment", metavar="HASH",
                     help="the hash of the server seed the table showed before the game")


def _add_limits(sub: argparse.ArgumentParser) -> None:
    """The options of docs/web.md "Security and limits" (defaults there and below)."""
    limits = sub.add_argument_group("security and limits (docs/web.md)")
    limits.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                        help="a host name clients use for this server, e.g. behind a proxy "
                             "(repeat for several); addresses, localhost and --host are "
                             "always allowed, any other Host or Origin is refused")
    limits.add_argument("--hello-timeout", type=float, default=5.0, metavar="S",
                        help="close a WebSocket that has not sent hello by then (default: 5)")
    limits.add_argument("--max-spectators", type=int, default=100, metavar="N",
                        help="spectators at one table (default: 100); seated players are "
                             "never refused")
    limits.add_argument("--max-sockets", type=int, default=5000, metavar="N",
                        help="spectators and sockets before hello, whole server "
                             "(default: 5000)")
    limits.add_argument("--max-per-address", type=int, default=20, metavar="N",
                        help="spectators and sockets before hello from one client address "
                             "(default: 20)")
    limits.add_argument("--max-target", type=int, default=10000, metavar="N",
                        help="the highest game target a new table may set (default: 10000)")
    limits.add_argument("--min-pace", type=float, default=0.0, metavar="S",
                        help="the least seconds from a computer's turn to its move, at "
                             "every table (default: 0: each table's pace)")
    limits.add_argument("--reveal-time", type=float, default=30.0, metavar="S",
                        help="the most seconds a deal waits for the browsers' commitments "
                             "(a third of it), then for their values; past it what is "
                             "missing counts as absent (default: 30)")
    limits.add_argument("--compute-threads", type=int, default=4, metavar="N",
                        help="threads for computer players (default: 4)")
    limits.add_argument("--compute-share", type=int, default=2, metavar="N",
                        help="of them, how many one client's tables use at once (default: 2)")
    limits.add_argument("--review-threads", type=int, default=1, metavar="N",
                        help="threads reviewing finished hands (docs/web.md \"Review\"; "
                             "default: 1)")
    limits.add_argument("--review-queue", type=int, default=8, metavar="N",
                        help="reviews waiting beyond those running before 'busy' "
                             "(default: 8)")
    limits.add_argument("--review-time", type=float, default=1.0, metavar="S",
                        help="expert's seconds per valuation in a review, the budget of "
                             "docs/review.md (default: 1.0; more is steadier and slower)")
    limits.add_argument("--max-body", type=int, default=65536, metavar="BYTES",
                        help="largest HTTP request body (default: 65536)")
    limits.add_argument("--max-header", type=int, default=16384, metavar="BYTES",
                        help="largest HTTP request head (default: 16384)")
    limits.add_argument("--header-timeout", type=float, default=10.0, metavar="S",
                        help="close a connection whose request head is not complete by "
                             "then (default: 10); also the limit for reading a body")
    limits.add_argument("--idle-timeout", type=float, default=5.0, metavar="S",
                        help="close a kept-alive HTTP connection idle that long (default: 5)")
    limits.add_argument("--max-http-connections", type=int, default=10000, metavar="N",
                        help="open connections (HTTP and WebSocket) at once; more get 503 "
                             "(default: 10000, and never more than the descriptor limit "
                             "allows)")


def _positive(args: argparse.Namespace) -> None:
    """Every count, size and time of ``pinochle serve`` in its range (one place)."""
    from pinochlekit.usage import UsageError

    for name in ("hello_timeout", "max_spectators", "max_sockets", "max_per_address",
                 "max_target", "compute_threads", "compute_share", "max_body", "max_header",
                 "header_timeout", "idle_timeout", "max_http_connections", "review_threads"):
        if not getattr(args, name) > 0:
            raise UsageError(f"--{name.replace('_', '-')} must be positive, not "
                             f"{getattr(args, name)}")
    if not 0 <= args.min_pace <= 60:
        raise UsageError(f"--min-pace must be from 0 to 60 seconds, not {args.min_pace}")
    if not 0.5 <= args.reveal_time <= 600:
        raise UsageError(f"--reveal-time must be from 0.5 to 600 seconds, not "
                         f"{args.reveal_time}")
    if args.review_queue < 0:
        raise UsageError(f"--review-queue must be 0 or more, not {args.review_queue}")
    if not 0 < args.review_time <= 60:  # review_hand's own bound (docs/review.md)
        raise UsageError(f"--review-time must be above 0 and at most 60 seconds, not "
                         f"{args.review_time}")
    for name in ("max_tables", "create_limit", "max_finished"):
        if getattr(args, name) < 1:
            raise UsageError(f"--{name.replace('_', '-')} must be at least 1")
    for name in ("create_window", "waiting_expiry", "sweep_interval"):
        if not getattr(args, name) > 0:
            raise UsageError(f"--{name.replace('_', '-')} must be more than 0 seconds")


def verify_lines(seed: str, dealer: int, shown: str | None, players: int = 4,
                 deck: str = "single") -> list[str]:
    """What ``pinochle verify`` prints; :class:`VerifyError` if the hash differs."""
    digest = commitment(seed)
    if shown is not None and shown.strip().lower() != digest:
        raise VerifyError(f"the deal seed does not match: its SHA-256 is {digest}, the table "
                          f"showed {shown.strip()}")
    lines = [f"commitment (SHA-256 of the deal seed): {digest}"]
    dealt = dealt_cards(seed, dealer, players, deck)
    lines += [f"seat {s}: {hand}" for s, hand in enumerate(dealt.hands)]
    if players == 3:
        lines.append(f"widow: {dealt.rest}")  # docs/rules.md §3
    elif players == 2:  # docs/rules.md §4: the turn-up, then the stock as drawn
        turn_up, _, stock = dealt.rest.partition(" ")
        lines += [f"turned up: {turn_up}", f"stock (drawn in this order): {stock}"]
    return lines


def check_record(path: str, seed: str, dealer: int, players: int, deck: str) -> list[str]:
    """The line that says the game record at ``path`` holds, at the deal of seed
    ``seed``, exactly the hands that seed deals (the record replayed by the engine up
    to that deal); :class:`VerifyError` if not, if no deal of the record has that
    seed, or if the record is of another game."""
    import json

    from pinochlekit.engine.errors import PinochleError
    from pinochlekit.engine.games import parse_game_action, replay_any
    from pinochlekit.engine.record import GameRecord
    from pinochlekit.engine.rules import Rules
    from pinochlekit.engine.views import Phase

    try:
        with open(path, encoding="utf-8") as file:
            record = GameRecord.from_dict(json.load(file))
        rules = Rules.from_string(record.rules)
        game = replay_any(GameRecord(record.rules, record.seed, record.dealer, (),
                                     record.deals))
        for action in record.actions:  # up to the first action of that deal
            if game.deal_seed == seed:
                break
            game.apply(parse_game_action(game.rules, action))
        else:
            if game.deal_seed == seed and game.phase is not Phase.AUCTION:
                raise VerifyError("the record ends inside that deal's first action")
    except OSError as error:
        raise VerifyError(f"cannot read {path!r}: {error.strerror or error}") from None
    except (PinochleError, ValueError) as error:
        raise VerifyError(f"{path!r} is not a game record this program replays: "
                          f"{error}") from None
    if rules.deck != deck or rules.players != players:
        raise VerifyError(f"the record is a game of {rules.players} players and the "
                          f"{rules.deck} deck: give --players {rules.players} --deck "
                          f"{rules.deck}")
    if game.deal_seed != seed:
        raise VerifyError(f"no deal of the record is dealt from the deal seed {seed}")
    if game.dealer != dealer:
        raise VerifyError(f"the record's hand {game.hand_number} is dealt by seat "
                          f"{game.dealer}, not --dealer {dealer}")
    held = [str(game.hand(s)) for s in range(players)]
    if held != list(dealt_cards(seed, dealer, players, deck).hands):
        raise VerifyError(f"the record's hand {game.hand_number} holds other cards than "
                          f"the deal seed deals")
    return [f"the record's hand {game.hand_number} holds exactly these hands"]


def fair_deal_seed(server_seed: str, client_seeds: list[str], game_no: int, hand: int,
                   players: int, shown: str | None = None,
                   commitments: list[str] | None = None) -> tuple[str, list[str]]:
    """The deal seed of hand ``hand`` of game ``game_no`` from the game's server seed
    and every seat's revealed value (``-`` or empty: none), and the lines that say how;
    :class:`VerifyError` if the server seed's hash is not ``shown``, a seat is
    missing, or (with ``commitments``, one per seat) a value is not the one its seat
    committed to."""
    if len(client_seeds) != players:
        raise VerifyError(f"give --client-seed once per seat ({players}, in seat order; "
                          f"'-' for a seat that gave none), not {len(client_seeds)} times")
    if commitments and len(commitments) != players:
        raise VerifyError(f"give --client-commitment once per seat ({players}, in seat "
                          f"order; '-' for none), not {len(commitments)} times")
    if game_no < 0 or hand < 0:
        raise VerifyError("--game and --hand count from 0")
    digest = server_commitment(server_seed)
    if shown is not None and shown.strip().lower() != digest:
        raise VerifyError(f"the server seed does not match: its SHA-256 is {digest}, the "
                          f"table showed {shown.strip()}")
    given = ["" if c.strip() in ("", "-") else c.strip().lower() for c in client_seeds]
    seed = deal_seed(game_seed(server_seed, given, game_no), hand)
    lines = [f"server seed commitment (SHA-256): {digest}"]
    if shown is not None:
        lines.append("the hash matches what the table showed before the game")
    for seat, (value, shown_hash) in enumerate(zip(given, commitments or [], strict=False)):
        committed = "" if shown_hash.strip() in ("", "-") else shown_hash.strip().lower()
        if value and not committed:
            raise VerifyError(f"seat {seat}'s value {value} has no --client-commitment: "
                              "a value counts only if it was committed to first")
        if value and client_commitment(value) != committed:
            raise VerifyError(f"seat {seat}'s value does not match its commitment: its "
                              f"SHA-256 is {client_commitment(value)}, the commitment "
                              f"{committed}")
        if value:
            lines.append(f"seat {seat}'s value matches its commitment {committed}")
        elif committed:
            lines.append(f"seat {seat} committed ({committed}) and did not reveal: "
                         "counted as absent")
    lines.append(f"deal seed of game {game_no}, hand {hand}: {seed}")
    return seed, lines


def _run_verify(args: argparse.Namespace) -> int:
    from pinochlekit.usage import UsageError

    if args.players not in (2, 3, 4):
        raise UsageError(f"--players must be 2, 3 or 4, not {args.players}")
    if args.deck == "double" and args.players != 4:
        raise UsageError(f"--deck double is played by 4 (docs/rules.md §6), not "
                         f"--players {args.players}")
    if not 0 <= args.dealer < args.players:
        raise UsageError(f"--dealer must be a seat from 0 to {args.players - 1}, not "
                         f"{args.dealer}")
    extra: list[str] = []
    if args.server_seed is None:
        if args.seed is None:
            raise UsageError("give the DEAL_SEED, or --server-seed with --client-seed")
        seed = args.seed.strip()
    else:
        try:
            seed, extra = fair_deal_seed(args.server_seed.strip(), args.client_seed,
                                         args.game, args.hand, args.players,
                                         args.server_commitment, args.client_commitment)
        except VerifyError as error:
            print(f"pinochle: error: {error}", file=sys.stderr)
            return 1
        if args.seed is not None and args.seed.strip().lower() != seed:
            print(f"pinochle: error: the deal seed {args.seed.strip()} is not the one the "
                  f"seeds give ({seed})", file=sys.stderr)
            return 1
    try:
        lines = verify_lines(seed, args.dealer, args.commitment, args.players, args.deck)
        if args.record is not None:
            lines += check_record(args.record, seed, args.dealer, args.players, args.deck)
    except VerifyError as error:
        print(f"pinochle: error: {error}", file=sys.stderr)
        return 1
    if args.commitment:
        lines.insert(1, "the hash matches what the table showed before the hand")
    lines[:0] = extra
    print("\n".join(lines))
    return 0


def _run_serve(args: argparse.Namespace) -> int:
    from pinochlekit.usage import UsageError

    try:
        import uvicorn

        from pinochlekit.web.guard import Guard, TimedH11Protocol, raise_descriptor_limit
        from pinochlekit.web.hub import default_db_url
        from pinochlekit.web.server import Limits, create_app
        from pinochlekit.web.storage import StoreError, TableStore
    except ImportError as error:
        raise UsageError(f"the server needs the web extra ({error.name} is missing): "
                         "pip install 'pinochlekit[web]'") from None
    if not 0 < args.port < 65536:
        raise UsageError(f"--port must be from 1 to 65535, not {args.port}")
    _positive(args)
    url = args.db or default_db_url()
    if args.workers < 1:
        raise UsageError(f"--workers must be at least 1, not {args.workers}")
    if not 0.5 <= args.lease_ttl <= 300:
        raise UsageError(f"--lease-ttl must be from 0.5 to 300 seconds, not {args.lease_ttl}")
    if (args.workers > 1 or args.redis) and not url.startswith(("postgresql://",
                                                                 "postgres://")):
        raise UsageError("several processes share one PostgreSQL: give --db "
                         "postgresql://USER@HOST/DB (docs/web-cluster.md)")
    if args.workers > 1 and not args.redis:
        raise UsageError("--workers N needs --redis URL, the Redis the processes share "
                         "(docs/web-cluster.md)")
    cluster = None
    if args.redis:
        try:
            import redis  # noqa: F401

            from pinochlekit.web.cluster.node import ClusterOptions
        except ImportError:
            raise UsageError("a cluster needs the cluster extra: "
                             "pip install 'pinochlekit[cluster]'") from None
        cluster = ClusterOptions(args.redis, lease_ttl=args.lease_ttl)
    try:
        TableStore.open(url).close()  # fail now, with one line, if the database is unusable
    except StoreError as error:
        raise UsageError(str(error)) from None
    limits = Limits(max_tables=args.max_tables, hello_timeout=args.hello_timeout,
                    max_connections=args.max_spectators, max_sockets=args.max_sockets,
                    max_per_address=args.max_per_address, max_target=args.max_target,
                    min_pace=args.min_pace, reveal_time=args.reveal_time,
                    compute_threads=args.compute_threads,
                    compute_share=args.compute_share, creates=args.create_limit,
                    create_window=args.create_window, waiting_expiry=args.waiting_expiry,
                    max_finished=args.max_finished, sweep_interval=args.sweep_interval,
                    review_threads=args.review_threads,
                    review_queue=args.review_queue, review_time=args.review_time)
    if args.workers > 1:
        from pinochlekit.web.cluster.supervisor import supervise

        TableStore.open(url).close()
        print(f"pinochle: {args.workers} processes on http://{args.host}:{args.port}/ "
              f"(database: {url}, Redis: {args.redis}); Ctrl-C stops", file=sys.stderr,
              flush=True)
        return supervise(sys.argv[1:], args.workers, args.host, args.port)
    app = create_app(url, limits, cluster)
    names = [args.host, *args.allowed_host]
    guarded = Guard(app, names, max_body=args.max_body, body_timeout=args.header_timeout,
                    max_header=args.max_header)
    # docs/web.md "Security and limits": idle and half-sent connections are closed,
    # and the server keeps descriptors for the connections it admits
    descriptors = raise_descriptor_limit()
    TimedH11Protocol.header_timeout = args.header_timeout
    TimedH11Protocol.max_header = args.max_header
    # idle connections past this are closed oldest first: descriptors stay for new ones
    TimedH11Protocol.max_waiting = max(16, descriptors - 128)
    host = f"[{args.host}]" if ":" in args.host else args.host
    if args.listen_fd is None:
        print(f"pinochle: serving on http://{host}:{args.port}/ (database: {url}); "
              "Ctrl-C stops", file=sys.stderr, flush=True)
    # No per-message compression: it cost more CPU than any other single step under load
    # (bench/web_load.py), and a state message is a few kilobytes.
    config = uvicorn.Config(guarded, host=args.host, port=args.port, ws_max_size=65536,
                            log_level="warning", ws_ping_interval=20, ws_ping_timeout=20,
                            ws_per_message_deflate=False, http=TimedH11Protocol,
                            h11_max_incomplete_event_size=args.max_header,
                            timeout_keep_alive=args.idle_timeout,
                            limit_concurrency=max(16, min(args.max_http_connections,
                                                          descriptors - 64)))
    if args.listen_fd is None:
        uvicorn.Server(config).run()
    else:  # a worker of --workers N: the supervisor's listening socket
        import socket

        uvicorn.Server(config).run(sockets=[socket.socket(fileno=args.listen_fd)])
    return 0


def _run_tables(args: argparse.Namespace) -> int:
    """``pinochle tables list|remove``: the operator's view of the stored tables."""
    import time

    from pinochlekit.usage import UsageError
    from pinochlekit.web.hub import default_db_url
    from pinochlekit.web.storage import StoreError, TableStore

    ids: list[str] = list(getattr(args, "ids", []))
    if args.action == "remove" and not ids and args.status is None:
        raise UsageError("remove: give table ids, or --status (with --older-than) to "
                         "remove every such table")
    try:
        store = TableStore.open(args.db or default_db_url())
    except StoreError as error:
        raise UsageError(str(error)) from None
    try:
        if args.action == "list":
            now = time.time()
            for row in store.operator_list(args.status, args.older_than):
                age = int(now - row["created"])
                print(f"{row['id']}\t{row['status']}\t{age} s old\t{row['people']} "
                      f"people\t{row['games']} games\t{row['title']}")
            return 0
        ids = ids or [r["id"] for r in store.operator_list(
            args.status, args.older_than, limit=1_000_000)]
        missing = 0
        for table_id in ids:
            if store.remove_table(table_id):
                print(f"removed {table_id}")
            else:
                print(f"pinochle: no table {table_id[:40]!r}", file=sys.stderr)
                missing += 1
        return 1 if missing else 0
    finally:
        store.close()
