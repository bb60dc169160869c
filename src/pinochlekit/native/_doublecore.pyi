"""Type stub of the double-deck C play-out; use :mod:`pinochlekit.players.double.policy`."""

from collections.abc import Sequence

# The arguments and the result of pinochlekit.players.double.policy.playout: four hands
# of 24 copy counts, the current trick as (seat, card) pairs, the leader of an empty
# trick, trump, tricks.play_flags(rules) and the trick points already taken.

def playout(hands: Sequence[Sequence[int]], trick: Sequence[tuple[int, int]], leader: int,
            trump: int, flags: tuple[bool, bool, bool, bool], taken: Sequence[int], /
            ) -> list[int]: ...

# The arguments of pinochlekit.players.double.mend.mend; the result says whether the
# deal now agrees with the meld shown, and gives the mended hands.

def mend(hands: Sequence[Sequence[int]], known: Sequence[Sequence[int]],
         excluded: Sequence[int], played: Sequence[Sequence[int]], points: Sequence[int],
         trump: int, values: Sequence[int], seat: int, steps: int, seed: int, /
         ) -> tuple[bool, list[list[int]]]: ...

# pinochlekit.players.double.mend.best_table_meld: the best meld over the four trumps.

def best_meld(counts: Sequence[int], values: Sequence[int], /) -> int: ...
