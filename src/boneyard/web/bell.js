// The bell in the header: a person's notifications (match ready, game over, the director acted
// on their match), polled while the page is open, with an opt-in to the browser's own
// notifications (asked only when the person turns them on).
import { api, el } from "/static/api.js";

const POLL_MS = 8000;
const OPT_IN = "boneyard-browser-notes";

let last = 0;
let items = [];
let unread = 0;
let button = null;
let panel = null;

// A bell drawn in SVG (no emoji font needed).
function icon() {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", "18");
  svg.setAttribute("height", "18");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", "M12 2a6 6 0 0 0-6 6v4.5L4 16v1h16v-1l-2-3.5V8a6 6 0 0 0-6-6zm0 20a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22z");
  path.setAttribute("fill", "currentColor");
  svg.append(path);
  return svg;
}

function label() {
  button.replaceChildren(icon(), unread ? el("b", { class: "bell-count" }, unread) : "");
  button.setAttribute("aria-label", unread ? `Notifications: ${unread} unread` : "Notifications");
}

function when(iso) {
  const d = new Date(iso);
  return d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

function renderPanel() {
  const list = el("ul", { class: "bell-list" });
  for (const n of items.slice(0, 20)) {
    const text = [n.title, n.body ? ` — ${n.body}` : ""].join("");
    const line = n.url ? el("a", { href: n.url }, text) : el("span", {}, text);
    list.append(el("li", { class: n.read ? "" : "unread", "data-kind": n.kind }, el("small", {}, when(n.at)), " ", line));
  }
  if (!items.length) list.append(el("li", {}, "Nothing yet: you are told here when your match is ready."));
  const toggle = el("button", { type: "button", id: "bell-browser" }, browserOn() ? "Browser notifications: on" : "Turn on browser notifications");
  toggle.addEventListener("click", toggleBrowser);
  panel.replaceChildren(el("h3", {}, "Notifications"), list, toggle);
}

function browserOn() {
  return "Notification" in window && Notification.permission === "granted" && localStorage.getItem(OPT_IN) === "1";
}

async function toggleBrowser() {
  if (!("Notification" in window)) return;
  if (browserOn()) localStorage.removeItem(OPT_IN);
  else if ((await Notification.requestPermission()) === "granted") localStorage.setItem(OPT_IN, "1");
  renderPanel();
}

async function poll(first) {
  if (document.hidden && !first) return;
  let data;
  try { data = await api("GET", `/api/me/notifications?after=${last}`); } catch { return; }
  const fresh = data.notifications.filter((n) => n.id > last);
  if (fresh.length) {
    if (!first && browserOn()) for (const n of fresh.slice(0, 3)) new Notification(n.title, { body: n.body || "", tag: `boneyard-${n.id}` });
    items = [...fresh, ...items].slice(0, 50);
    last = Math.max(last, ...fresh.map((n) => n.id));
  }
  unread = data.unread;
  label();
  if (!panel.hidden) renderPanel();
}

async function open() {
  panel.hidden = !panel.hidden;
  button.setAttribute("aria-expanded", String(!panel.hidden));
  if (panel.hidden) return;
  renderPanel();
  if (unread && last) {
    const data = await api("POST", "/api/me/notifications/read", { upto: last });
    unread = data.unread;
    for (const n of items) n.read = true;
    label();
  }
}

// Adds the bell to the page's header for a signed-in person.
export function initBell(user) {
  const header = document.querySelector("header");
  if (!user || !header || button) return;
  button = el("button", { type: "button", id: "bell", class: "bell", "aria-expanded": "false", "aria-controls": "bell-panel" });
  panel = el("div", { id: "bell-panel", class: "bell-panel", hidden: "" });
  button.addEventListener("click", open);
  header.append(button, panel);
  label();
  poll(true);
  setInterval(() => poll(false), POLL_MS);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) poll(false); });
}
