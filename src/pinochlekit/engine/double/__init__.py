"""Double-deck partnership pinochle (docs/rules.md §6): 80 cards, 20 to each of four players."""
