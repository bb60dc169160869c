#!/usr/bin/env python3
"""A pinochle player program that plays a random legal action (standard library only).

It speaks the line-based JSON protocol of docs/protocol.md on stdin/stdout:

    pinochle match simple "cmd:python examples/random_bot.py" --deals 20

In the auction it only passes or makes the lowest legal bid (a uniformly random
bid from the hundreds allowed would bid every hand off the board); every
other decision is uniform over the legal actions. Log to stderr, never stdout.
"""

from __future__ import annotations

import json
import random
import sys


def choose(view: dict[str, object], rng: random.Random) -> str:
    """A random legal action (as text) for the seat to act in ``view``."""
    legal = [str(a) for a in view["legal_actions"]]  # type: ignore[attr-defined]
    if view["phase"] == "auction":
        bids = [a for a in legal if a.startswith("bid ")]
        calls = [a for a in legal if not a.startswith("bid ")]
        if bids:
            calls.append(min(bids, key=lambda a: int(a.split()[1])))
        legal = calls
    return rng.choice(legal)


def main() -> int:
    """Answer every ``act`` until ``bye`` or the end of input."""
    rng = random.Random()
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            rng.seed(str(message["seed"]))
            print(f"random_bot: seat {message['seat']}, rules {message['rules']}",
                  file=sys.stderr)
        elif kind == "act":
            print(json.dumps({"action": choose(message["view"], rng)}), flush=True)
        elif kind == "bye":
            break
        # "result" and any message type this bot does not know: nothing to answer.
    return 0


if __name__ == "__main__":
    sys.exit(main())
