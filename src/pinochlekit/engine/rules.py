"""The rules object: one frozen field per option of docs/rules.md §2, and the presets.

>>> rules = Rules.preset("pagat")
>>> rules.min_bid, rules.must_beat, rules.target
(250, 'always', 1500)
>>> str(Rules.from_string("pagat(min_bid=200, cards_passed=3)"))
'pagat(min_bid=200, cards_passed=3)'
>>> Rules.from_string("modern") == Rules(must_beat="trump_led")
True
>>> Rules(cards_passed=5)
Traceback (most recent call last):
...
pinochlekit.RulesError: cards_passed: must be one of 4, 3, 0, not 5

Bids, meld, trick points and the target are written in the ordinary scale (a
counter is worth 10). With ``divide_by_ten`` every one of them is divided by
ten in play: :attr:`Rules.opening_bid`, :attr:`Rules.step` and
:attr:`Rules.game_target` give the values the game actually uses.

>>> pc = Rules.preset("playingcards")
>>> pc.min_bid, pc.opening_bid, pc.step, pc.game_target
(200, 20, 1, 150)
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any, Literal, get_args, get_type_hints

from pinochlekit.engine.errors import RulesError, quoted

__all__ = ["DOUBLE_DECK_OPTIONS", "DOUBLE_MOST_POINTS", "MOST_POINTS", "PRESETS",
           "PRESET_SOURCES", "TWO_HANDED_FIXED", "Rules"]

RunExtra = Literal["marries", "nothing"]
Doubles = Literal["special", "plain"]
MeldReuse = Literal["per_class", "once"]
MustBeat = Literal["always", "trump_led", "following"]
FirstLead = Literal["any", "trump"]
TrickPoints = Literal["counters", "fives", "classic"]
SetPenalty = Literal["contract", "chips", "shortfall"]
NinesRedeal = Literal["off", "six_or_five", "five"]
Widow = Literal["out", "take"]
Deck = Literal["single", "double"]
BidLadder = Literal["five_from_60", "by_one", "ten_from_100"]
Arounds = Literal["standard", "doubling"]


def _opt(default: Any, doc: str, source: str) -> Any:
    return field(default=default, metadata={"doc": doc, "source": source})


#: The most a side can score in one hand, in the ordinary scale: twice the most meld
#: twelve cards hold (1,800) and every trick point (250); no bid may be higher
#: (:func:`pinochlekit.engine.game.max_bid`).
MOST_POINTS = 2 * 1800 + 250

#: The same bound for the double deck (docs/rules.md §6): twenty cards hold at most
#: 300 in class I (a quadruple run), 408 in class II (quadruple aces and one kings
#: around, with doubling arounds) and 120 in class III, so a team scores at most
#: 2 × 828 + 50 in a hand.
DOUBLE_MOST_POINTS = 2 * (300 + 408 + 120) + 50


@dataclass(frozen=True, kw_only=True)
class Rules:
    """Every option of docs/rules.md §2 as a field; the defaults are the ``pagat`` preset.

    Build one field by field (``Rules(must_beat="trump_led")``), from a preset
    (:meth:`preset`) or from text (:meth:`from_string`). An invalid value or
    combination raises :class:`~pinochlekit.RulesError` naming the field.
    """

    players: int = _opt(4, "players at the table: 4 in two partnerships, 3 each for "
                        "themself with a widow of 3 (docs/rules.md §3), or 2 with a stock "
                        "(two-handed, docs/rules.md §4)", "all")
    min_bid: int = _opt(250, "lowest opening bid (ordinary scale)", "000, 001, 003, 004")
    bid_step: int = _opt(10, "every bid is a multiple of this (ordinary scale)", "000, 003")
    dealer_stuck: bool = _opt(
        True, "if the players before the dealer all pass, the dealer takes the minimum bid "
        "(no: the dealer may still bid; if every player passes the hand is passed out and "
        "the deal moves on)", "000, 003")
    first_bid_required: bool = _opt(
        False, "the first bidder (dealer's left) must open and may not pass", "001")
    pass_with_help: bool = _opt(True, "'pass help' is allowed", "000, 003")
    cards_passed: int = _opt(4, "cards the declarer's partner passes and gets back "
                             "(0: cutthroat, no passing)", "000, 003, 004")
    trump_needs_meld: bool = _opt(
        False, "trump must be a suit where the declarer holds a run, marriage or dix "
        "(any suit if none qualifies)", "001")
    run_extra: RunExtra = _opt(
        "marries", "an extra trump K or Q with a single run: 'marries' (190, both 230) "
        "or 'nothing' (only an extra K and Q together make a marriage: 190)", "003")
    doubles: Doubles = _opt(
        "special", "double melds: 'special' (1500/300/1000/800/600/400) or 'plain' "
        "(twice the single value)", "000, 003")
    meld_reuse: MeldReuse = _opt(
        "per_class", "'per_class': a card may serve once in each class; 'once': each card "
        "in at most one meld, best total", "001, 002")
    must_beat: MustBeat = _opt(
        "always", "'always' (old rules): beat the winning card whenever possible; "
        "'trump_led': only when trump is led (post-1945 books); 'following': when "
        "following suit, but no need to over-trump when trump was not led", "001, 003")
    first_lead: FirstLead = _opt("any", "first lead of a hand: 'any' card, or 'trump' if held",
                                 "001, 002")
    trump_follows_trump: bool = _opt(
        False, "once a non-trump lead is trumped, later players holding trump must trump, "
        "even holding the suit led", "002")
    trick_points: TrickPoints = _opt(
        "counters", "'counters': A/10/K = 10; 'fives': A/10 = 10, K/Q = 5; 'classic': "
        "A 11, 10 10, K 4, Q 3, J 2; last trick 10 in every case", "001, 002, 003")
    divide_by_ten: bool = _opt(False, "divide every meld, trick point, bid and target by ten",
                               "000, 001, 003, 004")
    save_meld_needs_trick: bool = _opt(
        True, "defenders score meld only if they take a trick point (dix-only meld exempt); "
        "in the double deck every team, the declaring one included, needs meld_counters "
        "counter points (docs/rules.md §6)", "003, 004")
    set_penalty: SetPenalty = _opt(
        "contract", "a set team: 'contract' loses the contract; 'chips' loses nothing and "
        "the opponents score the contract; 'shortfall' loses only what it fell short",
        "003, 002")
    set_forfeits_meld: bool = _opt(True, "a set team scores nothing for its meld", "001, 003")
    nines_redeal: NinesRedeal = _opt(
        "off", "a redeal instead of bidding: 'six_or_five' (six nines, or five and no other "
        "meld), 'five' (five or more nines and no meld)", "001, 004")
    max_deals: int = _opt(0, "with nines redeal: the deal that must be played (3: at most "
                          "three deals in a row); 0 for no limit", "001")
    shoot_the_moon: bool = _opt(
        False, "after meld the declarer may shoot the moon: partner sits out; every trick "
        "scores 1000 and wins the game, anything less is a set", "002")
    widow: Widow = _opt(
        "out", "three-handed: the widow is shown to all and 'out' (kept out of play, its "
        "trick points to the declarer) or 'take' (the declarer takes it and discards 3 "
        "cards, which count for the declarer)", "002")
    target: int = _opt(1500, "points that win the game (ordinary scale); if both teams "
                       "reach it in one hand the declaring team wins", "all")
    deck: Deck = _opt("single", "'single': the 48-card deck; 'double': the 80-card double "
                      "deck, 20 cards each (preset doubledeck, docs/rules.md §6)", "001, 003")
    bid_ladder: BidLadder = _opt(
        "five_from_60", "double deck: bids rise by 1 below 60 and by 5 from 60; 'by_one' "
        "throughout; 'ten_from_100': as the first, then by 10 from 100", "003 (pagat.com)")
    arounds: Arounds = _opt(
        "standard", "double deck: 'standard' arounds and pinochles (aces 10/100/150/200); "
        "'doubling': each copy doubles (aces 10/100/200/400)", "003 (pagat.com), house tables")
    meld_counters: int = _opt(
        1, "double deck: counter points a team must take in tricks for its meld to count "
        "(1, or 20 as some clubs play)", "003 (pagat.com)")

    def __post_init__(self) -> None:
        hints = _hints()
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            allowed = get_args(hints[f.name])
            if allowed and value not in allowed:
                words = ", ".join(repr(a) for a in allowed)
                raise RulesError(f.name, f"must be one of {words}, not {value!r}")
            kind = hints[f.name]
            if kind is bool and not isinstance(value, bool):
                raise RulesError(f.name, f"must be yes or no, not {value!r}")
            if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
                raise RulesError(f.name, f"must be a whole number, not {value!r}")
        self._check_combinations()

    def _check_combinations(self) -> None:
        if self.players not in (4, 3, 2):
            raise RulesError("players", f"must be 4 (partnerships), 3 (widow) or 2 (stock), "
                             f"not {self.players}")
        if self.players == 3:
            self._check_three()
        elif self.widow != "out":
            raise RulesError("widow", f"only three-handed has a widow: must be 'out' with "
                             f"{self.players} players, not {self.widow!r}")
        if self.players == 2:
            _check_two_handed(self)
        if self.deck == "double":
            _check_double(self)
            return
        for name in sorted(DOUBLE_DECK_OPTIONS - {"deck"}):
            default = _FIELD_DEFAULTS[name]
            if getattr(self, name) != default:
                raise RulesError(name, f"an option of the double deck only (deck=double); "
                                 f"leave it at {_write_value(default)}")
        if self.cards_passed not in (4, 3, 0):
            raise RulesError("cards_passed", f"must be one of 4, 3, 0, not {self.cards_passed}")
        for name in ("min_bid", "bid_step", "target"):
            if getattr(self, name) <= 0:
                raise RulesError(name, f"must be positive, not {getattr(self, name)}")
        if self.divide_by_ten:
            for name in ("min_bid", "bid_step", "target"):
                if getattr(self, name) % 10:
                    raise RulesError(name, f"must be a multiple of 10 with divide_by_ten "
                                     f"(it is written in the ordinary scale), not "
                                     f"{getattr(self, name)}")
            if self.trick_points != "counters":
                raise RulesError("divide_by_ten", f"needs trick_points='counters': "
                                 f"'{self.trick_points}' points do not divide by ten")
        if self.set_penalty == "shortfall" and not self.set_forfeits_meld:
            raise RulesError("set_forfeits_meld", "must be yes with set_penalty='shortfall' "
                             "(the shortfall already counts the meld)")
        if self.max_deals and (self.max_deals < 2 or self.nines_redeal == "off"):
            raise RulesError("max_deals", "must be 0, or 2 or more with a nines_redeal rule")
        if self.min_bid % self.bid_step:  # docs/rules.md §1 Auction: every bid a multiple of 10
            raise RulesError("min_bid", f"must be a multiple of bid_step ({self.bid_step}), "
                             f"not {self.min_bid}")
        if self.players != 2 and self.min_bid > MOST_POINTS:
            # no bid at all could be made: the first bidder who must open (or a stuck
            # dealer) would have no legal action, and nobody could ever make a contract
            raise RulesError("min_bid", f"must be at most {MOST_POINTS}, the most a side "
                             f"can score in a hand (game.max_bid), not {self.min_bid}")

    def _check_three(self) -> None:
        """docs/rules.md §3: no partners, so nothing is passed and no partner sits out."""
        if self.cards_passed:
            raise RulesError("cards_passed", f"must be 0 with 3 players (there are no "
                             f"partners to pass to), not {self.cards_passed}")
        if self.pass_with_help:
            raise RulesError("pass_with_help", "must be no with 3 players (there is no "
                             "partner to help)")
        if self.shoot_the_moon:
            raise RulesError("shoot_the_moon", "must be no with 3 players (the moon sits "
                             "partner out; three-handed has no partners)")
        if self.set_penalty == "chips":
            raise RulesError("set_penalty", "must be 'shortfall' or 'contract' with 3 "
                             "players (chip scoring pays one opposing team)")

    # -- values in play -------------------------------------------------------

    @property
    def unit(self) -> int:
        """10 with ``divide_by_ten``, else 1: ordinary values are divided by this."""
        return 10 if self.divide_by_ten else 1

    @property
    def opening_bid(self) -> int:
        """The lowest opening bid in the game's own scale."""
        return self.min_bid // self.unit

    @property
    def step(self) -> int:
        """The bid step in the game's own scale."""
        return self.bid_step // self.unit

    @property
    def game_target(self) -> int:
        """The target in the game's own scale."""
        return self.target // self.unit

    @property
    def trick_total(self) -> int:
        """All the trick points of a hand, last trick included (250, or 25; 50 with the
        double deck, docs/rules.md §6)."""
        if self.deck == "double":
            return 50
        return 250 // self.unit

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player: 12, or 15 three-handed (docs/rules.md §3); 12 in the
        two-handed game, the rest being the stock (docs/rules.md §4); 20 with the double
        deck (docs/rules.md §6)."""
        if self.deck == "double":
            return 20
        return {3: 15, 2: 12}.get(self.players, 12)

    @property
    def tricks(self) -> int:
        """Tricks in a hand: every card is played but the widow's, so 12 four-handed, 15
        three-handed (docs/rules.md §3), 24 two-handed with the stock (docs/rules.md §4)
        and 20 in the double deck (docs/rules.md §6).

        >>> [Rules.preset(p).tricks for p in ("pagat", "three", "two", "doubledeck")]
        [12, 15, 24, 20]
        """
        deck = 80 if self.deck == "double" else 48
        return (deck - self.widow_size) // self.players

    @property
    def widow_size(self) -> int:
        """Cards dealt to the widow: 3 three-handed (docs/rules.md §3), else 0."""
        return 3 if self.players == 3 else 0

    @property
    def partnership(self) -> bool:
        """Whether seats play in two partnerships (four-handed)."""
        return self.players == 4

    def team_of(self, seat: int) -> int:
        """The team of a seat: 0 for seats 0 and 2, 1 for seats 1 and 3; without
        partnerships every seat is its own team (its score index)."""
        return seat % 2 if self.players == 4 else seat

    def opponents(self, seat: int) -> list[int]:
        """The seats that score against ``seat`` (docs/rules.md §1 partnerships; every
        other seat where each plays for itself).

        >>> Rules.preset("pagat").opponents(0), Rules.preset("three").opponents(1)
        ([1, 3], [0, 2])
        """
        return [s for s in range(self.players) if self.team_of(s) != self.team_of(seat)]

    @property
    def teams(self) -> int:
        """How many scores the game keeps."""
        return 2 if self.players == 4 else self.players

    # -- presets and text -----------------------------------------------------

    @staticmethod
    def presets(players: int | None = 4, deck: str = "single") -> list[str]:
        """The preset names for ``players`` and ``deck`` (four-handed single-deck by
        default; ``players=None`` for every preset), the default first.

        >>> Rules.presets()[:3]
        ['pagat', 'modern', 'stonebridge']
        >>> Rules.presets(2), Rules.presets(4, deck="double")
        (['two'], ['doubledeck'])
        """
        return [name for name, fields in PRESETS.items()
                if players is None or (fields.get("players", 4) == players
                                       and fields.get("deck", "single") == deck)]

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The named preset; :class:`RulesError` for an unknown name."""
        return _preset(name.strip().lower())

    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed (validated like a new object)."""
        unknown = set(changes) - {f.name for f in dataclasses.fields(self)}
        if unknown:
            raise RulesError(sorted(unknown)[0], "no such option")
        return dataclasses.replace(self, **changes)

    @classmethod
    def from_string(cls, text: str) -> Rules:
        """Read ``preset``, ``preset(field=value, ...)`` or ``field=value, ...``.

        Values are numbers, ``yes``/``no`` (or ``true``/``false``) and words.

        >>> Rules.from_string("cutthroat(target=1000)").cards_passed
        0
        >>> Rules.from_string("pagat(must_beat=sometimes)")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        pinochlekit.RulesError: must_beat: must be one of 'always', ... not 'sometimes'
        >>> Rules.from_string("doubledeck(cards_passed=4")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        pinochlekit.RulesError: rules: unbalanced parentheses in 'doubledeck(cards_passed=4': ...
        """
        text = text.strip()
        if text.count("(") != text.count(")"):
            raise RulesError("rules", f"unbalanced parentheses in {text!r}: write "
                             f"preset(field=value, ...)")
        match = re.fullmatch(r"([A-Za-z_][\w]*)\s*(?:\((.*)\))?", text, re.S)
        if match and "=" not in match.group(1):
            name, body = match.group(1), match.group(2) or ""
        else:
            name, body = "pagat", text
        base = cls.preset(name)
        changes: dict[str, Any] = {}
        hints = _hints()
        for part in filter(None, (p.strip() for p in body.split(","))):
            key, sep, raw = part.partition("=")
            key, raw = key.strip(), raw.strip().strip("'\"")
            if not sep or not key:
                raise RulesError("rules", f"bad option {part!r}: write field=value")
            if key not in hints:
                raise RulesError(key, f"no such option (options: "
                                 f"{', '.join(f.name for f in dataclasses.fields(cls))})")
            if key in changes:
                raise RulesError(key, f"given twice in {text!r}")
            changes[key] = _read_value(key, hints[key], raw)
        return base.replace(**changes)

    def changes_from(self, base: Rules) -> dict[str, Any]:
        """The fields whose values differ from ``base``, in field order."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                if getattr(self, f.name) != getattr(base, f.name)}

    @property
    def nearest_preset(self) -> str:
        """The preset that needs the fewest overrides to give these rules (among the
        presets for the same number of players, when there are any)."""
        names = Rules.presets(self.players, self.deck) or list(PRESETS)
        return min(names, key=lambda name: len(self.changes_from(Rules.preset(name))))

    def __str__(self) -> str:
        return _rules_text(self)

    def _text(self) -> str:
        name = self.nearest_preset
        changes = self.changes_from(Rules.preset(name))
        if not changes:
            return name
        body = ", ".join(f"{k}={_write_value(v)}" for k, v in changes.items())
        return f"{name}({body})"

    def fixed_options(self) -> frozenset[str]:
        """The options this game keeps at one value whatever is asked (so that a list of
        its options can leave them out): the double deck's own options in the single-deck
        games, the single deck's in the double deck (docs/rules.md §6), the partners'
        options three-handed (§3), the widow but three-handed, and the auction, passing
        and contract options in the two-handed game (§4).

        >>> sorted(Rules.preset("doubledeck").fixed_options())[:3]
        ['bid_step', 'divide_by_ten', 'doubles']
        >>> sorted(Rules.preset("pagat").fixed_options())
        ['arounds', 'bid_ladder', 'meld_counters', 'widow']
        """
        if self.deck == "double":
            return frozenset(_DOUBLE_FIXED) - {"players"}
        fixed = DOUBLE_DECK_OPTIONS - {"deck"}
        if self.players == 3:  # §3: no partner to pass to, help or sit out
            return fixed | {"cards_passed", "pass_with_help", "shoot_the_moon"}
        fixed |= {"widow"}  # only three-handed has a widow
        return fixed | TWO_HANDED_FIXED if self.players == 2 else fixed

    def describe(self) -> list[tuple[str, str, str, str]]:
        """Every option as (name, value, meaning, source) rows."""
        return [(f.name, _write_value(getattr(self, f.name)), f.metadata["doc"],
                 f.metadata["source"]) for f in dataclasses.fields(self)]


#: The options of the double deck only (docs/rules.md §6), with ``deck`` itself: the
#: single-deck games refuse any change to them.
DOUBLE_DECK_OPTIONS: frozenset[str] = frozenset({"deck", "bid_ladder", "arounds",
                                                 "meld_counters"})

#: Options the double deck does not offer (docs/rules.md §6): they keep these values.
_DOUBLE_FIXED: dict[str, tuple[Any, str]] = {
    "players": (4, "the double deck is the four-handed partnership game"),
    "bid_step": (1, "the steps are bid_ladder's"),
    "pass_with_help": (False, "the double-deck auction has no pass with help"),
    "trump_needs_meld": (False, "any suit may be trump"),
    "run_extra": ("marries", "the double-deck meld table has its own marriages"),
    "doubles": ("special", "the double-deck meld table has its own doubles (see arounds)"),
    "meld_reuse": ("per_class", "a card serves once per class"),
    "trick_points": ("counters", "counters are 1 each"),
    "divide_by_ten": (False, "the values are already in the bidding scale"),
    "nines_redeal": ("off", "the double deck has no nines"),
    "max_deals": (0, "there is no nines redeal"),
    "shoot_the_moon": (False, "not a double-deck option"),
    "widow": ("out", "there is no widow"),
}


def _check_double(rules: Rules) -> None:
    """docs/rules.md §6: the double deck's options, each refused naming its field."""
    for name, (value, reason) in _DOUBLE_FIXED.items():
        if getattr(rules, name) != value:
            raise RulesError(name, f"must be {_write_value(value)} with deck=double ({reason}), "
                             f"not {_write_value(getattr(rules, name))}")
    if rules.cards_passed not in (0, 2, 3, 4):
        raise RulesError("cards_passed", f"must be one of 0, 2, 3, 4 with deck=double, not "
                         f"{rules.cards_passed}")
    if rules.set_penalty == "shortfall":
        raise RulesError("set_penalty", "must be 'contract' or 'chips' (progressive) with "
                         "deck=double")
    if rules.meld_counters not in (1, 20):
        raise RulesError("meld_counters", f"must be 1 or 20, not {rules.meld_counters}")
    for name in ("min_bid", "target"):
        if getattr(rules, name) <= 0:
            raise RulesError(name, f"must be positive, not {getattr(rules, name)}")
    if rules.min_bid > DOUBLE_MOST_POINTS:
        raise RulesError("min_bid", f"must be at most {DOUBLE_MOST_POINTS}, the most a team "
                         f"can score in a double-deck hand, not {rules.min_bid}")
    top = _DOUBLE_TOP_BID[rules.bid_ladder]
    if rules.min_bid > top:
        # docs/rules.md §6 bid ladder: above its highest amount no bid is on the ladder, so
        # a first bidder who must open would have no legal action and no contract be bid
        raise RulesError("min_bid", f"must be at most {top} with bid_ladder="
                         f"{rules.bid_ladder} (its highest bid), not {rules.min_bid}")


#: The highest amount of each double-deck bid ladder (docs/rules.md §6) at or below
#: :data:`DOUBLE_MOST_POINTS`: by 1, by 5 from 60, by 10 from 100.
_DOUBLE_TOP_BID: dict[str, int] = {
    "by_one": DOUBLE_MOST_POINTS, "five_from_60": DOUBLE_MOST_POINTS - DOUBLE_MOST_POINTS % 5,
    "ten_from_100": DOUBLE_MOST_POINTS - DOUBLE_MOST_POINTS % 10}


#: Options with no meaning in the two-handed game (no auction, no partners, one
#: combination per meld): they must keep their default values with ``players=2``.
_NOT_FOR_TWO: dict[str, str] = {
    "min_bid": "there is no auction", "bid_step": "there is no auction",
    "dealer_stuck": "there is no auction", "first_bid_required": "there is no auction",
    "pass_with_help": "there is no auction", "cards_passed": "there is no passing",
    "trump_needs_meld": "the turned-up card makes trump",
    "first_lead": "the first trick is played without any obligation",
    "trump_follows_trump": "a trick has only two cards",
    "save_meld_needs_trick": "every meld counts when it is laid",
    "set_penalty": "there is no contract", "set_forfeits_meld": "there is no contract",
    "nines_redeal": "there is no auction", "max_deals": "there is no auction",
    "shoot_the_moon": "there is no contract",
    "run_extra": "a meld is laid one combination at a time",
    "doubles": "a meld is laid one combination at a time",
}

#: The options the two-handed game refuses to change from their defaults
#: (docs/rules.md §4), for interfaces that leave them off their forms.
TWO_HANDED_FIXED: frozenset[str] = frozenset(_NOT_FOR_TWO)


def _check_two_handed(rules: Rules) -> None:
    """docs/rules.md §4: refuse, naming the field, options that make no sense with two players."""
    for f in dataclasses.fields(rules):
        reason = _NOT_FOR_TWO.get(f.name)
        if reason and getattr(rules, f.name) != f.default:
            raise RulesError(f.name, f"not an option of the two-handed game ({reason}); "
                             f"leave it at {_write_value(f.default)}")


@cache
def _preset(name: str) -> Rules:
    overrides = PRESETS.get(name)
    if overrides is None:
        raise RulesError("preset", f"unknown preset {name!r}; presets: {', '.join(PRESETS)}")
    return Rules(**overrides)


@lru_cache(maxsize=256)
def _rules_text(rules: Rules) -> str:
    return rules._text()


_FIELD_DEFAULTS: dict[str, Any] = {f.name: f.default for f in dataclasses.fields(Rules)}


@lru_cache(maxsize=1)
def _hints() -> dict[str, Any]:
    return get_type_hints(Rules)


def _read_value(key: str, kind: Any, raw: str) -> Any:
    if kind is bool:
        low = raw.lower()
        if low in ("yes", "true", "on", "1"):
            return True
        if low in ("no", "false", "off", "0"):
            return False
        raise RulesError(key, f"must be yes or no, not {quoted(raw)}")
    if kind is int:
        # ASCII digits only: int() would also read "1_000" and other scripts' digits
        if not re.fullmatch(r"-?[0-9]+", raw):
            raise RulesError(key, f"must be a whole number, not {quoted(raw)}")
        if len(raw.lstrip("-")) > 9:  # no option reaches a billion (and int() has a limit)
            raise RulesError(key, f"{quoted(raw)} is out of range: at most nine digits")
        return int(raw)
    return raw


def _write_value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


#: Preset name → the fields it changes from the defaults (docs/rules.md §2 Presets).
PRESETS: dict[str, dict[str, Any]] = {
    "pagat": {},
    "modern": {"must_beat": "trump_led"},
    "stonebridge": {"min_bid": 190, "cards_passed": 0, "doubles": "plain",
                    "must_beat": "trump_led", "trick_points": "fives"},
    "playingcards": {"divide_by_ten": True, "min_bid": 200, "cards_passed": 3,
                     "nines_redeal": "five", "save_meld_needs_trick": False},
    "chips": {"set_penalty": "chips"},
    "cutthroat": {"cards_passed": 0},
    "family1000": {"target": 1000, "first_lead": "trump", "trump_follows_trump": True,
                   "trick_points": "classic", "meld_reuse": "once",
                   "set_penalty": "shortfall", "shoot_the_moon": True},
    "three": {"players": 3, "target": 1000, "cards_passed": 0, "pass_with_help": False,
              "set_penalty": "shortfall"},
    "two": {"players": 2, "trick_points": "classic", "target": 1000},
    "doubledeck": {"deck": "double", "min_bid": 50, "bid_step": 1, "cards_passed": 0,
                   "pass_with_help": False, "target": 500},
}

#: Preset name → where its rules come from.
PRESET_SOURCES: dict[str, str] = {
    "pagat": "'My Family's Pinochle' as on pagat.com (seeds 000 and 003): docs/rules.md §1",
    "modern": "pagat with the post-1945 books' play: must beat only when trump is led "
              "(seed 003, Variations)",
    "stonebridge": "Steve Birnbaum's Stonebridge Pinochle as summarised in seed 003: "
                   "minimum bid 190, no passing, plain doubles, K/Q worth 5",
    "playingcards": "PlayingCards.io rules (seed 004): divide by ten, bid 20 by 1, pass 3, "
                    "game 150, nines redeal, meld kept without a trick",
    "chips": "pagat with Robert J Gauen's chip scoring (seed 003, Variations)",
    "cutthroat": "pagat with no passing (seed 003, 'cutthroat')",
    "family1000": "the four-handed game of seed 002: game 1000, trump led first, trump "
                  "follows trump, classic trick points, each card in one meld, shortfall "
                  "set, shoot the moon",
    "three": "three-handed auction pinochle of seed 002 (docs/rules.md §3): 15 cards each and a "
             "widow of 3 shown to all, individual bidding and meld, a short declarer loses "
             "the shortfall, game 1000; the rest as pagat (docs/three-handed.md)",
    "two": "two-handed pinochle, Bicycle's version (seed 000, docs/rules.md §4): 12 cards each, "
           "turned-up trump, stock, one meld per won trick, classic trick points, game 1000",
    "doubledeck": "double-deck partnership pinochle (docs/rules.md §6, pagat.com's Double Deck "
                  "Pinochle page): 80 cards, 20 each, bid from 50, no passing, counters 1 "
                  "each, game 500 (docs/double-deck.md)",
}
