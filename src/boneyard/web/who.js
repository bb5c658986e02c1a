// Who you are, in the header of every page but the table (which names no one there): your name,
// your profile and Sign out. A browser shared at a venue (the director's laptop, a
// scorekeeper's, a player's borrowed phone) can be signed out of from the page it is on. The
// links go beside #who, wherever nav.js has put it; a page that has them already (the front
// page, whose Sign out stays on it) keeps its own.
import { api, el } from "/static/api.js";

export function showWho(user) {
  const who = document.getElementById("who");
  if (!who) return;
  who.textContent = user ? `${user.display_name}${user.guest ? " (guest)" : ""}` : "";
  let profile = document.getElementById("my-profile");
  if (!profile) {
    profile = el("a", { id: "my-profile", href: "#" }, "my profile");
    who.after(" ", profile);
  }
  profile.hidden = !user;
  if (user) profile.href = `/profile/${user.id}`;
  let out = document.getElementById("logout");
  if (!out) {
    out = el("button", { id: "logout", type: "button" }, "Sign out");
    out.addEventListener("click", async () => {
      await api("POST", "/api/logout").catch(() => {});
      location.href = "/";
    });
    profile.after(" ", out);
  }
  out.hidden = !user;
}
