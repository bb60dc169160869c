"""The presets and options of :class:`~pinochlekit.Rules`, for the lobby's form."""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, get_args, get_type_hints

from pinochlekit.rules import PRESET_SOURCES, Rules

__all__ = ["FIXED", "rules_catalog"]

#: The options each game refuses to change from its preset's value (the engine
#: names the option in its error), so the lobby leaves them off its form:
#: two-handed has no auction, no passing, no contract, and lays one combination
#: at a time (RULES.md §4); three-handed has no partners (RULES.md §3); only
#: three-handed has a widow. ``tests/test_web_games.py`` checks that the server
#: refuses every other value of each one.
_NOT_FOR_TWO = frozenset({
    "min_bid", "bid_step", "dealer_stuck", "first_bid_required", "pass_with_help",
    "cards_passed", "trump_needs_meld", "first_lead", "trump_follows_trump",
    "save_meld_needs_trick", "set_penalty", "set_forfeits_meld", "nines_redeal",
    "max_deals", "shoot_the_moon", "run_extra", "doubles"})
FIXED: dict[int, frozenset[str]] = {
    4: frozenset({"widow"}),
    3: frozenset({"cards_passed", "pass_with_help", "shoot_the_moon"}),
    2: _NOT_FOR_TWO | {"widow"},
}


@functools.cache
def rules_catalog() -> dict[str, Any]:
    """Presets (name, source, number of players, every value) and options (name,
    meaning, source, kind, choices) as JSON: the lobby builds its rule form from
    this. The number of players comes with the preset (four-handed, ``three``:
    RULES.md §3, ``two``: RULES.md §4), so it is not an option of the form.

    >>> catalog = rules_catalog()
    >>> catalog["presets"][0]["name"], catalog["options"][0]["name"]
    ('pagat', 'min_bid')
    >>> {p["name"]: p["players"] for p in catalog["presets"]}["two"]
    2

    Each preset also lists its ``fixed`` options (:data:`FIXED`), which the
    lobby hides:

    >>> {p["name"]: p["fixed"] for p in catalog["presets"]}["three"]
    ['pass_with_help', 'cards_passed', 'shoot_the_moon']
    """
    hints = get_type_hints(Rules)
    options = []
    for f in dataclasses.fields(Rules):
        if f.name == "players":
            continue  # chosen with the preset
        hint = hints[f.name]
        choices = list(get_args(hint))
        kind = "bool" if hint is bool else "choice" if choices else "int"
        options.append({"name": f.name, "doc": f.metadata["doc"],
                        "source": f.metadata["source"], "kind": kind, "choices": choices})
    presets = []
    for name, source in PRESET_SOURCES.items():
        rules = Rules.preset(name)
        fixed = FIXED.get(rules.players, frozenset())
        presets.append({"name": name, "source": source, "players": rules.players,
                        "values": {o["name"]: getattr(rules, o["name"]) for o in options},
                        "fixed": [o["name"] for o in options if o["name"] in fixed]})
    return {"presets": presets, "options": options}
