import { api, el } from "/static/api.js";
import { initBell } from "/static/bell.js";
import { rulesPicker } from "/static/tableoptions.js";
import { initPairing, loadPools, renderPools, resumeWait } from "/static/pairing.js";
import { offlineBanner, registerWorker } from "/static/pwa.js";
import { showWho } from "/static/who.js";

const $ = (id) => document.getElementById(id);
let me = null;
const offline = offlineBanner($("offline"), () => refresh());
let retry = null;
let shown = 0; // how many answers show() has drawn: an older question's answer must not undo a newer one

async function refresh() {
  clearTimeout(retry);
  const asked = shown;
  try {
    const answer = await api("GET", "/api/me");
    offline(!navigator.onLine);
    // A sign-in (or Play as guest) answered while this question was on its way: it is newer.
    if (shown === asked) show(answer);
  } catch (e) {
    if (!(e instanceof TypeError)) { if (shown === asked) show({ user: null }); return; }
    offline(true); // (no answer at all: offline, or the server cannot be reached)
    retry = setTimeout(refresh, 10_000);
  }
}

// Everyone sees Play and the lobby; signing in is optional (a guest is made on the way).
function show({ user }) {
  shown += 1;
  me = user;
  $("auth").hidden = !!user;
  $("signin-link").hidden = !!user;
  showWho(user);
  $("guest-box").hidden = !(user && user.guest);
  if (user && user.guest) {
    $("guest-shown").textContent = user.display_name;
    $("new-name").placeholder = user.display_name;
  }
  $("my-games").hidden = !user;
  $("create-form").hidden = !user;
  $("create-start-row").hidden = !!user;
  loadLobby().then(() => { clockDefault(); poll(); }).catch(() => {});
  if (user) resumeWait();
  initBell(user);
}

// The signed-in person, or a new guest made now (no name yet: the site picks one).
async function ensureUser() {
  if (me) return me;
  const res = await api("POST", "/api/guest", {});
  show(res);
  return res.user;
}

// -- seats of a new table: each other seat is open for a person or a bot of some level --------

let botLevels = ["random", "greedy"];

function seatSelect(i) {
  const sel = el("select", { class: "seat-kind", id: `seat-kind-${i}`, "aria-label": `seat ${i + 1}` });
  sel.append(el("option", { value: "open" }, "open for a person"));
  for (const b of botLevels) sel.append(el("option", { value: `bot:${b}` }, `bot: ${b}`));
  sel.value = $("others").value === "open" ? "open" : `bot:${$("bot").value || "greedy"}`;
  return sel;
}

const games = {}; // name -> its /api/games entry
const picker = rulesPicker();
$("rules-picker").append(...picker.nodes);

// The player count, kept within the chosen game's.
function players() {
  const g = games[$("game").value];
  const n = Math.round(Number($("players").value)) || 2;
  return g ? Math.max(g.min_players, Math.min(g.max_players, n)) : Math.max(2, Math.min(8, n));
}

function renderSeats() {
  const box = $("seat-list");
  const n = players();
  const kept = [...box.querySelectorAll("select.seat-kind")].map((s) => s.value);
  const rows = [el("legend", {}, "Seats"), el("div", { class: "seat-row" }, "Seat 1: you")];
  for (let i = 1; i < n; i++) {
    const sel = seatSelect(i);
    if (kept[i - 1]) sel.value = kept[i - 1];
    rows.push(el("div", { class: "seat-row" }, el("label", {}, `Seat ${i + 1}: `, sel)));
  }
  box.replaceChildren(...rows);
}

function setAllSeats() {
  const value = $("others").value === "open" ? "open" : `bot:${$("bot").value}`;
  for (const s of $("seat-list").querySelectorAll("select.seat-kind")) s.value = value;
}

// A table's status as the lobby says it.
const STATUS = { open: "waiting for players", playing: "playing", over: "finished", aborted: "aborted", closed: "closed" };
const titles = {};

// The game picker's "How to play" link, the player count's limits and the rule options follow
// the game chosen.
function gameChosen() {
  const g = $("game").value;
  $("game-rules").href = `/rules/${g}`;
  $("game-rules").textContent = `How to play ${titles[g] || "it"}`;
  const game = games[g];
  if (!game) return;
  $("players").min = game.min_players;
  $("players").max = game.max_players;
  $("players").value = players();
  renderSeats();
  picker.show(game, players());
  clockDefault();
}

let clockTouched = false;
let defaults = { clock: { per_move: 60, grace: 30 }, bot_pace: 1 };

// The clock follows the seats (on where people play each other) until the person picks one.
function clockDefault() {
  if (clockTouched) return;
  const people = [...$("seat-list").querySelectorAll("select.seat-kind")].some((s) => s.value === "open");
  $("clock").value = people ? String(defaults.clock.per_move) : "";
  $("clock-note").textContent = people ? `(${defaults.clock.per_move} s a move, then ${defaults.clock.grace} s of grace: the default where people play each other)` : "";
}

let listed = null; // the /api/games answer, asked once (beside /api/me: the first screen sooner)
const listing = api("GET", "/api/games");
listing.catch(() => {}); // (offline: refresh says so)

// The lobby: the Play panel's games, the New table form (built once someone is signed in: a
// first visit draws only what it shows), the tables, the pools and the person's games.
async function loadLobby() {
  listed = listed || await listing.catch(() => api("GET", "/api/games"));
  const { games: list, bots, clock, bot_pace: pace } = listed;
  if (!titles.highfive) {
    initPairing(list, ensureUser);
    for (const g of list) titles[g.game] = g.title;
  }
  const game = $("game");
  if (me && !game.options.length) {
    for (const g of list) {
      games[g.game] = g;
      game.append(el("option", { value: g.game }, `${g.title} (${g.min_players}–${g.max_players} players)`));
    }
    for (const b of bots) $("bot").append(el("option", { value: b }, b));
    $("bot").value = "greedy";
    botLevels = bots;
    defaults = { clock: clock || defaults.clock, bot_pace: pace ?? defaults.bot_pace };
    $("bot-pace").options[0].textContent = `normal (${defaults.bot_pace ? `about ${defaults.bot_pace} s a move` : "at once"})`;
    gameChosen();
  }
  await Promise.all([loadTables(), loadPools()]);
  if (!me) return;
  const mine = await api("GET", "/api/me/games");
  const hist = $("history");
  hist.replaceChildren();
  for (const g of mine.games) {
    let what = STATUS[g.status] || g.status;
    if (g.scores) what = `${g.winner === g.seat ? "won" : "lost"} ${g.scores.join("–")}`;
    const item = el("li", {}, el("a", { href: `/table/${g.id}` }, `${titles[g.game] || g.game}: ${g.seats.join(" v ")} — ${what}`));
    if (g.status === "over") {
      item.append(" ", el("a", { href: `/replay/${g.id}`, class: "replay" }, "replay"));
      item.append(" ", el("a", { href: `/api/tables/${g.id}/record`, download: `boneyard-${g.id}.json` }, "record"));
    }
    hist.append(item);
  }
  if (!mine.games.length) hist.append(el("li", {}, "None yet."));
}

// The tables list, asked for again every few seconds while the page is shown: new tables and
// seats taken appear without a reload. Your own tables (and seats kept for you) come first,
// then a page of the others (people waiting at the table first, then games in play).
let page = 1;

function tableItem(t, mine) {
  const seats = t.seats.map((s) => (s.kind === "open" ? (s.invited ? `kept for ${s.invited} (bot)` : "open seat") : s.name + (s.bot_account ? " (bot)" : ""))).join(", ");
  const open = t.seats.filter((s) => s.kind === "open" && !s.invited).length;
  const rules = t.rules && t.rules.length ? ` (${t.rules.join("; ")})` : "";
  const li = el("li", { "data-table": t.id, class: mine ? "mine" : "" }, el("a", { href: `/table/${t.id}` }, `${t.title}${rules} — ${seats} — ${STATUS[t.status] || t.status}${mine ? " — yours" : ""}`));
  if (t.status === "open" && open && !mine) li.append(" ", el("a", { href: `/table/${t.id}`, class: "button small" }, "Take a seat"));
  return li;
}

async function loadTables() {
  const { tables, mine = [], pages = 1 } = await api("GET", `/api/tables?page=${page}`);
  if (page > pages) { page = pages; return loadTables(); }
  const own = new Set(mine.map((t) => t.id));
  const items = [...mine.map((t) => tableItem(t, true)), ...tables.filter((t) => !own.has(t.id)).map((t) => tableItem(t, false))];
  if (!items.length) items.push(el("li", {}, "No open tables yet."));
  $("tables").replaceChildren(...items);
  $("tables-pager").hidden = pages <= 1;
  $("tables-page").textContent = `page ${page} of ${pages}`;
  $("tables-prev").disabled = page <= 1;
  $("tables-next").disabled = page >= pages;
}

let polling = null;
function poll() {
  if (polling) return;
  polling = setInterval(() => {
    if (document.visibilityState === "visible" && navigator.onLine) {
      loadTables().catch(() => {});
      loadPools().catch(() => {});
    }
  }, 3000);
}

function form(id, errorId, fn) {
  $(id).addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $(errorId).textContent = "";
    try { await fn(); } catch (e) { $(errorId).textContent = e.message; }
  });
}

form("register-form", "auth-error", async () => {
  show(await api("POST", "/api/register", {
    username: $("reg-username").value, password: $("reg-password").value,
  }));
});
form("login-form", "auth-error", async () => {
  const answer = await api("POST", "/api/login", {
    username: $("login-username").value, password: $("login-password").value,
  });
  show(answer);
  // Failed attempts on this account since its owner last signed in (someone guessing).
  const failed = answer.failed_sign_ins;
  $("sign-in-notice").hidden = !failed;
  if (failed) {
    const n = failed.count === 1 ? "1 failed attempt" : `${failed.count} failed attempts`;
    $("sign-in-notice").textContent = `${n} to sign in to your account since ${new Date(failed.since).toLocaleString()}. Nobody got in; if it was not you, choose a strong password you use nowhere else.`;
  }
});
form("guest-form", "auth-error", async () => {
  show(await api("POST", "/api/guest", { display_name: $("guest-name").value }));
});
form("name-form", "name-error", async () => {
  show(await api("POST", "/api/me/name", { display_name: $("new-name").value }));
  $("new-name").value = "";
});
form("create-form", "lobby-error", async () => {
  await ensureUser();
  const seats = [{ kind: "me" }];
  for (const s of $("seat-list").querySelectorAll("select.seat-kind")) {
    seats.push(s.value === "open" ? { kind: "open" } : { kind: "bot", bot: s.value.slice(4) });
  }
  const { preset, options, error } = picker.read();
  if (error) throw new Error(error);
  if (preset) options.preset = preset;
  // Turn clock: seconds a move; then 30 s of grace, then a bot takes the seat (docs/server.md).
  const clock = $("clock").value ? { per_move: Number($("clock").value) } : null;
  // A seat open for a person: the table starts when the last one is taken (no Start to press).
  const body = { game: $("game").value, seats, options, private: $("private").checked, clock, start_when_full: true };
  if ($("bot-pace").value !== "") body.bot_pace = Number($("bot-pace").value);
  const t = await api("POST", "/api/tables", body);
  location.href = `/table/${t.id}`; // a private table's page shows its invite link
});
async function quick(body) {
  $("play-error").textContent = "";
  try {
    await ensureUser();
    const t = await api("POST", "/api/quickplay", body);
    location.href = `/table/${t.id}`;
  } catch (e) { $("play-error").textContent = e.message; }
}
$("create-start").addEventListener("click", async () => {
  $("lobby-error").textContent = "";
  try { await ensureUser(); $("game").focus(); } catch (e) { $("lobby-error").textContent = e.message; }
});
$("quickplay").addEventListener("click", () => quick());
$("guided").addEventListener("click", () => quick({ guide: true }));
$("players").addEventListener("input", () => {
  renderSeats();
  if (games[$("game").value]) picker.show(games[$("game").value], players());
  clockDefault();
});
$("players").addEventListener("change", () => { $("players").value = players(); });
$("game").addEventListener("change", gameChosen);
$("others").addEventListener("change", () => { setAllSeats(); clockDefault(); });
$("bot").addEventListener("change", setAllSeats);
$("seat-list").addEventListener("change", clockDefault);
$("tables-prev").addEventListener("click", () => { page = Math.max(1, page - 1); loadTables().catch(() => {}); });
$("tables-next").addEventListener("click", () => { page += 1; loadTables().catch(() => {}); });
$("clock").addEventListener("change", () => { clockTouched = true; $("clock-note").textContent = ""; });
$("logout").addEventListener("click", async () => { show(await api("POST", "/api/logout")); renderPools(); });

refresh();
registerWorker();
