// Tournament pages: the event list (/events), one event (/events/{id}: bracket, standings,
// matches, registration, check-in, score cards, director's console), a match (/events/{id}/
// matches/{mid}: every game with its replay), the leaderboard (/leaderboard) and the printable
// score cards (/events/{id}/scorecard).
import { api, el } from "/static/api.js";
import { drawBracket } from "/static/bracket.js";

const $ = (id) => document.getElementById(id);
const parts = location.pathname.split("/").filter(Boolean);
let me = null;

const FORMATS = { single_elimination: "single elimination", swiss: "Swiss", round_robin: "round robin" };

// A match schedule as a person says it ("bo3" is "best of 3").
function scheduleText(s) {
  if (s === "pda") return "PDA: best of 5, final best of 7";
  if (/^bo\d+$/.test(s || "")) return `best of ${s.slice(2)}`;
  return s ? `best of ${s.replace(/,/g, ", ")} by round` : "";
}

function fail(id) {
  return (e) => { $(id).textContent = e.message; };
}

function scoreText(g, m) {
  if (g.kind === "forfeit") return `forfeit (${g.winner_name} wins)`;
  if (g.score_a === null || g.score_a === undefined) return g.status;
  return `${m.a_name} ${g.score_a} – ${g.score_b} ${m.b_name}`;
}

function gameItem(data, m, g) {
  const li = el("li", { "data-game": g.id }, `Game ${g.number || "–"}: ${scoreText(g, m)}`);
  li.append(" ", el("span", { class: "tag" }, g.reason ? `${g.status}, ${g.reason}` : g.status));
  if (g.table_id) {
    if (g.status === "playing") li.append(" ", el("a", { href: `/table/${g.table_id}` }, "watch / play"));
    else li.append(" ", el("a", { href: `/replay/${g.table_id}`, class: "replay" }, "replay"));
  }
  if (g.note) li.append(" ", el("em", {}, g.note));
  return li;
}

// -- event list ---------------------------------------------------------------------------------

async function showList() {
  $("list").hidden = false;
  const { games } = await api("GET", "/api/games");
  const titles = {};
  for (const g of games) titles[g.game] = g.title;
  for (const g of games) if (g.min_players <= 2 && g.max_players >= 2) $("ev-game").append(el("option", { value: g.game }, g.title));
  const { events } = await api("GET", "/api/events");
  const ul = $("events");
  ul.replaceChildren();
  for (const e of events) {
    ul.append(el("li", {}, el("a", { href: `/events/${e.id}` }, e.name),
      ` — ${titles[e.game] || e.game}, ${FORMATS[e.format]}, ${e.mode === "otb" ? "over the board" : "online"}, ${e.entrants}/${e.cap} entrants, ${e.status}`,
      e.starts_at ? `, starts ${new Date(e.starts_at).toLocaleString()}` : ""));
  }
  if (!events.length) ul.append(el("li", {}, "No events yet."));
  $("create-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("list-error").textContent = "";
    const body = {
      name: $("ev-name").value, game: $("ev-game").value, format: $("ev-format").value,
      mode: $("ev-mode").value, cap: Number($("ev-cap").value),
    };
    if ($("ev-preset").value.trim()) body.preset = $("ev-preset").value.trim();
    if ($("ev-schedule").value.trim()) body.schedule = $("ev-schedule").value.trim();
    if ($("ev-start").value) body.starts_at = new Date($("ev-start").value).toISOString();
    try {
      const e = await api("POST", "/api/events", body);
      location.href = `/events/${e.id}`;
    } catch (e) { $("list-error").textContent = e.message; }
  });
}

// -- one event ------------------------------------------------------------------------------------

let current = null;
let timer = null;

async function act(path, body) {
  $("ev-error").textContent = "";
  try { render(await api("POST", `/api/events/${current.id}${path}`, body || {})); } catch (e) { fail("ev-error")(e); }
}

function button(text, path, body, id) {
  const b = el("button", id ? { id } : {}, text);
  b.addEventListener("click", () => act(path, typeof body === "function" ? body() : body));
  return b;
}

function allMatches(data) {
  return (data.rounds || []).flat();
}

function render(data) {
  current = data;
  document.body.dataset.status = data.status;
  $("ev-title").textContent = data.name;
  const when = data.starts_at ? `, starts ${new Date(data.starts_at).toLocaleString()}` : "";
  $("ev-info").textContent = `${data.title}${data.options.preset ? ` (${data.options.preset})` : ""} · ${FORMATS[data.format]} · ${scheduleText(data.schedule)} · ${data.mode === "otb" ? "over the board" : "online"} · ${data.entrants.length}/${data.cap} entrants${when} · director ${data.director.name} · ${data.status}`;
  const bar = $("ev-actions");
  bar.replaceChildren();
  const mine = data.entrants.find((e) => e.id === data.me.entrant);
  if (me && data.status === "registration") {
    if (!mine) bar.append(button("Register", "/register", {}, "register"));
    else {
      if (!mine.checked_in) bar.append(button("Check in", "/checkin", {}, "checkin"));
      else bar.append("You are checked in. ");
      bar.append(button("Withdraw", "/withdraw", {}));
    }
  } else if (me && mine && (data.status === "running" || data.status === "paused") && mine.status === "playing") {
    bar.append(button("Withdraw (forfeit the rest)", "/withdraw", {}));
  }
  bar.append(" ", el("a", { href: `/events/${data.id}/scorecard` }, "Score cards"),
    " · ", el("a", { href: `/api/events/${data.id}/scorecards.csv` }, "CSV"),
    " · ", el("a", { href: `/api/events/${data.id}/scorecards.json` }, "JSON"));
  renderMine(data, mine);
  const svg = data.format === "single_elimination" ? drawBracket($("bracket"), data) : null;
  $("bracket").hidden = !svg;
  $("bracket").previousElementSibling.hidden = !svg;
  renderStandings(data);
  renderMatches(data);
  const ol = $("entrants");
  ol.replaceChildren();
  const bySeed = [...data.entrants].sort((a, b) => (a.seed ?? 1e9) - (b.seed ?? 1e9) || a.id - b.id);
  for (const e of bySeed) {
    ol.append(el("li", {}, `${e.name}${e.bot ? " (bot)" : ""}${e.seed ? ` — seed ${e.seed}` : ""}${data.status === "registration" ? (e.checked_in ? " ✓ checked in" : " — not checked in") : ""}${e.status === "no_show" || e.status === "withdrawn" ? ` — ${e.status.replace("_", "-")}` : ""}`));
  }
  renderConsole(data);
  const log = $("log");
  log.replaceChildren();
  for (const a of data.actions) log.append(el("li", {}, `${new Date(a.at).toLocaleTimeString()} ${a.kind}${a.note ? `: ${a.note}` : ""}`));
  clearTimeout(timer);
  if (data.status === "running" || data.status === "paused") timer = setTimeout(refreshEvent, 3000);
}

function renderMine(data, mine) {
  const box = $("ev-mine");
  box.replaceChildren();
  if (!mine) return;
  for (const m of allMatches(data)) {
    if (m.a !== mine.id && m.b !== mine.id) continue;
    const playing = m.games.find((g) => g.status === "playing");
    if (playing) box.append(el("p", { class: "hint" }, `Your match ${m.id} v ${m.a === mine.id ? m.b_name : m.a_name}: `, el("a", { href: `/table/${playing.table_id}`, id: "my-table" }, `play game ${playing.number}`)));
    if (data.mode === "otb" && m.ready) {
      const reported = m.games.find((g) => g.status === "reported" || g.status === "disputed");
      if (reported && reported.status === "reported" && reported.reported_by !== me.id) {
        box.append(el("p", { class: "hint" }, `${m.id}: your opponent entered ${scoreText(reported, m)}. `,
          button("Confirm (sign)", `/games/${reported.id}/confirm`, {}, "confirm"),
          button("Dispute", `/games/${reported.id}/dispute`, () => ({ note: prompt("What is wrong with this score?") || "" }), "dispute")));
      } else if (reported) {
        box.append(el("p", {}, `${m.id}: game ${reported.number} ${reported.status} (${scoreText(reported, m)}), waiting for ${reported.status === "disputed" ? "the director" : "your opponent"}.`));
      } else {
        const fa = el("input", { type: "number", min: 0, id: "score-a", "aria-label": m.a_name });
        const fb = el("input", { type: "number", min: 0, id: "score-b", "aria-label": m.b_name });
        const f = el("form", { id: "report-form" }, `${m.id} game ${m.games.filter((g) => g.kind === "game" && g.status !== "void").length + 1}: ${m.a_name} `, fa, ` – `, fb, ` ${m.b_name} `, el("button", {}, "Enter score"));
        f.addEventListener("submit", (ev) => { ev.preventDefault(); act(`/matches/${m.id}/report`, { score_a: Number(fa.value), score_b: Number(fb.value) }); });
        box.append(f);
      }
    }
  }
}

function renderStandings(data) {
  const t = $("standings");
  t.replaceChildren();
  $("standings-wrap").hidden = !data.standings.length;
  t.append(el("tr", {}, ...["#", "Entrant", "Points", "W", "L", "Games", "Tiebreaks"].map((h) => el("th", {}, h))));
  for (const s of data.standings) {
    t.append(el("tr", {}, el("td", {}, s.rank), el("td", {}, s.name), el("td", { class: "num" }, s.points),
      el("td", { class: "num" }, s.wins), el("td", { class: "num" }, s.losses),
      el("td", { class: "num" }, `${s.game_wins}–${s.game_losses}`), el("td", {}, (s.tiebreaks || []).map((x) => +Number(x).toFixed(2)).join(", "))));
  }
}

function renderMatches(data) {
  const box = $("matches");
  box.replaceChildren();
  (data.rounds || []).forEach((rnd, i) => {
    const ul = el("ul");
    for (const m of rnd) {
      const head = el("a", { href: `/events/${data.id}/matches/${m.id}` }, m.id);
      const who = m.bye ? `${m.a_name} (bye)` : `${m.a_name ?? "?"} v ${m.b_name ?? "?"}`;
      const li = el("li", { "data-match": m.id }, head, `: ${who} — ${m.wins.join("–")} (best of ${m.best_of})${m.winner_name ? `, ${m.winner_name} wins` : ""}`);
      if (m.games.length) {
        const gl = el("ul");
        for (const g of m.games) gl.append(gameItem(data, m, g));
        li.append(gl);
      }
      ul.append(li);
    }
    box.append(el("h4", {}, `Round ${i + 1}`), ul);
  });
}

function renderConsole(data) {
  $("console").hidden = !data.me.director;
  if (!data.me.director) return;
  const body = $("console-body");
  body.replaceChildren();
  const row = el("p");
  if (data.status === "registration") {
    const bot = el("select", { id: "bot-kind" });
    for (const b of ["greedy", "random", "easy", "medium", "hard", "expert"]) bot.append(el("option", { value: b }, b));
    const n = el("input", { type: "number", min: 1, max: 256, value: 1, id: "bot-count" });
    row.append("Add ", n, " ", bot, " ", button("bots", "/bots", () => ({ bot: bot.value, count: Number(n.value) }), "add-bots"), " ",
      button("Start the event", "/start", {}, "start"));
  }
  if (data.status === "running") row.append(button("Pause", "/pause", () => ({ note: note.value }), "pause"));
  if (data.status === "paused") row.append(button("Resume", "/resume", () => ({ note: note.value }), "resume"));
  const note = el("input", { class: "note", id: "console-note", placeholder: "note for the log", maxlength: 500 });
  row.append(" Note: ", note);
  body.append(row);
  if (data.status !== "running" && data.status !== "paused") return;
  for (const m of allMatches(data).filter((x) => x.ready)) {
    const who = el("select", {}, el("option", { value: m.a }, m.a_name), el("option", { value: m.b }, m.b_name));
    const sa = el("input", { type: "number", min: 0, placeholder: m.a_name });
    const sb = el("input", { type: "number", min: 0, placeholder: m.b_name });
    const open = m.games.find((g) => g.status === "playing" || g.status === "reported" || g.status === "disputed");
    const gid = open ? open.id : null;
    body.append(el("p", { "data-console": m.id }, `${m.id} ${m.a_name} v ${m.b_name}${open ? ` (game ${open.number} ${open.status})` : ""}: `, who, " ",
      button("forfeits", `/matches/${m.id}/forfeit`, () => ({ loser: Number(who.value), note: note.value })),
      button("bogus play (150–100)", `/matches/${m.id}/ruling`, () => ({ kind: "bogus", offender: Number(who.value), game_id: gid, note: note.value })),
      " score ", sa, "–", sb,
      button("rule score", `/matches/${m.id}/ruling`, () => ({ kind: "score", score_a: Number(sa.value), score_b: Number(sb.value), winner: Number(who.value), game_id: gid, note: note.value }))));
  }
  const finals = allMatches(data).flatMap((m) => m.games.filter((g) => g.final).map((g) => [m, g]));
  if (finals.length) {
    const sel = el("select", { id: "reopen-game" });
    for (const [m, g] of finals.slice(-40)) sel.append(el("option", { value: g.id }, `${m.id} game ${g.number}: ${scoreText(g, m)}`));
    const again = el("button", { id: "reopen" }, "reopen");
    again.addEventListener("click", () => act(`/games/${sel.value}/reopen`, { note: note.value }));
    body.append(el("p", {}, "Reopen ", sel, " ", again));
  }
  const ent = el("select", { id: "replace-entrant" });
  for (const e of data.entrants) ent.append(el("option", { value: e.id }, e.name));
  const user = el("input", { placeholder: "username or bot:greedy", id: "replace-with" });
  const rep = el("button", {}, "replace");
  rep.addEventListener("click", () => {
    const v = user.value.trim();
    const body = v.startsWith("bot:") ? { bot: v.slice(4) } : { username: v };
    act(`/entrants/${ent.value}/replace`, { ...body, note: note.value });
  });
  body.append(el("p", {}, "Replace ", ent, " with ", user, " ", rep));
}

async function refreshEvent() {
  try { render(await api("GET", `/api/events/${parts[1]}`)); } catch (e) { fail("ev-error")(e); }
}

// -- a match ----------------------------------------------------------------------------------------

async function showMatch() {
  $("match").hidden = false;
  const { event, match: m } = await api("GET", `/api/events/${parts[1]}/matches/${parts[3]}`);
  $("m-title").textContent = `${event.name} — ${m.id}`;
  $("m-info").textContent = m.bye ? `${m.a_name} has a bye.` : `${m.a_name} v ${m.b_name}, best of ${m.best_of}: ${m.wins.join("–")}${m.winner_name ? `, ${m.winner_name} wins` : ""}`;
  $("m-back").href = `/events/${event.id}`;
  const t = $("m-games");
  t.append(el("tr", {}, ...["Game", m.a_name || "", m.b_name || "", "Winner", "How", "Replay"].map((h) => el("th", {}, h))));
  for (const g of m.games) {
    const link = g.table_id ? el("a", { href: g.status === "playing" ? `/table/${g.table_id}` : `/replay/${g.table_id}`, class: "replay" }, g.status === "playing" ? "live" : "replay") : "";
    t.append(el("tr", {}, el("td", {}, g.number || "–"), el("td", { class: "num" }, g.score_a ?? ""), el("td", { class: "num" }, g.score_b ?? ""),
      el("td", {}, g.winner_name || ""), el("td", {}, `${g.status}${g.reason ? `, ${g.reason}` : ""}${g.note ? ` — ${g.note}` : ""}`), el("td", {}, link)));
  }
}

// -- leaderboard ------------------------------------------------------------------------------------

async function showBoard() {
  $("board").hidden = false;
  const { games } = await api("GET", "/api/games");
  for (const g of games) $("lb-game").append(el("option", { value: g.game }, g.title));
  const load = async () => {
    const { ratings } = await api("GET", `/api/ratings?game=${encodeURIComponent($("lb-game").value)}&category=${encodeURIComponent($("lb-cat").value)}`);
    const t = $("lb");
    t.replaceChildren(el("tr", {}, ...["#", "Player", "Rating", "μ", "σ", "Games"].map((h) => el("th", {}, h))));
    for (const r of ratings) t.append(el("tr", {}, el("td", {}, r.rank), el("td", {}, r.name + (r.bot ? " (bot)" : "")), el("td", { class: "num" }, r.ordinal.toFixed(1)), el("td", { class: "num" }, r.mu.toFixed(1)), el("td", { class: "num" }, r.sigma.toFixed(2)), el("td", { class: "num" }, r.games)));
    if (!ratings.length) t.append(el("tr", {}, el("td", { colspan: 6 }, "No rated games yet.")));
  };
  $("lb-game").addEventListener("change", load);
  $("lb-cat").addEventListener("change", load);
  await load();
}

// -- score cards (print) -----------------------------------------------------------------------------

async function showCards() {
  const data = await api("GET", `/api/events/${parts[1]}`);
  const signed = {};
  for (const r of (await api("GET", `/api/events/${parts[1]}/scorecards.json`)).cards) signed[`${r.match}/${r.game}`] = r;
  document.title = `${data.name} — score cards`;
  $("sc-title").textContent = `${data.name} — official score cards`;
  $("sc-info").textContent = `${data.title}${data.options.preset ? ` (${data.options.preset})` : ""} · ${FORMATS[data.format]} · ${scheduleText(data.schedule)} · director ${data.director.name}`;
  $("sc-print").addEventListener("click", () => window.print());  // (no inline handler: the CSP)
  $("sc-csv").href = `/api/events/${data.id}/scorecards.csv`;
  $("sc-json").href = `/api/events/${data.id}/scorecards.json`;
  const box = $("cards");
  for (const m of allMatches(data)) {
    if (m.bye || m.a === null || m.b === null) continue;
    const t = el("table", { class: "card-table" });
    t.append(el("tr", {}, ...["Game", m.a_name, m.b_name, "Winner", "Status", "Entered by", "Signed by", "Note"].map((h) => el("th", {}, h))));
    const games = m.games.filter((g) => g.kind === "game");
    for (let i = 0; i < Math.max(m.best_of, games.length); i++) {
      const g = games[i];
      t.append(el("tr", {}, el("td", {}, i + 1), el("td", { class: "num" }, g?.score_a ?? ""), el("td", { class: "num" }, g?.score_b ?? ""),
        el("td", {}, g?.winner_name ?? ""), el("td", {}, g ? g.status : ""), el("td", {}, (g && signed[`${m.id}/${g.number}`]?.reported_by) || ""), el("td", {}, (g && signed[`${m.id}/${g.number}`]?.confirmed_by) || ""), el("td", {}, g?.note ?? "")));
    }
    const forfeit = m.games.find((g) => g.kind === "forfeit");
    box.append(el("div", { class: "card", "data-match": m.id },
      el("h3", {}, `${m.id} · round ${m.round} · best of ${m.best_of}`),
      el("p", {}, `${m.a_name} v ${m.b_name}${m.winner_name ? ` — winner ${m.winner_name} (${m.wins.join("–")})` : ""}${forfeit ? ` — forfeit: ${forfeit.note || ""}` : ""}`),
      t, el("p", { class: "sign" }, `Signature ${m.a_name}: ________________   Signature ${m.b_name}: ________________`)));
  }
}

async function main() {
  try { me = (await api("GET", "/api/me")).user; } catch { me = null; }
  $("who") && ($("who").textContent = me ? me.display_name : "");
  if (document.body.classList.contains("scorecard")) return showCards();
  if (parts[0] === "leaderboard") return showBoard();
  if (parts[0] === "events" && parts.length >= 4 && parts[2] === "matches") return showMatch();
  if (parts[0] === "events" && parts.length >= 2) {
    $("event").hidden = false;
    return refreshEvent();
  }
  return showList();
}

main();
