"""A spectator of a real ``pinochle serve`` cannot tell a forced computer move from a
chosen one by when it arrives (docs/web.md "Security and limits").

Counted, not timed: the test compares the arrival delays of forced and chosen card
plays with each other (the share of pairs in which the chosen one came later),
never with a number of seconds, so a slow or loaded machine moves both alike. Sent
as soon as decided, a forced play (a few milliseconds) came before nearly every
chosen one (an expert thinks about 0.4 s); the server's rule (``web/timing.py``)
makes the share about a half.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from web_helpers import Client, Message, join, new_table, serve, stored_table

from pinochlekit.engine.games import new_any_game, parse_game_action
from pinochlekit.web.process import ServerProcess


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "timing")


def _arrivals(watcher: Client, deadline: float, gaps: dict[int, float],
              hands: int) -> None:
    """Note in ``gaps`` the delay after the previous move at which each move made by
    a computer or a stand-in reached the watcher, by ply, until ``hands`` hands
    are over."""
    last: tuple[int, float] | None = None
    while time.monotonic() < deadline:
        message: Message = watcher.recv(max(0.1, deadline - time.monotonic()))
        now = time.monotonic()
        if message["type"] != "state":
            continue
        if len(watcher.hands) >= hands:
            return
        ply = message["ply"]
        if last is not None and ply == last[0] + 1 \
                and message["last"]["actor"] in ("computer", "standin"):
            gaps[ply - 1] = now - last[1]  # the move at index ply - 1 of the record
        if last is None or ply != last[0]:
            last = (ply, now)
    raise AssertionError(f"{hands} hands did not end in time ({len(gaps)} moves)")


def _card_plays(server: ServerProcess, table: str,
                gaps: dict[int, float]) -> tuple[list[float], list[float]]:
    """The delays of the forced and of the chosen card plays among ``gaps``, told
    apart by replaying the game the server stored (a forced play had one legal
    action)."""
    assert server.db is not None
    record = stored_table(server.db, table).games[0]
    game = new_any_game(record.rules, seed=record.seed, dealer=record.dealer)
    forced: list[float] = []
    chosen: list[float] = []
    for ply, action in enumerate(record.actions):
        playing = str(game.view(None).phase) == "play"
        alone = len(game.legal_actions()) == 1
        game.apply(parse_game_action(game.rules, action))
        if playing and ply in gaps:
            (forced if alone else chosen).append(gaps[ply])
    return forced, chosen


def _later(chosen: list[float], forced: list[float]) -> float:
    """The share of (chosen, forced) pairs in which the chosen move came later (ties
    count a half): 0.5 says nothing, 1.0 tells them apart every time."""
    wins = sum((c > f) + 0.5 * (c == f) for c in chosen for f in forced)
    return wins / (len(chosen) * len(forced))


def test_forced_and_chosen_card_plays_arrive_alike(server: ServerProcess) -> None:
    # seat 0 is a person who is away: its stand-in plays too (grace 0); the pace is
    # shorter than an expert's thinking, so the thinking decides the delays
    table = new_table(server, "pagat", ["open", "expert", "expert", "expert"],
                      grace=0, standin="expert", pace=0.05)
    join(server, table, 0, "Ann")
    watcher = Client(server, table, strict=False)
    gaps: dict[int, float] = {}
    deadline = time.monotonic() + 900
    try:
        # a hand can end without a card played (thrown in, or not on the board):
        # the watcher stays for up to four hands until enough plays are seen
        for hands in range(1, 5):
            _arrivals(watcher, deadline, gaps, hands)
            forced, chosen = _card_plays(server, table, gaps)
            if len(forced) >= 4 and len(chosen) >= 20:
                break
    finally:
        watcher.close()
    assert len(forced) >= 4 and len(chosen) >= 20, (len(forced), len(chosen))
    share = _later(chosen, forced)
    assert share < 0.8, (share, sorted(forced), sorted(chosen))
