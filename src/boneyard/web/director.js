// The director's console on the event page: the event (start, pause, cancel, delete, settings),
// check-in and entrants, seeding by hand (numbers or drag), co-directors, the matches in play
// (forfeit, rulings, PDA 9b, paper cards), undo and reopen, and what to print. Every action that
// cannot be taken back asks first (ask.js).
import { api, el } from "/static/api.js";
import { ask, askText } from "/static/ask.js";
import { settingsForm } from "/static/eventform.js";
import { act, allMatches, button } from "/static/eventpage.js";
import { scoreText } from "/static/results.js";

const $ = (id) => document.getElementById(id);
const note = () => $("console-note").value;
const BOTS = ["greedy", "random", "easy", "medium", "hard", "expert"];

function part(title, id, ...children) {
  return el("div", { class: "console-part", id }, el("h3", {}, title), ...children);
}

function eventPart(ctx, data) {
  const row = el("p", { class: "console-row" });
  const started = data.status !== "registration";
  if (!started) row.append(button(ctx, "Start the event now", "/start", {}, { id: "start", cls: "big", confirm: "Start the event now?", detail: "The draw is made and the first matches begin. Entrants not checked in get the grace period when their match is ready." }));
  if (data.status === "running") row.append(button(ctx, "Pause", "/pause", () => ({ note: note() }), { id: "pause" }));
  if (data.status === "paused") row.append(button(ctx, "Resume", "/resume", () => ({ note: note() }), { id: "resume" }));
  if (["registration", "running", "paused"].includes(data.status)) {
    row.append(button(ctx, "Cancel the event", "/cancel", () => ({ note: note() }), { id: "cancel", confirm: "Cancel this event?", detail: "Games in play are void and stop; nothing more is played. This cannot be undone.", yes: "Cancel the event" }));
  }
  if (!started && data.me.owner) {
    const del = el("button", { type: "button", id: "delete" }, "Delete");
    del.addEventListener("click", async () => {
      if (!(await ask("Delete this event?", "It has not started: it and its entrants are gone for good.", "Delete"))) return;
      const r = await act(ctx, "", undefined, "DELETE");
      if (r) location.href = "/events";
    });
    row.append(del);
  }
  if (!["registration", "running", "paused"].includes(data.status)) return part("The event", "console-event", row);
  const box = el("details", { id: "edit-settings" }, el("summary", {}, "Change the settings…"));
  const { form, read } = settingsForm(ctx.games, data, started);
  const save = el("button", { type: "button", id: "save-settings", class: "big" }, "Save the settings");
  save.addEventListener("click", () => {
    let body;
    try { body = read(); } catch (e) { document.getElementById("ev-error").textContent = e.message; return; }
    act(ctx, "", body, "PATCH");
  });
  form.addEventListener("submit", (ev) => ev.preventDefault());
  box.append(started ? el("p", { class: "note" }, "The event has started: what shapes the draw is locked.") : "", form, save);
  return part("The event", "console-event", row, box);
}

function checkinPart(ctx, data) {
  const items = [];
  if (data.status === "registration") {
    const w = el("p", { class: "console-row" }, `Check-in is ${data.checkin.open ? "open" : "closed"}${data.checkin.by_hand ? " (by hand)" : ""}: `,
      button(ctx, "Open now", "/checkin-window", () => ({ state: "open", note: note() }), { id: "checkin-open" }),
      button(ctx, "Close now", "/checkin-window", () => ({ state: "closed", note: note() }), { id: "checkin-close" }),
      button(ctx, "Follow the set times", "/checkin-window", () => ({ state: "times", note: note() })));
    items.push(w);
  }
  const t = el("table", { class: "grid", id: "console-entrants" });
  t.append(el("tr", {}, ...["Entrant", "Here?", ""].map((h) => el("th", { scope: "col" }, h))));
  for (const e of data.entrants) {
    const acts = el("td", {});
    if (e.status !== "withdrawn" && !(e.bot && data.status !== "registration")) {
      acts.append(e.checked_in
        ? button(ctx, "Check out", `/entrants/${e.id}/checkin`, () => ({ present: false, note: note() }), { cls: "checkout" })
        : button(ctx, "Check in", `/entrants/${e.id}/checkin`, () => ({ present: true, note: note() }), { cls: "checkin" }));
    }
    if (data.status === "registration") acts.append(button(ctx, "Remove", `/entrants/${e.id}`, undefined, { method: "DELETE", cls: "remove", confirm: `Remove ${e.name} from the event?`, yes: "Remove" }));
    acts.append(replaceControl(ctx, e));
    t.append(el("tr", { "data-entrant": e.id }, el("td", {}, e.name), el("td", {}, e.checked_in ? "yes" : "no"), acts));
  }
  items.push(el("div", { class: "table-scroll" }, t));
  if (data.status === "registration" && data.mode === "online") {
    const bot = el("select", { id: "bot-kind", "aria-label": "bot" }, ...BOTS.map((b) => el("option", { value: b }, b)));
    const n = el("input", { type: "number", min: 1, max: 256, value: 1, id: "bot-count", "aria-label": "how many bots" });
    items.push(el("p", { class: "console-row" }, "Add ", n, " ", bot, " ", button(ctx, "bots", "/bots", () => ({ bot: bot.value, count: Number(n.value) }), { id: "add-bots" })));
  }
  const who = el("input", { id: "invite-name", placeholder: "username", "aria-label": "username to invite", maxlength: 30 });
  items.push(el("p", { class: "console-row" }, "Invite a late entrant: ", who, " ", button(ctx, "Invite", "/invite", () => ({ username: who.value.trim(), note: note() }), { id: "invite" })));
  return part("Entrants and check-in", "console-checkin", ...items);
}

function replaceControl(ctx, e) {
  const b = el("button", { type: "button", class: "replace" }, "Replace…");
  b.addEventListener("click", async () => {
    const v = await askText(`Replace ${e.name}`, "A username, or bot:greedy:", { yes: "Next", placeholder: "username or bot:greedy", maxlength: 40 });
    if (!v) return;
    const body = v.startsWith("bot:") ? { bot: v.slice(4) } : { username: v };
    const detail = body.bot ? "A bot takes the place at once, at its tables too." : "They take the place when they accept your offer.";
    if (await ask(`Replace ${e.name} with ${v}?`, detail, "Replace")) act(ctx, `/entrants/${e.id}/replace`, { ...body, note: note() });
  });
  return b;
}

function seedingPart(ctx, data) {
  const list = el("ol", { id: "seed-list", class: "seed-list" });
  const order = [...data.entrants].sort((a, b) => (a.seed ?? 1e9) - (b.seed ?? 1e9) || a.id - b.id);
  const renumber = () => [...list.children].forEach((li, i) => { li.querySelector("input").value = i + 1; });
  let dragged = null;
  for (const e of order) {
    const num = el("input", { type: "number", min: 1, max: order.length, class: "seed-num", "aria-label": `seed of ${e.name}` });
    const up = el("button", { type: "button", class: "seed-up", "aria-label": `move ${e.name} up` }, "↑");
    const li = el("li", { draggable: "true", "data-entrant": e.id }, el("span", { class: "grip", "aria-hidden": "true" }, "⋮⋮"), num, " ", e.name, " ", up);
    num.addEventListener("change", () => {
      const to = Math.max(1, Math.min(order.length, Number(num.value))) - 1;
      li.remove();
      list.insertBefore(li, list.children[to] || null);
      renumber();
    });
    up.addEventListener("click", () => { if (li.previousElementSibling) list.insertBefore(li, li.previousElementSibling); renumber(); });
    li.addEventListener("dragstart", () => { dragged = li; li.classList.add("dragging"); });
    li.addEventListener("dragend", () => { li.classList.remove("dragging"); renumber(); });
    li.addEventListener("dragover", (ev) => {
      ev.preventDefault();
      if (dragged && dragged !== li) list.insertBefore(dragged, li.getBoundingClientRect().top + li.offsetHeight / 2 > ev.clientY ? li : li.nextSibling);
    });
    list.append(li);
  }
  renumber();
  const save = button(ctx, "Save these seeds", "/seeds", () => ({ order: [...list.children].map((li) => Number(li.dataset.entrant)) }), { id: "save-seeds", cls: "big" });
  const fill = button(ctx, "Fill from ratings", "/seeds", { by: "rating" }, { id: "seed-rating" });
  const how = data.settings.seeding === "manual" ? "by hand" : data.settings.seeding === "random" ? "at random" : "by rating";
  return part("Seeding", "console-seeding", el("p", { class: "note" }, `The draw is seeded ${how}. Type a seed number, drag a name, or fill from the ratings and adjust, then save: the draw is then seeded by hand.`), list, el("p", { class: "console-row" }, fill, save));
}

function directorsPart(ctx, data) {
  const ul = el("ul", {});
  for (const d of data.directors) {
    const li = el("li", {}, d.name, d.owner ? " (owner)" : "");
    if (!d.owner && data.me.owner) li.append(" ", button(ctx, "Remove", `/directors/${d.id}`, undefined, { method: "DELETE", confirm: `Remove ${d.name} as a director?`, yes: "Remove" }));
    ul.append(li);
  }
  const items = [ul];
  if (data.me.owner) {
    const who = el("input", { id: "codirector-name", placeholder: "username", "aria-label": "co-director's username", maxlength: 30 });
    items.push(el("p", { class: "console-row" }, "Add a co-director: ", who, " ", button(ctx, "Add", "/directors", () => ({ username: who.value.trim() }), { id: "add-codirector" })));
  }
  return part("Directors", "console-directors", ...items);
}

function numberInput(label, cls) {
  return el("input", { type: "number", min: 0, max: 10000, class: cls, "aria-label": label });
}

function matchRow(ctx, data, m) {
  const who = el("select", { "aria-label": `who, in ${m.id}` }, el("option", { value: m.a }, m.a_name), el("option", { value: m.b }, m.b_name));
  const open = m.games.find((g) => ["playing", "reported", "disputed", "timeout"].includes(g.status));
  const gid = open ? open.id : null;
  const name = () => who.selectedOptions[0].textContent;
  const sa = numberInput(`${m.a_name}'s score`, "score-a");
  const sb = numberInput(`${m.b_name}'s score`, "score-b");
  const row = el("div", { class: "console-match", "data-console": m.id },
    el("p", {}, el("b", {}, `${m.id}${m.table && data.mode === "otb" ? ` · table ${m.table}` : ""}: ${m.a_name} v ${m.b_name}`), open ? ` — game ${open.number} ${open.status}${open.score_a !== null ? ` (${scoreText(open, m)})` : ""}` : ""),
    el("p", { class: "console-row" }, who, " ",
      button(ctx, "forfeits the match", `/matches/${m.id}/forfeit`, () => ({ loser: Number(who.value), note: note() }), { cls: "forfeit", confirm: `${m.id}: forfeit the match?`, detail: "The other side wins the match; a game in play is void." }),
      button(ctx, "bogus play (150–100)", `/matches/${m.id}/ruling`, () => ({ kind: "bogus", offender: Number(who.value), game_id: gid, note: note() }), { cls: "bogus", confirm: `${m.id}: rule a bogus play?`, detail: "PDA 8c–e: the game ends 150 to the other side, 100 to the offender." })),
    el("p", { class: "console-row" }, "Rule a score: ", sa, " – ", sb, " ",
      button(ctx, "rule", `/matches/${m.id}/ruling`, () => ({ kind: "score", score_a: Number(sa.value), score_b: Number(sb.value), winner: Number(who.value), game_id: gid, note: note() }), { cls: "rule", confirm: `${m.id}: rule this score?`, detail: "A ruling stands whatever the card says (it can be undone until the next round starts)." })));
  if (data.mode === "otb") {
    const pts = el("input", { type: "number", min: 50, max: 150, value: 50, class: "points", "aria-label": "penalty points" });
    const ca = numberInput(`${m.a_name} on the card`, "card-a");
    const cb = numberInput(`${m.b_name} on the card`, "card-b");
    const reason = el("select", { class: "card-reason", "aria-label": "how the game ended" }, el("option", { value: "target" }, "to the target"), el("option", { value: "bogus" }, "a bogus play"));
    row.append(
      el("p", { class: "console-row" }, "Paper card: ", ca, " – ", cb, " ", reason, " ",
        button(ctx, "enter the card", `/matches/${m.id}/card`, () => ({ score_a: Number(ca.value), score_b: Number(cb.value), reason: reason.value }), { cls: "enter-card" })),
      el("p", { class: "console-row" }, "PDA 9b: the hand ends, the other side scores ", pts, " ",
        button(ctx, "penalty", `/matches/${m.id}/penalty`, () => ({ offender: Number(who.value), points: Number(pts.value), note: note() }), { cls: "penalty", confirm: `${m.id}: a 9b penalty against ${name()}?`, detail: "Recorded as a ruling on the game in play." })));
  }
  return row;
}

function matchesPart(ctx, data) {
  const ready = allMatches(data).filter((m) => m.ready);
  if (!ready.length) return part("Matches in play", "console-matches", el("p", { class: "note" }, "No match is waiting for a result."));
  return part("Matches in play", "console-matches", ...ready.map((m) => matchRow(ctx, data, m)));
}

function undoPart(ctx, data) {
  const ul = el("ul", { id: "rulings" });
  for (const a of [...data.actions].reverse()) {
    if (!["ruling", "forfeit", "timeout", "penalty"].includes(a.kind) || a.undone) continue;
    if (a.kind === "timeout" && (a.payload || {}).rule === "bot") continue;
    const p = a.payload || {};
    ul.append(el("li", { "data-action": a.id }, `${a.kind} on ${p.match || "?"}${p.scores ? ` (${p.scores.join("–")})` : ""}${a.note ? `: ${a.note}` : ""} `,
      button(ctx, "Undo", `/actions/${a.id}/undo`, () => ({ note: note() }), { cls: "undo", confirm: `Undo this ${a.kind}?`, detail: "Its result no longer counts: a card goes back to what it was, a game at a table is played again. Refused once the next round has started.", yes: "Undo" })));
  }
  if (!ul.children.length) ul.append(el("li", { class: "note" }, "No ruling to undo."));
  const finals = allMatches(data).flatMap((m) => m.games.filter((g) => g.final).map((g) => [m, g]));
  const items = [ul];
  if (finals.length) {
    const sel = el("select", { id: "reopen-game", "aria-label": "game to reopen" });
    for (const [m, g] of finals.slice(-60)) sel.append(el("option", { value: g.id }, `${m.id} game ${g.number}: ${scoreText(g, m)}`));
    items.push(el("p", { class: "console-row" }, "Reopen a decided game: ", sel, " ",
      button(ctx, "reopen", () => `/games/${sel.value}/reopen`, () => ({ note: note() }), { id: "reopen", confirm: "Reopen this game?", detail: "Its result no longer counts and it is played (or entered) again." })));
  }
  return part("Undo and reopen", "console-undo", ...items);
}

function printPart(data) {
  const links = el("ul", { class: "print-links" });
  (data.rounds || []).forEach((_r, i) => {
    const title = (data.round_titles || [])[i] || `Round ${i + 1}`;
    links.append(el("li", {}, `${title}: `, el("a", { href: `/events/${data.id}/pairings?round=${i + 1}`, class: "print-pairings" }, "pairings"), " · ",
      el("a", { href: `/events/${data.id}/scorecard?round=${i + 1}`, class: "print-cards" }, "score cards")));
  });
  links.append(el("li", {}, el("a", { href: `/events/${data.id}/scorecard`, id: "print-all" }, "Every score card")));
  return part("Print", "console-print", data.rounds && data.rounds.length ? links : el("p", { class: "note" }, "Pairings and cards are ready to print once the event starts."));
}

export function renderConsole(ctx, data) {
  $("console").hidden = !data.me.director;
  if (!data.me.director) return;
  const parts = [eventPart(ctx, data)];
  if (["registration", "running", "paused"].includes(data.status)) parts.push(checkinPart(ctx, data));
  if (data.status === "registration") parts.push(seedingPart(ctx, data));
  parts.push(directorsPart(ctx, data));
  if (data.status === "running" || data.status === "paused") parts.push(matchesPart(ctx, data));
  if (data.rounds && data.rounds.length) parts.push(undoPart(ctx, data));
  parts.push(printPart(data));
  const open = new Set([...document.querySelectorAll("#console-body details[open]")].map((d) => d.id));
  $("console-body").replaceChildren(...parts);
  for (const id of open) { const d = document.getElementById(id); if (d) d.open = true; }
}

export async function loadGames() {
  const { games } = await api("GET", "/api/games");
  return games.filter((g) => g.min_players <= 2 && g.max_players >= 2);
}
