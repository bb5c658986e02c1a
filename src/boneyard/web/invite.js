// The invite link of a private table, shown to the people seated at it (the view's "invite").
import { el } from "/static/api.js";

export function inviteUrl(token) {
  return `${location.origin}/join/${token}`;
}

// A read-only field with the link and a Copy button (the clipboard needs https or localhost;
// the field is selected either way so that Ctrl+C works).
export function invitePanel(token) {
  const input = el("input", { id: "invite-link", readonly: "readonly", value: inviteUrl(token), size: "34" });
  const note = el("span", { class: "note copied" });
  const copy = async () => {
    input.select();
    try { await navigator.clipboard.writeText(input.value); note.textContent = " copied"; }
    catch { note.textContent = " press Ctrl+C to copy"; }
  };
  return el("div", { class: "invite" },
    el("div", {}, el("b", {}, "Private table"), ": not listed in the lobby. Invite people with this link:"),
    input, el("button", { id: "copy-invite", type: "button", onclick: copy }, "Copy"), note);
}

export function renderInvite(box, msg) {
  if (!box) return;
  const token = msg && msg.invite;
  if (!token) { box.hidden = true; box.replaceChildren(); return; }
  if (box.dataset.token === token && box.children.length) { box.hidden = false; return; }
  box.dataset.token = token;
  box.replaceChildren(invitePanel(token));
  box.hidden = false;
}
