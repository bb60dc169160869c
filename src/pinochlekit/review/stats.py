"""A person's statistics over saved games (docs/review.md "Statistics").

The callers gather the games (:class:`PlayedGame`: a record, the person's seat, when,
and who the opponents were: the terminal's saved games, the web's tables by seat
name); :func:`collect` goes through every finished hand of them: the contract (bid
by the person, made or set) from the game's own result, and the points lost per
decision by phase (auction, passing, play) from :func:`~pinochlekit.review.hand.review_hand`
at the given budget. A review takes seconds, so each hand's summary is kept in a
:class:`ReviewCache` (a JSON file) keyed by the hand's actions, seat and budget: a
second run reviews only the hands not seen before. :func:`summarize` gives the
totals, the trend over time (game by game) and the figures by opponent level.
"""

from __future__ import annotations

import hashlib
import json
import os
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pinochlekit.engine.games import parse_game_action, replay
from pinochlekit.engine.record import GameRecord
from pinochlekit.engine.views import Outcome
from pinochlekit.review.hand import DecisionReview, review_hand

__all__ = ["PHASES", "HandStat", "PlayedGame", "ReviewCache", "collect", "stats_text",
           "summarize"]

#: The phases the points lost are counted by.
PHASES = ("auction", "passing", "play")
_MADE = frozenset({Outcome.MADE, Outcome.MOON})
_SET = frozenset({Outcome.SET, Outcome.THROWN_IN, Outcome.NOT_ON_BOARD, Outcome.MOON_FAILED})


@dataclass(frozen=True)
class PlayedGame:
    """One game of the person: where it was played (``source``, e.g. "terminal 12"),
    when (sortable text, UTC), its record, the person's seat and the opponents' level."""

    source: str
    when: str
    record: GameRecord
    seat: int
    opponents: str


@dataclass(frozen=True)
class HandStat:
    """One finished hand of the person: the contract and the review's figures."""

    source: str
    when: str
    opponents: str
    hand: int
    declared: bool
    made: bool
    set: bool
    #: Points lost, and decisions valued, by phase (:data:`PHASES`).
    lost: dict[str, float]
    decisions: dict[str, int]
    marks: int


def _phase(decision: DecisionReview) -> str:
    if decision.phase == "auction":
        return "auction"
    if decision.phase in ("give", "return", "discard"):
        return "passing"
    return "play"


class ReviewCache:
    """Hand summaries by key, kept in a JSON file (written by :meth:`save`); a missing
    or unreadable file starts empty."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.data: dict[str, dict[str, Any]] = {}
        self.changed = False
        if path is not None and path.exists():
            try:
                loaded = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                loaded = {}
            if isinstance(loaded, dict):
                self.data = {k: v for k, v in loaded.items() if isinstance(v, dict)}

    def get(self, key: str) -> dict[str, Any] | None:
        """A cached summary."""
        return self.data.get(key)

    def put(self, key: str, value: dict[str, Any]) -> None:
        """Keep a summary (until :meth:`save` writes the file)."""
        self.data[key] = value
        self.changed = True

    def save(self) -> None:
        """Write the file (atomically, owner-only) if anything was added."""
        if self.path is None or not self.changed:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_name(self.path.name + ".tmp")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(self.data, out)
        os.replace(temporary, self.path)
        self.changed = False


def _hand_ends(record: GameRecord) -> tuple[list[int], Any]:
    """The number of actions at the end of each finished hand, and the replayed game."""
    game = replay(GameRecord(record.rules, record.seed, record.dealer, (), record.deals))
    ends: list[int] = []
    for ply, text in enumerate(record.actions):
        before = len(game.results)
        game.apply(parse_game_action(game.rules, text))
        if len(game.results) > before:
            ends.append(ply + 1)
    return ends, game


def _key(record: GameRecord, end: int, hand: int, seat: int, time: float,
         repeats: int) -> str:
    prefix = GameRecord(record.rules, record.seed, record.dealer, record.actions[:end],
                        record.deals)
    digest = hashlib.sha256(prefix.to_json().encode()).hexdigest()
    return f"{digest}/{hand}/{seat}/{time}/{repeats}"


def collect(games: Sequence[PlayedGame], *, time: float = 1.0, repeats: int = 3,
            cache: ReviewCache | None = None,
            progress: Callable[[int, int], None] | None = None) -> list[HandStat]:
    """Every finished hand of ``games``, reviewed from the person's seat (cached);
    ``progress(done, total)`` after each hand."""
    cache = cache or ReviewCache(None)
    work: list[tuple[PlayedGame, int, int, Any]] = []
    for played in games:
        ends, game = _hand_ends(played.record)
        for hand, end in enumerate(ends, 1):
            work.append((played, hand, end, game.results[hand - 1]))
    out: list[HandStat] = []
    for done, (played, hand, end, result) in enumerate(work, 1):
        key = _key(played.record, end, hand, played.seat, time, repeats)
        summary = cache.get(key)
        if summary is None:
            review = review_hand(played.record, hand, played.seat, time=time,
                                 repeats=repeats, seed=0, double_dummy=0)
            lost = dict.fromkeys(PHASES, 0.0)
            counted = dict.fromkeys(PHASES, 0)
            for decision in review.decisions:
                lost[_phase(decision)] += max(0.0, decision.loss) * review.scale
                counted[_phase(decision)] += 1
            summary = {"lost": lost, "decisions": counted,
                       "marks": sum(1 for d in review.decisions if d.mark)}
            cache.put(key, summary)
        declared = result.declarer == played.seat
        out.append(HandStat(played.source, played.when, played.opponents, hand, declared,
                            declared and result.outcome in _MADE,
                            declared and result.outcome in _SET,
                            {p: float(summary["lost"].get(p, 0.0)) for p in PHASES},
                            {p: int(summary["decisions"].get(p, 0)) for p in PHASES},
                            int(summary["marks"])))
        if progress is not None:
            progress(done, len(work))
    return out


def _per_decision(hands: Sequence[HandStat], phase: str | None = None) -> float | None:
    phases = PHASES if phase is None else (phase,)
    lost = sum(h.lost[p] for h in hands for p in phases)
    count = sum(h.decisions[p] for h in hands for p in phases)
    return round(lost / count, 2) if count else None


def _block(hands: Sequence[HandStat]) -> dict[str, Any]:
    bid = sum(h.declared for h in hands)
    return {"hands": len(hands), "bid": bid, "made": sum(h.made for h in hands),
            "set": sum(h.set for h in hands), "marks": sum(h.marks for h in hands),
            "lost_per_decision": _per_decision(hands),
            "by_phase": {p: {"lost_per_decision": _per_decision(hands, p),
                             "decisions": sum(h.decisions[p] for h in hands)}
                         for p in PHASES}}


def summarize(name: str, hands: Sequence[HandStat], *, time: float,
              repeats: int) -> dict[str, Any]:
    """The statistics as data (``pinochle stats --json``, the web's stats page):
    totals, the trend game by game (oldest first) and the figures by opponents."""
    games: dict[tuple[str, str], list[HandStat]] = {}
    for h in hands:
        games.setdefault((h.when, h.source), []).append(h)
    trend = [{"when": when, "source": source, "opponents": group[0].opponents,
              **_block(group)} for (when, source), group in sorted(games.items())]
    levels: dict[str, list[HandStat]] = {}
    for h in hands:
        levels.setdefault(h.opponents, []).append(h)
    per_game = [g["lost_per_decision"] for g in trend if g["lost_per_decision"] is not None]
    return {"format": "pinochlekit-stats/1", "name": name,
            "budget": {"time": time, "repeats": repeats}, "total": _block(hands),
            "median_game": round(statistics.median(per_game), 2) if per_game else None,
            "trend": trend,
            "by_opponents": {level: _block(group) for level, group in sorted(levels.items())}}


def _line(label: str, block: dict[str, Any]) -> str:
    lost = block["lost_per_decision"]
    phases = ", ".join(f"{p} {block['by_phase'][p]['lost_per_decision']}"
                       for p in PHASES if block["by_phase"][p]["decisions"])
    return (f"{label}: {block['hands']} hands, bid {block['bid']} (made {block['made']}, "
            f"set {block['set']}), {block['marks']} marked, "
            f"lost {lost if lost is not None else '-'} a decision"
            + (f" ({phases})" if phases else ""))


def stats_text(summary: dict[str, Any]) -> str:
    """The statistics for people."""
    budget = summary["budget"]
    lines = [f"Statistics of {summary['name']} (points lost a decision by expert(time="
             f"{budget['time']}), {budget['repeats']} repeats; ordinary scale)",
             _line("all games", summary["total"]), "by opponents:"]
    lines += [_line(f"  {level}", block) for level, block in summary["by_opponents"].items()]
    lines.append("trend, game by game:")
    lines += [_line(f"  {g['when']} {g['source']}", g) for g in summary["trend"]]
    return "\n".join(lines)
