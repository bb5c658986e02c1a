// Game boards drawn from the observation JSON each game sends (no game state needed).
// Targets (open ends, tower cells, capturable tiles) are buttons a keyboard reaches (Tab, then
// Enter or Space) with plain accessible names; on a narrow screen the layout bends within the
// width it has, so that its tiles stay at least MIN_TILE px long, and every target's hit area
// is at least MIN_TARGET px square.
import { el } from "/static/api.js";
import { svg, tileGroup, tile, halves, sameTile, tileWords } from "/static/tiles.js";

const U = 26; // half a tile, in SVG units
const GAP = 2;

// ---------------------------------------------------------------------------------------------
// High Five and Merry-Go-Round: the layout in two dimensions. The line of play runs across from
// the lead; a spinner's ends grow at right angles to the line (END_A up, END_B down on a line
// across). Singles lie along their arm, doubles across it. An arm that reaches the edge of the
// board's box (or another arm) turns a corner like on a real table: clockwise (so the arms
// wheel round the lead), then back the other way, and so on; doubles stay across.

const LIMIT_X = 400; // half the box the layout bends within, from the lead's centre (SVG units)
const LIMIT_Y = 210;
const MAX_SCALE = 1.6;
export const MIN_TILE = 28; // px: a board tile's long side, at the least
export const MIN_TARGET = 44; // px: a tap target's side, at the least
let limitX = LIMIT_X;
let limitY = LIMIT_Y;
const STEP = { left: [-1, 0], right: [1, 0], up: [0, -1], down: [0, 1] };
const CW = { right: "down", down: "left", left: "up", up: "right" };
const CCW = { right: "up", up: "left", left: "down", down: "right" };
const across = (d) => d === "left" || d === "right";

// A tile's box size [w, h] on an arm going `dir`: a single along it, a double across it.
function dims(double, dir) {
  return across(dir) !== double ? [2 * U, U] : [U, 2 * U];
}

// The box beyond box `r` (whose arm went `from`) for a tile going `dir`: straight on, centred on
// r; round a corner, hanging on r's far half.
function beyond(r, from, dir, double) {
  const [w, h] = dims(double, dir);
  const [sx, sy] = STEP[dir];
  let cx = r.x + r.w / 2;
  let cy = r.y + r.h / 2;
  if (dir !== from) {
    const [fx, fy] = STEP[from];
    if (fx) cx = fx > 0 ? r.x + r.w - U / 2 : r.x + U / 2;
    if (fy) cy = fy > 0 ? r.y + r.h - U / 2 : r.y + U / 2;
  }
  const x = sx > 0 ? r.x + r.w + GAP : sx < 0 ? r.x - GAP - w : cx - w / 2;
  const y = sy > 0 ? r.y + r.h + GAP : sy < 0 ? r.y - GAP - h : cy - h / 2;
  return { x, y, w, h };
}

function inBox(b) {
  return b.x >= -limitX && b.x + b.w <= limitX && b.y >= -limitY && b.y + b.h <= limitY;
}

// A node that acts like a button: focusable, Enter or Space does what a click does.
export function pressable(node, label, fn) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
  node.addEventListener("click", fn);
  node.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); fn(); }
  });
}

function clear(b, boxes) {
  return !boxes.some((o) => b.x < o.x + o.w && o.x < b.x + b.w && b.y < o.y + o.h && o.y < b.y + b.h);
}

// Where the next tile of an arm goes: straight on if it fits, else round a corner (clockwise
// first); outside the box rather than on another tile. Returns [box, dir].
function nextBox(r, from, double, boxes) {
  const ways = [from, CW[from], CCW[from]];
  for (const test of [(b) => inBox(b) && clear(b, boxes), (b) => clear(b, boxes)]) {
    for (const d of ways) {
      const b = beyond(r, from, d, double);
      if (test(b)) return [b, d];
    }
  }
  return [beyond(r, from, from, double), from];
}

function fivesGeometry(layout) {
  const byTile = new Map();
  const kids = new Map();
  for (const p of layout) {
    const [a, b] = halves(p.tile);
    byTile.set(p.tile, { ...p, a, b, double: a === b });
    if (p.on) {
      if (!kids.has(p.on)) kids.set(p.on, []);
      kids.get(p.on).push(p.tile);
    }
  }
  const lead = byTile.get(layout[0].tile);
  // The pip each tile joined its parent on, and its outer (open) pip.
  const joined = new Map();
  const outer = (t) => (t.double ? t.a : (t.a === joined.get(t.tile) ? t.b : t.a));
  const queue = [lead];
  const seen = new Set([lead.tile]);
  while (queue.length) {
    const p = queue.shift();
    for (const k of kids.get(p.tile) || []) {
      const c = byTile.get(k);
      let j;
      if (p.double) j = p.a;
      else if (p === lead) j = c.a === p.a || c.b === p.a ? (c.a === p.b || c.b === p.b ? null : p.a) : p.b;
      else j = outer(p);
      if (j === null) j = c.a; // cannot happen with a standard set
      joined.set(c.tile, j);
      if (!seen.has(c.tile)) { seen.add(c.tile); queue.push(c); }
    }
  }
  const kidsOf = (t) => (kids.get(t.tile) || []).map((k) => byTile.get(k));
  const chain = (first) => {
    const out = [];
    let cur = first;
    while (cur && out.length < 60) {
      out.push(cur);
      const ks = kidsOf(cur);
      cur = cur.role === "SPINNER" ? ks.find((k) => k.port === "SIDE_B") : ks[0];
    }
    return out;
  };
  let leftFirst;
  let rightFirst;
  const lk = kidsOf(lead);
  if (lead.role === "SPINNER") {
    leftFirst = lk.find((k) => k.port === "SIDE_A");
    rightFirst = lk.find((k) => k.port === "SIDE_B");
  } else if (lead.double) {
    [leftFirst, rightFirst] = lk;
  } else {
    leftFirst = lk.find((k) => joined.get(k.tile) === lead.a);
    rightFirst = lk.find((k) => k !== leftFirst && joined.get(k.tile) === lead.b);
  }
  // placed: {t, a, b, x, y, w, h, vertical, dir (the way its arm grows there), ends (a spinner's)}
  const placed = [];
  const boxes = [];
  const put = (t, box, dir, inner) => {
    const out = t.double ? t.a : t === lead ? t.b : outer(t);
    const first = t === lead ? t.a : inner;
    // tileGroup draws a at the left / top: the inner pip comes first going right or down.
    const [a, b] = dir === "left" || dir === "up" ? [out, first] : [first, out];
    const q = { t, a, b, ...box, vertical: box.h > box.w, dir };
    placed.push(q);
    boxes.push(box);
    return q;
  };
  const [lw, lh] = dims(lead.double, "right");
  const leadQ = put(lead, { x: -lw / 2, y: -lh / 2, w: lw, h: lh }, "lead", lead.a);
  if (lead.double) [leadQ.a, leadQ.b] = [lead.a, lead.a];
  const grow = (from, first, dir) => {
    let r = from;
    let d = dir;
    for (const p of chain(first)) {
      const [box, nd] = nextBox(r, d, p.double, boxes);
      r = put(p, box, nd, joined.get(p.tile));
      d = nd;
    }
  };
  if (rightFirst) grow(leadQ, rightFirst, "right");
  if (leftFirst) grow(leadQ, leftFirst, "left");
  for (const sp of placed.filter((q) => q.t.role === "SPINNER")) {
    const line = sp.dir === "lead" || across(sp.dir) ? "across" : "down";
    sp.ends = line === "across" ? { END_A: "up", END_B: "down" } : { END_A: "left", END_B: "right" };
    for (const port of ["END_A", "END_B"]) {
      const first = kidsOf(sp.t).find((k) => k.port === port);
      if (first) grow(sp, first, sp.ends[port]);
    }
  }
  return { placed, boxes, lead };
}

// Where a tile played on an open end would go: [x, y, vertical] (round a corner at an edge).
// `taken`: the boxes of the tiles and of the targets drawn so far (the new one is added).
function slotFor(geo, end, taken) {
  const [value, on, port] = end;
  const q = geo.placed.find((p) => p.t.tile === on);
  if (!q) return null;
  let dir = q.dir;
  if (q.ends && q.ends[port]) dir = q.ends[port];
  else if (q === geo.placed[0] && port === "SIDE_A") dir = "left";
  else if (q === geo.placed[0] && port === "SIDE_B") dir = "right";
  if (dir === "lead" && !q.t.double) dir = String(value) === q.a ? "left" : "right";
  else if (dir === "lead") dir = clear(beyond(q, "left", "left", false), taken) ? "left" : "right";
  const [box] = nextBox(q, dir, false, taken);
  taken.push(box);
  return [box.x, box.y, box.h > box.w];
}

// What a spinner's edge is called where a person reads it (the records' SIDE_A etc. are not).
const EDGE = { SIDE_A: ", a side of the spinner", SIDE_B: ", a side of the spinner", END_A: ", an end of the spinner", END_B: ", an end of the spinner" };

export function endKey(on, port) {
  return `${on}|${port || "OUT"}`;
}

// The layout drawing. ctx: {targets: Map endKey -> move, onEnd(move), last: tile name,
// seatOf: Map tile -> seat (each seat's last tile, marked), width: px the board may take}.
export function fivesBoard(view, ctx = {}) {
  const box = el("div", { class: "felt fives" });
  const layout = view.layout || [];
  if (!layout.length) {
    box.append(el("p", { class: "empty" }, "The table is empty: the first tile leads."));
    return box;
  }
  // Bend within what fits the width at a scale that keeps tiles MIN_TILE px long.
  const fit = ctx.width ? ctx.width / ((MIN_TILE + 4) / (2 * U)) : Infinity;
  limitX = Math.max(3 * U, Math.min(LIMIT_X, fit / 2 - 8));
  limitY = ctx.width && ctx.width < 600 ? Math.max(LIMIT_Y, 1.4 * limitX) : LIMIT_Y;
  const geo = fivesGeometry(layout);
  limitX = LIMIT_X;
  limitY = LIMIT_Y;
  const root = svg("svg", { class: "layout", role: "group", "aria-label": "the layout" });
  const targets = ctx.targets || new Map();
  let minX = 0; let minY = -U; let maxX = 0; let maxY = U;
  const grow = (x, y, w, h) => {
    minX = Math.min(minX, x); minY = Math.min(minY, y);
    maxX = Math.max(maxX, x + w); maxY = Math.max(maxY, y + h);
  };
  const seatOf = ctx.seatOf || new Map();
  for (const q of geo.placed) {
    const by = seatOf.get(q.t.tile);
    const cls = [q.t.role === "SPINNER" ? "spinner" : "", q.t.tile === ctx.last ? "last" : "",
      by !== undefined ? `by by-${by}` : ""].join(" ");
    const g = tileGroup(q.a, q.b, q.x, q.y, q.vertical, U, cls);
    g.dataset.tile = q.t.tile;
    g.setAttribute("role", "img");
    const spin = q.t.role === "SPINNER" ? ", the spinner" : "";
    g.setAttribute("aria-label", tileWords(q.t.tile) + spin);
    const title = svg("title");
    title.textContent = q.t.tile + (q.t.role === "SPINNER" ? " (spinner)" : "");
    g.append(title);
    if (by !== undefined) g.append(seatMark(q, by, ctx.seatLabel));
    root.append(g);
    grow(q.x, q.y, q.vertical ? U : 2 * U, q.vertical ? 2 * U : U);
  }
  const taken = [...geo.boxes];
  const slots = [];
  for (const end of view.available_ends || view.open_ends || []) {
    const spot = slotFor(geo, end, taken);
    if (!spot) continue;
    const [x, y, vertical] = spot;
    const w = vertical ? U : 2 * U;
    const h = vertical ? 2 * U : U;
    slots.push({ end, x, y, w, h, move: targets.get(endKey(end[1], end[2])) });
    grow(x, y, w, h);
  }
  // Each target's hit area is MIN_TARGET px square (and more) at the scale the board will have.
  const scale = Math.min(MAX_SCALE, (ctx.width || 1060) / (maxX - minX + 12));
  const hit = Math.max(2 * U, (MIN_TARGET + 4) / scale);
  for (const { end, x, y, w, h, move } of slots) {
    const g = svg("g", { class: `end${move ? " target" : ""}`, "data-on": end[1], "data-port": end[2], "data-value": end[0] });
    if (move) {
      const hx = x + w / 2 - hit / 2;
      const hy = y + h / 2 - hit / 2;
      g.append(svg("rect", { class: "hit", x: hx, y: hy, width: hit, height: hit }));
      grow(hx, hy, hit, hit);
    }
    g.append(svg("rect", { x: x + 2, y: y + 2, width: w - 4, height: h - 4, rx: 5 }));
    const t = svg("text", { x: x + w / 2, y: y + h / 2 + 5, "text-anchor": "middle" });
    t.textContent = end[0];
    g.append(t);
    const title = svg("title");
    const words = `open end ${end[0]}, on ${tileWords(end[1])}${EDGE[end[2]] || ""}`;
    title.textContent = `open end ${end[0]}, on ${end[1]}${EDGE[end[2]] || ""}`;
    g.append(title);
    if (move && ctx.onEnd) pressable(g, `play ${ctx.tileName ? tileWords(ctx.tileName) + " " : ""}on the ${words}`, () => ctx.onEnd(move));
    root.append(g);
  }
  const pad = 6;
  const vw = maxX - minX + 2 * pad;
  const vh = maxY - minY + 2 * pad;
  root.setAttribute("viewBox", `${minX - pad} ${minY - pad} ${vw} ${vh}`);
  // To the width it has; never so small that a tile is under MIN_TILE px (a layout that could not
  // bend within the width then scrolls inside the felt: the page itself never scrolls sideways).
  let fits = Math.min(MAX_SCALE, (ctx.width || 1060) / vw);
  if (ctx.width && fits < (MIN_TILE + 1) / (2 * U)) {
    fits = (MIN_TILE + 1) / (2 * U);
    root.classList.add("wide");
  }
  root.setAttribute("width", Math.round(vw * fits));
  root.setAttribute("height", Math.round(vh * fits));
  box.append(root);
  return box;
}

// A small disc on a seat's last tile: its seat colour and number (the seats list has the key).
function seatMark(q, seat, label) {
  const cx = q.x + (q.vertical ? U : 2 * U) - 5;
  const cy = q.y + 5;
  const g = svg("g", { class: `seat-mark seat-${seat}` });
  g.append(svg("circle", { cx, cy, r: 7 }));
  const t = svg("text", { x: cx, y: cy + 3.5, "text-anchor": "middle" });
  t.textContent = label ? label(seat) : String(seat + 1);
  g.append(t);
  return g;
}

// ---------------------------------------------------------------------------------------------
// Highrise: the tower as a grid of top faces, with levels and spacer marks.

function levelName(level) {
  return level ? `level ${level}` : "in the basement";
}

export function towerBoard(view, ctx = {}) {
  const box = el("div", { class: "felt" });
  const grid = el("div", { class: "tower" });
  grid.style.gridTemplateColumns = `repeat(${view.cols}, minmax(${MIN_TARGET}px, 4.2em))`;  // (CSSOM: the CSP allows it)
  const targets = ctx.targets || new Set();
  const picked = ctx.picked || new Set();
  const cells = new Map((view.tower || []).map((c) => [`${c.cell[0]},${c.cell[1]}`, c]));
  for (let r = 0; r < view.rows; r++) {
    for (let k = 0; k < view.cols; k++) {
      const key = `${r},${k}`;
      const c = cells.get(key);
      const cls = ["cell"];
      if (c) cls.push(`level${Math.min(c.level, 5)}`);
      if (c && c.spacer) cls.push("spacer");
      // The two halves of one domino touch, so that a player sees which squares it covers.
      for (const [dr, dk, side] of [[0, 1, "r"], [0, -1, "l"], [1, 0, "d"], [-1, 0, "u"]]) {
        const o = cells.get(`${r + dr},${k + dk}`);
        if (c && o && o.tile === c.tile) cls.push(`join-${side}`);
      }
      if (targets.has(key)) cls.push("target");
      if (picked.has(key)) cls.push("picked");
      const seat = c ? (ctx.seatOf || new Map()).get(c.tile) : undefined;
      if (seat !== undefined) cls.push("by", `by-${seat}`);
      const where = c ? `${c.face} of ${c.tile}, row ${r + 1} square ${k + 1}, ${levelName(c.level)}${c.spacer ? ", on a clear spacer" : ""}` : `row ${r + 1} square ${k + 1}: empty`;
      const node = el("div", { class: cls.join(" "), "data-cell": key, title: where });
      if (c) node.dataset.tile = c.tile;
      if (c) {
        node.append(el("b", { class: "face" }, c.face), el("small", { class: "lvl" }, c.level ? `level ${c.level}` : "base"));
        if (c.spacer) node.append(el("span", { class: "spacer-mark", title: "on a clear spacer" }, "▣"));
      } else node.append(el("small", {}, "·"));
      if (targets.has(key) && ctx.onCell) pressable(node, `place on ${where}`, () => ctx.onCell(key));
      grid.append(node);
    }
  }
  box.append(grid);
  return box;
}

// ---------------------------------------------------------------------------------------------
// High Fives: the layout row; tiles that share a number with your hand highlighted; claimable
// pairs marked; capture targets clickable.

export function highFivesBoard(view, ctx = {}) {
  const box = el("div", { class: "felt" });
  const row = el("div", { class: "row hf-layout" });
  const mine = new Set();
  for (const t of ctx.hand || view.hand || []) for (const h of halves(t)) mine.add(h);
  const claimable = new Set((view.claimable || []).flat());
  const targets = ctx.targets || new Map();
  const seatOf = ctx.seatOf || new Map();
  for (const t of view.layout || []) {
    const cls = [];
    if (halves(t).some((h) => mine.has(h))) cls.push("matching");
    if (claimable.has(t)) cls.push("claimable");
    if (targets.has(t)) cls.push("target");
    if (seatOf.has(t)) cls.push("by", `by-${seatOf.get(t)}`);
    const node = tile(t, cls.join(" "), ctx.tileU || 34, true);
    if (targets.has(t) && ctx.onCapture) pressable(node, `capture ${tileWords(t)}`, () => ctx.onCapture(t));
    row.append(node);
  }
  if (!(view.layout || []).length) row.append(el("p", { class: "empty" }, "The layout is empty."));
  box.append(row);
  if ((view.claimable || []).length) {
    box.append(el("p", { class: "note", title: "Two layout tiles that match each other: before you play, you may take one such pair." }, "Claimable pairs: " + view.claimable.map((p) => p.join(" + ")).join(", ")));
  }
  return box;
}

export function pilesPanel(view, names) {
  const box = el("div", { class: "piles" });
  (view.piles || []).forEach((pile, i) => {
    const row = el("div", { class: "pile" }, el("span", { class: "who" }, `${names[i]} (${(view.scores || [])[i] ?? 0} points, ${pile.length} tiles)`));
    const tiles = el("div", { class: "row small" });
    for (const t of pile) tiles.append(tile(t, "", 17, true));
    row.append(tiles);
    box.append(row);
  });
  return box;
}

// What the client does per game, by the name every view gives (view.game): the board it draws,
// how a move is picked on it (an open end, a capture, the cells of the tower) and whether the
// seats have score piles to show. A new game adds its line here.
const GAMES = {
  "highfive": { board: fivesBoard, pick: "end", piles: false },
  "merry-go-round": { board: fivesBoard, pick: "end", piles: false },
  "high-fives": { board: highFivesBoard, pick: "capture", piles: true },
  "highrise": { board: towerBoard, pick: "cells", piles: false },
};

export function gameOf(view) {
  const game = GAMES[view.game];
  if (!game) throw new Error(`this page cannot show the game ${view.game}`);
  return game;
}

// Any game: the board for a view.
export function board(view, ctx = {}) {
  return gameOf(view).board(view, ctx);
}

export { sameTile };
