"""Duplicate matches: structure, reproducibility across workers, statistics, output.

The ``pinochle match`` command is run for real as a subprocess, and the claim
it exists to make is checked: ``simple`` beats ``random`` with a 95%
confidence interval above zero.
"""

from __future__ import annotations

import io
import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, ClassVar

import pytest

from pinochlekit import ALL_CARDS, Action, Game, Play, View
from pinochlekit.match import (
    FORMAT,
    MatchError,
    ProgressBar,
    create_player,
    interval,
    play_deal_pair,
    run_match,
    t_quantile,
)
from pinochlekit.match import duplicate as match_module
from pinochlekit.players.base import Player

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "PYTHONIOENCODING": "utf-8"}


def pinochle(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pinochlekit", *args], capture_output=True,
                          text=True, env=ENV, cwd=ROOT, timeout=600, encoding="utf-8")


# -- statistics ----------------------------------------------------------------


def test_interval_of_a_known_sample() -> None:
    # 1..5: mean 3, sd sqrt(2.5), se sqrt(0.5); z 1.96, t(4) 2.776445.
    i = interval([1, 2, 3, 4, 5])
    assert i.n == 5 and i.mean == 3.0
    assert i.sd == pytest.approx(math.sqrt(2.5))
    assert i.half_z == pytest.approx(1.959964 * math.sqrt(0.5), rel=1e-6)
    assert i.half_t == pytest.approx(2.776445 * math.sqrt(0.5), rel=1e-6)
    assert (i.low, i.high) == pytest.approx((3 - 1.385904, 3 + 1.385904), rel=1e-6)
    assert (i.low_t, i.high_t) == pytest.approx((3 - 1.963243, 3 + 1.963243), rel=1e-6)


@pytest.mark.parametrize(("df", "expected"), [
    (1, 12.706205), (2, 4.302653), (4, 2.776445), (9, 2.262157), (19, 2.093024),
    (30, 2.042272), (100, 1.983972), (10_000, 1.960201),
])
def test_t_quantiles_match_the_published_table(df: int, expected: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=2e-6)
    assert t_quantile(0.025, df) == pytest.approx(-expected, abs=2e-6)


def test_interval_of_tiny_samples() -> None:
    assert interval([]).n == 0 and math.isnan(interval([]).mean)
    one = interval([7.5])
    assert one.mean == 7.5 and math.isnan(one.sd) and math.isnan(one.half_t)
    assert interval([4, 4, 4]).half_t == 0.0
    with pytest.raises(ValueError, match="0 < p < 1"):
        t_quantile(1.0, 3)


# -- structure -------------------------------------------------------------------


class _Spy(Player):
    """Plays like ``simple`` and records what it saw at its first decision."""

    seen: ClassVar[list[tuple[str, str, int, int, str]]] = []

    def __init__(self, spec: str, seed: int | str) -> None:
        super().__init__(seed)
        self.spec = spec
        self.inner = create_player("simple", seed)
        self.first = True

    def choose(self, view: View) -> Action:
        if self.first:
            assert view.seat is not None and view.hand is not None
            _Spy.seen.append((self.spec, str(self.seed), view.seat, view.dealer,
                              str(view.hand)))
            self.first = False
        return self.inner.choose(view)


def test_every_deal_is_played_twice_with_the_partnerships_swapped(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _Spy.seen = []
    monkeypatch.setattr(match_module, "create_player",
                        lambda spec, seed, timeout=10.0: _Spy(spec, seed))
    result = run_match("alpha", "beta", deals=5, seed=11, workers=1)
    assert [pair.index for pair in result.deals] == [0, 1, 2, 3, 4]
    assert [pair.dealer for pair in result.deals] == [0, 1, 2, 3, 0]  # the dealer rotates
    assert len({pair.seed for pair in result.deals}) == 5
    for pair in result.deals:
        # The seats that acted, in each orientation, in order (one hand each).
        seen = [s for s in _Spy.seen if s[1].startswith(f"{pair.seed}/seat/")]
        first, second = seen[:len(seen) // 2], seen[len(seen) // 2:]
        assert [s[2:] for s in first] == [s[2:] for s in second]  # same seats, cards, dealer
        assert all(s[3] == pair.dealer for s in seen)
        for (spec1, seed1, seat, _, _), (spec2, seed2, _, _, _) in zip(first, second,
                                                                        strict=True):
            assert seed1 == seed2 == f"{pair.seed}/seat/{seat}"
            assert {spec1, spec2} == {"alpha", "beta"}  # the partnerships swapped
            assert spec1 == ("alpha" if seat % 2 == 0 else "beta")


def test_a_player_against_itself_is_exactly_even() -> None:
    result = run_match("random", "random", deals=12, seed=3, workers=1)
    assert all(pair.value == 0 for pair in result.deals)
    assert result.hands.mean == 0 and result.hands.sd == 0
    assert result.side_stats("A") == result.side_stats("B")


def test_the_value_of_a_deal_pair_is_a_minus_b_per_hand() -> None:
    config = match_module.MatchConfig("simple", "random", "pagat", seed=9)
    pair = play_deal_pair(config, 2)
    first, second = pair.hands
    assert pair.value == ((first.a_score - first.b_score) + (second.a_score - second.b_score)) / 2
    assert pair.dealer == 2 and pair.seed == "pinochle match/9/deal/2"
    # Replaying the recorded deal seed gives the same first hand.
    game = Game.new("pagat", seed=pair.seed, dealer=pair.dealer)
    assert game.view(1).dealer == 2


def test_results_are_identical_for_any_number_of_workers() -> None:
    one = run_match("simple", "random", deals=6, games=1, seed=21, workers=1)
    two = run_match("simple", "random", deals=6, games=1, seed=21, workers=2)
    assert two.workers == 2
    assert one.to_dict(timing=False) == two.to_dict(timing=False)
    assert one.report()[:-1] == two.report()[:-1]
    assert one.work.decisions == two.work.decisions


def test_whole_games_in_duplicate_pairs() -> None:
    result = run_match("simple", "random", deals=0, games=2, seed=4, workers=1)
    stats = result.game_stats()
    assert stats["pairs"] == 2 and stats["games"] == 4
    assert stats["A"] + stats["B"] + stats["unfinished"] == 4
    for pair in result.games:
        for winner, (a, b) in zip(pair.winners, pair.scores, strict=True):
            assert winner in ("A", "B")
            assert max(a, b) >= 1500
    assert not result.deals and math.isnan(result.hands.mean)


# -- errors ------------------------------------------------------------------------


class _Cheat(Player):
    """Plays the first legal action, except that it leads a card it does not hold."""

    def choose(self, view: View) -> Action:
        if view.phase.value == "play" and not view.trick and view.hand is not None:
            held = view.hand.cards()
            return Play(next(card for card in ALL_CARDS if card not in held))
        return view.legal_actions[0]


def test_an_illegal_action_stops_the_match_with_a_clear_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    real = match_module.create_player
    monkeypatch.setattr(match_module, "create_player", lambda spec, seed, timeout=10.0: (
        _Cheat(seed) if spec == "cheat" else real(spec, seed)))
    with pytest.raises(MatchError, match=r"^deal 0 \(A at seats 0 and 2\), seat \d "
                       r"\(B: cheat\) chose an illegal action play \w\w: illegal play"):
        run_match("simple", "cheat", deals=3, seed=1, workers=1)


def test_bad_settings() -> None:
    with pytest.raises(MatchError, match="player B \\(nobody\\): unknown player 'nobody'"):
        run_match("simple", "nobody", deals=1, workers=1)
    with pytest.raises(MatchError, match="at least one deal pair or game pair"):
        run_match("simple", "random", deals=0)
    with pytest.raises(MatchError, match="workers must be at least 1"):
        run_match("simple", "random", deals=1, workers=0)


# -- progress bar ------------------------------------------------------------------


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_draws_only_on_a_terminal() -> None:
    pipe = io.StringIO()
    bar = ProgressBar(pipe)
    bar(1, 4)
    bar.close()
    assert pipe.getvalue() == ""
    term = _Terminal()
    bar = ProgressBar(term, width=8)
    bar(0, 4)
    bar(2, 4)
    assert "\r[####....] 2/4 pairs" in term.getvalue()
    bar.close()
    assert term.getvalue().endswith("\r\033[K")
    quiet = _Terminal()
    ProgressBar(quiet, enabled=False)(1, 2)
    assert quiet.getvalue() == ""


# -- the command line ----------------------------------------------------------------


def test_cli_simple_beats_random() -> None:
    done = pinochle("match", "simple", "random", "--deals", "20", "--seed", "1")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # no progress bar: stderr is not a terminal
    lines = done.stdout.splitlines()
    assert lines[0] == "match: A = simple, B = random; rules pagat, seed 1"
    assert lines[1] == "deal pairs: 20 (each deal played twice, partnerships swapped: 40 hands)"
    line = lines[2]
    assert line.startswith("points per hand, A minus B: +")
    low = float(line.split("95% CI ")[1].split(" to ")[0])
    assert low > 0
    low_t = float(line.split("t: ")[1].split(" to ")[0])
    assert low_t > 0
    assert lines[-1].startswith("decisions: ")


def test_cli_json_output_schema() -> None:
    done = pinochle("match", "simple", "random", "--deals", "4", "--games", "1", "--seed",
                    "7", "--json", "--workers", "1", "--rules", "modern")
    assert done.returncode == 0, done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    assert data["format"] == FORMAT
    assert data["players"] == {"A": "simple", "B": "random"}
    assert (data["rules"], data["seed"], data["deal_pairs"], data["game_pairs"]) == (
        "modern", 7, 4, 1)
    hands = data["points_per_hand"]
    assert set(hands) == {"n", "mean", "sd", "ci95", "ci95_t"} and hands["n"] == 4
    assert hands["ci95_t"][0] <= hands["ci95"][0] <= hands["mean"] <= hands["ci95"][1]
    for side in ("A", "B"):
        stats = data["sides"][side]
        assert set(stats) == {"declared", "made", "set", "thrown_in", "not_on_board",
                              "moon_made", "moon_failed", "points"}
        assert stats["declared"] == sum(stats[k] for k in stats if k not in (
            "declared", "points"))
    assert isinstance(data["passed_out"], int) and isinstance(data["redeals"], int)
    assert set(data["games"]) == {"pairs", "games", "A", "B", "unfinished", "A_swept",
                                  "B_swept"}
    assert len(data["deals"]) == 4
    for index, pair in enumerate(data["deals"]):
        assert pair["index"] == index and pair["dealer"] == index % 4
        assert len(pair["hands"]) == 2
        assert set(pair["hands"][0]) == {"outcome", "declarer", "contract", "A", "B"}
        assert pair["value"] == sum(h["A"] - h["B"] for h in pair["hands"]) / 2
    assert len(data["game_list"]) == 1 and len(data["game_list"][0]["winners"]) == 2
    timing = data["timing"]
    assert timing["workers"] == 1 and timing["decisions"] > 0
    assert timing["decisions"] == timing["A"]["decisions"] + timing["B"]["decisions"]
    assert timing["decisions_per_second"] > 0


def test_cli_match_help_and_errors() -> None:
    done = pinochle("match", "--help")
    assert done.returncode == 0 and done.stdout.startswith("usage: pinochle match")
    for args, expected in [
        (["simple", "nobody", "--deals", "1"], "unknown player 'nobody'"),
        (["simple", "random", "--deals", "0"], "give --deals or --games at least 1"),
        (["simple", "random", "--games", "-1"], "--games must be at least 0"),
        (["simple", "random", "--workers", "0"], "--workers must be at least 1"),
        (["simple", "random", "--timeout", "0"], "--timeout must be more than 0"),
        (["simple", "random", "--rules", "nope"], "unknown preset 'nope'"),
        (["simple", "cmd:python -c 'print(1)'", "--deals", "1", "--workers", "1"],
         "deal 0 (A at seats 0 and 2), seat 1 (B: cmd:python -c 'print(1)'): program "),
    ]:
        done = pinochle("match", *args)
        assert done.returncode == 2, (args, done.stderr)
        assert done.stdout == "" and "Traceback" not in done.stderr
        lines = done.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("pinochle: error: "), done.stderr
        assert expected in lines[0], (expected, lines[0])


def test_cli_match_against_the_example_bot_with_two_workers() -> None:
    done = pinochle("match", "simple", "cmd:python examples/random_bot.py", "--deals", "4",
                    "--seed", "2", "--workers", "2", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["players"]["B"] == "cmd:python examples/random_bot.py"
    assert data["timing"]["B"]["decisions"] > 0
    one = pinochle("match", "simple", "cmd:python examples/random_bot.py", "--deals", "4",
                   "--seed", "2", "--workers", "1", "--json")
    assert {k: v for k, v in json.loads(one.stdout).items() if k != "timing"} == {
        k: v for k, v in data.items() if k != "timing"}
