// The leaderboard: people ranked per game and number of players, on a scale where a newcomer
// has 1500; provisional ratings marked; people who have met too few different opponents only
// counted; bots on a board of their own, behind a filter (bot accounts, and the built-in bots'
// old ratings), never mixed with people.
import { api, el } from "/static/api.js";
import { showWho } from "/static/who.js";

const $ = (id) => document.getElementById(id);

async function load() {
  $("lb-error").textContent = "";
  const q = `game=${encodeURIComponent($("lb-game").value)}&category=${encodeURIComponent($("lb-cat").value)}${$("lb-bots").checked ? "&bots=true" : ""}`;
  let data;
  try { data = await api("GET", `/api/leaderboard?${q}`); } catch (e) { $("lb-error").textContent = e.message; return; }
  history.replaceState(null, "", `/leaderboard?${q}`);
  $("lb-title").textContent = `${data.title} · ${data.players_title}`;
  const waiting = data.unranked ? ` ${data.unranked} not listed yet (fewer than ${data.ranked_opponents} different opponents).` : "";
  $("lb-count").textContent = `${data.people} ${data.people === 1 ? "person" : "people"} rated in ${data.title}, ${data.players_title}.${waiting}`;
  $("lb-min").textContent = String(data.provisional_games);
  $("lb-opponents").textContent = String(data.ranked_opponents);
  const t = $("lb");
  t.replaceChildren(el("tr", {}, el("th", { scope: "col" }, "#"), el("th", { scope: "col" }, "Player"),
    el("th", { scope: "col", class: "num" }, "Rating"), el("th", { scope: "col", class: "num" }, "Games")));
  for (const r of data.ratings) {
    const name = r.user_id ? el("a", { href: `/profile/${r.user_id}` }, r.name) : el("span", {}, r.name);
    const rating = el("td", { class: "num rating" }, String(r.rating));
    if (r.provisional) rating.append(el("abbr", { title: "provisional: fewer than " + data.provisional_games + " rated games" }, "?"));
    t.append(el("tr", { class: r.bot ? "bot" : "" }, el("td", {}, r.rank), el("td", {}, name, r.bot ? " (bot)" : ""), rating, el("td", { class: "num" }, r.games)));
  }
  if (!data.ratings.length) t.append(el("tr", {}, el("td", { colspan: 4 }, "No rated games yet.")));
}

async function main() {
  try { showWho((await api("GET", "/api/me")).user); } catch { /* signed out */ }
  const { games } = await api("GET", "/api/games");
  for (const g of games) $("lb-game").append(el("option", { value: g.game }, g.title));
  const asked = new URLSearchParams(location.search);
  if (asked.get("game")) $("lb-game").value = asked.get("game");
  if (asked.get("category")) $("lb-cat").value = asked.get("category");
  $("lb-bots").checked = asked.get("bots") === "true";
  for (const id of ["lb-game", "lb-cat", "lb-bots"]) $(id).addEventListener("change", load);
  $("lb-form").addEventListener("submit", (ev) => ev.preventDefault());
  await load();
}

main();
