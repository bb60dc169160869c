"""A match's finished pairs kept in a folder, so an interrupted match goes on where it
stopped (``pinochle match ... --resume DIR``).

The folder holds ``match.json`` (the players, rules, seed, timeout and the numbers of
deal and game pairs: a resume with other arguments is refused, it would mix two
matches) and one ``pairs-KIND-START-STOP.json`` per finished unit of work, written
to a temporary name and renamed, so a file is there whole or not at all. A pair is
a pure function of the match settings and its index (:mod:`pinochlekit.match.duplicate`),
so the pairs played before and after an interruption are the pairs one run plays.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pinochlekit.engine.views import Outcome
from pinochlekit.match.duplicate import (
    DealPair,
    GamePair,
    HandOutcome,
    MatchConfig,
    MatchError,
    Work,
)

__all__ = ["ResumeFolder"]

_FORMAT = "pinochlekit-match-resume/1"


def _hand(h: HandOutcome) -> dict[str, Any]:
    return {"outcome": h.outcome.value, "declarer": h.declarer_side, "contract": h.contract,
            "A": h.a_score, "B": h.b_score, "a_seats": h.a_seats, "b_seats": h.b_seats}


def _pair_dict(pair: DealPair | GamePair) -> dict[str, Any]:
    if isinstance(pair, DealPair):
        return {"index": pair.index, "seed": pair.seed, "dealer": pair.dealer,
                "hands": [_hand(h) for h in pair.hands]}
    return {"index": pair.index, "seed": pair.seed, "dealer": pair.dealer,
            "winners": list(pair.winners), "hands": list(pair.hands),
            "scores": [list(s) for s in pair.scores]}


def _pair_from(kind: str, data: dict[str, Any]) -> DealPair | GamePair:
    if kind == "deal":
        hands = tuple(HandOutcome(Outcome(h["outcome"]), h["declarer"], int(h["contract"]),
                                  int(h["A"]), int(h["B"]), int(h["a_seats"]),
                                  int(h["b_seats"])) for h in data["hands"])
        return DealPair(int(data["index"]), str(data["seed"]), int(data["dealer"]), hands)
    return GamePair(int(data["index"]), str(data["seed"]), int(data["dealer"]),
                    tuple(data["winners"]), tuple(int(n) for n in data["hands"]),
                    tuple((int(a), int(b)) for a, b in data["scores"]))


class ResumeFolder:
    """The finished pairs of one match in ``path`` (created if missing)."""

    def __init__(self, path: str | Path, config: MatchConfig, deals: int, games: int) -> None:
        self.path = Path(path)
        self.settings = {"format": _FORMAT, "a": config.a, "b": config.b,
                         "rules": config.rules, "seed": config.seed,
                         "timeout": config.timeout, "deals": deals, "games": games}
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            settings = self.path / "match.json"
            if settings.exists():
                saved = json.loads(settings.read_text(encoding="utf-8"))
                if saved != self.settings:
                    raise MatchError(f"--resume {self.path}: it holds another match "
                                     f"({_describe(saved)}), not {_describe(self.settings)}; "
                                     f"choose another folder")
            else:
                self._write(settings, self.settings)
        except OSError as error:
            raise MatchError(f"--resume {self.path}: {error.strerror or error}") from None
        except (ValueError, TypeError) as error:
            raise MatchError(f"--resume {self.path}: match.json is not a match's "
                             f"settings ({error})") from None

    @staticmethod
    def _write(path: Path, data: dict[str, Any]) -> None:
        part = path.with_name(path.name + ".part")
        part.write_text(json.dumps(data), encoding="utf-8")
        os.replace(part, path)

    def finished(self) -> tuple[dict[str, dict[int, DealPair | GamePair]], Work]:
        """The pairs found, by kind and index, and the work they took. A file that
        cannot be read is refused with its name (nothing is played over it)."""
        found: dict[str, dict[int, DealPair | GamePair]] = {"deal": {}, "game": {}}
        work = Work()
        for file in sorted(self.path.glob("pairs-*.json")):
            try:
                data = json.loads(file.read_text(encoding="utf-8"))
                kind = data["kind"]
                for item in data["pairs"]:
                    pair = _pair_from(kind, item)
                    found[kind][pair.index] = pair
                part = Work({k: int(v) for k, v in data["work"]["decisions"].items()},
                            {k: float(v) for k, v in data["work"]["seconds"].items()})
                work.add(part)
            except (OSError, ValueError, KeyError, TypeError) as error:
                raise MatchError(f"--resume {self.path}: {file.name} cannot be read "
                                 f"({error}); remove it to play its pairs again") from None
        return found, work

    def save(self, kind: str, pairs: Sequence[DealPair | GamePair], work: Work) -> None:
        """Keep one finished unit of work."""
        if not pairs:
            return
        first, last = pairs[0].index, pairs[-1].index
        self._write(self.path / f"pairs-{kind}-{first}-{last + 1}.json",
                    {"kind": kind, "pairs": [_pair_dict(p) for p in pairs],
                     "work": {"decisions": work.decisions, "seconds": work.seconds}})


def _describe(settings: dict[str, Any]) -> str:
    return (f"{settings.get('a')} vs {settings.get('b')} under {settings.get('rules')}, "
            f"seed {settings.get('seed')}, {settings.get('deals')} deal pairs, "
            f"{settings.get('games')} game pairs")
