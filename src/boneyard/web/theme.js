// The colour theme, light or dark: the system's setting until the person chooses with the
// toggle (remembered in this browser). A classic script in the page's head, not a module, so
// that the first frame is already painted in the right theme; menu.js has the toggle.
(function () {
  var KEY = "boneyard-theme";
  var media = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  function chosen() {
    try { return localStorage.getItem(KEY); } catch (e) { return null; }
  }
  function apply() {
    var c = chosen();
    var dark = c === "dark" || c === "light" ? c === "dark" : Boolean(media && media.matches);
    document.documentElement.dataset.theme = dark ? "dark" : "light";
  }
  apply();
  if (media && media.addEventListener) media.addEventListener("change", apply);
  window.addEventListener("storage", function (ev) { if (ev.key === KEY) apply(); });
})();
