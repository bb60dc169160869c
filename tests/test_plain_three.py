"""The three-handed game in the plain line mode, run for real through stdin and stdout
(``python -m pinochlekit play --plain --rules "three(widow=take, ...)"``): a short game
to its end in which the person wins an auction, sees the widow, discards and plays;
then SIGKILL after the discard, ``--resume`` checked move for move against the same
game played straight through.
"""

from __future__ import annotations

import re
from pathlib import Path

from helpers import Plain, answer_turns, cards_in

from pinochlekit.engine.games import replay
from pinochlekit.tui.store import DB_NAME, GameStore

SHORT = "three(widow=take, target=500)"


class Policy:
    """A fixed policy reading only the ``your turn:`` line: bid the lowest bid once a
    hand (then pass), the first trump, the example discard, the first card listed."""

    def __init__(self) -> None:
        self.bid_in_hand: set[int] = set()
        self.hand = 0

    def choose(self, lines: list[str]) -> str:
        for line in lines:
            if match := re.match(r"hand (\d+), dealer", line):
                self.hand = int(match.group(1))
        options = lines[-1].removeprefix("your turn: you may ").split(", ")
        for option in options:
            if match := re.match(r"bid (\d+)\b", option):
                if self.hand not in self.bid_in_hand or "pass" not in options:
                    self.bid_in_hand.add(self.hand)
                    return match.group(1)  # the bare number is a bid
                return "pass"
            if match := re.match(r"trump (\w)", option):
                return match.group(1)
            if match := re.match(r"discard (\d) cards", option):  # the example is not
                hand = [line for line in lines if line.startswith("your hand: ")]  # held
                if not hand:
                    return "hand"
                cards = cards_in(hand[-1])
                return f"discard {' '.join(cards[:int(match.group(1))])}"
            if match := re.match(r"play (\w+)", option):
                return match.group(1)
        if "pass" in options:
            return "pass"
        raise AssertionError(f"no choice in {lines[-1]!r}")


def play_three(plain: Plain, stop: object = None, limit: int = 3000) -> list[str]:
    """Answer every turn with a fresh :class:`Policy` until ``stop(lines)`` or the end."""
    return answer_turns(plain, Policy().choose, stop, limit)


def test_three_handed_plain_game_to_the_end(tmp_path: Path) -> None:
    plain = Plain(tmp_path, "--rules", SHORT, "--seed", "6", "--level", "easy")
    play_three(plain)
    status, err = plain.finish()
    assert status == 0, err
    assert "Traceback" not in err
    text = "\n".join(plain.lines)
    assert plain.lines[0].startswith(f"pinochle: game 1, rules {SHORT}, seed 6; you sit "
                                     f"South with West (easy), East (easy)")
    assert re.search(r"^your turn: you may discard 3 cards \(e\.g\. discard 9S JH QD\)$",
                     text, re.M)
    assert re.search(r"^the widow is turned up: \S+ \S+ \S+; You take it$", text, re.M)
    assert re.search(r"^the widow is turned up: \S+ \S+ \S+; (West|East) takes it$", text,
                     re.M)
    assert re.search(r"^You discard 3 cards", text, re.M)
    assert re.search(r"^game over: ", text, re.M)
    store = GameStore(tmp_path / DB_NAME)
    saved = store.games()
    store.close()
    assert len(saved) == 1 and saved[0].finished
    game = replay(saved[0].record)
    assert game.winner == saved[0].winner and list(game.scores) == list(saved[0].scores)
    assert max(game.scores) >= 500
    assert any(r.declarer == 0 and len(r.discards) == 3 for r in game.results)


def test_three_handed_killed_after_the_discard_resumes_identically(tmp_path: Path) -> None:
    killed_dir, straight_dir = tmp_path / "killed", tmp_path / "straight"
    args = ("--rules", SHORT, "--seed", "12", "--level", "easy")

    def after_the_discard(lines: list[str]) -> bool:
        return any(line.startswith("You discard") for line in lines)

    def hand_over(lines: list[str]) -> bool:
        return any(line.startswith("hand 1 over") for line in lines)

    first = Plain(killed_dir, *args)
    lines = play_three(first, after_the_discard)
    assert lines[-1].startswith("your turn: you may play")
    before_kill = first.lines[-1]
    first.kill()
    store = GameStore(killed_dir / DB_NAME)
    at_kill = list(store.games(finished=None)[0].actions)
    store.close()
    assert any(text.startswith("discard ") for text in at_kill)

    second = Plain(killed_dir, "--resume")
    resumed = second.until_turn()
    assert resumed[-1] == before_kill
    assert any(line.startswith("widow: ") for line in resumed)
    second.send(Policy().choose(resumed))
    play_three(second, hand_over)
    second.send("quit")
    assert second.finish()[0] == 0
    store = GameStore(killed_dir / DB_NAME)
    resumed_actions = list(store.games(finished=None)[0].actions)
    store.close()
    assert resumed_actions[:len(at_kill)] == at_kill

    straight = Plain(straight_dir, *args)
    play_three(straight, hand_over)
    straight.send("quit")
    assert straight.finish()[0] == 0
    store = GameStore(straight_dir / DB_NAME)
    straight_actions = list(store.games(finished=None)[0].actions)
    store.close()
    assert resumed_actions == straight_actions
