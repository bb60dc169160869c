// The card table: one WebSocket to the server, which sends this seat's view after
// every change; this page only draws it and sends the actions the player picks.
import { api, cardElement, cardName, cardsName, cardsText, cardText, el, peopleText, plainCard,
         points, seatLabel, seatName, SUIT_NAME, SUIT_SYMBOL, tokenKey } from "./cards.js";
import { declarerTook, GLOSSARY, openGlossary, term, unsavedMeld } from "./glossary.js";
import { checkCommitments, checkHand, dealSeed, gameSeed, sha256Hex } from "./fair.js";
import { chatLog, chatMessage, initChat, renderChat } from "./chat.js";
import { hintWords } from "./hintwords.js";
import { openReview } from "./review.js";

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
const POSITIONS = ["bottom", "left", "top", "right"];
// Where each seat sits, counted clockwise from this page's seat at the bottom.
const PLACES = { 2: ["bottom", "top"], 3: ["bottom", "left", "right"], 4: POSITIONS };

let me = JSON.parse(localStorage.getItem(tokenKey(tableId)) || "null");
let mySeat = null;
let state = null;
let socket = null;
let retry = 0;
let selected = new Set();
let handsSeen = null;
let lastPly = -1;
const fairCache = new Map();
// The last hint the server sent for this seat's turn (docs/web.md "Hints"), and
// whether one is on its way.
let hint = null;
let hintAsked = false;
// A completed trick stays in the middle for HOLD_MS (or until the next lead), so the
// fourth card is seen: {cards: [[seat, card], ...], winner, points}.
const HOLD_MS = 1200;
let held = null;
let heldTimer = null;
// The cards drawn in the trick area (seat:card), so a card new there slides in.
let drawnTrick = new Set();
// The player's own options, kept in this browser: sounds and playing a forced card.
const OPTIONS_KEY = "pinochle.options";
const options = { sounds: false, autoplay: false, ...JSON.parse(localStorage.getItem(OPTIONS_KEY) || "{}") };
let autoplayTimer = null;
// Hand summaries: one at a time, the next when the person closes the open one; while
// the final trick is held the summary is pending and the controls wait.
const summaries = [];
let summaryPending = false;

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
    // 4404: no such table; 1008: too many bad messages; 4001: this seat opened in
    // another window. Reconnecting would meet the same answer, so stop for good.
    // 1013 (too many connections for now) and every other close: retry, backing off
    // up to about 16 s with some jitter, so that a crowd does not come back at once.
    if (FINAL_CLOSE[event.code] && !stopped) stop(FINAL_CLOSE[event.code]);
    if (stopped) return;
    $("connection").textContent = event.code === 1013
      ? "The table is busy: trying again…" : "Connection lost: reconnecting…";
    retry = Math.min(retry + 1, 5);
    setTimeout(connect, 500 * 2 ** retry * (0.75 + Math.random() / 2));
  });
}

const FINAL_CLOSE = {
  4404: "There is no such table.",
  1008: "The server closed the connection: too many bad messages. Reload to try again.",
  4001: "This seat is open in another window or device. Reload to play here.",
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

/** Whether this page may ask for a hint now: seated, its turn, hints on at the table. */
function canHint() {
  return !!(state && state.view && mySeat !== null && state.view.phase !== "game over"
    && state.view.to_act === mySeat && state.table.settings.hints);
}

function askHint() {
  if (!canHint() || hintAsked || (hint && hint.ply === state.ply)) return;
  hintAsked = true;
  send({ type: "hint" });
  render();
}

let errorTimer = null;
function showError(text) {
  $("error").textContent = text;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => { $("error").textContent = ""; }, 8000);
}

// Resynchronising (docs/web.md "Security and limits"): after a server error, or when
// a game in progress has been silent for a while on another seat's turn, ask for the
// state; the server answers it and restarts the table's computers if they stopped.
const QUIET_MS = 15000;
let lastMessageAt = Date.now();
setInterval(() => {
  const waiting = state && state.view && state.view.phase !== "game over"
    && state.view.to_act !== mySeat;
  if (waiting && Date.now() - lastMessageAt > QUIET_MS) {
    lastMessageAt = Date.now();
    send({ type: "state" });
  }
}, 5000);

function receive(message) {
  lastMessageAt = Date.now();
  if (message.type === "welcome") {
    mySeat = message.seat;
  } else if (message.type === "error") {
    if (message.code === "no_table") {
      $("connection").textContent = "";
      document.querySelector("main").replaceChildren(el("p", "There is no such table. ", "error"));
      stop("");
    }
    if (message.code === "bad_token") { me = null; localStorage.removeItem(tokenKey(tableId)); }
    if (message.code === "server_error") setTimeout(() => send({ type: "state" }), 2000);
    // the server forgot this table (finished, expired or removed): connect again, to
    // the table loaded afresh, or to "no such table"
    if (message.code === "table_closed" && socket) socket.close();
    hintAsked = false;
    showError(message.message);
  } else if (message.type === "chat_log") {
    chatLog(message.messages);
  } else if (message.type === "chat") {
    chatMessage(message.message);
  } else if (message.type === "hint") {
    hintAsked = false;
    // a hint for a turn already gone (the table moved on meanwhile) is not shown
    if (state && message.ply === state.ply && message.game_no === state.table.game_no - 1) {
      hint = message;
      render();
      $("announce").textContent = `Hint: ${spoken(message.action)}.`;
    }
  } else if (message.type === "state") {
    const previous = state;
    // finished hands come once (docs/web.md "Messages"): keep them, add the new ones
    const kept = previous && previous.table.game_no === message.table.game_no ? previous.hands : [];
    const from = message.hands_from || 0;
    if (from > kept.length) {
      socket.send(JSON.stringify({ type: "state" }));  // a gap: ask for all of them again
      return;
    }
    message.hands = kept.slice(0, from).concat(message.hands);
    state = message;
    mySeat = message.seat;
    // the turn timer counts down from what was left when the server sent this
    timerEnd = message.timer ? performance.now() + message.timer.remaining * 1000 : null;
    holdTrick(previous);
    playSound(previous);
    if (!previous || previous.ply !== state.ply || previous.table.game_no !== state.table.game_no) {
      hint = null;
      hintAsked = false;
    }
    remember();
    contribute();
    announce(previous);
    render();
  }
}

// -- the completed trick, held a moment -----------------------------------------

/** When the card just played completed a trick (the server's ``trick`` event), keep the
 * whole trick (the last card with it) in the middle for HOLD_MS, or until the next card
 * is led. */
function holdTrick(previous) {
  const view = state.view;
  if (!view) { held = null; return; }
  if (view.trick.length) { held = null; return; }
  if (!previous || previous.table.game_no !== state.table.game_no || previous.ply === state.ply) return;
  const won = (state.events || []).find((e) => e.kind === "trick");
  if (!won) return;
  held = { cards: won.cards, winner: won.winner, points: won.points,
           last: state.events.some((e) => e.kind === "hand"),
           hand: previous.view ? previous.view.hand_number : view.hand_number };
  clearTimeout(heldTimer);
  heldTimer = setTimeout(() => { held = null; if (state) render(); }, HOLD_MS);
}

// -- sounds (off by default) and the player's options ---------------------------

let audio = null;

/** A short tick when a card is played (only with the Sounds option on). */
function playSound(previous) {
  if (!options.sounds || !previous || !state.last || previous.ply === state.ply) return;
  if (!state.last.action.startsWith("play ")) return;
  try {
    audio ||= new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = state.last.seat === mySeat ? 660 : 520;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.12);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.13);
  } catch { /* no audio here: stay silent */ }
  document.body.dataset.sounds = String(Number(document.body.dataset.sounds || 0) + 1);
}

function saveOptions() {
  localStorage.setItem(OPTIONS_KEY, JSON.stringify(options));
}

for (const name of ["sounds", "autoplay"]) {
  const box = $(`opt-${name}`);
  box.checked = !!options[name];
  box.addEventListener("change", () => { options[name] = box.checked; saveOptions(); if (state) render(); });
}

/** With the option on, a forced card (the only legal action is one card) is played
 * for the person after a moment. */
function autoplay() {
  clearTimeout(autoplayTimer);
  const view = state.view;
  if (!options.autoplay || summaryPending || !view || mySeat === null || view.to_act !== mySeat || view.phase !== "play") return;
  const actions = view.legal.actions;
  if (actions.length !== 1 || !actions[0].startsWith("play ") || view.legal.bid || view.legal.pass_cards) return;
  const ply = state.ply;
  autoplayTimer = setTimeout(() => { if (state.ply === ply) act(actions[0]); }, 500);
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
    if (state.view.hand !== null && dealtHandShown(state.view)) seen[number].hand = state.view.hand;
    localStorage.setItem(seenKey(), JSON.stringify(seen));
  }
}

/** Whether the view's hand is still the hand as dealt: during the auction, or in the
 * two-handed game (no auction, docs/rules.md §4) before this seat plays its first card. */
function dealtHandShown(view) {
  if (view.players === 2) return !view.tricks.length && !view.trick.some(([s]) => s === view.seat);
  return view.phase === "auction";
}

/** An action text with its cards in words, for screen readers. */
function spoken(action) {
  return action.replace(/\b([9TJQKA])([SHDC])\b/g, (m) => cardName(m));
}

function announce(previous) {
  if (!state.last || state.ply === lastPly) return;
  const first = lastPly === -1;
  lastPly = state.ply;
  if (first) return;
  const who = seatName(state.table, state.last.seat);
  $("announce").textContent = state.last.actor === "timeout"
    ? `${who}'s time ran out; the computer played: ${spoken(state.last.action)}.`
    : `${who}: ${spoken(state.last.action)}.`;
  if (previous && (state.events || []).some((e) => e.kind === "hand") && state.table.game_no === previous.table.game_no) {
    // the last trick of the hand is seen (held) before the summary covers the table
    // (no controls meanwhile, so nobody acts in the next hand unseen)
    const hand = state.last_hand;
    if (held) {
      summaryPending = true;
      setTimeout(() => { summaryPending = false; queueSummary(hand); render(); }, HOLD_MS);
    } else {
      queueSummary(hand);
    }
  }
}

// -- drawing ----------------------------------------------------------------------

function base() {
  return mySeat === null ? 0 : mySeat;
}

function players() {
  return state.table.seats.length;
}

function position(seat) {
  const n = players();
  return PLACES[n][(seat - base() + n) % n];
}

/** Four-handed scores are kept per team (seats 0 & 2, 1 & 3); three- and two-handed
 * per player (docs/rules.md §3, §4). The name of score column ``side``. */
function teamName(side) {
  if (players() !== 4) return seatName(state.table, side);
  const seats = [0, 1, 2, 3].filter((s) => state.view.team_of_seat[s] === side);
  return seats.map((s) => seatName(state.table, s)).join(" & ");
}

function sides() {
  return players() === 4 ? [0, 1] : [...Array(players()).keys()];
}

function render() {
  $("table-title").textContent = `— ${state.table.title} (${state.table.rules})`;
  document.title = `Pinochle — ${state.table.title}`;
  $("invite").value = `${location.origin}/t/${tableId}`;
  renderJoin();
  renderSeats();
  renderCenter();
  renderHand();
  renderHint();
  renderScores();
  renderAuction();
  renderMelds();
  renderLastTrick();
  renderFair();
  renderHistory();
  renderChat();
  renderTimer();
  autoplay();
}

// -- the turn timer (docs/web.md "Turn timer") --------------------------------

let timerEnd = null;

/** The seconds the person to act has left, drawn for everyone; the person's own
 * countdown is marked (and turns red in the last ten seconds). */
function renderTimer() {
  const box = $("turn-timer");
  const timer = state && state.timer;
  box.hidden = !timer || timerEnd === null || !state.view || state.view.to_act !== timer.seat;
  if (box.hidden) return;
  const left = Math.max(0, Math.ceil((timerEnd - performance.now()) / 1000));
  const mine = timer.seat === mySeat;
  box.textContent = mine ? `Your turn: ${left} s left, then ${state.table.settings.standin} plays for you`
    : `${seatName(state.table, timer.seat)} has ${left} s to act`;
  box.classList.toggle("mine", mine);
  box.classList.toggle("low", left <= 10);
}
setInterval(() => { if (state) renderTimer(); }, 250);

function renderJoin() {
  const open = state.table.seats.filter((s) => s.kind === "open");
  const box = $("join");
  box.hidden = mySeat !== null || !open.length;
  if (box.hidden) return;
  $("join-name").value ||= localStorage.getItem("pinochle.name") || "";
  const buttons = $("join-seats");
  buttons.replaceChildren();
  for (const seat of open) {
    const button = el("button", `Sit at ${seatLabel(state.table, seat.seat)}`);
    button.type = "button";
    button.addEventListener("click", () => join(seat.seat));
    buttons.append(button);
  }
}

// -- contributing to the deals (docs/web.md "Fairness and privacy") ------------------

/** 16 random bytes from the browser, in hexadecimal: this seat's share of a game's seed. */
function randomSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A fresh share for game `gameNo`, kept in localStorage (so that a reload can still
 *  reveal it) with the server seed's hash this browser saw; its SHA-256 is sent first. */
function newShare(gameNo, serverCommitment) {
  const value = randomSeed();
  const share = { commitment: serverCommitment, value, mine: sha256Hex(value) };
  localStorage.setItem(`pinochle.fair.${tableId}.${gameNo}`, JSON.stringify(share));
  return share;
}

/** For the game not yet dealt: commit to a fresh share (its SHA-256), then, when the
 *  table asks (every commitment in), reveal the value committed to. */
function contribute() {
  if (mySeat === null || !state.fair) return;
  for (const game of state.fair.games) {
    if (game.server_seed !== undefined || game.game_no < state.table.game_no) continue;
    const key = `pinochle.fair.${tableId}.${game.game_no}`;
    let share = JSON.parse(localStorage.getItem(key) || "null");
    const committed = (game.client_commitments || [])[mySeat];
    if (!share && !committed && !(game.round && game.round.phase === "reveal")) {
      share = newShare(game.game_no, game.commitment);
      send({ type: "commit", commitment: share.mine });
    }
    if (share && game.round && game.round.phase === "reveal" && committed === share.mine
        && !game.contributed.includes(mySeat)) {
      send({ type: "reveal", value: share.value });
    }
  }
}

async function join(seat) {
  const name = $("join-name").value.trim();
  if (!name) { showError("Give your name first."); $("join-name").focus(); return; }
  try {
    const first = state.fair && state.fair.games.find((g) => g.game_no === state.table.game_no);
    const share = first ? newShare(first.game_no, first.commitment) : null;
    const joined = await api("POST", `/api/tables/${tableId}/join`,
      share ? { seat, name, client_commitment: share.mine } : { seat, name });
    localStorage.setItem("pinochle.name", name);
    me = { token: joined.token, seat };
    localStorage.setItem(tokenKey(tableId), JSON.stringify(me));
    socket.close();
  } catch (error) {
    showError(error.message);
  }
}

/** Whether the dealer took the contract because everyone else passed (docs/rules.md: dealer stuck). */
function isStuck(view) {
  return view.declarer !== null && view.declarer === view.dealer && view.auction.length > 0
    && view.auction.every(([, call]) => call.startsWith("pass"));
}

function lastCall(seat) {
  const calls = state.view ? state.view.auction.filter(([s]) => s === seat) : [];
  return calls.length ? calls[calls.length - 1][1] : "";
}

function renderSeats() {
  for (const pos of POSITIONS) {
    $(`seat-${pos}`).replaceChildren();
    $(`seat-${pos}`).hidden = !PLACES[players()].includes(pos);  // three or two seats
  }
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
    if (view && view.declarer === seat) tags.push(`declarer, ${view.contract}${isStuck(view) ? ", stuck" : ""}`);
    if (tags.length) name.append(el("span", ` (${tags.join(", ")})`, "tags"));
    box.append(name);
    if (view) {
      const bits = [];
      if (view.phase === "auction" && lastCall(seat)) bits.push(lastCall(seat));
      bits.push(`${view.hand_sizes[seat]} cards`);
      if (players() !== 4 && view.phase !== "game over") bits.push(`score ${view.scores[seat]}`);
      box.append(el("div", bits.join(" · "), "seat-info"));
      if (view.players === 2) box.append(tableCards(view, seat));
      else if (view.melds) box.append(seatMeld(view.melds[seat]));
    }
    box.classList.toggle("to-act", !!view && view.to_act === seat);
    box.setAttribute("aria-label", `${seatLabel(state.table, seat)}: ${box.textContent}${view && view.to_act === seat ? ", to act" : ""}`);
  });
}

/** A seat's meld at the seat: the points and each meld with its cards. */
function seatMeld(meld) {
  const box = el("div", "", "seat-meld");
  if (!meld.items.length) { box.textContent = "meld: none"; return box; }
  box.append(el("strong", `meld ${meld.points}: `));
  box.append(el("span", meld.items.map((it) => `${it.name} ${cardsText(it.cards)}`).join(", ")));
  return box;
}

/** Two-handed (docs/rules.md §4): the cards a seat has laid in meld, face up on the table
 * until it plays them, and any card it is known to hold (the turned-up card it took). */
function tableCards(view, seat) {
  const box = el("div", "", "table-cards");
  const laid = view.table[seat] || [];
  const who = seatName(state.table, seat);
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", laid.length ? `${who}'s melded cards on the table` : `${who} has no cards on the table`);
  if (laid.length) {
    box.append(el("span", "On the table: ", "small"));
    for (const entry of laid) {
      const card = plainCard(entry);
      const used = entry.slice(card.length).replace(/[()]/g, "");
      const face = cardElement(card, { label: `${cardName(card)}, laid in meld (class ${used})` });
      face.classList.add("small-card");
      box.append(face);
    }
  }
  const known = view.known ? view.known[seat] : "";
  const hidden = known ? known.split(" ").filter((c) => !laid.some((e) => plainCard(e) === c)) : [];
  if (hidden.length && seat !== view.seat) box.append(el("span", ` Known to hold: ${cardsText(hidden.join(" "))}`, "small"));
  return box;
}

// Why the winner may have no more points than another side: a moon made wins the
// game (docs/rules.md §2), or more than one side reached the target in the same
// hand, and the declaring side wins (§1.12, §3, §6).
function winnerNote(view) {
  const others = view.scores.filter((_, s) => s !== view.winner);
  if (others.every((score) => score < view.scores[view.winner])) return "";
  if (state.last_hand && state.last_hand.outcome === "moon made") {
    return " The declaring side shot the moon, which wins the game.";
  }
  return view.scores.length === 2
    ? ` Both sides reached ${view.game_target} in the last hand: the declaring side wins.`
    : ` More than one player reached ${view.game_target} in the last hand: the declarer wins.`;
}

function gameOverText(view) {
  if (players() === 4) {
    return `Game over: ${teamName(view.winner)} win, ${view.scores[view.winner]} to ${view.scores[1 - view.winner]}.${winnerNote(view)}`;
  }
  const others = sides().filter((s) => s !== view.winner).map((s) => view.scores[s]);
  return `Game over: ${seatName(state.table, view.winner)} wins with ${view.scores[view.winner]} (others: ${others.join(", ")}).${winnerNote(view)}`;
}

function statusText() {
  const view = state.view;
  if (!view) {
    const open = state.table.seats.filter((s) => s.kind === "open").length;
    return `Waiting for ${open} more player${open === 1 ? "" : "s"}. Send the invite link, or fill the empty seats with computers.`;
  }
  if (view.phase === "game over") return gameOverText(view);
  const who = view.to_act === mySeat ? "your turn" : `${seatName(state.table, view.to_act)} to act`;
  const trump = view.trump ? ` · trump ${SUIT_SYMBOL[view.trump]} ${SUIT_NAME[view.trump]}` : "";
  const bid = view.phase === "auction" && view.high_bid ? ` · high bid ${view.high_bid}` : "";
  const stage = view.players === 2 ? `${view.stage} · stock ${view.stock_size}` : view.phase;
  return `Hand ${view.hand_number} · ${stage}${trump}${bid} · ${who}`;
}

/** The running trick points per team (or player), for the middle of the table. */
function trickPointsText(view) {
  if (!view || !view.trick_points) return "";
  return `Trick points: ${sides().map((s) => `${teamName(s)} ${view.trick_points[s]}`).join(" · ")}`;
}

function button(text, onClick, label = null) {
  const b = el("button", text);
  b.type = "button";
  if (label) b.setAttribute("aria-label", label);
  b.addEventListener("click", onClick);
  return b;
}

/** A button that sends ``action``, marked with it (a hint outlines the one it suggests). */
function actButton(text, action, label = null) {
  const b = button(text, () => act(action), label);
  b.dataset.action = action;
  return b;
}

/** The last action in words; a stand-in's move after the person's time ran out says so. */
function lastActionText(last) {
  const who = seatName(state.table, last.seat);
  if (last.actor === "claim") return `${who} (claim played out): ${peopleText(last.action)}`;
  if (last.actor === "timeout") {
    return `${who}'s time ran out: ${state.table.settings.standin} played for ${last.seat === mySeat ? "you" : "them"}: ${peopleText(last.action)}`;
  }
  return `${who}: ${peopleText(last.action)}`;
}

function renderCenter() {
  $("status").textContent = statusText();
  $("last-action").textContent = state.last && state.view ? lastActionText(state.last) : "";
  $("last-action").classList.toggle("timed-out", !!state.last && state.last.actor === "timeout");
  const trick = $("trick");
  trick.replaceChildren();
  const view = state.view;
  const cards = view ? (view.trick.length || !held ? view.trick : held.cards) : [];
  trick.classList.toggle("held", !!view && !view.trick.length && !!held);
  const now = new Set();
  // the held trick belongs to its hand (the next may be dealt already): no new motion
  const handNo = view && !view.trick.length && held ? held.hand : view && view.hand_number;
  for (const [seat, card] of cards) {
    const slot = el("div", "", `slot ${position(seat)}`);
    const face = cardElement(card, { label: `${seatName(state.table, seat)} played ${cardName(card)}` });
    const key = `${state.table.game_no}:${handNo}:${seat}:${card}`;
    // motion: a card new in the trick slides in from its seat (none with reduced motion)
    if (!drawnTrick.has(key)) face.classList.add("arrive", `from-${position(seat)}`);
    now.add(key);
    slot.append(face);
    trick.append(slot);
  }
  drawnTrick = now;
  const caption = $("trick-caption");
  caption.textContent = "";
  if (view && !view.trick.length && held) {
    const won = `won by ${seatName(state.table, held.winner)} (${held.points} points)`;
    caption.textContent = held.last ? `The last trick of the hand, ${won}.`
      : `${won[0].toUpperCase()}${won.slice(1)}.`;
  }
  $("trick-points").textContent = view && ["play", "game over"].includes(view.phase) || (view && view.tricks.length)
    ? trickPointsText(view) : "";
  renderTableCenter();
  const controls = $("controls");
  controls.replaceChildren();
  if (summaryPending) return;
  if (!view) {
    if (mySeat !== null) controls.append(button("Fill empty seats with computers and start", () => send({ type: "fill" })));
    return;
  }
  if (view.phase === "game over") {
    if (mySeat !== null) controls.append(button("Rematch", () => send({ type: "rematch" })));
    return;
  }
  if (state.claim) controls.append(claimBox(state.claim));
  if (state.undo) {
    const b = button("Undo my last move", () => send({ type: "undo" }),
      "Undo my last move (key u): only before the next player acts");
    b.id = "undo-button";
    b.title = "Take back your last move before the next player acts (key u)";
    controls.append(b);
  }
  if (view.to_act !== mySeat || mySeat === null) return;
  const legal = view.legal;
  if (view.phase === "auction") {
    const box = el("div", "", "bidding");
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", "Bidding box");
    for (const action of legal.actions) {
      const b = actButton(action === "pass help" ? "Pass with help" : action[0].toUpperCase() + action.slice(1), action);
      if (action === "pass help") b.title = GLOSSARY["pass with help"];
      box.append(b);
    }
    if (legal.bid) {
      const { min, max, step } = legal.bid;
      // the double deck's ladder (docs/rules.md §6): its step changes (by 1 below 60, then 5)
      const ladder = legal.bid.ladder || [[min, step]];
      // the highest legal bid is only what the cards could ever score: not a real range
      box.append(el("span", `Bid ${min} or more, ${ladderText(ladder)}: `, "bid-range"));
      const amounts = [min];
      while (amounts.length < 6 && nextBid(ladder, amounts[amounts.length - 1]) <= max) {
        amounts.push(nextBid(ladder, amounts[amounts.length - 1]));
      }
      for (const amount of [amounts[0], amounts[1], amounts[2], amounts[5]]) {
        if (amount !== undefined && amount <= max) box.append(actButton(`Bid ${amount}`, `bid ${amount}`));
      }
      const label = el("label", "Other bid ");
      const input = document.createElement("input");
      Object.assign(input, { type: "number", min, max, step: ladder.length > 1 ? 1 : step, value: min, id: "bid-amount" });
      label.htmlFor = "bid-amount";
      const go = button("Bid", () => {
        const amount = Number(input.value);
        if (!Number.isInteger(amount) || amount < min || amount > max || !onLadder(ladder, amount)) {
          showError(`A bid here is ${min} or more, ${ladderText(ladder)}.`);
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
      const b = actButton(`${SUIT_SYMBOL[suit]} ${SUIT_NAME[suit]}`, action, `Trump ${SUIT_NAME[suit]}`);
      b.classList.add(`suit-${suit}`);
      box.append(b);
    }
    controls.append(box);
  } else if (legal.pass_cards) {
    const n = legal.pass_cards;
    const verb = view.phase === "give" ? "give" : view.phase === "discard" ? "discard" : "return";
    const to = view.phase === "give" ? " to the declarer (your partner)" : view.phase === "discard"
      ? " face down (they count for you at the end of the hand)" : " to your partner";
    controls.append(el("p", `Choose ${n} cards to ${verb}${to}: ${selected.size} chosen.`));
    const go = button(`${verb[0].toUpperCase()}${verb.slice(1)} ${n} cards`, () => {
      const cards = view.hand.split(" ").filter((_, i) => selected.has(i));
      act(`${verb} ${cards.join(" ")}`);
    });
    go.disabled = selected.size !== n;
    controls.append(go);
  } else if (view.players === 2 && view.stage === "meld") {
    controls.append(meldTurn(view));
  } else if (view.phase === "play") {
    if (!view.trick.length && !view.tricks.length) controls.append(el("p", "Your lead."));
    // docs/web.md "Claim": the server says when this seat may claim (four-handed the
    // declarer's side and three-handed the declarer, in the last six tricks;
    // two-handed either player once the stock is gone), once per hand
    if (state.can_claim && !state.claim) {
      const mine = players() === 4 ? "your side takes" : "you take";
      const b = button("Claim the rest", () => send({ type: "claim" }),
        `Claim the rest of the hand: the server checks that ${mine} every point left`);
      b.title = `${mine[0].toUpperCase()}${mine.slice(1)} every point left whatever the others play: the server checks it, once per hand`;
      controls.append(b);
    }
    for (const action of legal.actions.filter((a) => !a.startsWith("play"))) {
      if (action === "throw in") {
        const b = button("Throw in (concede)", () => confirmThrowIn());
        b.dataset.action = action;
        b.title = GLOSSARY["throw in"];
        controls.append(b);
      } else {
        const b = actButton("Shoot the moon", action);
        b.title = GLOSSARY["shoot the moon"];
        controls.append(b);
      }
    }
  }
  if (state.table.settings.hints) {
    const ask = button(hintAsked ? "Hint: thinking…" : "Hint (?)", askHint,
      view.deck === "double"
        ? "Hint: what the strongest computer level that plays the double deck would do, and why (key ?)"
        : "Hint: what the strongest computer player would do, and why (key ?)");
    ask.id = "hint-button";
    ask.disabled = hintAsked || !!hint;
    controls.append(ask);
  }
}

/** The rise of the bids in words: "in steps of 10", or the double deck's ladder
 * (docs/rules.md §6) "by 1 to 60, then by 5". */
function ladderText(ladder) {
  if (ladder.length === 1) return `in steps of ${ladder[0][1]}`;
  return ladder.map(([from, step], i) => (i ? `then by ${step} from ${from}` : `by ${step}`)).join(", ");
}

/** The step in force at ``amount`` on a ladder of [from, step] rises. */
function stepAt(ladder, amount) {
  let found = ladder[0];
  for (const rise of ladder) if (amount >= rise[0]) found = rise;
  return found;
}

/** The next bid above ``amount`` on the ladder. */
function nextBid(ladder, amount) {
  return amount + stepAt(ladder, amount + 0)[1];
}

/** Whether ``amount`` is a bid of the ladder (from the rise it falls in). */
function onLadder(ladder, amount) {
  const [from, step] = stepAt(ladder, amount);
  return amount >= ladder[0][0] && (amount - from) % step === 0;
}

/** A claim at the table: who claims, and for a person of the other side Accept or
 * Play on (docs/web.md "Claim"). */
function claimBox(claim) {
  const box = el("div", "", "claim");
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", "Claim");
  const who = claim.seat === mySeat ? "You claim" : `${seatName(state.table, claim.seat)} claims`;
  if (claim.declined) {
    box.append(el("p", `${claim.declined} declined the claim: the hand plays on.`));
    return box;
  }
  if (!claim.waiting.length) {  // accepted: the server plays the rest of the hand out
    box.append(el("p", `${who} the rest of the hand (checked: sure). Accepted: the hand is played out.`));
    return box;
  }
  const waiting = claim.waiting.map((s) => seatName(state.table, s)).join(" and ");
  box.append(el("p", `${who} the rest of the hand (checked: sure). Waiting for ${waiting}.`));
  if (claim.waiting.includes(mySeat)) {
    box.append(button("Accept the claim", () => send({ type: "claim_answer", accept: true })),
      button("Play on", () => send({ type: "claim_answer", accept: false })));
  }
  return box;
}

/** Throwing in cannot be undone: ask first (the dialog names what it costs). */
function confirmThrowIn() {
  const dialog = $("confirm");
  $("confirm-text").textContent = `Throw in this hand? ${GLOSSARY["throw in"]} Your contract is ${state.view.contract}.`;
  const ply = state.ply;
  $("confirm-yes").onclick = () => { dialog.close(); if (state.ply === ply) act("throw in"); };
  $("confirm-no").onclick = () => dialog.close();
  dialog.showModal();
  $("confirm-no").focus();
}

/** The hint panel under the controls: the suggested action and the explanation; the
 * card(s) or button it suggests are outlined (docs/web.md "Hints"). */
function renderHint() {
  const box = $("hint-panel");
  box.replaceChildren();
  box.hidden = !hint || !canHint();
  if (box.hidden) return;
  const head = el("p", "", "hint-action");
  const { sentence, reasons } = hintWords(hint, peopleText);
  const named = el("span", sentence);
  named.dataset.action = hint.action;  // the protocol's form, as the buttons carry it
  head.append(el("strong", `Hint (${hint.level}): `), named);
  const why = el("details", "", "hint-why");
  const numbers = el("ul", "", "hint-text small");
  // no option weighed (a single legal action): the explanation as the player gave it
  for (const line of reasons.length ? reasons : [peopleText(hint.text)]) numbers.append(el("li", line));
  why.append(el("summary", "why"), numbers);
  box.append(head, why);
  const [verb, ...rest] = hint.action.split(" ");
  if (verb === "play" || verb === "give" || verb === "return" || verb === "discard") {
    const cards = [...rest];
    for (const b of $("hand").querySelectorAll("button.card")) {
      const i = cards.indexOf(b.dataset.card);
      if (i >= 0) { b.classList.add("hinted"); cards.splice(i, 1); }
    }
    return;
  }
  const target = [...$("controls").querySelectorAll("[data-action]")].find((b) => b.dataset.action === hint.action);
  if (target) { target.classList.add("hinted"); return; }
  const amount = $("bid-amount");
  if (verb === "bid" && amount) {  // a bid above the quick buttons: typed in for the person
    amount.value = rest[0];
    amount.classList.add("hinted");
  }
}

/** The middle of the table: the widow once the auction is won (three-handed, docs/rules.md §3;
 * the declarer also sees its discards), or the stock and its turned-up trump card
 * (two-handed, docs/rules.md §4). */
function renderTableCenter() {
  const box = $("table-center");
  box.replaceChildren();
  const view = state.view;
  if (!view || view.phase === "game over") return;
  if (view.widow) {
    const widow = el("div", "", "widow");
    widow.setAttribute("role", "group");
    widow.setAttribute("aria-label", `Widow: ${cardsName(view.widow)}`);
    widow.append(el("span", view.rules.includes("widow=take") ? "Widow (taken by the declarer): " : "Widow (counts for the declarer): "));
    for (const card of view.widow.split(" ")) widow.append(cardElement(card));
    box.append(widow);
  }
  if (view.discards) {
    const discards = el("div", "", "discards");
    discards.setAttribute("role", "group");
    discards.setAttribute("aria-label", `Your discards: ${cardsName(view.discards)}`);
    discards.append(el("span", "Your discards: "));
    for (const card of view.discards.split(" ")) discards.append(cardElement(card));
    box.append(discards);
  }
  if (view.players === 2) {
    const stock = el("div", "", "stock");
    stock.setAttribute("role", "group");
    const turned = view.turn_up ? `, turned up ${cardName(view.turn_up)}` : "";
    stock.setAttribute("aria-label", `Stock: ${view.stock_size} cards${turned}`);
    if (view.turn_up) {
      stock.append(el("span", `Stock: ${view.stock_size} card${view.stock_size === 1 ? "" : "s"} · turned up: `, "stock-count"));
      stock.append(cardElement(view.turn_up, { label: `turned-up trump card: ${cardName(view.turn_up)}` }));
    } else {
      // docs/rules.md §4: the last twelve tricks under the play rules
      stock.append(el("span", "The stock is gone: the last tricks (follow suit, win if you can).", "stock-count"));
    }
    box.append(stock);
  }
}

/** Two-handed (docs/rules.md §4): the winner of a trick lays one meld, counts the dix, or
 * says no meld; then both draw. One button per legal choice, named and valued. */
function meldTurn(view) {
  const box = el("div", "", "meld-turn");
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", "Meld after winning the trick");
  box.append(el("p", "You won the trick: lay one meld, count the dix, or draw with no meld."));
  for (const option of view.meld_options || []) {
    const shown = option.cards.split(" ").map((c) => `${c[0] === "T" ? "10" : c[0]}${SUIT_SYMBOL[c[1]]}`).join(" ");
    box.append(actButton(`Meld ${option.name} ${shown} (${option.points})`, option.action,
      `Meld ${option.name}: ${cardsName(option.cards)}, ${option.points} points`));
  }
  if (view.legal.actions.includes("dix")) {
    const text = view.turn_up ? "Dix: exchange the nine of trump for the turned-up card (10)" : "Dix: show the nine of trump (10)";
    box.append(actButton(text, "dix"));
  }
  if (view.legal.actions.includes("no meld")) {
    box.append(actButton(view.dix_counted ? "Done: draw" : "No meld: draw", "no meld"));
  }
  return box;
}

function renderHand() {
  const box = $("hand");
  box.replaceChildren();
  const view = state.view;
  if (!view || view.hand === null) { box.hidden = true; return; }
  box.hidden = false;
  const mine = view.to_act === mySeat && !summaryPending;
  const plays = new Set(mine && view.phase === "play" ? view.legal.actions.filter((a) => a.startsWith("play ")).map((a) => a.slice(5)) : []);
  const passing = mine && view.legal.pass_cards;
  // two-handed: the hand holds the cards laid on the table too (they may be played)
  const onTable = (view.players === 2 && view.table[mySeat] ? view.table[mySeat] : []).map(plainCard);
  // the double deck (docs/rules.md §6): 20 cards with up to four copies of a card, drawn as
  // an overlapping fan on a desktop and two rows of ten on a phone; each copy is its own
  // card, marked and named "copy 2 of 3"
  const cards = view.hand.split(" ").filter(Boolean);
  box.classList.toggle("double", view.deck === "double");
  const copies = {};
  for (const card of cards) copies[card] = (copies[card] || 0) + 1;
  const seen = {};
  cards.forEach((card, i) => {
    let label = cardName(card);
    seen[card] = (seen[card] || 0) + 1;
    if (copies[card] > 1) label += `, copy ${seen[card]} of ${copies[card]}`;
    const laid = onTable.indexOf(card);
    if (laid >= 0) { onTable.splice(laid, 1); label += ", on the table"; }
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
    if (laid >= 0) b.classList.add("on-table");
    if (copies[card] > 1) {
      b.dataset.copy = `${seen[card]}/${copies[card]}`;
      b.classList.add("copy");
      if (seen[card] > 1) b.classList.add("repeat");
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
  head.append(el("th", "Hand"), ...sides().map((s) => el("th", teamName(s))));
  const caption = el("caption", `Game to ${state.view.game_target}${players() === 4 ? "" : ", each player for himself"}`);
  table.append(caption, head);
  for (const hand of state.hands) {
    const row = el("tr");
    const cell = (team) => el("td", hand.outcome === "passed out" || hand.outcome === "nines redeal" ? "—" : `${points(hand.scores[team], true)} = ${points(hand.totals[team])}`);
    row.append(el("td", `${hand.number}`), ...sides().map(cell));
    table.append(row);
  }
  const total = el("tr", "", "total");
  total.append(el("th", "Total"), ...sides().map((s) => el("td", points(state.view.scores[s]))));
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
        li.append(el("span", cardsText(it.cards), "cards-text"));
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
  if (state.view && state.view.players === 2) {
    // docs/rules.md §4: no auction; trump is the suit of the turned-up card
    $("auction-title").textContent = "Trump and stock";
    const view = state.view;
    list.append(el("li", `Trump ${SUIT_NAME[view.trump]}, from the turned-up card.`));
    list.append(el("li", `${view.stock_size} card${view.stock_size === 1 ? "" : "s"} left to draw${view.turn_up ? ` (the last is the turned-up ${cardName(view.turn_up)})` : ""}.`));
    for (const event of view.events.slice(-4)) list.append(el("li", `${seatName(state.table, event.seat)}: ${event.name} ${cardsText(event.cards)} (${event.points})`));
    return;
  }
  $("auction-title").textContent = "Auction";
  const calls = state.view ? state.view.auction : [];
  if (!calls.length) list.append(el("li", "No call yet this hand.", "hint"));
  for (const [seat, call] of calls) {
    const item = el("li", `${seatName(state.table, seat)}: ${call === "pass help" ? "pass with help" : call}`);
    if (call === "pass help") item.append(term("pass with help"));
    list.append(item);
  }
  if (state.view && state.view.declarer !== null) {
    const trump = state.view.trump ? `, trump ${SUIT_NAME[state.view.trump]}` : "";
    const item = el("li", `Contract: ${seatName(state.table, state.view.declarer)}, ${state.view.contract}${trump}`, "contract");
    if (isStuck(state.view)) { item.append(" (stuck"); item.append(term("stuck")); item.append(")"); }
    list.append(item);
  }
  if (state.view && state.view.widow) list.append(el("li", `Widow: ${cardsText(state.view.widow)}`, "contract"));
  if (state.view && state.view.discards) list.append(el("li", `Your discards: ${cardsText(state.view.discards)}`, "contract"));
}

function renderMelds() {
  const box = $("melds");
  box.replaceChildren();
  if (state.view && state.view.melds) box.append(meldList(state.view.melds));
  else box.append(el("p", players() === 3 ? "Meld is shown once trump is named (and, widow taken, the discard made)."
    : "Meld is shown after trump and passing.", "hint"));
}

function renderLastTrick() {
  const box = $("last-trick");
  box.replaceChildren();
  const tricks = state.view ? state.view.tricks : [];
  if (!tricks.length) { box.append(el("p", "No trick yet this hand.", "hint")); return; }
  const last = tricks[tricks.length - 1];
  const row = el("ol", "", "trick-row last-trick-list");
  last.cards.split(" ").forEach((card, i) => {
    const item = el("li", "", "played");
    item.append(cardElement(card, { label: `${seatName(state.table, last.seats[i])}: ${cardName(card)}` }));
    item.append(el("span", seatName(state.table, last.seats[i]), "played-by"));
    if (last.seats[i] === last.winner) item.classList.add("winner");
    row.append(item);
  });
  // 12 tricks four-handed, 15 three-handed (docs/rules.md §3), 24 two-handed (docs/rules.md §4),
  // 20 in the double deck (docs/rules.md §6)
  const total = state.view.tricks_total || (players() === 3 ? 15 : players() === 2 ? 24 : 12);
  box.append(row, el("p", `Won by ${seatName(state.table, last.winner)} (${last.points} points). Trick ${tricks.length} of ${total}.`));
  const points = state.view.trick_points;
  box.append(el("p", `Trick points so far: ${sides().map((s) => `${teamName(s)} ${points[s]}`).join(", ")}.`));
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
  // docs/web.md "Fairness and privacy": the server seed of each game, fixed before the
  // browsers' values; checked here once revealed
  for (const game of (state.fair ? state.fair.games : [])) {
    const seen = JSON.parse(localStorage.getItem(`pinochle.fair.${tableId}.${game.game_no}`)
      || "null");
    const commitments = game.client_commitments || [];
    if (game.server_seed === undefined) {
      const mine = mySeat !== null && seen && commitments[mySeat] === seen.mine;
      const count = commitments.filter((c) => c).length;
      const phase = game.round ? (game.round.phase === "reveal"
        ? ` The browsers' values are being revealed (${game.contributed.length} of ${count}).`
        : " Waiting for the browsers' commitments.") : "";
      const p = el("p", `Game ${game.game_no + 1}: the server's seed is fixed before the ` +
        `players' browsers commit to theirs (${count} committed${mine ? ", this browser among them" : ""}; ` +
        "each value is revealed only once every commitment is in); its SHA-256 is ");
      p.append(el("code", game.commitment, "server-hash"), el("span", `.${phase}`));
      box.append(p);
      continue;
    }
    const hashOk = sha256Hex(game.server_seed) === game.commitment
      && (!seen || seen.commitment === game.commitment);
    const mineOk = !seen || mySeat === null || game.client_seeds[mySeat] === seen.value
      || (!game.client_seeds[mySeat] && commitments[mySeat] !== seen.mine);
    const check = checkCommitments(game.client_seeds, commitments);
    // the hands of this game recomputed here from the revealed seeds (fair.js)
    const seed = gameSeed(game.server_seed, game.client_seeds, game.game_no);
    const hands = game.game_no === state.table.game_no - 1 ? state.hands : [];
    const dealsOk = hands.every((h) => h.deal_seed === dealSeed(seed, h.number - 1));
    const ok = hashOk && mineOk && !check.wrong.length && dealsOk;
    const args = game.client_seeds.map((c) => ` --client-seed ${c || "-"}`).join("") +
      commitments.map((c) => ` --client-commitment ${c || "-"}`).join("");
    const item = el("li", `Game ${game.game_no + 1}: ${ok ? "✓" : "✗ MISMATCH"} ` +
      `the server seed ${hashOk ? "matches" : "does NOT match"} the hash shown before the game` +
      `${seen ? "" : " (this browser did not see that hash)"}` +
      `${mineOk ? "" : "; this browser's value is NOT among the values"}` +
      `${check.wrong.length ? `; the values of seats ${check.wrong.join(", ")} do NOT match their commitments` : "; every value matches its commitment"}` +
      `${check.withheld.length ? `; seats ${check.withheld.join(", ")} committed and did not reveal (dealt without them)` : ""}` +
      `${dealsOk ? "" : "; the deal seeds do NOT follow from these seeds"}.`, ok ? "ok" : "bad");
    const deck = state.view && state.view.deck === "double" ? " --deck double" : "";
    item.append(el("div", `pinochle verify --server-seed ${game.server_seed}${args}${deck} ` +
      `--game ${game.game_no} --hand 0 --dealer D --server-commitment ${game.commitment}`,
      "hint small"));
    box.append(el("ul", "", "fair-list"));
    box.lastChild.append(item);
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
    const n = hand.players || 4;
    const deck = hand.deck === "double" ? " --deck double" : "";
    item.append(el("div", `seed ${hand.deal_seed}, dealer seat ${hand.dealer}: pinochle verify ${hand.deal_seed} --dealer ${hand.dealer}${n === 4 ? "" : ` --players ${n}`}${deck} --commitment ${hand.commitment}`, "hint small"));
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
  if ((hand.players || 4) === 2) {
    const each = hand.scores.map((s, seat) => `${seatName(state.table, seat)} +${s}`).join(", ");
    return `trump ${SUIT_SYMBOL[hand.trump]}, ${each}`;
  }
  if (hand.outcome === "passed out") return "passed out";
  if (hand.outcome === "nines redeal") return `${seatName(state.table, hand.caller)} called a nines redeal`;
  const trump = hand.trump ? `${SUIT_SYMBOL[hand.trump]}` : "";
  return `${seatName(state.table, hand.declarer)} ${hand.contract} ${trump}, ${hand.outcome}`;
}

/** The outcome in words, as the terminal says it (text/results.py ``explain_result``):
 * "made: meld 200 + counters 160 = 360 ≥ 350", then each side's meld, counters and score. */
/** The side (team, or player three-handed) that declared, or null: nobody declared, or
 * the two-handed game, which has no declarer. */
function declaringSide(hand) {
  if (hand.declarer === null || hand.declarer === undefined || (hand.players || 4) === 2) return null;
  return hand.declarer % hand.scores.length;
}

function outcomeLines(hand) {
  const lines = [];
  const us = declaringSide(hand);
  if (us === null) {
    hand.scores.forEach((score, side) => {
      lines.push(el("p", `${teamName(side)}: meld ${hand.meld_points[side]}, counters ${hand.trick_points[side]}, ${points(score, true)} → ${points(hand.totals[side])}.`, "outcome-side"));
    });
    return lines;
  }
  const meld = hand.meld_points[us];
  const took = declarerTook(hand, us);
  const say = (text, name = null) => {
    const p = el("p", text, "outcome");
    if (name) p.append(term(name));
    lines.push(p);
  };
  if (hand.outcome === "made") say(`made: ${took} ≥ ${hand.contract}`);
  else if (hand.outcome === "set") say(`set: ${took} < ${hand.contract}`, "set");
  else if (hand.outcome === "thrown in") say("thrown in: the declarer conceded after meld; set, no cards played", "throw in");
  else if (hand.outcome === "not on the board") say(`not on the board: meld ${meld} + every counter could not reach ${hand.contract}; set without play`, "not on the board");
  else if (hand.outcome === "moon made") say("shot the moon: every trick taken", "shoot the moon");
  else if (hand.outcome === "moon failed") say("the moon failed: not every trick taken; set", "shoot the moon");
  hand.scores.forEach((score, side) => {
    const unsaved = unsavedMeld(hand, side, us);
    const note = !unsaved ? "" : unsaved.term === "set" ? " (meld lost: set)" : ` (meld not saved: ${unsaved.why})`;
    const p = el("p", `${teamName(side)}: meld ${hand.meld_points[side]}${note}, counters ${hand.trick_points[side]}, ${points(score, true)} → ${points(hand.totals[side])}.`, "outcome-side");
    if (unsaved && unsaved.term !== "set") p.append(term(unsaved.term));
    lines.push(p);
  });
  return lines;
}

function queueSummary(hand) {
  if ($("summary").open) summaries.push(hand);
  else showSummary(hand);
}

$("summary").addEventListener("close", () => {
  if (summaries.length) showSummary(summaries.shift());
});

function showSummary(hand) {
  const body = $("summary-body");
  body.replaceChildren();
  $("summary-title").textContent = `Hand ${hand.number} is over`;
  body.append(el("p", describeHand(hand) + "."));
  for (const line of outcomeLines(hand)) body.append(line);
  if (hand.widow) {
    // docs/rules.md §3: the widow (or the declarer's discards, widow taken) counts for the declarer
    body.append(el("p", `Widow: ${cardsText(hand.widow)}${hand.discards ? `; the declarer discarded ${cardsText(hand.discards)}` : ""}.`));
  }
  if (hand.melds.length) body.append(meldList(hand.melds));
  const table = el("table");
  const head = el("tr");
  head.append(el("th", ""), ...sides().map((s) => el("th", teamName(s))));
  table.append(head);
  const row = (label, values) => {
    const tr = el("tr");
    tr.append(el("th", label), ...values.map((v) => el("td", String(v))));
    table.append(tr);
  };
  // a meld that does not count (unsavedMeld): lost with the contract, or not saved;
  // the tooltip says why under the table's rules
  const declaring = declaringSide(hand);
  const unsaved = hand.meld_points.map((m, t) => unsavedMeld(hand, t, declaring));
  row("Meld", hand.meld_points.map((m, t) => !unsaved[t] ? `${m}`
    : `${m} ${unsaved[t].term === "set" ? "(lost: set)" : "(not saved)"}`));
  table.querySelectorAll("tr:last-child td").forEach((cell, t) => {
    if (unsaved[t]) cell.title = GLOSSARY[unsaved[t].term];
  });
  row("Tricks", hand.trick_points);
  row("This hand", hand.scores.map((s) => points(s, true)));
  row("Total", hand.totals.map((s) => points(s)));
  body.append(table);
  // docs/web.md "Review": the finished hand, decision by decision (js/review.js)
  const review = el("button", "Review this hand", "review-open");
  review.type = "button";
  const gameNo = state.table.game_no - 1;
  review.onclick = () => openReview({ tableId, gameNo, hand: hand.number, seat: mySeat,
    token: me ? me.token : "", seats: state.table.seats });
  body.append(review);
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

// -- keyboard: ? asks for a hint, as in the terminal -----------------------------

document.addEventListener("keydown", (event) => {
  if (event.key !== "?" || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest && event.target.closest("input, textarea, select")) return;
  if (!canHint()) return;
  event.preventDefault();
  askHint();
});

// -- keyboard: u takes back the last move, as in the terminal (docs/web.md "Undo") --

document.addEventListener("keydown", (event) => {
  if (event.key !== "u" || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest && event.target.closest("input, textarea, select")) return;
  if (!state || mySeat === null || !state.view) return;
  event.preventDefault();
  send({ type: "undo" });  // refused with words where undo is not allowed
});

$("copy").addEventListener("click", async () => {
  $("invite").select();
  try { await navigator.clipboard.writeText($("invite").value); } catch { document.execCommand("copy"); }
  $("copy").textContent = "Copied";
  setTimeout(() => { $("copy").textContent = "Copy"; }, 1500);
});

$("glossary-open").addEventListener("click", () => openGlossary());
// a phone: the side panels start folded, so the hand and the trick stay in view
if (matchMedia("(max-width: 52rem)").matches) {
  for (const panel of document.querySelectorAll("details.fold")) panel.open = false;
}

handsSeen = null;
initChat(send, () => state);
connect();
