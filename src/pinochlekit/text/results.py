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

from collections.abc import Callable, Sequence

from pinochlekit.engine.rules import Rules
from pinochlekit.engine.two.views import TwoHandResult
from pinochlekit.engine.views import HandResult, Outcome

__all__ = ["Namer", "explain", "explain_result", "explain_two_result", "winner_note"]

#: Names a seat (``You``, ``North``) or a team (``You & North``) by its number.
Namer = Callable[[int], str]


def winner_note(scores: Sequence[int], winner: int, target: int,
                results: Sequence[object] = ()) -> str:
    """Why the side that won the game has no more points than another: the last
    hand (the last of ``results``) was a moon made, which wins the game
    (docs/rules.md §2), or more than one side reached the target in that hand and
    the declaring side wins (§1.12, §3, §6). Empty when the winner has the most
    points.

    >>> winner_note([504, 553], 0, 500)
    'both sides reached 500 in the last hand: the declaring side wins'
    >>> winner_note([553, 504], 0, 500)
    ''
    """
    if all(score < scores[winner] for side, score in enumerate(scores) if side != winner):
        return ""
    last = results[-1] if results else None
    if isinstance(last, HandResult) and last.outcome is Outcome.MOON:
        return "the declaring side shot the moon, which wins the game"
    if len(scores) == 2:
        return f"both sides reached {target} in the last hand: the declaring side wins"
    return f"more than one player reached {target} in the last hand: the declarer wins"


def _unsaved(rules: Rules) -> str:
    """Why a defending side's meld did not count: it took no trick point
    (docs/rules.md §1.11), or too few counters in the double deck (§6)."""
    return "too few counters" if rules.deck == "double" else "no trick points"


def _meld_note(result: HandResult, rules: Rules, side: int) -> str:
    """Why ``side``'s meld did not count, or "" (the web says the same, glossary.js
    ``unsavedMeld``): lost with the contract by a set declaring side, or not saved for
    want of a trick point (docs/rules.md §1.11) or, in the double deck, of counters
    (§6, the declaring side's too; one saved by its counters is still lost with the
    contract unless the rules keep it, docs/double-deck.md "Set")."""
    if not result.meld_points[side]:
        return ""
    set_side = side == result.declaring_team and result.outcome is not Outcome.MADE
    if rules.deck == "double":
        if not result.meld_saved[side]:
            return f" (meld not saved: {_unsaved(rules)})"
        lost = set_side and (rules.set_forfeits_meld or rules.set_penalty == "chips")
        return " (meld lost: set)" if lost else ""
    if result.meld_saved[side]:
        return ""
    return " (meld lost: set)" if set_side else f" (meld not saved: {_unsaved(rules)})"


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
    meld, counters = result.meld_points[us], result.trick_points[us]
    if result.outcome in (Outcome.MADE, Outcome.SET):
        # §6: in the double deck the declaring side's meld counts towards its bid only
        # when its counters save it; in the single deck it always does (§1.11)
        took = (f"meld {meld} + counters {counters} = {meld + counters}"
                if rules.deck != "double" or result.meld_saved[us] or not meld
                else f"counters {counters} (meld {meld} not saved: {_unsaved(rules)})")
        lines.append(f"  made: {took}, at least {result.contract}"
                     if result.outcome is Outcome.MADE
                     else f"  set: {took}, short of {result.contract}")
    elif result.outcome is Outcome.THROWN_IN:
        lines.append("  the declarer threw in the hand after meld: set, no cards played")
    elif result.outcome is Outcome.NOT_ON_BOARD:
        lines.append(f"  meld {result.meld_points[us]} + every counter could not reach "
                     f"{result.contract}: set without play")
    for team in range(len(result.scores)):
        note = _meld_note(result, rules, team)
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
