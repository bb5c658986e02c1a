// A live table: draws the seat's view (the observation the server sends, which names its game),
// the move log and the hand's end, and turns clicks, drags and keys on tiles, ends, cells and
// captures into that seat's legal moves. Pieces: movelog.js (log, effects), handend.js (a hand's
// and a game's end), leave.js (resign, abort, claim), notify.js (title, sound, alerts).
import { api, el } from "/static/api.js";
import { tile, sameTile } from "/static/tiles.js";
import { candidates as pick, cellTargets, spacerChoice, spacerLabel, tileMoves } from "/static/picker.js";
import { board, endKey, gameOf, pilesPanel } from "/static/board.js";
import { infoChips, seatName } from "/static/common.js";
import { autoSeed, renderFairness, seedRefused, seedTaken } from "/static/fairness.js";
import { joinSeat, renderInvite, sharePanel, takeInvitedSeat } from "/static/invite.js";
import { initChat, isChat, onChat } from "/static/chat.js";
import { renderReclaim, showClock } from "/static/clock.js";
import { MoveLog, flyIn, lastPlacement, popPoints, renderLog } from "/static/movelog.js";
import { renderHandEnd } from "/static/handend.js";
import { renderClaim, renderGameActions } from "/static/leave.js";
import { initToggles, play, turnChanged } from "/static/notify.js";
import { initBell } from "/static/bell.js";
import { eventLinks } from "/static/eventlink.js";

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
  socket.onopen = () => { opened = true; retries = 0; $("status").textContent = "connected"; };
  socket.onclose = () => {
    if (gone) return;
    $("status").textContent = "reconnecting";
    if (!opened) checkTable(); // refused: a table that does not exist, or that we may not see
    else later();
  };
  socket.onmessage = (ev) => onMessage(JSON.parse(ev.data));
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
  $("status").textContent = "not available";
  for (const id of ["board", "mine"]) $(id).hidden = true;
  document.querySelector("main.play aside").hidden = true;
  const why = /no such table/i.test(reason)
    ? "This table does not exist, or it is private and this link has no valid invite."
    : reason;
  $("gone").replaceChildren(el("h1", {}, "This table is not available"), el("p", {}, why),
    el("p", {}, el("a", { href: "/", class: "button", id: "back-home" }, "Back to the lobby")));
  $("gone").hidden = false;
  document.title = "Table not available — Boneyard";
}

function onMessage(msg) {
  if (isChat(msg)) { onChat(msg); return; }
  if (msg.type === "clock") { if (last) { last.clock = msg.clock; renderClock(); } return; }
  if (msg.type === "seed") { seedTaken(last, msg); renderFairness($("fairness"), last, tableId); return; }
  if (msg.type === "error" && msg.about === "seed") { seedRefused(msg.hand); return; }
  if (msg.type === "presence") {
    if (!last) return;
    Object.assign(last, { presence: msg.presence, server_time: msg.server_time, receivedAt: performance.now() });
    renderSeats();
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
  render();
  renderLog($("move-log"), log, added, full);
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

function presenceOf(i) {
  const p = (last.presence || [])[i];
  if (!p) return null;
  return p.online ? "connected" : "disconnected";
}

// What each seat kept at the hand's end on show (the table waits to deal, or the game is over):
// the counts and your hand say so, not the emptied hands of the state.
function keptHands() {
  const e = last.hand_end ? log.entries[last.hand_end.entry] : null;
  return e && Array.isArray(e.hands) ? e.hands : null;
}

function renderSeats() {
  const t = last.table;
  const view = last.view;
  const kept = keptHands();
  const scores = view && view.scores ? view.scores : [];
  const rows = [el("tr", {}, el("th", { title: "Whose turn it is" }, el("span", { class: "sr-only" }, "Turn")), el("th", {}, "Player"),
    el("th", { title: "Points scored in this game" }, "Score"), el("th", { title: "Tiles in hand" }, "Tiles"),
    ...(view && view.chips_left ? [el("th", { title: "Chips left to pay with: each player starts with 150" }, "Chips")] : []))];
  t.seats.forEach((s, i) => {
    const sizes = kept ? kept[i].length : view && view.hand_sizes ? view.hand_sizes[i] : "";
    const acting = view && !view.is_over && view.current_seat === i;
    const cls = [acting ? "to-act" : "", i === last.seat ? "you" : ""].join(" ");
    const who = s.kind === "open" ? (s.invited ? `kept for ${s.invited} (bot)` : "open seat") : `${s.name}${(s.kind === "bot" && !s.replacing) || s.bot_account ? " (bot)" : ""}${i === last.seat ? " (you)" : ""}`;
    const team = view && view.partnerships ? ` · team ${i % 2 ? "B" : "A"}` : "";
    const conn = presenceOf(i);
    rows.push(el("tr", { class: cls, "data-seat": i },
      el("td", acting ? { title: "to play" } : {}, acting ? "▶" : ""),
      el("td", {}, el("span", { class: `dot seat-${i}`, "aria-hidden": "true" }), who + team,
        conn ? el("span", { class: `conn ${conn}`, title: conn === "connected" ? "connected to the table" : "not connected to the table" }, conn === "connected" ? "online" : "away") : ""),
      el("td", { class: "score num" }, scores[i] ?? ""),
      el("td", { class: "num" }, sizes ?? ""),
      ...(view && view.chips_left ? [el("td", { class: "num chips" }, view.chips_left[i])] : [])));
  });
  $("seats").replaceChildren(...rows);
  renderPlates();
}

// A plate per seat around the board: the others above it, yours below (tiles fly from them).
function renderPlates() {
  const view = last.view;
  const plate = (i) => {
    const s = last.table.seats[i];
    const conn = presenceOf(i);
    const acting = view && !view.is_over && view.current_seat === i;
    const kept = keptHands();
    const tiles = kept ? kept[i].length : view && view.hand_sizes ? view.hand_sizes[i] : null;
    return el("div", { class: `plate seat-${i}${acting ? " to-act" : ""}`, "data-seat": i },
      el("span", { class: `dot seat-${i} num`, title: `seat ${i + 1}: its last tile on the board has this mark` }, String(i + 1)),
      el("b", {}, s.kind === "open" ? "open seat" : s.name),
      conn ? el("span", { class: `conn ${conn}`, title: conn === "connected" ? "connected to the table" : "not connected to the table" }, conn === "connected" ? "online" : "away") : "",
      view && view.scores ? el("span", { class: "plate-score", title: "score" }, `${view.scores[i]} ${view.scores[i] === 1 ? "pt" : "pts"}`) : "",
      tiles !== null && tiles !== undefined ? el("span", { class: "plate-tiles", title: "tiles in hand" }, `${tiles} tile${tiles === 1 ? "" : "s"}`) : "");
  };
  const n = last.table.seats.length;
  const mine = last.seat ?? 0;
  const order = [...Array(n).keys()].map((k) => (mine + k) % n);
  $("plates").replaceChildren(...order.slice(last.seat === null ? 0 : 1).map(plate));
  $("my-plate").replaceChildren(...(last.seat === null ? [] : [plate(last.seat)]));
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

function boardWidth() {
  const box = $("layout");
  const w = box.clientWidth || box.parentElement.clientWidth;
  return Math.max(200, w - 24);
}

function boardContext(view, moves) {
  const small = window.innerWidth < 900 || window.innerHeight < 500; // (a phone: 44 px targets)
  const ctx = { hand: view.hand, last: null, seatOf: log.lastBySeat(), width: boardWidth(), tileU: small ? 44 : 34 };
  if (!sel) return ctx;
  ctx.tileName = sel.tile;
  const cand = candidates(moves);
  const how = gameOf(view).pick;
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

// After a tile is chosen: the keyboard goes to the first place it can go.
function focusTarget() {
  const t = document.querySelector("#layout [role=button], #options button.option");
  if (t) t.focus();
}

function hint(view, moves) {
  if (!sel) {
    if (moves.some((m) => m.event.play)) return "Your turn: choose a highlighted tile (click, or Tab and Enter).";
    if (moves.length) return "Your turn.";
    return "";
  }
  const cand = candidates(moves);
  const how = gameOf(view).pick;
  if (how === "cells") {
    if (!sel.cells.length) return `Where does ${sel.tile} go? Choose a highlighted cell.`;
    if (spacerChoice(cand)) return "Choose the spacer.";
    return "Choose the cell for the other half, or a placement below.";
  }
  if (how === "capture") {
    if (sel.capture === undefined && cand.some((m) => m.event.capture)) return `Choose a highlighted layout tile to capture it with ${sel.tile}, or choose below.`;
    return "Choose your claim.";
  }
  return `Choose a highlighted end for ${sel.tile}.`;
}

function optionText(view, m) {
  if (gameOf(view).pick === "cells" && sel.cells.length) {
    if (spacerChoice(candidates(last.moves || []))) return spacerLabel(m);
  }
  return m.text;
}

function choose(t, opts) {
  if (opts.length === 1) { send(opts[0].event); return; }
  sel = sel && sel.tile === t ? null : { tile: t, cells: [], capture: undefined };
  render();
  if (sel) focusTarget();
}

function renderMine(view, moves) {
  const hand = $("hand");
  const focused = document.activeElement && hand.contains(document.activeElement) ? document.activeElement.dataset.tile : null;
  hand.replaceChildren();
  const kept = keptHands();
  const tiles = [...(kept && last.seat !== null && last.seat !== undefined ? kept[last.seat] : view.hand || [])];
  if (view.drawn && !tiles.some((t) => sameTile(t, view.drawn))) tiles.push(view.drawn);
  const suggested = last.guide && last.guide.move ? last.guide.move.play : null;
  for (const t of tiles) {
    const opts = tileMoves(moves, t);
    const cls = [opts.length ? "playable" : "", sel && sel.tile === t ? "selected" : "", view.drawn && sameTile(view.drawn, t) ? "drawn" : "",
      suggested && sameTile(suggested, t) ? "suggested" : ""].join(" ");
    // (its name is the tile's, "five-six", from the picture inside)
    const node = tile(t, cls, 30, true);
    const holder = el("button", { type: "button", class: `hand-tile ${cls}`.trim(), "data-tile": t }, node);
    if (!opts.length) holder.append(el("span", { class: "sr-only" }, ", cannot be played now"));
    if (opts.length) {
      holder.setAttribute("aria-pressed", String(Boolean(sel && sel.tile === t)));
      holder.addEventListener("click", () => choose(t, opts));
      // Or drag it onto a highlighted end / cell / capture: the targets appear as the drag
      // starts (only the board is redrawn, so the dragged tile stays in place).
      holder.setAttribute("draggable", "true");
      holder.addEventListener("dragstart", (ev) => {
        ev.dataTransfer.setData("text/plain", t);
        ev.dataTransfer.effectAllowed = "move";
        sel = { tile: t, cells: [], capture: undefined };
        node.classList.add("selected");
        $("layout").replaceChildren(board(view, boardContext(view, moves)));
        $("hint").textContent = hint(view, moves);
      });
    } else holder.setAttribute("aria-disabled", "true");
    hand.append(holder);
  }
  if (!tiles.length) hand.append(el("em", {}, last.seat === null ? "You are watching: hands stay hidden." : "No tiles."));
  if (focused) { const back = hand.querySelector(`[data-tile="${focused}"]`); if (back) back.focus(); }
  $("hint").textContent = hint(view, moves);
  const options = $("options");
  options.replaceChildren();
  if (sel) {
    const cand = candidates(moves);
    const show = gameOf(view).pick === "cells" ? (sel.cells.length ? cand : []) : cand;
    for (const m of show) {
      options.append(el("button", { class: "option", "data-event": JSON.stringify(m.event), onclick: () => send(m.event) }, optionText(view, m)));
    }
    options.append(el("button", { class: "cancel", onclick: () => { sel = null; render(); } }, "cancel"));
  }
  const box = $("moves");
  box.replaceChildren();
  for (const m of moves.filter((x) => !x.event.play)) {
    const guided = last.guide && last.guide.move && JSON.stringify(last.guide.move) === JSON.stringify(m.event);
    box.append(el("button", { class: `move big${guided ? " suggested" : ""}`, "data-event": JSON.stringify(m.event), onclick: () => send(m.event) }, m.text));
  }
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
      : `Game over: ${w === null || w === undefined ? "no single winner" : names()[w] + " wins"}${last.result ? ` (${last.result.scores.join(" – ")})` : ""}.`;
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

function render() {
  if (!last) return;
  document.body.dataset.version = last.version;
  document.body.dataset.drawnFor = String(window.innerWidth); // (the width it was drawn for)
  const t = last.table;
  $("title").textContent = t.title;
  $("rules-link").href = `/rules/${t.game}`; // opens beside the table
  renderRules(t);
  renderSeats();
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
    return;
  }
  const moves = document.body.dataset.pending ? [] : last.moves || [];
  const cur = view.current_seat;
  const turn = $("turn");
  turn.textContent = last.result || last.ending ? "The game is over." : last.hand_end && last.hand_end.waiting ? "The hand is over." :
    cur === null || cur === undefined ? "" : cur === last.seat ? "Your turn." : `${names()[cur]} to play.`;
  turn.className = !view.is_over && cur === last.seat ? "mine" : "";
  const ended = last.hand_end && last.hand_end.waiting;
  $("info").replaceChildren(...infoChips(ended ? { ...view, hand_number: last.hand_end.hand } : view));
  const ctx = boardContext(view, moves);
  document.body.dataset.boardWidth = String(ctx.width); // (what the board was drawn for)
  $("layout").replaceChildren(board(view, ctx));
  markSuggested(ctx);
  const cap = $("captured");
  if (gameOf(view).piles) {
    cap.hidden = false;
    $("piles").replaceChildren(pilesPanel(view, names()));
  } else cap.hidden = true;
  renderMine(view, moves);
  renderFairness($("fairness"), last, tableId);
  eventLinks($("board"), last, tableId);
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
const DROP = ".end.target, .tower .cell.target, svg.tile.target";
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
let resized = null;
window.addEventListener("resize", () => { clearTimeout(resized); resized = setTimeout(render, 150); });

// -- turn clock, chat, header (clock.js, chat.js, notify.js) ---------------------------------------

function renderClock() {
  showClock(last.clock, names(), last.seat);
  renderReclaim($("reclaim-area"), last, me, sendMessage);
}

function header() {
  initToggles($("toggles"));
  if (!me) return;
  $("my-profile").hidden = false;
  $("my-profile").href = `/profile/${me.id}`;
  $("logout").hidden = false;
  $("logout").addEventListener("click", async () => { await api("POST", "/api/logout"); location.href = "/"; });
}

api("GET", "/api/me").then((r) => { me = r.user; initBell(me); }).finally(() => { header(); initChat(me, sendMessage); connect(); });
