"""Computer players: each receives only its seat's :class:`~pinochlekit.View`.

Every player is a :class:`Player` (:mod:`pinochlekit.players.base`): built
with a seed (``Player(seed)``, which seeds its own ``rng``), it answers
``choose(view)`` with one of ``view.legal_actions``, may say why
(``explain(view)``) and releases what it holds on ``close()``. :data:`PLAYERS`
names the built-in ones; :func:`make_player` builds one from a spec string,
the form the command line and matches use:

- ``NAME``: ``random``, ``simple``, ``easy``, ``standard``, ``skilled``, ``pro`` or
  ``expert``;
- ``NAME(option=value, ...)``: with options, e.g. ``pro(rollouts=100, bid_sims=1000)``;
- ``cmd:PROGRAM ARGS``: an external program (:mod:`pinochlekit.players.external`).

``easy``, ``standard`` and ``pro`` are the three levels of docs/rules.md §5,
specified exactly in ``docs/players.md``; ``simple`` and ``random`` are cheap
players for demos and tests.

The levels are :class:`~pinochlekit.players.base.Level` objects made before any game
is known: they play the two-handed game (docs/rules.md §4) and the double deck (§6)
by per-game players (``players/two/``, ``players/double/``), which
:meth:`~pinochlekit.players.base.Level.for_game` picks view by view.

>>> from pinochlekit import Game
>>> game = Game.new("pagat", seed=3)
>>> player = make_player("simple", seed=0)
>>> player.choose(game.view(game.to_act)) in game.legal_actions()
True
>>> make_player("standard(bid_sims=40)", seed=1)
StandardPlayer(seed=1, bid_sims=40)
>>> make_player("pro(depth=3)", seed=1)
Traceback (most recent call last):
...
pinochlekit.players.base.PlayerSpecError: pro: no option 'depth' (options: bid_sims, rollouts)
"""

from __future__ import annotations

import inspect
import re

from pinochlekit.engine.rules import Rules
from pinochlekit.players.base import Player, PlayerSpecError
from pinochlekit.players.double import DOUBLE_LEVELS
from pinochlekit.players.easy import EasyPlayer
from pinochlekit.players.expert import ExpertPlayer
from pinochlekit.players.pro import ProPlayer
from pinochlekit.players.simple import RandomPlayer, SimplePlayer
from pinochlekit.players.skilled import SkilledPlayer
from pinochlekit.players.standard import StandardPlayer

__all__ = [
    "DOUBLE_LEVELS",
    "LEVELS",
    "PLAYERS",
    "EasyPlayer",
    "ExpertPlayer",
    "Player",
    "PlayerSpecError",
    "ProPlayer",
    "RandomPlayer",
    "SimplePlayer",
    "SkilledPlayer",
    "StandardPlayer",
    "available_levels",
    "hint_level",
    "level_name",
    "levels_for",
    "make_player",
    "player_options",
    "plays",
    "split_specs",
]

#: Player name → class, for the command line, matches and benchmarks.
PLAYERS: dict[str, type[Player]] = {
    "random": RandomPlayer,
    "simple": SimplePlayer,
    "easy": EasyPlayer,
    "standard": StandardPlayer,
    "skilled": SkilledPlayer,
    "pro": ProPlayer,
    "expert": ExpertPlayer,
}

#: The levels offered to people (seat choices, hints), weakest first.
LEVELS = ("easy", "standard", "pro", "expert")



def available_levels() -> list[str]:
    """The levels of :data:`LEVELS` that are registered in :data:`PLAYERS`.

    >>> available_levels()
    ['easy', 'standard', 'pro', 'expert']
    """
    return [level for level in LEVELS if level in PLAYERS]


def level_name(spec: str) -> str:
    """The player name in ``spec``: what comes before its options, without spaces, in
    lower case (make no player; the name need not be known). The one reading of a
    spec's name: :func:`plays`, :func:`make_player`, the hints, the command line and
    the terminal ask it.

    >>> level_name(" Pro(rollouts=50, bid_sims=1000) "), level_name("expert")
    ('pro', 'expert')
    """
    return spec.split("(", 1)[0].strip().lower()


def plays(spec: str, rules: Rules) -> bool:
    """Whether the player ``spec`` plays the game of ``rules``: an external program
    (``cmd:``, docs/protocol.md) always; a built-in level (options allowed) unless the
    game is the double deck (docs/rules.md §6) and the level is not one of
    :data:`~pinochlekit.players.double.DOUBLE_LEVELS`. The one place that says which
    level plays which game: the command line, the terminal and the web ask it.

    >>> double = Rules.preset("doubledeck")
    >>> plays("pro(rollouts=50)", double), plays("cmd:./bot", double), plays("simple", double)
    (True, True, False)
    >>> plays("simple", Rules.preset("two")), plays("nobody", Rules.preset("two"))
    (True, False)
    """
    text = spec.strip()
    if text.startswith(_COMMAND):
        return True
    name = level_name(text)
    return name in PLAYERS and (rules.deck != "double" or name in DOUBLE_LEVELS)


def levels_for(rules: Rules) -> list[str]:
    """The built-in levels that play the game of ``rules``, in the order of
    :data:`PLAYERS` (weakest first, the cheap players before the levels).

    >>> levels_for(Rules.preset("doubledeck"))
    ['random', 'easy', 'standard', 'skilled', 'pro', 'expert']
    """
    return [name for name in PLAYERS if plays(name, rules)]


def hint_level(rules: Rules | None = None) -> str:
    """The strongest level offered to people (:data:`LEVELS`) that plays the game of
    ``rules`` (every game by default): the one the terminal and the web table ask
    for hints (``expert`` plays every game).

    >>> hint_level(), hint_level(Rules.preset("two")), hint_level(Rules.preset("doubledeck"))
    ('expert', 'expert', 'expert')
    """
    offered = [level for level in available_levels() if rules is None or plays(level, rules)]
    return (offered or levels_for(rules or Rules()))[-1]


_COMMAND = "cmd:"


def player_options(cls: type[Player]) -> list[str]:
    """The options a player class takes (its keyword-only constructor parameters)."""
    params = inspect.signature(cls.__init__).parameters.values()
    return [p.name for p in params if p.kind is inspect.Parameter.KEYWORD_ONLY]


def _value(text: str) -> int | float | bool | str:
    """An option value: a whole number, a number, yes/no, or a word."""
    word = text.strip().strip("'\"")
    if re.fullmatch(r"[+-]?\d+", word):
        return int(word)
    if word.lower() in ("yes", "true", "on"):
        return True
    if word.lower() in ("no", "false", "off"):
        return False
    try:
        return float(word)
    except ValueError:
        return word


def make_player(spec: str, seed: int | str = 0) -> Player:
    """The player a spec names, seeded with ``seed``.

    ``NAME``, ``NAME(option=value, ...)`` or ``cmd:PROGRAM ARGS`` (the external
    player is imported only for such a spec). :class:`PlayerSpecError` (also a
    :class:`ValueError`) names an unknown player or option or a bad value.
    """
    text = spec.strip()
    if text.startswith(_COMMAND):
        from pinochlekit.players.external import ExternalPlayer  # only for cmd: specs
        return ExternalPlayer(text, seed)
    match = re.fullmatch(r"([A-Za-z_]\w*)\s*(?:\((.*)\))?", text, re.S)
    if not match:
        raise PlayerSpecError(f"bad player {spec!r}: write NAME, NAME(option=value, ...) or "
                              f"cmd:PROGRAM ARGS")
    name, body = level_name(text), match.group(2) or ""
    cls = PLAYERS.get(name)
    if cls is None:
        raise PlayerSpecError(f"unknown player {name!r}; players: {', '.join(PLAYERS)}, "
                              f"cmd:PROGRAM ARGS")
    allowed = player_options(cls)
    options: dict[str, int | float | bool | str] = {}
    for part in filter(None, (p.strip() for p in body.split(","))):
        key, sep, raw = part.partition("=")
        key = key.strip()
        if not sep or not key:
            raise PlayerSpecError(f"{name}: bad option {part!r}: write option=value")
        if key not in allowed:
            names = ", ".join(allowed) if allowed else "none"
            raise PlayerSpecError(f"{name}: no option {key!r} (options: {names})")
        options[key] = _value(raw)
    try:
        return cls(seed, **options)
    except PlayerSpecError as error:
        raise PlayerSpecError(f"{name}: {error}") from None


def split_specs(text: str) -> list[str]:
    """Split a comma-separated list of player specs, keeping the commas inside
    parentheses: ``"pro(rollouts=10, bid_sims=40),easy"`` is two specs.

    >>> split_specs("pro(rollouts=10, bid_sims=40), easy")
    ['pro(rollouts=10, bid_sims=40)', 'easy']
    """
    specs, depth, current = [], 0, ""
    for char in text:
        if char == "," and depth == 0:
            specs.append(current.strip())
            current = ""
            continue
        depth += (char == "(") - (char == ")")
        current += char
    specs.append(current.strip())
    return specs
