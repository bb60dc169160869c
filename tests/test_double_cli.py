"""``pinochle meld|legal|demo|replay --rules doubledeck`` (docs/rules.md §6), run for real as
``python -m pinochlekit``: the meld table of §6, the play rules on a hand with four
copies of a card, a whole demo game by random players whose record replays to the
same text, and clear one-line errors for what the double deck refuses.
"""

from __future__ import annotations

import json
from pathlib import Path

from test_cli import fails, ok

from pinochlekit.engine.double.game import DoubleDeckGame
from pinochlekit.engine.games import replay_any
from pinochlekit.engine.record import GameRecord


def test_meld_command() -> None:
    """A double run in spades (150) with a third K and Q of spades (a royal marriage, 4)
    and a pinochle (4): 158."""
    lines = ok("meld", "--rules", "doubledeck", "--trump", "S",
               "AS AS TS TS KS KS KS QS QS QS JS JS JD")
    assert lines[0].split()[:2] == ["double", "run"] and lines[0].split()[-1] == "150"
    assert lines[-1].split() == ["total", "158"]
    data = json.loads(ok("meld", "--rules", "doubledeck", "--trump", "H", "--json",
                         "AS AH AD AC AS AH AD AC")[0])
    assert data["points"] == 100  # double aces around (docs/rules.md §6)
    assert "more than four AS" in fails("meld", "--rules", "doubledeck", "--trump", "S",
                                "AS AS AS AS AS")
    assert "no nines" in fails("meld", "--rules", "doubledeck", "--trump", "S", "9S")


def test_legal_command() -> None:
    """Old rules (docs/rules.md §1.9): AH is winning; three more aces of hearts cannot beat
    it (only a strictly higher card beats), so any heart may be played."""
    lines = ok("legal", "--rules", "doubledeck", "--trump", "S", "--trick", "KH AH",
               "AH", "AH", "AH", "TH", "KS")
    assert lines[0] == "legal: AH TH"
    assert "must follow hearts" in lines[2]


def test_demo_and_replay(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    lines = ok("demo", "--rules", "doubledeck", "--seed", "7", "--record", str(record))
    assert lines[0] == "game: rules doubledeck (double deck), seed 7, first dealer seat 0"
    assert lines[-1].startswith("winner: team ")
    assert any(line.strip().startswith("20. ") for line in lines)  # twenty tricks
    game = replay_any(GameRecord.from_json(record.read_text(encoding="utf-8")))
    assert isinstance(game, DoubleDeckGame) and game.winner is not None
    assert max(game.scores) >= 500
    assert ok("replay", str(record)) == lines
    first = ok("replay", str(record), "--hand", "1")
    assert first[2] == "== hand 1, dealer seat 0 ==" and "== hand 2" not in "\n".join(first)
    assert "hands 1 to" in fails("replay", str(record), "--hand", "999")


def test_demo_with_easy_players() -> None:
    lines = ok("demo", "--rules", "doubledeck", "--players", "easy", "--seed", "2",
               "--max-hands", "2")
    assert lines[-1].startswith(("game in progress after 2 hands", "winner: team "))


def test_refusals() -> None:
    assert "random" in fails("demo", "--rules", "doubledeck", "--players", "simple")
    assert "cards_passed" in fails("demo", "--rules", "doubledeck(cards_passed=5)")
    assert "the double deck is played by" in fails("match", "simple", "random",
                                                   "--rules", "doubledeck")
