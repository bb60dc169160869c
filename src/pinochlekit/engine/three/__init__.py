"""The three-handed game (docs/rules.md §3): :class:`~pinochlekit.engine.three.game.
ThreeHandedGame`, the four-handed game's rules with the widow's deal, discard and
cards set aside as overridden hooks (``game.py``), and the widow's deal (``widow.py``)."""
