"""``pinochle match|demo --rules doubledeck`` run for real as ``python -m pinochlekit``:
duplicate deal pairs of the double deck (docs/rules.md §6), the same figures on one
worker or two and when resumed, and the levels of docs/double-deck.md in a demo."""

from __future__ import annotations

import json
from pathlib import Path

from test_cli import fails, ok


def match(*extra: str) -> dict[str, object]:
    data = json.loads("\n".join(ok("match", "standard", "easy", "--rules", "doubledeck",
                                   "--deals", "3", "--seed", "5", "--json", "--quiet", *extra)))
    assert isinstance(data, dict)
    return data


def test_match_plays_duplicate_pairs(tmp_path: Path) -> None:
    """Three deal pairs are six hands; every hand has a declarer; the figures are the
    same on two workers and when a resumed match replays what it kept."""
    one = match("--workers", "1")
    assert one["rules"] == "doubledeck" and one["deal_pairs"] == 3
    sides = one["sides"]
    assert isinstance(sides, dict)
    assert sides["A"]["declared"] + sides["B"]["declared"] == 6
    assert match("--workers", "2")["points_per_hand"] == one["points_per_hand"]
    kept = tmp_path / "kept"
    first = match("--workers", "1", "--resume", str(kept))
    again = match("--workers", "1", "--resume", str(kept))
    assert first["points_per_hand"] == again["points_per_hand"] == one["points_per_hand"]


def test_match_refuses_levels_that_do_not_play_it() -> None:
    assert "the double deck is played by" in fails("match", "simple", "easy", "--rules",
                                                   "doubledeck", "--deals", "1")


def test_demo_with_standard_and_pro() -> None:
    lines = ok("demo", "--rules", "doubledeck", "--players", "standard,pro,standard,pro",
               "--seed", "2", "--max-hands", "1")
    assert any(line.startswith("contract: seat") for line in lines)
    assert lines[-1].startswith(("game in progress after 1 hands", "winner: team "))
