// Who sits at the table: a plate per seat (name, connection, score, tiles; the seat to play
// marked), the others' at the top of the table and yours by your hand, and the players' table
// of the side panel. `kept`: what each seat kept while a hand's end is shown (the counts say
// so, not the emptied hands of the state).
import { el } from "/static/api.js";

function presenceOf(last, i) {
  const p = (last.presence || [])[i];
  if (!p) return null;
  return p.online ? "connected" : "disconnected";
}

function connMark(conn) {
  if (!conn) return "";
  return el("span", { class: `conn ${conn}`, title: conn === "connected" ? "connected to the table" : "not connected to the table" },
    conn === "connected" ? "online" : "away");
}

function tilesOf(last, kept, i) {
  const view = last.view;
  if (kept) return kept[i].length;
  return view && view.hand_sizes ? view.hand_sizes[i] : null;
}

function plate(last, kept, i) {
  const view = last.view;
  const s = last.table.seats[i];
  const acting = view && !view.is_over && view.current_seat === i;
  const tiles = tilesOf(last, kept, i);
  return el("div", { class: `plate seat-${i}${acting ? " to-act" : ""}`, "data-seat": i },
    el("span", { class: `dot seat-${i} num`, title: `seat ${i + 1}: its last tile on the board has this mark` }, String(i + 1)),
    el("b", {}, s.kind === "open" ? "open seat" : s.name),
    connMark(presenceOf(last, i)),
    view && view.scores ? el("span", { class: "plate-score", title: "score" }, String(view.scores[i]), el("span", { class: "unit" }, view.scores[i] === 1 ? " pt" : " pts")) : "",
    tiles !== null && tiles !== undefined ? el("span", { class: "plate-tiles", title: "tiles in hand" }, String(tiles), el("span", { class: "unit" }, ` tile${tiles === 1 ? "" : "s"}`)) : "");
}

// The plates: the others in playing order after you (everyone, for a watcher), and yours.
export function renderPlates(others, mine, last, kept) {
  const n = last.table.seats.length;
  const seated = last.seat !== null && last.seat !== undefined;
  const first = seated ? last.seat : 0;
  const order = [...Array(n).keys()].map((k) => (first + k) % n);
  others.replaceChildren(...order.slice(seated ? 1 : 0).map((i) => plate(last, kept, i)));
  mine.replaceChildren(...(seated ? [plate(last, kept, last.seat)] : []));
}

function seatWho(s, i, last) {
  if (s.kind === "open") return s.invited ? `kept for ${s.invited} (bot)` : "open seat";
  const bot = (s.kind === "bot" && !s.replacing) || s.bot_account ? " (bot)" : "";
  return `${s.name}${bot}${i === last.seat ? " (you)" : ""}`;
}

// The players' table of the side panel.
export function renderSeats(table, last, kept) {
  const view = last.view;
  const scores = view && view.scores ? view.scores : [];
  const chips = Boolean(view && view.chips_left);
  const rows = [el("tr", {}, el("th", { title: "Whose turn it is" }, el("span", { class: "sr-only" }, "Turn")), el("th", {}, "Player"),
    el("th", { title: "Points scored in this game" }, "Score"), el("th", { title: "Tiles in hand" }, "Tiles"),
    ...(chips ? [el("th", { title: "Chips left to pay with: each player starts with 150" }, "Chips")] : []))];
  last.table.seats.forEach((s, i) => {
    const acting = view && !view.is_over && view.current_seat === i;
    const cls = [acting ? "to-act" : "", i === last.seat ? "you" : ""].join(" ");
    const team = view && view.partnerships ? ` · team ${i % 2 ? "B" : "A"}` : "";
    rows.push(el("tr", { class: cls, "data-seat": i },
      el("td", acting ? { title: "to play" } : {}, acting ? "▶" : ""),
      el("td", {}, el("span", { class: `dot seat-${i}`, "aria-hidden": "true" }), seatWho(s, i, last) + team, connMark(presenceOf(last, i))),
      el("td", { class: "score num" }, scores[i] ?? ""),
      el("td", { class: "num" }, tilesOf(last, kept, i) ?? ""),
      ...(chips ? [el("td", { class: "num chips" }, view.chips_left[i])] : [])));
  });
  table.replaceChildren(...rows);
}
