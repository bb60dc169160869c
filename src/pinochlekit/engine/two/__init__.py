"""The two-handed game with a stock (docs/rules.md §4): actions, meld turns, views
and the game state."""
