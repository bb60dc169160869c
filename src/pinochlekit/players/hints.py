"""Hints: what the strongest computer player would do here, and why.

The one hint service of every interface (the terminal and the web table). A
hint is computed from a seat's own view only, by the strongest built-in level
(:func:`~pinochlekit.players.hint_level`) or any level asked for, at the
thinking budget the interface gives. Nothing is played: the player is built for
the hint and closed after it.

A hint is reproducible: the player is seeded by the caller (each interface has
its seeding policy) and may first be shown the seat's earlier views of the
hand, so that it decides as a player that lived through the hand would.

>>> from pinochlekit.engine.games import new_game
>>> game = new_game("pagat", seed=1, dealer=0)
>>> hint = advise(game.view(1), "s", hint_spec(game.rules, time=0.05))
>>> hint.action in game.view(1).legal_actions, hint.level
(True, 'expert')
>>> hint.text.startswith(str(hint.action) + ":")
True

Every hint also comes in words (docs/terminal.md "Hints"): one sentence that
says what to do and why, cards written for people, and the numbers behind it,
one option a line, for a "why" (:attr:`Advice.sentence`, :attr:`Advice.why`).
A bid says how often it is made: the share of the sampled deals in which
meld plus trick points reach the bid (:attr:`Option.makes`).

>>> hint.sentence.startswith(("Bid ", "Pass"))
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pinochlekit.engine.actions import (
    Action,
    Bid,
    Discard,
    Give,
    NameTrump,
    Pass,
    Play,
    Redeal,
    Return,
    ThrowIn,
)
from pinochlekit.engine.cards import parse_cards, parse_suit
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.two.actions import Dix, LayMeld, NoMeld
from pinochlekit.engine.views import View
from pinochlekit.players import ExpertPlayer, hint_level, level_name, make_player

__all__ = ["Advice", "Option", "advise", "hint_level", "hint_spec", "people", "words"]


@dataclass(frozen=True, slots=True)
class Option:
    """One option the player weighed: its name, the mean round score of the
    simulated deals, and the lowest and highest; for an option that declares (a
    bid, a trump) ``makes``, the share of those deals in which the contract is
    made (meld plus trick points at least the bid), else None."""

    name: str
    mean: float
    low: int
    high: int
    makes: float | None = None


@dataclass(frozen=True, slots=True)
class Advice:
    """A hint: the action, the player's explanation (``ACTION: REASON; OPTION …``,
    or the action alone for a level that does not explain), the level that gave it
    and the options it weighed, best first (none for a level that only chooses);
    ``sentence`` and ``why`` are the hint in words (:func:`words`)."""

    action: Action
    text: str
    level: str
    options: tuple[Option, ...] = ()
    sentence: str = ""
    why: tuple[str, ...] = ()


def hint_spec(rules: Rules | None = None, time: float | None = None) -> str:
    """The player spec of a hint at a game of ``rules``: the hint level, with a
    thinking budget of ``time`` seconds when one is given and the level takes one
    (``expert`` does)."""
    level = hint_level(rules)
    return f"{level}(time={time})" if time is not None and level == "expert" else level


def advise(view: View, seed: int | str, spec: str | None = None,
           earlier: Sequence[View] = ()) -> Advice:
    """The hint for the seat to act in ``view`` (its own view: nothing else is seen).

    ``spec`` is the level asked (by default :func:`hint_spec` for the game, at the
    level's own budget); the player is seeded with ``seed`` and shown the
    ``earlier`` views first (their choices are discarded). An ``expert`` gives its
    decision as data (:meth:`ExpertPlayer.advise`); any other level is asked to
    ``choose``, with its ``explain`` text when it has one. Slow: interfaces call it
    in a worker thread. :class:`ValueError` if the player suggests an illegal action.
    """
    spec = spec or hint_spec(view.rules)
    player = make_player(spec, seed)
    try:
        for seen in earlier:
            player.choose(seen)
        options: tuple[Option, ...] = ()
        if isinstance(player, ExpertPlayer):
            decision = player.advise(view)
            action, text = decision.action, decision.text()
            ranked = sorted(decision.options.items(), key=lambda kv: -kv[1][0])
            options = tuple(Option(name, mean, low, high, decision.makes.get(name))
                            for name, (mean, low, high) in ranked)
        else:
            explained = player.explain(view)
            action = player.choose(view)
            text = explained if explained else str(action)
    finally:
        player.close()
    if action not in view.legal_actions:  # a player's bug must not reach the table
        raise ValueError(f"{spec} suggested {action}, not a legal action")
    sentence, why = words(view, action, text, options)
    return Advice(action, text, level_name(spec), options, sentence, why)


# -- the hint in words --------------------------------------------------------------------

_CARD = re.compile(r"\b[9JQKTA][SHDC]\b")
_DECIMAL = re.compile(r"(?<![\w.])([+-]?\d+\.\d+)")
_AT = re.compile(r"^([SHDC]) at (\d+)$")
MINUS = "\u2212"


def people(text: str) -> str:
    """A text for people: compact cards as symbols (``KD TC`` → ``K♦ 10♣``), numbers
    with a decimal rounded, a true minus sign.

    >>> people("play TC: +12.6 (-40..+75)")
    'play 10♣: +13 (−40..+75)'
    """
    text = _CARD.sub(lambda m: parse_cards(m.group(0))[0].pretty, text)
    text = _DECIMAL.sub(lambda m: f"{round(float(m.group(1))):+d}"
                        if m.group(1)[0] in "+-" else f"{round(float(m.group(1)))}", text)
    return _signs(text)


def _signs(text: str) -> str:
    return re.sub(r"(^|[\s(])-(?=\d)", lambda m: m.group(1) + MINUS, text)


def _cards(cards: Sequence[object]) -> str:
    return " ".join(getattr(c, "pretty", str(c)) for c in cards)


def _in_ten(share: float) -> str:
    """A share as a person says it: ``about 7 of 10 deals`` (``fewer than 1 in 10``,
    ``almost every deal``)."""
    tenths = round(share * 10)
    if tenths <= 0:
        return "fewer than 1 in 10 deals" if share > 0 else "none of the sampled deals"
    if tenths >= 10:
        return "almost every deal" if share < 1 else "every sampled deal"
    return f"about {tenths} of 10 deals"


def _option_line(option: Option) -> str:
    """``♦ at 260: +75.7 on average (from −660 to +580), made in 68% of the deals``."""
    name = option.name
    bid = _AT.match(name)
    if bid:
        name = f"{parse_suit(bid.group(1)).symbol} at {bid.group(2)}"
    elif re.fullmatch(r"[SHDC]", name):
        name = parse_suit(name).words
    else:
        name = people(name)
    line = f"{name}: {option.mean:+.1f} on average (from {option.low:+d} to {option.high:+d})"
    if option.makes is not None:
        line += f", made in {round(100 * option.makes)}% of the deals"
    return _signs(line)


def _over(how: str, reason: str) -> str:
    """How a choice was valued, in words: ``how`` (solved, played out) and over how
    many deals, if the player's ``reason`` says."""
    deals = re.search(r"(\d+) deals", reason)
    return f", {how} over {deals.group(1)} deals" if deals else f", {how}"


def words(view: View, action: Action, text: str,
          options: Sequence[Option] = ()) -> tuple[str, tuple[str, ...]]:
    """The hint in words: one sentence, what to do first and then why, and the numbers
    behind it, one weighed option a line, best first.

    ``text`` is the player's explanation (``ACTION: REASON; …``); ``options`` its
    weighed options. A bid says how often the contract is made on the sampled deals
    ("Bid 260: you make it in about 7 of 10 deals; naming ♦ diamonds"); a pass says
    what the cards do for the side; the rest say the reason with whole numbers.
    """
    head = text.split("; ", 1)[0]
    reason = head.partition(": ")[2]
    why = tuple(_option_line(o) for o in options)
    named = {o.name: o for o in options}
    bids = [o for o in options if _AT.match(o.name)]
    if isinstance(action, Bid) and bids:
        best = bids[0]  # the options are best first
        must = " (you must open)" if reason.startswith("must open") else ""
        made = (f": you make it in {_in_ten(best.makes)}" if best.makes is not None
                else f": {people(reason)}")
        return (f"Bid {action.amount}{must}{made}; naming "
                f"{parse_suit(best.name[0]).words}"), why
    if isinstance(action, Pass) and bids:
        best, passing = bids[0], named.get("pass")
        verb = "Pass with help" if action.help else "Pass"
        at = best.name.split(" at ")[1]
        chance = (f"at {at} you would make it in {_in_ten(best.makes)}; "
                  if best.makes is not None else "")
        than = (f" ({passing.mean:+.0f} against {best.mean:+.0f} for declaring)"
                if passing is not None else "")
        helps = "; you hold meld for your partner" if action.help else ""
        return _signs(f"{verb}: {chance}passing is worth more on average{than}{helps}"), why
    if isinstance(action, NameTrump):
        chosen = named.get(action.suit.letter)
        if chosen is not None and chosen.makes is not None:
            return (f"Name trump {action.suit.words}: you make {view.contract} in "
                    f"{_in_ten(chosen.makes)}, the best of the suits"), why
        return f"Name trump {action.suit.words}: {people(reason) or 'the only choice'}", why
    if isinstance(action, Give | Return | Discard) and options:
        cards = _cards(action.cards)
        mean = options[0].mean if options else 0.0
        kind = {"give": "passes", "return": "returns", "discard": "discards"}[action.verb]
        if isinstance(action, Give):
            first = f"Pass {cards} to your partner: they help your partner most"
        elif isinstance(action, Return):
            first = f"Return {cards} to your partner: they help your side most"
        else:
            first = f"Discard {cards}: they leave you the best hand"
        return _signs(f"{first} ({mean:+.0f} on average, the best of {len(options)} "
                      f"{kind} weighed)"), why
    if isinstance(action, Play):
        card = action.card.pretty
        if len([o for o in options if _CARD.fullmatch(o.name)]) <= 1:
            return f"Play {card}: {people(reason) or 'the only legal card'}", why
        over = _over("solved exactly" if "solved exactly" in reason else "played out",
                     reason)
        mean = named[str(action.card)].mean if str(action.card) in named else options[0].mean
        return _signs(f"Play {card}: the best card here ({mean:+.0f} on average{over})"), why
    if isinstance(action, LayMeld | Dix | NoMeld) and len(options) > 1:
        # the two-handed meld turn (docs/two-handed.md): said as a card is
        what = ("Count the dix" if isinstance(action, Dix) else "Lay no meld"
                if isinstance(action, NoMeld) else f"Lay {_cards(action.cards)}")
        over = _over("solved" if "exact" in reason else "played out", reason)
        chosen = named.get(str(action), options[0])
        return _signs(f"{what}: the best choice here ({chosen.mean:+.0f} on average"
                      f"{over})"), why
    if isinstance(action, ThrowIn):
        return f"Throw in: {people(reason) or 'the contract is out of reach'}", why
    if isinstance(action, Redeal):
        return "Call a nines redeal: a fresh deal is always worth taking", why
    said = people(str(action))
    said = said[:1].upper() + said[1:]
    return (f"{said}: {people(reason)}" if reason else said), why
