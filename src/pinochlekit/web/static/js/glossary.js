// The table's jargon in a few words: the glossary dialog (the "Glossary" button at the
// table) and the tooltip of a term where it appears.
import { el } from "./cards.js";

/** Term -> what it means, in players' words. */
export const GLOSSARY = {
  "counters": "The points taken in tricks: each ace, ten and king is worth 10, and the last trick 10 more (under the table's trick-point rule).",
  "meld": "Combinations in hand (marriages, runs, pinochles, arounds) shown after trump is named; they score only with the points taken in tricks.",
  "made": "The declaring side's meld plus its counters reached the contract: it scores both.",
  "set": "The declaring side fell short of its contract: it loses the contract instead of scoring (or the shortfall, under some rules).",
  "not on the board": "The declaring side's meld plus every counter still to be won cannot reach the contract: the hand is thrown in at once and set, without playing a card.",
  "pass with help": "A pass that tells your partner your hand holds help for them (an ace or meld); it is a pass all the same and everyone sees it in the auction.",
  "(not saved)": "The defenders' meld counts only if they take at least one trick point (a meld of only the dix excepted); without one it is 'not saved' and scores nothing.",
  "(too few counters)": "Double deck: a side's meld counts only if it takes counters in tricks (at least one, or 20 under the table's rules); without them it is 'not saved' and scores nothing, the declaring side's too.",
  "stuck": "Everyone else passed, so the dealer must take the contract at the minimum bid.",
  "throw in": "The declarer concedes after seeing the meld, before the first card: the declaring side is set, no cards are played, and the other side scores its meld.",
  "shoot the moon": "The declarer plays alone and must take every trick: made, it scores 1,000 and wins the game; any trick lost and it is set.",
  "widow": "Three-handed: three cards dealt face up to the middle after the auction; they count (or, taken, are played) for the declarer.",
  "dix": "The nine of trump: worth 10 in meld; two-handed it may be exchanged for the turned-up card.",
  "nines redeal": "Where the rules allow it, a player holding five (or six) nines may call for a new deal at their first call instead of bidding.",
  "trick points": "The running count of counters each side has taken so far this hand.",
};

/** Why a side's meld did not count in a finished hand (a hand summary from the server),
 * or null if it counted: the declaring side's is lost with the contract, another side's
 * is not saved, for want of a trick point (docs/rules.md §1.11) or, in the double deck,
 * of its counters (§6; every side, the declarer's too, set or not; a set side's meld
 * saved by its counters is lost with the contract unless the rules keep it). ``why`` is in words, ``term``
 * the glossary entry that explains it. The terminal says the same (text/results.py). */
export function unsavedMeld(hand, side, declaring) {
  if (!hand.meld_points[side]) return null;
  const set = side === declaring && hand.outcome !== "made" ? { why: "set", term: "set" } : null;
  if (hand.deck === "double") {
    if (!hand.meld_saved[side]) return { why: "too few counters", term: "(too few counters)" };
    // saved by its counters, a set side's meld is still lost unless the rules keep it,
    // and then its score is its meld less the contract (docs/double-deck.md "Set")
    return set && hand.scores[side] !== hand.meld_points[side] - hand.contract ? set : null;
  }
  if (hand.meld_saved[side]) return null;
  return set || { why: "no trick points", term: "(not saved)" };
}

/** What the declaring side ``us`` took towards its contract, in words: "meld 40 +
 * counters 19 = 59"; in the double deck its meld counts only when its counters save it
 * (docs/rules.md §6), else "counters 19 (meld 30 not saved: too few counters)". The
 * terminal says the same (text/results.py). */
export function declarerTook(hand, us) {
  const meld = hand.meld_points[us];
  const counters = hand.trick_points[us];
  return hand.deck === "double" && meld && !hand.meld_saved[us]
    ? `counters ${counters} (meld ${meld} not saved: too few counters)`
    : `meld ${meld} + counters ${counters} = ${meld + counters}`;
}

/** A small "?" after a term: its meaning as a tooltip (title), and a click opens the
 * glossary at it. */
export function term(name) {
  const mark = el("button", "?", "term");
  mark.type = "button";
  mark.title = GLOSSARY[name] || name;
  mark.setAttribute("aria-label", `What "${name}" means`);
  mark.dataset.term = name;
  mark.addEventListener("click", () => openGlossary(name));
  return mark;
}

/** Fill and open the glossary dialog (#glossary), with ``name`` highlighted. */
export function openGlossary(name = null) {
  const dialog = document.getElementById("glossary");
  const list = document.getElementById("glossary-list");
  list.replaceChildren();
  for (const [word, meaning] of Object.entries(GLOSSARY)) {
    const dt = el("dt", word);
    const dd = el("dd", meaning);
    if (word === name) { dt.classList.add("looked-up"); dd.classList.add("looked-up"); }
    list.append(dt, dd);
  }
  if (!dialog.open) dialog.showModal();
}
