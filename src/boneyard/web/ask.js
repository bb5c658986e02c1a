// Asking before an action that cannot be taken back (a forfeit, a ruling, a withdrawal…): a
// modal dialog with the question, what will happen, and two buttons.
import { el } from "/static/api.js";

let dialog = null;

function build() {
  dialog = el("dialog", { id: "confirm", "aria-labelledby": "confirm-title" });
  document.body.append(dialog);
}

// Resolves true when the person confirms, false when they cancel (or press Escape).
export function ask(question, detail, yes = "Yes") {
  if (!dialog) build();
  const ok = el("button", { type: "button", id: "confirm-ok", class: "big" }, yes);
  const no = el("button", { type: "button", id: "confirm-cancel" }, "Cancel");
  dialog.replaceChildren(el("h3", { id: "confirm-title" }, question), detail ? el("p", {}, detail) : "", el("p", { class: "confirm-buttons" }, no, " ", ok));
  return new Promise((resolve) => {
    const done = (v) => { dialog.close(); resolve(v); };
    ok.addEventListener("click", () => done(true));
    no.addEventListener("click", () => done(false));
    dialog.addEventListener("cancel", () => resolve(false), { once: true });
    dialog.showModal();
    no.focus();
  });
}

// Resolves the text the person typed (trimmed) when they confirm, null when they cancel: a
// dialog with a labelled field, in place of the browser's prompt() (which cannot be styled,
// named for a screen reader, or refused when empty).
export function askText(question, label, { detail = "", yes = "OK", placeholder = "", maxlength = 200 } = {}) {
  if (!dialog) build();
  const field = el("input", { type: "text", id: "confirm-text", placeholder, maxlength, required: "" });
  const ok = el("button", { type: "submit", id: "confirm-ok", class: "big" }, yes);
  const no = el("button", { type: "button", id: "confirm-cancel" }, "Cancel");
  const form = el("form", { method: "dialog" }, el("label", { for: "confirm-text" }, label), " ", field, el("p", { class: "confirm-buttons" }, no, " ", ok));
  dialog.replaceChildren(el("h3", { id: "confirm-title" }, question), detail ? el("p", {}, detail) : "", form);
  return new Promise((resolve) => {
    const done = (v) => { dialog.close(); resolve(v); };
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const v = field.value.trim();
      if (v) done(v);
      else field.focus();
    });
    no.addEventListener("click", () => done(null));
    dialog.addEventListener("cancel", () => resolve(null), { once: true });
    dialog.showModal();
    field.focus();
  });
}
