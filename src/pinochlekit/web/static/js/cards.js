// Shared helpers: card names for screen readers, card elements, seat names, HTTP.

export const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const SUIT_NAME = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK_NAME = { A: "ace", T: "ten", K: "king", Q: "queen", J: "jack", 9: "nine" };
const RANK_SHOWN = { A: "A", T: "10", K: "K", Q: "Q", J: "J", 9: "9" };

/** "TS" -> "ten of spades". */
export function cardName(card) {
  return `${RANK_NAME[card[0]]} of ${SUIT_NAME[card[1]]}`;
}

/** A list of cards as words: "ace of spades, ten of hearts". */
export function cardsName(text) {
  return text ? text.split(" ").map(cardName).join(", ") : "no cards";
}

/** The card notation for people (docs/rules.md's K♦ 10♣): "TC" -> "10♣". The compact
 * form ("TC") stays in the protocol only. */
export function cardText(card) {
  return `${RANK_SHOWN[card[0]]}${SUIT_SYMBOL[card[1]]}`;
}

/** A list of compact cards ("KD QD") in the notation for people ("K♦ Q♦"). */
export function cardsText(text) {
  return text ? text.split(" ").filter(Boolean).map((c) => (/^[9TJQKA][SHDC]$/.test(c) ? cardText(c) : c)).join(" ") : "";
}

/** Free text (an action, a hint's explanation) with every compact card ("play JD")
 * written for people ("play J♦"). */
export function peopleText(text) {
  return text.replace(/\b([9TJQKA])([SHDC])\b/g, (m) => cardText(m));
}

/** A card face as an element (a button when ``onClick`` is given). */
export function cardElement(card, { button = false, label = null } = {}) {
  const el = document.createElement(button ? "button" : "span");
  if (button) el.type = "button";
  el.className = `card suit-${card[1]}`;
  el.dataset.card = card;
  el.setAttribute("aria-label", label || cardName(card));
  const rank = document.createElement("span");
  rank.className = "rank";
  rank.textContent = RANK_SHOWN[card[0]];
  const suit = document.createElement("span");
  suit.className = "pip";
  suit.textContent = SUIT_SYMBOL[card[1]];
  suit.setAttribute("aria-hidden", "true");
  rank.setAttribute("aria-hidden", "true");
  el.append(rank, suit);
  return el;
}

/** An element with text, optional class. */
export function el(tag, text = "", cls = "") {
  const node = document.createElement(tag);
  if (text) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

export const COMPASS = ["South", "West", "North", "East"];
// Seats go clockwise from South; three players leave North empty, two sit opposite.
const LABELS = { 2: ["South", "North"], 3: ["South", "West", "East"], 4: COMPASS };

/** The compass names of the seats of a table of ``players``. */
export function seatLabels(players) {
  return LABELS[players] || COMPASS;
}

/** The compass name of a seat of a table (``table.seats`` gives the number of players). */
export function seatLabel(table, seat) {
  return seatLabels(table.seats.length)[seat];
}

/** The name shown for a seat of a table. */
export function seatName(table, seat) {
  const info = table.seats[seat];
  if (!info || !info.name) return seatLabel(table, seat);
  return info.kind === "human" ? info.name : `${seatLabel(table, seat)} (${info.name})`;
}

/** Who scores: the two teams four-handed ("Ann & North (standard)"), else each seat. */
export function sideNames(table) {
  const n = table.seats.length;
  if (n === 4) return [0, 1].map((t) => `${seatName(table, t)} & ${seatName(table, t + 2)}`);
  return table.seats.map((_, seat) => seatName(table, seat));
}

/** A number as a person reads it: a true minus (−470), and with ``sign`` a plus (+600). */
export function points(value, sign = false) {
  return value < 0 ? `\u2212${-value}` : sign && value > 0 ? `+${value}` : `${value}`;
}

/** Scores labelled by side: "Ann & North −470, West & East +600" (never "−470 – 600",
 * which reads as a subtraction). */
export function scoresText(table, values, sign = false) {
  const names = sideNames(table);
  return values.map((v, i) => `${names[i]} ${points(v, sign)}`).join(", ");
}

/** A card of the two-handed table ("KS(I+II)") without its meld-class marks: "KS". */
export function plainCard(card) {
  return card.replace(/\(.*\)$/, "");
}

/** JSON over HTTP; throws an Error with the server's message. */
export async function api(method, url, body) {
  const response = await fetch(url, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error || `${response.status} ${response.statusText}`);
  return data;
}

export function tokenKey(tableId) {
  return `pinochle.token.${tableId}`;
}
