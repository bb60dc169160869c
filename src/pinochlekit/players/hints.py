"""Hints: what the strongest computer player would do here, and why.

The one hint service of every interface (the terminal and the web table). A
hint is computed from a seat's own view only, by the strongest built-in level
(:func:`~pinochlekit.players.hint_level`) or any level asked for, at the
thinking budget the interface gives. Nothing is played: the player is built for
the hint and closed after it.

A hint is reproducible: the player is seeded by the caller (each interface has
its seeding policy) and may first be shown the seat's earlier views of the
hand, so that it decides as a player that lived through the hand would.

>>> from pinochlekit.engine.games import new_game
>>> game = new_game("pagat", seed=1, dealer=0)
>>> hint = advise(game.view(1), "s", hint_spec(4, time=0.05))
>>> hint.action in game.view(1).legal_actions, hint.level
(True, 'expert')
>>> hint.text.startswith(str(hint.action) + ":")
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pinochlekit.engine.actions import Action
from pinochlekit.engine.views import View
from pinochlekit.players import ExpertPlayer, hint_level, make_player

__all__ = ["Advice", "Option", "advise", "hint_level", "hint_spec"]


@dataclass(frozen=True, slots=True)
class Option:
    """One option the player weighed: its name, the mean round score of the
    simulated deals, and the lowest and highest."""

    name: str
    mean: float
    low: int
    high: int


@dataclass(frozen=True, slots=True)
class Advice:
    """A hint: the action, the player's explanation (``ACTION: REASON; OPTION …``,
    or the action alone for a level that does not explain), the level that gave it
    and the options it weighed, best first (none for a level that only chooses)."""

    action: Action
    text: str
    level: str
    options: tuple[Option, ...] = ()


def hint_spec(players: int = 4, time: float | None = None) -> str:
    """The player spec of a hint: the hint level, with a thinking budget of ``time``
    seconds when one is given and the level takes one (``expert`` does)."""
    level = hint_level(players)
    return f"{level}(time={time})" if time is not None and level == "expert" else level


def advise(view: View, seed: int | str, spec: str | None = None,
           earlier: Sequence[View] = ()) -> Advice:
    """The hint for the seat to act in ``view`` (its own view: nothing else is seen).

    ``spec`` is the level asked (by default :func:`hint_spec` for the game, at the
    level's own budget); the player is seeded with ``seed`` and shown the
    ``earlier`` views first (their choices are discarded). An ``expert`` gives its
    decision as data (:meth:`ExpertPlayer.advise`); any other level is asked to
    ``choose``, with its ``explain`` text when it has one. Slow: interfaces call it
    in a worker thread. :class:`ValueError` if the player suggests an illegal action.
    """
    spec = spec or hint_spec(view.rules.players)
    player = make_player(spec, seed)
    try:
        for seen in earlier:
            player.choose(seen)
        options: tuple[Option, ...] = ()
        if isinstance(player, ExpertPlayer):
            decision = player.advise(view)
            action, text = decision.action, decision.text()
            ranked = sorted(decision.options.items(), key=lambda kv: -kv[1][0])
            options = tuple(Option(name, mean, low, high) for name, (mean, low, high) in ranked)
        else:
            explained = player.explain(view)
            action = player.choose(view)
            text = explained if explained else str(action)
    finally:
        player.close()
    if action not in view.legal_actions:  # a player's bug must not reach the table
        raise ValueError(f"{spec} suggested {action}, not a legal action")
    return Advice(action, text, spec.split("(", 1)[0], options)
