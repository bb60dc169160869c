"""Playing in the terminal: the full-screen table, the plain line mode, saved games.

- :mod:`pinochlekit.tui.session`: the table's logic (who acts, what happened, undo,
  hints), shared by both interfaces;
- :mod:`pinochlekit.tui.store`: every action saved to SQLite as it happens;
- :mod:`pinochlekit.tui.plain`: the plain line mode (``pinochle play --plain``);
- :mod:`pinochlekit.tui.app`: the full-screen Textual table (``pinochle play``);
- :mod:`pinochlekit.tui.commands`: the ``play`` and ``history`` subcommands.

Only :mod:`pinochlekit.tui.app` imports Textual.
"""
