"""The external-program protocol on the double deck (docs/protocol.md): a small program
(``tests/double_protocol_bot.py``) plays whole double-deck hands, in process through
:class:`ExternalPlayer` and in a ``pinochle match`` run for real."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from test_cli import ok

from pinochlekit.engine.double.game import DoubleDeckGame
from pinochlekit.players.easy import EasyPlayer
from pinochlekit.players.external import ExternalPlayer

BOT = Path(__file__).with_name("double_protocol_bot.py")


def command(*extra: str) -> str:
    return shlex.join([sys.executable, str(BOT), *extra])


def test_a_whole_hand_through_the_protocol(tmp_path: Path) -> None:
    """Seats 1 and 3 are the program; the hand ends with a result; the messages carry
    the 20-card hand with its copies, the meld and the double deck's actions."""
    log = tmp_path / "log.txt"
    game = DoubleDeckGame.new("doubledeck", seed=3)
    players: list[EasyPlayer | ExternalPlayer] = [
        ExternalPlayer(command(str(log)), seed=s) if s % 2 else EasyPlayer(s) for s in range(4)]
    try:
        while not game.results:
            seat = game.to_act
            assert seat is not None
            game.apply(players[seat].choose(game.view(seat)), seat)
        for player in players:
            if isinstance(player, ExternalPlayer):
                player.observe(game.results[0])
    finally:
        for player in players:
            player.close()
    lines = log.read_text(encoding="utf-8").splitlines()
    sent = [json.loads(line[2:]) for line in lines if line.startswith("> ")]
    answers = [json.loads(line[2:])["action"] for line in lines if line.startswith("< ")]
    assert sent[0]["type"] == "hello" and sent[0]["rules"] == "doubledeck"
    views = [m["view"] for m in sent if m["type"] == "act"]
    first = views[0]["hand"].split()
    assert len(first) == 20 and len(set(first)) < 20  # copies of a card, each written out
    assert any(v["melds"] for v in views)  # the meld of §6 is on the table in play
    # two seats (each its own process, one log) play one card in each of twenty tricks
    assert sum(a.startswith("play ") for a in answers) == 40
    results = [m for m in sent if m["type"] == "result"]
    assert len(results) == 2 and results[0]["hand"]["number"] == 1  # one for each seat
    assert [m["type"] for m in sent].count("bye") == 2
    assert game.results[0].declarer is not None


def test_match_with_an_external_program() -> None:
    data = json.loads("\n".join(ok("match", "cmd:" + command(), "easy", "--rules", "doubledeck",
                                   "--deals", "1", "--seed", "2", "--json", "--quiet")))
    assert data["deal_pairs"] == 1
    assert data["sides"]["A"]["declared"] + data["sides"]["B"]["declared"] == 2
