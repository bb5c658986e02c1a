// The director's console on the event page, split by task into tabs: entrants and check-in
// (consoleentrants.js), the round in play with one row per match and its card
// (consoleround.js), rulings and undo (consolerulings.js), print and export, and settings
// (the event's settings, directors, scorekeepers, the venue's join code). A scorekeeper sees
// the entrants and the round only. Every refusal is shown next to the control that caused it
// (tournamentpage.js `say`); every action that cannot be taken back asks first (ask.js).
import { api, el } from "/static/api.js";
import { ask } from "/static/ask.js";
import { entrantsTab } from "/static/consoleentrants.js";
import { roundTab } from "/static/consoleround.js";
import { rulingsTab } from "/static/consolerulings.js";
import { settingsForm } from "/static/tournamentform.js";
import { act, button, say } from "/static/tournamentpage.js";

const $ = (id) => document.getElementById(id);
export const note = () => $("console-note").value;

const TABS = [
  ["entrants", "Entrants & check-in", true],
  ["round", "Round", true],
  ["rulings", "Rulings & undo", false],
  ["print", "Print & export", false],
  ["settings", "Settings", false],
];

export function part(title, id, ...children) {
  return el("div", { class: "console-part", id }, el("h3", {}, title), ...children);
}

function statusBar(ctx, data) {
  const bar = el("div", { class: "console-bar", id: "console-bar" });
  const live = data.entrants.filter((e) => !e.dropped);
  if (data.status === "registration") {
    const here = live.filter((e) => e.checked_in).length;
    bar.append(el("span", { id: "console-summary" }, `Registration: ${live.length} entrant${live.length === 1 ? "" : "s"}, ${here} checked in · check-in ${data.checkin.open ? "open" : "closed"}`));
    if (data.me.director) {
      bar.append(button(ctx, "Start the event", "/start", {}, { id: "start", cls: "big", key: "start", confirm: "Start the event now?",
        detail: () => `The draw is made of the ${live.length} entrants${live.some((e) => !e.checked_in) ? " (those not checked in get the grace period when their match is ready; drop them first in Entrants to leave them out)" : ""}.` }));
    }
  } else if (["running", "paused"].includes(data.status)) {
    const r = (data.rounds || [])[Math.max(0, (data.current_round || 1) - 1)] || [];
    const playable = r.filter((m) => !m.bye);
    const done = playable.filter((m) => m.over).length;
    const title = (data.round_titles || [])[Math.max(0, (data.current_round || 1) - 1)] || "";
    bar.append(el("span", { id: "console-summary" }, `${data.status === "paused" ? "Paused · " : ""}${title}: ${done} of ${playable.length} matches decided`));
    if (data.me.director && data.status === "running") bar.append(button(ctx, "Pause", "/pause", () => ({ note: note() }), { id: "pause", key: "pause" }));
    if (data.me.director && data.status === "paused") bar.append(button(ctx, "Resume", "/resume", () => ({ note: note() }), { id: "resume", cls: "big", key: "resume" }));
  } else {
    bar.append(el("span", { id: "console-summary" }, data.status === "finished" ? `Finished${data.champion ? `: ${data.champion.name} wins` : ""}` : "Cancelled"));
  }
  return bar;
}

function tabBar(ctx, tabs) {
  const bar = el("div", { class: "console-tabs", role: "tablist", "aria-label": "Director's console" });
  for (const [id, label] of tabs) {
    const b = el("button", { type: "button", role: "tab", id: `tab-${id}`, "aria-controls": `console-${id}`, "aria-selected": String(ctx.tab === id) }, label);
    b.addEventListener("click", () => { ctx.tab = id; history.replaceState(null, "", `#console-${id}`); showTab(ctx); });
    bar.append(b);
  }
  return bar;
}

// Shows the chosen tab, building it if it is not built yet (only the tab in view is built
// when the event changes: the others wait until they are chosen).
function showTab(ctx) {
  for (const b of document.querySelectorAll(".console-tabs [role=tab]")) b.setAttribute("aria-selected", String(b.id === `tab-${ctx.tab}`));
  for (const p of document.querySelectorAll(".console-tab")) {
    p.hidden = p.id !== `console-${ctx.tab}`;
    if (!p.hidden && !p.dataset.built) {
      p.dataset.built = "1";
      p.append(...ctx.build[ctx.tab]());
    }
  }
}

function printTab(data) {
  const paper = el("select", { id: "print-paper", "aria-label": "paper for the PDFs" }, el("option", { value: "letter" }, "Letter"), el("option", { value: "a4" }, "A4"));
  paper.value = localStorage.getItem("boneyard-paper") || "letter";
  const tz = encodeURIComponent(Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC");
  const pdf = (kind, q = "") => el("a", { class: `pdf pdf-${kind}`, href: "#", "data-href": `/api/tournaments/${data.id}/print/${kind}.pdf?tz=${tz}${q}` }, "PDF");
  const item = (label, page, kind, q = "") => el("li", {}, `${label}: `, el("a", { href: page, class: `print-${kind}` }, "print"), " · ", pdf(kind, q));
  const links = el("ul", { class: "print-links" });
  (data.rounds || []).forEach((_r, i) => {
    const title = (data.round_titles || [])[i] || `Round ${i + 1}`;
    links.append(el("li", {}, `${title}: `, el("a", { href: `/tournaments/${data.id}/pairings?round=${i + 1}`, class: "print-pairings" }, "pairings"), " (", pdf("pairings", `&round=${i + 1}`), ") · ",
      el("a", { href: `/tournaments/${data.id}/scorecard?round=${i + 1}`, class: "print-cards" }, "score cards"), " (", pdf("cards", `&round=${i + 1}`), ")"));
  });
  if (data.rounds && data.rounds.length) {
    links.append(item("The bracket", `/tournaments/${data.id}/print/bracket`, "bracket"), item("The standings", `/tournaments/${data.id}/print/standings`, "standings"),
      el("li", {}, el("a", { href: `/tournaments/${data.id}/scorecard`, id: "print-all" }, "Every score card")));
  }
  const fix = () => {
    localStorage.setItem("boneyard-paper", paper.value);
    for (const a of links.querySelectorAll("a.pdf")) a.href = `${a.dataset.href}&paper=${paper.value}`;
  };
  paper.addEventListener("change", fix);
  fix();
  const exports = el("ul", {}, ...[["export.json", "everything (JSON)"], ["standings.csv", "standings (CSV)"], ["scorecards.csv", "score cards, every entry (CSV)"], ["log.csv", "the event log (CSV)"]]
    .map(([f, t]) => el("li", {}, el("a", { href: `/api/tournaments/${data.id}/${f}` }, t))));
  return [part("Print", "console-print-part", el("p", { class: "console-row" }, "Paper for the PDFs: ", paper),
    data.rounds && data.rounds.length ? links : el("p", { class: "note" }, "Pairings, cards, the bracket and the standings print once the event starts.")),
  part("Export", "console-export", exports)];
}

function eventPart(ctx, data) {
  const row = el("p", { class: "console-row" });
  const started = data.status !== "registration";
  if (["registration", "running", "paused"].includes(data.status)) {
    row.append(button(ctx, "Cancel the event", "/cancel", () => ({ note: note() }), { id: "cancel", key: "cancel", confirm: "Cancel this event?", detail: "Games in play are void and stop; nothing more is played. This cannot be undone.", yes: "Cancel the event" }));
  }
  if (!started && data.me.owner) {
    const del = el("button", { type: "button", id: "delete", "data-key": "delete" }, "Delete");
    del.addEventListener("click", async () => {
      if (!(await ask("Delete this event?", "It has not started: it and its entrants are gone for good.", "Delete"))) return;
      const r = await act(ctx, "", undefined, "DELETE", del);
      if (r) location.href = "/tournaments";
    });
    row.append(del);
  }
  if (!["registration", "running", "paused"].includes(data.status)) return part("The event", "console-event", row);
  const { form, read } = settingsForm(ctx.games, data, started);
  const save = el("button", { type: "button", id: "save-settings", class: "big", "data-key": "save-settings" }, "Save the settings");
  save.addEventListener("click", () => {
    let body;
    try { body = read(); } catch (e) { say(save, e.message); return; }
    act(ctx, "", body, "PATCH", save);
  });
  form.addEventListener("submit", (ev) => ev.preventDefault());
  return part("The event", "console-event", started ? el("p", { class: "note" }, "The event has started: what shapes the draw is locked.") : "", form, el("p", { class: "console-row" }, save), row);
}

function peoplePart(ctx, data, kind) {
  const list = kind === "directors" ? data.directors : data.scorekeepers || [];
  const path = kind === "directors" ? "/directors" : "/scorekeepers";
  const ul = el("ul", { id: `${kind}-list` });
  for (const d of list) {
    const li = el("li", {}, d.name, d.owner ? " (owner)" : "");
    const mayRemove = kind === "directors" ? !d.owner && data.me.owner : data.me.director;
    if (mayRemove) li.append(" ", button(ctx, "Remove", `${path}/${d.id}`, undefined, { method: "DELETE", key: `remove-${kind}-${d.id}`, confirm: `Remove ${d.name}?`, yes: "Remove" }));
    ul.append(li);
  }
  if (!list.length) ul.append(el("li", { class: "note" }, kind === "directors" ? "Only you." : "None yet."));
  const items = [ul];
  if (kind === "directors" ? data.me.owner : data.me.director) {
    const who = el("input", { id: `${kind}-name`, placeholder: "username", "aria-label": `username of the new ${kind === "directors" ? "co-director" : "scorekeeper"}`, maxlength: 30 });
    items.push(el("p", { class: "console-row" }, kind === "directors" ? "Add a co-director: " : "Add a scorekeeper (enters cards, checks players in): ", who, " ",
      button(ctx, "Add", path, () => ({ username: who.value.trim() }), { id: `add-${kind}`, key: `add-${kind}` })));
  }
  return part(kind === "directors" ? "Directors" : "Scorekeepers", `console-${kind}`, ...items);
}

function joinPart(ctx, data) {
  const items = [];
  if (data.join_code) {
    const link = `${location.origin}/tournaments/${data.id}?join=${encodeURIComponent(data.join_code)}`;
    items.push(el("p", {}, "Join code: ", el("b", { id: "join-code", class: "code" }, data.join_code)),
      el("p", { class: "note" }, "Put this link on the sign at the desk: people make an account there and are entered at once (at most 20 a minute, 300 a day for this event; not counted against the hall's address). "),
      el("p", {}, el("a", { href: link, id: "join-link" }, link)),
      el("p", { class: "console-row" }, button(ctx, "New code", "/join-code", { on: true }, { key: "join-new" }), button(ctx, "Turn off", "/join-code", { on: false }, { key: "join-off" })));
  } else {
    items.push(el("p", { class: "note" }, "Let people make an account at the venue and enter with a code (no per-address sign-up limit)."),
      el("p", { class: "console-row" }, button(ctx, "Turn on venue sign-up", "/join-code", { on: true }, { id: "join-on", key: "join-on" })));
  }
  return part("Venue sign-up", "console-join", ...items);
}

function settingsTab(ctx, data) {
  const parts = [eventPart(ctx, data), peoplePart(ctx, data, "directors"), peoplePart(ctx, data, "scorekeepers")];
  if (["registration", "running"].includes(data.status)) parts.push(joinPart(ctx, data));
  return parts;
}

function defaultTab(data) {
  if (data.status === "registration") return "entrants";
  if (["running", "paused"].includes(data.status)) return "round";
  return "print";
}

export function renderConsole(ctx, data) {
  const staff = data.me.director || data.me.scorekeeper;
  $("console").hidden = !staff;
  if (!staff) return;
  const tabs = TABS.filter(([, , keeper]) => data.me.director || keeper);
  const fromHash = location.hash.startsWith("#console-") ? location.hash.slice(9) : null;
  if (ctx.tabFor && ctx.tabFor !== data.status) ctx.tab = defaultTab(data); // started, finished: the tab of the new task
  ctx.tabFor = data.status;
  if (!ctx.tab || !tabs.some(([id]) => id === ctx.tab)) ctx.tab = tabs.some(([id]) => id === fromHash) ? fromHash : defaultTab(data);
  const open = new Set([...document.querySelectorAll("#console-body details[open]")].map((d) => d.id));
  ctx.build = {
    entrants: () => entrantsTab(ctx, ctx.data),
    round: () => roundTab(ctx, ctx.data),
    rulings: () => rulingsTab(ctx, ctx.data),
    print: () => printTab(ctx.data),
    settings: () => settingsTab(ctx, ctx.data),
  };
  const panels = tabs.map(([id]) => el("div", { class: "console-tab", id: `console-${id}`, role: "tabpanel", "aria-labelledby": `tab-${id}` },
    el("p", { class: "tab-said", "aria-live": "polite" })));
  $("console-body").replaceChildren(statusBar(ctx, data), tabBar(ctx, tabs), ...panels);
  showTab(ctx);
  for (const id of open) { const d = document.getElementById(id); if (d) d.open = true; }
}

export async function loadGames() {
  const { games } = await api("GET", "/api/games");
  return games.filter((g) => g.min_players <= 2 && g.max_players >= 2);
}
