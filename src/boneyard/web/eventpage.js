// One event's page (/events/{id}): what it is, the winner once there is one, your own match
// (check in, countdown, your table, cards to sign), the bracket, crosstables, standings, every
// match by round, the entrants and the log. The director's console is director.js.
import { api, el } from "/static/api.js";
import { ask } from "/static/ask.js";
import { drawBracket } from "/static/bracket.js";
import { FORMATS } from "/static/eventform.js";
import { crossTable, mark, scoreText, standingsTable, statusText } from "/static/results.js";

const $ = (id) => document.getElementById(id);

export function scheduleText(s) {
  if (s === "pda") return "PDA: best of 5, final best of 7";
  if (/^bo\d+$/.test(s || "")) return `best of ${s.slice(2)}`;
  return s ? `best of ${s.replace(/,/g, ", ")} by round` : "";
}

export function whenText(iso) {
  return iso ? new Date(iso).toLocaleString([], { dateStyle: "medium", timeStyle: "short" }) : "";
}

// "4:59" to `until`, or "" once it has passed.
export function countdown(until) {
  const s = Math.max(0, Math.round((new Date(until) - Date.now()) / 1000));
  return s ? `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}` : "";
}

export function allMatches(data) {
  return (data.rounds || []).flat();
}

export function statusWords(data) {
  return { registration: "registration open", running: "in play", paused: "paused", finished: "finished", cancelled: "cancelled" }[data.status] || data.status;
}

// Runs an action of the page (POST to the event's API), then redraws with the answer.
export async function act(ctx, path, body, method = "POST") {
  $("ev-error").textContent = "";
  try {
    const data = await api(method, `/api/events/${ctx.data.id}${path}`, body || {});
    if (data && data.message) $("ev-error").textContent = data.message;
    if (data && data.id) ctx.render(data);
    return data;
  } catch (e) { $("ev-error").textContent = e.message; return null; }
}

export function button(ctx, text, path, body, opts = {}) {
  const b = el("button", { type: "button", ...(opts.id ? { id: opts.id } : {}), ...(opts.cls ? { class: opts.cls } : {}) }, text);
  b.addEventListener("click", async () => {
    const payload = typeof body === "function" ? body() : body;
    if (opts.confirm && !(await ask(opts.confirm, opts.detail, opts.yes || text))) return;
    await act(ctx, typeof path === "function" ? path() : path, payload, opts.method);
  });
  return b;
}

function infoLine(data) {
  const rules = data.rules && data.rules.length ? ` (${data.rules.join("; ")})` : "";
  const where = data.mode === "otb" ? "over the board" : "online";
  const directors = data.directors.map((d) => d.name).join(", ");
  return `${data.title}${rules} · ${FORMATS[data.format]} · ${scheduleText(data.schedule)} · ${where} · ${data.entrants.length}/${data.cap} entrants · run by ${directors} · ${statusWords(data)}`;
}

function whenLine(data) {
  const bits = [];
  if (data.status === "registration") {
    if (data.starts_at) bits.push(`Starts ${whenText(data.starts_at)}${data.settings.auto_start ? " (automatically)" : " (by the director)"}`);
    bits.push(data.checkin.open ? "check-in is open" : data.checkin.why);
  } else if (data.started_at) bits.push(`Started ${whenText(data.started_at)}`);
  if (data.finished_at) bits.push(`${data.status === "cancelled" ? "Cancelled" : "Finished"} ${whenText(data.finished_at)}`);
  if (data.mode === "online" && data.status !== "finished") bits.push(`Move clock: ${data.clock.per_move} s a move, then ${data.clock.grace} s of warning`);
  if (!["finished", "cancelled"].includes(data.status)) bits.push(`a player not there when their match is ready gets ${data.settings.grace_minutes} minutes`);
  const text = bits.join(" · ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function myActions(ctx, data, me, mine) {
  const bar = $("ev-actions");
  bar.replaceChildren();
  const running = data.status === "running" || data.status === "paused";
  if (me && !data.me.director && data.status === "registration") {
    if (!mine) bar.append(button(ctx, "Register", "/register", {}, { id: "register", cls: "big" }));
    else {
      if (!mine.checked_in) bar.append(button(ctx, "Check in", "/checkin", {}, { id: "checkin", cls: "big" }));
      else bar.append("You are checked in. ");
      bar.append(button(ctx, "Withdraw", "/withdraw", {}, { id: "withdraw", confirm: "Withdraw from this event?", detail: "Your place goes to nobody; you may register again while registration is open." }));
    }
  } else if (me && !data.me.director && running && !mine && data.format === "swiss" && data.settings.late_entry) {
    bar.append(button(ctx, "Enter late", "/register", {}, { id: "register", cls: "big", confirm: "Enter now?", detail: "You are paired from the next round on; the rounds you missed score nothing." }));
  } else if (me && mine && running && mine.status !== "withdrawn") {
    if (!mine.checked_in) bar.append(button(ctx, "I am here: check in", "/checkin", {}, { id: "checkin", cls: "big" }), " ");
    bar.append(button(ctx, "Withdraw (forfeit the rest)", "/withdraw", {}, { id: "withdraw", confirm: "Withdraw from the event?", detail: "Every match you have left is forfeited. This cannot be undone.", yes: "Withdraw" }));
  }
  bar.append(" ", el("a", { href: `/events/${data.id}/scorecard` }, "Score cards"),
    " · Export: ", el("a", { href: `/api/events/${data.id}/export.json` }, "everything (JSON)"),
    " · ", el("a", { href: `/api/events/${data.id}/standings.csv` }, "standings (CSV)"),
    " · ", el("a", { href: `/api/events/${data.id}/scorecards.csv` }, "cards (CSV)"),
    " · ", el("a", { href: `/api/events/${data.id}/log.csv` }, "log (CSV)"));
}

// Your matches: the table to play at, the countdown while one side is awaited, cards to sign.
function renderMine(ctx, data, me, mine) {
  const box = $("ev-mine");
  box.replaceChildren();
  if (!mine) return;
  for (const m of allMatches(data)) {
    if ((m.a !== mine.id && m.b !== mine.id) || m.over) continue;
    const them = m.a === mine.id ? m.b_name : m.a_name;
    const p = el("p", { class: "hint mine-match", "data-match": m.id }, `Your match ${m.id}${m.table && data.mode === "otb" ? ` (table ${m.table})` : ""} v ${them || "the winner of an earlier match"}: `);
    const live = m.games.find((g) => g.status === "playing");
    if (live) p.append(el("a", { href: `/table/${live.table_id}`, id: "my-table", class: "button" }, `Play game ${live.number}`));
    for (const w of m.waiting || []) p.append(el("span", { class: "wait", role: "timer", "data-until": w.until }, ` waiting for ${w.name}: forfeit in ${countdown(w.until)}`));
    if (data.mode === "otb" && m.ready) p.append(" ", el("a", { href: `/events/${data.id}/matches/${m.id}` }, "the score card"));
    box.append(p);
  }
}

function renderMatches(data) {
  const box = $("matches");
  box.replaceChildren();
  $("matches-head").hidden = !(data.rounds || []).length;
  (data.rounds || []).forEach((rnd, i) => {
    const ul = el("ul", { class: "matches" });
    for (const m of rnd) {
      const head = el("a", { href: `/events/${data.id}/matches/${m.id}` }, m.id);
      const who = m.bye ? `${m.a_name} (bye)` : `${m.a_name ?? "?"} v ${m.b_name ?? "?"}`;
      const li = el("li", { "data-match": m.id }, head, m.table && !m.bye && data.mode === "otb" ? ` · table ${m.table}` : "", `: ${who}`,
        m.bye ? "" : ` — ${m.wins.join("–")} (best of ${m.best_of})`, m.winner_name && !m.bye ? `, ${m.winner_name} wins ` : " ");
      if (m.outcome && !["played", "bye"].includes(m.outcome)) li.append(mark(m.outcome_label));
      for (const w of m.waiting || []) li.append(el("span", { class: "wait", "data-until": w.until }, ` waiting for ${w.name}: forfeit in ${countdown(w.until)}`));
      const games = m.games.filter((g) => g.kind === "game" || g.kind === "forfeit");
      if (games.length) {
        const gl = el("ul", { class: "games" });
        for (const g of games) gl.append(gameItem(m, g));
        li.append(gl);
      }
      ul.append(li);
    }
    box.append(el("h3", {}, (data.round_titles || [])[i] || `Round ${i + 1}`), ul);
  });
}

export function gameItem(m, g) {
  const li = el("li", { "data-game": g.id, class: g.status === "void" ? "void" : "" }, g.kind === "forfeit" ? "" : `Game ${g.number}: `, scoreText(g, m), " ");
  if (g.reason && !["target"].includes(g.reason)) li.append(mark(g.reason_label), " ");
  li.append(el("span", { class: "tag" }, statusText(g)));
  if (g.by_director) li.append(" ", el("span", { class: "tag" }, "entered by the director"));
  if (g.table_id) li.append(" ", g.status === "playing" ? el("a", { href: `/table/${g.table_id}` }, "watch / play") : el("a", { href: `/replay/${g.table_id}`, class: "replay" }, "replay"));
  if (g.note) li.append(" ", el("em", {}, g.note));
  return li;
}

function renderEntrants(data) {
  const ol = $("entrants");
  ol.replaceChildren();
  const bySeed = [...data.entrants].sort((a, b) => (a.seed ?? 1e9) - (b.seed ?? 1e9) || a.id - b.id);
  for (const e of bySeed) {
    const state = e.status === "no_show" ? "no-show" : e.status === "withdrawn" ? "withdrawn" : e.checked_in ? "checked in" : "not checked in";
    ol.append(el("li", { "data-entrant": e.id }, `${e.name}${e.bot ? " (bot)" : ""}${e.seed ? ` — seed ${e.seed}` : ""} `, el("span", { class: `tag state-${state.replace(/ /g, "-")}` }, state)));
  }
}

function renderLog(data) {
  const log = $("log");
  log.replaceChildren();
  for (const a of [...data.actions].reverse().slice(0, 200)) {
    log.append(el("li", { class: a.undone ? "void" : "" }, `${new Date(a.at).toLocaleString([], { dateStyle: "short", timeStyle: "short" })} `,
      el("b", {}, a.kind.replace(/_/g, " ")), a.by ? ` by ${a.by}` : "", a.payload && a.payload.match ? ` (${a.payload.match})` : "", a.note ? `: ${a.note}` : "", a.undone ? " — undone" : ""));
  }
}

// The whole page from the event JSON.
export function renderEvent(ctx, data, me) {
  document.body.dataset.status = data.status;
  document.title = `Boneyard — ${data.name}`;
  $("ev-title").textContent = data.name;
  $("ev-info").textContent = infoLine(data);
  $("ev-when").textContent = whenLine(data);
  const champ = $("ev-champion");
  champ.hidden = !data.champion;
  if (data.champion) champ.replaceChildren("Winner: ", el("b", { id: "winner" }, data.champion.name));
  const mine = data.entrants.find((e) => e.id === data.me.entrant);
  myActions(ctx, data, me, mine);
  renderMine(ctx, data, me, mine);
  $("bracket-box").hidden = !drawBracket($("bracket"), data);
  const cross = data.crosstables || [];
  $("cross-box").hidden = !cross.length;
  $("crosstables").replaceChildren(...cross.map(crossTable));
  $("standings-box").hidden = !(data.standings || []).length;
  $("standings-wrap").replaceChildren(...((data.standings || []).length ? standingsTable(data) : []));
  renderMatches(data);
  renderEntrants(data);
  renderLog(data);
}

// Keeps every countdown on the page current.
export function tickCountdowns() {
  for (const w of document.querySelectorAll("[data-until]")) {
    const left = countdown(w.dataset.until);
    w.textContent = w.textContent.replace(/forfeit in .*$/, left ? `forfeit in ${left}` : "forfeit now");
  }
}
