// The replay viewer: steps through a finished table (/replay/{id}) or an uploaded record
// (/replay). Every step is a public view computed by the server, with all hands shown. The
// expert's analysis of one seat (computed by the server's workers, its progress streamed)
// shows the value of every legal move at each of that seat's decisions and marks mistakes.
import { api, cookie, el } from "/static/api.js";
import { tile } from "/static/tiles.js";
import { board, pilesPanel } from "/static/board.js";
import { handEndText, infoChips, scoresText, sentence } from "/static/common.js";
import { moveWords, playerWords } from "/static/words.js";

const $ = (id) => document.getElementById(id);
let data = null;
let at = 0;
let analysis = null; // {seat, decisions: Map "hand/event" -> decision}

function show(d) {
  data = d;
  at = 0;
  $("upload").hidden = true;
  $("board").hidden = false;
  $("side").hidden = false;
  $("title").textContent = `Replay: ${d.title} — ${d.seats.join(", ")}`;
  $("slider").max = String(d.steps.length - 1);
  const ol = $("hands");
  ol.replaceChildren();
  for (const end of d.hand_ends) {
    ol.append(el("li", { class: "hand-end" }, el("a", { href: "#", onclick: (ev) => { ev.preventDefault(); go(lastStepOf(end.hand)); } },
      `Hand ${end.hand + 1}: ${handEndText(end, d.seats)} — ${end.scores.map((s, i) => `${d.seats[i]} ${s}`).join(" · ")}`)));
  }
  const res = $("result");
  res.replaceChildren();
  if (d.ending) {
    res.append(el("p", { id: "game-over" }, endingText(d.ending, d.seats)));
  } else if (d.game_end) {
    const w = d.game_end.winner;
    res.append(el("p", { id: "game-over" }, `${w === null ? "No single winner" : d.seats[w] + " wins"}. ${scoresText(d.seats, d.game_end.scores)}`));
  }
  if (d.table) res.append(el("a", { href: `/api/tables/${d.table}/record`, download: `boneyard-${d.table}.json` }, "Download the record"), " · ", el("a", { href: `/table/${d.table}` }, "the table"));
  setupAnalysis(d);
  render();
}

// How a game that did not end by its rules ended (the record's meta.ending).
function endingText(e, seats) {
  const who = seats[e.seat];
  const won = e.winner === null || e.winner === undefined ? null : seats[e.winner];
  if (e.reason === "resign") return `${who} resigned: ${won} wins. ${scoresText(seats, e.scores)}`;
  if (e.reason === "claim") return `${won} claimed the win: ${who} ${e.stalled ? "did not move" : "left the table"}.`;
  if (e.reason === "abort") return `${who} aborted the game: no result.`;
  if (e.reason === "resigned_last") return `${won} wins: ${(e.resigned || []).map((s) => seats[s]).join(", ")} resigned and placed last.`;
  return "The game ended early.";
}

function setupAnalysis(d) {
  analysis = null;
  $("analysis").hidden = false;
  $("analysis-seat").replaceChildren(...d.seats.map((n, i) => el("option", { value: String(i) }, `${i + 1}: ${n}`)));
  $("analysis-mistakes").replaceChildren();
  $("analysis-progress").hidden = true;
  const finished = Boolean(d.game_end);
  $("analysis-go").disabled = !finished;
  $("analysis-status").textContent = finished ? "" : "The expert analyses finished games only.";
}

function showProgress(a) {
  const bar = $("analysis-progress");
  bar.hidden = false;
  bar.max = a.total || 1;
  bar.value = a.done;
  const who = data.seats[a.seat];
  $("analysis-status").textContent = a.total === null ? `Analysing ${who}…` : `Analysing ${who}: ${a.done} of ${a.total} decisions`;
}

// POST a request whose answer is JSON lines (the analysis' progress, then its result).
async function streamLines(path, body, onLine) {
  const res = await fetch(path, {
    method: "POST", credentials: "same-origin", body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", "X-CSRF-Token": cookie("boneyard_csrf") },
  });
  if (!res.ok) {
    let msg = res.statusText;
    try { const d = await res.json(); if (d && d.detail) msg = Array.isArray(d.detail) ? d.detail.map((x) => x.msg).join("; ") : d.detail; } catch { /* not JSON */ }
    throw new Error(msg);
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let k;
    while ((k = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, k);
      buffer = buffer.slice(k + 1);
      if (line.trim()) onLine(JSON.parse(line));
    }
  }
}

async function analyse() {
  const seat = Number($("analysis-seat").value);
  const path = data.table ? `/api/tables/${data.table}/analysis${location.search}` : "/api/analysis";
  $("analysis-go").disabled = true;
  document.body.dataset.analysis = "running";
  try {
    let last = null;
    await streamLines(path, data.table ? { seat } : { seat, record: data.record }, (a) => { last = a; showProgress(a); });
    if (!last || last.status === "running") throw new Error("the answer stopped short: try again");
    if (last.status === "error") throw new Error(last.error);
    analysis = { seat, decisions: new Map(last.decisions.map((x) => [`${x.hand}/${x.event}`, x])) };
    document.body.dataset.analysis = "done";
    showMistakes();
    render();
  } catch (e) {
    document.body.dataset.analysis = "error";
    $("analysis-status").textContent = `No analysis: ${e.message}`;
  } finally {
    $("analysis-go").disabled = false;
  }
}

function threshold() {
  const t = Number($("analysis-threshold").value);
  return Number.isFinite(t) && t >= 0 ? t : 5;
}

function stepOf(d) {
  return data.steps.findIndex((s) => s.hand === d.hand && s.event === d.event);
}

// A move of a decision in the player's words, as the board of that step shows it.
function said(d, action, text) {
  const step = data.steps[stepOf(d)] || data.steps[at];
  return moveWords(step.view, { action, text });
}

function showMistakes() {
  if (!analysis) return;
  const all = [...analysis.decisions.values()];
  const bad = all.filter((d) => d.loss >= threshold());
  const who = data.seats[analysis.seat];
  $("analysis-status").textContent = `${who}: ${all.length} decisions with a choice, ${bad.length} mistake${bad.length === 1 ? "" : "s"} (losing ${threshold()} points or more).`;
  $("analysis-mistakes").replaceChildren(...bad.map((d) => el("li", {}, el("a", { href: "#", class: "mistake-link", onclick: (ev) => { ev.preventDefault(); go(stepOf(d)); } },
    `Hand ${d.hand + 1}, move ${d.event + 1}: ${said(d, d.chosen, d.chosen_text)} lost ${d.loss.toFixed(1)}; best ${said(d, d.best, d.best_text)}`))));
}

function analysisPanel(step) {
  const panel = $("analysis-step");
  const d = analysis && step.event !== null ? analysis.decisions.get(`${step.hand}/${step.event}`) : null;
  if (!d) { panel.hidden = true; panel.replaceChildren(); return; }
  const mistake = d.loss >= threshold();
  panel.className = `analysis-step${mistake ? " mistake" : ""}`;
  const rows = [...d.values].sort((a, b) => b.value - a.value).map((v) => {
    const chosen = v.text === d.chosen_text, best = v.text === d.best_text;
    return el("tr", { class: [chosen ? "chosen" : "", best ? "best" : ""].join(" ").trim() },
      el("td", {}, moveWords(step.view, v)), el("td", { class: "num" }, `${v.value >= 0 ? "+" : ""}${v.value.toFixed(1)}`), el("td", {}, chosen ? "← played" : ""));
  });
  const verdict = mistake ? `Mistake: this move lost ${d.loss.toFixed(1)} points against the best.`
    : d.loss > 0 ? `Lost ${d.loss.toFixed(1)} points against the best (under the threshold).` : "The expert's choice too.";
  panel.replaceChildren(el("h3", {}, `Expert's values for ${data.seats[analysis.seat]} at this move`),
    el("p", { class: `verdict${mistake ? " bad" : ""}` }, verdict), el("table", {}, ...rows));
  panel.hidden = false;
}


function lastStepOf(hand) {
  let k = 0;
  data.steps.forEach((s, i) => { if (s.hand === hand) k = i; });
  return k;
}

function go(k) {
  at = Math.max(0, Math.min(data.steps.length - 1, k));
  render();
}

function render() {
  const step = data.steps[at];
  const view = step.view;
  document.body.dataset.step = String(at);
  $("slider").value = String(at);
  $("step-no").textContent = `step ${at + 1} of ${data.steps.length} · hand ${step.hand + 1}`;
  $("step-text").textContent = playerWords(view, step.text);
  $("info").replaceChildren(...infoChips(view));
  const ctx = { hand: [], last: step.event !== null && step.lines && step.lines[0] ? step.lines[0].tile : null };
  $("layout").replaceChildren(board(view, data.drawing, ctx));
  const shown = $("hands-shown");
  const heading = !step.hand_end ? "Hands (shown once the game is over)"
    : step.hand_end.reason === "redeal" ? "The hands dealt (thrown in)" : "What each player kept";
  shown.replaceChildren(el("h3", {}, heading));
  (view.hands || []).forEach((hand, i) => {
    const row = el("div", { class: `seat-hand${view.current_seat === i ? " acting" : ""}`, "data-seat": i }, el("span", { class: "who" }, data.seats[i]));
    const tiles = el("div", { class: "row" });
    for (const t of hand) tiles.append(tile(t, "", 28));
    if (!hand.length) tiles.append(el("em", {}, "no tiles"));
    row.append(tiles);
    shown.append(row);
  });
  const cap = $("captured");
  if (data.drawing.piles) { cap.hidden = false; $("piles").replaceChildren(pilesPanel(view, data.seats)); } else cap.hidden = true;
  const scores = view.scores || [];
  const rows = [el("tr", {}, el("th", {}, "Player"), el("th", {}, "Score"), el("th", {}, "Tiles"), ...(view.chips_left ? [el("th", {}, "Chips")] : []))];
  data.seats.forEach((n, i) => rows.push(el("tr", { class: view.current_seat === i && !view.is_over ? "to-act" : "" },
    el("td", {}, n), el("td", { class: "num" }, scores[i] ?? ""), el("td", { class: "num" }, (view.hand_sizes || [])[i] ?? ""),
    ...(view.chips_left ? [el("td", { class: "num" }, view.chips_left[i])] : []))));
  $("seats").replaceChildren(...rows);
  const panel = $("hand-summary");
  if (step.hand_end) {
    const explain = el("ul", { class: "explain" });
    for (const line of step.hand_end.explain || []) explain.append(el("li", {}, line));
    panel.replaceChildren(el("h3", {}, `Hand ${step.hand + 1} is over`), el("p", { class: "hand-result" }, sentence(handEndText(step.hand_end, data.seats), data.seats)),
      explain);
    if (step.game_end) {
      const w = step.game_end.winner;
      panel.append(el("p", { class: "game-result" }, `Game over: ${w === null ? "no single winner" : data.seats[w] + " wins"}.`));
    }
    panel.hidden = false;
  } else if (data.ending && at === data.steps.length - 1) {
    panel.replaceChildren(el("h3", {}, "The game ended early"), el("p", { class: "game-result" }, endingText(data.ending, data.seats)));
    panel.hidden = false;
  } else panel.hidden = true;
  analysisPanel(step);
}

async function load(path, body) {
  try {
    show(await api(body === undefined ? "GET" : "POST", path, body));
  } catch (e) {
    $("upload").hidden = false;
    if (body !== undefined) { $("upload-error").textContent = e.message; return; }
    // (a table's replay that failed is said above the upload; an upload's failure below it)
    $("load-error").hidden = false;
    $("load-error").textContent = e.status === 404
      ? "No such game: the address may be mistyped, or the table is private and this link has no invite. You may view a record file instead."
      : e.message;
  }
}

async function upload(text) {
  $("upload-error").textContent = "";
  let doc;
  try { doc = JSON.parse(text); } catch { $("upload-error").textContent = "that file is not JSON"; return; }
  await load("/api/replays", { record: doc });
}

$("first").onclick = () => go(0);
$("prev").onclick = () => go(at - 1);
$("next").onclick = () => go(at + 1);
$("last").onclick = () => go(data.steps.length - 1);
$("prev-hand").onclick = () => { const h = data.steps[at].hand; go(data.steps.findIndex((s) => s.hand === Math.max(0, h - (data.steps[at].event === null ? 1 : 0)))); };
$("next-hand").onclick = () => { const h = data.steps[at].hand; const k = data.steps.findIndex((s) => s.hand === h + 1); go(k < 0 ? data.steps.length - 1 : k); };
$("slider").oninput = () => go(Number($("slider").value));
document.addEventListener("keydown", (ev) => {
  if (!data || ev.target.tagName === "TEXTAREA" || ev.target.tagName === "INPUT" && ev.target.type !== "range") return;
  if (ev.key === "ArrowRight") go(at + 1);
  else if (ev.key === "ArrowLeft") go(at - 1);
  else if (ev.key === "Home") go(0);
  else if (ev.key === "End") go(data.steps.length - 1);
});
$("record-file").addEventListener("change", async () => {
  const f = $("record-file").files[0];
  if (f) await upload(await f.text());
});
$("record-go").onclick = () => upload($("record-text").value);
$("analysis-go").onclick = analyse;
$("analysis-threshold").oninput = () => { showMistakes(); if (data) render(); };

const parts = location.pathname.split("/").filter(Boolean);
if (parts.length === 2) load(`/api/tables/${parts[1]}/replay${location.search}`); // ?invite= of a private table
else $("upload").hidden = false;
