// A person's statistics by seat name (docs/review.md "Statistics"): the totals, the
// points lost a decision game by game and by phase, drawn as SVG (no chart library).
import { api, el } from "./cards.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const PHASES = ["auction", "passing", "play"];

function svg(tag, attrs = {}, text = "") {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text) node.textContent = text;
  return node;
}

/** A line of values (null: no decision) with its points, labelled for screen readers. */
function linePlot(title, labels, values) {
  const w = 360, h = 160, pad = 30;
  const shown = values.filter((v) => v !== null);
  const top = Math.max(1, ...shown);
  const x = (i) => pad + (labels.length < 2 ? (w - 2 * pad) / 2 : (i * (w - 2 * pad)) / (labels.length - 1));
  const y = (v) => h - pad - (v / top) * (h - 2 * pad);
  const plot = svg("svg", { viewBox: `0 0 ${w} ${h}`, role: "img", class: "stats-plot", "aria-label": title });
  plot.append(svg("title", {}, title));
  plot.append(svg("line", { x1: pad, y1: h - pad, x2: w - pad, y2: h - pad, class: "axis" }));
  plot.append(svg("line", { x1: pad, y1: pad, x2: pad, y2: h - pad, class: "axis" }));
  plot.append(svg("text", { x: 2, y: pad, class: "tick" }, String(Math.round(top * 10) / 10)));
  plot.append(svg("text", { x: 2, y: h - pad, class: "tick" }, "0"));
  const points = values.map((v, i) => (v === null ? null : [x(i), y(v)])).filter(Boolean);
  if (points.length > 1) plot.append(svg("polyline", { points: points.map((p) => p.join(",")).join(" "), class: "trend" }));
  values.forEach((v, i) => {
    if (v === null) return;
    const dot = svg("circle", { cx: x(i), cy: y(v), r: 4, class: "point" });
    dot.append(svg("title", {}, `${labels[i]}: ${v} points lost a decision`));
    plot.append(dot);
  });
  return plot;
}

/** Horizontal bars of values by label. */
function barPlot(title, labels, values) {
  const w = 360, row = 26, pad = 110;
  const h = row * labels.length + 10;
  const top = Math.max(1, ...values.map((v) => v || 0));
  const plot = svg("svg", { viewBox: `0 0 ${w} ${h}`, role: "img", class: "stats-plot", "aria-label": title });
  plot.append(svg("title", {}, title));
  labels.forEach((label, i) => {
    const v = values[i];
    plot.append(svg("text", { x: 4, y: i * row + 20, class: "tick" }, label));
    const bar = svg("rect", { x: pad, y: i * row + 6, height: row - 10, width: Math.max(1, ((v || 0) / top) * (w - pad - 50)), class: "bar" });
    bar.append(svg("title", {}, `${label}: ${v === null ? "no decision" : v}`));
    plot.append(bar);
    plot.append(svg("text", { x: pad + ((v || 0) / top) * (w - pad - 50) + 6, y: i * row + 20, class: "tick" }, v === null ? "–" : String(v)));
  });
  return plot;
}

function render(stats) {
  const box = $("stats");
  box.replaceChildren();
  const t = stats.total;
  box.append(el("h2", `${stats.name}: ${t.hands} ${t.hands === 1 ? "hand" : "hands"}`));
  box.append(el("p", `Contracts bid ${t.bid}, made ${t.made}, set ${t.set}; ${t.marks} decisions marked ? or ??; ${t.lost_per_decision ?? "–"} points lost a decision (expert, time ${stats.budget.time} s).`, "stats-total"));
  const trend = stats.trend;
  box.append(el("h3", "Points lost a decision, game by game"));
  box.append(linePlot("points lost a decision, game by game", trend.map((g) => `${g.when} ${g.source}`), trend.map((g) => g.lost_per_decision)));
  box.append(el("h3", "By phase"));
  box.append(barPlot("points lost a decision by phase", PHASES, PHASES.map((p) => t.by_phase[p].lost_per_decision)));
  const levels = Object.keys(stats.by_opponents);
  box.append(el("h3", "By opponents"));
  box.append(barPlot("points lost a decision by opponents", levels, levels.map((l) => stats.by_opponents[l].lost_per_decision)));
  const table = el("table", "", "stats-table");
  const head = el("tr");
  for (const h of ["Opponents", "Hands", "Bid", "Made", "Set", "Lost a decision"]) head.append(el("th", h));
  table.append(head);
  for (const level of levels) {
    const b = stats.by_opponents[level];
    const tr = el("tr");
    for (const v of [level, b.hands, b.bid, b.made, b.set, b.lost_per_decision ?? "–"]) tr.append(el("td", String(v)));
    table.append(tr);
  }
  box.append(table);
}

let timer = null;

async function ask(name) {
  clearTimeout(timer);
  $("error").textContent = "";
  let answer;
  try {
    answer = await api("GET", `/api/stats?name=${encodeURIComponent(name)}`);
  } catch (error) {
    $("progress").hidden = true;
    $("status").textContent = "";
    $("error").textContent = error.message;
    return;
  }
  if (answer.status === "running") {
    $("progress").hidden = false;
    $("progress").max = answer.total || 1;
    $("progress").value = answer.done;
    $("status").textContent = answer.total ? `Reviewing: hand ${answer.done} of ${answer.total}…` : "Reviewing…";
    timer = setTimeout(() => ask(name), 500);
    return;
  }
  $("progress").hidden = true;
  $("status").textContent = "";
  render(answer.stats);
}

$("ask").addEventListener("submit", (event) => {
  event.preventDefault();
  const name = $("name").value.trim();
  history.replaceState(null, "", `/stats?name=${encodeURIComponent(name)}`);
  ask(name);
});

const given = new URLSearchParams(location.search).get("name");
if (given) {
  $("name").value = given;
  ask(given);
}
