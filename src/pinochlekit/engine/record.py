"""Game records: rules, seed, first dealer, fixed deals and the actions, as JSON.

A record is all it takes to rebuild a game: the deals come from the seed (or
the fixed deals) and every action is checked again on replay.

>>> from pinochlekit import Game
>>> game = Game.new("pagat", seed=1)
>>> game.apply(game.legal_actions()[0])
>>> text = game.record.to_json()
>>> GameRecord.from_json(text).replay().record == game.record
True
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pinochlekit.engine.errors import RecordError

if TYPE_CHECKING:
    from pinochlekit.engine.double.game import DoubleDeckGame
    from pinochlekit.engine.game import Game
    from pinochlekit.engine.two.game import TwoHandedGame

__all__ = ["FORMAT", "GameRecord", "install_replay"]

#: The ``format`` field of every record this version writes.
FORMAT = "pinochlekit-record/1"


@dataclass(frozen=True)
class GameRecord:
    """Rules text, seed, first dealer, action texts and optional fixed deals."""

    rules: str
    seed: int | str
    dealer: int
    actions: tuple[str, ...]
    deals: tuple[tuple[str, ...], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        out: dict[str, Any] = {"format": FORMAT, "rules": self.rules, "seed": self.seed,
                               "dealer": self.dealer, "actions": list(self.actions)}
        if self.deals:
            out["deals"] = [list(d) for d in self.deals]
        return out

    def to_json(self, indent: int | None = None) -> str:
        """The record as JSON text."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """Read a record dict; :class:`RecordError` says what is wrong."""
        if not isinstance(data, dict):
            raise RecordError("a game record is a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f"unknown record format {data.get('format')!r}: expected {FORMAT!r}")
        try:
            rules, seed, dealer = data["rules"], data["seed"], data["dealer"]
            actions, deals = data["actions"], data.get("deals", [])
        except KeyError as missing:
            raise RecordError(f"record lacks the field {missing}") from None
        if not isinstance(rules, str) or not isinstance(seed, int | str) or not isinstance(
                dealer, int) or isinstance(seed, bool) or isinstance(dealer, bool):
            raise RecordError("record fields: rules is text, seed a number or text, dealer a "
                              "number")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise RecordError("record field actions must be a list of action texts")
        if not isinstance(deals, list) or not all(
                isinstance(d, list) and all(isinstance(h, str) for h in d) for d in deals):
            raise RecordError("record field deals must be a list of lists of hands")
        return cls(rules, seed, dealer, tuple(actions), tuple(tuple(d) for d in deals))

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """Read a record from JSON text."""
        try:
            data = json.loads(text)
        except RecursionError:
            raise RecordError("not a game record: JSON nested too deeply") from None
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise RecordError(f"not JSON: {error}") from None
        except ValueError:  # Python's limit on the digits of an integer
            raise RecordError("not JSON: a number too long to read") from None
        return cls.from_dict(data)

    def replay(self, upto: int | None = None) -> Game | TwoHandedGame | DoubleDeckGame:
        """Rebuild the game, checking each action; ``upto`` stops after that many. A
        two-handed record gives a :class:`~pinochlekit.engine.two.game.TwoHandedGame`, a
        double-deck one a :class:`~pinochlekit.engine.double.game.DoubleDeckGame`, any
        other a :class:`~pinochlekit.engine.game.Game` (the same as
        :func:`pinochlekit.engine.games.replay`)."""
        if _replay is None:  # pragma: no cover - the package imports the games first
            raise RecordError("no game is loaded to replay a record: import pinochlekit")
        return _replay(self, upto)


#: Rebuilds a game from its record. The games build records, so this module, below them,
#: does not import them: :mod:`pinochlekit.engine.games` installs its ``replay`` here
#: as it loads (with :func:`install_replay`), and ``import pinochlekit`` loads it.
_replay: Callable[[GameRecord, int | None], Game | TwoHandedGame | DoubleDeckGame] | None = None


def install_replay(
        replay: Callable[[GameRecord, int | None], Game | TwoHandedGame | DoubleDeckGame],
) -> None:
    """Make ``replay`` the function :meth:`GameRecord.replay` calls (done by
    :mod:`pinochlekit.engine.games`)."""
    global _replay
    _replay = replay
