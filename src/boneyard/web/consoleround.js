// The console's "Round" tab: one row per match of the round (table, players, where it stands)
// and, over the board, the card form: a whole paper card in one form — each game's two scores,
// who won (filled in from the scores), how it ended, and "signed on paper" (PDA rule 11) — one
// confirmation, then the next match's card comes up. Online, each row links its table.
import { api, el } from "/static/api.js";
import { ask } from "/static/ask.js";
import { countdown, say } from "/static/tournamentpage.js";
import { mark } from "/static/results.js";

const ACTIVE = ["playing", "reported", "disputed", "timeout"];
const WAITING = { playing: "in play", reported: "awaits the players' signatures", disputed: "disputed: rule on it (Rulings)", timeout: "timed out: rule on it (Rulings)" };

function part(title, id, ...children) {
  return el("div", { class: "console-part", id }, el("h3", {}, title), ...children);
}

function openGame(m) {
  return m.games.find((g) => ACTIVE.includes(g.status));
}

// Whether a card can be typed in for `m` now.
export function cardable(m) {
  return m.ready && !m.over && !openGame(m);
}

function byTable(ms) {
  return [...ms].sort((x, y) => (x.table ?? 999) - (y.table ?? 999) || x.index - y.index);
}

function stateCell(data, m) {
  const cell = el("td", { class: "state" });
  if (m.bye) return cell.append("bye"), cell;
  if (m.over) {
    cell.append(`${m.winner_name} wins ${Math.max(...m.wins)}–${Math.min(...m.wins)} `);
    if (m.outcome && !["played", "bye"].includes(m.outcome)) cell.append(mark(m.outcome_label));
    return cell;
  }
  if (!m.ready) return cell.append("waits for earlier matches"), cell;
  const g = openGame(m);
  if (g) {
    cell.append(`game ${g.number} ${WAITING[g.status] || g.status}`);
    if (g.status === "playing" && g.table_id) cell.append(" ", el("a", { href: `/table/${g.table_id}` }, "watch"));
  } else cell.append(m.wins.some((w) => w) ? `ready, ${m.wins.join("–")}` : "ready");
  for (const w of m.waiting || []) cell.append(el("span", { class: "wait", "data-until": w.until }, ` waiting for ${w.name}: forfeit in ${countdown(w.until)}`));
  return cell;
}

function matchRows(ctx, data, rnd) {
  const t = el("table", { class: "grid round-table", id: "round-matches" });
  t.append(el("tr", {}, ...["Table", "Match", "Players", "Where it stands", ""].map((h) => el("th", { scope: "col" }, h))));
  for (const m of byTable(rnd)) {
    const act = el("td", {});
    if (data.mode === "otb" && cardable(m)) {
      const b = el("button", { type: "button", class: "open-card", "data-key": `open-${m.id}` }, m.id === ctx.cardMatch ? "Card below" : "Enter card");
      b.addEventListener("click", () => { ctx.cardMatch = m.id; ctx.focusCard = true; ctx.redraw(); });
      act.append(b);
    }
    const title = m.kind ? `${m.id} (${m.title})` : m.id;
    t.append(el("tr", { "data-match": m.id, class: m.over ? "done" : "" }, el("td", { class: "num" }, m.table ?? ""),
      el("td", {}, el("a", { href: `/tournaments/${data.id}/matches/${m.id}` }, title)),
      el("td", {}, m.bye ? m.a_name : `${m.a_name ?? "?"} v ${m.b_name ?? "?"}`), stateCell(data, m), act));
  }
  return el("div", { class: "table-scroll" }, t);
}

function scoreField(label, value) {
  const f = el("input", { type: "number", min: 0, step: 5, inputmode: "numeric", class: "card-score", "aria-label": label });
  f.value = value ?? "";
  return f;
}

// The paper card of match `m`: a row per game still to play.
function cardForm(ctx, data, m) {
  const draft = (ctx.drafts ||= {})[m.id] ||= {};
  const screen = data.settings.signatures === "screen";
  const done = m.games.filter((g) => g.kind === "game" && g.final && g.status !== "void").length;
  const need = Math.floor(m.best_of / 2) + 1;
  const rows = [];
  const body = el("tbody", {});
  const first = done + 1;
  const last = screen ? first : m.best_of;
  for (let n = first; n <= last; n++) {
    const d = draft[n] || {};
    const a = scoreField(`game ${n}: ${m.a_name}'s score`, d.a);
    const b = scoreField(`game ${n}: ${m.b_name}'s score`, d.b);
    const who = el("select", { class: "card-winner", "aria-label": `game ${n}: who won` }, el("option", { value: "" }, "—"), el("option", { value: m.a }, m.a_name), el("option", { value: m.b }, m.b_name));
    const how = el("select", { class: "card-how", "aria-label": `game ${n}: how it ended` }, el("option", { value: "target" }, "to 150"), el("option", { value: "bogus" }, "bogus play"));
    who.value = d.who ?? "";
    how.value = d.how ?? "target";
    const tr = el("tr", { "data-game": n }, el("th", { scope: "row" }, el("span", { class: "wide-only" }, "Game "), String(n)), el("td", {}, a), el("td", {}, b), el("td", {}, who), el("td", {}, how));
    rows.push({ n, a, b, who, how, tr, manual: !!d.manual });
    body.append(tr);
  }
  const paper = el("input", { type: "checkbox", id: "card-paper" });
  paper.checked = !screen && draft.paper !== false;
  const go = el("button", { type: "submit", id: "card-enter", class: "big", "data-key": "card-enter" }, "Enter the card");
  const status = el("span", { class: "card-tally", id: "card-tally" });
  const update = () => {
    const wins = [...m.wins];
    for (const r of rows) {
      const decided = wins[0] >= need || wins[1] >= need;
      r.tr.classList.toggle("unplayed", decided);
      for (const f of [r.a, r.b, r.who, r.how]) f.disabled = decided;
      const sa = r.a.value === "" ? null : Number(r.a.value);
      const sb = r.b.value === "" ? null : Number(r.b.value);
      if (!r.manual) r.who.value = sa !== null && sb !== null && sa !== sb ? String(sa > sb ? m.a : m.b) : "";
      draft[r.n] = { a: r.a.value, b: r.b.value, who: r.who.value, how: r.how.value, manual: r.manual };
      if (!decided && r.who.value) wins[r.who.value === String(m.a) ? 0 : 1] += 1;
    }
    draft.paper = paper.checked;
    const winner = wins[0] >= need ? m.a_name : wins[1] >= need ? m.b_name : null;
    status.textContent = winner ? `${winner} wins ${Math.max(...wins)}–${Math.min(...wins)}` : `${wins.join("–")} so far (best of ${m.best_of})`;
    return { wins, winner };
  };
  for (const r of rows) {
    for (const f of [r.a, r.b, r.how]) f.addEventListener("input", update);
    r.who.addEventListener("change", () => { r.manual = r.who.value !== ""; update(); });
  }
  paper.addEventListener("change", update);
  const table = el("table", { class: "grid card-form-table" }, el("thead", {}, el("tr", {}, ...["", m.a_name, m.b_name, "Won by", "How"].map((h) => el("th", { scope: "col" }, h)))), body);
  const form = el("form", { id: "card-form", class: "card-form", "data-match": m.id, novalidate: "" },
    el("h4", {}, `${m.table ? `Table ${m.table} · ` : ""}${m.kind ? `${m.id}, ${m.title}` : m.id} · best of ${m.best_of}${done ? ` · ${m.wins.join("–")} before this card` : ""}`),
    el("p", { class: "card-players" }, `${m.a_name} v ${m.b_name}`), el("div", { class: "table-scroll" }, table),
    screen ? el("p", { class: "note" }, "This event's players sign on screen: enter one game; both players then sign it.")
      : el("label", { class: "check" }, paper, " Signed on paper by both players (PDA rule 11): it counts at once"),
    el("p", { class: "console-row" }, go, " ", status));
  form.addEventListener("submit", (ev) => { ev.preventDefault(); submit(ctx, data, m, rows, paper, update, go); });
  update();
  return form;
}

function typed(rows) {
  const games = [];
  for (const r of rows) {
    if (r.a.disabled) break;
    if (r.a.value === "" && r.b.value === "") continue;
    if (r.a.value === "" || r.b.value === "") throw new Error(`Game ${r.n}: type both scores.`);
    for (const f of [r.a, r.b]) {
      const v = Number(f.value);
      if (!Number.isInteger(v)) throw new Error(`Game ${r.n}: a score is a whole number.`);
      if (v < 0) throw new Error(`Game ${r.n}: a score cannot be negative (${v}).`);
    }
    games.push({ score_a: Number(r.a.value), score_b: Number(r.b.value), reason: r.how.value, winner: r.who.value ? Number(r.who.value) : null });
  }
  if (!games.length) throw new Error("Type each game's two scores first.");
  return games;
}

async function submit(ctx, data, m, rows, paper, update, go) {
  let games;
  try { games = typed(rows); } catch (e) { say(go, e.message); return; }
  const { winner, wins } = update();
  const lines = games.map((g, i) => `Game ${rows[i].n}: ${m.a_name} ${g.score_a} – ${g.score_b} ${m.b_name}${g.reason === "bogus" ? " (bogus play)" : ""}`);
  const result = winner ? `${winner} wins ${Math.max(...wins)}–${Math.min(...wins)}.` : "The match goes on.";
  const how = paper.checked ? "Signed on paper by both players: it counts at once." : "The players sign it on screen.";
  if (!(await ask(`Enter the card of ${m.id}?`, `${lines.join("; ")}. ${result} ${how}`, "Enter the card"))) return;
  const before = m.id;
  let answer;
  try { answer = await api("POST", `/api/tournaments/${data.id}/matches/${m.id}/card`, { games, paper: paper.checked }); } catch (e) { say(go, e.message); return; }
  delete ctx.drafts[before];
  const next = nextCard(answer, before);
  ctx.cardMatch = next ? next.id : null;
  ctx.focusCard = true;
  ctx.render(answer);
  say("card-enter", `${before}: entered.${next ? ` Next: ${next.id}${next.table ? `, table ${next.table}` : ""}.` : " No card is waiting in this round."}`, false);
}

// The next match of the round to enter, after `after` by table number (then from the top).
export function nextCard(data, after) {
  const rnd = (data.rounds || []).find((r) => r.some((m) => m.id === after)) || [];
  const order = byTable(rnd);
  const i = order.findIndex((m) => m.id === after);
  return [...order.slice(i + 1), ...order.slice(0, i + 1)].find(cardable) || byTable((data.rounds || []).flat()).find(cardable) || null;
}

export function roundTab(ctx, data) {
  const rounds = data.rounds || [];
  if (!rounds.length) return [part("Round", "console-round-part", el("p", { class: "note" }, "The round's matches and their cards come here once the event starts."))];
  const current = Math.max(1, Math.min(rounds.length, ctx.round || data.current_round || rounds.length));
  const pick = el("select", { id: "round-pick", "aria-label": "round" }, ...rounds.map((_r, i) => el("option", { value: i + 1 }, (data.round_titles || [])[i] || `Round ${i + 1}`)));
  pick.value = String(current);
  pick.addEventListener("change", () => { ctx.round = Number(pick.value); ctx.cardMatch = null; ctx.redraw(); });
  const rnd = rounds[current - 1];
  const parts = [];
  if (data.mode === "otb" && ["running", "paused"].includes(data.status)) {
    let m = rnd.find((x) => x.id === ctx.cardMatch && cardable(x));
    if (!m) m = byTable(rnd).find(cardable) || null;
    ctx.cardMatch = m ? m.id : null;
    parts.push(part("Score card", "console-card", m ? cardForm(ctx, data, m) : el("p", { class: "note", id: "no-card" }, "No card is waiting in this round: every match is decided or waits for a signature, a ruling or its players.")));
    if (ctx.focusCard) {
      ctx.focusCard = false;
      requestAnimationFrame(() => { const f = document.querySelector("#card-form input.card-score"); if (f) f.focus(); });
    }
  }
  const decided = rnd.filter((x) => !x.bye && x.over).length;
  parts.push(part(`Matches (${decided} of ${rnd.filter((x) => !x.bye).length} decided)`, "console-matches", el("p", { class: "console-row" }, "Round: ", pick), matchRows(ctx, data, rnd)));
  return parts;
}
