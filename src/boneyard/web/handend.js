// The end of a hand and of a game, over the final board: every seat's remaining tiles face up,
// the scoring in words, the scores, and Continue (the next hand is dealt when every person has
// pressed it, or when the countdown ends); at the game's end the winner, the final scores and
// Rematch, Play again, View replay, Back to lobby.
import { el } from "/static/api.js";
import { tile } from "/static/tiles.js";
import { sentence } from "/static/common.js";

let tick = null;

function clockText(s) {
  return s >= 60 ? `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}` : `${s} s`;
}

function countdown(node, last, text) {
  const left = () => Math.max(0, Math.ceil(last.hand_end.deadline - last.server_time - (performance.now() - last.receivedAt) / 1000));
  const show = () => { node.textContent = text(left()); };
  show();
  if (tick) clearInterval(tick);
  tick = setInterval(show, 500);
}

function revealed(entry, names) {
  const box = el("div", { class: "revealed" });
  (entry.hands || []).forEach((hand, i) => {
    const row = el("div", { class: `seat-hand by-${i}`, "data-seat": i }, el("span", { class: "who" }, el("span", { class: `dot seat-${i}`, "aria-hidden": "true" }), names[i]));
    const tiles = el("div", { class: "row" });
    for (const t of hand) tiles.append(tile(t, "", 22));
    if (!hand.length) tiles.append(el("em", {}, "no tiles left"));
    row.append(tiles);
    box.append(row);
  });
  return box;
}

function scores(values, names) {
  const tb = el("table", { class: "scores" });
  names.forEach((n, i) => tb.append(el("tr", {}, el("td", {}, n), el("td", { class: "num" }, values[i] ?? ""))));
  return tb;
}

function explained(entry) {
  const ul = el("ul", { class: "explain" });
  for (const line of entry.explain || []) ul.append(el("li", {}, line));
  return ul;
}

// The panel while the next hand waits (`last.hand_end`), or at the game's end: a head with its
// title and what to press (always in view: the rest scrolls under it), then the scoring.
export function renderHandEnd(box, last, log, names, ctx) {
  if (tick) { clearInterval(tick); tick = null; }
  const over = Boolean(last.result || last.ending);
  const end = last.hand_end;
  if (!over && !(end && end.waiting)) { box.hidden = true; box.replaceChildren(); return; }
  const entry = end ? log.entries[end.entry] : null;
  const head = el("div", { class: "panel-head" });
  box.replaceChildren(head);
  if (over) {
    head.append(el("h3", { id: "game-end-title" }, gameOverText(last, names, log)), gameOverButtons(last, ctx));
    const final = last.result ? last.result.scores : (last.ending && last.ending.scores) || [];
    box.append(el("h4", {}, "Final scores"), scores(final, names));
    if (entry && entry.hands) box.append(el("p", { class: "hand-result" }, entry.text), explained(entry), revealed(entry, names));
    const note = rematchNote(last, ctx);
    if (note) box.append(note);
  } else {
    head.append(el("h3", {}, entry ? entry.text.split(":")[0] : "The hand is over"));
    const seated = last.seat !== null && last.seat !== undefined;
    const pressed = seated && end.continued.includes(last.seat);
    if (seated && !pressed) {
      head.append(el("button", { class: "big", id: "continue", onclick: () => ctx.send({ type: "continue", hand: end.hand }) }, "Continue"));
    }
    const note = el("p", { class: "note", id: "next-hand-in", "aria-live": "off" });
    const waiting = last.table.seats.map((s, i) => (s.kind === "person" && !end.continued.includes(i) ? names[i] : null)).filter(Boolean);
    box.append(note);
    countdown(note, last, (s) => `${pressed && waiting.length ? `Waiting for ${waiting.join(", ")}. ` : ""}The next hand is dealt in ${clockText(s)}${seated && !pressed ? ", or when everyone has pressed Continue" : ""}.`);
    if (entry) box.append(el("p", { class: "hand-result" }, sentence(entry.text.slice(entry.text.indexOf(":") + 1).trim(), names)), explained(entry), revealed(entry, names));
  }
  box.hidden = false;
}

export function gameOverText(last, names, log) {
  const e = last.ending;
  if (e && e.reason === "abort") return `Game aborted by ${names[e.seat]}: no result, no rating.`;
  if (e && e.reason === "resign") return `${names[e.seat]} resigned: ${names[e.winner]} wins.`;
  if (e && e.reason === "claim") return `${names[e.winner]} claimed the win: ${names[e.seat]} ${e.stalled ? "did not move" : "left"}.`;
  const w = last.result ? last.result.winner : null;
  if (w === null || w === undefined) {
    const end = log.entries.findLast ? log.entries.findLast((x) => x.type === "game_end") : null;
    return end ? end.text : "Game over: no single winner.";
  }
  return `Game over: ${names[w]} wins.`;
}

function gameOverButtons(last, ctx) {
  const row = el("div", { class: "actions" });
  const mine = ctx.mySeats(last);
  const offer = last.rematch || { accepted: [], table: null };
  if (mine !== null && last.result && !last.table.event) {
    const accepted = offer.accepted.includes(mine);
    const others = offer.accepted.filter((s) => s !== mine);
    const label = accepted ? "Rematch asked: waiting" : others.length ? "Accept the rematch" : "Rematch";
    const b = el("button", { class: "big", id: "rematch", onclick: () => ctx.send({ type: "rematch" }) }, label);
    if (accepted) b.disabled = true;
    row.append(b);
  }
  if (mine !== null) row.append(el("button", { id: "play-again", onclick: ctx.playAgain }, "Play again"));
  if (!(last.ending && last.ending.reason === "abort")) row.append(el("a", { class: "button", id: "view-replay", href: ctx.replayHref }, "View replay"));
  row.append(el("a", { class: "button secondary", id: "back-to-lobby", href: "/" }, "Back to lobby"));
  return row;
}

function rematchNote(last, ctx) {
  const offer = last.rematch || { accepted: [], table: null };
  if (!offer.accepted.length || offer.table) return null;
  return el("p", { class: "note", id: "rematch-note" }, `Rematch asked by ${offer.accepted.map((s) => ctx.names()[s]).join(", ")}: it starts when every player accepts.`);
}

