"""The three-handed game (docs/rules.md §3): the widow's deal; the rest of the game is
the four-handed game with three seats and no partners."""
