// The table's chat (docs/web.md "Chat"): seated players, and spectators where the
// table lets them; preset messages and free text; mute per player, kept in this
// browser; the whole panel can be hidden. Every text is drawn as text, never HTML.
import { el } from "./cards.js";

const $ = (id) => document.getElementById(id);
const MUTE_KEY = "pinochle.chat.muted";
const HIDE_KEY = "pinochle.chat.hidden";
/** The server's limit (characters, after cleaning). */
export const CHAT_LENGTH = 200;
/** One click sends these. */
export const PRESETS = ["Hello", "Good luck", "Nice play", "Well played", "Thanks", "Hurry, please", "Sorry"];

let messages = [];
let unread = 0; // messages from others that came while the panel was folded
let muted = new Set(JSON.parse(localStorage.getItem(MUTE_KEY) || "[]"));
let hooks = null;

/** Who wrote a message, as the mute list knows them: a seat, or every spectator. */
function who(message) {
  return message.seat === null ? "spectators" : `seat ${message.seat}`;
}

/** Start the chat: ``send`` sends a message to the server, ``current`` gives the
 * latest table state (or null). */
export function initChat(send, current) {
  hooks = { send, current };
  const form = $("chat-form");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("chat-input");
    const text = input.value.trim();
    if (!text) return;
    send({ type: "chat", text });
    input.value = "";
  });
  const presets = $("chat-presets");
  for (const text of PRESETS) {
    const b = el("button", text);
    b.type = "button";
    b.addEventListener("click", () => send({ type: "chat", text }));
    presets.append(b);
  }
  const panel = $("panel-chat");
  panel.addEventListener("toggle", () => {
    if (panel.open) { unread = 0; drawUnread(); }
  });
  const hide = $("opt-chat-hidden");
  hide.checked = localStorage.getItem(HIDE_KEY) === "1";
  hide.addEventListener("change", () => {
    localStorage.setItem(HIDE_KEY, hide.checked ? "1" : "0");
    renderChat();
  });
}

/** Every message so far (on connecting), replacing what was shown. */
export function chatLog(list) {
  messages = list.slice();
  renderChat();
}

/** One new message. */
export function chatMessage(message) {
  if (messages.some((m) => m.n === message.n)) return;
  messages.push(message);
  if (messages.length > 200) messages = messages.slice(-200);
  const state = hooks ? hooks.current() : null;
  const mine = !!state && state.seat !== null && message.seat === state.seat;
  if (!$("panel-chat").open && !mine && !muted.has(who(message))) {
    unread += 1;
    drawUnread();
  }
  renderChat();
}

/** The count of unread messages on the folded chat's summary; none once opened. */
function drawUnread() {
  const badge = $("chat-unread");
  badge.hidden = unread === 0;
  badge.textContent = unread ? `${unread} new` : "";
  badge.setAttribute("aria-label", `${unread} new message${unread === 1 ? "" : "s"}`);
}

function toggleMute(key) {
  if (muted.has(key)) muted.delete(key); else muted.add(key);
  localStorage.setItem(MUTE_KEY, JSON.stringify([...muted]));
  renderChat();
}

/** Draw the chat panel for the current state: hidden if the person hid it, read-only
 * or absent for a spectator as the table's setting says. */
export function renderChat() {
  if (!hooks) return;
  const state = hooks.current();
  const panel = $("panel-chat");
  const mode = state ? state.table.settings.spectator_chat || "none" : "none";
  const seated = !!state && state.seat !== null;
  const readable = seated || mode === "read" || mode === "write";
  panel.hidden = !state || !readable || $("opt-chat-hidden").checked;
  if (panel.hidden) return;
  $("chat-form").hidden = !(seated || mode === "write");
  $("chat-presets").hidden = $("chat-form").hidden;
  const mutes = $("chat-mutes");
  mutes.replaceChildren();
  const others = state.table.seats.filter((s) => s.kind === "human" && s.seat !== state.seat)
    .map((s) => [`seat ${s.seat}`, s.name]);
  if (mode !== "none") others.push(["spectators", "spectators"]);
  if (others.length) mutes.append(el("span", "Mute: ", "small"));
  for (const [key, name] of others) {
    const b = el("button", name);
    b.type = "button";
    b.setAttribute("aria-pressed", muted.has(key) ? "true" : "false");
    b.setAttribute("aria-label", `Mute ${name}`);
    b.addEventListener("click", () => toggleMute(key));
    mutes.append(b);
  }
  const list = $("chat-list");
  list.replaceChildren();
  const shown = messages.filter((m) => !muted.has(who(m)));
  if (!shown.length) list.append(el("li", "No message yet.", "hint"));
  for (const m of shown) {
    const item = el("li", "", "chat-message");
    const name = m.seat === null ? "Spectator" : m.name;
    item.append(el("strong", `${name}: `), el("span", m.text, "chat-text"));
    list.append(item);
  }
  list.scrollTop = list.scrollHeight;
}
