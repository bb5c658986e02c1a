// Sharing a table: the invite link of a private table, shown to the people seated at it from
// the moment it is created (the view's "invite"), and a public table's own link.
import { el } from "/static/api.js";

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
