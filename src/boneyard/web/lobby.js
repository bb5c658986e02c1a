import { api, el } from "/static/api.js";

const $ = (id) => document.getElementById(id);

async function refresh() {
  await api("GET", "/api/me").then(show).catch(() => show({ user: null }));
}

function show({ user }) {
  $("auth").hidden = !!user;
  $("lobby").hidden = !user;
  $("logout").hidden = !user;
  $("who").textContent = user ? `${user.display_name}${user.guest ? " (guest)" : ""}` : "";
  if (user) loadLobby();
}

async function loadLobby() {
  const { games, bots } = await api("GET", "/api/games");
  const game = $("game");
  if (!game.options.length) {
    for (const g of games) game.append(el("option", { value: g.game }, `${g.title} (${g.min_players}–${g.max_players})`));
    for (const b of bots) $("bot").append(el("option", { value: b }, b));
    $("bot").value = "greedy";
  }
  const { tables } = await api("GET", "/api/tables");
  const list = $("tables");
  list.replaceChildren();
  for (const t of tables) {
    const seats = t.seats.map((s) => (s.kind === "open" ? "open seat" : s.name)).join(", ");
    list.append(el("li", {}, el("a", { href: `/table/${t.id}` }, `${t.title} — ${seats} — ${t.status}`)));
  }
  if (!tables.length) list.append(el("li", {}, "No open tables yet."));
  const mine = await api("GET", "/api/me/games");
  const hist = $("history");
  hist.replaceChildren();
  for (const g of mine.games) {
    let what = g.status;
    if (g.scores) what = `${g.winner === g.seat ? "won" : "lost"} ${g.scores.join("–")}`;
    const item = el("li", {}, el("a", { href: `/table/${g.id}` }, `${g.game}: ${g.seats.join(" v ")} — ${what}`));
    if (g.status === "over") {
      item.append(" ", el("a", { href: `/replay/${g.id}`, class: "replay" }, "replay"));
      item.append(" ", el("a", { href: `/api/tables/${g.id}/record`, download: `boneyard-${g.id}.json` }, "record"));
    }
    hist.append(item);
  }
  if (!mine.games.length) hist.append(el("li", {}, "None yet."));
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
  show(await api("POST", "/api/login", {
    username: $("login-username").value, password: $("login-password").value,
  }));
});
form("guest-form", "auth-error", async () => {
  show(await api("POST", "/api/guest", { display_name: $("guest-name").value }));
});
form("create-form", "lobby-error", async () => {
  const n = Number($("players").value);
  const seats = [{ kind: "me" }];
  for (let i = 1; i < n; i++) seats.push({ kind: $("others").value, bot: $("bot").value });
  const options = {};
  if ($("preset").value.trim()) options.preset = $("preset").value.trim();
  const t = await api("POST", "/api/tables", { game: $("game").value, seats, options });
  location.href = `/table/${t.id}`;
});
$("quickplay").addEventListener("click", async () => {
  $("lobby-error").textContent = "";
  try {
    const t = await api("POST", "/api/quickplay");
    location.href = `/table/${t.id}`;
  } catch (e) { $("lobby-error").textContent = e.message; }
});
$("logout").addEventListener("click", async () => { show(await api("POST", "/api/logout")); });

refresh();
