// One event's page (/tournaments/{id}): what it is, the winner once there is one, your own match
// (check in, countdown, your table, cards to sign), the bracket, crosstables, standings, every
// match by round, the entrants and the log. The director's console is director.js.
import { api, el } from "/static/api.js";
import { ask } from "/static/ask.js";
import { drawBracket } from "/static/bracket.js";
import { FORMATS } from "/static/tournamentform.js";
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

// A message next to the control that caused it (a refusal, or what happened), in a live region:
// never at the top of a long page. `anchor` is the control (or its `data-key`, to find it again
// once the page has redrawn); without one, the page's own message line.
export function say(anchor, text, bad = true) {
  for (const old of document.querySelectorAll(".said")) old.remove();
  if (!text) return;
  let at = typeof anchor === "string" ? document.querySelector(`[data-key="${CSS.escape(anchor)}"]`) : anchor;
  if (at && !at.isConnected) at = at.dataset.key ? document.querySelector(`[data-key="${CSS.escape(at.dataset.key)}"]`) : null;
  if (!at) at = document.querySelector(".console-tab:not([hidden]) .tab-said") || $("ev-error");
  const folded = at.closest("details:not([open])");
  if (folded) at = folded; // (a control in a closed fold: say it beside the fold)
  const note = el("span", { class: `said ${bad ? "bad" : "good"}`, role: bad ? "alert" : "status" }, text);
  if (at.classList.contains("tab-said") || at.id === "ev-error") at.replaceChildren(note);
  else at.insertAdjacentElement("afterend", note);
}

// Runs an action of the page (a request to the event's API), then redraws with the answer; a
// refusal or the answer's message is shown next to `anchor` (say).
export async function act(ctx, path, body, method = "POST", anchor = null) {
  $("ev-error").textContent = "";
  const key = anchor && anchor.dataset ? anchor.dataset.key : null;
  try {
    const data = await api(method, `/api/tournaments/${ctx.data.id}${path}`, body || {});
    if (data && data.id) ctx.render(data);
    say(key || anchor, data && data.message ? data.message : "", false);
    return data;
  } catch (e) { say(anchor, e.message); return null; }
}

export function button(ctx, text, path, body, opts = {}) {
  const attrs = { type: "button", ...(opts.id ? { id: opts.id } : {}), ...(opts.cls ? { class: opts.cls } : {}), ...(opts.key ? { "data-key": opts.key } : {}) };
  const b = el("button", attrs, text);
  b.addEventListener("click", async () => {
    let payload;
    try { payload = typeof body === "function" ? body() : body; } catch (e) { say(b, e.message); return; }
    if (opts.confirm && !(await ask(opts.confirm, typeof opts.detail === "function" ? opts.detail() : opts.detail, opts.yes || text))) return;
    await act(ctx, typeof path === "function" ? path() : path, payload, opts.method, b);
  });
  return b;
}

// "1 minute", "10 minutes", "30 seconds".
export function minutesText(m) {
  const n = Number(m);
  if (n < 1) { const s = Math.round(n * 60); return `${s} second${s === 1 ? "" : "s"}`; }
  return `${n} minute${n === 1 ? "" : "s"}`;
}

// What the event's time-out rule does, in words.
export const TIMEOUT_WORDS = { lose: "the player loses the game", bot: "a bot plays on for them", director: "the director decides" };

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
  if (data.mode === "online" && data.status !== "finished") bits.push(`Move clock: ${data.clock.per_move} s a move, then ${data.clock.grace} s of warning; when time runs out, ${TIMEOUT_WORDS[data.clock.timeout] || data.clock.timeout}`);
  if (!["finished", "cancelled"].includes(data.status)) bits.push(`a player not there when their match is ready gets ${minutesText(data.settings.grace_minutes)}`);
  const text = bits.join(" · ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// At the venue: make an account with the event's join code and enter at once.
function joinForm(ctx, code) {
  const user = el("input", { id: "join-username", autocomplete: "username", maxlength: 30, required: "" });
  const pass = el("input", { id: "join-password", type: "password", autocomplete: "new-password", required: "" });
  const go = el("button", { type: "submit", id: "join", class: "big" }, "Make my account and enter");
  const f = el("form", { class: "join-form", id: "join-form" }, el("h2", {}, "Enter this event"),
    el("p", { class: "note" }, "Make an account here (the hall's Wi-Fi is fine): you are entered at once, and your games and rating stay yours."),
    el("label", {}, "Username ", user), " ", el("label", {}, "Password ", pass), " ", go);
  f.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const data = await api("POST", `/api/tournaments/${ctx.data.id}/join`, { code, username: user.value.trim(), password: pass.value });
      location.replace(`/tournaments/${data.id}`);
    } catch (e) { say(go, e.message); }
  });
  return f;
}

function myActions(ctx, data, me, mine) {
  const bar = $("ev-actions");
  bar.replaceChildren();
  const code = new URLSearchParams(location.search).get("join");
  if (!me && code && ["registration", "running"].includes(data.status)) bar.append(joinForm(ctx, code));
  const running = data.status === "running" || data.status === "paused";
  if (me && !data.me.director && data.status === "registration") {
    if (!mine) bar.append(button(ctx, "Register", "/register", {}, { id: "register", cls: "big" }));
    else {
      if (!mine.checked_in && data.checkin.open) bar.append(button(ctx, "Check in", "/checkin", {}, { id: "checkin", cls: "big" }));
      else if (!mine.checked_in) bar.append(`You are not checked in: ${data.checkin.why}. `);
      else bar.append("You are checked in. ");
      bar.append(button(ctx, "Withdraw", "/withdraw", {}, { id: "withdraw", confirm: "Withdraw from this event?", detail: "Your place goes to nobody; you may register again while registration is open." }));
    }
  } else if (me && !data.me.director && running && !mine && data.format === "swiss" && data.settings.late_entry) {
    bar.append(button(ctx, "Enter late", "/register", {}, { id: "register", cls: "big", confirm: "Enter now?", detail: "You are paired from the next round on; the rounds you missed score nothing." }));
  } else if (me && mine && running && mine.status !== "withdrawn" && !mine.dropped) {
    if (!mine.checked_in) bar.append(button(ctx, "I am here: check in", "/checkin", {}, { id: "checkin", cls: "big" }), " ");
    bar.append(button(ctx, "Withdraw (forfeit the rest)", "/withdraw", {}, { id: "withdraw", confirm: "Withdraw from the event?", detail: "Every match you have left is forfeited. This cannot be undone.", yes: "Withdraw" }));
  }
  if (me && !me.guest && !mine && !data.me.director && !data.me.scorekeeper && (data.entrants || []).some((e) => e.walk_in)) bar.append(claimForm(ctx));
  bar.append(" ", el("a", { href: `/tournaments/${data.id}/scorecard` }, "Score cards"),
    " · Export: ", el("a", { href: `/api/tournaments/${data.id}/export.json` }, "everything (JSON)"),
    " · ", el("a", { href: `/api/tournaments/${data.id}/standings.csv` }, "standings (CSV)"),
    " · ", el("a", { href: `/api/tournaments/${data.id}/scorecards.csv` }, "cards (CSV)"),
    " · ", el("a", { href: `/api/tournaments/${data.id}/log.csv` }, "log (CSV)"));
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
    if (data.mode === "otb" && m.ready) p.append(" ", el("a", { href: `/tournaments/${data.id}/matches/${m.id}` }, "the score card"));
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
      const head = el("a", { href: `/tournaments/${data.id}/matches/${m.id}` }, m.id);
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

// "I played as a walk-in": claim the entry with the code the director gave.
function claimForm(ctx) {
  const code = el("input", { id: "claim-code", placeholder: "ABCD-EFGH", maxlength: 20, "aria-label": "claim code", autocomplete: "off" });
  const go = el("button", { type: "submit", id: "claim" }, "Claim my entry");
  const f = el("form", { class: "claim-form" }, el("span", {}, "Played as a walk-in? Claim your entry with the director's code: "), code, " ", go);
  f.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const data = await api("POST", "/api/tournaments/claim", { code: code.value });
      ctx.render(data);
      say("claim-done", "Your entry and its games are now on your account.", false);
    } catch (e) { say(go, e.message); }
  });
  return f;
}

export function gameItem(m, g) {
  const li = el("li", { "data-game": g.id, class: g.status === "void" ? "void" : "" }, g.kind === "forfeit" ? "" : `Game ${g.number}: `, scoreText(g, m), " ");
  if (g.reason && !["target"].includes(g.reason)) li.append(mark(g.reason_label), " ");
  li.append(el("span", { class: "tag" }, g.how || statusText(g)));
  if (g.by_director && !g.paper && ["reported", "disputed"].includes(g.status)) li.append(" ", el("span", { class: "tag" }, "entered by the director"));
  if (g.table_id) li.append(" ", g.status === "playing" ? el("a", { href: `/table/${g.table_id}` }, "watch / play") : el("a", { href: `/replay/${g.table_id}`, class: "replay" }, "replay"));
  if (g.note) li.append(" ", el("em", {}, g.note));
  return li;
}

export function entrantState(e) {
  if (e.dropped) return "dropped: not checked in";
  if (e.status === "no_show") return "no-show";
  if (e.status === "withdrawn") return "withdrawn";
  return e.checked_in ? "checked in" : "not checked in";
}

function renderEntrants(data) {
  const ol = $("entrants");
  ol.replaceChildren();
  const bySeed = [...data.entrants].sort((a, b) => (a.dropped - b.dropped) || (a.seed ?? 1e9) - (b.seed ?? 1e9) || a.id - b.id);
  for (const e of bySeed) {
    const state = entrantState(e);
    ol.append(el("li", { "data-entrant": e.id }, `${e.name}${e.bot ? " (bot)" : ""}${e.club ? ` (${e.club})` : ""}${e.seed ? ` — seed ${e.seed}` : ""} `, el("span", { class: `tag state-${state.split(":")[0].replace(/ /g, "-")}` }, state)));
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
