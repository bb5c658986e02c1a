// Leaving a game: Resign (confirmed), Abort (before everyone has moved in the first hand), and,
// at a table without a clock, claiming the win or letting a bot play for a person who has been
// disconnected for a minute (a countdown until then). Each seat's connection is shown too.
import { el } from "/static/api.js";

let dialog = null;
let tick = null;

function confirmResign(names, last, send) {
  if (!dialog) {
    dialog = el("dialog", { id: "resign-dialog", "aria-labelledby": "resign-q" });
    document.body.append(dialog);
  }
  const two = last.table.seats.length === 2;
  const other = two ? names[1 - last.seat] : null;
  dialog.replaceChildren(
    el("p", { id: "resign-q" }, el("b", {}, "Resign this game?")),
    el("p", {}, two ? `${other} wins at once, and your rating counts it as a loss.` : "A bot plays your seat to the end; you are placed last."),
    el("div", { class: "actions" },
      el("button", { class: "big danger", id: "resign-yes", onclick: () => { dialog.close(); send({ type: "resign" }); } }, "Resign"),
      el("button", { id: "resign-no", onclick: () => dialog.close() }, "Keep playing")),
  );
  dialog.showModal();
  dialog.querySelector("#resign-no").focus();
}

// The Resign and Abort buttons of a seated person while the game is in play.
export function renderGameActions(box, last, names, send) {
  box.replaceChildren();
  const seated = last.seat !== null && last.seat !== undefined;
  const playing = last.table.status === "playing" && !last.result && !last.ending;
  if (!seated || !playing || last.table.tournament) return;
  if (last.abortable) {
    box.append(el("button", { id: "abort", title: "End the game with no result and no rating: possible until every player has moved", onclick: () => send({ type: "abort" }) }, "Abort"));
  }
  box.append(el("button", { id: "resign", class: "danger", onclick: () => confirmResign(names, last, send) }, "Resign"));
}

function fmt(s) {
  const n = Math.max(0, Math.ceil(s));
  return n >= 60 ? `${Math.floor(n / 60)}:${String(n % 60).padStart(2, "0")}` : `${n} s`;
}

// At a table without a clock: who is away, since when, and (after claim_after seconds) the
// claim buttons for the other seated people.
export function renderClaim(box, last, names, send) {
  if (tick) { clearInterval(tick); tick = null; }
  box.replaceChildren();
  const seated = last.seat !== null && last.seat !== undefined;
  const playing = last.table.status === "playing" && !last.result && !last.ending;
  if (!playing || last.claim_after === undefined || last.table.tournament) return;
  const away = (last.presence || []).map((p, i) => (p && !p.online && i !== last.seat ? i : null)).filter((i) => i !== null);
  if (!away.length) return;
  const draw = () => {
    box.replaceChildren();
    const now = last.server_time + (performance.now() - last.receivedAt) / 1000;
    for (const i of away) {
      const gone = now - (last.presence[i].away_since || now);
      const left = last.claim_after - gone;
      const line = el("div", { class: "claim", "data-seat": i });
      if (left > 0) {
        line.append(el("span", {}, `${names[i]} is disconnected (${fmt(gone)}).${seated ? ` You may claim in ${fmt(left)} if they do not come back.` : ""}`));
      } else {
        line.append(el("span", {}, `${names[i]} has been disconnected for ${fmt(gone)}.`));
        if (seated) {
          if (last.table.seats.length === 2) {
            line.append(" ", el("button", { class: "big", id: "claim-win", onclick: () => send({ type: "claim", seat: i, how: "win" }) }, "Claim the win"));
          }
          line.append(" ", el("button", { id: `claim-bot-${i}`, class: "claim-bot", onclick: () => send({ type: "claim", seat: i, how: "bot" }) }, `Let a bot play for ${names[i]}`));
        }
      }
      box.append(line);
    }
  };
  draw();
  // Redraw each second until the claim is possible (then the buttons stay put).
  tick = setInterval(() => {
    const now = last.server_time + (performance.now() - last.receivedAt) / 1000;
    draw();
    if (away.every((i) => now - (last.presence[i].away_since || now) > last.claim_after + 1)) { clearInterval(tick); tick = null; }
  }, 1000);
}
