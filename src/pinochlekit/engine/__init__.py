"""The game itself: cards, rules, actions, deals, tricks, meld, scoring, views,
records and the game state (standard library only, and the optional C accelerators of
:mod:`pinochlekit.native`)."""
