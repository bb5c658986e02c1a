// A live table: draws the seat's view (the observation the server sends, which names its game)
// and turns clicks on tiles, ends, cells and captures into that seat's legal moves.
import { api, el } from "/static/api.js";
import { tile, sameTile } from "/static/tiles.js";
import { candidates as pick, cellTargets, spacerChoice, spacerLabel, tileMoves } from "/static/picker.js";
import { board, endKey, gameOf, pilesPanel } from "/static/board.js";
import { handEndText, infoChips, seatName } from "/static/common.js";
import { autoSeed, renderFairness, seedRefused, seedTaken } from "/static/fairness.js";
import { renderInvite } from "/static/invite.js";
import { initChat, isChat, onChat } from "/static/chat.js";
import { renderReclaim, showClock } from "/static/clock.js";
import { initBell } from "/static/bell.js";
import { eventLinks } from "/static/eventlink.js";

const $ = (id) => document.getElementById(id);
const tableId = location.pathname.split("/").pop();
const invite = new URLSearchParams(location.search).get("invite"); // a private table's token
const inviteQuery = invite ? `?invite=${encodeURIComponent(invite)}` : "";
let socket = null;
let last = null;
let me = null;
let sel = null; // {tile, cells: [picked cells], capture}
let handEnds = [];
let endsFor = -1;

function names() {
  return last ? last.table.seats.map((s, i) => seatName(s, i)) : [];
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${proto}://${location.host}/ws/tables/${tableId}${inviteQuery}`);
  socket.onopen = () => { $("status").textContent = "connected"; };
  socket.onclose = () => {
    $("status").textContent = "reconnecting";
    setTimeout(connect, 1000);
  };
  socket.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (isChat(msg)) { onChat(msg); return; }
    if (msg.type === "clock") { if (last) { last.clock = msg.clock; renderClock(); } return; }
    if (msg.type === "seed") { seedTaken(last, msg); renderFairness($("fairness"), last, tableId); return; }
    if (msg.type === "error" && msg.about === "seed") { seedRefused(msg.hand); return; }
    delete document.body.dataset.pending;
    if (msg.type === "error") { $("error").textContent = msg.message; render(); return; }
    if (msg.type === "resync" && msg.message) $("error").textContent = msg.message;
    else $("error").textContent = "";
    if (!last || msg.version !== last.version) sel = null;
    last = msg;
    render();
    loadHandEnds();
    autoSeed(last, tableId, (m) => socket.send(JSON.stringify(m)));
  };
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

async function act(path, body) {
  try {
    await api("POST", path, body); // the server then sends this socket its new view
  } catch (e) { $("error").textContent = e.message; }
}

// -- hand summaries ------------------------------------------------------------------------

async function loadHandEnds() {
  const done = (last.hand_scores || []).length + (last.result ? 1 : 0);
  if (done === endsFor || !last.view) return;
  endsFor = done;
  try {
    handEnds = (await api("GET", `/api/tables/${tableId}/hands${inviteQuery}`)).hands;
  } catch { handEnds = []; }
  renderSummary();
  renderHandPanel();
}

function renderHandPanel() {
  const box = $("hand-summary");
  const ends = handEnds.filter((l) => l.type === "hand_end");
  const seen = Number(sessionStorage.getItem(`seen-${tableId}`) || 0);
  const gameEnd = handEnds.find((l) => l.type === "game_end");
  const total = ends.length + (gameEnd ? 1 : 0);
  if (!total || total <= seen) { box.hidden = true; return; }
  const end = ends[ends.length - 1];
  box.replaceChildren(el("h3", {}, gameEnd ? "Game over" : `Hand ${end.hand + 1} is over`));
  if (end) box.append(el("p", { class: "hand-result" }, handEndText(end, names())));
  if (gameEnd) {
    const w = gameEnd.winner;
    box.append(el("p", { class: "game-result" }, w === null || w === undefined ? "No single winner." : `${names()[w]} wins the game.`));
  }
  const scores = (gameEnd || end).scores || [];
  const tb = el("table", { class: "scores" });
  names().forEach((n, i) => tb.append(el("tr", {}, el("td", {}, n), el("td", { class: "num" }, scores[i] ?? ""))));
  box.append(tb);
  box.append(el("button", { class: "big", id: "continue", onclick: () => {
    sessionStorage.setItem(`seen-${tableId}`, String(total));
    box.hidden = true;
  } }, gameEnd ? "Close" : "Continue"));
  if (gameEnd) box.append(" ", el("a", { href: `/replay/${tableId}${inviteQuery}`, class: "replay-link" }, "Watch the replay"));
  box.hidden = false;
}

// -- seats and info --------------------------------------------------------------------------

function renderSeats() {
  const t = last.table;
  $("title").textContent = t.title;
  $("rules-link").href = `/rules/${t.game}`; // opens beside the table
  const view = last.view;
  const scores = view && view.scores ? view.scores : [];
  const rows = [el("tr", {}, el("th", { title: "Whose turn it is" }, el("span", { class: "sr-only" }, "Turn")), el("th", {}, "Player"),
    el("th", { title: "Points scored in this game" }, "Score"), el("th", { title: "Tiles in hand" }, "Tiles"),
    ...(view && view.chips_left ? [el("th", { title: "Chips left to pay with: each player starts with 150" }, "Chips")] : []))];
  t.seats.forEach((s, i) => {
    const sizes = view && view.hand_sizes ? view.hand_sizes[i] : "";
    const acting = view && !view.is_over && view.current_seat === i;
    const cls = [acting ? "to-act" : "", i === last.seat ? "you" : ""].join(" ");
    const who = s.kind === "open" ? "open seat" : `${s.name}${s.kind === "bot" && !s.replacing ? " (bot)" : ""}${i === last.seat ? " (you)" : ""}`;
    const team = view && view.partnerships ? ` · team ${i % 2 ? "B" : "A"}` : "";
    rows.push(el("tr", { class: cls, "data-seat": i },
      el("td", acting ? { title: "to play" } : {}, acting ? "▶" : ""),
      el("td", {}, who + team),
      el("td", { class: "score num" }, scores[i] ?? ""),
      el("td", { class: "num" }, sizes ?? ""),
      ...(view && view.chips_left ? [el("td", { class: "num chips" }, view.chips_left[i])] : [])));
  });
  $("seats").replaceChildren(...rows);
  const area = $("join-area");
  area.replaceChildren();
  if (t.status === "open") {
    const mine = me && t.seats.some((s) => s.user_id === me.id);
    t.seats.forEach((s, i) => {
      if (s.kind === "open" && me && !mine) {
        area.append(el("button", { onclick: () => act(`/api/tables/${t.id}/join`, { seat: i, invite }) }, `Take seat ${i}`));
      }
    });
    if (t.start_by) {
      area.append(el("p", { id: "dealing", class: "note" }, "Dealing as soon as every player's seed for the first hand is in (a few seconds at most)."));
    } else if (mine && !t.seats.some((s) => s.kind === "open")) {
      area.append(el("button", { id: "start", class: "big", onclick: () => act(`/api/tables/${t.id}/start`) }, "Start"));
    }
    if (!me) area.append(el("p", {}, el("a", { href: "/" }, "Sign in"), " to take a seat."));
  }
}

function renderInfo(view) {
  $("info").replaceChildren(...infoChips(view));
}

// -- moves -----------------------------------------------------------------------------------

function boardContext(view, moves) {
  const ctx = { hand: view.hand, last: lastTile(view) };
  if (!sel) return ctx;
  const cand = candidates(moves);
  const pick = gameOf(view).pick;
  if (pick === "cells") {
    ctx.targets = cellTargets(moves, sel);
    ctx.picked = new Set(sel.cells);
    ctx.onCell = (key) => { sel.cells.push(key); narrow(moves); };
  } else if (pick === "capture") {
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
}

function lastTile(view) {
  const h = view.history;
  if (!Array.isArray(h)) return null;
  for (let i = h.length - 1; i >= 0; i--) if (h[i].tile && h[i].kind === "play") return h[i].tile;
  return null;
}

function hint(view, moves) {
  if (!sel) {
    if (moves.some((m) => m.event.play)) return "Your turn: click a highlighted tile.";
    if (moves.length) return "Your turn.";
    return "";
  }
  const cand = candidates(moves);
  const pick = gameOf(view).pick;
  if (pick === "cells") {
    if (!sel.cells.length) return `Where does ${sel.tile} go? Click a highlighted cell.`;
    if (spacerChoice(cand)) return "Choose the spacer.";
    return "Click the cell for the other half, or pick a placement below.";
  }
  if (pick === "capture") {
    if (sel.capture === undefined && cand.some((m) => m.event.capture)) return `Click a highlighted layout tile to capture it with ${sel.tile}, or choose below.`;
    return "Choose your claim.";
  }
  return `Click a highlighted end for ${sel.tile}.`;
}

function optionText(view, m) {
  if (gameOf(view).pick === "cells" && sel.cells.length) {
    if (spacerChoice(candidates(last.moves || []))) return spacerLabel(m);
  }
  return m.text;
}

function renderMine(view, moves) {
  const hand = $("hand");
  hand.replaceChildren();
  const tiles = [...(view.hand || [])];
  if (view.drawn && !tiles.some((t) => sameTile(t, view.drawn))) tiles.push(view.drawn);
  for (const t of tiles) {
    const opts = tileMoves(moves, t);
    const cls = [opts.length ? "playable" : "", sel && sel.tile === t ? "selected" : "", view.drawn && sameTile(view.drawn, t) ? "drawn" : ""].join(" ");
    const node = tile(t, cls, 34, false);
    const holder = el("span", { class: "hand-tile" }, node); // HTML, so that it can be dragged
    if (opts.length) {
      node.addEventListener("click", () => {
        if (opts.length === 1) { send(opts[0].event); return; }
        sel = sel && sel.tile === t ? null : { tile: t, cells: [], capture: undefined };
        render();
      });
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
    }
    hand.append(holder);
  }
  if (!tiles.length) hand.append(el("em", {}, last.seat === null ? "You are watching: hands stay hidden." : "No tiles."));
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
    box.append(el("button", { class: "move big", "data-event": JSON.stringify(m.event), onclick: () => send(m.event) }, m.text));
  }
}

// -- summary, result ---------------------------------------------------------------------------

function renderSummary() {
  const ol = $("hands");
  ol.replaceChildren();
  const ends = handEnds.filter((l) => l.type === "hand_end");
  (last.hand_scores || []).forEach((scores, h) => {
    const end = ends.find((e) => e.hand === h);
    const s = (scores || []).map((x, i) => `${names()[i]} ${x}`).join(" · ");
    ol.append(el("li", { class: "hand-end" }, `Hand ${h + 1}: ${end ? handEndText(end, names()) + " — " : ""}${s}`));
  });
  if (!ol.children.length) ol.append(el("li", { class: "none" }, "No hand finished yet."));
  const res = $("result");
  res.replaceChildren();
  if (last.result) {
    const w = last.result.winner;
    res.append(el("p", { id: "game-over" }, `Game over: ${w === null ? "no single winner" : names()[w] + " wins"} (${last.result.scores.join(" – ")}).`));
    res.append(el("a", { href: `/replay/${tableId}${inviteQuery}`, id: "replay-link", class: "button" }, "Watch the replay"), " ");
    res.append(el("a", { href: `/api/tables/${tableId}/record${inviteQuery}`, download: `boneyard-${tableId}.json`, id: "record-link" }, "Download the record"));
    res.append(el("p", { class: "note" }, "Check every deal offline: boneyard verify FILE"));
  }
}

function render() {
  if (!last) return;
  document.body.dataset.version = last.version;
  renderSeats();
  renderClock();
  const view = last.view;
  if (!view) {
    $("turn").textContent = "Waiting for the table to start.";
    return;
  }
  const moves = document.body.dataset.pending ? [] : last.moves || [];
  const cur = view.current_seat;
  const turn = $("turn");
  turn.textContent = view.is_over ? "The game is over." :
    cur === null || cur === undefined ? "" : cur === last.seat ? "Your turn." : `${names()[cur]} to play.`;
  turn.className = !view.is_over && cur === last.seat ? "mine" : "";
  renderInfo(view);
  $("layout").replaceChildren(board(view, boardContext(view, moves)));
  const cap = $("captured");
  if (gameOf(view).piles) {
    cap.hidden = false;
    $("piles").replaceChildren(pilesPanel(view, names()));
  } else cap.hidden = true;
  renderMine(view, moves);
  renderSummary();
  renderFairness($("fairness"), last, tableId);
  renderInvite($("invite-box"), last);
  eventLinks($("board"), last, tableId);
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

// -- turn clock and chat (clock.js, chat.js) ---------------------------------------------------

function sendMessage(m) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    $("error").textContent = "not connected: reconnecting, try again in a moment";
    return;
  }
  socket.send(JSON.stringify(m));
}

function renderClock() {
  showClock(last.clock, names(), last.seat);
  renderReclaim($("reclaim-area"), last, me, sendMessage);
}

api("GET", "/api/me").then((r) => { me = r.user; initBell(me); }).finally(() => { initChat(me, sendMessage); connect(); });
