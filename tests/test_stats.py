"""A person's statistics (pinochlekit.review.stats, ``pinochle stats``) over real
SQLite files: the terminal's saved games (GameStore) and the web's tables
(TableStore, by seat name); contracts from the games' own results, points lost from
the reviews, cached so a second run reviews nothing again."""

from __future__ import annotations

import json
import secrets
import subprocess
import sys
from pathlib import Path

from pinochlekit import Game, Phase
from pinochlekit.players import make_player
from pinochlekit.review.stats import PlayedGame, ReviewCache, collect, summarize
from pinochlekit.tui.store import GameStore
from pinochlekit.web.storage import TableStore

TIME, REPEATS = 0.05, 2


def played(seed: int, hands: int, bidder: str = "standard") -> Game:
    """``hands`` hands of a seeded game, seat 0 played by ``bidder``."""
    game = Game.new("pagat", seed=seed, dealer=3)
    players = [make_player(bidder, seed=seed)] + \
        [make_player("standard", seed=s) for s in (1, 2, 3)]
    while len(game.results) < hands and game.phase is not Phase.GAME_OVER:
        seat = game.to_act
        assert seat is not None
        game.apply(players[seat].choose(game.view(seat)))
    return game


def save_terminal(path: Path, game: Game, levels: list[str]) -> None:
    store = GameStore(path)
    game_id = store.create("pagat", game.seed, game.first_dealer, ["you", *levels], {})
    for n, action in enumerate(game.record.actions):
        store.append(game_id, n, 0, action)
    store.close()


def save_web(path: Path | str, table_id: str, game: Game, name: str, seat: int) -> None:
    store = TableStore.open(str(path))
    seats = ["easy"] * 4
    seats[seat] = "open"
    store.create_table(table_id, "t", {}, seats)
    store.claim_seat(table_id, seat, name, "0" * 64)
    store.add_game(table_id, 0, "pagat", str(game.seed), game.first_dealer, "playing")
    for ply, action in enumerate(game.record.actions):
        store.add_action(table_id, 0, ply, 0, action, "person")
    store.close()


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pinochlekit", "stats", *args],
                          capture_output=True, text=True, timeout=600, check=False)


def test_stats_over_terminal_and_web_games_cached(tmp_path: Path) -> None:
    terminal, web, cache = tmp_path / "games.sqlite3", tmp_path / "web.db", tmp_path / "c.json"
    first, second = played(4, 2), played(9, 1)
    save_terminal(terminal, first, ["standard"] * 3)
    save_terminal(terminal, second, ["easy"] * 3)
    web_game = played(5, 1)
    save_web(web, "tab1", web_game, "Ann", 0)
    save_web(web, "tab2", played(6, 1), "Bob", 0)  # somebody else's: left out
    done = run("--store", str(terminal), "--db", str(web), "--name", "Ann", "--cache",
               str(cache), "--time", str(TIME), "--repeats", str(REPEATS), "--json")
    assert done.returncode == 0, done.stderr
    stats = json.loads(done.stdout)
    assert stats["format"] == "pinochlekit-stats/1" and stats["name"] == "Ann"
    total = stats["total"]
    assert total["hands"] == 4  # 2 + 1 terminal hands, 1 web hand of Ann's
    results = [r for g in (first, second, web_game) for r in g.results]
    assert total["bid"] == sum(r.declarer == 0 for r in results)
    assert total["made"] + total["set"] <= total["bid"]
    decisions = sum(total["by_phase"][p]["decisions"] for p in ("auction", "passing", "play"))
    assert decisions > 0 and total["by_phase"]["play"]["decisions"] > 0
    assert set(stats["by_opponents"]) == {"standard", "easy"}
    # the second terminal game and the web table were against easy players
    assert stats["by_opponents"]["easy"]["hands"] == 2
    assert stats["by_opponents"]["standard"]["hands"] == 2
    assert [g["source"] for g in stats["trend"]].count("terminal 1") == 1
    assert len(stats["trend"]) == 3
    # every hand is cached: a second run gives the same figures without reviewing
    cached = json.loads(cache.read_text())
    assert len(cached) == 4
    again = run("--store", str(terminal), "--db", str(web), "--name", "Ann", "--cache",
                str(cache), "--time", str(TIME), "--repeats", str(REPEATS), "--json")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["total"] == total
    text = run("--store", str(terminal), "--no-terminal", "--db", str(web), "--name", "Ann",
               "--cache", str(cache), "--time", str(TIME), "--repeats", str(REPEATS))
    assert text.returncode == 0 and "Statistics of Ann" in text.stdout
    assert "1 hands" in text.stdout and "web tab1 game 1" in text.stdout


def test_the_cache_is_used_and_keyed_by_budget(tmp_path: Path) -> None:
    game = played(4, 1)
    games = [PlayedGame("terminal 1", "2026-12-01 10:00", game.record, 0, "standard")]
    cache = ReviewCache(tmp_path / "c.json")
    hands = collect(games, time=TIME, repeats=REPEATS, cache=cache)
    cache.save()
    # a cache entry changed by hand is what a second run reports: nothing is reviewed
    key = next(iter(cache.data))
    cache.data[key]["marks"] = 99
    again = collect(games, time=TIME, repeats=REPEATS, cache=cache)
    assert again[0].marks == 99 and again[0].lost == hands[0].lost
    # another budget is another review
    other = collect(games, time=TIME, repeats=3, cache=cache)
    assert other[0].marks != 99 and len(cache.data) == 2
    summary = summarize("you", hands, time=TIME, repeats=REPEATS)
    assert summary["total"]["hands"] == 1


def test_bad_options_are_refused(tmp_path: Path) -> None:
    for args in (["--repeats", "1"], ["--time", "0"], ["--name", " "]):
        done = run("--store", str(tmp_path / "g.sqlite3"), *args)
        assert done.returncode != 0 and "error" in done.stderr, (args, done.stderr)


def test_web_games_by_name_on_postgresql() -> None:
    """The same query on PostgreSQL (the web's other database)."""
    from web_helpers import pg_url

    from pinochlekit.web.review import played_games

    url = pg_url()
    game = played(5, 1)
    table_id = "st" + secrets.token_hex(6)
    save_web(url, table_id, game, "Pat Stats", 0)
    store = TableStore.open(url)
    try:
        ids = store.tables_of("Pat Stats")
        assert table_id in ids
        rows = [row for row in (store.load_table(i) for i in ids) if row]
    finally:
        store.remove_table(table_id)
        store.close()
    games = [g for g in played_games(rows, "Pat Stats") if table_id in g.source]
    assert len(games) == 1 and games[0].record.actions == game.record.actions


def test_a_damaged_saved_game_is_left_out(tmp_path: Path) -> None:
    """One saved game damaged outside pinochlekit (its scores no list) is left out of
    the statistics, as a game whose rules no longer read is, instead of ending them."""
    import sqlite3

    terminal = tmp_path / "games.sqlite3"
    save_terminal(terminal, played(4, 1), ["standard"] * 3)
    save_terminal(terminal, played(9, 1), ["easy"] * 3)
    db = sqlite3.connect(terminal)
    with db:
        db.execute("UPDATE games SET scores = 'null' WHERE id = 2")
    db.close()
    done = run("--store", str(terminal), "--cache", str(tmp_path / "c.json"),
               "--time", str(TIME), "--repeats", str(REPEATS), "--json")
    assert done.returncode == 0, done.stderr
    stats = json.loads(done.stdout)
    assert stats["total"]["hands"] == 1
    assert [g["source"] for g in stats["trend"]] == ["terminal 1"]
