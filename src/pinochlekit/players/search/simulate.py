"""Playing out the rest of a hand with ``standard`` players: the reference simulator.

The ``standard`` and ``pro`` players decide by simulation (docs/players.md
"Simulation details"): from what the player knows, deal the unseen cards at
random (the hidden-card sampler), play the rest of the hand with a
``standard`` player in every seat, each acting on its own memory only, and
read what the hand is worth to one team: its net result (the hand's score minus
the other side's, ``Start.score == "net"``, expert's measure) or the *round
score* of docs/rules.md §5, what the team takes (meld plus trick points, ``"take"``,
the measure of easy, standard and pro).

A simulation starts from a :class:`Start`, everything about the hand that the
simulating seat (``knower``) knows apart from the other seats' cards:

- ``phase="pass"``: the auction is over and trump named; the simulated hand
  continues with passing, meld, the not-on-the-board rule and twelve tricks
  (standard bidding simulations);
- ``phase="play"``: meld is on the table and ``plays`` lists every card played
  so far (pro's card-play simulations).

and from the current hands of the four seats (one deal of the sampler).

**Three-handed** (docs/rules.md §3): a deal is the three hands plus a fourth "hand",
the cards set aside (the widow, or the declarer's discards), whose points go to
the declarer when the hand is played; with ``widow="take"`` a ``"pass"``
simulation starts with the declarer taking that pile in hand and laying aside
three cards by :func:`~pinochlekit.players.policy.discard_key`. The net result
of a seat is its own hand score minus the average of its two opponents'
(rounded down); what it takes is its meld plus its tricks, and the pile's points
for the declarer (docs/players.md).

**Speed hook.** Players call :func:`~pinochlekit.players.search.backends.simulate_hands`,
which hands a whole batch of deals to a backend: the C core
(``pinochlekit.players.search.fastcore.backend``, four- and three-handed) when it is
built, else :func:`python_backend` (:mod:`pinochlekit.players.search.backends` chooses,
so that this module, the reference, imports no accelerator). A backend takes
``(start, deals, team)`` and returns one round score per deal; it must give
exactly what :func:`simulate_hand` gives. Everything it needs is in
:class:`Start` as ints, masks and :class:`~pinochlekit.engine.cards.Hand` mask pairs.

>>> from pinochlekit import Game, Hand, Rules
>>> game = Game.new(Rules(), seed=1)
>>> start = Start(rules=game.rules, declarer=0, contract=250, trump=0, knower=0)
>>> isinstance(simulate_hand(start, game.dealt, team=0), int)
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from pinochlekit.engine.cards import Hand
from pinochlekit.engine.meld import meld
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.scoring import score_hand
from pinochlekit.engine.tricks import card_points, follow_mask, legal_mask, play_flags, winner_index
from pinochlekit.engine.views import Phase, View
from pinochlekit.players.policy import (
    Memory,
    counter_mask,
    discard_key,
    opponents_to_play,
    pass_cards,
    return_cards,
    skilled_follow,
    skilled_lead,
    standard_follow,
    standard_give_key,
    standard_lead,
)

__all__ = [
    "Backend",
    "PlayState",
    "Start",
    "hand_scores",
    "memory_from_view",
    "play_state",
    "player_scores",
    "python_backend",
    "simulate_hand",
    "start_for_bid",
    "start_from_view",
]


@dataclass(frozen=True)
class Start:
    """Where a simulated hand starts; every field is known to seat ``knower``.

    ``shown``, ``meld_points`` and ``dix_only`` are per seat (empty before
    meld); ``given`` and ``returned`` are the passed cards, set only when the
    knower is the declarer or partner (who saw them); ``plays`` are the cards
    played since the first lead, ``(seat, card)`` in order, current trick last.
    """

    rules: Rules
    declarer: int
    contract: int
    trump: int
    knower: int
    phase: Literal["pass", "play"] = "pass"
    shown: tuple[Hand, ...] = ()
    meld_points: tuple[int, ...] = ()
    dix_only: tuple[bool, ...] = ()
    given: tuple[int, ...] | None = None
    returned: tuple[int, ...] | None = None
    moon: bool = False
    plays: tuple[tuple[int, int], ...] = ()
    #: Three-handed: the cards set aside as the knower knows them (the widow kept
    #: out, or its own discards as declarer; empty if unknown).
    aside: tuple[int, ...] = ()
    #: The card play of every simulated seat: ``"standard"`` or ``"skilled"``
    #: (docs/players.md); passing, meld and the throw-in rule stay standard.
    policy: Literal["standard", "skilled"] = "standard"
    #: What a simulated hand is worth to ``team``: ``"net"``, the hand's score for
    #: the team minus the other side's (our players' measure), or ``"take"``, the
    #: round score of 003 (docs/rules.md §5): the team's meld plus its trick
    #: points, meld counted as saved and no set penalty (``easy``, ``standard``,
    #: ``pro``; docs/players.md "Round score").
    score: Literal["net", "take"] = "net"

    def then(self, seat: int, card: int) -> Start:
        """The same start with one more card played (``seat`` plays ``card``)."""
        return replace(self, plays=(*self.plays, (seat, card)))

    @property
    def sitting_out(self) -> int:
        """The declarer's partner after a moon (docs/rules.md §2 shoot the moon), else -1."""
        return (self.declarer + 2) % 4 if self.moon else -1


def start_for_bid(view: View, trump: int, contract: int,
                  policy: Literal["standard", "skilled"] = "standard",
                  score: Literal["net", "take"] = "net") -> Start:
    """The start of a bidding simulation: ``view.seat`` is the declarer at
    ``contract`` with ``trump`` (docs/players.md standard **Bid**)."""
    assert view.seat is not None
    return Start(view.rules, view.seat, contract, trump, view.seat, policy=policy,
                 score=score)


def start_from_view(view: View, policy: Literal["standard", "skilled"] = "standard",
                    score: Literal["net", "take"] = "net") -> Start:
    """The start of a card-play simulation: the play so far, as ``view.seat`` knows it,
    the rest to be played by ``policy`` players."""
    if view.phase is not Phase.PLAY or view.melds is None or view.declarer is None \
            or view.trump is None or view.seat is None:
        raise ValueError(f"a card-play simulation needs a seat's view in the play, not "
                         f"the {view.phase}")
    plays = tuple((s, int(c)) for t in view.tricks for s, c in zip(t.seats, t.cards,
                                                                     strict=True))
    plays += tuple((s, int(c)) for s, c in view.trick)
    return Start(
        view.rules, view.declarer, view.contract, int(view.trump), view.seat, "play",
        tuple(m.shown for m in view.melds), tuple(m.points for m in view.melds),
        tuple(m.dix_only for m in view.melds),
        None if view.given is None else tuple(int(c) for c in view.given),
        None if view.returned is None else tuple(int(c) for c in view.returned),
        view.moon, plays, _aside_known(view), policy, score)


def _aside_known(view: View) -> tuple[int, ...]:
    """The set-aside cards ``view.seat`` knows (docs/rules.md §3): the widow kept out of
    play is public, the discards are the declarer's."""
    if view.rules.widow == "out" and view.widow is not None:
        return tuple(int(c) for c in view.widow)
    return tuple(int(c) for c in view.discards or ())


# -- scoring (docs/rules.md §1 Scoring a hand; §2 set variants) -------------------------


def hand_scores(rules: Rules, declarer: int, contract: int, team_meld: Sequence[int],
                team_dix_only: Sequence[bool], tricks: Sequence[int], played: bool,
                moon: bool = False, took_all: bool = False) -> tuple[int, int]:
    """Each team's score for a hand, as :class:`~pinochlekit.Game` scores it: the
    engine's :func:`~pinochlekit.engine.scoring.score_hand` with the declaring team.

    ``played`` is false for a hand not on the board (docs/rules.md §1 Not on the
    board); ``team_dix_only[t]`` says team ``t``'s meld is one or two dix only.
    """
    first, second = score_hand(rules, declarer % 2, contract, team_meld, tricks,
                               team_dix_only, played, moon, took_all).scores
    return first, second


def player_scores(rules: Rules, declarer: int, contract: int, meld: Sequence[int],
                  dix_only: Sequence[bool], tricks: Sequence[int], played: bool
                  ) -> tuple[int, ...]:
    """Each player's score for a three-handed hand, as :class:`~pinochlekit.Game`
    scores it (docs/rules.md §3; ``tricks`` include the set-aside cards' points)."""
    return score_hand(rules, declarer, contract, meld, tricks, dix_only, played).scores


def _team_melds(points: Sequence[int], dix_only: Sequence[bool]) -> tuple[list[int], list[bool]]:
    """Team meld and "dix only" flags from the per-seat melds (as Game computes them)."""
    if len(points) == 3:  # three-handed: every player for themself
        return list(points), [bool(d and p) for d, p in zip(dix_only, points, strict=True)]
    team = [points[0] + points[2], points[1] + points[3]]
    dix = [all(dix_only[s] or not points[s] for s in (t, t + 2))
           and any(points[s] for s in (t, t + 2)) for t in (0, 1)]
    return team, dix


# -- the play ---------------------------------------------------------------------


class PlayState:
    """The public state of the play after :attr:`Start.plays`, with each seat's
    memory (what :func:`play_state` returns; copied for every simulated deal)."""

    __slots__ = ("memories", "team_dix_only", "team_meld", "to_act", "took_all", "trick",
                 "trick_points", "trick_seats", "tricks_done")

    def __init__(self, memories: list[Memory], team_meld: list[int], team_dix_only: list[bool],
                 to_act: int) -> None:
        self.memories = memories
        self.team_meld = team_meld
        self.team_dix_only = team_dix_only
        self.to_act = to_act
        self.trick: list[int] = []
        self.trick_seats: list[int] = []
        self.tricks_done = 0
        self.trick_points = [0] * len(team_meld)
        self.took_all = True


def _memories(start: Start, shown: Sequence[Hand], given: Sequence[int] | None,
              returned: Sequence[int] | None) -> list[Memory]:
    if start.rules.widow_size:
        # The set-aside pile as a fourth place: the widow kept out is public; the
        # discards are remembered by the declarer only if the knower is the declarer.
        aside = Hand.from_cards(start.aside)
        public = aside if start.rules.widow == "out" else Hand()
        return [Memory.at_meld(s, (*shown, aside if s == start.declarer else public),
                               start.declarer) for s in range(3)]
    return [Memory.at_meld(s, shown, start.declarer, given, returned)
            for s in range(start.rules.players)]


def play_state(start: Start) -> PlayState:
    """Replay ``start.plays`` (a ``phase="play"`` start) into a :class:`PlayState`.

    Every seat's memory starts from the meld on the table; the passed cards are
    remembered by the declarer and partner only if the knower saw them (it is one
    of the two), since otherwise the simulation cannot know them.
    """
    if start.phase != "play":
        raise ValueError("play_state needs a start in the play")
    knows_passing = start.knower in (start.declarer, (start.declarer + 2) % 4)
    given = start.given if knows_passing else None
    memories = _memories(start, start.shown, given, start.returned)
    team_meld, team_dix = _team_melds(start.meld_points, start.dix_only)
    state = PlayState(memories, team_meld, team_dix, start.declarer)
    rules, trump = start.rules, start.trump
    size = rules.players - 1 if start.moon else rules.players
    points = card_points(rules)
    for seat, card in start.plays:
        if seat != state.to_act:
            raise ValueError(f"seat {seat} plays out of turn (seat {state.to_act} to play)")
        _advance(state, seat, card, trump, size, start.sitting_out, points, start.declarer,
                 rules)
    return state


def memory_from_view(view: View) -> Memory:
    """What ``view.seat`` remembers of the play (docs/players.md "What a player
    knows"), built by the same replay a simulation uses."""
    state = play_state(start_from_view(view))
    assert view.seat is not None
    return state.memories[view.seat]


def _advance(state: PlayState, seat: int, card: int, trump: int, size: int, sitting_out: int,
             points: Sequence[int], declarer: int, rules: Rules) -> None:
    """Replay one card of the history: memories, trick, trick points. The history
    never holds the last trick (the hand would be over), so no last-trick bonus."""
    trick = state.trick
    led = trick[0] // 6 if trick else card // 6
    for memory in state.memories:
        memory.observe(seat, card, led, trump)
    trick.append(card)
    state.trick_seats.append(seat)
    if len(trick) < size:
        nxt = (seat + 1) % rules.players
        if nxt == sitting_out:
            nxt = (nxt + 1) % rules.players
        state.to_act = nxt
        return
    winner = state.trick_seats[winner_index(trick, trump)]
    state.trick_points[rules.team_of(winner)] += sum([points[c] for c in trick])
    if winner != declarer:
        state.took_all = False
    state.tricks_done += 1
    state.trick = []
    state.trick_seats = []
    state.to_act = winner


def _play_out(start: Start, state: PlayState, once: list[int], twice: list[int]) -> None:
    """Play the rest of the hand with a standard (or ``start.policy``) player in
    every seat."""
    rules, trump, declarer = start.rules, start.trump, start.declarer
    players = rules.players
    partners = rules.partnership
    size = players - 1 if start.moon else players
    sitting_out = start.sitting_out
    points = card_points(rules)
    counters = counter_mask(points)
    flags = play_flags(rules)
    last_bonus = 10 // rules.unit
    memories = state.memories
    trick, seats = state.trick, state.trick_seats
    seat = state.to_act
    skilled = start.policy == "skilled"
    while True:
        if skilled:
            card = _skilled_card(start, state, seat, once, twice, size, points, counters, flags)
        elif trick:
            win = winner_index(trick, trump)
            legal = follow_mask(once[seat], trick[0] // 6, trick[win], trump, flags)
            card = standard_follow(legal, trick, trump,
                                   partners and seats[win] == (seat + 2) % 4,
                                   len(trick) == size - 1, counters)
        else:
            legal = legal_mask(once[seat], trick, trump, rules, state.tricks_done == 0)
            memory = memories[seat]
            opponents = opponents_to_play(seat, 0, size, sitting_out, players)
            unlocated = memory.unlocated(once[seat], twice[seat])
            possible = [memory.possible(o, unlocated) if o in opponents else 0
                        for o in range(4)]
            card = standard_lead(legal, trump, opponents, possible, memory.known_once)
        bit = 1 << card
        if twice[seat] & bit:
            twice[seat] &= ~bit
        else:
            once[seat] &= ~bit
        led = trick[0] // 6 if trick else card // 6
        for memory in memories:
            memory.observe(seat, card, led, trump)
        trick.append(card)
        seats.append(seat)
        if len(trick) < size:
            seat = (seat + 1) % players
            if seat == sitting_out:
                seat = (seat + 1) % players
            continue
        winner = seats[winner_index(trick, trump)]
        value = sum([points[c] for c in trick])
        last = not once[winner]
        if last:
            value += last_bonus  # docs/rules.md §1 Counting: last trick 10
        state.trick_points[winner if not partners else winner % 2] += value
        if winner != declarer:
            state.took_all = False
        state.tricks_done += 1
        trick.clear()
        seats.clear()
        seat = winner
        if last:
            return


def _skilled_card(start: Start, state: PlayState, seat: int, once: list[int],
                  twice: list[int], size: int, points: Sequence[int], counters: int,
                  flags: tuple[bool, bool, bool, bool]) -> int:
    """The card of docs/players.md skilled for ``seat``, from its own memory."""
    rules, trump, trick = start.rules, start.trump, state.trick
    players = rules.players
    memory = state.memories[seat]
    opponents = opponents_to_play(seat, len(trick), size, start.sitting_out, players)
    unlocated = memory.unlocated(once[seat], twice[seat])
    possible = [memory.possible(o, unlocated) if o in opponents else 0 for o in range(4)]
    if trick:
        win = winner_index(trick, trump)
        legal = follow_mask(once[seat], trick[0] // 6, trick[win], trump, flags)
        return skilled_follow(legal, trick, trump,
                              players == 4 and state.trick_seats[win] == (seat + 2) % 4,
                              len(trick) == size - 1, points, opponents, possible,
                              memory.known_once)
    legal = legal_mask(once[seat], trick, trump, rules, state.tricks_done == 0)
    partner = (seat + 2) % 4
    voids = memory.voids[partner] if players == 4 and partner != start.sitting_out else 0
    return skilled_lead(legal, trump, opponents, possible, memory.known_once,
                        rules.team_of(seat) == rules.team_of(start.declarer), voids, counters)


def _round_score(start: Start, state: PlayState, team: int, played: bool,
                 aside: int = 0) -> int:
    if start.score == "take":
        # docs/rules.md §5 round score: meld (as if saved) plus trick points, no set
        # penalty; three-handed the set-aside pile's points are the declarer's.
        taken = state.team_meld[team] + state.trick_points[team]
        return taken + aside if start.rules.widow_size and team == start.declarer else taken
    if not start.rules.partnership:
        # docs/players.md: own score minus the average of the two opponents' (floored)
        tricks = state.trick_points[:]
        # docs/rules.md §3: the set-aside cards' points are the declarer's, played or not
        # (docs/three-handed.md step 8, as Game._finish scores a hand not played)
        tricks[start.declarer] += aside
        each = player_scores(start.rules, start.declarer, start.contract, state.team_meld,
                             state.team_dix_only, tricks, played)
        return each[team] - (sum(each) - each[team]) // 2
    scores = score_hand(start.rules, start.declarer % 2, start.contract, state.team_meld,
                        state.trick_points, state.team_dix_only, played, start.moon,
                        state.took_all).scores
    return scores[team] - scores[1 - team]


def _aside_points(rules: Rules, hands: Sequence[Hand]) -> int:
    """The trick points of the set-aside pile (the fourth hand of a three-handed deal)."""
    if not rules.widow_size or len(hands) < 4:
        return 0
    points = card_points(rules)
    return sum(points[c] for c in hands[3])


def _from_widow(start: Start, hands: Sequence[Hand], team: int) -> int:
    """A simulated three-handed hand from trump named (docs/rules.md §3): the widow taken
    and 3 cards discarded (option), meld, not on the board, fifteen tricks."""
    rules, trump, declarer = start.rules, start.trump, start.declarer
    hands = list(hands)
    if rules.widow == "take":
        if len(hands[3]):  # the bidding simulation: the widow still to take
            hands[declarer] = hands[declarer] + hands[3]
        aside = Hand.from_cards(pass_cards(hands[declarer], trump, rules, rules.widow_size,
                                           discard_key))
        hands[declarer] = hands[declarer] - aside
        hands[3] = aside
    melds = [meld(h, trump, rules) for h in hands[:3]]
    team_meld, team_dix = _team_melds([m.points for m in melds], [m.dix_only for m in melds])
    start = replace(start, aside=tuple(hands[3]))  # the simulated declarer knows its pile
    state = PlayState(_memories(start, [m.shown for m in melds], None, None), team_meld,
                      team_dix, declarer)
    pile = _aside_points(rules, hands)
    if start.contract > team_meld[declarer] + rules.trick_total:
        return _round_score(start, state, team, False, pile)  # docs/rules.md §1 Not on the board
    _play_out(start, state, [h.once for h in hands[:3]], [h.twice for h in hands[:3]])
    return _round_score(start, state, team, True, pile)


def _from_passing(start: Start, hands: Sequence[Hand], team: int) -> int:
    """A simulated hand from trump named: passing, meld, not on the board, play."""
    rules, trump, declarer = start.rules, start.trump, start.declarer
    if rules.widow_size:
        return _from_widow(start, hands, team)
    partner = (declarer + 2) % 4
    hands = list(hands)
    given: tuple[int, ...] | None = None
    returned: tuple[int, ...] | None = None
    n = rules.cards_passed
    if n:
        # docs/players.md standard **Passing to the declarer**, then **Passing back**.
        given = tuple(pass_cards(hands[partner], trump, rules, n, standard_give_key))
        received = Hand.from_cards(given)
        hands[partner] = hands[partner] - received
        hands[declarer] = hands[declarer] + received
        returned = tuple(return_cards(hands[declarer], trump, rules, n, received))
        back = Hand.from_cards(returned)
        hands[declarer] = hands[declarer] - back
        hands[partner] = hands[partner] + back
    melds = [meld(h, trump, rules) for h in hands]
    team_meld, team_dix = _team_melds([m.points for m in melds], [m.dix_only for m in melds])
    state = PlayState(_memories(start, [m.shown for m in melds], given, returned), team_meld,
                      team_dix, declarer)
    if start.contract > team_meld[declarer % 2] + rules.trick_total:
        return _round_score(start, state, team, played=False)  # docs/rules.md §1 Not on the board
    # docs/players.md standard **Throw in**: only the automatic rule above; never the moon.
    _play_out(start, state, [h.once for h in hands], [h.twice for h in hands])
    return _round_score(start, state, team, played=True)


def simulate_hand(start: Start, hands: Sequence[Hand], team: int) -> int:
    """The round score for ``team`` of one simulated hand: from ``start``, with
    ``hands`` the current hands of the four seats, every seat a standard player.

    This is the reference: any backend must return exactly this.
    """
    return python_backend(start, [hands], team)[0]


def python_backend(start: Start, deals: Sequence[Sequence[Hand]], team: int) -> list[int]:
    """The pure-Python backend: :func:`simulate_hand` for every deal."""
    if start.phase == "pass":
        return [_from_passing(start, hands, team) for hands in deals]
    base = play_state(start)
    out = []
    for hands in deals:
        state = PlayState([m.copy() for m in base.memories], base.team_meld,
                          base.team_dix_only, base.to_act)
        state.trick, state.trick_seats = base.trick[:], base.trick_seats[:]
        state.tricks_done, state.trick_points = base.tricks_done, base.trick_points[:]
        state.took_all = base.took_all
        if len(hands) > 3 and start.rules.widow_size:
            # The simulated declarer knows its own discards: this deal's pile.
            memory = state.memories[start.declarer]
            memory.known_once[3], memory.known_twice[3] = hands[3].once, hands[3].twice
        seats = hands[:start.rules.players]
        _play_out(start, state, [h.once for h in seats], [h.twice for h in seats])
        out.append(_round_score(start, state, team, True, _aside_points(start.rules, hands)))
    return out


#: A simulation backend: ``(start, deals, team) -> round scores``, one per deal.
Backend = Callable[[Start, Sequence[Sequence[Hand]], int], list[int]]
