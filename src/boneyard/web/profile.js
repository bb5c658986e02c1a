// A person's profile (/profile/{id}): name, member since, games played and won per game, and the
// game history with opponents, result, date and replay links (GET /api/users/{id}).
import { api, el } from "/static/api.js";
import { initBell } from "/static/bell.js";
import { showWho } from "/static/who.js";

const $ = (id) => document.getElementById(id);
const userId = location.pathname.split("/").pop();

function dateText(iso) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });
}

function statsTable(stats) {
  const rows = [el("tr", {}, el("th", {}, "Game"), el("th", {}, "Played"), el("th", {}, "Won"))];
  for (const g of stats.games) {
    rows.push(el("tr", { "data-game": g.game }, el("td", {}, g.title), el("td", { class: "num played" }, g.played), el("td", { class: "num won" }, g.won)));
  }
  rows.push(el("tr", { class: "total" }, el("td", {}, "All games"), el("td", { class: "num" }, stats.played), el("td", { class: "num" }, stats.won)));
  return rows;
}

function opponents(g) {
  const out = el("span", {});
  g.players.filter((p) => p.seat !== g.seat).forEach((p, i) => {
    if (i) out.append(", ");
    const name = p.name || "open seat";
    if (p.user_id) out.append(el("a", { href: `/profile/${p.user_id}` }, name));
    else out.append(p.bot ? `${name} (${p.bot})` : name);
  });
  return out;
}

function historyTable(games) {
  const rows = [el("tr", {}, el("th", {}, "Date"), el("th", {}, "Game"), el("th", {}, "Opponents"), el("th", {}, "Result"), el("th", {}, ""))];
  for (const g of games) {
    const result = g.result ? `${g.result}${g.scores && g.scores.length ? " " + g.scores.join("–") : ""}` : g.status === "open" ? "waiting for players" : "in play";
    const link = g.replay ? el("a", { href: g.replay, class: "replay" }, "replay") : el("a", { href: `/table/${g.table}` }, "table");
    rows.push(el("tr", { class: `game ${g.result || g.status}` }, el("td", {}, dateText(g.date)), el("td", {}, g.title),
      el("td", { class: "who" }, opponents(g)), el("td", { class: "result" }, result), el("td", {}, link)));
  }
  if (!games.length) rows.push(el("tr", {}, el("td", { colspan: "5" }, "No games yet.")));
  return rows;
}

// Your own profile: where you are signed in (end one session, or all of them) and the places in
// tournaments that directors offered you.
function sessionRows(sessions) {
  const rows = [el("tr", {}, el("th", {}, "Browser"), el("th", {}, "Signed in"), el("th", { class: "wide" }, "Last used"), el("th", {}, ""))];
  for (const s of sessions) {
    const end = s.current ? el("span", { class: "note" }, "this browser")
      : el("button", { type: "button", class: "end-session", onclick: () => endSession(s.id) }, "Sign out");
    rows.push(el("tr", { class: "session" }, el("td", {}, s.browser || "unknown browser"),
      el("td", {}, dateText(s.created_at)), el("td", { class: "wide" }, dateText(s.last_seen_at)), el("td", {}, end)));
  }
  return rows;
}

async function endSession(id) {
  try {
    const r = await api("DELETE", `/api/me/sessions/${encodeURIComponent(id)}`);
    $("sessions").replaceChildren(...sessionRows(r.sessions));
  } catch (e) { $("account-error").textContent = e.message; }
}

function offerItem(o) {
  const act = (verb) => async () => {
    try {
      await api("POST", `/api/tournaments/${encodeURIComponent(o.event)}/offers/${o.id}/${verb}`);
      if (verb === "accept") location.href = `/tournaments/${encodeURIComponent(o.event)}`;
      else loadAccount();
    } catch (e) { $("account-error").textContent = e.message; }
  };
  return el("li", { class: "offer" }, `${o.event_name}: the place of ${o.place_of} `,
    el("button", { type: "button", onclick: act("accept") }, "Accept"), " ",
    el("button", { type: "button", onclick: act("decline") }, "Decline"));
}

// A bot account's API tokens: a new one is shown once, here; the list shows only prefixes.
function tokenRows(tokens) {
  const rows = [el("tr", {}, el("th", {}, "Name"), el("th", {}, "Token"), el("th", { class: "wide" }, "Made"), el("th", { class: "wide" }, "Last used"), el("th", {}, ""))];
  for (const t of tokens) {
    const act = t.revoked ? el("span", { class: "note" }, "revoked")
      : el("button", { type: "button", class: "revoke", onclick: () => revoke(t.id) }, "Revoke");
    rows.push(el("tr", { class: "token" }, el("td", {}, t.name), el("td", {}, `${t.prefix}…`),
      el("td", { class: "wide" }, dateText(t.created_at)), el("td", { class: "wide" }, t.last_used_at ? dateText(t.last_used_at) : "never"), el("td", {}, act)));
  }
  return rows;
}

async function revoke(id) {
  try {
    const r = await api("DELETE", `/api/me/tokens/${id}`);
    $("tokens").replaceChildren(...tokenRows(r.tokens));
  } catch (e) { $("account-error").textContent = e.message; }
}

async function loadBot(user) {
  $("make-bot").hidden = user.bot;
  $("token-form").hidden = !user.bot;
  if (!user.bot) return;
  $("bot-note").textContent = "This is a bot account: its program connects with a token (boneyard bot connect --token …).";
  const { tokens } = await api("GET", "/api/me/tokens");
  $("tokens").replaceChildren(...tokenRows(tokens));
}

$("make-bot").addEventListener("click", async () => {
  if (!confirm("Make this account a bot account, for good?")) return;
  try {
    const { user } = await api("POST", "/api/me/bot");
    await loadBot(user);
  } catch (e) { $("account-error").textContent = e.message; }
});

$("token-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  try {
    const t = await api("POST", "/api/me/tokens", { name: $("token-name").value.trim() });
    const code = el("code", { class: "token-value" }, t.token);
    const copy = el("button", { type: "button" }, "Copy");
    copy.addEventListener("click", async () => {
      try { await navigator.clipboard.writeText(t.token); copy.textContent = "Copied"; } catch { getSelection().selectAllChildren(code); }
    });
    $("token-shown").replaceChildren(el("p", { class: "note" }, "Your new token, shown this once: copy it now."), code, copy);
    const { tokens } = await api("GET", "/api/me/tokens");
    $("tokens").replaceChildren(...tokenRows(tokens));
  } catch (e) { $("account-error").textContent = e.message; }
});

async function loadAccount() {
  try {
    const [{ sessions }, { offers }] = await Promise.all([api("GET", "/api/me/sessions"), api("GET", "/api/me/offers")]);
    $("sessions").replaceChildren(...sessionRows(sessions));
    $("offers").replaceChildren(...(offers.length ? offers.map(offerItem) : [el("li", { class: "note" }, "None.")]));
    $("account").hidden = false;
  } catch (e) { $("account-error").textContent = e.message; }
}

$("end-all").addEventListener("click", async () => {
  if (!confirm("Sign out of Boneyard in every browser, this one too?")) return;
  try {
    await api("POST", "/api/me/sessions/end-all");
    location.href = "/";
  } catch (e) { $("account-error").textContent = e.message; }
});

// Notifications by e-mail: the address and whether to use it (the site says if it sends any).
async function loadNotify() {
  const p = await api("GET", "/api/me/notify");
  $("notify-email").value = p.email || "";
  $("notify-on").checked = p.by_email;
  $("notify-note").textContent = p.site_sends_email ? "" : "This site sends no e-mail: the bell on every page tells you.";
}

$("notify-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  $("notify-error").textContent = "";
  try {
    await api("PUT", "/api/me/notify", { email: $("notify-email").value.trim() || null, by_email: $("notify-on").checked });
    $("notify-error").textContent = "Saved.";
  } catch (e) { $("notify-error").textContent = e.message; }
});

// A bot account's page offers a challenge to anyone signed in but the bot itself.
async function showChallenge(bot, me) {
  if (!bot.bot || !me || String(me.id) === userId) return;
  const { games } = await api("GET", "/api/games");
  $("challenge-game").replaceChildren(...games.map((g) => el("option", { value: g.game }, g.title)));
  $("challenge").hidden = false;
  $("challenge").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("challenge-error").textContent = "";
    try {
      const t = await api("POST", "/api/tables", { game: $("challenge-game").value, seats: [{ kind: "me" }, { kind: "account", account: bot.display_name }] });
      location.href = `/table/${t.id}`;
    } catch (e) { $("challenge-error").textContent = e.message; }
  });
}

async function load() {
  const me = api("GET", "/api/me").then(({ user }) => user).catch(() => null);
  me.then((user) => {
    if (!user) return;
    initBell(user);
    showWho(user);
    if (String(user.id) === userId) { loadAccount(); loadNotify().catch(() => {}); loadBot(user).catch(() => {}); }
  }).catch(() => {});
  try {
    const p = await api("GET", `/api/users/${encodeURIComponent(userId)}`);
    document.title = `Boneyard — ${p.user.display_name}`;
    $("name").textContent = p.user.display_name + (p.user.guest ? " (guest)" : "") + (p.user.bot ? " (bot)" : "");
    $("since").textContent = `Member since ${dateText(p.user.member_since)} · ${p.stats.played} games played, ${p.stats.won} won`;
    $("stats").replaceChildren(...statsTable(p.stats));
    $("history").replaceChildren(...historyTable(p.games));
    $("profile").hidden = false;
    showChallenge(p.user, await me).catch((e) => { $("challenge-error").textContent = e.message; });
  } catch (e) {
    // (a mistyped address: no player has that number, or it is no number at all)
    $("profile-error").textContent = e.status === 404 || e.status === 422
      ? "No such player: the address may be mistyped. Players are found on the leaderboard and at the tables."
      : e.message;
  }
}

load();
