// The review panel of a finished hand (docs/web.md "Review", docs/review.md): asks the
// server for the review, shows its progress, then steps through the seat's decisions
// one by one, the choice and the better play drawn on the cards.
import { api, cardElement, cardText, el, peopleText, points, seatLabels } from "./cards.js";

const POLL_MS = 400;
const MARK_WORDS = { "?": "doubtful", "??": "blunder" };
let current = null; // { ask, review, index, timer }

function dialog() {
  let box = document.getElementById("review");
  if (box) return box;
  box = el("dialog", "", "review-dialog");
  box.id = "review";
  box.setAttribute("aria-labelledby", "review-title");
  const title = el("h2", "Review", "");
  title.id = "review-title";
  const seatRow = el("p", "", "review-seat");
  const label = el("label", "Decisions of ");
  const select = el("select");
  select.id = "review-seat";
  label.append(select);
  seatRow.append(label);
  const status = el("p", "", "review-status");
  status.id = "review-status";
  status.setAttribute("role", "status");
  const bar = el("progress");
  bar.id = "review-progress";
  bar.hidden = true;
  const body = el("div");
  body.id = "review-body";
  const close = el("button", "Close");
  close.type = "button";
  close.id = "review-close";
  close.onclick = () => box.close();
  box.append(title, seatRow, status, bar, body, close);
  box.addEventListener("close", () => { if (current) clearTimeout(current.timer); current = null; });
  box.addEventListener("keydown", (event) => {
    if (!current || !current.review) return;
    if (event.key === "ArrowRight") step(1);
    else if (event.key === "ArrowLeft") step(-1);
    else return;
    event.preventDefault();
  });
  document.body.append(box);
  return box;
}

/** Open the panel for hand ``hand`` of game ``gameNo`` at table ``tableId``: the
 * decisions of ``seat`` (null: the token's own seat), ``seats`` the table's seat list
 * (names), ``token`` the asker's seat token if any. */
export function openReview({ tableId, gameNo, hand, seat = null, token = "", seats = [] }) {
  const box = dialog();
  const select = box.querySelector("#review-seat");
  select.replaceChildren();
  const labels = seatLabels(seats.length || 4);
  (seats.length ? seats : labels).forEach((info, number) => {
    const name = info && info.name ? `${labels[number]} (${info.name})` : labels[number];
    const option = el("option", name);
    option.value = String(number);
    select.append(option);
  });
  select.onchange = () => start({ ...current.ask, seat: Number(select.value) });
  box.querySelector("#review-title").textContent = `Review of hand ${hand}`;
  if (!box.open) box.showModal();
  start({ tableId, gameNo, hand, seat, token, labels });
}

function start(ask) {
  if (current) clearTimeout(current.timer);
  current = { ask, review: null, index: 0, timer: null };
  document.getElementById("review-body").replaceChildren();
  poll(current);
}

async function poll(run) {
  const { ask } = run;
  const bar = document.getElementById("review-progress");
  const status = document.getElementById("review-status");
  let answer;
  try {
    answer = await api("POST", `/api/tables/${ask.tableId}/games/${ask.gameNo}/hands/${ask.hand}/review`,
      { seat: ask.seat, token: ask.token || "" });
  } catch (error) {
    if (run !== current) return;
    bar.hidden = true;
    status.textContent = `No review: ${error.message}`;
    status.classList.add("error");
    return;
  }
  if (run !== current) return; // closed, or another seat asked meanwhile
  status.classList.remove("error");
  ask.seat = answer.seat;
  document.getElementById("review-seat").value = String(answer.seat);
  if (answer.status === "running") {
    bar.hidden = false;
    bar.max = answer.total || 1;
    bar.value = answer.done;
    status.textContent = answer.total ? `Reviewing: decision ${answer.done} of ${answer.total}…` : "Reviewing…";
    run.timer = setTimeout(() => poll(run), POLL_MS);
    return;
  }
  bar.hidden = true;
  run.review = answer.review;
  run.index = Math.max(0, run.review.decisions.findIndex((d) => d.mark));
  render();
}

function step(delta) {
  const n = current.review.decisions.length;
  current.index = Math.min(n - 1, Math.max(0, current.index + delta));
  render();
}

function optionName(name) {
  if (/^[SHDC]$/.test(name)) return `trump ${cardText("A" + name).slice(1)}`;
  return peopleText(name);
}

function value(v) {
  return v === null ? "not valued" : points(Math.round(v * 10) / 10, true);
}

function where(d) {
  if (d.trick) return `trick ${d.trick}`;
  return d.phase;
}

function summary(review) {
  const lines = [];
  const marked = review.decisions.filter((d) => d.mark).length;
  lines.push(el("p", `${review.decisions.length} decisions, ${marked} marked; values are expert's expected points for your side (time ${review.budget.time} s, ${review.budget.repeats} repeats, ± its noise).`));
  const lost = Object.entries(review.lost).map(([k, v]) => `${k} ${v}`).join(", ");
  if (lost) lines.push(el("p", `Points lost by phase: ${lost}.`));
  if (review.auction) lines.push(el("p", `Auction: expert would ${review.auction}.`));
  if (review.double_dummy.length) {
    // every hand face up, perfect play from the start of each trick (docs/review.md)
    const dd = el("details", "", "review-dd");
    const side = review.players === 2 ? `seat ${review.seat}`
      : review.players === 3 ? "the declarer" : "the declaring side";
    dd.append(el("summary", `Double dummy: what ${side} takes with perfect play`));
    const table = el("table");
    const head = el("tr");
    head.append(el("th", "From trick"), el("th", "Perfect play"), el("th", "Took"));
    table.append(head);
    for (const d of review.double_dummy) {
      const tr = el("tr");
      tr.append(el("td", String(d.trick)), el("td", String(d.perfect)), el("td", String(d.actual)));
      table.append(tr);
    }
    dd.append(table);
    lines.push(dd);
  }
  // why the line is missing or starts late (the two-handed stock, the search budget)
  if (review.double_dummy_note) lines.push(el("p", `Double dummy: ${review.double_dummy_note}.`, "review-dd-note"));
  return lines;
}

/** The seat's cards at the decision: the chosen card(s) and the better play highlighted. */
function drawBoard(d) {
  const box = el("div", "", "review-board");
  const board = d.board;
  if (!board) return box;
  // how many copies of each card to mark (a pass may name both copies of a card)
  const count = (text) => text.split(" ").reduce((m, c) => m.set(c, (m.get(c) || 0) + 1), new Map());
  const chosen = count(d.chosen);
  const better = d.best !== d.chosen ? count(d.best) : new Map();
  if (board.trick && board.trick.length) {
    const trick = el("div", "", "review-trick");
    trick.append(el("span", "On the table: ", "hint"));
    for (const [seat, card] of board.trick) {
      trick.append(cardElement(card, { label: `${current.ask.labels[seat]} played ${cardText(card)}` }));
    }
    box.append(trick);
  }
  const hand = el("div", "", "review-hand");
  hand.setAttribute("aria-label", "Your cards at this decision");
  for (const card of (board.hand || "").split(" ").filter(Boolean)) {
    const node = cardElement(card);
    const words = [];
    for (const [left, cls, word] of [[chosen, "review-chosen", "the card chosen"], [better, "review-best", "the better play"]]) {
      if (left.get(card)) {
        left.set(card, left.get(card) - 1);
        node.classList.add(cls);
        words.push(word);
      }
    }
    if (words.length) node.setAttribute("aria-label", `${cardText(card)}, ${words.join(", ")}`);
    hand.append(node);
  }
  box.append(hand);
  return box;
}

function render() {
  const { review, index } = current;
  const body = document.getElementById("review-body");
  const status = document.getElementById("review-status");
  body.replaceChildren();
  if (!review.decisions.length) {
    body.append(...summary(review));
    status.textContent = "This seat had no decision with a choice in this hand.";
    return;
  }
  const d = review.decisions[index];
  status.textContent = `Decision ${index + 1} of ${review.decisions.length}`;
  const card = el("section", "", "review-decision");
  card.setAttribute("aria-label", `decision ${index + 1}`);
  const head = el("h3", "");
  const mark = el("span", d.mark || "✓", `review-mark ${d.mark ? (d.mark === "??" ? "blunder" : "doubtful") : "fine"}`);
  mark.id = "review-mark";
  mark.setAttribute("aria-label", d.mark ? MARK_WORDS[d.mark] : "no mark");
  head.append(mark, ` ${where(d)}: you chose ${optionName(d.chosen)}`);
  card.append(head);
  if (d.best !== d.chosen) {
    card.append(el("p", `Better: ${optionName(d.best)}, ${d.loss} ± ${d.noise} points better${d.loss > d.noise ? "" : " (inside the noise)"}.`, "review-better"));
  } else {
    card.append(el("p", "The best option by expert's values.", "review-better"));
  }
  card.append(drawBoard(d));
  const table = el("table", "", "review-options");
  const headRow = el("tr");
  headRow.append(el("th", "Option"), el("th", "Value"), el("th", "±"));
  table.append(headRow);
  const options = [...d.options].sort((a, b) => (b.value ?? -1e9) - (a.value ?? -1e9));
  for (const o of options) {
    const row = el("tr", "", o.name === d.chosen ? "chosen" : o.name === d.best ? "best" : "");
    row.append(el("td", optionName(o.name)), el("td", value(o.value)), el("td", o.noise === null ? "" : String(o.noise)));
    table.append(row);
  }
  card.append(table);
  if (d.reason) card.append(el("p", `Expert: ${peopleText(d.reason)}`, "hint"));
  const nav = el("p", "", "review-nav");
  const prev = el("button", "◀ Previous");
  prev.type = "button";
  prev.disabled = index === 0;
  prev.onclick = () => step(-1);
  const next = el("button", "Next ▶");
  next.type = "button";
  next.disabled = index === review.decisions.length - 1;
  next.onclick = () => step(1);
  nav.append(prev, " ", next);
  card.append(nav);
  const list = el("ol", "", "review-list");
  review.decisions.forEach((x, i) => {
    const item = el("li");
    const go = el("button", `${x.mark || "·"} ${where(x)} ${optionName(x.chosen)}`, i === index ? "current" : "");
    go.type = "button";
    go.onclick = () => { current.index = i; render(); };
    item.append(go);
    list.append(item);
  });
  body.append(card, list, ...summary(review));
}
