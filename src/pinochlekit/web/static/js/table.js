// The card table: one WebSocket to the server, which sends this seat's view after
// every change; this page only draws it and sends the actions the player picks.
import { api, cardElement, cardName, cardsName, el, seatName, SUIT_NAME, SUIT_SYMBOL,
         tokenKey, COMPASS } from "./cards.js";
import { checkHand } from "./fair.js";

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
const POSITIONS = ["bottom", "left", "top", "right"];

let me = JSON.parse(localStorage.getItem(tokenKey(tableId)) || "null");
let mySeat = null;
let state = null;
let socket = null;
let retry = 0;
let selected = new Set();
let handsSeen = null;
let lastPly = -1;
const fairCache = new Map();

// -- connection -----------------------------------------------------------------

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(tableId)}`);
  socket.addEventListener("open", () => {
    retry = 0;
    $("connection").textContent = "";
    socket.send(JSON.stringify({ type: "hello", token: me ? me.token : null }));
  });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", (event) => {
    // 4404: no such table; 1008: too many bad messages; 1013: the table is full.
    // Reconnecting would meet the same answer, so stop for good.
    if (FINAL_CLOSE[event.code] && !stopped) stop(FINAL_CLOSE[event.code]);
    if (stopped) return;
    $("connection").textContent = "Connection lost: reconnecting…";
    retry = Math.min(retry + 1, 5);
    setTimeout(connect, 500 * 2 ** retry);
  });
}

const FINAL_CLOSE = {
  4404: "There is no such table.",
  1008: "The server closed the connection: too many bad messages. Reload to try again.",
  1013: "This table has too many connections. Reload to try again later.",
};
let stopped = false;

function stop(text) {
  stopped = true;
  $("connection").textContent = text;
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function act(action) {
  selected = new Set();
  send({ type: "act", action, ply: state.ply });
}

let errorTimer = null;
function showError(text) {
  $("error").textContent = text;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => { $("error").textContent = ""; }, 8000);
}

function receive(message) {
  if (message.type === "welcome") {
    mySeat = message.seat;
  } else if (message.type === "error") {
    if (message.code === "no_table") {
      $("connection").textContent = "";
      document.querySelector("main").replaceChildren(el("p", "There is no such table. ", "error"));
      stop("");
    }
    if (message.code === "bad_token") { me = null; localStorage.removeItem(tokenKey(tableId)); }
    showError(message.message);
  } else if (message.type === "state") {
    const previous = state;
    state = message;
    mySeat = message.seat;
    remember();
    announce(previous);
    render();
  }
}

// -- remembering what this browser saw (for the fairness check) ------------------

function seenKey() {
  return `pinochle.seen.${tableId}.${state.table.game_no}`;
}

function remember() {
  if (!state.view || !state.deal) return;
  const seen = JSON.parse(localStorage.getItem(seenKey()) || "{}");
  const number = state.deal.number;
  if (!seen[number]) {
    seen[number] = { commitment: state.deal.commitment };
    if (state.view.hand !== null && state.view.phase === "auction") seen[number].hand = state.view.hand;
    localStorage.setItem(seenKey(), JSON.stringify(seen));
  }
}

function announce(previous) {
  if (!state.last || state.ply === lastPly) return;
  const first = lastPly === -1;
  lastPly = state.ply;
  if (first) return;
  const who = seatName(state.table, state.last.seat);
  const text = state.last.action.replace(/\b([2-9TJQKA])([SHDC])\b/g, (m) => cardName(m));
  $("announce").textContent = `${who}: ${text}.`;
  if (previous && state.hands.length > previous.hands.length && state.table.game_no === previous.table.game_no) {
    showSummary(state.last_hand);
  }
}

// -- drawing ----------------------------------------------------------------------

function base() {
  return mySeat === null ? 0 : mySeat;
}

function position(seat) {
  return POSITIONS[(seat - base() + 4) % 4];
}

function teamName(team) {
  const seats = [0, 1, 2, 3].filter((s) => state.view.team_of_seat[s] === team);
  return seats.map((s) => seatName(state.table, s)).join(" & ");
}

function render() {
  $("table-title").textContent = `— ${state.table.title} (${state.table.rules})`;
  document.title = `Pinochle — ${state.table.title}`;
  $("invite").value = `${location.origin}/t/${tableId}`;
  renderJoin();
  renderSeats();
  renderCenter();
  renderHand();
  renderScores();
  renderAuction();
  renderMelds();
  renderLastTrick();
  renderFair();
  renderHistory();
}

function renderJoin() {
  const open = state.table.seats.filter((s) => s.kind === "open");
  const box = $("join");
  box.hidden = mySeat !== null || !open.length;
  if (box.hidden) return;
  $("join-name").value ||= localStorage.getItem("pinochle.name") || "";
  const buttons = $("join-seats");
  buttons.replaceChildren();
  for (const seat of open) {
    const button = el("button", `Sit at ${COMPASS[seat.seat]}`);
    button.type = "button";
    button.addEventListener("click", () => join(seat.seat));
    buttons.append(button);
  }
}

async function join(seat) {
  const name = $("join-name").value.trim();
  if (!name) { showError("Give your name first."); $("join-name").focus(); return; }
  try {
    const joined = await api("POST", `/api/tables/${tableId}/join`, { seat, name });
    localStorage.setItem("pinochle.name", name);
    me = { token: joined.token, seat };
    localStorage.setItem(tokenKey(tableId), JSON.stringify(me));
    socket.close();
  } catch (error) {
    showError(error.message);
  }
}

function lastCall(seat) {
  const calls = state.view ? state.view.auction.filter(([s]) => s === seat) : [];
  return calls.length ? calls[calls.length - 1][1] : "";
}

function renderSeats() {
  for (const pos of POSITIONS) $(`seat-${pos}`).replaceChildren();
  const view = state.view;
  state.table.seats.forEach((info, seat) => {
    const box = $(`seat-${position(seat)}`);
    const name = el("div", "", "seat-name");
    name.append(el("strong", seatName(state.table, seat)));
    const tags = [];
    if (seat === mySeat) tags.push("you");
    if (info.kind === "open") tags.push("open seat");
    else if (info.kind !== "human") tags.push("computer player");
    if (info.kind === "human" && !info.connected) tags.push(info.standin ? "away: computer playing" : "away");
    if (view && view.dealer === seat) tags.push("dealer");
    if (view && view.declarer === seat) tags.push(`declarer, ${view.contract}`);
    if (tags.length) name.append(el("span", ` (${tags.join(", ")})`, "tags"));
    box.append(name);
    if (view) {
      const bits = [];
      if (view.phase === "auction" && lastCall(seat)) bits.push(lastCall(seat));
      bits.push(`${view.hand_sizes[seat]} cards`);
      box.append(el("div", bits.join(" · "), "seat-info"));
    }
    box.classList.toggle("to-act", !!view && view.to_act === seat);
    box.setAttribute("aria-label", `${COMPASS[seat]}: ${box.textContent}${view && view.to_act === seat ? ", to act" : ""}`);
  });
}

function statusText() {
  const view = state.view;
  if (!view) {
    const open = state.table.seats.filter((s) => s.kind === "open").length;
    return `Waiting for ${open} more player${open === 1 ? "" : "s"}. Send the invite link, or fill the empty seats with computers.`;
  }
  if (view.phase === "game over") {
    return `Game over: ${teamName(view.winner)} win, ${view.scores[view.winner]} to ${view.scores[1 - view.winner]}.`;
  }
  const who = view.to_act === mySeat ? "your turn" : `${seatName(state.table, view.to_act)} to act`;
  const trump = view.trump ? ` · trump ${SUIT_SYMBOL[view.trump]} ${SUIT_NAME[view.trump]}` : "";
  const bid = view.phase === "auction" && view.high_bid ? ` · high bid ${view.high_bid}` : "";
  return `Hand ${view.hand_number} · ${view.phase}${trump}${bid} · ${who}`;
}

function button(text, onClick, label = null) {
  const b = el("button", text);
  b.type = "button";
  if (label) b.setAttribute("aria-label", label);
  b.addEventListener("click", onClick);
  return b;
}

function renderCenter() {
  $("status").textContent = statusText();
  const trick = $("trick");
  trick.replaceChildren();
  const view = state.view;
  if (view) {
    for (const [seat, card] of view.trick) {
      const slot = el("div", "", `slot ${position(seat)}`);
      slot.append(cardElement(card, { label: `${seatName(state.table, seat)} played ${cardName(card)}` }));
      trick.append(slot);
    }
  }
  const controls = $("controls");
  controls.replaceChildren();
  if (!view) {
    if (mySeat !== null) controls.append(button("Fill empty seats with computers and start", () => send({ type: "fill" })));
    return;
  }
  if (view.phase === "game over") {
    if (mySeat !== null) controls.append(button("Rematch", () => send({ type: "rematch" })));
    return;
  }
  if (view.to_act !== mySeat || mySeat === null) return;
  const legal = view.legal;
  if (view.phase === "auction") {
    const box = el("div", "", "bidding");
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", "Bidding box");
    for (const action of legal.actions) box.append(button(action === "pass help" ? "Pass with help" : action[0].toUpperCase() + action.slice(1), () => act(action)));
    if (legal.bid) {
      const { min, max, step } = legal.bid;
      for (const amount of [min, min + step, min + 2 * step, min + 5 * step]) {
        if (amount <= max) box.append(button(`Bid ${amount}`, () => act(`bid ${amount}`)));
      }
      const label = el("label", "Other bid ");
      const input = document.createElement("input");
      Object.assign(input, { type: "number", min, max, step, value: min, id: "bid-amount" });
      label.htmlFor = "bid-amount";
      const go = button("Bid", () => {
        const amount = Number(input.value);
        if (!Number.isInteger(amount) || amount < min || amount > max || (amount - min) % step) {
          showError(`A bid here is ${min} to ${max} in steps of ${step}.`);
          return;
        }
        act(`bid ${amount}`);
      }, "Make the bid typed in the box");
      box.append(label, input, go);
    }
    controls.append(box);
  } else if (view.phase === "trump") {
    const box = el("div", "", "trump-choice");
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", "Name trump");
    box.append(el("span", "Name trump: "));
    for (const action of legal.actions) {
      const suit = action.split(" ")[1];
      const b = button(`${SUIT_SYMBOL[suit]} ${SUIT_NAME[suit]}`, () => act(action), `Trump ${SUIT_NAME[suit]}`);
      b.classList.add(`suit-${suit}`);
      box.append(b);
    }
    controls.append(box);
  } else if (legal.pass_cards) {
    const n = legal.pass_cards;
    const verb = view.phase === "give" ? "give" : "return";
    const to = view.phase === "give" ? "the declarer (your partner)" : "your partner";
    controls.append(el("p", `Choose ${n} cards to ${verb} to ${to}: ${selected.size} chosen.`));
    const go = button(`${verb[0].toUpperCase()}${verb.slice(1)} ${n} cards`, () => {
      const cards = view.hand.split(" ").filter((_, i) => selected.has(i));
      act(`${verb} ${cards.join(" ")}`);
    });
    go.disabled = selected.size !== n;
    controls.append(go);
  } else if (view.phase === "play") {
    if (!view.trick.length && !view.tricks.length) controls.append(el("p", "Your lead."));
    for (const action of legal.actions.filter((a) => !a.startsWith("play"))) {
      controls.append(button(action === "throw in" ? "Throw in (concede)" : "Shoot the moon", () => act(action)));
    }
  }
}

function renderHand() {
  const box = $("hand");
  box.replaceChildren();
  const view = state.view;
  if (!view || view.hand === null) { box.hidden = true; return; }
  box.hidden = false;
  const mine = view.to_act === mySeat;
  const plays = new Set(mine && view.phase === "play" ? view.legal.actions.filter((a) => a.startsWith("play ")).map((a) => a.slice(5)) : []);
  const passing = mine && view.legal.pass_cards;
  view.hand.split(" ").filter(Boolean).forEach((card, i) => {
    let label = cardName(card);
    const b = cardElement(card, { button: true, label });
    if (passing) {
      b.setAttribute("aria-pressed", String(selected.has(i)));
      b.addEventListener("click", () => {
        if (selected.has(i)) selected.delete(i);
        else if (selected.size < view.legal.pass_cards) selected.add(i);
        render();
        box.querySelectorAll("button")[i].focus();
      });
    } else if (plays.has(card)) {
      b.classList.add("playable");
      b.setAttribute("aria-label", `Play ${label}`);
      b.addEventListener("click", () => act(`play ${card}`));
    } else {
      b.disabled = mine && view.phase === "play";
      b.setAttribute("aria-disabled", "true");
      if (!mine || view.phase !== "play") b.tabIndex = -1;
    }
    box.append(b);
  });
}

function renderScores() {
  const box = $("scores");
  box.replaceChildren();
  if (!state.view) return;
  const table = el("table");
  const head = el("tr");
  head.append(el("th", "Hand"), el("th", teamName(0)), el("th", teamName(1)));
  const caption = el("caption", `Game to ${state.view.game_target}`);
  table.append(caption, head);
  for (const hand of state.hands) {
    const row = el("tr");
    const cell = (team) => el("td", hand.outcome === "passed out" || hand.outcome === "nines redeal" ? "—" : `${hand.scores[team] >= 0 ? "+" : ""}${hand.scores[team]} = ${hand.totals[team]}`);
    row.append(el("td", `${hand.number}`), cell(0), cell(1));
    table.append(row);
  }
  const total = el("tr", "", "total");
  total.append(el("th", "Total"), el("td", `${state.view.scores[0]}`), el("td", `${state.view.scores[1]}`));
  table.append(total);
  box.append(table);
}

function meldList(melds) {
  const list = el("ul", "", "melds");
  melds.forEach((meld, seat) => {
    const item = el("li");
    item.append(el("strong", `${seatName(state.table, seat)}: ${meld.points}`));
    if (meld.items.length) {
      const inner = el("ul");
      for (const it of meld.items) {
        const li = el("li", `${it.name} ${it.points} — `);
        li.append(el("span", it.cards, "cards-text"));
        li.setAttribute("aria-label", `${it.name}, ${it.points} points: ${cardsName(it.cards)}`);
        inner.append(li);
      }
      item.append(inner);
    } else {
      item.append(el("span", " (no meld)"));
    }
    list.append(item);
  });
  return list;
}

function renderAuction() {
  const list = $("auction");
  list.replaceChildren();
  const calls = state.view ? state.view.auction : [];
  if (!calls.length) list.append(el("li", "No call yet this hand.", "hint"));
  for (const [seat, call] of calls) list.append(el("li", `${seatName(state.table, seat)}: ${call}`));
  if (state.view && state.view.declarer !== null) {
    const trump = state.view.trump ? `, trump ${SUIT_NAME[state.view.trump]}` : "";
    list.append(el("li", `Contract: ${seatName(state.table, state.view.declarer)}, ${state.view.contract}${trump}`, "contract"));
  }
}

function renderMelds() {
  const box = $("melds");
  box.replaceChildren();
  if (state.view && state.view.melds) box.append(meldList(state.view.melds));
  else box.append(el("p", "Meld is shown after trump and passing.", "hint"));
}

function renderLastTrick() {
  const box = $("last-trick");
  box.replaceChildren();
  const tricks = state.view ? state.view.tricks : [];
  if (!tricks.length) { box.append(el("p", "No trick yet this hand.", "hint")); return; }
  const last = tricks[tricks.length - 1];
  const row = el("div", "", "trick-row");
  last.cards.split(" ").forEach((card, i) => {
    row.append(cardElement(card, { label: `${seatName(state.table, last.seats[i])}: ${cardName(card)}` }));
  });
  box.append(row, el("p", `Won by ${seatName(state.table, last.winner)} (${last.points} points). Trick ${tricks.length} of 12.`));
  const points = state.view.trick_points;
  box.append(el("p", `Trick points so far: ${teamName(0)} ${points[0]}, ${teamName(1)} ${points[1]}.`));
}

function fairCheck(hand) {
  if (!fairCache.has(hand.deal_seed)) {
    const seen = JSON.parse(localStorage.getItem(seenKey()) || "{}")[hand.number] || {};
    const result = checkHand(hand, seen.commitment, seen.hand, mySeat);
    result.sawHash = !!seen.commitment;
    fairCache.set(hand.deal_seed, result);
  }
  return fairCache.get(hand.deal_seed);
}

function renderFair() {
  const box = $("fair");
  box.replaceChildren();
  if (state.deal) {
    const p = el("p", `Hand ${state.deal.number}: SHA-256 of the secret deal seed is `);
    const code = el("code", state.deal.commitment, "hash");
    p.append(code, el("span", ". The seed is revealed when the hand is over."));
    box.append(p);
  }
  const list = el("ul", "", "fair-list");
  for (const hand of state.hands.slice(-5).reverse()) {
    const check = fairCheck(hand);
    const ok = check.hashOk && check.handOk !== false;
    const text = `Hand ${hand.number}: ${ok ? "✓ verified" : "✗ MISMATCH"}: ` +
      `${check.hashOk ? "the seed matches the hash shown before the hand" : "the seed does not match the hash"}` +
      `${check.sawHash ? "" : " (this browser did not see that hash)"}` +
      `${check.handOk === null ? "" : check.handOk ? "; the deal recomputed in this browser gives your cards exactly" : "; the deal recomputed here DIFFERS from your cards"}.`;
    const item = el("li", text, ok ? "ok" : "bad");
    item.append(el("div", `seed ${hand.deal_seed}, dealer seat ${hand.dealer}: pinochle verify ${hand.deal_seed} --dealer ${hand.dealer} --commitment ${hand.commitment}`, "hint small"));
    list.append(item);
  }
  box.append(list);
}

function renderHistory() {
  $("all-history").href = `/history/${tableId}`;
  const box = $("history");
  box.replaceChildren();
  if (!state.hands.length) { box.append(el("p", "Finished hands appear here, each with a step-by-step replay.", "hint")); return; }
  const list = el("ul");
  for (const hand of state.hands) {
    const item = el("li");
    const link = document.createElement("a");
    link.href = `/replay/${tableId}/${state.table.game_no - 1}/${hand.number}`;
    link.target = "_blank";
    link.textContent = `Hand ${hand.number}: ${describeHand(hand)}`;
    item.append(link);
    list.append(item);
  }
  box.append(list);
}

function describeHand(hand) {
  if (hand.outcome === "passed out") return "passed out";
  if (hand.outcome === "nines redeal") return `${seatName(state.table, hand.caller)} called a nines redeal`;
  const trump = hand.trump ? `${SUIT_SYMBOL[hand.trump]}` : "";
  return `${seatName(state.table, hand.declarer)} ${hand.contract} ${trump}, ${hand.outcome}`;
}

function showSummary(hand) {
  const body = $("summary-body");
  body.replaceChildren();
  $("summary-title").textContent = `Hand ${hand.number} is over`;
  body.append(el("p", describeHand(hand) + "."));
  if (hand.melds.length) body.append(meldList(hand.melds));
  const table = el("table");
  const head = el("tr");
  head.append(el("th", ""), el("th", teamName(0)), el("th", teamName(1)));
  table.append(head);
  const row = (label, values) => {
    const tr = el("tr");
    tr.append(el("th", label), ...values.map((v) => el("td", String(v))));
    table.append(tr);
  };
  row("Meld", hand.meld_points.map((m, t) => `${m}${hand.meld_saved[t] || !m ? "" : " (not saved)"}`));
  row("Tricks", hand.trick_points);
  row("This hand", hand.scores.map((s) => (s >= 0 ? `+${s}` : `${s}`)));
  row("Total", hand.totals);
  body.append(table);
  const dialog = $("summary");
  if (!dialog.open) dialog.showModal();
  $("summary-close").focus();
}

// -- keyboard: arrow keys move along the hand ---------------------------------

$("hand").addEventListener("keydown", (event) => {
  if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
  const buttons = [...$("hand").querySelectorAll("button:not([disabled])")];
  const i = buttons.indexOf(document.activeElement);
  if (i < 0) return;
  const next = buttons[(i + (event.key === "ArrowRight" ? 1 : -1) + buttons.length) % buttons.length];
  next.focus();
  event.preventDefault();
});

$("copy").addEventListener("click", async () => {
  $("invite").select();
  try { await navigator.clipboard.writeText($("invite").value); } catch { document.execCommand("copy"); }
  $("copy").textContent = "Copied";
  setTimeout(() => { $("copy").textContent = "Copy"; }, 1500);
});

handsSeen = null;
connect();
