"""Saved games: every action written to an embedded SQLite database as it happens.

A saved game is a game record (rules, seed, first dealer, actions) plus who
sits where and the table's settings, so resuming is replaying the record:
no computer player is asked again for a move it already made. Each action is
committed on its own, so a game survives the terminal being closed mid-trick.

The database lives in ``$PINOCHLEKIT_DATA`` if set, else in the platform's
user data directory (``$XDG_DATA_HOME/pinochlekit`` on Linux).

>>> import tempfile, pathlib
>>> store = GameStore(pathlib.Path(tempfile.mkdtemp()) / "games.sqlite3")
>>> game_id = store.create("pagat", 7, 0, ["you", "easy", "easy", "easy"], {"hints": True})
>>> store.append(game_id, 0, 1, "bid 250")
>>> store.load(game_id).actions
('bid 250',)
>>> store.close()
"""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pinochlekit.engine.errors import PinochleError, RecordError
from pinochlekit.engine.record import GameRecord
from pinochlekit.private import private_dir, private_sqlite

__all__ = ["DB_NAME", "GameStore", "SavedGame", "StoreError", "data_dir"]

#: The file name of the database inside the data directory.
DB_NAME = "games.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    rules TEXT NOT NULL,
    seed TEXT NOT NULL,
    dealer INTEGER NOT NULL,
    seats TEXT NOT NULL,
    settings TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    winner INTEGER,
    scores TEXT NOT NULL DEFAULT '[]',
    hands INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (game_id, n)
);
CREATE TABLE IF NOT EXISTS claims (
    game_id INTEGER NOT NULL REFERENCES games(id),
    hand INTEGER NOT NULL,
    PRIMARY KEY (game_id, hand)
);
"""


class StoreError(PinochleError):
    """The saved-games database cannot be opened, read or written; says which file."""


def data_dir() -> Path:
    """Where saved games live: ``$PINOCHLEKIT_DATA``, else the user data directory."""
    override = os.environ.get("PINOCHLEKIT_DATA")
    if override:
        return Path(override)
    import platformdirs  # installed with the tui extra

    return Path(platformdirs.user_data_dir("pinochlekit", appauthor=False))


@dataclass(frozen=True)
class SavedGame:
    """One saved game: its record, who sits where, its settings and how it stands."""

    id: int
    created: str
    updated: str
    record: GameRecord
    seats: tuple[str, ...]
    settings: dict[str, Any]
    finished: bool
    winner: int | None
    scores: tuple[int, ...]
    hands: int

    @property
    def actions(self) -> tuple[str, ...]:
        """The action texts saved so far."""
        return self.record.actions


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")


class GameStore:
    """The saved-games database (one SQLite file); every write is committed at once."""

    def __init__(self, path: Path | None = None) -> None:
        """Open (creating if needed) the database at ``path`` (default: in :func:`data_dir`)."""
        self.path = path or data_dir() / DB_NAME
        try:
            # owner only, whatever the umask: the seeds of games in progress
            private_dir(self.path.parent, narrow=path is None)
            private_sqlite(self.path)
            self._db = sqlite3.connect(self.path, timeout=10)
            self._db.executescript(_SCHEMA)
            private_sqlite(self.path)  # a journal left behind: 0600 too
        except (OSError, sqlite3.Error) as error:
            raise StoreError(f"cannot open the saved games {str(self.path)!r}: {error}") from None

    def close(self) -> None:
        """Close the database."""
        self._db.close()

    def _write(self, sql: str, args: tuple[Any, ...]) -> sqlite3.Cursor:
        try:
            with self._db:  # one transaction, committed now
                return self._db.execute(sql, args)
        except sqlite3.Error as error:
            raise StoreError(f"cannot save to {str(self.path)!r}: {error}") from None

    def _read(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        try:
            return self._db.execute(sql, args).fetchall()
        except sqlite3.Error as error:
            raise StoreError(f"cannot read {str(self.path)!r}: {error}") from None

    def create(self, rules: str, seed: int | str, dealer: int, seats: list[str],
               settings: dict[str, Any]) -> int:
        """Start saving a new game; its id."""
        now = _now()
        cursor = self._write(
            "INSERT INTO games (created, updated, rules, seed, dealer, seats, settings) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (now, now, rules, json.dumps(seed), dealer, json.dumps(seats), json.dumps(settings)))
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def append(self, game_id: int, n: int, seat: int, action: str) -> None:
        """Save action number ``n`` (counted from 0) of a game."""
        try:
            with self._db:  # the action and the game's last change, in one transaction
                self._db.execute("INSERT OR REPLACE INTO actions (game_id, n, seat, action) "
                                 "VALUES (?, ?, ?, ?)", (game_id, n, seat, action))
                self._db.execute("UPDATE games SET updated = ? WHERE id = ?", (_now(), game_id))
        except sqlite3.Error as error:
            raise StoreError(f"cannot save to {str(self.path)!r}: {error}") from None

    def truncate(self, game_id: int, n: int) -> None:
        """Forget actions ``n`` and later (an undo)."""
        self._write("DELETE FROM actions WHERE game_id = ? AND n >= ?", (game_id, n))

    def claim(self, game_id: int, hand: int) -> None:
        """Record that the person claimed in hand number ``hand`` (one claim per hand,
        kept across undo and resume: docs/terminal.md "Claim")."""
        self._write("INSERT OR IGNORE INTO claims (game_id, hand) VALUES (?, ?)",
                    (game_id, hand))

    def claims(self, game_id: int) -> set[int]:
        """The hand numbers of a game in which the person has claimed."""
        return {row[0] for row in self._read("SELECT hand FROM claims WHERE game_id = ?",
                                             (game_id,))}

    def update(self, game_id: int, *, scores: list[int], hands: int, winner: int | None,
               settings: dict[str, Any] | None = None) -> None:
        """Record how a game stands (after each hand, and when it is won)."""
        self._write("UPDATE games SET updated = ?, scores = ?, hands = ?, winner = ?, "
                    "finished = ? WHERE id = ?",
                    (_now(), json.dumps(scores), hands, winner, int(winner is not None),
                     game_id))
        if settings is not None:
            self._write("UPDATE games SET settings = ? WHERE id = ?",
                        (json.dumps(settings), game_id))

    def load(self, game_id: int) -> SavedGame:
        """One saved game; :class:`StoreError` if there is no such game."""
        rows = self._read("SELECT id, created, updated, rules, seed, dealer, seats, settings, "
                          "finished, winner, scores, hands FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise StoreError(f"no saved game {game_id}")
        actions = self._read("SELECT n, action FROM actions WHERE game_id = ? ORDER BY n",
                             (game_id,))
        row = rows[0]
        try:
            texts = [text for _, text in actions]
            if [n for n, _ in actions] != list(range(len(actions))):
                raise ValueError("the saved actions have gaps")
            record = GameRecord.from_dict({"format": "pinochlekit-record/1", "rules": row[3],
                                           "seed": json.loads(row[4]), "dealer": row[5],
                                           "actions": texts})
            seats = tuple(json.loads(row[6]))
            settings = json.loads(row[7])
            scores = json.loads(row[10])
            if not isinstance(settings, dict) or not all(isinstance(s, str) for s in seats) \
                    or not 2 <= len(seats) <= 4:  # the table seats two, three or four
                raise ValueError("bad seats or settings")
            if not isinstance(scores, list) or not all(
                    isinstance(s, int) and not isinstance(s, bool) for s in scores):
                raise ValueError(f"bad scores {row[10]}")
        except (ValueError, TypeError, RecordError) as error:
            raise StoreError(f"saved game {game_id} is damaged: {error}") from None
        return SavedGame(row[0], row[1], row[2], record, seats, settings, bool(row[8]),
                         row[9], tuple(scores), row[11])

    def latest(self, *, finished: bool = False) -> int | None:
        """The id of the most recently played unfinished (or finished) game."""
        rows = self._read("SELECT id FROM games WHERE finished = ? ORDER BY updated DESC, "
                          "id DESC LIMIT 1", (int(finished),))
        return rows[0][0] if rows else None

    def game_ids(self, *, finished: bool | None = True) -> list[int]:
        """The ids of saved games, newest first (only finished ones by default;
        ``None``: all), without reading the games (:meth:`load` reads each)."""
        if finished is None:
            rows = self._read("SELECT id FROM games ORDER BY id DESC")
        else:
            rows = self._read("SELECT id FROM games WHERE finished = ? ORDER BY id DESC",
                              (int(finished),))
        return [game_id for (game_id,) in rows]

    def games(self, *, finished: bool | None = True) -> list[SavedGame]:
        """Saved games, newest first (only finished ones by default; ``None``: all)."""
        return [self.load(game_id) for game_id in self.game_ids(finished=finished)]
