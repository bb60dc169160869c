// A hint in words, as the terminal gives it (docs/web.md "Hints"): one sentence
// first ("Bid 260: you make it in about 7 of 10 deals; naming ♦ diamonds"), the
// numbers behind it one option a line, for the "why". The server sends both
// (``sentence``, ``why``); a hint without them (an older server) is worded here.
import { SUIT_NAME, SUIT_SYMBOL } from "./cards.js";

const MINUS = "\u2212";

/** A true minus sign for every negative number (a hyphen reads as a dash). */
export function minus(text) {
  return text.replace(/(^|[\s(])-(?=\d)/g, `$1${MINUS}`);
}

/** The suit letter before " at 260" as its symbol: "D at 260" → "♦ at 260". */
function suits(text) {
  return text.replace(/(^|[^\w♠♥♦♣])([SHDC])(?= at \d)/g, (_, before, suit) => `${before}${SUIT_SYMBOL[suit]}`);
}

/** Numbers with one decimal rounded to whole points, as a person says them. */
function rounded(text) {
  return text.replace(/(^|[^\w.])([+-]?)(\d+)\.(\d)\b/g, (_, before, sign, whole, tenth) => {
    const value = Math.round(Number(`${sign}${whole}.${tenth}`));
    return `${before}${sign === "+" && value >= 0 ? "+" : ""}${value}`;
  });
}

function signed(value) {
  return value > 0 ? `+${value}` : `${value}`;
}

/** A weighed option on one line: "♦ at 260: +75.7 on average (from −660 to +580)". */
function optionLine(option, people) {
  const range = option.low === undefined ? "" : ` (from ${signed(option.low)} to ${signed(option.high)})`;
  return minus(`${people(suits(option.name))}: ${signed(option.mean)} on average${range}`);
}

/** The sentence and the lines of a ``hint`` message (``people`` writes cards for
 * people: K♦, 10♣). */
export function hintWords(hint, people) {
  // the server words the hint as the terminal does (players/hints.py: the same sentence)
  if (hint.sentence) return { sentence: hint.sentence, reasons: hint.why || [] };
  const [head, ...rest] = hint.text.split("; ");
  const cut = head.indexOf(": ");
  let action = cut >= 0 ? head.slice(0, cut) : hint.action;
  const reason = cut >= 0 ? head.slice(cut + 2) : "";
  const options = hint.options || [];
  // a bid names the suit the player means to call: the best option's
  const best = options.length ? /^([SHDC]) at \d/.exec(options[0].name) : null;
  if (action.startsWith("bid ") && best) action += `, naming ${SUIT_SYMBOL[best[1]]} ${SUIT_NAME[best[1]]}`;
  action = people(action);
  action = action[0].toUpperCase() + action.slice(1);
  const sentence = minus(action + (reason ? `: ${people(suits(rounded(reason)))}` : ""));
  let reasons = options.map((o) => optionLine(o, people));
  if (!reasons.length && rest.length) {
    reasons = rest.join("; ").split(", ").filter((p) => p.trim()).map((p) => minus(people(suits(p.trim()))));
  }
  return { sentence, reasons };
}
