"""The plain line mode run for real (``python -m pinochlekit play --plain``), through
stdin and stdout; the saved game killed with SIGKILL mid-trick and resumed, in
the plain mode and at the full-screen table; ``pinochle history``.

The person's policy is fixed and reads only what the program prints on its
``your turn:`` line, so two runs given the same seed make the same choices:
a game killed and resumed must then match a game played straight through.
"""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT, Plain, answer_turns, cards_in, environment, pretty
from helpers import history as run_history

from pinochlekit import Phase
from pinochlekit.tui.app import TableApp
from pinochlekit.tui.session import Session
from pinochlekit.tui.store import DB_NAME, GameStore


def choose(turn: str, lines: list[str] | tuple[str, ...] = ()) -> str:
    """The fixed policy: pass when allowed, else the lowest bid, the first trump, the
    first cards of the hand to pass (asking for ``hand`` first when ``lines`` do not
    show it: the example given is not from the hand), the first card listed."""
    options = turn.removeprefix("your turn: you may ").split(", ")
    if "pass" in options:
        return "pass"
    for option in options:
        if match := re.match(r"bid (\d+)\b", option):
            return f"bid {match.group(1)}"
        if match := re.match(r"trump (\w)", option):
            return f"trump {match.group(1)}"
        if match := re.match(r"(give|return) (\d) cards", option):
            hand = [line for line in lines if line.startswith("your hand: ")]
            if not hand:
                return "hand"
            cards = cards_in(hand[-1])
            return f"{match.group(1)} {' '.join(cards[:int(match.group(2))])}"
        if match := re.match(r"play (\w+)", option):
            return f"play {match.group(1)}"
    raise AssertionError(f"no choice in {turn!r}")


def play_turns(plain: Plain, stop: object, limit: int = 3000) -> list[str]:
    """Answer every turn with :func:`choose` until ``stop(lines)`` or the game ends."""
    return answer_turns(plain, lambda lines: choose(lines[-1], lines), stop, limit)


def test_plain_mode_plays_a_game_to_the_end(tmp_path: Path) -> None:
    plain = Plain(tmp_path, "--rules", "playingcards", "--seed", "6", "--level", "easy")
    first = plain.until_turn()
    assert first[0].startswith("pinochle: game 1, rules playingcards, seed 6")
    assert any(line.startswith("your hand: ") for line in first)
    # docs/terminal.md "The plain line mode": the real range, not the table's top bid
    assert re.match(r"your turn: you may bid \d+ or more \(steps of \d+\), pass", first[-1])
    plain.send("help")
    assert any("hint" in line for line in plain.until_turn())
    plain.send("hint")  # docs/terminal.md "Hints": a sentence, the numbers behind 'why'
    hint = plain.until_turn()[0]
    assert re.match(r"hint \(expert\): (Bid \d+: you make it in [^;]+; naming [♠♥♦♣] "
                    r"\w+|Pass( with help)?: .*) \('why' shows "
                    r"the numbers\)$", hint), hint
    plain.send("why")
    why = plain.until_turn()
    assert why[0] == "why: the options weighed"
    assert sum(1 for line in why if " on average" in line) > 1
    plain.send("bid 7")  # below the opening bid: refused with the rule
    refused = plain.until_turn()
    assert refused[0].startswith("refused: illegal bid 7: the bid must be at least ")
    plain.send(choose(refused[-1]))
    play_turns(plain, None)
    status, err = plain.finish()
    assert status == 0, err
    assert "Traceback" not in err
    text = "\n".join(plain.lines)
    assert re.search(r"^game over: .* win \d+ to -?\d+ after \d+ hands", text, re.M)
    assert re.search(r"^hand 1 over: .* bid \d+ in ", text, re.M)
    assert re.search(r"^trick 12: .* takes? \d+$", text, re.M)
    assert re.search(r"^  You: ", text, re.M)  # meld laid out
    store = GameStore(tmp_path / DB_NAME)
    saved = store.games()
    store.close()
    assert len(saved) == 1 and saved[0].finished
    assert saved[0].record.replay().winner == saved[0].winner


def test_plain_mode_refuses_an_illegal_card_with_the_rule(tmp_path: Path) -> None:
    plain = Plain(tmp_path, "--seed", "4", "--level", "easy")
    for _ in range(200):
        got = plain.until_turn()
        turn = got[-1]
        if not turn.startswith("your turn: you may play"):
            plain.send(choose(turn, got))
            continue
        allowed = re.findall(r"\b[9JQKTA][SHDC]\b", turn)
        plain.send("hand")
        shown = plain.until_turn()
        held = cards_in(shown[0])
        assert shown[0].startswith("your hand: ") and not re.search(r"\b[9JQKTA][SHDC]\b",
                                                                    shown[0])
        illegal = [card for card in held if card not in allowed]
        if illegal:
            break
        plain.send(choose(turn, got))
    else:
        raise AssertionError("never held an illegal card")
    plain.send(f"play {illegal[0]}")
    refused = plain.until_turn()
    assert refused[0].startswith(f"refused: illegal play {pretty(illegal[0])}: ")
    assert any(pretty(card) in refused[0] for card in allowed)
    assert refused[-1] == turn  # nothing changed: the same choices again
    plain.send("play 7S")
    assert plain.until_turn()[0].startswith("refused: bad action 'play 7S'")
    plain.send("quit")
    status, err = plain.finish()
    assert status == 0, err
    assert "stopped: the game is saved (game 1); go on with: pinochle play --plain " \
           "--resume 1" in plain.lines
    # docs/terminal.md "Saved games": history lists the unfinished game, and how to go on
    listing = run_history(tmp_path)
    assert listing.returncode == 0, listing.stderr
    assert re.match(r"\s+1  \S+ \S+  pagat  unfinished; 0 hands  \(.*\)"
                    r"  resume: pinochle play --resume 1$", listing.stdout), listing.stdout
    assert run_history(tmp_path, "--finished").stdout.startswith("no finished games yet")


def _replayed(data: Path) -> Session:
    store = GameStore(data / DB_NAME)
    try:
        return Session.resume(store)
    finally:
        store.close()


def test_killed_mid_trick_then_resumed_plays_on_identically(tmp_path: Path) -> None:
    killed_dir, straight_dir = tmp_path / "killed", tmp_path / "straight"
    args = ("--seed", "21", "--level", "easy,standard,easy")

    # Play until the person is to play with cards already on the table, then SIGKILL.
    first = Plain(killed_dir, *args)
    play_turns(first, lambda lines: lines[-1].startswith("your turn: you may play")
               and _replayed(killed_dir).game.trick != [])
    before_kill = first.lines[-1]
    first.kill()
    saved = _replayed(killed_dir)
    assert saved.game.phase is Phase.PLAY and saved.game.trick and saved.is_human_turn
    actions_at_kill = [str(a) for a in saved.game.actions]

    # Resume: the same position is shown, then play on to the end of the second hand.
    second = Plain(killed_dir, "--resume")
    resumed = second.until_turn()
    assert resumed[-1] == before_kill
    assert any(line.startswith("trick so far: ") for line in resumed)
    second.send(choose(resumed[-1], resumed))
    play_turns(second, lambda lines: any(line.startswith("hand 2 over") for line in lines))
    second.send("quit")
    assert second.finish()[0] == 0
    store = GameStore(killed_dir / DB_NAME)
    games = store.games(finished=None)
    resumed_actions = list(games[0].actions)
    store.close()
    assert len(games) == 1  # resumed the same game, did not start another
    assert resumed_actions[:len(actions_at_kill)] == actions_at_kill

    # The same game played straight through makes the same moves.
    straight = Plain(straight_dir, *args)
    play_turns(straight, lambda lines: any(line.startswith("hand 2 over") for line in lines))
    straight.send("quit")
    assert straight.finish()[0] == 0
    store = GameStore(straight_dir / DB_NAME)
    straight_actions = list(store.games(finished=None)[0].actions)
    store.close()
    assert resumed_actions == straight_actions


COMPACT = re.compile(r"\b[9JQKTA][SHDC]\b")


@pytest.mark.parametrize("rules", ["pagat", "three", "two"])
def test_plain_lines_write_cards_for_people(tmp_path: Path, rules: str) -> None:
    """docs/terminal.md "The plain line mode": every line told (the hand, the auction,
    meld, tricks, refusals, the table) writes cards K♦ 10♣; the compact form KD TC is
    only in what is typed: the ``your turn:`` line and the help."""
    plain = Plain(tmp_path, "--rules", rules, "--seed", "6", "--level", "easy")
    lines = answer_turns(plain, lambda got: choose_any(got), lambda got: sum(
        1 for line in plain.lines if line.startswith("trick ")) >= 2)
    plain.send("show")
    lines = plain.until_turn()
    plain.send("play 7S")
    lines += plain.until_turn()
    plain.send("quit")
    plain.finish()
    told = [line for line in plain.lines if not line.startswith("your turn:")]
    assert any(line.startswith("your hand: ") for line in told)
    assert sum(1 for line in told if line.startswith("trick ")) >= 2
    assert [line for line in told if COMPACT.search(line)] == []
    assert sum(len(cards_in(line)) for line in told) > 20  # cards were named, for people
    turns = [line for line in plain.lines if line.startswith("your turn: you may play")]
    assert turns and all(COMPACT.search(line) for line in turns)  # what to type


def choose_any(lines: list[str]) -> str:
    """:func:`choose` for the four- and three-handed turns; the first meld, else no
    meld, else the first card, for a two-handed one."""
    turn = lines[-1]
    if "no meld" in turn or "dix" in turn:
        return "no meld" if "no meld" in turn else "dix"
    if turn.startswith("your turn: you may play"):
        return turn.removeprefix("your turn: you may play ").split(" or ")[0]
    if "discard" in turn:
        hand = [line for line in plain_hand(lines)]
        return "hand" if not hand else "discard " + " ".join(cards_in(hand[-1])[:3])
    return choose(turn, lines)


def plain_hand(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("your hand: ")]


def test_killed_game_resumes_at_the_full_screen_table(tmp_path: Path) -> None:
    first = Plain(tmp_path, "--seed", "8", "--level", "easy")
    play_turns(first, lambda lines: lines[-1].startswith("your turn: you may play")
               and _replayed(tmp_path).game.trick != [])
    hand_line = next(line for line in reversed(first.lines) if line.startswith("your hand"))
    first.kill()
    store = GameStore(tmp_path / DB_NAME)
    session = Session.resume(store)
    saved = list(session.game.actions)
    held = hand_line.removeprefix("your hand: ")

    async def test() -> None:
        app = TableApp(session, delay=0)
        async with app.run_test(size=(100, 34)) as pilot:
            await pilot.pause()
            screen = app.screen_text()
            assert "◀ your turn" in screen
            assert session.game.actions == saved
            shown = [c.pretty for c in session.game.hand(0).cards()]
            assert " ".join(shown) in re.sub(r" +", " ", screen)
            await pilot.press("enter")  # the cursor starts on a legal card
            await pilot.pause()
            assert len(session.game.actions) > len(saved)

    asyncio.run(test())
    assert list(store.load(session.game_id or 0).actions)[:len(saved)] == [str(a) for a in saved]
    assert len(store.load(session.game_id or 0).actions) > len(saved)
    store.close()
    assert held  # the plain mode had shown the hand before the kill


def test_history_lists_games_and_replays_a_hand(tmp_path: Path) -> None:
    plain = Plain(tmp_path, "--rules", "playingcards", "--seed", "7", "--level", "easy")
    play_turns(plain, None)
    assert plain.finish()[0] == 0

    def history(*args: str) -> subprocess.CompletedProcess[str]:
        return run_history(tmp_path, *args)

    listing = history()
    assert listing.returncode == 0, listing.stderr
    assert re.match(r"\s+1  \S+ \S+  playingcards  (won|lost): us \u2212?\d+, them "
                    r"\u2212?\d+; \d+ hands", listing.stdout), listing.stdout
    assert "resume:" not in listing.stdout and "-" not in listing.stdout.split("  ")[3]
    hands = history("1")
    assert hands.returncode == 0
    assert "hand 1 over:" in hands.stdout
    replay = history("1", "--hand", "2")
    assert replay.returncode == 0, replay.stderr
    steps = replay.stdout.splitlines()
    assert steps[0].startswith("game 1, hand 2, dealer West")
    # every card of the hand, and no card of the next one
    assert sum(1 for line in steps if re.match(r"\s+\d+\. \w+ plays? ", line)) == 48
    assert any(re.match(r"\s+\d+\. \w+ plays? ", line) for line in steps)
    assert any(line.startswith("hand 2 over:") for line in steps)
    bad = history("1", "--hand", "99")
    assert bad.returncode == 2
    assert bad.stderr.startswith("pinochle: error: --hand 99: this game has hands 1 to ")
    assert history("7").stderr == "pinochle: error: no saved game 7\n"


def test_history_says_1_hand(tmp_path: Path) -> None:
    """A game of one hand so far is listed with ``1 hand``, not ``1 hands``."""
    store = GameStore(tmp_path / DB_NAME)
    session = Session.new("pagat", seed=3, levels=["easy"], store=store)
    while not session.game.results:
        if session.is_human_turn:
            session.act(session.game.legal_actions()[0])
        else:
            session.step()
    store.close()
    listing = run_history(tmp_path)
    assert listing.returncode == 0, listing.stderr
    assert "; 1 hand  (" in listing.stdout, listing.stdout


def test_history_with_damaged_games_is_one_line_each(tmp_path: Path) -> None:
    """A saved game damaged outside pinochlekit (docs/terminal.md "Saved games": a
    one-line error naming the game, never a traceback): listed as damaged among the
    others, and refused by name when asked for its hands or one hand."""
    import sqlite3

    store = GameStore(tmp_path / DB_NAME)
    levels = ["you", "easy", "easy", "easy"]
    ids = [store.create("pagat", 1, 0, levels, {}) for _ in range(4)]
    for game_id in ids:
        store.append(game_id, 0, 1, "pass")
    store.append(ids[3], 1, 2, "bid 9")
    store.close()
    db = sqlite3.connect(tmp_path / DB_NAME)
    with db:
        db.execute("UPDATE games SET seats = ? WHERE id = ?",  # five seats: none such
                   (json.dumps(["you", "a", "b", "c", "d"]), ids[1]))
        db.execute("UPDATE games SET scores = 'null' WHERE id = ?", (ids[2],))
    db.close()
    listing = run_history(tmp_path)
    assert listing.returncode == 0, listing.stderr
    lines = listing.stdout.splitlines()
    assert len(lines) == 4 and "resume: pinochle play --resume 1" in lines[-1]
    assert lines[2].startswith("   2  saved game 2 is damaged: bad seats")
    assert lines[1].startswith("   3  saved game 3 is damaged: ")
    for game_id, message in ((2, "saved game 2 is damaged: bad seats"),
                             (4, "saved game 4 cannot be replayed: action 2 ('bid 9')")):
        for args in ([], ["--hand", "1", "--no-pause"]):
            done = run_history(tmp_path, str(game_id), *args)
            assert done.returncode != 0 and done.stdout == ""
            assert done.stderr.startswith(f"pinochle: error: {message}"), done.stderr
            assert len(done.stderr.splitlines()) == 1, done.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["--level", "grandmaster"], "unknown level 'grandmaster'; levels: easy, standard, pro"),
    (["--level", "easy,pro"], "--level: give one level or 3 (West, North, East), not 2"),
    (["--rules", "two", "--level", "easy,pro"], "--level: give one level or 1 (North), not 2"),
    (["--rules", "two", "--west", "easy"], "--west: no West at a 2-handed table"),
    (["--west", "cmd:python bot.py"], "the table plays built-in levels only"),
    (["--rules", "pagat(min_bid=7)"], "min_bid: must be a multiple of bid_step (10), not 7"),
    (["--rules", "three(cards_passed=4)"], "cards_passed: must be 0 with 3 players"),
    (["--rules", "pagat(players=5)"], "players: must be 4 (partnerships), 3 (widow) or 2"),
    (["--resume"], "no unfinished game to resume; start one with 'pinochle play'"),
    (["--resume", "5"], "no saved game 5"),
    (["--seed", "9" * 5000], "--seed: a number of at most 4300 digits, not 5000"),
])
def test_play_refuses_bad_options_in_one_line(tmp_path: Path, args: list[str],
                                              message: str) -> None:
    done = subprocess.run([sys.executable, "-m", "pinochlekit", "play", "--plain", *args],
                          capture_output=True, text=True, env=environment(tmp_path), cwd=ROOT,
                          timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert done.stderr.startswith("pinochle: error: ") and message in done.stderr
    assert len(done.stderr.splitlines()) == 1
    assert done.stdout == ""


@pytest.mark.parametrize(("rules", "listed", "left_out"), [
    ("doubledeck", ["bid 51 | 51", "trump H | H", "play TS | TS"],
     ["pass help", "redeal", "give", "discard", "throw in", "moon", "meld KS QS", "dix"]),
    ("two", ["meld KS QS | KS QS", "dix", "no meld | n"], ["bid ", "trump H", "give", "throw"]),
    ("playingcards", ["bid 21 | 21", "pass | pass help", "redeal", "give AS TS KS "],
     ["discard", "meld KS QS", "moon"]),
])
def test_help_lists_the_commands_of_the_game(tmp_path: Path, rules: str, listed: list[str],
                                             left_out: list[str]) -> None:
    """'help' at the plain table names the commands of its game only (docs/rules.md §3,
    §4, §6), the bid example on the game's own ladder."""
    done = subprocess.run([sys.executable, "-m", "pinochlekit", "play", "--plain", "--rules",
                           rules, "--seed", "3"], input="help\nquit\n", capture_output=True,
                          text=True, env=environment(tmp_path), cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    shown = done.stdout[done.stdout.index("commands:"):done.stdout.index("  quit ")]
    for text in listed:
        assert f"\n  {text}" in shown, text
    for text in left_out:
        assert f"\n  {text}" not in shown, text


@pytest.mark.parametrize("command", ["play", "history"])
def test_play_and_history_have_help(command: str) -> None:
    done = subprocess.run([sys.executable, "-m", "pinochlekit", command, "--help"],
                          capture_output=True, text=True, env=environment(), cwd=ROOT,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"usage: pinochle {command}")
    assert ("--resume" in done.stdout) == (command == "play")
    assert ("--hand" in done.stdout) == (command == "history")


def test_plain_mode_claim_glossary_and_trick_points(tmp_path: Path) -> None:
    """``claim`` refused in words outside the card play (nothing changes), ``glossary``
    explains the table's words, and ``show`` in the play gives the running trick
    points (docs/terminal.md "Claim", "The glossary")."""
    plain = Plain(tmp_path, "--seed", "4", "--level", "easy")
    first = plain.until_turn()
    plain.send("claim")
    refused = plain.until_turn()
    assert refused[0] == "refused: no claim: a claim is for the card play", refused
    assert refused[-1] == first[-1]  # the same choices again
    plain.send("glossary")
    words = plain.until_turn()
    assert "stuck" in words and "not on the board" in words and "(not saved)" in words
    assert any("Everyone else passed, so the dealer" in line for line in words)
    got = first
    for _ in range(200):
        if got[-1].startswith("your turn: you may play"):
            break
        plain.send(choose(got[-1], got))
        got = plain.until_turn()
    plain.send("show")
    shown = plain.until_turn()
    assert any(re.fullmatch(r"trick points so far: You & North \d+, West & East \d+", line)
               for line in shown), shown
    plain.send("quit")
    status, err = plain.finish()
    assert status == 0, err


def test_ctrl_c_says_how_to_go_on(tmp_path: Path) -> None:
    """Ctrl-C (SIGINT) at a turn stops as 'quit' does: the line that says the game is
    saved and how to resume it, exit status 130, no traceback."""
    import signal

    plain = Plain(tmp_path, "--seed", "1", "--level", "easy")
    assert plain.until_turn()[-1].startswith("your turn:")
    plain.proc.send_signal(signal.SIGINT)
    status, err = plain.finish()
    assert status == 130 and "Traceback" not in err, err
    assert plain.lines[-1] == ("interrupted: the game is saved (game 1); go on with: "
                               "pinochle play --plain --resume 1")
