// Highrise's tower drawn as dominoes: each domino is one tile across its two squares, with pips
// like the hand's, stacked in the order it was built (the basement, then every placement of the
// hand), so that a domino half covered by a higher one goes under it. Its level shows as depth
// (a thicker edge and a longer shadow the higher it stands, a tint) and as a number; a clear
// spacer is a glassy square under the half it lifts. When a tile is chosen, the squares it may
// cover are marked and pressable (at least MIN_TARGET px on a phone).
//
// The stack is rebuilt from the view's basement and history and checked against its tops (the
// truth: the top face, domino and level of every square); without them (or if they disagree)
// each visible domino is drawn from the tops alone, a half covered domino as its visible half.
import { el } from "/static/api.js";
import { half, halves, pressable, sameTile, svg, tileGroup, tileWords } from "/static/tiles.js";

const U = 40; // a square, in SVG units
const INSET = 3; // the gap between a domino and the edge of its squares
const MIN_TARGET = 44;
const key = (c) => `${c[0]},${c[1]}`;

function levelName(level) {
  return level ? `level ${level}` : "in the basement";
}

// The dominoes of the hand in the order they were laid: [{tile, cells, faces, level, spacer}].
function stacked(view) {
  const basement = view.basement || [];
  const tops = view.tower || [];
  if (!basement.length || !tops.length) return null;
  const items = [];
  const top = new Map();
  const lay = (item) => {
    items.push(item);
    for (const c of item.cells) top.set(key(c), item);
  };
  basement.forEach((t, k) => {
    const r = 2 * Math.floor(k / view.cols);
    lay({ tile: t, cells: [[r, k % view.cols], [r + 1, k % view.cols]], faces: halves(t), level: 0, spacer: null });
  });
  for (const h of view.history || []) {
    if (typeof h.play !== "string" || !Array.isArray(h.cells)) continue;
    const under = h.cells.map((c) => (top.get(key(c)) || { level: -1 }).level);
    lay({ tile: h.play, cells: h.cells, faces: halves(h.play), level: Math.max(...under) + 1, spacer: h.spacer || null });
  }
  for (const c of tops) {
    const it = top.get(key(c.cell));
    if (!it || !sameTile(it.tile, c.tile) || it.level !== c.level) return null;
  }
  return items;
}

// Each domino seen from above, from the tops alone (the fallback).
function fromTops(view) {
  const groups = new Map();
  for (const c of view.tower || []) {
    const g = [...groups.values()].find((x) => sameTile(x.tile, c.tile));
    if (g) { g.cells.push(c.cell); g.faces.push(c.face); } else groups.set(c.tile, { tile: c.tile, cells: [c.cell], faces: [c.face], level: c.level, spacer: null });
  }
  return [...groups.values()];
}

function cellsWords(cells) {
  const [p, q] = cells;
  if (!q) return `row ${p[0] + 1} square ${p[1] + 1}`;
  if (p[0] === q[0]) return `row ${p[0] + 1}, squares ${Math.min(p[1], q[1]) + 1} and ${Math.max(p[1], q[1]) + 1}`;
  return `rows ${Math.min(p[0], q[0]) + 1} and ${Math.max(p[0], q[0]) + 1}, square ${p[1] + 1}`;
}

// One domino: its shadow and edge (longer the higher it stands), the tile, its level's number.
function domino(item, seat) {
  const [p, q] = item.cells;
  const x = Math.min(p[1], (q || p)[1]) * U;
  const y = Math.min(p[0], (q || p)[0]) * U;
  const depth = 1 + 1.1 * item.level;
  const cls = `domino level-${Math.min(item.level, 5)}${seat !== undefined ? ` by by-${seat}` : ""}`;
  const g = svg("g", { class: cls, "data-tile": item.tile, "data-cells": item.cells.map(key).join(" "), "data-level": item.level, role: "img" });
  g.setAttribute("aria-label", `${tileWords(item.tile)}, ${levelName(item.level)}, ${cellsWords(item.cells)}`);
  const title = svg("title");
  title.textContent = `${item.tile}: ${levelName(item.level)}, ${cellsWords(item.cells)}`;
  g.append(title);
  if (!q) {
    const s = U - 2 * INSET;
    g.append(svg("rect", { class: "shadow", x: x + INSET + 1.5 * depth, y: y + INSET + 1.5 * depth, width: s, height: s, rx: 4 }));
    const t = svg("g", { class: `tile ${cls.replace("domino ", "")}` });
    t.append(svg("rect", { class: "body", x: x + INSET, y: y + INSET, width: s, height: s, rx: 4 }));
    half(t, x + INSET, y + INSET, item.faces[0], s);
    g.append(t);
  } else {
    const vertical = p[1] === q[1];
    const first = vertical ? p[0] < q[0] : p[1] < q[1];
    const [a, b] = first ? item.faces : [item.faces[1], item.faces[0]];
    const h = U - 2 * INSET; // a half's side
    const [tx, ty] = vertical ? [x + INSET, y + 2 * INSET] : [x + 2 * INSET, y + INSET];
    const [w, hh] = vertical ? [h, 2 * h] : [2 * h, h];
    g.append(svg("rect", { class: "shadow", x: tx + 1.5 * depth, y: ty + 1.5 * depth, width: w, height: hh, rx: 5 }));
    g.append(svg("rect", { class: "edge", x: tx + depth, y: ty + depth, width: w, height: hh, rx: 5 }));
    g.append(tileGroup(a, b, tx, ty, vertical, h, cls.replace("domino ", "")));
  }
  if (item.level > 0) {
    const [bx, by] = [x + INSET + 8, y + INSET + 8];
    const badge = svg("g", { class: "level-badge", "aria-hidden": "true" });
    badge.append(svg("circle", { cx: bx, cy: by, r: 7.5 }));
    const n = svg("text", { x: bx, y: by + 3.6, "text-anchor": "middle" });
    n.textContent = String(item.level);
    badge.append(n);
    g.append(badge);
  }
  return g;
}

// A clear spacer under the half on square `c` (a glassy rim shows round that half).
function spacer(c) {
  const g = svg("rect", { class: "spacer", x: c[1] * U + 0.5, y: c[0] * U + 0.5, width: U - 1, height: U - 1, rx: 4 });
  const t = svg("title");
  t.textContent = `a clear spacer on row ${c[0] + 1} square ${c[1] + 1}`;
  g.append(t);
  return g;
}

// The tower for a view. ctx: {targets: Set "r,c", picked: Set, onCell(key), seatOf: Map tile ->
// seat, width, height (px the board may take), small (a phone: MIN_TARGET px squares)}.
export function towerBoard(view, ctx = {}) {
  const box = el("div", { class: "felt" });
  const root = svg("svg", { class: "tower", role: "group", "aria-label": "the tower", viewBox: `-4 -4 ${view.cols * U + 14} ${view.rows * U + 14}` });
  root.append(svg("rect", { class: "tray", x: -4, y: -4, width: view.cols * U + 8, height: view.rows * U + 8, rx: 6 }));
  const seatOf = ctx.seatOf || new Map();
  const tops = new Map((view.tower || []).map((c) => [key(c.cell), c]));
  // The dominoes seen from above (a half of each on top at least), the lowest first.
  const seen = (stacked(view) || fromTops(view)).filter((it) => it.cells.some((c) => {
    const top = tops.get(key(c));
    return top && sameTile(top.tile, it.tile) && top.level === it.level;
  }));
  for (const item of seen.sort((a, b) => a.level - b.level)) {
    for (const c of item.cells) if ((tops.get(key(c)) || {}).spacer && sameTile(tops.get(key(c)).tile, item.tile)) root.append(spacer(c));
    root.append(domino(item, seatOf.get(item.tile)));
  }
  root.append(...cells(view, ctx));
  const size = cellSize(view, ctx);
  const k = size / U;
  root.setAttribute("width", String(Math.round((view.cols * U + 14) * k)));
  root.setAttribute("height", String(Math.round((view.rows * U + 14) * k)));
  box.append(root);
  return box;
}

// The px a square gets: the room there is, at least MIN_TARGET on a phone, at most 150.
function cellSize(view, ctx) {
  const w = ctx.width ? ctx.width / (view.cols + 0.4) : 56;
  const h = ctx.height ? ctx.height / (view.rows + 0.4) : Infinity;
  return Math.max(ctx.small ? MIN_TARGET + 2 : 32, Math.min(150, w, h));
}

// A square per cell over the dominoes: its words, and when it is a target, the press.
function cells(view, ctx) {
  const targets = ctx.targets || new Set();
  const picked = ctx.picked || new Set();
  const tops = new Map((view.tower || []).map((c) => [key(c.cell), c]));
  const out = [];
  for (let r = 0; r < view.rows; r++) {
    for (let c = 0; c < view.cols; c++) {
      const k = `${r},${c}`;
      const top = tops.get(k);
      const cls = ["cell", targets.has(k) ? "target" : "", picked.has(k) ? "picked" : ""].filter(Boolean).join(" ");
      const node = svg("rect", { class: cls, x: c * U, y: r * U, width: U, height: U, rx: 5, "data-cell": k });
      const where = top ? `${top.face} of ${top.tile}, row ${r + 1} square ${c + 1}, ${levelName(top.level)}${top.spacer ? ", on a clear spacer" : ""}` : `row ${r + 1} square ${c + 1}: empty`;
      const title = svg("title");
      title.textContent = where;
      node.append(title);
      if (top) node.dataset.tile = top.tile;
      if (targets.has(k) && ctx.onCell) pressable(node, `place on ${where}`, () => ctx.onCell(k));
      out.push(node);
    }
  }
  return out;
}
