// Step-by-step replay of a finished hand: every hand shown, one action at a time.
import { api, cardElement, cardName, cardsText, cardText, el, plainCard, scoresText, seatLabel, seatName, SUIT_NAME } from "./cards.js";

const $ = (id) => document.getElementById(id);
const [, , tableId, gameNo, handNo] = location.pathname.split("/");
let data = null;
let step = 0;

function render() {
  const total = data.steps.length;
  const atEnd = step >= total;
  $("where").textContent = atEnd ? `Result (after ${total} actions)` : `Step ${step + 1} of ${total}`;
  const board = $("board");
  board.replaceChildren();
  $("result").replaceChildren();
  $("prev").disabled = step === 0;
  $("first").disabled = step === 0;
  $("next").disabled = atEnd;
  $("last").disabled = atEnd;
  // a hand with no recorded steps: only its result can be shown
  // the last step is the table after the final action (the server's ``final``): the
  // last card out of its hand and into the trick, the trick points of the result
  const current = total === 0 ? null : atEnd ? (data.final || data.steps[total - 1]) : data.steps[step];
  if (current === null) {
    $("step-action").textContent = "";
    board.append(el("p", "No actions were recorded for this hand.", "hint"));
    showResult();
    return;
  }
  const view = current.view;
  $("step-action").textContent = atEnd ? "" :
    `${seatName(data, current.seat)} (${seatLabel(data, current.seat)}) will: ${current.action.replace(/\b([2-9TJQKA])([SHDC])\b/g, (m) => cardName(m))}`;
  $("step-action").title = atEnd ? "" : current.action.replace(/\b([9TJQKA])([SHDC])\b/g, (m) => cardText(m));
  view.hands.forEach((hand, seat) => {
    const row = el("div", "", "replay-seat");
    row.append(el("strong", `${seatLabel(data, seat)} — ${seatName(data, seat)}${view.dealer === seat ? " (dealer)" : ""}: `));
    const cards = el("span", "", "trick-row");
    for (const card of hand.split(" ").filter(Boolean)) cards.append(cardElement(card));
    row.append(cards);
    board.append(row);
  });
  const info = [];
  if (view.trump) info.push(`trump ${SUIT_NAME[view.trump]}`);
  if (view.declarer !== null) info.push(`${seatName(data, view.declarer)} declared ${view.contract}`);
  info.push(`trick points: ${scoresText(data, view.trick_points)}`);
  if (view.players === 2) {
    // docs/rules.md §4: the stock, its turned-up card and the melds laid on the table
    info.push(`stock ${view.stock_size}${view.turn_up ? `, turned up ${cardName(view.turn_up)}` : ""}`);
    info.push(view.stage);
  }
  board.append(el("p", info.join(" · ")));
  if (data.result.widow) board.append(el("p", `Widow: ${cardsText(data.result.widow)}`));
  if (view.players === 2) {
    view.table.forEach((laid, seat) => {
      if (laid.length) board.append(el("p", `${seatName(data, seat)} has on the table: ${cardsText(laid.map(plainCard).join(" "))}`));
    });
  }
  if (view.trick.length) {
    const trick = el("div", "", "trick-row");
    trick.setAttribute("aria-label", "Trick in progress");
    for (const [seat, card] of view.trick) trick.append(cardElement(card, { label: `${seatName(data, seat)}: ${cardName(card)}` }));
    board.append(el("p", atEnd ? "The last trick:" : "Trick in progress:"), trick);
  }
  if (atEnd) showResult();
}

function showResult() {
  const r = data.result;
  const rest = r.players === 3 ? `Widow ${cardsText(r.widow)}${r.discards ? `, discards ${cardsText(r.discards)}` : ""}. `
    : r.players === 2 ? `Turned up and stock, in drawing order: ${cardsText(r.rest)}. ` : "";
  $("result").append(el("h2", `Result: ${r.outcome}`), el("p", rest),
    el("p", `Meld: ${scoresText(data, r.meld_points)}. Tricks: ${scoresText(data, r.trick_points)}. This hand: ${scoresText(data, r.scores, true)}. Totals: ${scoresText(data, r.totals)}.`),
    el("p", `Deal seed ${r.deal_seed} (SHA-256 ${r.commitment}).`, "hint small"));
}

function go(to) {
  step = Math.max(0, Math.min(data.steps.length, to));
  render();
}

async function main() {
  try {
    data = await api("GET", `/api/tables/${tableId}/games/${gameNo}/hands/${handNo}`);
  } catch (error) {
    $("error").textContent = error.message;
    return;
  }
  $("title").textContent = `— replay of hand ${handNo}`;
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(step - 1));
  $("next").addEventListener("click", () => go(step + 1));
  $("last").addEventListener("click", () => go(data.steps.length));
  document.addEventListener("keydown", (event) => {
    if (event.key === "ArrowLeft") go(step - 1);
    if (event.key === "ArrowRight") go(step + 1);
  });
  render();
}

main();
