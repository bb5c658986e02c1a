// At a tournament table: when the game is over (or the tournament stopped it), links to the match and
// to the next game (the match's, or the player's own next one) as soon as it is there.
import { api, el } from "/static/api.js";

let box = null;
let tries = 0;
let timer = null;

async function look(tableId) {
  let info;
  try { info = await api("GET", `/api/tables/${tableId}/event`); } catch { return; }
  const parts = [el("a", { href: info.match.url, id: "event-match", class: "button" }, `Back to match ${info.match.id}`)];
  if (info.next) parts.push(" ", el("a", { href: `/table/${info.next.table_id}`, id: "event-next", class: "button" }, `Next: ${info.next.match} game ${info.next.number}`));
  else if (info.event.status === "running" && tries < 20) { tries += 1; timer = setTimeout(() => look(tableId), 3000); }
  const head = el("p", {}, `${info.event.name} — ${info.match.id}, game ${info.game.number}`);
  box.replaceChildren(head, ...parts);
}

// Call on every view: shows the links once the game is over or was stopped.
export function tournamentLinks(container, last, tableId) {
  const ev = last && last.table && last.table.event;
  const done = last && ((last.view && last.view.is_over) || last.table.status === "closed");
  if (!ev || !done || box) return;
  box = el("div", { id: "event-links", class: "event-links" });
  container.append(box);
  if (last.table.halted) box.before(el("p", { class: "note", id: "halted" }, `This game was stopped: ${last.table.halted}.`));
  clearTimeout(timer);
  look(tableId);
}
