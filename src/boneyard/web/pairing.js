// Quick pairing on the home page (boneyard.server.lobby.pairing): choose a game, the number of
// players and a clock, press Play, and wait with the people who chose the same; the table
// opens when the pool fills. The waiting page asks the server with a held question (it answers
// on news, or after 20 s), so it hears of its table at once, even from a tab in the background;
// a bot is offered after the site's time, and may be taken at any moment.
import { api, cookie, el } from "/static/api.js";

const $ = (id) => document.getElementById(id);
let waiting = null; // the server's last word on our wait ({pool, waited, here, bot_offered, …})
let shownAt = 0; // performance.now() when it came
let asking = false;
let leaving = false; // (going to our table: the wait is not cancelled on the way out)
let ticker = null;
let ensureUser = async () => null;
const games = {}; // name -> {title, min_players, max_players}
// This tab is waiting (kept across a reload, in this tab only): a home page loaded here follows
// the pairing made meanwhile; any other (another tab, or this one after the game) stays home.
const TAB_WAITS = "boneyard-waiting";
function tabWaits(on) {
  try {
    if (on === undefined) return sessionStorage.getItem(TAB_WAITS) === "1";
    if (on) sessionStorage.setItem(TAB_WAITS, "1"); else sessionStorage.removeItem(TAB_WAITS);
  } catch { /* (storage refused: a reload at the moment of the pairing stays home) */ }
  return false;
}

function poolWords(p) {
  return `${p.title}, ${p.players} players, ${p.clock} s a move`;
}

function minutes(s) {
  const t = Math.max(0, Math.floor(s));
  return `${Math.floor(t / 60)}:${String(t % 60).padStart(2, "0")}`;
}

function chosen() {
  return { game: $("pair-game").value, players: Number($("pair-players").value), clock: Number($("pair-clock").value) };
}

function renderWaiting() {
  const box = $("waiting");
  box.hidden = !waiting;
  $("play-now").disabled = Boolean(waiting);
  if (!waiting) { clearInterval(ticker); ticker = null; return; }
  const p = waiting.pool;
  const more = Math.max(1, p.players - waiting.here);
  const waited = waiting.waited + (performance.now() - shownAt) / 1000;
  const text = $("waiting-text");
  text.replaceChildren(el("span", { class: "spinner", "aria-hidden": "true" }),
    `Looking for ${more} more player${more > 1 ? "s" : ""}: ${poolWords(p)}. `,
    el("span", { class: "note", id: "waited" }, `Waited ${minutes(waited)}.`));
  $("bot-offer").hidden = !waiting.bot_offered;
  document.body.dataset.pairing = waiting.bot_offered ? "offered" : "waiting";
  if (!ticker) ticker = setInterval(() => { if (waiting) renderTick(); }, 1000);
}

function renderTick() {
  const node = $("waited");
  if (node) node.textContent = `Waited ${minutes(waiting.waited + (performance.now() - shownAt) / 1000)}.`;
}

// The server's answer: go to our table, show our wait (and keep asking), or nothing.
function heard(res) {
  tabWaits(Boolean(res.waiting));
  if (res.table) {
    leaving = true;
    document.body.dataset.pairing = "paired";
    location.href = `/table/${res.table}`;
    return;
  }
  const started = !waiting && res.waiting;
  const changed = Boolean(waiting) !== Boolean(res.waiting);
  waiting = res.waiting;
  shownAt = performance.now();
  if (!waiting) document.body.dataset.pairing = "";
  renderWaiting();
  renderPools();
  if (changed) loadPools().catch(() => {}); // (the counts with this wait, or without it, at once)
  if (started) $("waiting").scrollIntoView({ block: "nearest" });
  if (waiting) keepAsking();
}

async function keepAsking() {
  if (asking) return;
  asking = true;
  try {
    while (waiting && !leaving) {
      try {
        const res = await api("GET", "/api/pairing?hold=1");
        if (res.table || !res.waiting) { heard(res); break; }
        const offered = waiting && waiting.bot_offered;
        waiting = res.waiting;
        shownAt = performance.now();
        if (res.waiting.bot_offered !== offered) renderWaiting(); else renderTick();
      } catch (e) {
        $("play-error").textContent = navigator.onLine ? e.message : "You are offline: the wait goes on once you are back.";
        await new Promise((r) => setTimeout(r, 2000));
      }
    }
  } finally { asking = false; }
}

async function act(method, path, body) {
  $("play-error").textContent = "";
  try {
    await ensureUser();
    heard(await api(method, path, body));
  } catch (e) {
    $("play-error").textContent = navigator.onLine ? e.message : "You are offline: playing needs the connection.";
  }
}

export function play(pool = chosen()) {
  return act("POST", "/api/pairing", pool);
}

function renderPlayers() {
  const g = games[$("pair-game").value];
  if (!g) return;
  const sel = $("pair-players");
  const was = Number(sel.value) || 2;
  sel.replaceChildren();
  for (let n = g.min_players; n <= g.max_players; n++) sel.append(el("option", { value: String(n) }, String(n)));
  sel.value = String(Math.max(g.min_players, Math.min(g.max_players, was)));
}

// The pools people wait in, with a Join button each; the count of the pool chosen in the form.
let lastPools = [];
export function renderPools(pools = lastPools) {
  lastPools = pools;
  const list = $("pools");
  const mine = waiting ? waiting.pool.key : null;
  const items = pools.map((p) => {
    const attrs = { "data-pool": p.key, class: p.key === mine ? "mine" : "" };
    return el("li", attrs, `${poolWords(p)}: ${p.waiting} waiting`,
      p.key === mine ? el("span", { class: "note" }, "(you)")
        : el("button", { type: "button", class: "small", onclick: () => play({ game: p.game, players: p.players, clock: p.clock }), "aria-label": `Join: ${poolWords(p)}` }, "Join"));
  });
  if (!items.length) items.push(el("li", { class: "none" }, "Nobody is waiting right now: press Play and be the first."));
  list.replaceChildren(...items);
  const c = chosen();
  const here = pools.find((p) => p.game === c.game && p.players === c.players && p.clock === c.clock);
  $("pool-count").textContent = here ? `${here.waiting} waiting for this game` : "";
}

export async function loadPools() {
  const { pools } = await api("GET", "/api/pairing/pools");
  renderPools(pools);
}

// The form's choices, a wait this person already has (a reload), and the buttons.
export function initPairing(list, getUser) {
  ensureUser = getUser;
  const sel = $("pair-game");
  if (!sel.options.length) {
    for (const g of list) {
      games[g.game] = g;
      sel.append(el("option", { value: g.game }, g.title));
    }
    renderPlayers();
  }
  sel.addEventListener("change", () => { renderPlayers(); renderPools(); });
  $("pair-players").addEventListener("change", () => renderPools());
  $("pair-clock").addEventListener("change", () => renderPools());
}

// A home page that loads: shows the person's wait (a reload while waiting), or goes to the table
// just made for this tab (a reload at the moment of the pairing).
export async function resumeWait() {
  try {
    const res = await api("GET", "/api/pairing");
    if (res.table && !tabWaits()) return; // (paired before, elsewhere: not sent back there)
    heard(res);
  } catch { /* (signed out, or offline) */ } finally {
    document.body.dataset.resumed = "yes"; // (what came of it is shown: for the tests)
  }
}

$("pair-form").addEventListener("submit", (ev) => { ev.preventDefault(); play(); });
$("cancel-wait").addEventListener("click", () => act("DELETE", "/api/pairing"));
$("bot-instead").addEventListener("click", () => act("POST", "/api/pairing/bot"));
// Leaving the page while waiting ends the wait (nobody is paired with a closed tab).
window.addEventListener("pagehide", () => {
  if (!waiting || leaving) return;
  fetch("/api/pairing", { method: "DELETE", keepalive: true, credentials: "same-origin", headers: { "X-CSRF-Token": cookie("boneyard_csrf") } });
});
