// Game boards drawn from the observation JSON each game sends (no game state needed).
// Targets (open ends, tower cells, capturable tiles) are buttons a keyboard reaches (Tab, then
// Enter or Space) with plain accessible names; on a narrow screen the layout bends within the
// width it has, so that its tiles stay at least MIN_TILE px long, and every target's hit area
// is at least MIN_TARGET px square.
import { el } from "/static/api.js";
import { svg, tileGroup, tile, halves, pressable, sameTile, tileWords } from "/static/tiles.js";
import { towerBoard } from "/static/tower.js";

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

// The layout as a tree: each tile by name (its halves, whether a double), the tiles played on
// it, and the pip each tile joined its parent on.
function layoutTree(layout) {
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
  return { byTile, kids, lead, joined, outer };
}

function fivesGeometry(layout) {
  const { byTile, kids, lead, joined, outer } = layoutTree(layout);
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
  // The room before a spinner's ends, kept free of the other arms until a tile goes there.
  const reserved = new Map();
  const put = (t, box, dir, inner) => {
    const out = t.double ? t.a : t === lead ? t.b : outer(t);
    const first = t === lead ? t.a : inner;
    // tileGroup draws a at the left / top: the inner pip comes first going right or down.
    const [a, b] = dir === "left" || dir === "up" ? [out, first] : [first, out];
    const q = { t, a, b, ...box, vertical: box.h > box.w, dir };
    placed.push(q);
    boxes.push(box);
    if (t.role === "SPINNER") {
      q.ends = dir === "lead" || across(dir) ? { END_A: "up", END_B: "down" } : { END_A: "left", END_B: "right" };
      for (const port of ["END_A", "END_B"]) reserved.set(`${t.tile}|${port}`, beyond(q, q.ends[port], q.ends[port], false));
    }
    return q;
  };
  const [lw, lh] = dims(lead.double, "right");
  const leadQ = put(lead, { x: -lw / 2, y: -lh / 2, w: lw, h: lh }, "lead", lead.a);
  if (lead.double) [leadQ.a, leadQ.b] = [lead.a, lead.a];
  const grow = (from, first, dir) => {
    let r = from;
    let d = dir;
    for (const p of chain(first)) {
      const [box, nd] = nextBox(r, d, p.double, boxes.concat([...reserved.values()]));
      r = put(p, box, nd, joined.get(p.tile));
      d = nd;
    }
  };
  if (rightFirst) grow(leadQ, rightFirst, "right");
  if (leftFirst) grow(leadQ, leftFirst, "left");
  for (const sp of placed.filter((q) => q.t.role === "SPINNER")) {
    for (const port of ["END_A", "END_B"]) {
      const first = kidsOf(sp.t).find((k) => k.port === port);
      reserved.delete(`${sp.t.tile}|${port}`);
      if (first) grow(sp, first, sp.ends[port]);
    }
  }
  return { placed, boxes, lead };
}

// The way a tile played on `port` of the placed tile q goes ("lead": either way, still open).
function portDir(geo, q, port) {
  if (q.ends && q.ends[port]) return q.ends[port];
  if (q === geo.placed[0] && port === "SIDE_A") return "left";
  if (q === geo.placed[0] && port === "SIDE_B") return "right";
  return q.dir;
}

// Where a tile played on an open end would go: [x, y, vertical] (round a corner at an edge).
// `taken`: the boxes of the tiles and of the targets drawn so far (the new one is added).
function slotFor(geo, end, taken) {
  const [value, on, port] = end;
  const q = geo.placed.find((p) => p.t.tile === on);
  if (!q) return null;
  let dir = portDir(geo, q, port);
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

// The tiles, the open ends' slots and the bounds of both at bend limits lx, ly (SVG units).
// Each slot's hit square (`hit` units) counts in the bounds, so that the targets of a chosen
// tile never move the board.
function arrange(view, lx, ly, hit) {
  limitX = lx;
  limitY = ly;
  try {
    const geo = fivesGeometry(view.layout);
    const b = { minX: 0, minY: -U, maxX: 0, maxY: U };
    const grow = (x, y, w, h) => {
      b.minX = Math.min(b.minX, x); b.minY = Math.min(b.minY, y);
      b.maxX = Math.max(b.maxX, x + w); b.maxY = Math.max(b.maxY, y + h);
    };
    for (const q of geo.placed) grow(q.x, q.y, q.vertical ? U : 2 * U, q.vertical ? 2 * U : U);
    const taken = [...geo.boxes];
    const slots = [];
    for (const end of view.available_ends || view.open_ends || []) {
      const spot = slotFor(geo, end, taken);
      if (!spot) continue;
      const [x, y, vertical] = spot;
      const w = vertical ? U : 2 * U;
      const h = vertical ? 2 * U : U;
      slots.push({ end, x, y, w, h });
      grow(x, y, w, h);
      grow(x + w / 2 - hit / 2, y + h / 2 - hit / 2, hit, hit);
    }
    return { geo, slots, b };
  } finally {
    limitX = LIMIT_X;
    limitY = LIMIT_Y;
  }
}

const PAD = 6; // around the drawing, in SVG units

function extent(arr) {
  return [arr.b.maxX - arr.b.minX + 2 * PAD, arr.b.maxY - arr.b.minY + 2 * PAD];
}

// How the layout fits the room it has (ctx.width × ctx.height px): the largest scale, up to
// MAX_SCALE, at which it fits once bent within that room; at worst tiles MIN_TILE px long, and
// what does not fit scrolls inside the board (the page itself never scrolls). Without a width
// (the replay, the rules' pictures): bent within the default box, drawn at most 1060 px wide.
function fitRoom(view, ctx) {
  const least = (MIN_TILE + 1) / (2 * U);
  if (!ctx.width) {
    const arr = arrange(view, LIMIT_X, LIMIT_Y, 2 * U);
    const [vw] = extent(arr);
    return { ...arr, scale: Math.min(MAX_SCALE, 1060 / vw), hit: 2 * U, wide: false };
  }
  for (let s = MAX_SCALE; ; s = Math.max(least, s * 0.88)) {
    const hit = Math.max(2 * U, (MIN_TARGET + 4) / s);
    const lx = Math.max(3 * U, ctx.width / (2 * s) - PAD - hit / 2);
    const ly = ctx.height ? Math.max(2 * U, ctx.height / (2 * s) - PAD - hit / 2)
      : ctx.width < 600 ? Math.max(LIMIT_Y, 1.4 * lx) : LIMIT_Y;
    const arr = arrange(view, lx, ly, hit);
    const [vw, vh] = extent(arr);
    const fits = Math.min(MAX_SCALE, ctx.width / vw, ctx.height ? ctx.height / vh : Infinity);
    if (fits >= s - 1e-6 || s <= least) return { ...arr, hit, scale: Math.max(fits, least), wide: fits < least };
  }
}

function tileNodeOf(q, ctx) {
  const by = (ctx.seatOf || new Map()).get(q.t.tile);
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
  return g;
}

// An open end: its number where the next tile would go; pressable when a chosen tile fits it
// (its hit area `hit` units square: MIN_TARGET px and more at the board's scale).
function endNode(slot, move, hit, ctx) {
  const { end, x, y, w, h } = slot;
  const g = svg("g", { class: `end${move ? " target" : ""}`, "data-on": end[1], "data-port": end[2], "data-value": end[0] });
  if (move) g.append(svg("rect", { class: "hit", x: x + w / 2 - hit / 2, y: y + h / 2 - hit / 2, width: hit, height: hit }));
  g.append(svg("rect", { x: x + 2, y: y + 2, width: w - 4, height: h - 4, rx: 5 }));
  const t = svg("text", { x: x + w / 2, y: y + h / 2 + 5, "text-anchor": "middle" });
  t.textContent = end[0];
  g.append(t);
  const title = svg("title");
  const words = `open end ${end[0]}, on ${tileWords(end[1])}${EDGE[end[2]] || ""}`;
  title.textContent = `open end ${end[0]}, on ${end[1]}${EDGE[end[2]] || ""}`;
  g.append(title);
  if (move && ctx.onEnd) pressable(g, `play ${ctx.tileName ? tileWords(ctx.tileName) + " " : ""}on the ${words}`, () => ctx.onEnd(move));
  return g;
}

// Where a spinner's edge is on the board as drawn for ctx (the room: see fitRoom): "left",
// "right", "up" or "down"; null for a tile or an edge not on the board.
export function edgeDirection(view, on, port, ctx = {}) {
  if (!(view.layout || []).length || !port || port === "OUT") return null;
  const geo = fitRoom(view, ctx).geo;
  const q = geo.placed.find((p) => sameTile(p.t.tile, on));
  const dir = q ? portDir(geo, q, port) : null;
  return dir === "lead" ? null : dir;
}

// The layout drawing. ctx: {targets: Map endKey -> move, onEnd(move), last: tile name,
// seatOf: Map tile -> seat (each seat's last tile, marked), width, height: px the board may take}.
export function fivesBoard(view, ctx = {}) {
  const box = el("div", { class: "felt fives" });
  if (!(view.layout || []).length) {
    box.append(el("p", { class: "empty" }, "The table is empty: the first tile leads."));
    return box;
  }
  const fit = fitRoom(view, ctx);
  const root = svg("svg", { class: "layout", role: "group", "aria-label": "the layout" });
  for (const q of fit.geo.placed) root.append(tileNodeOf(q, ctx));
  const targets = ctx.targets || new Map();
  for (const slot of fit.slots) root.append(endNode(slot, targets.get(endKey(slot.end[1], slot.end[2])), fit.hit, ctx));
  const [vw, vh] = extent(fit);
  root.setAttribute("viewBox", `${fit.b.minX - PAD} ${fit.b.minY - PAD} ${vw} ${vh}`);
  if (fit.wide) root.classList.add("wide");
  root.setAttribute("width", Math.round(vw * fit.scale));
  root.setAttribute("height", Math.round(vh * fit.scale));
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
// High Fives: the layout row; tiles that share a number with your hand highlighted; claimable
// pairs marked; capture targets clickable.

// The half-size (px) of the layout's tiles, standing, to fit `n` of them in the room (rows that
// wrap): as large as 40, never under MIN_TILE / 2; on a phone each sits in a MIN_TARGET slot.
function rowTileSize(n, ctx) {
  if (!ctx.width) return ctx.tileU || 34;
  const gap = 6;
  const room = ctx.height ? ctx.height - 40 : Infinity; // (the line of claimable pairs)
  for (let u = 40; u > MIN_TILE / 2; u -= 1) {
    const w = Math.max(u, ctx.small ? MIN_TARGET : 0) + gap;
    const h = Math.max(2 * u, ctx.small ? MIN_TARGET : 0) + gap;
    const perRow = Math.max(1, Math.floor((ctx.width + gap) / w));
    if (Math.ceil(n / perRow) * h <= room) return u;
  }
  return MIN_TILE / 2;
}

export function highFivesBoard(view, ctx = {}) {
  const box = el("div", { class: "felt" });
  const row = el("div", { class: "row hf-layout" });
  const mine = new Set();
  for (const t of ctx.hand || view.hand || []) for (const h of halves(t)) mine.add(h);
  const claimable = new Set((view.claimable || []).flat());
  const targets = ctx.targets || new Map();
  const seatOf = ctx.seatOf || new Map();
  const u = rowTileSize((view.layout || []).length, ctx);
  for (const t of view.layout || []) {
    const cls = [];
    if (halves(t).some((h) => mine.has(h))) cls.push("matching");
    if (claimable.has(t)) cls.push("claimable");
    if (targets.has(t)) cls.push("target");
    if (seatOf.has(t)) cls.push("by", `by-${seatOf.get(t)}`);
    const node = tile(t, cls.join(" "), u, true);
    // (a slot round it: the tap target, MIN_TARGET px and more on a phone)
    const slot = el("span", { class: `hf-slot${targets.has(t) ? " target" : ""}`, "data-tile": t }, node);
    if (targets.has(t) && ctx.onCapture) pressable(slot, `capture ${tileWords(t)}`, () => ctx.onCapture(t));
    row.append(slot);
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

// The boards by their kind. What to draw comes with every table and replay as data, the game's
// drawing ({board, pick, piles}: the spec's Drawing, boneyard.games.registry): the board's kind
// here, how a move's place is picked on it (table.js), whether seats show score piles. No game
// is named in the client: a new game whose board is one of these adds nothing here.
const BOARDS = { layout: fivesBoard, row: highFivesBoard, tower: towerBoard };

// Any game: the board for a view, of the kind its drawing names.
export function board(view, drawing, ctx = {}) {
  const draw = BOARDS[drawing && drawing.board];
  if (!draw) throw new Error(`this page cannot draw a board of kind ${drawing && drawing.board}`);
  return draw(view, ctx);
}

export { sameTile, towerBoard };
