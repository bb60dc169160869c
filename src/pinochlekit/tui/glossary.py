"""The table's jargon in a few words, for the terminal's glossary (key ``g``).

The same terms and the same words as the web table's glossary
(``web/static/js/glossary.js``; ``tests/test_tui_glossary.py`` checks that the two
agree), plus the few that only the terminal writes ("stuck at", "the hand is thrown
in"). :func:`terms_in` finds the terms a text uses, so that a dialog can say which of
its words the glossary explains.

>>> terms_in("made: meld 200 + counters 160 = 360 ≥ 350; them: meld 40 (not saved)")
['counters', 'meld', 'made', '(not saved)']
"""

from __future__ import annotations

import re
import textwrap

__all__ = ["GLOSSARY", "glossary_text", "terms_in"]

#: Term → what it means, in players' words (the web glossary's words).
GLOSSARY: dict[str, str] = {
    "counters": "The points taken in tricks: each ace, ten and king is worth 10, and the "
                "last trick 10 more (under the table's trick-point rule).",
    "meld": "Combinations in hand (marriages, runs, pinochles, arounds) shown after trump "
            "is named; they score only with the points taken in tricks.",
    "made": "The declaring side's meld plus its counters reached the contract: it scores "
            "both.",
    "set": "The declaring side fell short of its contract: it loses the contract instead "
           "of scoring (or the shortfall, under some rules).",
    "not on the board": "The declaring side's meld plus every counter still to be won "
                        "cannot reach the contract: the hand is thrown in at once and set, "
                        "without playing a card.",
    "pass with help": "A pass that tells your partner your hand holds help for them (an "
                      "ace or meld); it is a pass all the same and everyone sees it in "
                      "the auction.",
    "(not saved)": "The defenders' meld counts only if they take at least one trick point "
                   "(a meld of only the dix excepted); without one it is 'not saved' and "
                   "scores nothing.",
    "(too few counters)": "Double deck: a side's meld counts only if it takes counters in "
                          "tricks (at least one, or 20 under the table's rules); without "
                          "them it is 'not saved' and scores nothing, the declaring side's "
                          "too.",
    "stuck": "Everyone else passed, so the dealer must take the contract at the minimum "
             "bid.",
    "throw in": "The declarer concedes after seeing the meld, before the first card: the "
                "declaring side is set, no cards are played, and the other side scores "
                "its meld.",
    "shoot the moon": "The declarer plays alone and must take every trick: made, it scores "
                      "1,000 and wins the game; any trick lost and it is set.",
    "widow": "Three-handed: three cards dealt face up to the middle after the auction; "
             "they count (or, taken, are played) for the declarer.",
    "dix": "The nine of trump: worth 10 in meld; two-handed it may be exchanged for the "
           "turned-up card.",
    "nines redeal": "Where the rules allow it, a player holding five (or six) nines may "
                    "call for a new deal at their first call instead of bidding.",
    "trick points": "The running count of counters each side has taken so far this hand.",
}

#: How each term shows in the table's text, where that differs from the term.
_WRITTEN = {"throw in": r"throws? in|thrown in", "shoot the moon": r"shoots? the moon",
            "stuck": r"stuck", "set": r"set",
            # docs/rules.md §6: the double deck's reason is its own term
            "(not saved)": r"\(?not saved\)?(?!: too few counters)",
            "(too few counters)": r"too few counters",
            "pass with help": r"pass(?:es)? with help"}


def terms_in(text: str) -> list[str]:
    """The glossary's terms that ``text`` uses, in the glossary's order."""
    found = []
    for term in GLOSSARY:
        pattern = _WRITTEN.get(term, re.escape(term))
        if re.search(rf"(?<![\w-])(?:{pattern})(?![\w-])", text, re.IGNORECASE):
            found.append(term)
    return found


def glossary_text(width: int = 72) -> str:
    """The glossary as lines for a dialog ``width`` columns wide: each term, then its
    meaning wrapped and indented."""
    lines = []
    for term, meaning in GLOSSARY.items():
        lines.append(term)
        lines += textwrap.wrap(meaning, width, initial_indent="    ",
                               subsequent_indent="    ")
    return "\n".join(lines)
