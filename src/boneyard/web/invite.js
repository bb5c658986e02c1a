// Sharing a table: the invite link of a private table, shown to the people seated at it from
// the moment it is created (the view's "invite"), and a public table's own link.
import { api, el } from "/static/api.js";

export function inviteUrl(token) {
  return `${location.origin}/join/${token}`;
}

// A read-only field with the link and a Copy button (the clipboard needs https or localhost;
// the field is selected either way so that Ctrl+C works).
function linkField(url, id, copyId, label) {
  const input = el("input", { id, readonly: "readonly", value: url, size: "34", "aria-label": label });
  const note = el("span", { class: "note copied", "aria-live": "polite" });
  const copy = async () => {
    input.select();
    try { await navigator.clipboard.writeText(input.value); note.textContent = " copied"; }
    catch { note.textContent = " press Ctrl+C to copy"; }
  };
  return [input, el("button", { id: copyId, type: "button", onclick: copy }, "Copy"), note];
}

export function invitePanel(token) {
  return el("div", { class: "invite" },
    el("div", {}, el("b", {}, "Private table"), ": not listed in the lobby. Invite people with this link:"),
    ...linkField(inviteUrl(token), "invite-link", "copy-invite", "the invite link"));
}

// A public table's link, to send to friends (they can watch, or take an open seat).
export function sharePanel(url, id = "share-link") {
  return el("div", { class: "invite share" },
    el("div", {}, el("b", {}, "Share this table"), ": anyone with the link can watch it or take an open seat."),
    ...linkField(url, id, `copy-${id}`, "the table's link"));
}

export function renderInvite(box, msg) {
  if (!box) return;
  const token = msg && msg.invite;
  if (!token) {
    if (box.dataset.token) { box.hidden = true; box.replaceChildren(); delete box.dataset.token; }
    if (msg && msg.table.status !== "open") { box.hidden = true; box.replaceChildren(); }
    return;
  }
  if (box.dataset.token === token && box.children.length) { box.hidden = false; return; }
  box.dataset.token = token;
  box.replaceChildren(invitePanel(token));
  box.hidden = false;
}

// Take seat ``seat`` (0-based) of table ``t``; signed out, a guest is made on the way (a name can
// be chosen later on the home page) and the page opens again as that guest. The table starts
// by itself once every seat is taken (a table made to start when full).
export async function joinSeat(t, seat, me, invite) {
  if (!me) await api("POST", "/api/guest", {});
  await api("POST", `/api/tables/${t.id}/join`, { seat, invite });
  if (!me) location.reload(); // (the socket was opened signed out: open it again as the guest)
}

// An invited friend who opens the link is seated in the first free seat at once: once per page,
// while the table waits for players and they have no seat at it. Returns whether it tried.
let tried = false;
export function takeInvitedSeat(msg, me, invite, onError) {
  const t = msg && msg.table;
  if (tried || !invite || !t || t.status !== "open") return false;
  if (me && t.seats.some((s) => s.user_id === me.id)) return false;
  const seat = t.seats.findIndex((s) => s.kind === "open" && !s.invited);
  if (seat < 0) return false;
  tried = true;
  joinSeat(t, seat, me, invite).catch((e) => onError(e.message));
  return true;
}
