"""The computer players of the two-handed game (docs/rules.md §4): easy, standard
and pro (levels), expert, the exact endgame solver and the C policy core's Python side."""
