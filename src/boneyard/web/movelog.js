// The move log beside the board (every action of every seat in words, newest last), each seat's
// last tile marked on the board, the points popup ("+20") at the tile that scored, and the
// tile placed with a short flight from its player's side of the table. The log comes in views:
// {"from": k, "entries": [...]}, all of it on connect and resync, then what is new.
import { el } from "/static/api.js";

const reduced = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
const PLACED = new Set(["lead", "play", "turn"]);

export class MoveLog {
  constructor() { this.entries = []; }

  // Take a view's log part; returns the entries it added, or null when a part is missing
  // (the page then asks for a resync).
  merge(part) {
    if (!part) return [];
    if (part.from > this.entries.length) return null;
    const before = this.entries.length;
    this.entries.splice(part.from, this.entries.length - part.from, ...part.entries);
    return this.entries.slice(Math.min(before, part.from));
  }

  // Each seat's last placed tile in the hand in play: tile -> seat.
  lastBySeat() {
    const out = new Map();
    const seen = new Set();
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i];
      if (e.type === "deal") break;
      if (PLACED.has(e.type) && e.tile && !seen.has(e.seat)) {
        seen.add(e.seat);
        out.set(e.tile, e.seat);
      }
    }
    return out;
  }
}

// The log panel: appends what is new (a screen reader hears it: role="log"); a full redraw
// when the log was rebuilt.
export function renderLog(ol, log, added, full) {
  if (full) ol.replaceChildren();
  const from = full ? 0 : log.entries.length - added.length;
  while (ol.children.length > from) ol.lastElementChild.remove();
  for (const e of full ? log.entries : added) ol.append(item(e));
  if (!log.entries.length) ol.append(el("li", { class: "none" }, "No move yet."));
  const box = ol.closest(".log-box");
  if (box) box.scrollTop = box.scrollHeight;
}

function item(e) {
  const cls = ["log-line", `t-${e.type}`];
  if (e.seat !== null && e.seat !== undefined) cls.push(`by-${e.seat}`);
  if (e.points) cls.push("scored");
  const li = el("li", { class: cls.join(" "), "data-n": e.n });
  if (e.seat !== null && e.seat !== undefined && e.type !== "hand_end") li.append(el("span", { class: `dot seat-${e.seat}`, "aria-hidden": "true" }));
  li.append(el("span", { class: "text" }, e.text));
  if (e.type === "hand_end" && e.explain) {
    const more = el("ul", { class: "explain" });
    for (const line of e.explain) more.append(el("li", {}, line));
    li.append(more);
  }
  return li;
}

// Where a tile is on the board (an SVG group of the layout, a tower cell, a layout tile).
export function tileNode(layout, name) {
  if (!name) return null;
  const [a, b] = String(name).split("-");
  const other = `${b}-${a}`;
  return layout.querySelector(`[data-tile="${name}"], [data-tile="${other}"]`);
}

// "+20" over the tile that scored, for a moment: inside the board (which clips it), so that it
// never covers a control of the page (the header, the guide, your hand, a button); the board's
// own targets stay pressable under it (it takes no pointer events).
export function popPoints(layout, name, points) {
  const node = tileNode(layout, name);
  if (!node || !points) return;
  const box = layout.getBoundingClientRect();
  const r = node.getBoundingClientRect();
  const pop = el("div", { class: `points-pop${reduced() ? " still" : ""}`, "aria-hidden": "true" }, `+${points}`);
  layout.append(pop);
  const w = pop.offsetWidth;
  const h = pop.offsetHeight;
  const rise = reduced() ? 0 : 1.4 * h; // (how far it floats up)
  const x = Math.min(Math.max(r.left - box.left + r.width / 2, w / 2 + 4), box.width - w / 2 - 4);
  const y = Math.min(Math.max(r.top - box.top, h + rise + 4), box.height - 4);
  pop.style.left = `${x}px`; // (CSSOM: the CSP allows it)
  pop.style.top = `${y}px`;
  setTimeout(() => pop.remove(), 1400);
}

// The tile just placed flies in from its player's plate (skipped under prefers-reduced-motion).
export function flyIn(layout, name, from) {
  const node = tileNode(layout, name);
  if (!node || !from || reduced() || !node.animate) return false;
  const a = from.getBoundingClientRect();
  const b = node.getBoundingClientRect();
  let dx = a.left + a.width / 2 - (b.left + b.width / 2);
  let dy = a.top + a.height / 2 - (b.top + b.height / 2);
  const svg = node.ownerSVGElement;
  if (svg && svg.viewBox && svg.viewBox.baseVal && svg.viewBox.baseVal.width) {
    const k = svg.viewBox.baseVal.width / svg.getBoundingClientRect().width; // px -> SVG units
    dx *= k;
    dy *= k;
  }
  node.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }],
    { duration: 420, easing: "cubic-bezier(.2,.7,.3,1)" });
  return true;
}

// What the newest entries did, for the effects: the last placement (tile, seat, points).
export function lastPlacement(added) {
  for (let i = added.length - 1; i >= 0; i--) {
    const e = added[i];
    if (PLACED.has(e.type) && e.tile) return e;
  }
  return null;
}
