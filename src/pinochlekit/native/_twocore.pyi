"""Type stub of the two-handed C simulation core; use
:mod:`pinochlekit.players.two.core`, not this."""

# rules: twocore.rules_key(rules); position: twocore.position(view); action:
# twocore.action_code(action, trump); a deal: (opponent's once mask, twice mask,
# the stock in drawing order as bytes).

def rollouts(rules: tuple[int, ...], position: tuple[int, ...], action: int,
             deals: list[tuple[int, int, bytes]], /) -> list[int]: ...
def trace(rules: tuple[int, ...], position: tuple[int, ...], action: int,
          deal: tuple[int, int, bytes], /) -> tuple[int, list[int]]: ...
