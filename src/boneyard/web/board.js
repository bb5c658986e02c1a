// Game boards drawn from the observation JSON each game sends (no game state needed).
import { el } from "/static/api.js";
import { svg, tileGroup, tile, halves, sameTile } from "/static/tiles.js";

const U = 26; // half a tile, in SVG units
const GAP = 2;

// ---------------------------------------------------------------------------------------------
// High Five and Merry-Go-Round: the layout in two dimensions. The line of play runs across,
// the spinner's ends grow up (END_A) and down (END_B); singles lie along their arm, doubles across.

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
  const placed = []; // {t, a, b, x, y, vertical, dir}
  const left = leftFirst ? chain(leftFirst) : [];
  const right = rightFirst ? chain(rightFirst) : [];
  const line = [];
  for (const p of [...left].reverse()) line.push([p, p.double ? p.a : outer(p), joined.get(p.tile), "left"]);
  line.push([lead, lead.a, lead.b, "lead"]);
  for (const p of right) line.push([p, joined.get(p.tile), p.double ? p.a : outer(p), "right"]);
  let x = 0;
  for (const [p, a, b, dir] of line) {
    if (p.double) {
      placed.push({ t: p, a, b, x, y: -U, vertical: true, dir });
      x += U + GAP;
    } else {
      placed.push({ t: p, a, b, x, y: -U / 2, vertical: false, dir });
      x += 2 * U + GAP;
    }
  }
  for (const sp of placed.filter((q) => q.t.role === "SPINNER")) {
    const cx = sp.x + (sp.vertical ? U / 2 : U);
    for (const [port, step] of [["END_A", -1], ["END_B", 1]]) {
      const first = kidsOf(sp.t).find((k) => k.port === port);
      if (!first) continue;
      let edge = step < 0 ? sp.y - GAP : sp.y + (sp.vertical ? 2 * U : U) + GAP;
      for (const p of chain(first)) {
        const inner = joined.get(p.tile);
        const dir = step < 0 ? "up" : "down";
        if (p.double) {
          const y = step < 0 ? edge - U : edge;
          placed.push({ t: p, a: inner, b: inner, x: cx - U, y, vertical: false, dir });
          edge += step * (U + GAP);
        } else {
          const out = outer(p);
          const y = step < 0 ? edge - 2 * U : edge;
          placed.push({ t: p, a: step < 0 ? out : inner, b: step < 0 ? inner : out, x: cx - U / 2, y, vertical: true, dir });
          edge += step * (2 * U + GAP);
        }
      }
    }
  }
  return { placed, lead };
}

// Where a tile played on an open end would go: [x, y, vertical].
function slotFor(geo, end) {
  const [value, on, port] = end;
  const q = geo.placed.find((p) => p.t.tile === on);
  if (!q) return null;
  const w = q.vertical ? U : 2 * U;
  const h = q.vertical ? 2 * U : U;
  const cx = q.x + w / 2;
  const cy = q.y + h / 2;
  let dir = q.dir;
  if (port === "SIDE_A") dir = "left";
  else if (port === "SIDE_B") dir = "right";
  else if (port === "END_A") dir = "up";
  else if (port === "END_B") dir = "down";
  else if (dir === "lead") dir = String(value) === q.a ? "left" : "right";
  if (dir === "left") return [q.x - GAP - 2 * U, cy - U / 2, false];
  if (dir === "right") return [q.x + w + GAP, cy - U / 2, false];
  if (dir === "up") return [cx - U / 2, q.y - GAP - 2 * U, true];
  return [cx - U / 2, q.y + h + GAP, true];
}

export function endKey(on, port) {
  return `${on}|${port || "OUT"}`;
}

// The layout drawing. ctx: {targets: Map endKey -> move, onEnd(move), last: tile name}.
export function fivesBoard(view, ctx = {}) {
  const box = el("div", { class: "felt fives" });
  const layout = view.layout || [];
  if (!layout.length) {
    box.append(el("p", { class: "empty" }, "The table is empty: the first tile leads."));
    return box;
  }
  const geo = fivesGeometry(layout);
  const root = svg("svg", { class: "layout", role: "img", "aria-label": "the layout" });
  const targets = ctx.targets || new Map();
  let minX = 0; let minY = -U; let maxX = 0; let maxY = U;
  const grow = (x, y, w, h) => {
    minX = Math.min(minX, x); minY = Math.min(minY, y);
    maxX = Math.max(maxX, x + w); maxY = Math.max(maxY, y + h);
  };
  for (const q of geo.placed) {
    const cls = [q.t.role === "SPINNER" ? "spinner" : "", q.t.tile === ctx.last ? "last" : ""].join(" ");
    const g = tileGroup(q.a, q.b, q.x, q.y, q.vertical, U, cls);
    g.dataset.tile = q.t.tile;
    const title = svg("title");
    title.textContent = q.t.tile + (q.t.role === "SPINNER" ? " (spinner)" : "");
    g.append(title);
    root.append(g);
    grow(q.x, q.y, q.vertical ? U : 2 * U, q.vertical ? 2 * U : U);
  }
  for (const end of view.available_ends || view.open_ends || []) {
    const spot = slotFor(geo, end);
    if (!spot) continue;
    const [x, y, vertical] = spot;
    const w = vertical ? U : 2 * U;
    const h = vertical ? 2 * U : U;
    const key = endKey(end[1], end[2]);
    const move = targets.get(key);
    const g = svg("g", { class: `end${move ? " target" : ""}`, "data-on": end[1], "data-port": end[2], "data-value": end[0] });
    g.append(svg("rect", { x: x + 2, y: y + 2, width: w - 4, height: h - 4, rx: 5 }));
    const t = svg("text", { x: x + w / 2, y: y + h / 2 + 5, "text-anchor": "middle" });
    t.textContent = end[0];
    g.append(t);
    const title = svg("title");
    title.textContent = `open end ${end[0]} (on ${end[1]}${end[2] && end[2] !== "OUT" ? ", " + end[2].replace("_", " ").toLowerCase() : ""})`;
    g.append(title);
    if (move && ctx.onEnd) g.addEventListener("click", () => ctx.onEnd(move));
    root.append(g);
    grow(x, y, w, h);
  }
  const pad = 6;
  const vw = maxX - minX + 2 * pad;
  const vh = maxY - minY + 2 * pad;
  root.setAttribute("viewBox", `${minX - pad} ${minY - pad} ${vw} ${vh}`);
  const scale = Math.min(1.6, 1060 / vw);
  root.setAttribute("width", Math.round(vw * scale));
  root.setAttribute("height", Math.round(vh * scale));
  box.append(root);
  return box;
}

// ---------------------------------------------------------------------------------------------
// Highrise: the tower as a grid of top faces, with levels and spacer marks.

export function towerBoard(view, ctx = {}) {
  const box = el("div", { class: "felt" });
  const grid = el("div", { class: "tower", style: `grid-template-columns: repeat(${view.cols}, 4.2em)` });
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
      if (targets.has(key)) cls.push("target");
      if (picked.has(key)) cls.push("picked");
      const node = el("div", { class: cls.join(" "), "data-cell": key,
        title: c ? `${c.tile} at (${r},${k}), level ${c.level}${c.spacer ? ", a spacer" : ""}` : `(${r},${k}) empty` });
      if (c) {
        node.append(el("b", { class: "face" }, c.face), el("small", { class: "lvl" }, `L${c.level}`));
        if (c.spacer) node.append(el("span", { class: "spacer-mark", title: "spacer" }, "▣"));
      } else node.append(el("small", {}, "·"));
      if (targets.has(key) && ctx.onCell) node.addEventListener("click", () => ctx.onCell(key));
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
  for (const t of view.layout || []) {
    const cls = [];
    if (halves(t).some((h) => mine.has(h))) cls.push("matching");
    if (claimable.has(t)) cls.push("claimable");
    if (targets.has(t)) cls.push("target");
    const node = tile(t, cls.join(" "), 34, true);
    if (targets.has(t) && ctx.onCapture) node.addEventListener("click", () => ctx.onCapture(t));
    row.append(node);
  }
  if (!(view.layout || []).length) row.append(el("p", { class: "empty" }, "The layout is empty."));
  box.append(row);
  if ((view.claimable || []).length) {
    box.append(el("p", { class: "note" }, "Claimable pairs: " + view.claimable.map((p) => p.join(" + ")).join(", ")));
  }
  return box;
}

export function pilesPanel(view, names) {
  const box = el("div", { class: "piles" });
  (view.piles || []).forEach((pile, i) => {
    const row = el("div", { class: "pile" }, el("span", { class: "who" }, `${names[i]} (${(view.scores || [])[i] ?? 0} pts, ${pile.length} tiles)`));
    const tiles = el("div", { class: "row small" });
    for (const t of pile) tiles.append(tile(t, "", 17, true));
    row.append(tiles);
    box.append(row);
  });
  return box;
}

// Any game: the board for a view.
export function board(view, ctx = {}) {
  if (Array.isArray(view.tower)) return towerBoard(view, ctx);
  if (Array.isArray(view.piles)) return highFivesBoard(view, ctx);
  return fivesBoard(view, ctx);
}

export { sameTile };
