"""Type stub of the C play phase used by :mod:`pinochlekit.game` when it is built."""

from typing import Any, final

@final
class Table:
    """The play phase of one hand, writing into a Game's lists."""

    to_act: int

    def __init__(self, n: int, leader: int, trump: int, flags: tuple[bool, bool, bool, bool],
                 first_lead_trump: bool, points: tuple[int, ...], last_bonus: int,
                 teams: tuple[int, ...], once: list[int], twice: list[int], trick: list[Any],
                 seats: list[int], tricks: list[Any], trick_points: list[int],
                 cards: tuple[Any, ...], plays: tuple[Any, ...], trick_type: type[Any],
                 concede: tuple[Any, ...]) -> None: ...
    def legal(self) -> list[Any]: ...
    def mask(self) -> int: ...
    def play(self, card: int, /) -> int: ...
    def sit_out(self, seat: int, /) -> None: ...
    def clone(self, once: list[int], twice: list[int], trick: list[Any], seats: list[int],
              tricks: list[Any], trick_points: list[int], /) -> Table: ...

def deal_masks(digest: bytes, dealer: int, players: int, /) -> tuple[int, ...]: ...
