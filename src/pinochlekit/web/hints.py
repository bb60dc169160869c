"""Hints at the web table: what the strongest computer player would do for a seat, and why.

A hint is computed from the seat's own view only (never the game object: a
hint can name nothing the seat cannot see), by the player the terminal asks
for hints (the strongest built-in level, ``expert``), at a budget of
:data:`HINT_TIME` seconds so that the server keeps answering. It runs in the
server's compute threads (see :class:`pinochlekit.web.hub.Hub`).

The hint player is seeded from public facts only (the table id, the game
number, the ply and the seat: :func:`hint_seed`), so the same view always gets
the same hint, and a hint depends on no secret of the server.

>>> from pinochlekit.games import new_game
>>> game = new_game("pagat", seed=1, dealer=0)
>>> hint = compute_hint(game.view(1), hint_seed("t1", 0, 0, 1), "expert(time=0.05)")
>>> hint.action in {str(a) for a in game.view(1).legal_actions}
True
>>> hint.text.startswith(hint.action + ":")
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pinochlekit.errors import PinochleError
from pinochlekit.games import parse_game_action
from pinochlekit.players import hint_level, make_player
from pinochlekit.views import View

__all__ = ["HINT_TIME", "Hint", "compute_hint", "hint_level", "hint_seed", "hint_spec",
           "parse_options"]

#: Seconds of thinking per hint: ``expert(time=0.3)``. The terminal's hint uses the
#: level's full default budget (1 s); a server shares its cores between every table,
#: so a hint gets a third of it: on a busy two-core machine it answers within about
#: a second, and its choice is still the expert's (fewer sampled deals, a wider range).
HINT_TIME = 0.3

#: One option of an explanation: ``NAME +12.3 (-40..+420)``, the name free of ``,;()``.
_OPTION = re.compile(r"(?:^|[;,] )([^,;()]+?) ([+-]\d+(?:\.\d+)?) \(([+-]?\d+)\.\.([+-]?\d+)\)")


def hint_spec(players: int = 4) -> str:
    """The player spec of a web hint: the hint level at :data:`HINT_TIME` seconds
    (``expert`` takes a ``time``; a weaker level, if it were the strongest, none)."""
    level = hint_level(players)
    return f"{level}(time={HINT_TIME})" if level == "expert" else level


def hint_seed(table_id: str, game_no: int, ply: int, seat: int) -> str:
    """The hint player's seed: public facts only, so one view always gets one hint.

    >>> hint_seed("abc", 0, 12, 3)
    'pinochle web hint/abc/0/12/3'
    """
    return f"pinochle web hint/{table_id}/{game_no}/{ply}/{seat}"


@dataclass(frozen=True)
class Hint:
    """A suggested action (in the table's action notation), the explanation, and
    each option the player weighed (name, mean round score, lowest, highest)."""

    action: str
    text: str
    level: str
    options: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The fields of the ``hint`` message."""
        return {"action": self.action, "text": self.text, "level": self.level,
                "options": self.options}


def parse_options(text: str) -> list[dict[str, Any]]:
    """The options listed in an explanation, best first, as data.

    >>> text = "play AS: best (rollouts, 200 deals); AS +212.3 (+40..+420), 9H -1.0 (-9..+3)"
    >>> parse_options(text)
    [{'name': 'AS', 'mean': 212.3, 'low': 40, 'high': 420}, \
{'name': '9H', 'mean': -1.0, 'low': -9, 'high': 3}]
    """
    return [{"name": m[1], "mean": float(m[2]), "low": int(m[3]), "high": int(m[4])}
            for m in _OPTION.finditer(text)]


def compute_hint(view: View, seed: str, spec: str) -> Hint:
    """The hint for the seat to act in ``view`` (its own view: nothing else is seen).

    Runs the player's ``explain`` (``action: why; option mean (low..high), ...``);
    the suggested action is the text before the first colon, checked against the
    view's legal actions. A player that cannot explain, or whose text does not
    start with a legal action, is asked to choose instead. Slow: call it in a
    worker thread.
    """
    player = make_player(spec, seed)
    legal = {str(a) for a in view.legal_actions}
    try:
        text = player.explain(view)
        action = None if text is None else text.split(":", 1)[0].strip()
        if action is not None:
            try:
                action = str(parse_game_action(view.rules, action))
            except PinochleError:
                action = None
        if action is None or action not in legal:
            action = str(player.choose(view))
            text = text or action
    finally:
        player.close()
    assert text is not None
    return Hint(action, text, spec.split("(", 1)[0], parse_options(text))
