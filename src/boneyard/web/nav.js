// The site's header on a phone: one row, the brand and the bell beside a menu button that opens
// the rest (the pages, who you are, sign in and out). Wide screens see it all in the row, as
// before (style.css). A module placed before the page's own module, which finds its header's
// links by id wherever they now are. The table page has its own menu (menu.js).
import { bindMenu } from "/static/dropdown.js";

function siteMenu(header) {
  const menu = document.createElement("nav");
  menu.id = "site-menu";
  menu.className = "menu site-menu";
  menu.setAttribute("aria-label", "site");
  for (const n of [...header.childNodes]) {
    if (!(n.classList && n.classList.contains("brand"))) menu.appendChild(n);
  }
  const button = document.createElement("button");
  button.type = "button";
  button.className = "menu-toggle header-button";
  button.setAttribute("aria-expanded", "false");
  button.setAttribute("aria-controls", "site-menu");
  button.innerHTML = '<span aria-hidden="true">☰</span><span class="sr-only">Menu</span>';
  header.append(button, menu);
  bindMenu(button, menu, "a, button");
}

const header = document.querySelector("body > header");
if (header && !header.querySelector(".menu")) siteMenu(header);
