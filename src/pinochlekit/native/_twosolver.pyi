"""Type stub of the C two-handed solver; use :mod:`pinochlekit.players.two.solver`."""

# Arguments: trump suit, option bits (1 beat when following, 2 beat when trump
# is led), 24 trick points as bytes, last-trick bonus, then the leader's hand
# and the follower's hand as (kinds held, kinds held twice) masks; for values,
# the card led (-1 at a trick boundary; it is still in the leader's masks).

def value(trump: int, flags: int, points: bytes, bonus: int, lead_once: int,
          lead_twice: int, follow_once: int, follow_twice: int, /) -> int: ...
def values(trump: int, flags: int, points: bytes, bonus: int, lead_once: int,
           lead_twice: int, follow_once: int, follow_twice: int, lead: int, /
           ) -> list[tuple[int, int]]: ...
