// Brackets as SVG, from the event JSON's `sections` (single elimination; a double elimination's
// winners', losers' and grand-final parts; the bracket after pools): one column per round, each
// match a box of two rows (the winner in bold, games won on the right, a mark when it was not
// played out: ff, ns, r, t/o…), lines to the next round, the third-place match under the final.
const NS = "http://www.w3.org/2000/svg";
const W = 190, GAP = 40, ROW = 22, SLOT = 54, TOP = 30;

function node(tag, attrs = {}, text) {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  if (text !== undefined) n.textContent = text;
  return n;
}

function clip(name, n = 22) {
  if (!name) return "";
  return name.length > n ? name.slice(0, n - 1) + "…" : name;
}

// A match box at (x, cy), linking its page.
function matchBox(data, m, x, cy) {
  const live = (m.games || []).some((g) => g.status === "playing");
  const g = node("g", { class: `m${m.over ? " over" : ""}${live ? " live" : ""}`, "data-match": m.id });
  const link = node("a", { href: `/tournaments/${data.id}/matches/${m.id}` });
  link.append(node("title", {}, `${m.id}: ${m.a_name || "?"} v ${m.bye ? "bye" : m.b_name || "?"}${m.outcome_label && m.outcome !== "played" ? ` — ${m.outcome_label.name}` : ""}`));
  link.append(node("rect", { x, y: cy - ROW, width: W, height: 2 * ROW, rx: 3 }));
  link.append(node("line", { x1: x, y1: cy, x2: x + W, y2: cy, class: "mid" }));
  const sides = [[m.a, m.a_name, m.wins ? m.wins[0] : 0], [m.b, m.b_name, m.wins ? m.wins[1] : 0]];
  sides.forEach(([id, name, wins], k) => {
    const y = cy - ROW + k * ROW + 15;
    const label = name || (m.bye && k === 1 ? "bye" : "");
    const cls = m.winner !== null && m.winner === id ? "win" : "";
    link.append(node("text", { x: x + 6, y, class: cls, "data-entrant": id ?? "" }, clip(label)));
    if (!m.bye && id !== null) link.append(node("text", { x: x + W - 14, y, class: "wins" }, String(wins)));
  });
  const mark = m.outcome_label && !["played", "bye"].includes(m.outcome) ? m.outcome_label.short : "";
  if (mark) link.append(node("text", { x: x + W - 40, y: cy + 4, class: "mark" }, mark));
  g.append(link);
  return g;
}

// The y of each match: a column of half the slots sits between its two feeders.
function layout(columns, rounds) {
  const ys = [];
  columns.forEach(([ri, slots], c) => {
    const ms = rounds[ri] || [];
    const prev = c ? columns[c - 1][1] : 0;
    ys.push(ms.map((m) => {
      const i = Math.min(m.index, slots - 1);
      if (c === 0) return TOP + (i + 0.5) * SLOT * (columns[0][1] / slots);
      const before = ys[c - 1];
      const feeders = prev === 2 * slots ? [2 * i, 2 * i + 1] : [i];
      const known = feeders.map((f) => before.find((_y, k) => rounds[columns[c - 1][0]][k].index === f)).filter((y) => y !== undefined);
      return known.length ? known.reduce((a, b) => a + b, 0) / known.length : TOP + (i + 0.5) * SLOT * (columns[0][1] / slots);
    }));
  });
  return ys;
}

function drawSection(data, section) {
  const rounds = data.rounds;
  const cols = section.columns.filter(([ri]) => rounds[ri]);
  const ys = layout(cols, rounds);
  const third = section.third_place;
  const height = TOP + cols[0][1] * SLOT + (third ? 2 * SLOT : 10);
  const width = cols.length * (W + GAP) + (section.champion ? W : 0) + 20;
  const svg = node("svg", { class: "bracket", width, height, viewBox: `0 0 ${width} ${height}`, role: "group", "aria-label": `${data.name}: ${section.title}`, "data-section": section.title });
  svg.append(node("title", {}, `${data.name}: ${section.title}`));
  cols.forEach(([ri, slots], c) => {
    const x = 10 + c * (W + GAP);
    svg.append(node("text", { x, y: 16, class: "head" }, (data.round_titles || [])[ri] || `Round ${c + 1}`));
    rounds[ri].forEach((m, k) => {
      if (m.id === third) return;
      const cy = ys[c][k];
      if (c + 1 < cols.length) {
        const next = cols[c + 1];
        const j = next[1] * 2 === slots ? Math.floor(m.index / 2) : m.index;
        const at = rounds[next[0]].findIndex((n) => n.index === j && n.id !== third);
        if (at >= 0) svg.append(node("path", { d: `M${x + W},${cy} H${x + W + GAP / 2} V${ys[c + 1][at]} H${x + W + GAP}` }));
      }
      svg.append(matchBox(data, m, x, cy));
    });
  });
  if (third) {
    const c = cols.length - 1;
    const m = rounds[cols[c][0]].find((n) => n.id === third);
    const x = 10 + c * (W + GAP);
    const y = TOP + cols[0][1] * SLOT + SLOT;
    svg.append(node("text", { x, y: y - ROW - 6, class: "head" }, "Third place"));
    if (m) svg.append(matchBox(data, m, x, y));
  }
  if (section.champion) {
    const fx = 10 + cols.length * (W + GAP);
    const fy = ys[cols.length - 1][0] || TOP + SLOT;
    svg.append(node("text", { x: fx, y: fy - 8, class: "head" }, "Champion"));
    svg.append(node("text", { x: fx, y: fy + 12, class: "champion", id: "champion" }, data.champion ? data.champion.name : "—"));
  }
  return svg;
}

// Draws every section of the event's bracket into `container`; returns whether there was one.
export function drawBracket(container, data) {
  container.replaceChildren();
  const sections = data.sections || [];
  sections.forEach((s, i) => {
    const withChampion = { ...s, champion: i === sections.length - 1 };
    const wrap = document.createElement("div");
    wrap.className = "bracket-wrap";
    if (sections.length > 1) {
      const h = document.createElement("h4");
      h.textContent = s.title;
      container.append(h);
    }
    wrap.append(drawSection(data, withChampion));
    container.append(wrap);
  });
  return sections.length > 0;
}
