// The turn clock on a live table: a countdown for the seat to act (from the view's `clock`:
// seconds remaining in the current phase, counted down locally), the grace warning (saying what
// a time-out does there: a bot plays on, or at an event's table its rule), and the
// "Take back my seat" button for a person whose seat a bot took.
import { el } from "/static/api.js";

const $ = (id) => document.getElementById(id);
let status = null;
let receivedAt = 0;
let names = [];
let mySeat = null;
let timer = null;

function fmt(seconds) {
  const s = Math.ceil(seconds);
  return s >= 60 ? `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}` : `${s} s`;
}

function tick() {
  const box = $("clock");
  if (!box) return;
  if (!status || status.seat === null || status.seat === undefined) {
    box.hidden = true;
    box.className = "clock";
    return;
  }
  const left = Math.max(0, status.remaining - (performance.now() - receivedAt) / 1000);
  const mine = status.seat === mySeat;
  const who = mine ? "You" : names[status.seat] || `Seat ${status.seat + 1}`;
  box.hidden = false;
  box.className = `clock ${status.phase}${mine ? " mine" : ""}`;
  box.dataset.phase = status.phase;
  const then = { lose: `${mine ? "you lose" : `${who} loses`} the game`, director: "the director decides" }[status.timeout] || "a bot takes the seat";
  box.textContent = status.phase === "grace"
    ? `${mine ? "Your" : `${who}'s`} time is up: ${then} in ${fmt(left)}`
    : `${who}: ${fmt(left)} to move`;
}

// A new clock status (from a view or a {"type": "clock"} warning).
export function showClock(clock, seatNames, seat) {
  status = clock || null;
  receivedAt = performance.now();
  names = seatNames || [];
  mySeat = seat;
  tick();
  if (!timer) timer = setInterval(tick, 250);
}

// The "Take back my seat" button when a bot plays a seat that was mine.
// Kept as it is while it stays (the bot may move many times a second: a button rebuilt with
// every view could not be clicked).
export function renderReclaim(box, last, me, send) {
  if (!box) return;
  const over = last && last.view && last.view.is_over;
  const seat = me && last && last.table
    ? last.table.seats.findIndex((s) => s.replacing && s.replacing.user_id === me.id)
    : -1;
  if (seat < 0 || over) { box.replaceChildren(); return; }
  if (box.querySelector("#reclaim")) return;
  box.append(
    el("p", { class: "note" }, "Your time ran out: a bot plays your seat."),
    el("button", { id: "reclaim", class: "big", onclick: () => send({ type: "reclaim" }) }, "Take back my seat"),
  );
}
