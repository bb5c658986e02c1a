// The printed pages of an event: a round's pairings (/tournaments/{id}/pairings?round=N), score cards
// (/tournaments/{id}/scorecard[?round=N|?match=ID]), the standings and the bracket
// (/tournaments/{id}/print/standings, /print/bracket). The server lays each out once, as pages of
// blocks in millimetres (GET /api/tournaments/{id}/print/{kind}.json): this page draws those pages
// at their paper size, and the PDF download (…/{kind}.pdf) draws the same ones, so they agree.
import { api, el } from "/static/api.js";

const $ = (id) => document.getElementById(id);
const NS = "http://www.w3.org/2000/svg";
const LINE = { 7: 3.2, 7.5: 3.4, 8: 3.7, 9: 4.2, 10: 4.6, 11: 5.0, 12: 5.6 };
const PT = 0.3528; // millimetres in a point
const GAP = 3; // between blocks (mm), as the PDF
const PAD = 3; // inside a card's frame (mm)

function mm(node, props) {
  for (const [k, v] of Object.entries(props)) node.style[k] = `${v}mm`;
  return node;
}

function textBlock(b) {
  const box = mm(el("div", { class: `pb-text${b.bold ? " bold" : ""}` }), { height: b.h });
  box.style.fontSize = `${b.size}pt`;
  for (const line of b.lines) box.append(mm(el("div", { class: "pb-line" }, line), { height: LINE[b.size], lineHeight: LINE[b.size] }));
  return box;
}

function tableBlock(b, first) {
  const attrs = { class: `pb-table ${b.cls || ""} ${b.id || ""}`.trim() };
  if (b.id && first) attrs.id = b.id;
  const t = el("table", attrs);
  t.style.fontSize = `${b.size}pt`;
  const cols = el("colgroup", {}, ...b.columns.map((c) => mm(el("col", {}), { width: c.w })));
  const head = mm(el("tr", {}, ...b.head.map((lines, i) => el("th", { scope: "col", class: `a-${b.columns[i].align}` },
    ...lines.map((line) => mm(el("div", { class: "pb-line" }, line), { lineHeight: LINE[b.size] }))))), { height: b.head_h });
  t.append(cols, head);
  for (const r of b.rows) {
    const tr = mm(el("tr", { class: r.cls || "" }), { height: r.h });
    if (r.match) tr.dataset.match = r.match;
    if (r.game) tr.dataset.game = r.game;
    if (r.entrant !== undefined) tr.dataset.entrant = r.entrant;
    r.cells.forEach((lines, i) => {
      const td = el("td", { class: `a-${b.columns[i].align}` });
      for (const line of lines) td.append(mm(el("div", { class: "pb-line" }, line), { lineHeight: LINE[b.size] }));
      tr.append(td);
    });
    t.append(tr);
  }
  return mm(el("div", { class: "pb-table-wrap" }, t), { height: b.h });
}

function svg(tag, attrs = {}, text) {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  if (text !== undefined) n.textContent = text;
  return n;
}

function bracketBlock(b, width, eventId) {
  const top = 6;
  const s = svg("svg", { class: "pb-bracket", viewBox: `0 0 ${width} ${b.h}`, role: "img", "aria-label": b.title });
  mm(s, { width, height: b.h });
  s.append(svg("title", {}, b.title), svg("text", { x: 0, y: 4, class: "title" }, b.title));
  for (const p of b.paths) {
    const pts = [];
    for (let i = 0; i < p.length; i += 2) pts.push(`${p[i]},${p[i + 1] + top}`);
    s.append(svg("polyline", { points: pts.join(" "), class: "join" }));
  }
  for (const l of b.labels) s.append(svg("text", { x: l.x, y: l.y + top - 0.6, class: l.bold ? "label bold" : "label" }, l.text));
  for (const bx of b.boxes) {
    const a = svg("a", { href: `/tournaments/${eventId}/matches/${bx.match}`, "data-match": bx.match });
    const y = bx.y + top;
    a.append(svg("rect", { x: bx.x, y, width: bx.w, height: bx.h }), svg("line", { x1: bx.x, y1: y + bx.h / 2, x2: bx.x + bx.w, y2: y + bx.h / 2 }));
    bx.lines.forEach((side, k) => {
      const ty = y + k * bx.h / 2 + bx.h / 4 + 0.9;
      a.append(svg("text", { x: bx.x + 0.8, y: ty, class: side.bold ? "side win" : "side" }, side.text));
      a.append(svg("text", { x: bx.x + bx.w - 0.8, y: ty, class: "wins" }, side.wins));
    });
    if (bx.mark) a.append(svg("text", { x: bx.x + bx.w - 6, y: y + bx.h / 2 + 0.9, class: "mark" }, bx.mark));
    s.append(a);
  }
  return s;
}

function block(b, doc, first, eventId) {
  if (b.type === "text") return textBlock(b);
  if (b.type === "table") return tableBlock(b, first);
  if (b.type === "bracket") return bracketBlock(b, doc.size[0] - 2 * doc.margin, eventId);
  const card = mm(el("div", { class: "card", "data-match": b.match }), { height: b.h, padding: PAD });
  for (const inner of b.blocks) card.append(block(inner, doc, first, eventId));
  return card;
}

const PX = 96 / 25.4; // CSS pixels in a millimetre

// On a screen narrower than the paper (a phone) the sheets are drawn to its width, as a PDF
// viewer shows a page (pinch to read them); printed, they are their paper's size (tournaments.css).
function fitSheets(box) {
  const fit = () => {
    const wide = Number(box.dataset.mm || 0) * PX;
    box.style.setProperty("--fit", wide ? Math.min(1, box.clientWidth / wide).toFixed(4) : "1");
  };
  new ResizeObserver(fit).observe(box);
  return fit;
}

// Every page of `doc` as a sheet of its paper's size.
export function drawDoc(box, doc, eventId) {
  box.replaceChildren();
  box.dataset.mm = doc.size[0];
  const seen = new Set();
  doc.pages.forEach((page, i) => {
    const sheet = mm(el("div", { class: `sheet ${doc.paper}-${doc.orientation}`, "data-page": i + 1 }), { width: doc.size[0], height: doc.size[1], padding: doc.margin });
    const head = mm(el("div", { class: "sheet-head" }, el("div", { class: "sheet-title" }, doc.title), el("div", { class: "sheet-sub" }, doc.subtitle)), { height: 14 });
    const body = el("div", { class: "sheet-body" });
    for (const b of page.blocks) {
      const node = block(b, doc, !seen.has(b.id), eventId);
      if (b.id) seen.add(b.id);
      mm(node, { marginBottom: GAP });
      body.append(node);
    }
    const foot = mm(el("div", { class: "sheet-foot" }, `${doc.footer} · page ${i + 1} of ${doc.pages.length}`), { bottom: doc.margin - 5, left: doc.margin, right: doc.margin });
    sheet.append(head, body, foot);
    box.append(sheet);
  });
}

function pageKind(parts) {
  if (parts[2] === "pairings") return "pairings";
  if (parts[2] === "print" && ["pairings", "cards", "standings", "bracket"].includes(parts[3])) return parts[3];
  return "cards";
}

export async function showCards(parts) {
  const eventId = parts[1];
  const kind = pageKind(parts);
  const q = new URLSearchParams(location.search);
  const paper = $("paper");
  paper.value = q.get("paper") || localStorage.getItem("boneyard-paper") || "letter";
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  const query = () => {
    const p = new URLSearchParams({ paper: paper.value, tz });
    if (q.get("round")) p.set("round", q.get("round"));
    if (q.get("match")) p.set("match", q.get("match"));
    return p.toString();
  };
  $("print").addEventListener("click", () => window.print());
  const fit = fitSheets($("cards"));
  $("sc-back").href = `/tournaments/${eventId}`;
  $("sc-csv").href = `/api/tournaments/${eventId}/scorecards.csv`;
  $("sc-json").href = `/api/tournaments/${eventId}/export.json`;
  const load = async () => {
    $("sc-error").textContent = "";
    localStorage.setItem("boneyard-paper", paper.value);
    $("sc-pdf").href = `/api/tournaments/${eventId}/print/${kind}.pdf?${query()}`;
    try {
      const doc = await api("GET", `/api/tournaments/${eventId}/print/${kind}.json?${query()}`);
      document.title = doc.title;
      $("sc-title").textContent = doc.title;
      $("sc-info").textContent = `${doc.subtitle} · ${doc.pages.length} page${doc.pages.length === 1 ? "" : "s"}, ${paper.selectedOptions[0].textContent} ${doc.orientation}`;
      drawDoc($("cards"), doc, eventId);
      fit();
      document.body.dataset.pages = doc.pages.length;
    } catch (e) { $("sc-error").textContent = e.message; }
  };
  paper.addEventListener("change", load);
  await load();
}
