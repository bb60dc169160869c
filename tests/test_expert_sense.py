"""The ``expert`` player avoids the partnership mistakes players hold against computer
partners (docs/players.md expert).

Players complain that computer partners pass
automatically once the opponents pass, overbid and name a trump suit of two
cards, keep pinochle parts instead of passing them to a declarer in spades or
diamonds, throw off-suit nines where a counter belongs, lead trump aces
needlessly, and do not throw counters on a trick partner is sure to win. Each test below collects
positions of one kind from seeded deals (or seeded games played by ``standard`` players), asks
``ExpertPlayer(seed, time=0.05)`` what it does, and asserts a *rate* that a
strong player would accept; the same positions go to a naive player (``easy``,
``random`` or ``standard``, whichever shows the complaint) which must do clearly
worse, so every test can fail. Where expert itself falls short of a strong
player, the test is marked ``xfail(strict=True)`` with the measured rate.
Rates are over positions worked out from the full game state (e.g. "partner's
card wins whatever the last opponent plays"), never from expert's own estimates.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import pytest

from pinochlekit import Game, Phase
from pinochlekit.engine.actions import Action, Bid, Give, NameTrump, Pass, Play
from pinochlekit.engine.cards import Card, Hand, Rank, Suit
from pinochlekit.engine.meld import meld
from pinochlekit.engine.tricks import winner_index
from pinochlekit.players import ExpertPlayer, Player, make_player

#: The budget of every expert decision here (seconds on the reference machine; the
#: player turns it into a fixed number of sampled deals, so the rates are exact).
EXPERT_TIME = 0.05

QS, JD = Card("QS"), Card("JD")

#: A position: a copy of the game and the seat to act.
Position = tuple[Game, int]


def is_counter(card: int) -> bool:
    """docs/rules.md §1 Counting: aces, tens and kings score in tricks."""
    return card % 6 >= Rank.KING


def suit_length(hand: Hand, suit: int) -> int:
    """How many cards of ``suit`` the hand holds (both copies count)."""
    return sum(1 for card in hand if card // 6 == suit)


def plays(game: Game) -> list[Card]:
    """The cards the seat to act may legally play."""
    return [a.card for a in game.legal_actions() if isinstance(a, Play)]


def team_wins_whatever(game: Game, seat: int) -> bool:
    """Whether ``seat``'s team takes the current trick whichever legal card ``seat``
    plays and whatever the players after it play (full game state, docs/rules.md §1 Play)."""
    def wins(state: Game) -> bool:
        if not state.trick:  # the trick just finished
            return state.tricks[-1].winner % 2 == seat % 2
        for action in state.legal_actions():
            after = state.copy()
            after.apply(action, state.to_act)
            if not wins(after):
                return False
        return True
    return wins(game)


@cache
def play_positions() -> dict[str, list[Position]]:
    """Card-play positions from 80 seeded hands played by ``standard`` players:

    - ``smear``: partner's card takes the trick whatever anyone plays; the seat to
      act (second to fourth hand) may play a non-counter, or a counter among which a
      king or ten of a plain suit (a card that seldom takes a trick by itself);
    - ``duck``: last to play, an opponent's card wins and no legal card beats it;
      the seat may play a counter or a non-counter;
    - ``lead``: a defender on lead holding a trump ace and a plain-suit card.
    """
    out: dict[str, list[Position]] = {"smear": [], "duck": [], "lead": []}
    for seed in range(80):
        game = Game.new("pagat", seed=seed, dealer=seed % 4)
        players = [make_player("standard(bid_sims=20)", f"sense/{seed}/{s}") for s in range(4)]
        while not game.results:
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            if view.phase is Phase.PLAY:
                assert view.trump is not None and view.declarer is not None
                trump = int(view.trump)
                legal = plays(game)
                counters = [c for c in legal if is_counter(c)]
                others = [c for c in legal if not is_counter(c)]
                if view.trick and counters and others and len(view.tricks) < 11:
                    cards = [c for _, c in view.trick]
                    winner = view.trick[winner_index(cards, trump)][0]
                    if winner % 2 == seat % 2:
                        plain_kt = any(c // 6 != trump and c % 6 in (Rank.KING, Rank.TEN)
                                       for c in counters)
                        if plain_kt and team_wins_whatever(game, seat):
                            out["smear"].append((game.copy(), seat))
                    elif len(cards) == 3 and not any(
                            winner_index([*cards, c], trump) == 3 for c in legal):
                        out["duck"].append((game.copy(), seat))
                if (not view.trick and view.declarer % 2 != seat % 2
                        and trump * 6 + Rank.ACE in legal
                        and any(c // 6 != trump for c in legal)):
                    out["lead"].append((game.copy(), seat))
            game.apply(players[seat].choose(view), seat)
    return out


def spread(positions: list[Position], most: int) -> list[Position]:
    """At most ``most`` positions, taken evenly through the list (many hands, not the
    first few)."""
    step = max(1, -(-len(positions) // most))
    return positions[::step]


def rate(positions: list[Position], spec: str, good: Callable[[Game, int, Action], bool]) -> float:
    """The share of ``positions`` where the player ``spec`` (seeded per position)
    chooses an action that ``good(game, seat, action)`` accepts."""
    assert len(positions) >= 15, len(positions)  # enough positions for a rate
    hits = 0
    for index, (game, seat) in enumerate(positions):
        view = game.view(seat)
        player: Player
        if spec == "expert":
            player = ExpertPlayer(f"sense/{index}", time=EXPERT_TIME)
        else:
            player = make_player(spec, f"sense/{index}")
        action = player.choose(view)
        assert action in view.legal_actions
        hits += good(game, seat, action)
    return hits / len(positions)


def played_counter(game: Game, seat: int, action: Action) -> bool:
    """The card played is a counter."""
    return isinstance(action, Play) and is_counter(action.card)


def played_trump_ace(game: Game, seat: int, action: Action) -> bool:
    """The card led is an ace of trump."""
    assert game.trump is not None
    return isinstance(action, Play) and action.card == int(game.trump) * 6 + Rank.ACE


# --- card play ---------------------------------------------------------------------


def test_smears_a_counter_on_a_trick_partner_is_sure_to_win() -> None:
    """Complaint: no counters thrown on partner's sure trick (an off-suit nine
    instead). Partner's card wins whatever is played, and expert may give a plain
    king or ten: it gives a counter in at least 80% of the positions (measured 35
    of 39), a random legal card (``easy``) in 31%."""
    positions = spread(play_positions()["smear"], 40)
    expert = rate(positions, "expert", played_counter)
    easy = rate(positions, "easy", played_counter)
    assert expert >= 0.80, expert
    assert easy <= 0.65 and expert >= easy + 0.2, (expert, easy)


def test_keeps_counters_off_a_trick_the_opponents_win() -> None:
    """The other side of smearing: last to play, the opponents' card wins and
    nothing beats it, so a strong player throws a nine, jack or queen. Expert keeps
    its counters in at least 80% of the positions (measured 34 of 39); a random
    legal card (``easy``) in 51%."""
    positions = spread(play_positions()["duck"], 40)
    expert = rate(positions, "expert", lambda g, s, a: not played_counter(g, s, a))
    easy = rate(positions, "easy", lambda g, s, a: not played_counter(g, s, a))
    assert expert >= 0.80, expert
    assert easy <= 0.65 and expert >= easy + 0.2, (expert, easy)


def test_a_defender_seldom_leads_a_trump_ace() -> None:
    """Complaint: trump aces led needlessly. A defender on lead holding a trump ace
    and a plain-suit card leads the trump ace in at most 35% of the positions
    (measured 5 of 37); ``standard``, which cashes its sure winners first, leads it
    in all of them."""
    positions = spread(play_positions()["lead"], 40)
    expert = rate(positions, "expert", played_trump_ace)
    standard = rate(positions, "standard", played_trump_ace)
    assert expert <= 0.35, expert
    assert standard >= 0.80, standard


# --- trump --------------------------------------------------------------------------


@cache
def trump_positions() -> list[Position]:
    """40 seeded deals in which the first caller bids the minimum and the other three
    pass, so that it names trump."""
    out = []
    for seed in range(40):
        game = Game.new("pagat", seed=f"trump/{seed}", dealer=seed % 4)
        first = game.to_act
        assert first is not None
        game.apply(Bid(game.rules.opening_bid), first)
        for _ in range(3):
            game.apply(Pass(), game.to_act)
        assert game.phase is Phase.TRUMP and game.to_act == first
        out.append((game, first))
    return out


def long_trump(game: Game, seat: int, action: Action) -> bool:
    """Trump is a suit of at least four cards and at most one shorter than the
    declarer's longest suit."""
    assert isinstance(action, NameTrump)
    hand = game.hand(seat)
    longest = max(suit_length(hand, s) for s in Suit)
    length = suit_length(hand, action.suit)
    return length >= 4 and length >= longest - 1


def test_names_a_long_trump_suit() -> None:
    """Complaint: a trump suit of two cards. Expert names a suit of four or more
    cards, within one of its longest, in at least 90% of the deals (measured 38
    of 40); ``random`` in 30%."""
    positions = trump_positions()
    expert = rate(positions, "expert", long_trump)
    naive = rate(positions, "random", long_trump)
    assert expert >= 0.90, expert
    assert naive <= 0.70, naive


# --- passing to the declarer --------------------------------------------------------


@cache
def pinochle_pass_positions() -> list[Position]:
    """Seeded auctions among ``standard`` players that end with trump spades or
    diamonds and the declarer's partner, now to pass, holding Q♠ and J♦."""
    out = []
    for seed in range(500):
        game = Game.new("pagat", seed=f"give/{seed}", dealer=seed % 4)
        players = [make_player("standard(bid_sims=8)", f"give/{seed}/{s}") for s in range(4)]
        while game.phase in (Phase.AUCTION, Phase.TRUMP):
            seat = game.to_act
            assert seat is not None
            game.apply(players[seat].choose(game.view(seat)), seat)
        if game.phase is not Phase.GIVE or game.trump not in (Suit.SPADES, Suit.DIAMONDS):
            continue
        seat = game.to_act
        assert seat is not None
        hand = game.hand(seat)
        if hand.count(QS) and hand.count(JD):
            out.append((game, seat))
    return out


def trump_part(game: Game) -> Card:
    """The pinochle card that is a trump: Q♠ in spades, J♦ in diamonds."""
    return QS if game.trump is Suit.SPADES else JD


def gives_trump_part(game: Game, seat: int, action: Action) -> bool:
    """The pass holds the pinochle card that is a trump."""
    assert isinstance(action, Give)
    return trump_part(game) in action.cards


def gives_trump(game: Game, seat: int, action: Action) -> bool:
    """The pass holds at least one trump."""
    assert isinstance(action, Give) and game.trump is not None
    return any(c // 6 == int(game.trump) for c in action.cards)


def test_passes_trump_to_the_declarer() -> None:
    """Item 3: pass trump to a declarer who needs it. Holding Q♠ J♦ with trump
    spades or diamonds (so at least one trump), expert's pass holds a trump in at
    least 85% of the positions (measured 32 of 35); a random pass (``easy``) in
    66%."""
    positions = pinochle_pass_positions()
    expert = rate(positions, "expert", gives_trump)
    easy = rate(positions, "easy", gives_trump)
    assert expert >= 0.85, expert
    assert easy <= 0.75 and expert >= easy + 0.15, (expert, easy)


def test_passes_the_trump_pinochle_part_more_often_than_standard() -> None:
    """Complaint: pinochle parts kept from a declarer in spades or diamonds.
    Expert passes the part that is a trump (Q♠ in spades, J♦ in diamonds) in at
    least half of the positions (measured 20 of 35); ``standard``, which keeps its
    meld, in 11%."""
    positions = pinochle_pass_positions()
    expert = rate(positions, "expert", gives_trump_part)
    standard = rate(positions, "standard", gives_trump_part)
    assert expert >= 0.50, expert
    assert standard <= 0.20, standard


@pytest.mark.xfail(strict=True, reason=(
    "finding for the lead: with at most three trumps, one of them the pinochle part, "
    "a strong partner passes all its trumps; expert passes the part in 17 of 26 "
    "such positions (65%) at time=0.05, not 80% (20 of 26 at time=0.3, 21 of 26 at "
    "the default time=1.0: the pass is scored on time*250 deals)"))
def test_with_few_trumps_passes_the_trump_pinochle_part() -> None:
    """Holding at most three trumps including the pinochle part, a strong partner
    passes them all; expert should pass the part in at least 80% of positions."""
    positions = [(g, s) for g, s in pinochle_pass_positions()
                 if g.trump is not None and suit_length(g.hand(s), int(g.trump)) <= 3]
    assert rate(positions, "expert", gives_trump_part) >= 0.80


# --- the auction --------------------------------------------------------------------


@cache
def overcall_positions() -> dict[str, list[Position]]:
    """The dealer's first call after: left opponent passes, partner opens at the
    minimum, right opponent passes. ``run``: the dealer holds a run (A 10 K Q J of
    a suit), which counts only if that suit is trump, so it should take the
    contract to name the suit; ``weak``: its best meld in any suit is 40 or less, so
    it should leave the contract to partner."""
    out: dict[str, list[Position]] = {"run": [], "weak": []}
    for seed in range(1200):
        dealer = seed % 4
        game = Game.new("pagat", seed=f"call/{seed}", dealer=dealer)
        game.apply(Pass(), (dealer + 1) % 4)
        game.apply(Bid(game.rules.opening_bid), (dealer + 2) % 4)
        game.apply(Pass(), (dealer + 3) % 4)
        assert game.to_act == dealer
        hand = game.hand(dealer)
        if any(all(hand.count(s * 6 + r) for r in range(Rank.JACK, Rank.ACE + 1))
               for s in Suit):
            out["run"].append((game, dealer))
        elif len(out["weak"]) < 40 and max(meld(hand, s, game.rules).points
                                           for s in Suit) <= 40:
            out["weak"].append((game, dealer))
    return out


def bids(game: Game, seat: int, action: Action) -> bool:
    """The call is a bid."""
    return isinstance(action, Bid)


def test_takes_the_contract_with_a_run_more_often_than_standard() -> None:
    """Complaint: an automatic pass once the opponents pass. With a run in hand,
    expert overcalls partner's opening in at least 55% of the deals (measured 36
    of 51); ``standard``, which follows 003's habit of never bidding over partner
    once both opponents have passed, in none."""
    positions = overcall_positions()["run"]
    expert = rate(positions, "expert", bids)
    standard = rate(positions, "standard(bid_sims=20)", bids)
    assert expert >= 0.55, expert
    assert standard <= 0.40 and expert >= standard + 0.2, (expert, standard)


def test_leaves_the_contract_to_partner_with_a_weak_hand() -> None:
    """The other side: with no meld worth naming trump for, expert passes in at
    least 85% of the deals (measured 37 of 40); ``easy`` passes in all of them by
    003's auction habit (docs/players.md "Auction habits": never over partner once
    both opponents have passed), where its random limit alone bid in 75%."""
    positions = overcall_positions()["weak"]
    expert = rate(positions, "expert", lambda g, s, a: not bids(g, s, a))
    easy = rate(positions, "easy", lambda g, s, a: not bids(g, s, a))
    assert expert >= 0.85, expert
    assert easy == 1.0, easy


def test_always_takes_the_contract_with_a_run() -> None:
    """With a run, bidding to name its suit is clearly right: at least 85% (71% with
    the auction inference's old offset of 60, which read partner's opening as a
    huge meld; docs/players.md expert "Deals and inference")."""
    assert rate(overcall_positions()["run"], "expert", bids) >= 0.85
