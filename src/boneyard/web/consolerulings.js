// The console's "Rulings & undo" tab: what waits for a ruling (a disputed card, a time-out left
// to the director), the rulings on one match picked from a list (a forfeit, a bogus play under
// PDA 8c–e, a score, a PDA 9b penalty over the board), every ruling, forfeit (automatic ones
// too), time-out and penalty that can still be undone, and reopening a decided game.
import { el } from "/static/api.js";
import { allMatches, button } from "/static/tournamentpage.js";
import { scoreText } from "/static/results.js";

const $ = (id) => document.getElementById(id);
const note = () => $("console-note").value;
const ACTIVE = ["playing", "reported", "disputed", "timeout"];

function part(title, id, ...children) {
  return el("div", { class: "console-part", id }, el("h3", {}, title), ...children);
}

function label(data, m) {
  return `${m.table && data.mode === "otb" ? `T${m.table} · ` : ""}${m.id}: ${m.a_name} v ${m.b_name}`;
}

function waitingPart(ctx, data) {
  const ul = el("ul", { id: "needs-ruling" });
  for (const m of allMatches(data)) {
    for (const g of m.games.filter((x) => ["disputed", "timeout"].includes(x.status))) {
      const pick = el("button", { type: "button", class: "pick", "data-key": `pick-${m.id}` }, "Rule on it");
      pick.addEventListener("click", () => { ctx.ruleMatch = m.id; ctx.redraw(); });
      ul.append(el("li", { "data-game": g.id }, `${label(data, m)} — game ${g.number} ${g.how}${g.note ? `: ${g.note}` : ""} `, pick));
    }
  }
  return ul.children.length ? part("Waiting for a ruling", "console-waiting", ul) : null;
}

function rulePart(ctx, data) {
  const ready = allMatches(data).filter((m) => m.ready && !m.over).sort((x, y) => (x.table ?? 999) - (y.table ?? 999) || x.round - y.round || x.index - y.index);
  if (!ready.length) return part("Rule on a match", "console-rule", el("p", { class: "note" }, "No match in play."));
  const m = ready.find((x) => x.id === ctx.ruleMatch) || ready[0];
  ctx.ruleMatch = m.id;
  const pick = el("select", { id: "rule-match", "aria-label": "match to rule on" }, ...ready.map((x) => el("option", { value: x.id }, label(data, x))));
  pick.value = m.id;
  pick.addEventListener("change", () => { ctx.ruleMatch = pick.value; ctx.redraw(); });
  const open = m.games.find((g) => ACTIVE.includes(g.status));
  const gid = open ? open.id : null;
  const who = el("select", { id: "rule-who", "aria-label": `who, in ${m.id}` }, el("option", { value: m.a }, m.a_name), el("option", { value: m.b }, m.b_name));
  const name = () => who.selectedOptions[0].textContent;
  const sa = el("input", { type: "number", min: 0, step: 5, class: "score-a", "aria-label": `${m.a_name}'s score` });
  const sb = el("input", { type: "number", min: 0, step: 5, class: "score-b", "aria-label": `${m.b_name}'s score` });
  const scores = () => {
    for (const f of [sa, sb]) {
      if (f.value === "") throw new Error("Type both scores of the ruling.");
      if (Number(f.value) < 0) throw new Error(`A score cannot be negative (${f.value}).`);
    }
    return { kind: "score", score_a: Number(sa.value), score_b: Number(sb.value), winner: Number(who.value), game_id: gid, note: note() };
  };
  const box = el("div", { class: "console-match", "data-console": m.id },
    el("p", {}, el("b", {}, label(data, m)), ` — best of ${m.best_of}, ${m.wins.join("–")}`, open ? `; game ${open.number} ${open.how}${open.score_a !== null ? ` (${scoreText(open, m)})` : ""}` : ""),
    el("p", { class: "console-row" }, "Pick a match: ", pick),
    el("p", { class: "console-row" }, "Who: ", who, " ",
      button(ctx, "forfeits the match", `/matches/${m.id}/forfeit`, () => ({ loser: Number(who.value), note: note() }), { cls: "forfeit", key: `forfeit-${m.id}`, confirm: `${m.id}: ${name()} forfeits the match?`, detail: "The other side wins the match; a game in play is void. You can undo it until the next round starts." }),
      button(ctx, "bogus play (150–100)", `/matches/${m.id}/ruling`, () => ({ kind: "bogus", offender: Number(who.value), game_id: gid, note: note() }), { cls: "bogus", key: `bogus-${m.id}`, confirm: `${m.id}: a bogus play by ${name()}?`, detail: `PDA 8c–e: ${open ? `game ${open.number}` : "the game"} ends 150 to the other side, 100 to ${name()}.` })),
    el("p", { class: "console-row" }, `Rule ${open ? `game ${open.number}` : "a new game"}: `, sa, " – ", sb, " ",
      button(ctx, "rule this score", `/matches/${m.id}/ruling`, scores, { cls: "rule", key: `rule-${m.id}`, confirm: `${m.id}: rule this score?`, detail: "A ruling stands whatever the card says; you can undo it until the next round starts." })));
  if (data.mode === "otb") {
    const pts = el("input", { type: "number", min: 50, max: 150, step: 5, value: 50, class: "points", "aria-label": "penalty points" });
    box.append(el("p", { class: "console-row" }, "PDA 9b penalty against the player in Who: the hand ends and the other player scores ", pts, " ",
      button(ctx, "penalty", `/matches/${m.id}/penalty`, () => {
        if (Number(pts.value) < 50) throw new Error("A 9b penalty is at least 50 points (the larger of 50 and the offender's pips).");
        return { offender: Number(who.value), points: Number(pts.value), note: note() };
      }, { cls: "penalty", key: `penalty-${m.id}`, confirm: `${m.id}: a 9b penalty against ${name()}?`, detail: "It goes on the card of the game in play (and the log); the players' final score includes the points." })));
  }
  return part("Rule on a match", "console-rule", box);
}

function actionWords(data, a) {
  const p = a.payload || {};
  const names = Object.fromEntries(data.entrants.map((e) => [e.id, e.name]));
  if (a.kind === "forfeit") return `${p.match}: forfeit by ${names[p.loser] || "?"}${p.auto ? ` (automatic: ${p.reason === "withdrawn" ? "withdrew" : "no-show"})` : ""}`;
  if (a.kind === "timeout") return `${p.match}: ${names[p.entrant] || "?"}'s time ran out (rule: ${p.rule})`;
  if (a.kind === "penalty") return `${p.match} game ${p.game}: 9b penalty against ${names[p.offender] || "?"}, ${p.points} points`;
  return `${p.match}: ruling ${p.kind === "bogus" ? "bogus play " : ""}${(p.scores || []).join("–")}`;
}

function undoPart(ctx, data) {
  const ul = el("ul", { id: "rulings" });
  for (const a of [...data.actions].reverse()) {
    if (!["ruling", "forfeit", "timeout", "penalty"].includes(a.kind) || a.undone) continue;
    if (a.kind === "timeout" && (a.payload || {}).rule === "bot") continue;
    ul.append(el("li", { "data-action": a.id }, `${actionWords(data, a)}${a.note ? ` — ${a.note}` : ""} `,
      button(ctx, "Undo", `/actions/${a.id}/undo`, () => ({ note: note() }), { cls: "undo", key: `undo-${a.id}`, confirm: "Undo this?", detail: "Its result no longer counts: a card goes back to what it was, a game at a table is played again. Refused once the next round has started.", yes: "Undo" })));
  }
  if (!ul.children.length) ul.append(el("li", { class: "note" }, "Nothing to undo."));
  const items = [ul];
  const finals = allMatches(data).flatMap((m) => m.games.filter((g) => g.final).map((g) => [m, g]));
  if (finals.length) {
    const sel = el("select", { id: "reopen-game", "aria-label": "game to reopen" });
    for (const [m, g] of finals.slice(-80).reverse()) sel.append(el("option", { value: g.id }, `${m.id} ${g.kind === "forfeit" ? "forfeit" : `game ${g.number}`}: ${scoreText(g, m)}`));
    items.push(el("p", { class: "console-row" }, "Reopen a decided game: ", sel, " ",
      button(ctx, "reopen", () => `/games/${sel.value}/reopen`, () => ({ note: note() }), { id: "reopen", key: "reopen", confirm: "Reopen this game?", detail: "Its result no longer counts and it is played (or entered) again." })));
  }
  return part("Undo and reopen", "console-undo", ...items);
}

export function rulingsTab(ctx, data) {
  if (!(data.rounds || []).length) return [part("Rulings", "console-rule", el("p", { class: "note" }, "Rulings come here once the event starts."))];
  const parts = [];
  if (["running", "paused"].includes(data.status)) {
    const waiting = waitingPart(ctx, data);
    if (waiting) parts.push(waiting);
    parts.push(rulePart(ctx, data));
  }
  parts.push(undoPart(ctx, data));
  return parts;
}
