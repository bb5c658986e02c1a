// A live table: draws the seat's view (the observation the server sends, which names its game),
// the move log and the hand's end, and turns taps, clicks, drags and keys on tiles, ends, cells
// and captures into that seat's legal moves. The whole table fits the window (table.css): the
// board is drawn for the room it has, and drawn again when that room changes. Pieces: hand.js
// (your hand, what to do), plates.js (the players), movelog.js (log, effects), handend.js (a
// hand's and a game's end), leave.js (resign, abort, claim), notify.js (title, sound, alerts),
// menu.js (the header's menu, the theme, the side panel's drawer on phones).
import { api, el } from "/static/api.js";
import { sameTile } from "/static/tiles.js";
import { candidates as pick, cellTargets, spacerChoice, spacerLabel } from "/static/picker.js";
import { board, endKey, pilesPanel } from "/static/board.js";
import { infoChips, scoresText, seatName } from "/static/common.js";
import { renderMine, touchScreen } from "/static/hand.js";
import { renderPlates, renderSeats } from "/static/plates.js";
import { moveWords } from "/static/words.js";
import { chatArrived, initDrawer, initMenu, themeToggle } from "/static/menu.js";
import { autoSeed, renderFairness, seedRefused, seedTaken } from "/static/fairness.js";
import { joinSeat, renderInvite, sharePanel, takeInvitedSeat } from "/static/invite.js";
import { initChat, isChat, onChat } from "/static/chat.js";
import { renderReclaim, showClock } from "/static/clock.js";
import { MoveLog, flyIn, lastPlacement, popPoints, renderLog } from "/static/movelog.js";
import { renderHandEnd } from "/static/handend.js";
import { renderClaim, renderGameActions } from "/static/leave.js";
import { initToggles, play, turnChanged } from "/static/notify.js";
import { initBell } from "/static/bell.js";
import { tournamentLinks } from "/static/tournamentlink.js";

const $ = (id) => document.getElementById(id);
const tableId = location.pathname.split("/").pop();
const invite = new URLSearchParams(location.search).get("invite"); // a private table's token
const inviteQuery = invite ? `?invite=${encodeURIComponent(invite)}` : "";
const ACTIONS = new Set(["continue", "resign", "abort", "claim", "rematch"]);
let socket = null;
let last = null;
let me = null;
let sel = null; // {tile, cells: [picked cells], capture}
let retries = 0;
let gone = false;
const log = new MoveLog();

function names() {
  return last ? last.table.seats.map((s, i) => seatName(s, i)) : [];
}

// The seat this person holds, or held before a bot took it (null: a spectator).
function mySeat(view) {
  if (view.seat !== null && view.seat !== undefined) return view.seat;
  if (!me) return null;
  const i = view.table.seats.findIndex((s) => s.replacing && s.replacing.user_id === me.id);
  return i < 0 ? null : i;
}

// -- the socket ----------------------------------------------------------------------------------

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const query = inviteQuery ? `${inviteQuery}&presence=1` : "?presence=1";
  let opened = false;
  socket = new WebSocket(`${proto}://${location.host}/ws/tables/${tableId}${query}`);
  socket.onopen = () => { opened = true; retries = 0; setStatus("connected"); };
  socket.onclose = () => {
    if (gone) return;
    setStatus("reconnecting");
    if (!opened) checkTable(); // refused: a table that does not exist, or that we may not see
    else later();
  };
  socket.onmessage = (ev) => onMessage(JSON.parse(ev.data));
}

function setStatus(text) {
  $("status").textContent = text;
  $("status").classList.toggle("ok", text === "connected");
}

function later() {
  retries += 1;
  setTimeout(connect, Math.min(10_000, 500 * 2 ** Math.min(retries, 5)));
}

// The socket was refused: ask why, and stop for good when the table is not there for us.
async function checkTable() {
  try {
    await api("GET", `/api/tables/${tableId}${inviteQuery}`);
    later(); // it is there: the server was busy, or restarting
  } catch (e) {
    if (/no such table|could not be restored|sign in/i.test(e.message)) showGone(e.message);
    else later();
  }
}

function showGone(reason) {
  gone = true;
  setStatus("not available");
  document.body.classList.add("gone-page");
  const why = /no such table/i.test(reason)
    ? "This table does not exist, or it is private and this link has no valid invite."
    : reason;
  $("gone").replaceChildren(el("h1", {}, "This table is not available"), el("p", {}, why),
    el("p", {}, el("a", { href: "/", class: "button", id: "back-home" }, "Back to the lobby")));
  $("gone").hidden = false;
  document.title = "Table not available — Boneyard";
}

function onMessage(msg) {
  if (isChat(msg)) { onChat(msg); if (msg.type === "chat") chatArrived(); return; }
  if (msg.type === "clock") { if (last) { last.clock = msg.clock; renderClock(); } return; }
  if (msg.type === "seed") { seedTaken(last, msg); renderFairness($("fairness"), last, tableId); return; }
  if (msg.type === "error" && msg.about === "seed") { seedRefused(msg.hand); return; }
  if (msg.type === "presence") {
    if (!last) return;
    Object.assign(last, { presence: msg.presence, server_time: msg.server_time, receivedAt: performance.now() });
    renderPlayers();
    renderClaim($("claim-area"), last, names(), sendMessage);
    return;
  }
  delete document.body.dataset.pending;
  if (msg.type === "error") { $("error").textContent = msg.message; if (!ACTIONS.has(msg.about)) render(); return; }
  $("error").textContent = msg.type === "resync" && msg.message ? msg.message : "";
  onView(msg);
}

function onView(msg) {
  msg.receivedAt = performance.now();
  const full = Boolean(msg.log && msg.log.from === 0);
  const added = log.merge(msg.log);
  if (added === null) { sendMessage({ type: "resync" }); return; } // a part went missing
  if (!last || msg.version !== last.version) sel = null;
  last = msg;
  if (last.rematch && last.rematch.table) { location.href = `/table/${last.rematch.table}`; return; }
  renderLog($("move-log"), log, added, full); // (first: the log says at once what happened)
  render();
  if (!full) effects(added);
  const turn = Boolean(last.view && !last.view.is_over && last.moves.length);
  turnChanged(turn, `${last.table.title} — Boneyard`);
  autoSeed(last, tableId, (m) => socket.send(JSON.stringify(m)));
}

// The newest moves: the tile flies in from its player's plate, its points pop up, a sound.
function effects(added) {
  const p = lastPlacement(added);
  if (p) {
    if (flyIn($("layout"), p.tile, document.querySelector(`.plate[data-seat="${p.seat}"]`))) {
      document.body.dataset.flights = String(Number(document.body.dataset.flights || 0) + 1);
    }
    popPoints($("layout"), p.tile, p.points);
    play("place");
  }
  if (added.some((e) => e.type === "hand_end" && e.reason !== "redeal")) play("end");
}

function send(event) {
  if (!socket || socket.readyState !== WebSocket.OPEN || !last) {
    $("error").textContent = "not connected: reconnecting, try again in a moment";
    return;
  }
  sel = null;
  socket.send(JSON.stringify({ seq: last.version, action: event }));
  document.body.dataset.pending = "1"; // until the server answers: no stale targets to click
  render();
}

function sendMessage(m) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    $("error").textContent = "not connected: reconnecting, try again in a moment";
    return;
  }
  socket.send(JSON.stringify(m));
}

async function act(path, body) {
  try {
    return await api("POST", path, body); // the server then sends this socket its new view
  } catch (e) { $("error").textContent = e.message; return null; }
}

// -- seats, plates, joining ------------------------------------------------------------------------

// What each seat kept at the hand's end on show (the table waits to deal, or the game is over):
// the counts and your hand say so, not the emptied hands of the state.
function keptHands() {
  const e = last.hand_end ? log.entries[last.hand_end.entry] : null;
  return e && Array.isArray(e.hands) ? e.hands : null;
}

function renderPlayers() {
  const kept = keptHands();
  renderSeats($("seats"), last, kept);
  renderPlates($("plates"), $("my-plate"), last, kept);
}

function renderJoin() {
  const t = last.table;
  const area = $("join-area");
  area.replaceChildren();
  if (t.status !== "open") return;
  const mine = me && t.seats.some((s) => s.user_id === me.id);
  const open = t.seats.filter((s) => s.kind === "open").length;
  area.append(el("p", { class: "waiting" }, open ? `Waiting for ${open} more player${open > 1 ? "s" : ""}.` : "Every seat is taken."));
  if (takeInvitedSeat(last, me, invite, (m) => { $("error").textContent = m; })) return; // (invite.js)
  t.seats.forEach((s, i) => {
    if (s.kind === "open" && !s.invited && !mine) {
      const take = () => joinSeat(t, i, me, invite).catch((e) => { $("error").textContent = e.message; });
      area.append(el("button", { class: "big", onclick: take }, `Take seat ${i + 1}`));
    }
  });
  if (t.start_by) {
    area.append(el("p", { id: "dealing", class: "note" }, "Dealing as soon as every player's seed for the first hand is in (a few seconds at most)."));
  } else if (mine && !open) {
    area.append(el("button", { id: "start", class: "big", onclick: () => act(`/api/tables/${t.id}/start`) }, "Start"));
  }
  if (!me && open) area.append(el("p", { class: "note" }, "No account needed: you play as a guest."));
}

function renderShare() {
  const t = last.table;
  const box = $("share-box");
  if (last.invite) { box.replaceChildren(); return; } // (a private table: the invite link)
  const url = `${location.origin}/table/${t.id}`;
  if (box.dataset.url !== url) { box.dataset.url = url; box.replaceChildren(sharePanel(url)); }
  if (t.status === "open" && !$("invite-box").children.length) {
    $("invite-box").replaceChildren(sharePanel(url, "share-link-open"));
    $("invite-box").hidden = false;
  }
}

// -- moves ---------------------------------------------------------------------------------------

// A phone's layout (table.css): 44 px targets, the side panel a drawer.
const PHONE = window.matchMedia("(max-width: 899px), (max-height: 559px)");

// The room the board has (px), inside the felt's padding.
// The room the board has (px), inside the felt's padding: as the ResizeObserver last measured
// it (reading it here would make the browser lay the page out again in the middle of drawing
// it, at every move), or measured now the first time.
let measured = null;
function room() {
  if (!measured) {
    const box = $("layout");
    measured = { width: box.clientWidth, height: box.clientHeight };
  }
  return { width: Math.max(120, measured.width - 16), height: Math.max(90, measured.height - 16) };
}

function boardContext(view, moves) {
  const small = PHONE.matches;
  const { width, height } = room();
  const ctx = { hand: view.hand, last: null, seatOf: log.lastBySeat(), width, height, small, tileU: small ? 44 : 34 };
  if (!sel) return ctx;
  ctx.tileName = sel.tile;
  const cand = candidates(moves);
  const how = last.drawing.pick;
  if (how === "cells") {
    ctx.targets = cellTargets(moves, sel);
    ctx.picked = new Set(sel.cells);
    ctx.onCell = (key) => { sel.cells.push(key); narrow(moves); };
  } else if (how === "capture") {
    const targets = new Map();
    for (const m of cand) if (m.event.capture) targets.set(m.event.capture, m);
    ctx.targets = sel.capture === undefined ? targets : new Map();
    ctx.onCapture = (t) => { sel.capture = t; narrow(moves); };
  } else {
    const targets = new Map();
    for (const m of cand) if (m.event.on) targets.set(endKey(m.event.on, m.event.port), m);
    ctx.targets = targets;
    ctx.onEnd = (m) => send(m.event);
  }
  return ctx;
}

function candidates(moves) { return pick(moves, sel); }

function narrow(moves) {
  const cand = candidates(moves);
  if (cand.length === 1) { send(cand[0].event); return; }
  render();
  focusTarget();
}

// After a tile is chosen: the keyboard goes to the first place it can go (not on a touch
// screen: a focus ring there would only be in the way).
function focusTarget() {
  if (touchScreen()) return;
  const t = document.querySelector("#layout [role=button], #options button.option");
  if (t) t.focus();
}

function optionText(view, m) {
  if (last.drawing.pick === "cells" && sel.cells.length) {
    if (spacerChoice(candidates(last.moves || []))) return spacerLabel(m);
  }
  return moveWords(view, m, room());
}

// A tile pressed. With one way to play it, a click or a key plays it at once; a tap first
// chooses it (raised, its target marked) and a second tap plays it. With several ways, the
// tile is chosen and its targets marked; pressing it again puts it back.
function choose(t, opts, touch) {
  const again = Boolean(sel && sel.tile === t);
  if (opts.length === 1 && (again || !touch)) { send(opts[0].event); return; }
  sel = again ? null : { tile: t, cells: [], capture: undefined };
  render();
  if (sel) focusTarget();
}

// The tiles your hand shows: what you kept while a hand's end is shown, and the tile just drawn.
function handTiles(view) {
  const kept = keptHands();
  const tiles = [...(kept && last.seat !== null && last.seat !== undefined ? kept[last.seat] : view.hand || [])];
  if (view.drawn && !tiles.some((t) => sameTile(t, view.drawn))) tiles.push(view.drawn);
  return tiles;
}

function mine(view, moves) {
  const guide = last.guide && last.guide.move;
  renderMine({
    view, moves, sel, tiles: handTiles(view), how: last.drawing.pick, cand: sel ? candidates(moves) : [],
    suggested: guide ? guide.play : null, watching: last.seat === null || last.seat === undefined,
    guided: (event) => Boolean(guide) && JSON.stringify(guide) === JSON.stringify(event),
    choose, send, optionText: (m) => optionText(view, m),
    cancel: () => { sel = null; render(); },
    dragStart: (t) => {
      sel = { tile: t, cells: [], capture: undefined };
      drawBoard(view, moves);
      $("hint").textContent = touchScreen() ? "" : "Drop it on a highlighted place.";
    },
  });
}

// -- the hands so far, the result ----------------------------------------------------------------

function renderSummary() {
  const ol = $("hands");
  ol.replaceChildren();
  const ends = log.entries.filter((e) => e.type === "hand_end" && e.reason !== "redeal");
  for (const e of ends) {
    const s = (e.scores || []).map((x, i) => `${names()[i]} ${x}`).join(" · ");
    ol.append(el("li", { class: "hand-end" }, `${e.text} ${s}`));
  }
  if (!ol.children.length) ol.append(el("li", { class: "none" }, "No hand finished yet."));
  const res = $("result");
  res.replaceChildren();
  if (last.result || last.ending) {
    const w = last.result ? last.result.winner : null;
    const text = last.ending && last.ending.reason === "abort" ? "Game aborted: no result."
      : `Game over: ${w === null || w === undefined ? "no single winner" : names()[w] + " wins"}.${last.result ? ` ${scoresText(names(), last.result.scores)}` : ""}`;
    res.append(el("p", { id: "game-over" }, text));
    res.append(el("a", { href: `/replay/${tableId}${inviteQuery}`, id: "replay-link", class: "button" }, "Watch the replay"), " ");
    res.append(el("a", { href: `/api/tables/${tableId}/record${inviteQuery}`, download: `boneyard-${tableId}.json`, id: "record-link" }, "Download the record"));
    res.append(el("p", { class: "note" }, "Check every deal offline: boneyard verify FILE"));
  }
}

function renderGuide() {
  const box = $("guide");
  const g = last.guide;
  if (!g) { box.hidden = true; return; }
  box.replaceChildren(el("b", {}, "Guide: "), g.text);
  box.hidden = false;
}

async function playAgain() {
  const t = await act(`/api/tables/${tableId}/again`);
  if (t) location.href = `/table/${t.id}`;
}

// The table's rules: what its options change from the game's own, or that it plays those.
function renderRules(t) {
  const changes = t.rules || [];
  const link = el("a", { href: `/rules/${t.game}#options`, target: "_blank", rel: "noopener" }, changes.length ? "options" : `${t.title}'s own rules`);
  $("table-rules").replaceChildren(...(changes.length ? ["Rules at this table: ", changes.join("; "), " (", link, ")."] : ["Played by ", link, "."]));
}

// Whose turn it is, in a few words, and the chips: while a hand's end is shown (the next deal
// waits, or the game is over) they speak of the hand that ended, not of the one to come.
function renderTurn(view) {
  const cur = view.current_seat;
  const over = Boolean(last.result || last.ending);
  const turn = $("turn");
  turn.textContent = over ? "The game is over." : last.hand_end && last.hand_end.waiting ? "The hand is over." :
    cur === null || cur === undefined ? "" : cur === last.seat ? "Your turn." : `${names()[cur]} to play.`;
  turn.className = !view.is_over && !over && cur === last.seat ? "mine" : "";
  const shown = last.hand_end && (last.hand_end.waiting || over);
  $("info").replaceChildren(...infoChips(view, shown ? { hand: last.hand_end.hand, word: last.table.hand_word } : null));
}

// The board, drawn for the room it has now (and again when that room changes: below).
function drawBoard(view, moves) {
  const ctx = boardContext(view, moves);
  document.body.dataset.boardWidth = String(ctx.width); // (what the board was drawn for)
  document.body.dataset.drawnSize = `${innerWidth}x${innerHeight}`;
  drawnRoom = `${ctx.width}x${ctx.height}`;
  const on = $("layout").contains(document.activeElement) ? document.activeElement.getAttribute("aria-label") : null;
  $("layout").replaceChildren(board(view, last.drawing, ctx));
  markSuggested(ctx);
  if (on) keepFocus(on);
}

// A board drawn again keeps the keyboard on the place it was on (a chosen tile's first place
// is focused, then the longer hint and the choices below take room and the board is redrawn).
function keepFocus(label) {
  const again = [...$("layout").querySelectorAll("[role=button]")].find((n) => n.getAttribute("aria-label") === label);
  if (again) again.focus();
}

function render() {
  if (!last) return;
  document.body.dataset.version = last.version;
  document.body.dataset.drawnFor = String(window.innerWidth); // (the width it was drawn for)
  const t = last.table;
  $("title").textContent = t.title;
  $("rules-link").href = `/rules/${t.game}`; // opens beside the table
  renderRules(t);
  renderPlayers();
  renderJoin();
  renderInvite($("invite-box"), last);
  renderShare();
  renderClock();
  renderClaim($("claim-area"), last, names(), sendMessage);
  renderGameActions($("game-actions"), last, names(), sendMessage);
  renderGuide();
  const view = last.view;
  renderHandEnd($("hand-summary"), last, log, names(), { send: sendMessage, names, mySeats: mySeat, playAgain, replayHref: `/replay/${tableId}${inviteQuery}` });
  renderSummary();
  $("mine").hidden = !view; // (no hand before the deal)
  if (!view) {
    const invited = t.seats.filter((s) => s.kind === "open" && s.invited).map((s) => s.invited);
    $("turn").textContent = t.status !== "open" ? ""
      : invited.length ? `Waiting for ${invited.join(" and ")} (bot account) to accept the challenge: the game starts when its program does.`
        : "Waiting for the table to start.";
    $("layout").replaceChildren(el("div", { class: "felt" }, el("p", { class: "empty" }, "The tiles are dealt once every seat is taken.")));
    return;
  }
  const moves = document.body.dataset.pending ? [] : last.moves || [];
  renderTurn(view);
  const cap = $("captured");
  if (last.drawing.piles) {
    cap.hidden = false;
    $("piles").replaceChildren(pilesPanel(view, names()));
  } else cap.hidden = true;
  mine(view, moves); // (first: the board takes the room your hand leaves)
  fitHand();
  drawBoard(view, moves);
  renderFairness($("fairness"), last, tableId);
  tournamentLinks($("board"), last, tableId);
}

// The guided hand's suggestion, on the board too.
function markSuggested(ctx) {
  const m = last.guide && last.guide.move;
  if (!m || !m.on || !ctx.targets || !sel) return;
  for (const g of document.querySelectorAll("#layout .end.target")) {
    if (g.dataset.on === m.on && (g.dataset.port === (m.port || "OUT") || !m.port)) g.classList.add("suggested");
  }
}

// Drops onto the board: the highlighted target under the pointer takes the dragged tile.
const DROP = ".end.target, .tower .cell.target, .hf-slot.target";
const single = () => (sel && last ? candidates(last.moves || []) : []).length === 1;
$("layout").addEventListener("dragover", (ev) => {
  if (sel && ((ev.target.closest && ev.target.closest(DROP)) || single())) ev.preventDefault();
});
$("layout").addEventListener("drop", (ev) => {
  const target = ev.target.closest ? ev.target.closest(DROP) : null;
  if (!sel || !(target || single())) return;
  ev.preventDefault();
  if (target) target.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  else send(candidates(last.moves || [])[0].event); // one way to play it: drop anywhere
});
document.addEventListener("dragend", () => { if (sel && !document.body.dataset.pending) render(); });
document.addEventListener("keydown", (ev) => { if (ev.key === "Escape" && sel) { sel = null; render(); } });
// The board is drawn again when its room changes (a turned phone, a resized window, a hand's
// end panel, a longer hint), as soon as the layout says so
// (within the same frame: the observer speaks after the layout and before the paint).
let drawnRoom = "";
let resized = null;
function redrawForRoom() {
  const r = room();
  if (last && last.view && `${r.width}x${r.height}` !== drawnRoom) drawBoard(last.view, document.body.dataset.pending ? [] : last.moves || []);
}
// A phone on its side gives your hand a fixed room beside the board (table.css): a hand grown
// by drawing is drawn smaller, down to the least that is still 44 px to tap, until your plate,
// the hand and the buttons all fit (it would otherwise push your plate out of sight). A phone
// held upright keeps a room below the board for your plate, hand and buttons (table.css): a
// hand that leaves part of it empty is drawn bigger, in as many rows as before and within the
// room, so that the board keeps its size and the tiles you play are the easiest to read and tap.
const SIDEWAYS = window.matchMedia("(max-height: 559px) and (min-aspect-ratio: 4/3)");
const UPRIGHT = window.matchMedia("(max-width: 899px) and (min-height: 560px)");
const HAND_UNITS = [21, 18];
const GROWN_UNITS = [40, 36, 32];
function fitHand() {
  const box = $("mine"), hand = $("hand");
  hand.style.removeProperty("--hand-u");
  if (box.hidden) return;
  if (SIDEWAYS.matches) shrinkHand(box, hand);
  else if (UPRIGHT.matches) growHand(box, hand);
}
function shrinkHand(box, hand) {
  const over = () => box.scrollHeight > box.clientHeight + 1
    || box.firstElementChild.getBoundingClientRect().top < box.getBoundingClientRect().top - 1;
  for (const u of HAND_UNITS) {
    if (!over()) return;
    hand.style.setProperty("--hand-u", `${u}px`);
  }
}
function growHand(box, hand) {
  const room = parseFloat(getComputedStyle(box).minHeight);
  const rows = () => new Set([...hand.children].map((b) => b.offsetTop)).size;
  // (measured without the ways to play a chosen tile: the hand keeps its size while you choose)
  const options = $("options"), wasHidden = options.hidden;
  options.hidden = true;
  const before = rows();
  let fits = false;
  for (const u of before && box.offsetHeight <= room + 0.5 ? GROWN_UNITS : []) {
    hand.style.setProperty("--hand-u", `${u}px`);
    if ((fits = rows() <= before && box.offsetHeight <= room + 0.5)) break;
  }
  if (!fits) hand.style.removeProperty("--hand-u");
  options.hidden = wasHidden;
}
if (window.ResizeObserver) {
  new ResizeObserver(fitHand).observe($("mine"));
  new ResizeObserver((entries) => {
    const box = entries[entries.length - 1].contentRect;
    measured = { width: box.width, height: box.height };
    redrawForRoom();
  }).observe($("layout"));
}
window.addEventListener("resize", () => {
  clearTimeout(resized);
  resized = setTimeout(() => {
    measured = null; // (measured now, whether or not the observer has spoken yet)
    redrawForRoom();
    document.body.dataset.drawnFor = String(window.innerWidth);
    document.body.dataset.drawnSize = `${innerWidth}x${innerHeight}`;
  }, 150);
});

// -- turn clock, chat, header (clock.js, chat.js, notify.js) ---------------------------------------

function renderClock() {
  showClock(last.clock, names(), last.seat);
  renderReclaim($("reclaim-area"), last, me, sendMessage);
}

function header() {
  initMenu();
  initDrawer();
  initToggles($("toggles"));
  $("toggles").append(themeToggle());
  if (!me) return;
  $("my-profile").hidden = false;
  $("my-profile").href = `/profile/${me.id}`;
  $("logout").hidden = false;
  $("logout").addEventListener("click", async () => { await api("POST", "/api/logout"); location.href = "/"; });
}

api("GET", "/api/me").then((r) => { me = r.user; initBell(me); }).finally(() => { header(); initChat(me, sendMessage); connect(); });
