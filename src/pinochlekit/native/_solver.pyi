"""Type stub of the C endgame solver; use :mod:`pinochlekit.players.search.solver`, not this."""

# Arguments of both functions: trump suit, option bits (1 beat when following,
# 2 beat when trump is led, 4 over-trump, 8 trump follows trump, 16 first lead
# must be trump), 24 trick points as bytes, last-trick bonus, hands as
# (once, twice) x4, current trick as bytes (seat, card)*, seat to act, seat
# sitting out (-1: none), team.

def solve(trump: int, flags: int, points: bytes, bonus: int, hands: tuple[int, ...],
          trick: bytes, to_act: int, sitting_out: int, team: int, /) -> int: ...
def card_values(trump: int, flags: int, points: bytes, bonus: int, hands: tuple[int, ...],
                trick: bytes, to_act: int, sitting_out: int, team: int, /
                ) -> list[tuple[int, int]]: ...
def solve_within(limit: int, trump: int, flags: int, points: bytes, bonus: int,
                 hands: tuple[int, ...], trick: bytes, to_act: int, sitting_out: int,
                 team: int, /) -> tuple[int | None, int]: ...
