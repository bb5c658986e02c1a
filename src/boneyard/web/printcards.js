// The printable pages of an event: pairing lists per round with table numbers
// (/events/{id}/pairings?round=N) and score cards — every match, one round (?round=N) or one
// match (?match=ID) — with table, date and time fields, a line per game with a signature line
// for each player (PDA rule 11), voided games struck through, and the forfeits.
import { api, el } from "/static/api.js";
import { FORMATS } from "/static/eventform.js";
import { scheduleText } from "/static/eventpage.js";
import { statusText } from "/static/results.js";

const $ = (id) => document.getElementById(id);
const BLANK = "\u00a0".repeat(18);

function signature(iso) {
  return iso ? `signed on screen ${new Date(iso).toLocaleString([], { dateStyle: "short", timeStyle: "short" })}` : "";
}

function gameRows(m) {
  const games = m.games.filter((g) => g.kind === "game").sort((x, y) => x.number - y.number || x.id - y.id);
  const rows = [];
  const used = new Set();
  for (const g of games) {
    if (g.status !== "void") used.add(g.number);
    rows.push(el("tr", { class: g.status === "void" ? "void" : "" }, el("td", {}, g.number), el("td", { class: "num" }, g.score_a ?? ""),
      el("td", { class: "num" }, g.score_b ?? ""), el("td", {}, g.status === "void" ? "void" : g.winner_name ?? ""),
      el("td", {}, `${statusText(g)}${g.by_director ? ", entered by the director" : ""}${g.note ? ` — ${g.note}` : ""}`),
      el("td", { class: "sig" }, signature(g.signed_a_at)), el("td", { class: "sig" }, signature(g.signed_b_at))));
  }
  for (let n = 1; n <= m.best_of; n++) {
    if (used.has(n)) continue;
    rows.push(el("tr", { class: "blank" }, el("td", {}, n), ...Array.from({ length: 6 }, () => el("td", { class: "sig" }, ""))));
  }
  return rows;
}

function card(data, m, title) {
  const t = el("table", { class: "card-table" });
  t.append(el("tr", {}, ...["Game", m.a_name, m.b_name, "Winner", "How", `Signature ${m.a_name}`, `Signature ${m.b_name}`].map((h) => el("th", { scope: "col" }, h))));
  t.append(...gameRows(m));
  const forfeit = m.games.find((g) => g.kind === "forfeit" && g.status !== "void");
  return el("div", { class: "card", "data-match": m.id },
    el("h2", {}, `${data.name} — ${m.id} · ${title}`),
    el("p", { class: "card-fields" }, `Table: ${m.table ?? BLANK}   Date: ${BLANK}   Time: ${BLANK}   Best of ${m.best_of}`),
    el("p", {}, `${m.a_name} v ${m.b_name}`),
    t,
    el("p", {}, m.winner_name ? `Match: ${m.winner_name} wins ${Math.max(...m.wins)}–${Math.min(...m.wins)}${forfeit ? ` (forfeit: ${forfeit.note || ""})` : ""}` : `Match winner: ${BLANK}  Games: ${BLANK}`),
    el("p", { class: "sign" }, `Director: ${BLANK}${BLANK}`));
}

function pairings(data, r) {
  const rnd = data.rounds[r - 1] || [];
  const t = el("table", { class: "card-table pairings", id: "pairings" });
  t.append(el("tr", {}, ...["Table", "Player", "Player", "Result"].map((h) => el("th", { scope: "col" }, h))));
  const seed = Object.fromEntries(data.entrants.map((e) => [e.id, e.seed]));
  const who = (id, name) => (name ? `${name}${seed[id] ? ` (${seed[id]})` : ""}` : "to be decided");
  for (const m of rnd.filter((x) => !x.bye).sort((x, y) => (x.table ?? 99) - (y.table ?? 99))) {
    t.append(el("tr", { "data-match": m.id }, el("td", { class: "num" }, m.table ?? ""), el("td", {}, who(m.a, m.a_name)), el("td", {}, who(m.b, m.b_name)),
      el("td", {}, m.winner_name ? `${m.winner_name} ${m.wins.join("–")}` : "")));
  }
  const byes = rnd.filter((x) => x.bye).map((x) => x.a_name).filter(Boolean);
  return [t, byes.length ? el("p", {}, `Bye: ${byes.join(", ")}`) : ""];
}

export async function showCards(parts) {
  $("print").addEventListener("click", () => window.print());
  const q = new URLSearchParams(location.search);
  let data;
  try { data = await api("GET", `/api/events/${parts[1]}`); } catch (e) { $("sc-error").textContent = e.message; return; }
  const titles = data.round_titles || [];
  const r = Number(q.get("round")) || 0;
  $("sc-back").href = `/events/${data.id}`;
  $("sc-csv").href = `/api/events/${data.id}/scorecards.csv`;
  $("sc-json").href = `/api/events/${data.id}/export.json`;
  $("sc-info").textContent = `${data.title}${data.options.preset ? ` (${data.options.preset})` : ""} · ${FORMATS[data.format]} · ${scheduleText(data.schedule)} · run by ${data.directors.map((d) => d.name).join(", ")}`;
  if (parts[2] === "pairings") {
    const title = titles[r - 1] || `Round ${r}`;
    document.title = `${data.name} — ${title}: pairings`;
    $("sc-title").textContent = `${data.name} — ${title}: pairings`;
    $("cards").replaceChildren(...pairings(data, r || data.current_round || 1));
    return;
  }
  const box = $("cards");
  (data.rounds || []).forEach((rnd, i) => {
    if (r && i + 1 !== r) return;
    for (const m of rnd) {
      if (m.bye || m.a === null || m.b === null) continue;
      if (q.get("match") && q.get("match") !== m.id) continue;
      box.append(card(data, m, `${titles[i] || `Round ${i + 1}`}`));
    }
  });
  const which = q.get("match") || (r ? titles[r - 1] || `Round ${r}` : "every match");
  document.title = `${data.name} — score cards (${which})`;
  $("sc-title").textContent = `${data.name} — official score cards (${which})`;
  if (!box.children.length) box.append(el("p", {}, "No card to print yet: the pairings of this round are not known."));
}
