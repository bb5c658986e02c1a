// SVG domino tiles: "5-3" -> two halves with pips (0-6) or numbers (W, 7-15).
const NS = "http://www.w3.org/2000/svg";
const PIPS = {
  0: [], 1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [0, 2], [2, 0], [2, 2]], 5: [[0, 0], [0, 2], [1, 1], [2, 0], [2, 2]],
  6: [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1], [2, 2]],
};

function svg(tag, attrs) {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  return n;
}

function half(g, x, face) {
  if (face in PIPS) {
    for (const [r, c] of PIPS[face]) {
      g.append(svg("circle", { cx: x + 6 + c * 9, cy: 6 + r * 9, r: 2.6, class: "pip" }));
    }
  } else {
    const t = svg("text", { x: x + 15, y: 20, "text-anchor": "middle", class: "face" });
    t.textContent = face;
    g.append(t);
  }
}

export function tile(name, extraClass = "") {
  const [a, b] = String(name).split("-");
  const s = svg("svg", { viewBox: "0 0 62 30", width: 62, height: 30, class: `tile ${extraClass}`, role: "img" });
  s.setAttribute("aria-label", name);
  s.dataset.tile = name;
  s.append(svg("rect", { x: 1, y: 1, width: 60, height: 28, rx: 4, class: "body" }));
  s.append(svg("line", { x1: 31, y1: 4, x2: 31, y2: 26, class: "mid" }));
  const t = svg("title", {});
  t.textContent = name;
  s.append(t);
  half(s, 1, a);
  half(s, 31, b);
  return s;
}

export function isTile(v) {
  return typeof v === "string" && /^[0-9W]{1,2}-[0-9W]{1,2}$/.test(v);
}
