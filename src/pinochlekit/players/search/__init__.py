"""The search machinery of the stronger players: deals of the unseen cards
(sampler), what the auction says about them (inference), play-outs (simulate, with
the C core's Python side in fastcore) and the exact endgame solver."""
