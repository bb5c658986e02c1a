// The offline page (shown by the service worker for a page that needs the connection): it
// loads the page asked for again once the browser is back online, or when asked to.
const again = () => location.reload();
document.getElementById("try-again").addEventListener("click", again);
window.addEventListener("online", again);
