// Results of an event as tables: standings with their labelled tiebreak columns (each label
// explained under the table), crosstables (round robin, pools, small Swiss tournaments), and the
// mark of a match or game that was not simply played out (forfeit, no-show, ruling, time-out…).
import { el } from "/static/api.js";

// "150 – 95" with who, and how it ended when that matters ("ruling", "forfeit: no-show").
export function scoreText(g, m) {
  if (g.kind === "forfeit") return `forfeit${g.winner_name ? ` — ${g.winner_name} wins` : ""}`;
  if (g.score_a === null || g.score_a === undefined) return g.status;
  return `${m.a_name} ${g.score_a} – ${g.score_b} ${m.b_name}`;
}

// A small tag naming how a match or game ended, with its explanation as a tooltip.
export function mark(label, extra) {
  if (!label) return "";
  return el("abbr", { class: `mark mark-${label.key}`, title: label.explanation }, extra ? `${label.name}: ${extra}` : label.name);
}

const STATUS = {
  playing: "in play", reported: "awaiting a signature", disputed: "disputed: the director rules",
  timeout: "time ran out: the director rules", confirmed: "signed by both", over: "played",
  ruled: "ruled by the director", void: "void",
};

export function statusText(g) {
  return STATUS[g.status] || g.status;
}

function num(x) {
  return Number.isInteger(x) ? String(x) : (+Number(x).toFixed(2)).toString();
}

// The standings table and the legend of its columns.
export function standingsTable(data) {
  const labels = data.tiebreak_labels || [];
  const points = (data.ranking || []).find((l) => l.key === "points");
  const heads = [["#", "Rank"], ["Entrant", ""], ...(points ? [[points.short, points.explanation]] : []),
    ["W", "Matches won (forfeits won in brackets)"], ["L", "Matches lost (forfeits lost in brackets)"],
    ["Games", "Games won – games lost"], ...labels.map((l) => [l.short, l.explanation])];
  const t = el("table", { class: "grid standings", id: "standings" });
  t.append(el("caption", { class: "note" }, `Ranked by ${(data.ranking || []).map((l) => l.name).join(", then ")}.`));
  t.append(el("tr", {}, ...heads.map(([h, tip]) => el("th", { scope: "col" }, tip ? el("abbr", { title: tip }, h) : h))));
  for (const s of data.standings) {
    const ff = (n) => (n ? ` (${n})` : "");
    t.append(el("tr", { "data-entrant": s.entrant }, el("td", {}, s.rank), el("td", {}, s.name),
      ...(points ? [el("td", { class: "num" }, num(s.points))] : []),
      el("td", { class: "num" }, `${s.wins}${ff(s.forfeit_wins)}`), el("td", { class: "num" }, `${s.losses}${ff(s.forfeit_losses)}`),
      el("td", { class: "num" }, `${s.game_wins}–${s.game_losses}`),
      ...s.tiebreaks.map((x) => el("td", { class: "num" }, num(x)))));
  }
  const legend = el("dl", { class: "legend", id: "tiebreak-legend" });
  for (const l of [...(points ? [points] : []), ...labels]) legend.append(el("dt", {}, `${l.short} — ${l.name}`), el("dd", {}, l.explanation));
  return [t, legend];
}

// One crosstable: rows and columns in standings order, each cell the row entrant's results.
export function crossTable(x) {
  const t = el("table", { class: "grid cross", "data-title": x.title });
  t.append(el("caption", {}, x.title));
  t.append(el("tr", {}, el("th", { scope: "col" }, "#"), el("th", { scope: "col" }, "Entrant"),
    ...x.names.map((_n, i) => el("th", { scope: "col", title: x.names[i] }, i + 1)), el("th", { scope: "col" }, "Pts")));
  x.rows.forEach((row, i) => {
    const cells = row.cells.map((meetings, j) => {
      if (i === j) return el("td", { class: "self" }, "—");
      const text = meetings.map((c) => (c.result === null ? "·" : `${c.result === "win" ? "1" : "0"}${c.outcome && !["played"].includes(c.outcome) ? "*" : ""}`)).join(" ");
      const tip = meetings.map((c) => `${c.match_id}: ${c.result || "to play"} ${c.games.join("–")}${c.outcome && c.outcome !== "played" ? ` (${c.outcome.replace("_", "-")})` : ""}`).join("; ");
      return el("td", { class: `num ${meetings.some((c) => c.result === "win") ? "won" : ""}`, title: tip }, text);
    });
    const byes = row.byes.length ? ` (bye in ${row.byes.join(", ")})` : "";
    t.append(el("tr", {}, el("td", {}, i + 1), el("td", {}, x.names[i] + byes), ...cells, el("td", { class: "num" }, num(row.standing.points))));
  });
  return el("div", { class: "cross-wrap" }, t, el("p", { class: "note" }, "1 a win, 0 a loss, · to play; * not played out (forfeit, ruling, time-out): hover a cell for the match."));
}
