// A live table: renders the seat's view (the observation sent by the server) for any game.
import { api, el } from "/static/api.js";
import { tile, isTile } from "/static/tiles.js";

const $ = (id) => document.getElementById(id);
const tableId = location.pathname.split("/").pop();
let socket = null;
let last = null;
let focusTile = null;
let me = null;

const SHOWN = new Set(["hand", "layout", "tower", "piles", "legal_actions", "scores", "history", "seat",
  "current_seat", "is_over", "winner", "game", "options", "num_seats"]);

function names() {
  return last ? last.table.seats.map((s, i) => s.name || `Seat ${i + 1}`) : [];
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${proto}://${location.host}/ws/tables/${tableId}`);
  socket.onopen = () => { $("status").textContent = "connected"; };
  socket.onclose = () => {
    $("status").textContent = "reconnecting";
    setTimeout(connect, 1000);
  };
  socket.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "error") { $("error").textContent = msg.message; return; }
    if (msg.type === "resync" && msg.message) $("error").textContent = msg.message;
    else $("error").textContent = "";
    last = msg;
    render();
  };
}

function send(event) {
  if (!socket || socket.readyState !== WebSocket.OPEN || !last) {
    $("error").textContent = "not connected: reconnecting, try again in a moment";
    return;
  }
  focusTile = null;
  socket.send(JSON.stringify({ seq: last.version, action: event }));
}

function renderSeats() {
  const t = last.table;
  $("title").textContent = t.title;
  const view = last.view;
  const scores = view && view.scores ? view.scores : [];
  const rows = [el("tr", {}, el("th", {}, "Seat"), el("th", {}, "Player"), el("th", {}, "Score"), el("th", {}, "Tiles"))];
  t.seats.forEach((s, i) => {
    const sizes = view && view.hand_sizes ? view.hand_sizes[i] : "";
    const cls = view && view.current_seat === i ? "to-act" : "";
    rows.push(el("tr", { class: cls, "data-seat": i },
      el("td", {}, i + (i === last.seat ? " (you)" : "")),
      el("td", {}, s.kind === "open" ? "open seat" : `${s.name}${s.kind === "bot" ? " (bot)" : ""}`),
      el("td", { class: "score" }, scores[i] ?? ""),
      el("td", {}, sizes ?? "")));
  });
  $("seats").replaceChildren(...rows);
  const area = $("join-area");
  area.replaceChildren();
  if (t.status === "open") {
    const mine = me && t.seats.some((s) => s.user_id === me.id);
    t.seats.forEach((s, i) => {
      if (s.kind === "open" && me && !mine) {
        area.append(el("button", { onclick: () => act(`/api/tables/${t.id}/join`, { seat: i }) }, `Take seat ${i}`));
      }
    });
    if (mine && !t.seats.some((s) => s.kind === "open")) {
      area.append(el("button", { id: "start", onclick: () => act(`/api/tables/${t.id}/start`) }, "Start"));
    }
    if (!me) area.append(el("p", {}, el("a", { href: "/" }, "Sign in"), " to take a seat."));
  }
}

async function act(path, body) {
  try {
    await api("POST", path, body);  // the server then sends this socket its new view
  } catch (e) { $("error").textContent = e.message; }
}

function renderLayout(view) {
  const box = $("layout");
  box.replaceChildren();
  if (Array.isArray(view.tower)) {
    const grid = el("div", { class: "tower", style: `grid-template-columns: repeat(${view.cols}, 4em)` });
    for (const c of view.tower) {
      grid.append(el("div", { class: `cell level${Math.min(c.level, 5)}${c.spacer ? " spacer" : ""}`,
        title: `${c.tile} (level ${c.level})` }, el("b", {}, c.face), el("small", {}, `L${c.level}`)));
    }
    box.append(grid);
  }
  if (Array.isArray(view.layout)) {
    const row = el("div", { class: "row" });
    for (const item of view.layout) {
      const name = typeof item === "string" ? item : item.tile;
      const wrap = el("span", { class: "placed" }, tile(name));
      if (item && item.on) wrap.append(el("small", {}, ` on ${item.on}`));
      row.append(wrap);
    }
    if (!view.layout.length) row.append(el("em", {}, "The table is empty."));
    box.append(row);
  }
  if (Array.isArray(view.piles)) {
    box.append(el("p", {}, "Captured: " + view.piles.map((p, i) => `${names()[i]} ${p.length}`).join(", ")));
  }
}

function renderDetails(view) {
  const dl = $("details");
  dl.replaceChildren();
  for (const [k, v] of Object.entries(view)) {
    if (SHOWN.has(k) || v === null || (typeof v === "object" && JSON.stringify(v).length > 200)) continue;
    dl.append(el("dt", {}, k.replaceAll("_", " ")), el("dd", {}, typeof v === "object" ? JSON.stringify(v) : String(v)));
  }
}

function renderMine(view, moves) {
  const hand = $("hand");
  hand.replaceChildren();
  const playable = new Set(moves.map((m) => m.event.play).filter(isTile));
  for (const t of view.hand || []) {
    const node = tile(t, playable.has(t) ? "playable" : "");
    if (playable.has(t)) {
      node.addEventListener("click", () => {
        const options = moves.filter((m) => m.event.play === t);
        if (options.length === 1) send(options[0].event);
        else { focusTile = t; render(); }
      });
    }
    hand.append(node);
  }
  const box = $("moves");
  box.replaceChildren();
  const shown = focusTile ? moves.filter((m) => m.event.play === focusTile) : moves;
  shown.forEach((m) => {
    box.append(el("button", { class: "move", "data-event": JSON.stringify(m.event), onclick: () => send(m.event) }, m.text));
  });
  if (focusTile) box.append(el("button", { onclick: () => { focusTile = null; render(); } }, "show all moves"));
  if (!moves.length) box.append(el("em", {}, last.seat === null ? "You are watching." : "Waiting for the others…"));
}

function renderSummary() {
  const ol = $("hands");
  ol.replaceChildren();
  let before = null;
  (last.hand_scores || []).forEach((scores, h) => {
    const parts = (scores || []).map((s, i) => {
      const gain = before && typeof s === "number" ? ` (+${s - before[i]})` : "";
      return `${names()[i]} ${s}${gain}`;
    }).join(", ");
    before = scores;
    ol.append(el("li", { class: "hand-end" }, `after hand ${h + 1}: ${parts}`));
  });
  const res = $("result");
  res.replaceChildren();
  if (last.result) {
    const w = last.result.winner;
    res.append(el("p", { id: "game-over" }, `Game over: ${w === null ? "no single winner" : names()[w] + " wins"} (${last.result.scores.join(" – ")}).`));
    res.append(el("a", { href: `/api/tables/${tableId}/record`, download: `boneyard-${tableId}.json`, id: "record-link" }, "Download the record"));
    res.append(el("p", {}, "Check every deal offline: boneyard verify FILE"));
  }
}

async function sha256hex(text) {
  const buf = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function renderFairness() {
  const ol = $("fairness");
  ol.replaceChildren();
  for (const f of last.fairness || []) {
    const li = el("li", {}, el("code", { title: "sha256 of the server seed" }, f.commitment.slice(0, 16) + "…"));
    if (f.seed) {
      const out = el("span", { class: "verify" }, " checking…");
      li.append(" seed ", el("code", {}, f.seed.slice(0, 16) + "…"), out);
      if (crypto.subtle) {
        sha256hex(f.seed).then((h) => { out.textContent = h === f.commitment ? " ✓ matches the commitment" : " ✗ does NOT match"; });
      } else out.textContent = " (open over https to check here)";
    } else li.append(" (seed revealed when the hand ends)");
    ol.append(li);
  }
}

function render() {
  if (!last) return;
  document.body.dataset.version = last.version;
  renderSeats();
  const view = last.view;
  if (!view) {
    $("turn").textContent = "Waiting for the table to start.";
    return;
  }
  const cur = view.current_seat;
  $("turn").textContent = view.is_over ? "The game is over." :
    cur === null || cur === undefined ? "" : cur === last.seat ? "Your turn." : `${names()[cur]} to play.`;
  renderLayout(view);
  renderDetails(view);
  renderMine(view, last.moves || []);
  renderSummary();
  renderFairness();
}

api("GET", "/api/me").then((r) => { me = r.user; }).finally(connect);
