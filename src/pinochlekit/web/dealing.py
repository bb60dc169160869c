"""The cards a revealed deal seed deals, for every number of players: the check of a
provably fair deal (the table page does the same in JavaScript, ``static/js/fair.js``).

- four players: 12 cards each, three at a time from the dealer's left (docs/rules.md §1 Deal);
- three players: 15 cards each and a widow of 3, dealt after the first round
  (docs/rules.md §3);
- two players: 12 cards each, three at a time from the dealer's opponent; the
  next card is turned up for trump and the other 23 are the stock, drawn in
  order (docs/rules.md §4);
- the double deck: 20 cards each of the 80, four at a time from the dealer's left
  (docs/rules.md §6, docs/double-deck.md "Deal"), nothing left over.

Each is the one routine the games deal with, :func:`pinochlekit.engine.deals.deal_cards`
(given :data:`pinochlekit.engine.double.cards.DOUBLE_DECK` for the double deck).

>>> from pinochlekit.engine.deals import deal_seed
>>> dealt = dealt_cards(deal_seed("club", 0), 0, 2)
>>> [len(h.split()) for h in dealt.hands], len(dealt.rest.split())
([12, 12], 24)
>>> len(dealt_cards(deal_seed("club", 0), 1, 3).rest.split())
3
>>> double = dealt_cards(deal_seed("club", 0), 1, deck="double")
>>> [len(h.split()) for h in double.hands], double.rest
([20, 20, 20, 20], '')
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import Any, NamedTuple

from pinochlekit.engine.cards import ALL_CARDS, Hand
from pinochlekit.engine.deals import SINGLE_DECK, Deck, deal_cards
from pinochlekit.engine.double.cards import DOUBLE_DECK
from pinochlekit.engine.rules import Rules

__all__ = ["CLIENT_COMMITMENT", "CLIENT_SEED", "Dealt", "client_commitment", "dealt_cards",
           "game_seed", "server_commitment"]

#: What a browser may contribute to a game's deals: 16 to 64 bytes, in hexadecimal.
CLIENT_SEED = re.compile(r"[0-9a-f]{32,128}")
#: What a browser commits to first: the SHA-256 of its value, in hexadecimal.
CLIENT_COMMITMENT = re.compile(r"[0-9a-f]{64}")


def client_commitment(value: str) -> str:
    """The commitment a browser sends before its ``value`` may be revealed: the
    SHA-256 of the value's text (docs/web.md "Fairness and privacy").

    >>> client_commitment("ab" * 16)[:16]
    'd2f9fa9d99bb30b2'
    """
    return hashlib.sha256(value.encode()).hexdigest()


def server_commitment(server_seed: str) -> str:
    """The SHA-256 of a game's server seed, shown before any browser contributes
    (docs/web.md "Fairness and privacy")."""
    return hashlib.sha256(server_seed.encode()).hexdigest()


def game_seed(server_seed: str, client_seeds: Sequence[str], game_no: int) -> str:
    """The seed of game ``game_no`` at a table: the SHA-256 of the server seed, every
    seat's contribution (``""`` for a seat that gave none: a computer) and the game
    number. Hand ``n`` of the game is dealt from ``deal_seed(game_seed, n)``.

    >>> game_seed("s", ["a" * 32, ""], 0) == game_seed("s", ["a" * 32, ""], 0)
    True
    >>> game_seed("s", ["a" * 32, ""], 0) != game_seed("s", ["b" * 32, ""], 0)
    True
    """
    text = "pinochlekit/game/" + "/".join([server_seed, *client_seeds, str(game_no)])
    return hashlib.sha256(text.encode()).hexdigest()


class Dealt(NamedTuple):
    """The hands of one deal (as text, seat by seat) and the cards left over: the
    widow (three players), or the turned-up card then the stock (two players)."""

    hands: tuple[str, ...]
    rest: str


def dealt_cards(seed: str, dealer: int, players: int = 4, deck: str = "single") -> Dealt:
    """What deal seed ``seed`` deals with ``dealer`` at a table of ``players``
    (``deck="double"``: the 80-card game, four players)."""
    if deck not in ("single", "double"):
        raise ValueError(f"the deck is single or double, not {deck!r}")
    if deck == "double" and players != 4:
        raise ValueError(f"the double deck is played by 4, not {players}")
    if players not in (2, 3, 4):
        raise ValueError(f"a table has 2, 3 or 4 players, not {players}")
    if not 0 <= dealer < players:
        raise ValueError(f"the dealer is a seat from 0 to {players - 1}, not {dealer}")
    # every game's deal is the engine's one routine, shaped by that game's rules
    # (docs/rules.md §1 Deal, §3 the widow, §4 the turn-up and the stock, §6 the
    # double deck: 20 each, nothing left over)
    rules = Rules.preset(_PRESETS[players, deck])
    dealt = deal_cards(seed, dealer, players, rules.hand_size, rules.widow_size,
                       deck=_DECKS[deck])
    hands = tuple(map(str, dealt.hands))
    if dealt.widow:
        return Dealt(hands, str(Hand.from_cards(dealt.widow)))
    return Dealt(hands, " ".join(str(ALL_CARDS[k]) for k in dealt.stock))


#: The preset of each table size and deck, for the shape of its deal.
_PRESETS = {(4, "single"): "pagat", (3, "single"): "three", (2, "single"): "two",
            (4, "double"): "doubledeck"}
#: The cards of each deck.
_DECKS: dict[str, Deck[Any]] = {"single": SINGLE_DECK, "double": DOUBLE_DECK}
