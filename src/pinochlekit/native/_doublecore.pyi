"""Type stub of the double-deck C play-out; use :mod:`pinochlekit.players.double.policy`."""

from collections.abc import Sequence

# The arguments and the result of pinochlekit.players.double.policy.playout: four hands
# of 24 copy counts, the current trick as (seat, card) pairs, the leader of an empty
# trick, trump, tricks.play_flags(rules) and the trick points already taken.

def playout(hands: Sequence[Sequence[int]], trick: Sequence[tuple[int, int]], leader: int,
            trump: int, flags: tuple[bool, bool, bool, bool], taken: Sequence[int], /
            ) -> list[int]: ...
