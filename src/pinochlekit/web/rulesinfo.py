"""The presets and options of :class:`~pinochlekit.Rules`, for the lobby's form.

What the form offers comes from the engine itself: every value of every yes/no
or choice option is tried on every preset and kept only if
:class:`~pinochlekit.Rules` accepts it for that game, so the lobby cannot offer
what the server would refuse and no second list of the rules is kept here.

>>> offered_values("three")["set_penalty"]  # chip scoring pays one team: docs/rules.md §3
['contract', 'shortfall']
>>> offered_values("pagat")["set_penalty"]
['contract', 'chips', 'shortfall']
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, get_args, get_type_hints

from pinochlekit.engine.errors import RulesError
from pinochlekit.engine.rules import (
    DOUBLE_DECK_OPTIONS,
    PRESET_SOURCES,
    PRESETS,
    Rules,
)

#: The presets the web tables seat: every one, the double deck included (docs/rules.md §6).
_SEATED = tuple(PRESETS)

__all__ = ["fixed_options", "offered_values", "rules_catalog", "value_needs"]


@functools.cache
def _values(double: bool = False) -> dict[str, list[Any]]:
    """Every option (but ``players`` and ``deck``, chosen with the preset) → all the
    values its type allows: both for a yes/no option, the words of a choice, none for
    a number. The options of the double deck only (docs/rules.md §6) are among them
    for a double-deck preset (``double``) alone."""
    hints = get_type_hints(Rules)
    return {f.name: [True, False] if hints[f.name] is bool else list(get_args(hints[f.name]))
            for f in dataclasses.fields(Rules)
            if f.name not in ("players", "deck")
            and (double or f.name not in DOUBLE_DECK_OPTIONS)}


def _double(preset: str) -> bool:
    """Whether ``preset`` is a double-deck game (docs/rules.md §6)."""
    return Rules.preset(preset).deck == "double"


def _word(value: Any) -> str:
    """A value as the rules text writes it (``yes``/``no``, numbers, words)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _accepts(rules: Rules, **changes: Any) -> bool:
    """Whether the engine accepts ``rules`` with ``changes``."""
    try:
        rules.replace(**changes)
    except RulesError:
        return False
    return True


@functools.cache
def _needs(preset: str, option: str, value: Any) -> tuple[str, ...] | None:
    """What the game of ``preset`` needs to take ``option=value``: ``()`` when the
    preset takes it as it is; else each single change of another yes/no or choice
    option (``"name=value"``) with which the engine accepts it, for combinations
    such as ``divide_by_ten`` only with ``trick_points=counters``; ``None`` when
    no such change helps: the game does not take that value."""
    rules = Rules.preset(preset)
    if _accepts(rules, **{option: value}):
        return ()
    found = tuple(f"{other}={_word(choice)}"
                  for other, choices in _values(_double(preset)).items()
                  if other != option
                  for choice in choices if choice != getattr(rules, other)
                  and _accepts(rules, **{option: value, other: choice}))
    return found or None


@functools.cache
def offered_values(preset: str) -> dict[str, list[Any]]:
    """Each yes/no or choice option the game of ``preset`` lets a player change →
    the values it may take there, in the option's own order (the engine's
    validation decides: a value is kept if the preset takes it, alone or with one
    other option changed, see :func:`value_needs`). Numbers and the options of
    :func:`fixed_options` are left out."""
    fixed = fixed_options(preset)
    offered: dict[str, list[Any]] = {}
    for option, values in _values(_double(preset)).items():
        if values and option not in fixed:
            offered[option] = [v for v in values if _needs(preset, option, v) is not None]
    return offered


def value_needs(preset: str) -> list[dict[str, Any]]:
    """The values of :func:`offered_values` that ``preset`` takes only with another
    option changed: ``{"option", "value", "with": ["name=value", ...]}`` each.

    >>> value_needs("three")
    [{'option': 'set_forfeits_meld', 'value': False, 'with': ['set_penalty=contract']}]
    """
    return [{"option": option, "value": value, "with": list(needs)}
            for option, values in offered_values(preset).items() for value in values
            if (needs := _needs(preset, option, value))]


@functools.cache
def fixed_options(preset: str) -> frozenset[str]:
    """The options the game of ``preset`` does not let a player change, which the
    lobby hides: the engine's :meth:`~pinochlekit.engine.rules.Rules.fixed_options`
    (docs/rules.md §3: no partner three-handed; §4: no auction, passing or contract
    two-handed; §6: each deck's own options), the deck itself chosen with the preset.

    >>> sorted(fixed_options("three"))[:4]
    ['arounds', 'bid_ladder', 'cards_passed', 'meld_counters']
    >>> sorted(fixed_options("pagat"))
    ['arounds', 'bid_ladder', 'meld_counters', 'widow']
    """
    return Rules.preset(preset).fixed_options() - {"deck"}


@functools.cache
def rules_catalog() -> dict[str, Any]:
    """Presets (name, source, number of players, every value) and options (name,
    meaning, source, kind, choices) as JSON: the lobby builds its rule form from
    this. The number of players comes with the preset (four-handed, ``three``:
    docs/rules.md §3, ``two``: docs/rules.md §4), so it is not an option of the form.

    >>> catalog = rules_catalog()
    >>> catalog["presets"][0]["name"], catalog["options"][0]["name"]
    ('pagat', 'min_bid')
    >>> {p["name"]: p["players"] for p in catalog["presets"]}["two"]
    2

    Each preset also lists its ``fixed`` options (:func:`fixed_options`), which
    the lobby hides, the values each yes/no or choice option may take there
    (``offered``, :func:`offered_values`) and the values that need another
    option changed (``needs``, :func:`value_needs`):

    >>> three = {p["name"]: p for p in catalog["presets"]}["three"]
    >>> three["fixed"], three["offered"]["set_penalty"]  # doctest: +NORMALIZE_WHITESPACE
    (['pass_with_help', 'cards_passed', 'shoot_the_moon', 'bid_ladder', 'arounds',
      'meld_counters'], ['contract', 'shortfall'])

    (a single-deck preset lists the double deck's own options as ``fixed`` too).
    """
    hints = get_type_hints(Rules)
    options = []
    for f in dataclasses.fields(Rules):
        if f.name in ("players", "deck"):
            continue  # chosen with the preset
        hint = hints[f.name]
        choices = list(get_args(hint))
        kind = "bool" if hint is bool else "choice" if choices else "int"
        options.append({"name": f.name, "doc": f.metadata["doc"],
                        "source": f.metadata["source"], "kind": kind, "choices": choices})
    presets = []
    for name in _SEATED:
        source = PRESET_SOURCES[name]
        rules = Rules.preset(name)
        fixed = fixed_options(name)
        presets.append({"name": name, "source": source, "players": rules.players,
                        "deck": rules.deck,
                        "values": {o["name"]: getattr(rules, o["name"]) for o in options},
                        "fixed": [o["name"] for o in options if o["name"] in fixed],
                        "offered": offered_values(name), "needs": value_needs(name)})
    return {"presets": presets, "options": options}
