"""Hints at the web table: what the strongest computer player would do for a seat, and why.

The hint is the players' hint service (:mod:`pinochlekit.players.hints`), the
one the terminal asks too; this module gives it the web's seed and budget and
makes it a message. A hint is computed from the seat's own view only (never the
game object: a hint can name nothing the seat cannot see), by the strongest
built-in level (``expert``), at a budget of
:data:`HINT_TIME` seconds so that the server keeps answering. It runs in the
server's compute threads (see :class:`pinochlekit.web.hub.Hub`).

The hint player is seeded from public facts only (the table id, the game
number, the ply and the seat: :func:`hint_seed`), so the same view always gets
the same hint, and a hint depends on no secret of the server.

>>> from pinochlekit.engine.games import new_game
>>> game = new_game("pagat", seed=1, dealer=0)
>>> hint = compute_hint(game.view(1), hint_seed("t1", 0, 0, 1), "expert(time=0.05)")
>>> hint.action in {str(a) for a in game.view(1).legal_actions}
True
>>> hint.text.startswith(hint.action + ":")
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pinochlekit.engine.rules import Rules
from pinochlekit.engine.views import View
from pinochlekit.players import hint_level
from pinochlekit.players.hints import advise
from pinochlekit.players.hints import hint_spec as players_hint_spec

__all__ = ["HINT_TIME", "Hint", "compute_hint", "hint_level", "hint_seed", "hint_spec"]

#: Seconds of thinking per hint: ``expert(time=0.3)``. The terminal's hint uses the
#: level's full default budget (1 s); a server shares its cores between every table,
#: so a hint gets a third of it: on a busy two-core machine it answers within about
#: a second, and its choice is still the expert's (fewer sampled deals, a wider range).
HINT_TIME = 0.3

def hint_spec(rules: Rules | None = None) -> str:
    """The player spec of a web hint: the hint level at :data:`HINT_TIME` seconds
    (``expert`` takes a ``time``; a weaker level, if it were the strongest, none)."""
    return players_hint_spec(rules, HINT_TIME)


def hint_seed(table_id: str, game_no: int, ply: int, seat: int) -> str:
    """The hint player's seed: public facts only, so one view always gets one hint.

    >>> hint_seed("abc", 0, 12, 3)
    'pinochle web hint/abc/0/12/3'
    """
    return f"pinochle web hint/{table_id}/{game_no}/{ply}/{seat}"


@dataclass(frozen=True)
class Hint:
    """A suggested action (in the table's action notation), the explanation, and
    each option the player weighed (name, mean round score, lowest, highest, and for
    a bid or a trump ``makes``: the share of sampled deals in which it is made)."""

    action: str
    text: str
    level: str
    options: list[dict[str, Any]] = field(default_factory=list)
    #: The hint in words (the terminal's): one sentence, and the numbers behind it.
    sentence: str = ""
    why: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The fields of the ``hint`` message."""
        return {"action": self.action, "text": self.text, "level": self.level,
                "options": self.options, "sentence": self.sentence, "why": self.why}


def compute_hint(view: View, seed: str, spec: str) -> Hint:
    """The hint for the seat to act in ``view`` (its own view: nothing else is seen),
    from the players' hint service (:func:`pinochlekit.players.hints.advise`), as the
    table's message. Slow: call it in a worker thread.
    """
    advice = advise(view, seed, spec)
    options = [{"name": o.name, "mean": round(o.mean, 1), "low": o.low, "high": o.high}
               | ({} if o.makes is None else {"makes": round(o.makes, 3)})
               for o in advice.options]
    return Hint(str(advice.action), advice.text, advice.level, options, advice.sentence,
                list(advice.why))
