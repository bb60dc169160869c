"""The table's computer players decide as players living through the hand would.

A ``standard`` or ``pro`` player simulates its bidding table at its first bid of
a hand and keeps it for the rest of the auction and for naming trump
(docs/players.md). The table builds a fresh player for every decision, so the
seed of a decision before the play depends on (game seed, seat, hand number)
only, and the fresh player is first shown the seat's earlier views of the hand:
it then holds exactly the table the long-lived player would have kept.
"""

from __future__ import annotations

from collections import defaultdict

from pinochlekit.engine.actions import Action, Pass
from pinochlekit.engine.views import Phase
from pinochlekit.players import make_player
from pinochlekit.players.standard import StandardPlayer
from pinochlekit.tui.session import Session, Turn

LEVEL = "standard(bid_sims=8)"


def auction_turns(seed: int) -> tuple[Session, dict[tuple[int, int], list[tuple[Turn, Action]]]]:
    """Play hand 1 to its first card (the person always passes); each computer seat's
    decisions before the play, with the action the table took."""
    session = Session.new("pagat", seed=seed, levels=[LEVEL])
    turns: dict[tuple[int, int], list[tuple[Turn, Action]]] = defaultdict(list)
    while session.game.phase is not Phase.PLAY and session.game.hand_number == 1:
        if session.is_human_turn:
            legal = session.game.legal_actions()
            session.act(Pass() if Pass() in legal else legal[0])
            continue
        turn = session.computer_turn()
        action = session.computer_choice(turn)
        session.apply_computer(turn, action)
        turns[turn.view.seat or 0, turn.view.hand_number].append((turn, action))
    return session, turns


def table_of(player: object) -> object:
    assert isinstance(player, StandardPlayer)
    return player._table


def test_a_fresh_player_keeps_the_table_of_the_first_bid() -> None:
    checked = 0
    for seed in range(12):
        _, turns = auction_turns(seed)
        for (seat, _), decisions in turns.items():
            if len(decisions) < 2:
                continue
            first, second = decisions[0][0], decisions[1][0]
            # One seed for the whole hand's auction, whatever the position.
            assert first.seed == second.seed
            assert first.position != second.position
            assert [view.seat for view in second.earlier] == [seat]
            at_first = first.player(LEVEL)
            at_first.choose(first.view)
            at_second = second.player(LEVEL)
            at_second.choose(second.view)
            assert table_of(at_second) == table_of(at_first)
            # A player living through the whole auction makes the same calls.
            living = make_player(LEVEL, first.seed)
            assert [living.choose(turn.view) for turn, _ in decisions] == \
                [action for _, action in decisions]
            assert table_of(living) == table_of(at_first)
            checked += 1
    assert checked >= 3, "too few seats bid twice to test anything"


def test_play_decisions_stay_keyed_by_position() -> None:
    session, _ = auction_turns(3)
    seeds = set()
    for _ in range(8):
        if session.is_human_turn:
            session.act(str(session.game.legal_actions()[0]))
            continue
        turn = session.computer_turn()
        assert turn.earlier == ()
        assert turn.seed.endswith(f"/{turn.view.seat}/{turn.position}")
        seeds.add(turn.seed)
        session.apply_computer(turn, session.computer_choice(turn))
    assert len(seeds) >= 4
