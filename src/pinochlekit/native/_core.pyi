"""Type stub of the C simulation core; use :mod:`pinochlekit.players.search.fastcore`, not this."""

from typing import final

# A position: trump, declarer, contract, moon, hands (once, twice) x4, shown meld
# (once, twice) x4, meld points x4, dix-only bits, given (once, twice), returned
# (once, twice), plays as bytes (seat, card)*. Three-handed the fourth hand is the
# pile set aside, the fourth shown meld what the other seats know of it.
Position = tuple[int, int, int, int, tuple[int, ...], tuple[int, ...], tuple[int, int, int, int],
                 int, tuple[int, int], tuple[int, int], bytes]
# A deal spec: observer, known (once, twice) x4, forbidden kinds x4.
DealSpec = tuple[int, tuple[int, ...], tuple[int, int, int, int]]

@final
class Rules:
    """The options that matter to play, meld and scoring."""

    def __init__(self, *, beat_follow: bool = ..., beat_trump_led: bool = ...,
                 over_trump: bool = ..., first_lead_trump: bool = ...,
                 trump_follows_trump: bool = ..., points: tuple[int, ...] = ...,
                 last_bonus: int = ..., trick_total: int = ...,
                 meld_values: tuple[int, ...] = ..., run_marries: bool = ...,
                 reuse_once: bool = ..., save_needs_trick: bool = ..., set_penalty: int = ...,
                 set_forfeits_meld: bool = ..., moon_value: int = ...,
                 cards_passed: int = ..., players: int = ..., widow_take: bool = ...
                 ) -> None: ...

def legal_mask(rules: Rules, hand: int, trick: bytes, trump: int, first: bool, /) -> int: ...
def meld(rules: Rules, hand: tuple[int, int], trump: int, /
         ) -> tuple[int, bool, tuple[int, int]]: ...
def hand_score(rules: Rules, contract: int, declarer: int, melds: tuple[int, int, int, int],
               dix_bits: int, tricks: tuple[int, int], played: bool, moon: bool,
               took_all: bool, /) -> tuple[int, int, int]: ...
def pass_cards(rules: Rules, hand: tuple[int, int], trump: int, pro: bool, giving: bool,
               given: tuple[int, int], n: int, /) -> list[int]: ...
def play_out(rules: Rules, position: Position, cards: bytes, policy: int, seed: int, /
             ) -> tuple[bytes, bytes, list[int], bytes, list[int], tuple[int, int],
                        tuple[int, int], int]: ...
def choose_card(rules: Rules, position: Position, level: int, among: int, /) -> int: ...
def memory(rules: Rules, position: Position, seat: int, /) -> tuple[
    tuple[int, int, int, int], tuple[int, int, int, int], tuple[int, int, int, int], int]: ...
# `policy` (card play of the simulated seats): 0 standard, 1 skilled.
def rollout(rules: Rules, position: Position, n: int, seed: int, spec: DealSpec | None,
            policy: int = ..., /) -> tuple[int, int]: ...
def card_values(rules: Rules, position: Position, n: int, seed: int, spec: DealSpec | None,
                policy: int = ..., /) -> list[tuple[int, int]]: ...
def simulate_bid_hands(rules: Rules, hand: tuple[int, int], seat: int, trumps: int,
                       contract: int, n: int, seed: int, policy: int = ..., /
                       ) -> list[list[int]]: ...
def simulate_deals(rules: Rules, position: Position | None, deals: list[tuple[int, ...]],
                   declarer: int, trump: int, contract: int, team: int, policy: int = ...,
                   score: int = ..., /) -> list[int]: ...
def bid_hand(rules: Rules, hands: tuple[int, ...], seat: int, trump: int, contract: int, /
             ) -> tuple[list[int], list[int], bytes, tuple[int, int]]: ...
def deal(rules: Rules, position: Position, spec: DealSpec, seed: int, /) -> tuple[int, ...]: ...
