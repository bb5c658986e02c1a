// Tournament pages: the list and the form to create one (/tournaments), one tournament
// (/tournaments/{id}: tournamentpage.js, the director's console director.js), a match
// (/tournaments/{id}/matches/{mid}: its games, its countdown, its score card to sign), the leaderboard
// (/leaderboard) and the printable pairings and score cards (scorecard.html: printcards.js).
import { api, el } from "/static/api.js";
import { ask, askText } from "/static/ask.js";
import { initBell } from "/static/bell.js";
import { loadGames, renderConsole } from "/static/director.js";
import { FORMATS, settingsForm } from "/static/tournamentform.js";
import { countdown, renderEvent, statusWords, tickCountdowns, whenText } from "/static/tournamentpage.js";
import { showCards } from "/static/printcards.js";
import { mark, statusText } from "/static/results.js";
import { showWho } from "/static/who.js";

const $ = (id) => document.getElementById(id);
const parts = location.pathname.split("/").filter(Boolean);
let me = null;

const NEW_EVENT = {
  name: "High Five Open", cap: 64, rated: true,
  settings: { auto_start: true, grace_minutes: 10, per_move: 90, move_grace: 30, timeout: "lose", advance: 2,
    bracket_format: "single", bracket_schedule: "bo3", reset: true, seeding: "rating" },
};

// -- the list --------------------------------------------------------------------------------------

// The list is shown once it is filled: shown before, its "New tournament" below moved down as
// the events came, under a press about to open it.
async function showList() {
  const games = await loadGames();
  const titles = Object.fromEntries(games.map((g) => [g.game, g.title]));
  const { events } = await api("GET", "/api/tournaments");
  const ul = $("tournaments");
  ul.replaceChildren();
  for (const e of events) {
    ul.append(el("li", {}, el("a", { href: `/tournaments/${e.id}` }, e.name),
      ` — ${titles[e.game] || e.game}, ${FORMATS[e.format] || e.format}, ${e.mode === "otb" ? "over the board" : "online"}, ${e.entrants}/${e.cap} entrants, ${statusWords(e)}`,
      e.starts_at ? `, starts ${whenText(e.starts_at)}` : "", `, run by ${e.director}`));
  }
  if (!events.length) ul.append(el("li", {}, "No tournaments yet."));
  $("list").hidden = false;
  if (!me || me.guest) {
    $("create-box").replaceChildren(el("p", { class: "note" }, "Sign up (not as a guest) to run an event."));
    $("ev-create").hidden = true;
    return;
  }
  const { form, read } = settingsForm(games, NEW_EVENT, false);
  $("create-box").replaceChildren(form);
  form.addEventListener("submit", (ev) => ev.preventDefault());
  $("ev-create").addEventListener("click", async () => {
    $("list-error").textContent = "";
    try {
      const e = await api("POST", "/api/tournaments", read());
      location.href = `/tournaments/${e.id}`;
    } catch (e) { $("list-error").textContent = e.message; }
  });
}

// -- one event -------------------------------------------------------------------------------------

const ctx = { data: null, games: [], render: null, consoleKey: "" };
let timer = null;

function consoleKey(data) {
  const matches = (data.rounds || []).flat().filter((m) => m.ready).map((m) => [m.id, m.games.map((g) => g.status)]);
  return JSON.stringify([data.status, data.entrants, matches, data.actions.length, data.settings, data.directors, data.scorekeepers, data.checkin, data.join_code, (data.rounds || []).length]);
}

let drawn = "";

function render(data) {
  ctx.data = data;
  // (a poll that brings nothing new redraws nothing: a 128-entrant page is a large one)
  const text = JSON.stringify(data);
  const same = text === drawn;
  drawn = text;
  if (!same) renderEvent(ctx, data, me);
  const key = consoleKey(data);
  const typing = document.activeElement && $("console").contains(document.activeElement) && document.activeElement.tagName !== "BUTTON";
  if (!same && key !== ctx.consoleKey && !typing) {
    ctx.consoleKey = key;
    renderConsole(ctx, data);
  }
  clearTimeout(timer);
  const live = data.status === "running" || data.status === "paused" || data.status === "registration";
  if (live) timer = setTimeout(refreshEvent, data.status === "registration" ? 10000 : 3000);
}
ctx.render = render;
// Redraws the console from the data it has (a local choice: a tab's match, a round).
ctx.redraw = () => { ctx.consoleKey = consoleKey(ctx.data); renderConsole(ctx, ctx.data); };

async function refreshEvent() {
  try { render(await api("GET", `/api/tournaments/${parts[1]}`)); } catch (e) {
    if (e.status === 404 && !ctx.data) notFound($("event"), $("ev-error"), "event");
    else $("ev-error").textContent = e.message;
  }
}

// A mistyped address (an event or a match nobody has): says so, with the way to the events,
// instead of an empty page of headings under the server's "no such event".
function notFound(section, said, what) {
  section.classList.add("not-found");
  said.replaceChildren(`No such ${what}: the address may be mistyped. `, el("a", { href: "/tournaments" }, "All tournaments"), ".");
}

// -- a match ---------------------------------------------------------------------------------------

async function matchAction(path, body) {
  $("m-error").textContent = "";
  try { await api("POST", path, body || {}); await showMatch(); } catch (e) { $("m-error").textContent = e.message; }
}

function signControls(event, m, g) {
  const box = el("p", { class: "hint sign-box", "data-game": g.id }, `Game ${g.number}: ${m.a_name} ${g.score_a} – ${g.score_b} ${m.b_name}${g.by_director ? " (entered by the director)" : ""}${g.reason === "bogus" ? " (bogus play)" : ""}. `);
  const sign = el("button", { type: "button", id: "sign", class: "big" }, "Sign this card");
  sign.addEventListener("click", async () => {
    if (await ask(`Sign game ${g.number}: ${g.score_a} – ${g.score_b}?`, "Your signature says this is the final score (PDA rule 11).", "Sign")) matchAction(`/api/tournaments/${event.id}/games/${g.id}/sign`);
  });
  const dispute = el("button", { type: "button", id: "dispute" }, "Dispute");
  dispute.addEventListener("click", async () => {
    const why = await askText(`Dispute game ${g.number}`, "What is wrong with this score?", { detail: "The director sees your words and rules on the card.", yes: "Send the dispute" });
    if (why !== null) matchAction(`/api/tournaments/${event.id}/games/${g.id}/dispute`, { note: why });
  });
  box.append(sign, " ", dispute);
  return box;
}

function reportForm(event, m) {
  const fa = el("input", { type: "number", min: 0, id: "score-a", "aria-label": `${m.a_name}'s score` });
  const fb = el("input", { type: "number", min: 0, id: "score-b", "aria-label": `${m.b_name}'s score` });
  const f = el("form", { id: "report-form" }, `Enter the final score: ${m.a_name} `, fa, " – ", fb, ` ${m.b_name} `, el("button", {}, "Enter and sign"));
  f.addEventListener("submit", (ev) => { ev.preventDefault(); matchAction(`/api/tournaments/${event.id}/matches/${m.id}/report`, { score_a: Number(fa.value), score_b: Number(fb.value) }); });
  return f;
}

function mineBox(event, m) {
  const box = $("m-mine");
  box.replaceChildren();
  const mine = event.me.entrant;
  if (!mine || (m.a !== mine && m.b !== mine) || event.mode !== "otb" || !m.ready) return;
  const side = m.a === mine ? "a" : "b";
  const open = m.games.find((g) => ["reported", "disputed", "timeout"].includes(g.status));
  if (open && open.status === "reported" && !open[`signed_${side}`]) box.append(signControls(event, m, open));
  else if (open) box.append(el("p", {}, `Game ${open.number}: ${open.how || statusText(open)}.`));
  else box.append(reportForm(event, m));
}

async function showMatch() {
  $("match").hidden = false;
  const { event, match: m } = await api("GET", `/api/tournaments/${parts[1]}/matches/${parts[3]}`);
  document.title = `Boneyard — ${event.name}, ${m.id}`;
  $("m-title").textContent = `${event.name} — ${m.id}`;
  const table = m.table ? `, table ${m.table}` : "";
  $("m-info").replaceChildren(m.bye ? `${m.a_name} has a bye.` : `${event.round_title}${table}: ${m.a_name ?? "?"} v ${m.b_name ?? "?"}, best of ${m.best_of}: ${m.wins.join("–")}${m.winner_name ? `, ${m.winner_name} wins ` : " "}`);
  if (m.outcome && !["played", "bye"].includes(m.outcome)) $("m-info").append(mark(m.outcome_label));
  const wait = $("m-wait");
  wait.hidden = !(m.waiting || []).length;
  wait.replaceChildren(...(m.waiting || []).map((w) => el("span", { "data-until": w.until }, `Waiting for ${w.name} to check in: forfeit in ${countdown(w.until)} `)));
  $("m-back").href = `/tournaments/${event.id}`;
  $("m-card").href = `/tournaments/${event.id}/scorecard?match=${m.id}`;
  mineBox(event, m);
  const t = $("m-games");
  // (each cell carries its column's name: on a phone the rows stack as blocks, label beside value)
  const heads = ["Game", m.a_name || "", m.b_name || "", "Winner", "How", "Signed", "Replay"];
  const cell = (i, attrs, ...kids) => el("td", { ...attrs, "data-label": heads[i] }, ...kids);
  t.replaceChildren(el("tr", { class: "head" }, ...heads.map((h) => el("th", { scope: "col" }, h))));
  for (const g of m.games) {
    const link = g.table_id ? el("a", { href: g.status === "playing" ? `/table/${g.table_id}` : `/replay/${g.table_id}`, class: "replay" }, g.status === "playing" ? "live" : "replay") : "";
    const signed = g.paper ? "both, on paper" : [g.signed_a_at ? m.a_name : "", g.signed_b_at ? m.b_name : ""].filter(Boolean).join(", ");
    const history = (g.history_text || []).map((h) => `${h.at ? new Date(h.at).toLocaleTimeString([], { timeStyle: "short" }) : ""} ${h.text}`);
    t.append(el("tr", { class: g.status === "void" ? "void" : "", "data-game": g.id }, cell(0, {}, g.kind === "forfeit" ? "—" : g.number), cell(1, { class: "num" }, g.score_a ?? ""), cell(2, { class: "num" }, g.score_b ?? ""),
      cell(3, {}, g.status === "void" ? "" : g.winner_name || ""), cell(4, {}, g.how || statusText(g), g.note && g.status === "void" ? ` — ${g.note}` : "",
        history.length ? el("details", { class: "history" }, el("summary", {}, "history"), el("ol", {}, ...history.map((h) => el("li", {}, h)))) : ""),
      cell(5, {}, signed), cell(6, {}, link)));
  }
  if (!m.games.length) t.append(el("tr", {}, el("td", { colspan: 7 }, m.ready ? "No game yet." : "This match waits for its players.")));
  if (event.status === "running" || event.status === "paused") setTimeout(() => showMatch().catch(() => {}), 4000);
}

// -- leaderboard -----------------------------------------------------------------------------------

async function showBoard() {
  $("board").hidden = false;
  const { games } = await api("GET", "/api/games");
  for (const g of games) $("lb-game").append(el("option", { value: g.game }, g.title));
  const load = async () => {
    const { ratings } = await api("GET", `/api/ratings?game=${encodeURIComponent($("lb-game").value)}&category=${encodeURIComponent($("lb-cat").value)}&bots=${$("lb-bots").checked}`);
    const t = $("lb");
    t.replaceChildren(el("tr", {}, ...["#", "Player", "Rating", "μ", "σ", "Games"].map((h) => el("th", { scope: "col" }, h))));
    for (const r of ratings) t.append(el("tr", {}, el("td", {}, r.rank), el("td", {}, r.name + (r.bot ? " (bot)" : "")), el("td", { class: "num" }, r.ordinal.toFixed(1)), el("td", { class: "num" }, r.mu.toFixed(1)), el("td", { class: "num" }, r.sigma.toFixed(2)), el("td", { class: "num" }, r.games)));
    if (!ratings.length) t.append(el("tr", {}, el("td", { colspan: 6 }, "No rated games yet.")));
  };
  $("lb-game").addEventListener("change", load);
  $("lb-cat").addEventListener("change", load);
  $("lb-bots").addEventListener("change", load);
  await load();
}

async function main() {
  try { me = (await api("GET", "/api/me")).user; } catch { me = null; }
  showWho(me);
  initBell(me);
  setInterval(tickCountdowns, 1000);
  if (document.body.classList.contains("scorecard")) return showCards(parts);
  if (parts[0] === "leaderboard") return showBoard();
  if (parts[0] === "tournaments" && parts.length >= 4 && parts[2] === "matches") return showMatch().catch((e) => {
    if (e.status === 404) notFound($("match"), $("m-error"), "match");
    else $("m-error").textContent = e.message;
  });
  if (parts[0] === "tournaments" && parts.length >= 2) {
    $("event").hidden = false;
    ctx.games = await loadGames();
    return refreshEvent();
  }
  return showList();
}

main();
