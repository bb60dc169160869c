#!/usr/bin/env python3
"""A small external program for the double-deck protocol test (docs/protocol.md).

It reads the 20-card hand with its copies, checks that it holds as many cards as
``hand_sizes`` says, and answers the lowest bid, the suit it holds most of, and
otherwise the first legal action. With an argument it logs every line it reads
and writes to that file (the example exchange of docs/protocol.md is one).
"""

from __future__ import annotations

import json
import sys


def choose(view: dict[str, object]) -> str:
    """The action, as text, for the seat to act."""
    legal = [str(a) for a in view["legal_actions"]]  # type: ignore[attr-defined]
    hand = str(view["hand"]).split()
    sizes = view["hand_sizes"]
    assert isinstance(sizes, list)
    if len(hand) != sizes[int(str(view["seat"]))]:
        raise SystemExit(f"double_protocol_bot: {len(hand)} cards, not {sizes}")
    if view["phase"] == "auction":
        bids = [a for a in legal if a.startswith("bid ")]
        if bids and int(bids[0].split()[1]) <= 52:
            return bids[0]
        return "pass" if "pass" in legal else bids[0]
    if view["phase"] == "trump":
        longest = max("SHDC", key=lambda s: (sum(c[-1] == s for c in hand), -"SHDC".index(s)))
        return f"trump {longest}"
    return legal[0]


def main() -> int:
    """Answer every ``act`` until ``bye``."""
    log = open(sys.argv[1], "a", encoding="utf-8") if len(sys.argv) > 1 else None  # noqa: SIM115
    for line in sys.stdin:
        if log:
            log.write("> " + line)
        message = json.loads(line)
        if message.get("type") == "act":
            answer = json.dumps({"action": choose(message["view"])})
            if log:
                log.write("< " + answer + "\n")
            print(answer, flush=True)
        elif message.get("type") == "bye":
            break
    if log:
        log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
