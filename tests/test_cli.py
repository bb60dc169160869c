"""The ``pinochle`` command line, run for real as ``python -m pinochlekit``.

Every subcommand is exercised through a subprocess: known outputs (a meld from
docs/rules.md §1, legal plays under the old and modern rules), whole demo games
under several presets, determinism, record and replay, and bad input that must
give one ``pinochle: error:`` line, a non-zero status and no traceback.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pinochlekit.engine.record import GameRecord
from pinochlekit.engine.rules import PRESET_SOURCES, Rules

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "PYTHONIOENCODING": "utf-8"}


def pinochle(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pinochlekit", *args], input=stdin,
                          capture_output=True, text=True, env=ENV, cwd=ROOT, timeout=300,
                          encoding="utf-8")


def ok(*args: str, stdin: str | None = None) -> list[str]:
    """Run a command that must succeed; its stdout lines."""
    done = pinochle(*args, stdin=stdin)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return done.stdout.splitlines()


def fails(*args: str, status: int | None = 2) -> str:
    """Run a command that must fail with one error line; that line."""
    done = pinochle(*args)
    assert done.returncode != 0
    if status is not None:
        assert done.returncode == status, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("pinochle: error: ")
    assert done.stdout == ""
    return lines[0]


# -- help -------------------------------------------------------------------


@pytest.mark.parametrize("command", ["", "rules", "meld", "legal", "demo", "replay"])
def test_every_subcommand_has_help(command: str) -> None:
    lines = ok(*([command] if command else []), "--help")
    text = "\n".join(lines)
    assert text.startswith(f"usage: pinochle {command}".rstrip())
    if not command:
        for sub in ("rules", "meld", "legal", "demo", "replay"):
            assert sub in text


def test_help_names_the_two_and_three_handed_and_double_deck_games() -> None:
    text = " ".join(" ".join(ok("--help")).split())  # one line: wrapping aside
    assert "two-handed" in text and "three-handed" in text and "double deck" in text
    for preset in ("two", "three", "doubledeck"):
        assert f"pinochle play --rules {preset} " in text
    play = " ".join(" ".join(ok("play", "--help")).split())
    assert "two-handed" in play and "three-handed" in play and "double deck" in play


def test_version() -> None:
    assert ok("--version") == ["pinochle 0.1.0"]


# -- rules ------------------------------------------------------------------


def test_rules_lists_every_preset_with_its_source() -> None:
    text = "\n".join(ok("rules"))
    for name, source in PRESET_SOURCES.items():
        assert f"  {name} " in text
        assert source.split()[0] in text
    assert text.endswith("\ndefault: pagat")


def test_rules_shows_every_option_of_a_rules_string() -> None:
    lines = ok("rules", "pagat(min_bid=200)")
    assert lines[0] == "rules: pagat(min_bid=200)"
    others = lines[-1].removeprefix("not options of this game: ").split(", ")
    for field in dataclasses.fields(Rules):  # an option of the game, or named as not one
        assert any(line[2:].startswith(f"{field.name} = ") for line in lines) \
            != (field.name in others), field.name
    assert others == ["arounds", "bid_ladder", "meld_counters", "widow"]
    assert "* min_bid = 200  (pagat: 250)" in lines
    assert "  must_beat = always" in lines
    assert "      source: 000, 001, 003, 004" in lines


@pytest.mark.parametrize(("preset", "shown", "not_shown"), [
    ("doubledeck(cards_passed=4)", ["* cards_passed = 4  (doubledeck: 0)", "  arounds = standard"],
     ["run_extra", "doubles", "trick_points", "divide_by_ten", "nines_redeal", "widow"]),
    ("two", ["  trick_points = classic"], ["min_bid", "cards_passed", "set_penalty"]),
    ("three", ["  widow = out"], ["cards_passed", "shoot_the_moon"]),
])
def test_rules_list_only_the_options_of_the_game(preset: str, shown: list[str],
                                                  not_shown: list[str]) -> None:
    """docs/rules.md §3, §4, §6: each game's own options, compared with its default
    preset; the options it does not have named once at the end."""
    lines = ok("rules", preset)
    for line in shown:
        assert line in lines
    for name in not_shown:
        assert not any(line[2:].startswith(f"{name} = ") for line in lines), name
        assert name in lines[-1].removeprefix("not options of this game: ").split(", ")


def test_rules_of_a_divided_preset_show_values_in_play() -> None:
    lines = ok("rules", "playingcards")
    assert "values in play (divided by ten): opening bid 20, step 1, game 150" in lines
    assert "* divide_by_ten = yes  (pagat: no)" in lines


# -- meld -------------------------------------------------------------------


def test_meld_run_and_dix() -> None:
    # docs/rules.md §1 Meld: run 150, dix 10.
    assert ok("meld", "--trump", "S", "AS", "TS", "KS", "QS", "JS", "9S") == [
        "run  AS TS KS QS JS  150",
        "dix  9S               10",
        "total                160",
    ]


def test_meld_accepts_one_quoted_string_and_other_notation() -> None:
    assert ok("meld", "--trump", "♠", "A♠ 10S ♠K QS, JS 9s")[-1].split() == ["total", "160"]


def test_meld_json() -> None:
    # docs/rules.md §1: run + extra K marries (190), common marriage, dix, pinochle.
    data = json.loads("\n".join(ok("meld", "--trump", "S", "--json",
                                   "AS TS KS KS QS JS 9S QH KH JD")))
    assert data == {
        "points": 260,
        "items": [
            {"name": "run", "cards": "AS TS KS QS JS", "points": 150},
            {"name": "royal marriage", "cards": "KS QS", "points": 40},
            {"name": "common marriage", "cards": "KH QH", "points": 20},
            {"name": "dix", "cards": "9S", "points": 10},
            {"name": "pinochle", "cards": "QS JD", "points": 40},
        ],
        "shown": "AS TS KS KS QS JS 9S KH QH JD",
    }


def test_meld_without_trump_and_with_other_rules() -> None:
    # No trump: marriages are common, no run, no dix.
    assert ok("meld", "--trump", "none", "KS QS 9S")[-1].split() == ["total", "20"]
    assert ok("meld", "--trump", "H", "9S") == ["no meld", "total 0"]
    # Double pinochle 300 (special doubles), 80 with plain doubles (stonebridge).
    assert ok("meld", "--trump", "H", "QS QS JD JD")[-1].split() == ["total", "300"]
    assert ok("meld", "--trump", "H", "--rules", "stonebridge",
              "QS QS JD JD")[-1].split() == ["total", "80"]
    # Divided by ten (playingcards): run 15 + dix 1.
    assert ok("meld", "--trump", "S", "--rules", "playingcards",
              "AS TS KS QS JS 9S")[-1].split() == ["total", "16"]


# -- legal ------------------------------------------------------------------


def test_legal_old_rules_must_beat() -> None:
    lines = ok("legal", "--trump", "S", "--trick", "KH", "AH", "TH", "9H", "KS")
    assert lines[0] == "legal: AH TH"
    assert "  9H  must beat KH with AH or TH" in lines
    assert any(line.startswith("  KS  ") for line in lines)


def test_legal_second_ace_cannot_beat_the_first() -> None:
    # docs/rules.md §1 Play: the first of two identical cards wins, so AH does not beat AH.
    lines = ok("legal", "--trump", "S", "--trick", "KH AH", "AH TH 9H KS")
    assert lines[0] == "legal: AH TH 9H"
    assert "  KS  must follow hearts with AH, TH or 9H" in lines


def test_legal_modern_rules_and_trumping() -> None:
    assert ok("legal", "--trump", "S", "--rules", "modern", "--trick", "KH",
              "AH TH 9H KS")[0] == "legal: AH TH 9H"
    # Void in hearts: must trump (rule 2).
    lines = ok("legal", "--trump", "S", "--trick", "KH", "KS 9S AD")
    assert lines[0] == "legal: KS 9S"
    assert "  AD  void in hearts, must play a trump: KS or 9S" in lines


def test_legal_first_lead_must_be_trump_in_family1000() -> None:
    assert ok("legal", "--trump", "D", "--rules", "family1000", "--first-trick",
              "AH JD 9D")[0] == "legal: JD 9D"
    assert ok("legal", "--trump", "D", "--rules", "family1000",
              "AH JD 9D") == ["legal: AH JD 9D"]


# -- demo -------------------------------------------------------------------


@pytest.mark.parametrize(("seed", "rules"), [
    ("1", "pagat"), ("2", "pagat"), ("3", "modern"), ("4", "stonebridge"),
    ("5", "playingcards"), ("6", "chips"), ("7", "cutthroat"), ("8", "family1000"),
    ("9", "playingcards"), ("10", "family1000"),
])
def test_demo_plays_to_a_winner(seed: str, rules: str) -> None:
    lines = ok("demo", "--seed", seed, "--rules", rules)
    assert lines[0] == f"game: rules {rules}, seed {seed}, first dealer seat 0"
    assert lines[-1].startswith("winner: team ")
    assert "== hand 1, dealer seat 0 ==" in lines
    for start in ("deal:", "auction: ", "contract: seat ", "trump: ", "meld:", "tricks:",
                  "  team 0: meld ", "  team 1: meld "):
        assert any(line.startswith(start) for line in lines), start
    if Rules.from_string(rules).cards_passed:
        assert any(" gives " in line for line in lines)
        assert any(" returns " in line for line in lines)
    tricks = [line for line in lines if line.startswith("   1. ")]
    assert tricks and all(" -> " in line for line in tricks)


@pytest.mark.parametrize(("rules", "seed", "note"), [
    ("doubledeck", "1", "both sides reached 500 in the last hand: the declaring side wins"),
    ("three", "16", "more than one player reached 1000 in the last hand: the declarer wins"),
    ("pagat", "1", None),
])
def test_demo_says_why_a_winner_with_fewer_points_wins(rules: str, seed: str,
                                                       note: str | None) -> None:
    """Both over the target in one hand, the declaring side wins (docs/rules.md
    §1.12, §3, §6): the last line says so whenever the winner has no more points
    than another side, and says nothing more otherwise."""
    last = ok("demo", "--seed", seed, "--rules", rules)[-1]
    found = re.fullmatch(r"winner: (?:team|seat) (\d).*?; (.*) after \d+ hands( \((.*)\))?",
                         last)
    assert found is not None, last
    scores = [int(s) for s in re.findall(r"(?:team|seat) \d (-?\d+)", found.group(2))]
    winner = scores[int(found.group(1))]
    assert (winner <= max(s for i, s in enumerate(scores) if i != int(found.group(1)))) \
        == (note is not None), last
    assert found.group(4) == note


def test_demo_with_random_players_and_another_dealer() -> None:
    lines = ok("demo", "--seed", "5", "--players", "random", "--dealer", "2")
    assert lines[0] == "game: rules pagat, seed 5, first dealer seat 2"
    assert "== hand 1, dealer seat 2 ==" in lines
    assert lines[-1].startswith("winner: team ")


def test_demo_is_deterministic_for_a_seed() -> None:
    first = ok("demo", "--seed", "42")
    assert ok("demo", "--seed", "42") == first
    assert ok("demo", "--seed", "43") != first


def test_demo_without_a_seed_prints_one_that_repeats_the_game() -> None:
    lines = ok("demo")
    seed = lines[0].split("seed ")[1].split(",")[0]
    assert ok("demo", "--seed", seed) == lines


def test_demo_max_hands_stops_early() -> None:
    lines = ok("demo", "--seed", "1", "--max-hands", "1")
    assert lines[-1].startswith("game in progress after 1 hand:")
    assert "== hand 2, dealer seat 1 ==" in lines


# -- record and replay ------------------------------------------------------


def test_demo_record_then_replay_tells_the_same_game(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    done = pinochle("demo", "--seed", "3", "--rules", "playingcards", "--record", str(path))
    assert done.returncode == 0, done.stderr
    record = GameRecord.from_json(path.read_text(encoding="utf-8"))
    assert record.rules == "playingcards" and record.seed == 3
    assert record.replay().winner is not None
    replayed = ok("replay", str(path))
    assert replayed == done.stdout.splitlines()
    assert ok("replay", "-", stdin=path.read_text(encoding="utf-8")) == replayed


def test_replay_one_hand(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    ok("demo", "--seed", "2", "--record", str(path))
    lines = ok("replay", str(path), "--hand", "2")
    hands = [line for line in lines if line.startswith("== hand ")]
    assert hands == ["== hand 2, dealer seat 1 =="]
    assert lines[-1].startswith("winner: team ")


def test_replay_of_a_game_in_progress(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    ok("demo", "--seed", "2", "--record", str(path))
    data = json.loads(path.read_text(encoding="utf-8"))
    data["actions"] = data["actions"][:30]  # into the play of the first hand
    path.write_text(json.dumps(data), encoding="utf-8")
    lines = ok("replay", str(path))
    assert any(line.startswith("in progress: seat ") for line in lines)
    assert lines[-1].startswith("game in progress after 0 hands")


# -- errors -----------------------------------------------------------------


def _record(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(("args", "expected"), [
    (["meld", "--trump", "S", "AS", "XX"], "bad card 'XX'"),
    (["meld", "--trump", "Z", "AS"], "bad suit 'Z'"),
    (["meld", "--trump", "S", "AS AS AS"], "more than two AS"),
    (["meld", "--trump", "S", "--rules", "nope", "AS"], "unknown preset 'nope'"),
    (["meld", "AS"], "required: --trump"),
    (["meld", "--trump", "S"], "required: CARD"),
    (["legal", "--trump", "S", "--trick", "KH AH 9H JH", "TH"], "at most 3 cards"),
    (["legal", "--trump", "none", "TH"], "bad suit 'none'"),
    (["legal", "--trump", "S", "--trick", "TH TH", "TH"], "more than two TH"),
    (["rules", "nope"], "unknown preset 'nope'"),
    (["rules", "pagat(must_beat=sometimes)"], "must_beat: must be one of"),
    (["rules", "pagat(colour=red)"], "colour: no such option"),
    (["rules", "doubledeck(cards_passed=4"], "unbalanced parentheses in 'doubledeck(cards_pass"),
    (["demo", "--dealer", "9"], "dealer must be a seat from 0 to 3"),
    (["demo", "--dealer", "x"], "invalid int value: 'x'"),
    (["demo", "--players", "simple,bogus,simple,simple"], "unknown player 'bogus'"),
    (["demo", "--players", "simple,simple"], "give one name or 4"),
    (["demo", "--seed", ""], "the seed is empty"),
    (["demo", "--max-hands", "0"], "--max-hands must be at least 1"),
    (["frob"], "invalid choice: 'frob'"),
    ([], "required: COMMAND"),
])
def test_bad_usage_is_one_line(args: list[str], expected: str) -> None:
    assert expected in fails(*args)


def test_unreadable_files(tmp_path: Path) -> None:
    assert "No such file" in fails("replay", str(tmp_path / "missing.json"), status=1)
    assert "cannot read" in fails("replay", str(tmp_path), status=1)
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    assert "not a text file" in fails("replay", str(binary))
    assert "cannot write" in fails("demo", "--seed", "1", "--record",
                                   str(tmp_path / "no" / "such" / "dir.json"), status=1)


def test_bad_records(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    ok("demo", "--seed", "1", "--record", str(good))
    data = json.loads(good.read_text(encoding="utf-8"))

    assert "not JSON" in fails("replay", _record(tmp_path, "a.json", '{"format": '))
    assert "JSON object" in fails("replay", _record(tmp_path, "b.json", "[]"))
    assert "unknown record format" in fails(
        "replay", _record(tmp_path, "c.json", json.dumps({**data, "format": "other/9"})))
    assert "lacks the field 'actions'" in fails(
        "replay", _record(tmp_path, "d.json",
                          json.dumps({k: v for k, v in data.items() if k != "actions"})))
    assert "record cannot start" in fails(
        "replay", _record(tmp_path, "e.json", json.dumps({**data, "rules": "nope"})))

    # An action the rules forbid: a second opening bid that is too low.
    actions = list(data["actions"])
    actions[1] = "bid 100"
    message = fails("replay", _record(tmp_path, "f.json", json.dumps({**data,
                                                                      "actions": actions})))
    assert "action 2 ('bid 100') does not replay" in message
    # An action that is not an action at all.
    actions[1] = "play 9Z"
    assert "bad card '9Z'" in fails(
        "replay", _record(tmp_path, "g.json", json.dumps({**data, "actions": actions})))
    # A hand number the record does not have.
    assert "this record has hands 1 to" in fails("replay", str(good), "--hand", "99")


def test_hostile_records_are_refused_in_one_line(tmp_path: Path) -> None:
    """JSON nested past Python's recursion limit, a number longer than Python converts
    and a dealer given as true: each a one-line error from replay and review."""
    good = tmp_path / "good.json"
    ok("demo", "--seed", "1", "--record", str(good))
    data = json.loads(good.read_text(encoding="utf-8"))
    deep = _record(tmp_path, "deep.json", "[" * 100_000 + "]" * 100_000)
    long = _record(tmp_path, "long.json", "1" * 100_000)
    for command in ("replay", "review"):
        assert "nested too deeply" in fails(command, deep)
        message = fails(command, long)
        assert "not JSON" in message and "set_int_max_str_digits" not in message
    assert "dealer a number" in fails(
        "replay", _record(tmp_path, "true.json", json.dumps({**data, "dealer": True})))


def test_seeds_python_cannot_read_as_numbers() -> None:
    """A seed of digits Python's int() refuses ('²', 5,000 digits): a text seed or a
    one-line error about the seed, never Python's own message."""
    assert ok("demo", "--seed", "²", "--max-hands", "1")[0] == ok(
        "demo", "--seed", "²", "--max-hands", "1")[0]
    for command in (["demo"], ["match", "random", "random", "--deals", "1"]):
        message = fails(*command, "--seed", "9" * 5000)
        assert message == "pinochle: error: --seed: a number of at most 4300 digits, not 5000"
