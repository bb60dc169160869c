"""Hand history and step-by-step replay of finished hands.

Only finished hands are shown: their deal seeds are revealed, so every card
of them is public. The hand in progress stays hidden.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from pinochlekit.engine.games import AnyGame, new_any_game
from pinochlekit.engine.views import Phase
from pinochlekit.web.messages import hand_summary, view_dict

if TYPE_CHECKING:
    from pinochlekit.web.table import Table

__all__ = ["hand_replay", "table_history"]


def table_history(table: Table) -> dict[str, Any]:
    """Every game played at the table, with its finished hands."""
    games = []
    for number, (_, game) in enumerate(table.games):
        games.append({
            "game_no": number, "rules": str(game.rules), "deck": game.rules.deck,
            "first_dealer": game.first_dealer,
            "over": game.phase is Phase.GAME_OVER, "winner": game.winner,
            "scores": list(game.scores),
            "hands": table.hand_summaries(number),
            # docs/web.md "Fairness and privacy": revealed once the game is over
            "fair": next((g for g in table.fair(everything=True)["games"]
                          if g["game_no"] == number), None)})
    return {"id": table.id, "title": table.title,
            "seats": [s.info() for s in table.seats], "games": games}


def hand_replay(table: Table, game_no: int, hand: int) -> dict[str, Any]:
    """Hand ``hand`` (from 1) of game ``game_no`` (from 0), step by step, every hand shown.

    Each step is the table before one action, with the action taken; the
    result comes last. :class:`LookupError` for a hand not (yet) finished.
    """
    if not 0 <= game_no < len(table.games):
        raise LookupError(f"no game {game_no} at this table")
    seed, played = table.games[game_no]
    if not 1 <= hand <= len(played.results):
        raise LookupError(f"hand {hand} of game {game_no} is not finished (finished hands: "
                          f"1 to {len(played.results)})")
    game = new_any_game(played.rules, seed=seed, dealer=played.first_dealer)
    steps: list[dict[str, Any]] = []
    for action in played.actions:
        if game.deal_index > hand - 1:
            break
        if game.deal_index == hand - 1:
            steps.append(_snapshot(game, str(action)))
        game.apply(action)
    summary = hand_summary(seed, hand - 1, played.results[hand - 1], played.rules.players,
                           played.rules.deck)
    final = _final(steps[-1], summary) if steps else None
    return {"table": table.id, "game_no": game_no, "hand": hand,
            "seats": [s.info() for s in table.seats], "steps": steps, "final": final,
            "result": summary}


def _final(last: dict[str, Any], summary: dict[str, Any]) -> dict[str, Any]:
    """The table after the hand's last action: the engine has dealt the next hand by
    then, so it is the last step with its action done (a card played leaves the hand
    and joins the trick) and the trick points of the result."""
    view = copy.deepcopy(last["view"])
    seat, action = last["seat"], last["action"]
    if action.startswith("play ") and seat is not None:
        card = action.split()[1]
        cards = view["hands"][seat].split()
        if card in cards:
            cards.remove(card)
        view["hands"][seat] = " ".join(cards)
        view["trick"] = [*view["trick"], [seat, card]]
    view["trick_points"] = list(summary["trick_points"])
    view["to_act"] = None
    return {"seat": None, "action": None, "view": view}


def _snapshot(game: AnyGame, action: str) -> dict[str, Any]:
    view = view_dict(game.public_view())
    view["hands"] = [str(game.hand(s)) for s in range(game.rules.players)]
    return {"seat": game.to_act, "action": action, "view": view}
