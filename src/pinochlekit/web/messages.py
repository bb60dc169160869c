"""The JSON the server sends: a seat's view with compact legal actions, hand summaries.

A seat receives :meth:`pinochlekit.View.to_dict` (its own view only; a
spectator the public view) with ``legal_actions`` replaced by a compact
``legal`` object, because the auction allows hundreds of bids and the passing
phases hundreds of card sets (the server checks every action anyway):

- ``actions``: the short list of action texts (``pass``, ``trump S``,
  ``play TS``, ``throw in``, …);
- ``bid``: ``{"min", "max", "step"}`` when a bid is allowed, else ``null``;
- ``pass_cards``: how many cards to give or return in the passing phases, or
  to discard (three-handed, widow taken: the phase says which).

In the double deck (docs/rules.md §6) bids do not rise by one step: ``bid`` also
carries ``ladder``, each ``[from, step]`` of the rise (``[[50, 1], [60, 5]]`` by
default: by 1 below 60, by 5 from 60), and the view carries ``deck`` (``double``)
and ``tricks_total`` (20).

What the last action caused comes as ``events``, from the engine's own account
(:meth:`pinochlekit.Game.step`), only what every seat may know: ``{"kind": "trick",
"number", "cards": [[seat, card], ...], "winner", "points"}`` for a trick taken,
``{"kind": "hand", "number"}`` for a hand scored (its summary is in ``hands``),
``{"kind": "game", "winner"}`` for the game won. The page holds the trick and shows
the summary from them, never by comparing two states.

Two-handed views (docs/rules.md §4) also carry ``meld_options``: each meld the
winner of a trick may lay now, with its name and points, so the page can
label its buttons (``{"action": "meld KS QS", "name": "royal marriage", ...}``).

>>> from pinochlekit import Game
>>> game = Game.new("pagat", seed=1, dealer=0)
>>> legal = compact_legal(game.view(1))
>>> legal["actions"], legal["bid"]
(['pass', 'pass help'], {'min': 250, 'max': 3850, 'step': 10})
>>> compact_legal(game.view(2))
{'actions': [], 'bid': None, 'pass_cards': None}
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Sequence
from typing import Any

from pinochlekit.engine.actions import Bid, Discard, Give, Return
from pinochlekit.engine.deals import deal_seed
from pinochlekit.engine.events import Event, GameWon, HandScored, TrickWon
from pinochlekit.engine.meld import meld_dict, meld_values
from pinochlekit.engine.two.actions import LayMeld
from pinochlekit.engine.two.game import combinations
from pinochlekit.engine.two.views import TwoHandedView, TwoHandResult
from pinochlekit.engine.views import HandResult, View
from pinochlekit.web.dealing import dealt_cards

__all__ = ["bid_ladder_steps", "brief", "commitment", "compact_legal", "hand_summary", "meld_dict",
           "public_events", "view_dict"]


def commitment(seed: str) -> str:
    """The SHA-256 (hex) of a deal seed: shown before the hand, checked after it.

    >>> commitment("abc")[:16]
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(seed.encode()).hexdigest()


def compact_legal(view: View) -> dict[str, Any]:
    """The legal actions of ``view`` in a few fields (see the module docstring)."""
    actions: list[str] = []
    bids: list[int] = []
    pass_cards = None
    for action in view.legal_actions:
        kind = type(action)
        if kind is Bid:
            bids.append(action.amount)  # type: ignore[attr-defined]
        elif kind is Give or kind is Return or kind is Discard:
            pass_cards = len(action.cards)  # type: ignore[attr-defined]
        else:
            actions.append(str(action))
    bid: dict[str, Any] | None = None
    if bids:
        bid = {"min": bids[0], "max": bids[-1], "step": view.rules.step}
        if view.rules.deck == "double":  # docs/rules.md §6: the ladder's steps change
            bid["ladder"] = bid_ladder_steps(bids)
            bid["step"] = bid["ladder"][0][1]
    return {"actions": actions, "bid": bid, "pass_cards": pass_cards}


def bid_ladder_steps(bids: list[int]) -> list[list[int]]:
    """The rises of a list of legal bids, lowest first: ``[from, step]`` wherever the
    step changes (one bid alone: a step of 1).

    >>> bid_ladder_steps([55, 56, 57, 58, 59, 60, 65, 70])
    [[55, 1], [60, 5]]
    """
    steps: list[list[int]] = []
    for low, high in itertools.pairwise(bids):
        if not steps or high - low != steps[-1][1]:
            steps.append([low, high - low])
    return steps or [[bids[0], 1]]


def public_events(events: Sequence[Event]) -> list[dict[str, Any]]:
    """The events of an action that every seat may know, as JSON (the module docstring):
    a trick taken, a hand scored, the game won. The others are in the view already
    (a bid, a card, trump) or are for some seats only (docs/rules.md §1 Passing, §3
    the discard, §4 the draw), and are not sent.

    >>> from pinochlekit.engine.games import new_game
    >>> from pinochlekit.engine.actions import parse_action
    >>> game = new_game("pagat", seed=1, dealer=3)
    >>> public_events(game.step(parse_action("bid 250")))
    []
    """
    out: list[dict[str, Any]] = []
    for event in events:
        if isinstance(event, TrickWon):
            trick = event.trick
            out.append({"kind": "trick", "number": event.number, "winner": trick.winner,
                        "points": trick.points,
                        "cards": [[seat, str(card)] for seat, card
                                  in zip(trick.seats, trick.cards, strict=True)]})
        elif isinstance(event, HandScored):
            out.append({"kind": "hand", "number": event.result.number})
        elif isinstance(event, GameWon):
            out.append({"kind": "game", "winner": event.winner})
    return out


def view_dict(view: View) -> dict[str, Any]:
    """A seat's (or spectator's) view as JSON, legal actions in compact form."""
    data = view.to_dict()
    del data["legal_actions"]
    data["legal"] = compact_legal(view)
    data["team_of_seat"] = [view.rules.team_of(s) for s in range(view.rules.players)]
    data["game_target"] = view.rules.game_target
    data["players"] = view.rules.players
    data["deck"] = view.rules.deck
    data["tricks_total"] = view.rules.tricks
    if isinstance(view, TwoHandedView):
        data["game_target"] = view.target  # docs/rules.md §4: it rises when both reach it
        data["meld_options"] = meld_options(view)
    return data


def meld_options(view: TwoHandedView) -> list[dict[str, Any]]:
    """The melds the seat to act may lay now (two-handed, docs/rules.md §4), named and valued.

    >>> from pinochlekit.engine.games import new_game
    >>> meld_options(new_game("two", seed=1).view(0))
    []
    """
    lays = [a for a in view.legal_actions if isinstance(a, LayMeld)]
    if not lays or view.trump is None:
        return []
    values = meld_values(view.rules)
    names = {tuple(sorted(cards)): name for name, _, cards in combinations(view.trump)}
    out = []
    for lay in lays:
        name = names[tuple(sorted(lay.cards))]
        out.append({"action": str(lay), "name": name,
                    "cards": " ".join(map(str, lay.cards)), "points": values[name]})
    return out


#: The fields of a hand summary sent with every state (the score pad and the
#: fairness check); the full summary (melds, the hands dealt) comes once.
BRIEF = ("number", "dealer", "outcome", "declarer", "contract", "trump", "meld_points",
         "trick_points", "meld_saved", "scores", "totals", "caller", "deal_seed",
         "commitment", "players", "deck")


def brief(summary: dict[str, Any]) -> dict[str, Any]:
    """The fields of a hand summary that every state message carries."""
    return {key: summary[key] for key in BRIEF}


def hand_summary(game_seed: str, index: int, result: HandResult,
                 players: int = 4, deck: str = "single") -> dict[str, Any]:
    """A finished hand for everyone: the result, itemized meld, and the revealed
    deal seed with its commitment and the hands it deals (docs/rules.md §1 Deal).

    Three-handed it adds the widow and the declarer's discards (docs/rules.md §3: both
    count for the declarer and are public once the hand is over); two-handed the
    turned-up card, the stock in drawing order and every meld in the order laid
    (docs/rules.md §4). In the double deck (``deck="double"``) the hands dealt are
    four of 20 cards (docs/rules.md §6).
    """
    seed = deal_seed(game_seed, index)
    dealt = dealt_cards(seed, result.dealer, players, deck)
    extra: dict[str, Any] = {}
    if players == 3:
        extra = {"widow": " ".join(map(str, result.widow)),
                 "discards": " ".join(map(str, result.discards))}
    elif isinstance(result, TwoHandResult):
        extra = {"events": [{"seat": e.seat, "name": e.name, "cards": " ".join(map(str, e.cards)),
                             "points": e.points} for e in result.events]}
    return {
        "number": result.number, "dealer": result.dealer, "outcome": result.outcome.value,
        "declarer": result.declarer, "contract": result.contract,
        "trump": None if result.trump is None else result.trump.letter,
        "melds": [meld_dict(m) for m in result.melds],
        "meld_points": list(result.meld_points), "trick_points": list(result.trick_points),
        "meld_saved": list(result.meld_saved), "scores": list(result.scores),
        "totals": list(result.totals), "caller": result.caller,
        "tricks": len(result.tricks),
        "deal_seed": seed, "commitment": commitment(seed),
        "dealt": list(dealt.hands), "rest": dealt.rest, "players": players, "deck": deck,
        **extra,
    }
