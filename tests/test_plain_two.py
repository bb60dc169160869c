"""The two-handed game in the plain line mode, run for real through stdin and stdout
(``python -m pinochlekit play --plain --rules two``): a short game to its end with
melds laid and the dix counted, refusals, SIGKILL after a meld turn then
``--resume`` checked move for move against the same game played straight
through, and ``pinochle history`` of a two-handed game.
"""

from __future__ import annotations

import re
from pathlib import Path

from helpers import Plain, answer_turns, history

from pinochlekit.engine.games import replay
from pinochlekit.engine.two.views import TwoHandResult
from pinochlekit.tui.session import Session
from pinochlekit.tui.store import DB_NAME, GameStore

SHORT = "two(target=300)"  # a game of two or three hands


def choose_two(turn: str) -> str:
    """A fixed policy reading only the ``your turn:`` line: count the dix, else lay
    the first meld listed, else no meld; in the tricks, the first card listed
    (written as the bare card, the shortcut)."""
    options = turn.removeprefix("your turn: you may ").split(", ")
    if "dix" in options:
        return "dix"
    for option in options:
        if option.startswith("meld "):
            return option.split(" (")[0]
    if "no meld" in options:
        return "no meld"
    if match := re.match(r"play (\w+)", options[0]):
        return match.group(1)
    raise AssertionError(f"no choice in {turn!r}")


def play_two(plain: Plain, stop: object = None, limit: int = 2000) -> list[str]:
    """Answer every turn with :func:`choose_two` until ``stop(lines)`` or the end."""
    return answer_turns(plain, lambda lines: choose_two(lines[-1]), stop, limit)


def _saved(data: Path) -> Session:
    store = GameStore(data / DB_NAME)
    try:
        return Session.resume(store)
    finally:
        store.close()


def test_two_handed_plain_game_to_the_end(tmp_path: Path) -> None:
    plain = Plain(tmp_path, "--rules", SHORT, "--seed", "4", "--level", "easy")
    first = plain.until_turn()
    assert first[0].startswith("pinochle: game 1, rules two(target=300), seed 4; you sit "
                               "South with North (easy)")
    assert re.search(r"^trump . \w+ \(turned up \S+\); stock 24 cards; early tricks$",
                     "\n".join(first), re.M)
    assert any(line.startswith("  North: meld ") for line in first)
    plain.send("meld KS QS")  # not a meld turn: refused, nothing changes
    refused = plain.until_turn()
    assert refused[0].startswith("refused: cannot meld K♠ Q♠: you must play a card")
    assert refused[-1] == first[-1]
    plain.send(choose_two(refused[-1]))
    play_two(plain)
    status, err = plain.finish()
    assert status == 0, err
    assert "Traceback" not in err
    text = "\n".join(plain.lines)
    assert re.search(r"^your turn: you may meld \w\w( \w\w)+ \([a-z ]+ \d+\)", text, re.M)
    assert re.search(r"^You lay [a-z ]+ (\S+ )+\(\+\d+\)$", text, re.M)
    assert re.search(r"^you draw \S+; the stock has \d+ cards$", text, re.M)
    assert re.search(r"^the stock is gone: ", text, re.M)
    assert re.search(r"^trick 24: .* takes? \d+$", text, re.M)
    assert re.search(r"^hand 1 over \(trump .*\): meld \+ tricks each", text, re.M)
    assert re.search(r"^  You: meld \d+ \+ tricks \d+ = \+\d+ → \d+$", text, re.M)
    assert re.search(r"^game over: (You win|North wins) \d+ to \d+ after \d+ hands", text, re.M)
    store = GameStore(tmp_path / DB_NAME)
    saved = store.games()
    store.close()
    assert len(saved) == 1 and saved[0].finished
    game = replay(saved[0].record)
    assert game.winner == saved[0].winner and list(game.scores) == list(saved[0].scores)
    events = [e for r in game.results if isinstance(r, TwoHandResult) for e in r.events]
    assert any(e.seat == 0 for e in events)  # the person melded


def test_two_handed_killed_after_a_meld_turn_resumes_identically(tmp_path: Path) -> None:
    killed_dir, straight_dir = tmp_path / "killed", tmp_path / "straight"
    args = ("--rules", SHORT, "--seed", "11", "--level", "standard")

    def after_a_meld(lines: list[str]) -> bool:
        return lines[-1].startswith("your turn: you may play") and \
            any(re.match(r"(You|North) (lays?|counts?|shows?) ", line) for line in lines)

    first = Plain(killed_dir, *args)
    play_two(first, after_a_meld)
    before_kill = first.lines[-1]
    first.kill()
    saved = _saved(killed_dir)
    at_kill = [str(a) for a in saved.game.actions]
    assert any(text.startswith(("meld", "dix")) for text in at_kill)

    second = Plain(killed_dir, "--resume")
    resumed = second.until_turn()
    assert resumed[-1] == before_kill
    assert any(line.startswith("trump ") for line in resumed)
    second.send(choose_two(resumed[-1]))
    play_two(second, lambda lines: any(line.startswith("hand 1 over") for line in lines))
    second.send("quit")
    assert second.finish()[0] == 0
    store = GameStore(killed_dir / DB_NAME)
    games = store.games(finished=None)
    store.close()
    assert len(games) == 1
    resumed_actions = list(games[0].actions)
    assert resumed_actions[:len(at_kill)] == at_kill

    straight = Plain(straight_dir, *args)
    play_two(straight, lambda lines: any(line.startswith("hand 1 over") for line in lines))
    straight.send("quit")
    assert straight.finish()[0] == 0
    store = GameStore(straight_dir / DB_NAME)
    straight_actions = list(store.games(finished=None)[0].actions)
    store.close()
    assert resumed_actions == straight_actions


def test_two_handed_history(tmp_path: Path) -> None:
    plain = Plain(tmp_path, "--rules", SHORT, "--seed", "4", "--level", "easy")
    play_two(plain)
    assert plain.finish()[0] == 0
    listing = history(tmp_path)
    assert listing.returncode == 0, listing.stderr
    assert re.match(r"\s+1  \S+ \S+  two\(target=300\)  (won|lost): you \u2212?\d+, "
                    r"North \u2212?\d+; \d+ hands  "
                    r"\(North easy\)", listing.stdout), listing.stdout
    steps = history(tmp_path, "1", "--hand", "1").stdout.splitlines()
    assert steps[0].startswith("game 1, hand 1, dealer You")
    assert sum(1 for line in steps if re.match(r"\s+\d+\. \w+ plays? ", line)) == 48
    assert any(re.match(r"\s+\d+\. (You|North) lays? (no meld|[a-z ]+ \S+)", line)
               for line in steps)
    assert any(line.startswith("hand 1 over") for line in steps)


def test_two_handed_words_that_are_no_cards_are_refused_as_actions(tmp_path: Path) -> None:
    """A verb typed wrongly is refused naming the two-handed actions, never read as a
    card (``bad card 'pass'``), in the tricks and in a meld turn."""
    plain = Plain(tmp_path, "--rules", SHORT, "--seed", "4", "--level", "easy")
    first = plain.until_turn()
    for typed in ("pass", "play", "meld"):
        plain.send(typed)
        refused = plain.until_turn()
        assert refused[0].startswith(f"refused: bad action '{typed}': the two-handed game "
                                     f"takes 'play CARD'"), refused[0]
        assert refused[-1] == first[-1]
    plain.send(choose_two(first[-1]))
    turn = play_two(plain, stop=lambda lines: " (" in lines[-1] and "meld " in lines[-1])
    option = turn[-1].removeprefix("your turn: you may ").split(", ")[0]
    assert option.startswith("meld ") and option.endswith(")")
    plain.send(option)  # the whole option, its points in brackets too
    refused = plain.until_turn()
    assert refused[0].startswith("refused: bad action 'meld ") and "': bad card '(" in refused[0]
    assert refused[-1] == turn[-1]
    plain.send(option.split(" (")[0])  # the meld alone is laid
    assert plain.until_turn()[0].startswith("You lay ")
    plain.kill()
