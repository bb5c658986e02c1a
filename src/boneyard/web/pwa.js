// The installable app: registers the service worker (boneyard.server.pwa: it keeps the site's
// shell for offline use) and tells the person when they are offline.
// Once the page has loaded and settled: installing fetches the shell, which a first visit
// should not wait behind.
export function registerWorker() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  const register = () => navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {}); // (the site works without it)
  const settled = () => setTimeout(register, 1500);
  if (document.readyState === "complete") settled();
  else window.addEventListener("load", settled, { once: true });
}

// Show ``banner`` while the browser is offline (or while the caller says the server cannot be
// reached: the returned function, ``set(off)``); ``back`` runs when the connection returns.
export function offlineBanner(banner, back) {
  const set = (off) => { banner.hidden = !off; document.body.classList.toggle("offline", off); };
  set(!navigator.onLine);
  window.addEventListener("offline", () => set(true));
  window.addEventListener("online", () => { set(false); back(); });
  return set;
}
