// Every game played at a table and every finished hand of each, linked to its replay.
import { api, el, scoresText, seatName, tokenKey } from "./cards.js";
import { openReview } from "./review.js";

const $ = (id) => document.getElementById(id);
const [, , tableId] = location.pathname.split("/");

function describe(data, hand) {
  if (hand.outcome === "passed out") return "passed out";
  const parts = [hand.outcome];
  if (hand.scores) parts.push(`this hand: ${scoresText(data, hand.scores, true)}`);
  if (hand.totals) parts.push(`totals: ${scoresText(data, hand.totals)}`);
  return parts.join("; ");
}

function render(data) {
  $("title").textContent = `— history of ${data.title}`;
  const box = $("games");
  box.replaceChildren();
  for (const game of data.games) {
    const section = el("section", "", "history-game");
    const headingId = `game-${game.game_no}`;
    // four-handed the winner is a team (1: seats 0 & 2, 2: seats 1 & 3); else a seat
    const winner = game.winner === null ? "?" : data.seats.length === 4 ? `team ${game.winner + 1}`
      : seatName(data, game.winner);
    const state = game.over ? `over, won by ${winner}` : "in progress";
    const heading = el("h2", `Game ${game.game_no + 1} (${game.rules}) — ${state}, scores: ${scoresText(data, game.scores)}`);
    heading.id = headingId;
    section.setAttribute("aria-labelledby", headingId);
    section.append(heading);
    if (!game.hands.length) {
      section.append(el("p", "No finished hands yet.", "hint"));
    } else {
      const list = el("ul", "", "history-hands");
      for (const hand of game.hands) {
        const item = el("li");
        const link = document.createElement("a");
        link.href = `/replay/${tableId}/${game.game_no}/${hand.number}`;
        link.textContent = `Hand ${hand.number}: ${describe(data, hand)}`;
        link.setAttribute("aria-label", `Replay game ${game.game_no + 1}, hand ${hand.number}: ${describe(data, hand)}`);
        // docs/web.md "Review": the hand decision by decision, your own seat's first
        const review = el("button", "Review", "review-open");
        review.type = "button";
        review.setAttribute("aria-label", `Review game ${game.game_no + 1}, hand ${hand.number}`);
        review.onclick = () => openReview({ tableId, gameNo: game.game_no, hand: hand.number,
          token: (JSON.parse(localStorage.getItem(tokenKey(tableId)) || "null") || {}).token || "",
          seats: data.seats });
        item.append(link, " ", review);
        list.append(item);
      }
      section.append(list);
    }
    box.append(section);
  }
  renderChat(data);
}

/** The table's chat, where spectators may read it (docs/web.md "Chat"). */
function renderChat(data) {
  if (!data.chat) return;
  const section = el("section", "", "history-chat");
  section.append(el("h2", "Chat"));
  if (!data.chat.length) section.append(el("p", "No message.", "hint"));
  const list = el("ol", "", "chat-list");
  for (const m of data.chat) {
    const item = el("li", "", "chat-message");
    item.append(el("strong", `${m.seat === null ? "Spectator" : m.name}: `), el("span", m.text));
    list.append(item);
  }
  section.append(list);
  $("games").append(section);
}

async function main() {
  $("back").href = `/t/${tableId}`;
  try {
    render(await api("GET", `/api/tables/${tableId}/history`));
  } catch (error) {
    $("error").textContent = error.message;
  }
}

main();
