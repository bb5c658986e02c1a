// The single-elimination bracket as SVG: one column per round, each match a box of two rows
// (winner in bold, games won on the right), lines to the next round, the champion at the end.
const NS = "http://www.w3.org/2000/svg";
const W = 200, GAP = 46, ROW = 22, SLOT = 56, TOP = 30;

function node(tag, attrs = {}, text) {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  if (text !== undefined) n.textContent = text;
  return n;
}

function roundName(r, total) {
  if (r === total) return "Final";
  if (r === total - 1) return "Semifinals";
  if (r === total - 2) return "Quarterfinals";
  return `Round ${r}`;
}

function clip(name, n = 24) {
  if (!name) return "";
  return name.length > n ? name.slice(0, n - 1) + "…" : name;
}

// data: the event JSON (rounds of matches with a_name, b_name, winner, wins, bye, games).
export function drawBracket(container, data) {
  const rounds = data.rounds || [];
  container.replaceChildren();
  if (!rounds.length) return null;
  const total = rounds.length;
  const first = rounds[0].length;
  const height = TOP + first * SLOT + 10;
  const width = total * (W + GAP) + W + 20;
  const svg = node("svg", { class: "bracket", width, height, viewBox: `0 0 ${width} ${height}`, role: "img" });
  svg.append(node("title", {}, `${data.name}: bracket`));
  const centre = (r, i) => TOP + (i + 0.5) * SLOT * 2 ** (r - 1);
  rounds.forEach((matches, ri) => {
    const r = ri + 1;
    const x = 10 + ri * (W + GAP);
    svg.append(node("text", { x, y: 16, class: "head" }, roundName(r, total)));
    matches.forEach((m, i) => {
      const cy = centre(r, i);
      const live = (m.games || []).some((g) => g.status === "playing");
      const g = node("g", { class: `m${m.over ? " over" : ""}${live ? " live" : ""}`, "data-match": m.id });
      const link = node("a", { href: `/events/${data.id}/matches/${m.id}` });
      link.append(node("rect", { x, y: cy - ROW, width: W, height: 2 * ROW, rx: 3 }));
      link.append(node("line", { x1: x, y1: cy, x2: x + W, y2: cy, stroke: "#ddd" }));
      const sides = [[m.a, m.a_name, m.wins ? m.wins[0] : 0], [m.b, m.b_name, m.wins ? m.wins[1] : 0]];
      sides.forEach(([id, name, wins], k) => {
        const y = cy - ROW + k * ROW + 15;
        let label = name || (m.bye && k === 1 ? "bye" : "");
        const cls = m.winner !== null && m.winner === id ? "win" : "";
        link.append(node("text", { x: x + 6, y, class: cls, "data-entrant": id ?? "" }, clip(label)));
        if (!m.bye && id !== null) link.append(node("text", { x: x + W - 16, y, class: "wins" }, String(wins)));
      });
      g.append(link);
      svg.append(g);
      if (r < total) {
        const nx = 10 + r * (W + GAP);
        const ny = centre(r + 1, Math.floor(i / 2));
        svg.append(node("path", { d: `M${x + W},${cy} H${x + W + GAP / 2} V${ny} H${nx}` }));
      }
    });
  });
  const fx = 10 + total * (W + GAP);
  const fy = centre(total, 0);
  const champ = data.champion ? data.champion.name : "";
  svg.append(node("text", { x: fx, y: fy - 8, class: "head" }, "Champion"));
  svg.append(node("text", { x: fx, y: fy + 12, class: "champion", id: "champion" }, champ || "—"));
  container.append(svg);
  return svg;
}
