// The console's "Entrants & check-in" tab: who is here (a count, a filter, check in or out —
// only where it can act), entrants added by name without an account (one, a pasted list, a CSV
// file of names, clubs and seeds), their claim codes and links to an account, dropping everyone
// not checked in when check-in closes, seeding by hand, late entrants and replacements.
import { el } from "/static/api.js";
import { ask, askText } from "/static/ask.js";
import { act, button, entrantState, say } from "/static/tournamentpage.js";

const $ = (id) => document.getElementById(id);
const note = () => $("console-note").value;

function part(title, id, ...children) {
  return el("div", { class: "console-part", id }, el("h3", {}, title), ...children);
}

function windowPart(ctx, data) {
  const live = data.entrants.filter((e) => !e.dropped);
  const absent = live.filter((e) => !e.checked_in && e.status !== "withdrawn");
  const row = el("p", { class: "console-row" }, `Check-in is ${data.checkin.open ? "open" : "closed"}${data.checkin.by_hand ? " (by hand)" : ""}. `);
  if (data.me.director) {
    if (!data.checkin.open) row.append(button(ctx, "Open check-in now", "/checkin-window", () => ({ state: "open", note: note() }), { id: "checkin-open", key: "checkin-open" }));
    if (data.checkin.open) row.append(button(ctx, "Close check-in now", "/checkin-window", () => ({ state: "closed", note: note() }), { id: "checkin-close", key: "checkin-close" }));
    if (data.checkin.by_hand) row.append(button(ctx, "Follow the set times", "/checkin-window", () => ({ state: "times", note: note() }), { key: "checkin-times" }));
  }
  const items = [row];
  if (data.me.director && absent.length) {
    items.push(el("p", { class: "console-row" }, button(ctx, `Close check-in and drop the ${absent.length} not checked in`, "/drop-absent", () => ({ note: note() }), {
      id: "drop-absent", key: "drop-absent", cls: "big", confirm: `Drop the ${absent.length} entrants not checked in?`,
      detail: `${absent.slice(0, 8).map((e) => e.name).join(", ")}${absent.length > 8 ? ` and ${absent.length - 8} more` : ""}: they are left out of the draw and keep their entry (listed as dropped). Check-in closes. You may still check one in before the start.`,
      yes: "Drop them" })));
  }
  return part("Check-in", "console-window", ...items);
}

function addPart(ctx, data) {
  const hereOne = el("input", { type: "checkbox", id: "walkin-here" });
  hereOne.checked = data.status !== "registration" || data.checkin.open;
  const name = el("input", { id: "walkin-name", maxlength: 40, placeholder: "name", "aria-label": "name of the new entrant", "data-key": "walkin-name" });
  const club = el("input", { id: "walkin-club", maxlength: 60, placeholder: "club (optional)", "aria-label": "club" });
  const addOne = el("button", { type: "submit", id: "walkin-add", "data-key": "walkin-add" }, "Add");
  const one = el("form", { class: "console-row", id: "walkin-one" }, name, club, el("label", { class: "check" }, hereOne, " here now"), addOne);
  one.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (!name.value.trim()) { say(addOne, "Type the entrant's name first."); name.focus(); return; }
    const r = await act(ctx, "/walk-ins", { name: name.value, club: club.value || null, here: hereOne.checked }, "POST", addOne);
    if (r) { const n = $("walkin-name"); if (n) n.focus(); }
  });
  const hereMany = el("input", { type: "checkbox", id: "walkin-list-here" });
  const list = el("textarea", { id: "walkin-list", rows: 5, placeholder: "One name a line (or paste name, club and seed columns from a spreadsheet)", "aria-label": "list of names, one a line" });
  const addList = el("button", { type: "button", id: "walkin-add-list", "data-key": "walkin-add-list" }, "Add these");
  addList.addEventListener("click", () => {
    if (!list.value.trim()) { say(addList, "Paste the names first, one a line."); return; }
    act(ctx, "/walk-ins", { text: list.value, here: hereMany.checked }, "POST", addList);
  });
  const file = el("input", { type: "file", id: "walkin-csv", accept: ".csv,text/csv", "aria-label": "CSV file of entrants" });
  const addFile = el("button", { type: "button", id: "walkin-import", "data-key": "walkin-import" }, "Import");
  addFile.addEventListener("click", async () => {
    const f = file.files && file.files[0];
    if (!f) { say(addFile, "Choose a CSV file first (columns name, club, seed)."); return; }
    act(ctx, "/walk-ins", { text: await f.text(), csv: true, here: hereMany.checked }, "POST", addFile);
  });
  return part("Add entrants by name (no account needed)", "console-walkins",
    el("p", { class: "note" }, "They play over the board; you (or a scorekeeper) enter their cards. Each gets a claim code to put the entry on an account later."),
    one,
    el("details", { id: "walkin-paste" }, el("summary", {}, "Paste a list, or import a CSV file (name, club, seed)"), list,
      el("p", { class: "console-row" }, el("label", { class: "check" }, hereMany, " they are all here now (checked in)")),
      el("p", { class: "console-row" }, addList, " or ", file, addFile)));
}

function actions(ctx, data, e) {
  const cell = el("td", { class: "acts" });
  const started = data.status !== "registration";
  const canCheck = ["registration", "running", "paused"].includes(data.status) && !(e.bot && started) && !(e.dropped && started);
  if (canCheck) {
    const label = e.checked_in ? "Check out" : e.dropped || e.status === "withdrawn" ? "Check in (put back)" : "Check in";
    cell.append(button(ctx, label, `/entrants/${e.id}/checkin`, () => ({ present: !e.checked_in, note: note() }), { cls: e.checked_in ? "checkout" : "checkin", key: `checkin-${e.id}` }));
  }
  if (!data.me.director) return cell;
  const more = [];
  if (!started) more.push(button(ctx, "Remove", `/entrants/${e.id}`, undefined, { method: "DELETE", cls: "remove", key: `remove-${e.id}`, confirm: `Remove ${e.name} from the event?`, detail: "Their entry is gone (to keep it, drop them instead).", yes: "Remove" }));
  if (e.walk_in) more.push(linkControl(ctx, e));
  if (!e.dropped && ["registration", "running", "paused"].includes(data.status)) more.push(replaceControl(ctx, e));
  if (more.length) cell.append(el("details", { class: "more", id: `more-${e.id}` }, el("summary", { "aria-label": `more for ${e.name}` }, "More…"), el("div", { class: "more-list" }, ...more)));
  return cell;
}

function linkControl(ctx, e) {
  const b = el("button", { type: "button", class: "link", "data-key": `link-${e.id}` }, "Link to an account…");
  b.addEventListener("click", async () => {
    const v = await askText(`Link ${e.name} to an account`, "Their username:", { yes: "Next", placeholder: "username", maxlength: 30 });
    if (!v) return;
    if (await ask(`Put ${e.name}'s entry on ${v}'s account?`, "Their games and rating move to that account.", "Link")) act(ctx, `/entrants/${e.id}/link`, { username: v }, "POST", b);
  });
  return b;
}

function replaceControl(ctx, e) {
  const b = el("button", { type: "button", class: "replace", "data-key": `replace-${e.id}` }, "Replace…");
  b.addEventListener("click", async () => {
    const v = await askText(`Replace ${e.name}`, "A username, or bot:greedy:", { yes: "Next", placeholder: "username or bot:greedy", maxlength: 40 });
    if (!v) return;
    const body = v.startsWith("bot:") ? { bot: v.slice(4) } : { username: v };
    const detail = body.bot ? "A bot takes the place at once, at its tables too." : "They take the place when they accept your offer (only before the first move of a game in play).";
    if (await ask(`Replace ${e.name} with ${v}?`, detail, "Replace")) act(ctx, `/entrants/${e.id}/replace`, { ...body, note: note() }, "POST", b);
  });
  return b;
}

function listPart(ctx, data) {
  const filter = el("input", { id: "entrant-filter", type: "search", placeholder: "find a name", "aria-label": "find an entrant" });
  filter.value = ctx.entrantFilter || "";
  const t = el("table", { class: "grid", id: "console-entrants" });
  t.append(el("tr", {}, ...["Entrant", "Seed", "State", data.me.director ? "Claim code" : "", ""].map((h) => el("th", { scope: "col" }, h))));
  const order = [...data.entrants].sort((a, b) => (a.dropped - b.dropped) || a.name.localeCompare(b.name));
  for (const e of order) {
    const state = entrantState(e);
    t.append(el("tr", { "data-entrant": e.id, "data-name": e.name.toLowerCase() },
      el("td", {}, e.name, e.club ? el("small", { class: "note" }, ` ${e.club}`) : "", e.bot ? " (bot)" : "", e.walk_in ? el("span", { class: "tag" }, "walk-in") : ""),
      el("td", { class: "num" }, e.seed ?? ""), el("td", {}, el("span", { class: `tag state-${state.split(":")[0].replace(/ /g, "-")}` }, state)),
      el("td", { class: "code" }, e.claim_code || ""), actions(ctx, data, e)));
  }
  const apply = () => {
    ctx.entrantFilter = filter.value;
    const q = filter.value.trim().toLowerCase();
    for (const tr of t.querySelectorAll("tr[data-entrant]")) tr.hidden = q !== "" && !tr.dataset.name.includes(q);
  };
  filter.addEventListener("input", apply);
  apply();
  const live = data.entrants.filter((e) => !e.dropped);
  const here = live.filter((e) => e.checked_in).length;
  return part(`Entrants (${live.length}, ${here} checked in)`, "console-checkin", el("p", { class: "console-row" }, filter), el("div", { class: "table-scroll" }, t));
}

function seedingPart(ctx, data) {
  const list = el("ol", { id: "seed-list", class: "seed-list" });
  const order = data.entrants.filter((e) => !e.dropped).sort((a, b) => (a.seed ?? 1e9) - (b.seed ?? 1e9) || a.id - b.id);
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
  const save = button(ctx, "Save these seeds", "/seeds", () => ({ order: [...list.children].map((li) => Number(li.dataset.entrant)) }), { id: "save-seeds", cls: "big", key: "save-seeds" });
  const fill = button(ctx, "Fill from ratings", "/seeds", { by: "rating" }, { id: "seed-rating", key: "seed-rating" });
  const how = data.settings.seeding === "manual" ? "by hand" : data.settings.seeding === "random" ? "at random" : "by rating";
  return el("details", { id: "console-seeding", class: "console-part" }, el("summary", {}, `Seeding (now ${how})`),
    el("p", { class: "note" }, "Type a seed number, drag a name, or fill from the ratings and adjust, then save: the draw is then seeded by hand."), list, el("p", { class: "console-row" }, fill, save));
}

const BOTS = ["greedy", "random", "easy", "medium", "hard", "expert"];

function botsPart(ctx) {
  const bot = el("select", { id: "bot-kind", "aria-label": "bot" }, ...BOTS.map((b) => el("option", { value: b }, b)));
  const n = el("input", { type: "number", min: 1, max: 256, value: 1, id: "bot-count", "aria-label": "how many bots" });
  return part("Bots", "console-bots", el("p", { class: "console-row" }, "Add ", n, " ", bot, " ",
    button(ctx, "bots", "/bots", () => ({ bot: bot.value, count: Number(n.value) }), { id: "add-bots", key: "add-bots" })));
}

function invitePart(ctx, data) {
  const who = el("input", { id: "invite-name", placeholder: "username", "aria-label": "username to invite", maxlength: 30 });
  return part("Invite a late entrant", "console-invite", el("p", { class: "console-row" }, who, " ",
    button(ctx, "Invite", "/invite", () => ({ username: who.value.trim(), note: note() }), { id: "invite", key: "invite" })));
}

export function entrantsTab(ctx, data) {
  const parts = [];
  const open = data.status === "registration";
  const late = ["running", "paused"].includes(data.status) && data.format === "swiss" && data.settings.late_entry;
  if (open) parts.push(windowPart(ctx, data));
  if ((open || late) && data.mode === "otb") parts.push(addPart(ctx, data));
  parts.push(listPart(ctx, data));
  if (open && data.me.director && data.mode === "online") parts.push(botsPart(ctx));
  if (open && data.me.director) parts.push(seedingPart(ctx, data));
  if ((open || late) && data.me.director) parts.push(invitePart(ctx, data));
  return parts;
}
