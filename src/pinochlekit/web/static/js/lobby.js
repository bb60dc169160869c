// The lobby: create a table (preset or any option, a computer level per empty seat),
// list open tables, join or watch.
import { api, el, seatLabels, tokenKey } from "./cards.js";
import { sha256Hex } from "./fair.js";

let meta = null;
const $ = (id) => document.getElementById(id);

function optionInput(option) {
  const row = el("div", "", "row");
  const id = `opt-${option.name}`;
  const label = el("label", option.name.replaceAll("_", " "));
  label.htmlFor = id;
  label.title = `${option.doc} (source: ${option.source})`;
  let input;
  if (option.kind === "bool") {
    input = document.createElement("input");
    input.type = "checkbox";
  } else if (option.kind === "choice") {
    input = document.createElement("select");  // its choices follow the preset (showOffered)
  } else {
    input = document.createElement("input");
    input.type = "number";
  }
  input.id = id;
  input.dataset.option = option.name;
  input.dataset.kind = option.kind;
  input.setAttribute("aria-description", option.doc);
  const hint = el("span", option.doc, "hint small");
  // what the chosen preset takes only with another option changed (GET /api/meta "needs")
  const needs = el("span", "", "needs hint small");
  needs.id = `needs-${option.name}`;
  input.setAttribute("aria-describedby", needs.id);
  row.append(label, input, needs, hint);
  return row;
}

const word = (value) => (value === true ? "yes" : value === false ? "no" : String(value));

// The values the chosen game takes, as the engine decided for /api/meta: a select
// offers only those (three-handed has no chip scoring, docs/rules.md §3), and a value
// the preset takes only with another option changed says so.
function showOffered(input, preset) {
  const name = input.dataset.option;
  if (input.tagName === "SELECT") {
    // a hidden (fixed) option keeps every choice, so the preset's value is among them
    const offered = preset.offered[name] || meta.options.find((o) => o.name === name).choices;
    input.replaceChildren(...offered.map((v) => new Option(String(v), String(v))));
  }
  const needs = preset.needs.filter((n) => n.option === name)
    .map((n) => `${word(n.value)} only with ${n.with.join(" or ")}`);
  $(`needs-${name}`).textContent = needs.length ? `(${needs.join("; ")})` : "";
  $(`needs-${name}`).hidden = !needs.length;
}

// The seats follow the preset's number of players: partners opposite four-handed,
// each for himself three-handed (docs/rules.md §3) and two-handed (docs/rules.md §4).
const LEGEND = {
  4: "Seats (partners sit opposite: you and North, East and West)",
  3: "Seats (three-handed: each player for himself)",
  2: "Seats (two-handed: you against one opponent)",
};

// Each preset in players' words (where its rules come from stays in the tooltip).
const PRESET_WORDS = {
  pagat: "The classic four-handed partnership game: bid from 250 in tens, the winner names trump and swaps 4 cards with partner, game to 1,500.",
  modern: "As the classic game, but you must beat a trick only when trump is led (the rule of most modern books).",
  stonebridge: "A lighter four-handed game: bidding from 190, no cards swapped with partner, doubles score plainly, kings and queens count 5.",
  playingcards: "The PlayingCards.io scoring: points divided by ten (bid 20 by 1), 3 cards swapped, game to 150, a hand of nines may be redealt, meld kept without a trick.",
  chips: "The classic game scored with chips: a set pays the other side instead of going minus.",
  cutthroat: "The classic game with no cards swapped between partners: each hand plays as dealt.",
  family1000: "A family four-handed game to 1,000: trump must be led first, trump follows trump, every card in one meld only, a short declarer loses the shortfall, and one may shoot the moon.",
  three: "Three players, each for himself: 15 cards each and a widow of 3 shown to all once the bidding is won; a short declarer loses the shortfall; game to 1,000.",
  doubledeck: "Double deck: 80 cards (four of each A 10 K Q J per suit), 20 each in two partnerships; bid from 50 (by 1 to 60, then by 5), meld single to quadruple, counters A 10 K 1 each, game to 500.",
  two: "Two players: 12 cards each, the turned-up card makes trump, draw from the stock after each trick and lay one meld per trick won; game to 1,000.",
};

// The levels in players' words, with the strength ladder measured in README "Measured"
// (points per hand in matches on the same deals, four-handed pagat unless said).
const LEVEL_WORDS = {
  random: "plays any legal card: for trying the table",
  simple: "a beginner with a few rules of thumb",
  easy: "a casual player",
  standard: "a solid club player: beats easy by about 360 points a hand",
  skilled: "standard with sharper card play: about 25 points a hand better",
  pro: "a strong player: beats standard by about 70 points a hand",
  expert: "the strongest: beats pro in two-handed play by about 50 points a hand, four-handed by about 70 (pagat and modern, 2,000 deal pairs each)",
};

/** The level ladder in one line for the lobby. */
function ladderText(levels) {
  return `Computer levels, weakest first: ${levels.map((l) => `${l} (${LEVEL_WORDS[l] || "a computer player"})`).join("; ")}.`;
}

function levelsFor(players, deck = "single") {
  // the double deck (docs/rules.md §6) seats the levels that play it
  if (deck === "double") return meta.levels_double;
  return meta.levels_by_players[String(players)] || meta.levels;
}

function fillLevels(select, levels, fallback) {
  const before = select.value;
  select.replaceChildren();
  if (select.classList.contains("seat-kind")) select.append(new Option("Open for a friend", "open"));
  for (const level of levels) {
    const option = new Option(select.classList.contains("seat-kind") ? `Computer: ${level}` : level, level);
    if (LEVEL_WORDS[level]) option.title = LEVEL_WORDS[level];
    select.append(option);
  }
  const keep = before === "open" || levels.includes(before);
  // the fallback, or the strongest level when the game has no such level (the double deck)
  select.value = before && keep ? before : levels.includes(fallback) ? fallback : levels[levels.length - 1];
}

function showSeats(players, deck = "single") {
  const rows = $("seat-rows");
  const labels = seatLabels(players);
  if (rows.children.length !== players) {
    rows.replaceChildren();
    const you = el("div", "", "row");
    you.append(el("span", `${labels[0]} (you)`, "label"), el("span", "you"));
    rows.append(you);
    for (let seat = 1; seat < players; seat++) {
      const row = el("div", "", "row");
      const label = el("label", players === 4 && seat === 2 ? `${labels[seat]} (your partner)` : labels[seat]);
      label.htmlFor = `seat${seat}`;
      const select = document.createElement("select");
      select.id = `seat${seat}`;
      select.className = "seat-kind";
      row.append(label, select);
      rows.append(row);
    }
  }
  $("seats-legend").textContent = LEGEND[players];
  const levels = levelsFor(players, deck);
  for (const select of document.querySelectorAll(".seat-kind")) fillLevels(select, levels, "standard");
  fillLevels($("standin"), levels, "standard");
  $("levels-ladder").textContent = ladderText(levels);
}

function showPreset() {
  const preset = meta.presets.find((p) => p.name === $("preset").value);
  $("preset-source").textContent = `${PRESET_WORDS[preset.name] || preset.source} (${preset.players} players)`;
  $("preset-source").title = `Where these rules come from: ${preset.source}`;
  showSeats(preset.players, preset.deck);
  for (const input of document.querySelectorAll("[data-option]")) {
    const value = preset.values[input.dataset.option];
    showOffered(input, preset);
    if (input.dataset.kind === "bool") input.checked = value;
    else input.value = String(value);
    // options the game does not have (two-handed: no auction, docs/rules.md §4; three-handed:
    // no partners, §3; the widow only three-handed) keep the preset's value, unseen
    input.closest(".row").hidden = preset.fixed.includes(input.dataset.option);
  }
}

function rulesText() {
  const preset = meta.presets.find((p) => p.name === $("preset").value);
  const changes = [];
  for (const input of document.querySelectorAll("[data-option]")) {
    const name = input.dataset.option;
    if (preset.fixed.includes(name)) continue;
    const value = input.dataset.kind === "bool" ? input.checked : input.value;
    if (String(value) !== String(preset.values[name])) {
      changes.push(`${name}=${input.dataset.kind === "bool" ? (value ? "yes" : "no") : value}`);
    }
  }
  return changes.length ? `${preset.name}(${changes.join(", ")})` : preset.name;
}

async function refresh() {
  try {
    const { tables } = await api("GET", "/api/tables");
    const list = $("tables");
    list.replaceChildren();
    if (!tables.length) list.append(el("li", "No open tables yet: create one."));
    for (const table of tables) {
      const item = el("li", "", "table-item");
      const open = table.seats.filter((s) => s.kind === "open").length;
      const labels = seatLabels(table.seats.length);
      const names = table.seats.map((s, i) => `${labels[i]}: ${s.kind === "open" ? "open" : s.name}`);
      item.append(el("strong", table.title), el("span", ` — ${table.rules}, ${table.status}, ${open} open seat${open === 1 ? "" : "s"}`),
                  el("div", names.join(" · "), "hint"));
      const link = document.createElement("a");
      link.href = `/t/${table.id}`;
      link.textContent = open ? "Join" : "Watch";
      link.className = "button";
      link.setAttribute("aria-label", `${link.textContent} ${table.title}`);
      const past = document.createElement("a");
      past.href = `/history/${table.id}`;
      past.textContent = "History";
      past.className = "button";
      past.setAttribute("aria-label", `History of ${table.title}`);
      item.append(link, " ", past);
      list.append(item);
    }
  } catch (error) {
    $("tables").replaceChildren(el("li", `Cannot list the tables: ${error.message}`, "error"));
  }
}

async function create(event) {
  event.preventDefault();
  $("create-error").textContent = "";
  const name = $("name").value.trim();
  if (!name) {
    $("create-error").textContent = "Give your name first.";
    $("name").focus();
    return;
  }
  localStorage.setItem("pinochle.name", name);
  const seats = ["open", ...[...document.querySelectorAll(".seat-kind")].map((s) => s.value)];
  try {
    const table = await api("POST", "/api/tables", {
      title: $("title").value, rules: rulesText(), seats,
      grace: Number($("grace").value), pace: Number($("pace").value), standin: $("standin").value,
      hints: $("hints").checked,
      turn_time: Number($("turn-time").value), spectator_chat: $("spectator-chat").value,
    });
    // this browser's random share of the first game's seed, kept with the hash of the
    // server seed it saw; only its SHA-256 is sent now (docs/web.md "Fairness")
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    const clientSeed = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    const first = table.fair.games.find((g) => g.game_no === 0);
    const mine = sha256Hex(clientSeed);
    if (first) {
      localStorage.setItem(`pinochle.fair.${table.id}.0`,
        JSON.stringify({ commitment: first.commitment, value: clientSeed, mine }));
    }
    const joined = await api("POST", `/api/tables/${table.id}/join`,
      first ? { seat: 0, name, client_commitment: mine } : { seat: 0, name });
    localStorage.setItem(tokenKey(table.id), JSON.stringify({ token: joined.token, seat: 0 }));
    location.href = table.url;
  } catch (error) {
    $("create-error").textContent = error.message;
  }
}

async function main() {
  meta = await api("GET", "/api/meta");
  for (const preset of meta.presets) {
    const kind = preset.deck === "double" ? " (double deck, 80 cards)" : preset.players === 4 ? ""
      : preset.players === 3 ? " (three-handed)" : " (two-handed)";
    $("preset").append(new Option(`${preset.name}${kind}`, preset.name));
  }
  for (const option of meta.options) $("options").append(optionInput(option));
  $("preset").addEventListener("change", showPreset);
  $("create").addEventListener("submit", create);
  // a name typed while the page was still loading stays
  if (!$("name").value) $("name").value = localStorage.getItem("pinochle.name") || "";
  showPreset();
  refresh();
  setInterval(refresh, 5000);
}

main();
