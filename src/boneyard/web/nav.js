// The site's header on a phone: one row, the brand and the bell beside a menu button that opens
// the rest (the pages, who you are, sign in and out). Wide screens see it all in the row, as
// before (style.css). A classic deferred script, run before the page's own module, which finds its
// header's links by id wherever they now are. The table page has its own menu (menu.js).
(function () {
  var header = document.querySelector("body > header");
  if (!header || header.querySelector(".menu-toggle, .site-menu")) return;
  var menu = document.createElement("nav");
  menu.id = "site-menu";
  menu.className = "site-menu";
  menu.setAttribute("aria-label", "site");
  Array.prototype.slice.call(header.childNodes).forEach(function (n) {
    if (!(n.classList && n.classList.contains("brand"))) menu.appendChild(n);
  });
  var button = document.createElement("button");
  button.type = "button";
  button.className = "site-menu-toggle";
  button.setAttribute("aria-expanded", "false");
  button.setAttribute("aria-controls", "site-menu");
  button.innerHTML = '<span aria-hidden="true">☰</span><span class="sr-only">Menu</span>';
  header.append(button, menu);
  function open(yes) {
    menu.classList.toggle("open", yes);
    button.setAttribute("aria-expanded", String(yes));
  }
  button.addEventListener("click", function () { open(!menu.classList.contains("open")); });
  // A choice made, a tap elsewhere or Escape closes it.
  menu.addEventListener("click", function (ev) { if (ev.target.closest("a, button")) open(false); });
  document.addEventListener("click", function (ev) { if (!header.contains(ev.target)) open(false); });
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape" && menu.classList.contains("open")) { open(false); button.focus(); }
  });
})();
