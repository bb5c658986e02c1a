// Leaving a game: Resign (confirmed), Abort (before everyone has moved in the first hand), and
// claiming the win or letting a bot play for a person who has been disconnected for a minute,
// or who has not moved for a few minutes at a table without a clock (a countdown until then).
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

// Who may be claimed against: a person away (disconnected) for claim_after seconds, or, at a
// table without a clock, the person to act who has not moved for stall.after seconds, connected
// or not. A countdown until then; then, for the other seated people, the claim buttons. The
// person who stalls is told too.
function claimables(last) {
  const out = [];
  (last.presence || []).forEach((p, i) => {
    if (p && !p.online && p.away_since && i !== last.seat) out.push({ seat: i, since: p.away_since, after: last.claim_after, away: true });
  });
  const st = last.stall;
  if (st && !out.some((c) => c.seat === st.seat)) out.push({ seat: st.seat, since: st.since, after: st.after, away: false });
  return out;
}

function claimLine(c, since, names, last, send) {
  const gone = Math.floor(since); // (time gone rounds down, time left up: they add up)
  const seated = last.seat !== null && last.seat !== undefined;
  const line = el("div", { class: "claim", "data-seat": c.seat, "data-kind": c.away ? "away" : "stall" });
  const left = c.after - since;
  if (c.seat === last.seat) {
    line.append(el("span", {}, `It has been your turn for ${fmt(gone)}.${left > 0 ? ` Move within ${fmt(left)}, or the others may claim the game.` : " The others may claim the game now: move!"}`));
    return line;
  }
  const what = c.away ? `${names[c.seat]} is disconnected (${fmt(gone)}).` : `${names[c.seat]} has not moved for ${fmt(gone)}.`;
  if (left > 0) {
    line.append(el("span", {}, `${what}${seated ? ` You may claim in ${fmt(left)}${c.away ? " if they do not come back" : " if they do not move"}.` : ""}`));
    return line;
  }
  line.append(el("span", {}, what));
  if (seated) {
    if (last.table.seats.length === 2) {
      line.append(" ", el("button", { class: "big", id: "claim-win", onclick: () => send({ type: "claim", seat: c.seat, how: "win" }) }, "Claim the win"));
    }
    line.append(" ", el("button", { id: `claim-bot-${c.seat}`, class: "claim-bot", onclick: () => send({ type: "claim", seat: c.seat, how: "bot" }) }, `Let a bot play for ${names[c.seat]}`));
  }
  return line;
}

export function renderClaim(box, last, names, send) {
  if (tick) { clearInterval(tick); tick = null; }
  box.replaceChildren();
  const playing = last.table.status === "playing" && !last.result && !last.ending;
  if (!playing || last.claim_after === undefined || last.table.tournament) return;
  const found = claimables(last);
  if (!found.length) return;
  const now = () => last.server_time + (performance.now() - last.receivedAt) / 1000;
  // (A slow move is shown once half its time has gone, not from the turn's first second.)
  const shown = (c) => c.away || now() - c.since >= c.after / 2;
  const draw = () => box.replaceChildren(...found.filter(shown).map((c) => claimLine(c, Math.max(0, now() - c.since), names, last, send)));
  draw();
  // Redraw each second until every claim is possible (then the buttons stay put).
  tick = setInterval(() => {
    draw();
    if (found.every((c) => now() - c.since > c.after + 1)) { clearInterval(tick); tick = null; }
  }, 1000);
}
