// The table page's frame: the header's menu (one row on a phone: How to play, the toggles, the
// profile and Sign out behind ☰), the dark theme's toggle (theme.js applies it), and the side
// panel as a drawer on phones with a count of chat lines not yet seen.
import { el } from "/static/api.js";
import { bindMenu } from "/static/dropdown.js";

const $ = (id) => document.getElementById(id);
const THEME_KEY = "boneyard-theme";
let unread = 0;

// ☰ opens and closes the menu (dropdown.js); its toggles keep it open, a link closes it.
export function initMenu() {
  const button = $("menu-toggle");
  const menu = $("menu");
  if (button && menu) bindMenu(button, menu);
}

function dark() {
  return document.documentElement.dataset.theme === "dark";
}

// "Dark theme: on/off": the choice is kept in this browser (until then the system's setting).
export function themeToggle() {
  const b = el("button", { id: "theme-toggle", type: "button", class: "toggle", title: "Light or dark colours (kept in this browser)" });
  const show = () => {
    b.textContent = dark() ? "Dark: on" : "Dark: off";
    b.setAttribute("aria-pressed", String(dark()));
  };
  b.addEventListener("click", () => {
    const next = dark() ? "light" : "dark";
    try { localStorage.setItem(THEME_KEY, next); } catch { /* private mode: this page only */ }
    document.documentElement.dataset.theme = next;
    show();
  });
  new MutationObserver(show).observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  show();
  return b;
}

function drawerOpen() {
  return document.body.classList.contains("drawer-open");
}

// Whether the side panel is a drawer here (a phone) rather than a column beside the board.
export function isDrawer() {
  const button = $("drawer-toggle");
  return Boolean(button && button.offsetParent !== null);
}

function showUnread() {
  const badge = $("unread");
  if (!badge) return;
  badge.textContent = String(unread);
  badge.hidden = unread === 0;
  badge.setAttribute("aria-label", `${unread} new chat message${unread === 1 ? "" : "s"}`);
}

// The drawer's button and its Close; Escape closes it too.
export function initDrawer() {
  const button = $("drawer-toggle");
  if (!button) return;
  const show = (open) => {
    button.setAttribute("aria-expanded", String(open));
    document.body.classList.toggle("drawer-open", open);
    if (open) { unread = 0; showUnread(); $("drawer-close").focus(); } else if (isDrawer()) button.focus();
  };
  button.addEventListener("click", () => show(!drawerOpen()));
  $("drawer-close").addEventListener("click", () => show(false));
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape" && drawerOpen()) show(false); });
}

// A chat line came: counted on the drawer's button while the drawer is closed.
export function chatArrived() {
  if (!isDrawer() || drawerOpen()) return;
  unread += 1;
  showUnread();
}
