"""The presets and options of :class:`~pinochlekit.Rules`, for the lobby's form."""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, get_args, get_type_hints

from pinochlekit.rules import PRESET_SOURCES, Rules

__all__ = ["rules_catalog"]


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
        presets.append({"name": name, "source": source, "players": rules.players,
                        "values": {o["name"]: getattr(rules, o["name"]) for o in options}})
    return {"presets": presets, "options": options}
