"""A finished hand explained to people: what the terminal says when a deal ends.

The single deck and the double deck (docs/rules.md §1.11, §3, §6): the contract,
the declaring side's meld and counters against it, made or set, a meld lost or not
saved, and each side's score; the two-handed game (§4): each player's meld and trick
points. Seats are named by the caller (``name``: ``You``, ``North``; ``team_name``:
``You & North``), so the lines read in the interface's own words; nothing here knows
of a screen.

>>> from pinochlekit.engine.rules import Rules
>>> from pinochlekit.engine.views import HandResult, Outcome
>>> result = HandResult(3, dealer=1, outcome=Outcome.REDEAL, caller=2)
>>> explain(result, Rules(), "ABCD".__getitem__, "AB".__getitem__)
['hand 3: C called a nines redeal']
"""

from __future__ import annotations

from collections.abc import Callable

from pinochlekit.engine.rules import Rules
from pinochlekit.engine.two.views import TwoHandResult
from pinochlekit.engine.views import HandResult, Outcome

__all__ = ["Namer", "explain", "explain_result", "explain_two_result"]

#: Names a seat (``You``, ``North``) or a team (``You & North``) by its number.
Namer = Callable[[int], str]


def _unsaved(rules: Rules) -> str:
    """Why a defending side's meld did not count: it took no trick point
    (docs/rules.md §1.11), or too few counters in the double deck (§6)."""
    return "too few counters" if rules.deck == "double" else "no trick points"


def explain_result(result: HandResult, rules: Rules, name: Namer,
                   team_name: Namer) -> list[str]:
    """A finished deal of a game with an auction (four- or three-handed, or the
    double deck, played under ``rules``): contract, meld, counters, made or set,
    saved meld, and the score of each team (or player, three-handed)."""
    if result.outcome is Outcome.PASSED_OUT:
        return [f"hand {result.number}: everyone passed; the deal passes on"]
    if result.outcome is Outcome.REDEAL:
        return [f"hand {result.number}: {name(result.caller or 0)} called a nines redeal"]
    assert result.declarer is not None
    us = result.declaring_team
    assert us is not None
    trump = result.trump.words if result.trump is not None else "no trump"
    lines = [f"hand {result.number} over: {name(result.declarer)} bid {result.contract} in "
             f"{trump}: {result.outcome}"]
    took = result.meld_points[us] + result.trick_points[us]
    if result.outcome is Outcome.MADE:
        lines.append(f"  made: meld {result.meld_points[us]} + counters "
                     f"{result.trick_points[us]} = {took}, at least {result.contract}")
    elif result.outcome is Outcome.SET:
        lines.append(f"  set: meld {result.meld_points[us]} + counters "
                     f"{result.trick_points[us]} = {took}, short of {result.contract}")
    elif result.outcome is Outcome.THROWN_IN:
        lines.append("  the declarer threw in the hand after meld: set, no cards played")
    elif result.outcome is Outcome.NOT_ON_BOARD:
        lines.append(f"  meld {result.meld_points[us]} + every counter could not reach "
                     f"{result.contract}: set without play")
    for team in range(len(result.scores)):
        note = ""
        if result.meld_points[team] and not result.meld_saved[team]:
            # lost with the contract; else not saved (a declaring side that made its
            # bid too, in the double deck, §6: the web says the same, glossary.js)
            note = (" (meld lost: set)" if team == us and result.outcome is not Outcome.MADE
                    else f" (meld not saved: {_unsaved(rules)})")
        lines.append(f"  {team_name(team)}: meld {result.meld_points[team]}{note}, counters "
                     f"{result.trick_points[team]}, {result.scores[team]:+d} → "
                     f"{result.totals[team]}")
    return lines


def explain_two_result(result: TwoHandResult, name: Namer) -> list[str]:
    """A finished two-handed deal: each player's meld and trick points, and totals."""
    trump = result.trump
    head = f"hand {result.number} over" + (f" (trump {trump.words})"
                                           if trump is not None else "")
    lines = [head + ": meld + tricks each"]  # docs/rules.md §4: no contract
    for seat in range(len(result.scores)):
        lines.append(f"  {name(seat)}: meld {result.meld_points[seat]} + tricks "
                     f"{result.trick_points[seat]} = {result.scores[seat]:+d} → "
                     f"{result.totals[seat]}")
    last = result.tricks[-1] if result.tricks else None
    if last is not None:
        lines.append(f"  the last trick (+10) went to {name(last.winner)}")
    if result.target:
        lines.append(f"  game: {result.target}")
    return lines


def explain(result: HandResult, rules: Rules, name: Namer, team_name: Namer) -> list[str]:
    """A finished deal of any game, told as :func:`explain_two_result` (the two-handed
    game) or :func:`explain_result` (every game with an auction) tell it."""
    if isinstance(result, TwoHandResult):
        return explain_two_result(result, name)
    return explain_result(result, rules, name, team_name)
