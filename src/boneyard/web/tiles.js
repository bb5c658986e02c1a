// SVG domino tiles: "5-3" -> two halves with pips (0-6) or numbers (W, 7-15).
export const NS = "http://www.w3.org/2000/svg";
const PIPS = {
  0: [], 1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [0, 2], [2, 0], [2, 2]], 5: [[0, 0], [0, 2], [1, 1], [2, 0], [2, 2]],
  6: [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1], [2, 2]],
};

export function svg(tag, attrs = {}) {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  return n;
}

// One half: a U x U square at (x, y).
export function half(g, x, y, face, U) {
  if (face in PIPS) {
    for (const [r, c] of PIPS[face]) {
      g.append(svg("circle", { cx: x + U * (0.24 + 0.26 * c), cy: y + U * (0.24 + 0.26 * r), r: U * 0.085, class: "pip" }));
    }
  } else {
    const t = svg("text", { x: x + U / 2, y: y + U * 0.68, "text-anchor": "middle", class: "face", "font-size": U * (String(face).length > 1 ? 0.5 : 0.58) });
    t.textContent = face;
    g.append(t);
  }
}

// A tile as an SVG group at (x, y): faces a (left/top) and b (right/bottom), half size U.
export function tileGroup(a, b, x, y, vertical, U, cls = "") {
  const g = svg("g", { class: `tile ${cls}`.trim() });
  const w = vertical ? U : 2 * U;
  const h = vertical ? 2 * U : U;
  g.append(svg("rect", { x: x + 0.5, y: y + 0.5, width: w - 1, height: h - 1, rx: U * 0.14, class: "body" }));
  if (vertical) {
    g.append(svg("line", { x1: x + U * 0.15, y1: y + U, x2: x + U * 0.85, y2: y + U, class: "mid" }));
    half(g, x, y, a, U);
    half(g, x, y + U, b, U);
  } else {
    g.append(svg("line", { x1: x + U, y1: y + U * 0.15, x2: x + U, y2: y + U * 0.85, class: "mid" }));
    half(g, x, y, a, U);
    half(g, x + U, y, b, U);
  }
  return g;
}

export function halves(name) {
  return String(name).split("-");
}

// A tile's name for a screen reader: "five-six", "wild-three", "blank-twelve".
const NUMBERS = ["blank", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
  "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen"];
export function tileWords(name) {
  return halves(name).map((f) => (f === "W" ? "wild" : NUMBERS[Number(f)] ?? f)).join("-");
}

// A standalone tile (hands, piles): <svg class="tile"> with data-tile.
export function tile(name, extraClass = "", U = 30, vertical = false) {
  const [a, b] = halves(name);
  const w = vertical ? U : 2 * U;
  const h = vertical ? 2 * U : U;
  const s = svg("svg", { viewBox: `0 0 ${w} ${h}`, width: w, height: h, class: `tile ${extraClass}`.trim(), role: "img" });
  s.setAttribute("aria-label", tileWords(name));
  s.dataset.tile = name;
  const t = svg("title", {});
  t.textContent = name;
  s.append(t);
  const g = tileGroup(a, b, 0, 0, vertical, U);
  s.append(...g.childNodes);
  return s;
}

// The same tile whichever way round it is written ("6-3" and "3-6").
export function sameTile(x, y) {
  const [a, b] = halves(x);
  const [c, d] = halves(y);
  return (a === c && b === d) || (a === d && b === c);
}

export function isTile(v) {
  return typeof v === "string" && /^[0-9W]{1,2}-[0-9W]{1,2}$/.test(v);
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
