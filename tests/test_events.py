"""verify / can / apply / step: the engine says why an action is refused, and what an
action caused.

``verify`` must raise exactly what ``apply`` raises (type and message) and change
nothing; ``can`` must agree with ``legal_actions``; the events ``step`` returns over a
whole game must add up to the game's own results (trick points, meld, hand results,
each trick's winner) for every kind of game.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from pinochlekit import (
    ALL_CARDS,
    Action,
    Bid,
    BidMade,
    CardPlayed,
    CardsPassed,
    ContractWon,
    Dealt,
    Discard,
    Discarded,
    Dix,
    Drew,
    Event,
    Game,
    GameOverError,
    GameWon,
    Give,
    HandScored,
    IllegalActionError,
    LayMeld,
    MeldDeclined,
    MeldShown,
    Moon,
    MoonShot,
    NameTrump,
    NoMeld,
    OutOfTurnError,
    Pass,
    Passed,
    Phase,
    PhaseError,
    Play,
    Redeal,
    RedealCalled,
    Return,
    Suit,
    ThrowIn,
    ThrownIn,
    TrickWon,
    TrumpNamed,
    TwoHandedGame,
    TwoStage,
    new_game,
)
from pinochlekit.engine.double.game import DoubleDeckGame
from pinochlekit.engine.tricks import card_points

AnyGame = Game | TwoHandedGame | DoubleDeckGame

#: Four-handed presets (passing, no passing, moon, redeals), three-handed both ways, two;
#: a low target, so that random games end (and a cap on the hands, as a random declarer
#: is often set and the scores can drift down).
RULES = ["pagat(target=100)", "stonebridge(target=100)", "family1000(target=100)",
         "playingcards(target=100)", "chips(target=100)", "three(target=100)",
         "three(widow=take, target=100)", "two(target=100)"]
HANDS = 25


def cheap_action(game: AnyGame, rng: random.Random) -> Action:
    """A random legal action; in the auction mostly a pass or one of the lowest bids, so
    that hands are played out (a uniform bid is nearly always off the board)."""
    legal = game.legal_actions()
    if game.phase is Phase.AUCTION:
        low = [a for a in legal[:4] if type(a) in (Bid, Pass)] or legal
        if rng.random() < 0.95:
            return rng.choice(low)
    return rng.choice(legal)


def candidates(game: AnyGame, rng: random.Random) -> list[Action]:
    """Legal and (mostly) illegal actions now: some legal ones, cards not held or not
    allowed, wrong sizes, actions of every other phase and of the other games."""
    legal = game.legal_actions()
    out: list[Action] = rng.sample(legal, min(6, len(legal)))  # of up to ~950 bids
    out += [Play(ALL_CARDS[rng.randrange(24)]) for _ in range(3)]
    out += [Bid(100), Bid(255), Bid(10_000), Pass(), Pass(help=True), Redeal(), ThrowIn(),
            Moon(), NameTrump(Suit(rng.randrange(4))), NoMeld(), Dix(),
            LayMeld((ALL_CARDS[10], ALL_CARDS[9]))]
    seat = game.to_act
    if seat is not None:
        held = game.hand(seat).cards()
        if held:
            out.append(Play(rng.choice(held)))
            for kind in (Give, Return, Discard):
                for n in (1, 3, 4):
                    if len(held) >= n:
                        out.append(kind(tuple(rng.sample(held, n))))
    return out


def state(game: AnyGame) -> tuple[object, ...]:
    """What a caller can observe of a game: its record, the seat to act's view (hand,
    legal actions, scores, results ...) and a spectator's."""
    return (game.record, game.phase, game.to_act, game.view(game.to_act),
            game.public_view())


def outcome(call: object) -> tuple[type[BaseException], str] | None:
    """What a call raised (type and message), or ``None``."""
    assert callable(call)
    try:
        call()
    except IllegalActionError as error:
        return type(error), str(error)
    return None


def positions(rules: str, seeds: range, rng: random.Random,
              share: float) -> Iterator[AnyGame]:
    """About ``share`` of the positions of a few whole random games, and every one's
    finished position."""
    for seed in seeds:
        game = new_game(rules, seed=f"events-{seed}", dealer=seed % 2)
        while True:
            rare = game.phase is not Phase.PLAY and not isinstance(game, TwoHandedGame)
            if game.phase is Phase.GAME_OVER or rng.random() < (0.7 if rare else share):
                yield game
            if game.phase is Phase.GAME_OVER or len(game.results) > HANDS:
                break
            game.apply(cheap_action(game, rng))


def phase_of(game: AnyGame) -> str:
    if isinstance(game, TwoHandedGame):
        return str(game.stage)
    return str(game.phase)


@pytest.mark.parametrize("rules", RULES)
def test_verify_raises_what_apply_raises_and_changes_nothing(rules: str) -> None:
    rng = random.Random(rules)
    seen: Counter[str] = Counter()
    kinds: Counter[type[BaseException] | None] = Counter()
    for game in positions(rules, range(6), rng, 0.1):
        verify, copy = game.verify, game.copy
        seen[phase_of(game)] += 1
        before = state(game)
        others = [s for s in range(game.rules.players) if s != game.to_act]
        for action in candidates(game, rng):
            for seat in (None, game.to_act, rng.choice(others)):
                refused = outcome(lambda a=action, s=seat, v=verify: v(a, s))
                assert state(game) == before, (action, seat)  # verify changed nothing
                trial = copy()
                applied = outcome(lambda a=action, s=seat, g=trial: g.apply(a, s))
                assert refused == applied, (action, seat)
                assert game.can(action, seat) is (refused is None)
                assert game.is_legal(action, seat) is (refused is None)
                if refused is not None:
                    assert state(trial) == before  # apply refused and changed nothing
                kinds[None if refused is None else refused[0]] += 1
    if rules.startswith("two"):
        assert {"early tricks", "meld", "last tricks", "game over"} <= set(seen), seen
    else:
        wanted = {"auction", "trump", "play", "game over"}
        wanted |= {"give", "return"} if Game.new(rules).rules.cards_passed else set()
        wanted |= {"discard"} if "take" in rules else set()
        assert wanted <= set(seen), seen
    # every kind of refusal was met, by its type
    assert {None, IllegalActionError, OutOfTurnError, PhaseError, GameOverError} <= set(kinds)


def test_verify_names_the_rule_broken() -> None:
    """The message says which rule refuses the action; the type says what kind."""
    game = Game.new("pagat", seed=7, dealer=3)
    game.apply(Bid(250))
    with pytest.raises(IllegalActionError, match="the bid must be at least 260") as caught:
        game.verify(Bid(245))
    assert type(caught.value) is IllegalActionError
    with pytest.raises(OutOfTurnError, match="it is seat 1's turn"):
        game.verify(Bid(260), 2)
    with pytest.raises(PhaseError, match="during the auction"):
        game.verify(Play(ALL_CARDS[0]))
    assert game.can(Bid(260)) and not game.can(Bid(265)) and not game.can(Bid(260), 0)
    two = TwoHandedGame.new("two", seed=5)
    with pytest.raises(PhaseError, match="must play a card"):
        two.verify(NoMeld())


@pytest.mark.parametrize("rules", RULES)
def test_can_agrees_with_legal_actions(rules: str) -> None:
    rng = random.Random(f"can-{rules}")
    checked = 0
    for game in positions(rules, range(3), rng, 0.1):
        legal = set(game.legal_actions())
        pool = candidates(game, rng)
        assert all(game.can(action) for action in legal)
        for action in pool:
            assert game.can(action) is (action in legal), action
            checked += 1
        if game.to_act is not None:
            other = (game.to_act + 1) % game.rules.players
            assert not any(game.can(action, other) for action in legal)
    assert checked > 300


def play_told(rules: str, seed: int) -> tuple[AnyGame, list[Event]]:
    """A whole random game played with ``step``: the game and every event, in order."""
    rng = random.Random(seed)
    game = new_game(rules, seed=f"told-{seed}", dealer=seed % 2)
    events: list[Event] = []
    while game.phase is not Phase.GAME_OVER and len(game.results) <= HANDS:
        action, seat = cheap_action(game, rng), game.to_act
        told = game.step(action)
        assert told, action
        # the first event is the action itself, by the seat that took it
        first = told[0]
        assert getattr(first, "seat", None) == seat, (action, first)
        events += told
    return game, events


def hands(events: list[Event]) -> Iterator[list[Event]]:
    """The events cut at each ``HandScored`` (which ends its hand's list)."""
    current: list[Event] = []
    for event in events:
        current.append(event)
        if isinstance(event, HandScored):
            yield current
            current = []
    assert all(isinstance(e, GameWon | Dealt | MeldShown) for e in current), current


@pytest.mark.parametrize("rules", [r for r in RULES if not r.startswith("two")])
@pytest.mark.parametrize("seed", range(3))
def test_the_events_of_a_game_add_up_to_its_results(rules: str, seed: int) -> None:
    game, events = play_told(rules, seed)
    assert isinstance(game, Game)
    points = card_points(game.rules)
    per_hand = list(hands(events))
    assert [e.result for e in events if isinstance(e, HandScored)] == game.results
    assert len(per_hand) == len(game.results)
    teams = len(game.scores)
    for told, result in zip(per_hand, game.results, strict=True):
        tricks = [e for e in told if isinstance(e, TrickWon)]
        # each trick's number and winner as the game has them
        assert [e.trick for e in tricks] == list(result.tricks)
        assert [e.number for e in tricks] == list(range(1, len(tricks) + 1))
        assert [e.winner for e in tricks] == [t.winner for t in result.tricks]
        # the cards played are the tricks' cards, seat by seat
        played = [(e.seat, e.card) for e in told if isinstance(e, CardPlayed)]
        assert played == [(s, c) for t in result.tricks for s, c in zip(t.seats, t.cards,
                                                                        strict=True)]
        # trick points per team: the tricks' points, and three-handed the cards set aside
        taken = [0] * teams
        for e in tricks:
            taken[game.rules.team_of(e.winner)] += e.points
        if result.declarer is not None and game.rules.widow_size:
            aside = result.discards if game.rules.widow == "take" else result.widow
            taken[game.rules.team_of(result.declarer)] += sum(points[c] for c in aside)
        if result.declarer is not None:
            assert tuple(taken) == result.trick_points
        # meld: one MeldShown per seat, as the result itemizes it, summed by team
        shown = [e for e in told if isinstance(e, MeldShown)]
        if result.melds:
            assert [(e.seat, e.points, e.items) for e in shown] == [
                (s, m.points, m.items) for s, m in enumerate(result.melds)]
            meld = [0] * teams
            for one in shown:
                meld[game.rules.team_of(one.seat)] += one.points
            assert tuple(meld) == result.meld_points
        else:
            assert not shown
        # the contract and the auction
        won = [e for e in told if isinstance(e, ContractWon)]
        if result.declarer is None:
            assert not won
        else:
            assert [(e.seat, e.contract) for e in won] == [(result.declarer, result.contract)]
            assert won[0].widow == result.widow
        named = [e.suit for e in told if isinstance(e, TrumpNamed)]
        assert named == ([] if result.trump is None or not won else [result.trump])
    # the scores are the hands' scores summed; the game ends with GameWon
    assert [sum(r.scores[t] for r in game.results) for t in range(teams)] == game.scores
    if game.winner is not None:
        assert events[-1] == GameWon(game.winner)
    deals = [e for e in events if isinstance(e, Dealt)]
    last = len(game.results) + (game.winner is None)  # a deal after the last result
    assert [e.number for e in deals] == list(range(2, last + 1))
    # every action is told once, first, by its own event
    kinds = {Bid: BidMade, Pass: Passed, Redeal: RedealCalled, NameTrump: TrumpNamed,
             Give: CardsPassed, Return: CardsPassed, Discard: Discarded, ThrowIn: ThrownIn,
             Moon: MoonShot, Play: CardPlayed}
    firsts = [type(e) for e in events if type(e) in set(kinds.values())]
    assert firsts == [kinds[type(a)] for a in game.actions]


@pytest.mark.parametrize("seed", range(3))
def test_the_events_of_a_two_handed_game_add_up_to_its_results(seed: int) -> None:
    game, events = play_told("two(target=100)", seed)
    assert isinstance(game, TwoHandedGame)
    per_hand = list(hands(events))
    assert len(per_hand) == len(game.results)
    for number, (told, result) in enumerate(zip(per_hand, game.results, strict=True)):
        tricks = [e for e in told if isinstance(e, TrickWon)]
        assert [e.trick for e in tricks] == list(result.tricks)
        assert [e.number for e in tricks] == list(range(1, 25))
        taken = [0, 0]
        for won in tricks:
            taken[won.winner] += won.points
        assert tuple(taken) == result.trick_points
        # meld: what each seat laid (a nine turned up at a later deal is told with the
        # Dealt that starts it; the first deal's is only in the result)
        meld = [0, 0]
        winner = None
        for event in told:
            e = event
            if isinstance(e, TrickWon):
                winner = e.winner
            elif isinstance(e, MeldShown | MeldDeclined):
                if isinstance(e, MeldShown):
                    meld[e.seat] += e.points
                if not (isinstance(e, MeldShown) and e.items[0].name == "dix turned up"):
                    assert e.seat == winner  # the meld turn is the trick winner's
        if number == 0:
            for ev in result.events:
                if ev.name == "dix turned up":
                    meld[ev.seat] += ev.points
        assert tuple(meld) == result.meld_points
        # the stock (22 cards and the turned-up card) is drawn after the first 11 tricks'
        # meld turns, winner first: 12 cards each, the last one the turned-up card
        drew = [e for e in told if isinstance(e, Drew)]
        assert len(drew) == 24 and Counter(e.seat for e in drew) == Counter({0: 12, 1: 12})
        assert [e.public for e in drew] == [False] * 23 + [True]
    assert [sum(r.scores[s] for r in game.results) for s in (0, 1)] == game.scores
    assert game.winner is not None and events[-1] == GameWon(game.winner)
    assert game.stage is TwoStage.OVER


def test_events_of_different_kinds_never_compare_equal() -> None:
    one: list[Event] = [ThrownIn(1), MoonShot(1), RedealCalled(1)]
    assert one[0] != one[1] and one[2] != one[0]
    assert ThrownIn(1) == ThrownIn(1) and hash(ThrownIn(1)) == hash(ThrownIn(1))
    assert len({ThrownIn(1), MoonShot(1), RedealCalled(1), MeldDeclined(1)}) == 4
    assert Passed(1) != (1, False)


def test_step_and_apply_make_the_same_game() -> None:
    """``step`` is ``apply`` plus the telling: the same actions give the same game."""
    rng = random.Random(11)
    for rules in ("pagat(target=100)", "three(widow=take, target=100)", "two(target=100)"):
        told = new_game(rules, seed=3)
        plain = new_game(rules, seed=3)
        while told.phase is not Phase.GAME_OVER and len(told.results) <= HANDS:
            action = cheap_action(told, rng)
            told.step(action)
            plain.apply(action)
        assert told.record == plain.record and state(told) == state(plain)
