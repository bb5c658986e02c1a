// The offline page (shown by the service worker for a page that needs the connection): it
// loads the page asked for again when asked to, and once the browser is back online and the
// server answers. The browser may say "online" a moment before a request gets through (the page
// loaded then is this one again), so while it is shown it keeps asking, less and less often.
const again = () => location.reload();
document.getElementById("try-again").addEventListener("click", again);
window.addEventListener("online", again);

async function reachable() {
  try {
    await fetch("/api/games", { cache: "no-store" }); // (any answer will do: the worker passes /api/ by)
    return true;
  } catch {
    return false;
  }
}

async function watch() {
  for (let wait = 2000; ; wait = Math.min(wait * 2, 30000)) {
    await new Promise((resolve) => setTimeout(resolve, wait));
    if (navigator.onLine && (await reachable())) return again();
  }
}
watch();
