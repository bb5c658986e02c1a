// The settings of an event as a form: the same form creates an event (/tournaments) and edits it
// (the director's console). Fields that shape the draw are locked once the event has started.
import { el } from "/static/api.js";
import { rulesPicker } from "/static/tableoptions.js";

export const FORMATS = {
  single_elimination: "single elimination",
  double_elimination: "double elimination",
  swiss: "Swiss",
  round_robin: "round robin",
  pools: "pools, then a bracket",
};

const BRACKETS = ["single_elimination", "double_elimination"];
const ALL = Object.keys(FORMATS);

// [key, label, kind, choices or null, help, formats it applies to, online only]
const FIELDS = [
  ["name", "Name", "text", null, "", ALL],
  ["game", "Game", "select", null, "", ALL],
  ["format", "Format", "select", FORMATS, "", ALL],
  ["mode", "Where", "select", { online: "online (tables on the site)", otb: "over the board (score cards)" }, "", ALL],
  ["preset", "Rules", "rules", null, "", ALL],
  ["schedule", "Best of", "text", null, "pda (3 of 5, final 4 of 7), bo1, bo3, or by round: 5,5,7", ALL],
  ["cap", "Most entrants", "number", null, "", ALL],
  ["rated", "Rated", "check", null, "games count for the leaderboard", ALL],
  ["third_place", "Third-place match", "check", null, "the semi-final losers play for third", ["single_elimination", "pools"]],
  ["reset", "Grand-final reset", "check", null, "if the losers' champion wins the grand final, it is played again", ["double_elimination", "pools"]],
  ["rounds", "Rounds", "number", null, "empty: enough to find a winner", ["swiss"]],
  ["late_entry", "Late entry", "check", null, "people may still enter until the last round is paired", ["swiss"]],
  ["bot_accounts", "Bot accounts may enter", "check", null, "programs playing through a bot account (labelled as bots) may register themselves", ALL],
  ["double", "Play everyone twice", "check", null, "", ["round_robin", "pools"]],
  ["bye_points", "A bye scores", "select", [["", "the format's default (Swiss 1, round robin 0)"], ["0", "0"], ["0.5", "½"], ["1", "1"]], "", ["swiss", "round_robin"]],
  ["pools", "Pools", "number", null, "empty: pools of about 4", ["pools"]],
  ["advance", "Go through from each pool", "number", null, "", ["pools"]],
  ["bracket_format", "Bracket after the pools", "select", { single: "single elimination", double: "double elimination" }, "", ["pools"]],
  ["bracket_schedule", "Bracket best of", "text", null, "", ["pools"]],
  ["seeding", "Seeding", "select", { rating: "by rating", random: "random draw", manual: "by hand (the console)" }, "", ALL],
  ["starts_at", "Start time", "datetime", null, "", ALL],
  ["auto_start", "Start automatically at the start time", "check", null, "", ALL],
  ["checkin_opens_at", "Check-in opens", "datetime", null, "empty: open from registration", ALL],
  ["checkin_closes_at", "Check-in closes", "datetime", null, "empty: open until the start", ALL],
  ["grace_minutes", "Minutes a late player gets", "number", null, "when their match is ready, before it is forfeited", ALL],
  ["per_move", "Seconds per move", "number", null, "the move clock at every table", ALL, true],
  ["move_grace", "Warning seconds", "number", null, "after the move time, before the time-out", ALL, true],
  ["timeout", "At a time-out", "select", { lose: "the player loses the game", bot: "a bot plays on", director: "the director decides" }, "", ALL, true],
  ["max_tables", "Games at once", "number", null, "empty: no limit", ALL, true],
  ["signatures", "Score cards", "select", { paper: "the players sign the paper card; the director types it in", screen: "each player signs on screen" }, "PDA rule 11: both players sign each game's final score", ALL, "otb"],
];

const LOCKED = new Set(["game", "format", "mode", "preset", "schedule", "cap", "rounds", "double", "seeding",
  "third_place", "reset", "pools", "advance", "bracket_format", "bracket_schedule", "bye_points", "starts_at",
  "auto_start", "checkin_opens_at", "checkin_closes_at"]);

function local(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function input(key, kind, choices, games, value) {
  const id = `f-${key}`;
  if (kind === "select") {
    const opts = key === "game" ? games.map((g) => [g.game, g.title]) : Array.isArray(choices) ? choices : Object.entries(choices);
    const s = el("select", { id, name: key });
    for (const [v, text] of opts) s.append(el("option", { value: v }, text));
    s.value = value === null || value === undefined ? opts[0][0] : String(value);
    return s;
  }
  if (kind === "check") {
    const c = el("input", { id, name: key, type: "checkbox" });
    c.checked = !!value;
    return c;
  }
  const attrs = { id, name: key, type: kind === "datetime" ? "datetime-local" : kind };
  if (kind === "number") Object.assign(attrs, { min: 0, step: key === "grace_minutes" ? "any" : 1 });
  if (key === "name") Object.assign(attrs, { required: "", maxlength: 80 });
  const i = el("input", attrs);
  i.value = kind === "datetime" ? local(value) : value ?? "";
  return i;
}

// The event's rules: its game's preset and options (two players), as the New table form offers
// them; they follow the game chosen.
function rulesRow(games, values, gameField, started) {
  const picker = rulesPicker("ev-");
  const entry = () => games.find((g) => g.game === gameField.value) || games[0];
  const row = el("div", { class: "rules-row" }, el("span", { class: "label" }, "Rules"), " ", ...picker.nodes);
  const show = (given) => { picker.show(entry(), 2, given); picker.disable(!!started); };
  show(values.game === gameField.value ? { ...(values.options || {}) } : undefined);
  gameField.addEventListener("change", () => show());
  return { field: picker, row, kind: "rules" };
}

// The form for `values` (an event's JSON, or defaults for a new one); `started` locks what
// shapes the draw. Returns { form, read }: read() gives the request body (it throws the reason
// when a rule option cannot be sent).
export function settingsForm(games, values, started) {
  const form = el("form", { class: "settings-form" });
  const rows = {};
  const get = (k) => (k in values ? values[k] : (values.settings || {})[k]);
  for (const [key, text, kind, choices, help, formats, online] of FIELDS) {
    if (kind === "rules") {
      rows[key] = rulesRow(games, values, rows.game.field, started);
      rows[key].row.dataset.formats = formats.join(" ");
      form.append(rows[key].row);
      continue;
    }
    const value = get(key);
    const field = input(key, kind, choices, games, value);
    if (started && LOCKED.has(key)) field.disabled = true;
    const row = kind === "check" ? el("label", { class: "check" }, field, " ", text) : el("label", {}, text, " ", field);
    if (help) row.append(" ", el("small", { class: "note" }, help));
    row.dataset.formats = formats.join(" ");
    if (online) row.dataset.only = online === "otb" ? "otb" : "online";
    rows[key] = { field, row, kind };
    form.append(row);
  }
  const show = () => {
    const fmt = rows.format.field.value;
    const otb = rows.mode.field.value === "otb";
    for (const { row } of Object.values(rows)) {
      const only = row.dataset.only;
      row.hidden = !row.dataset.formats.split(" ").includes(fmt) || (otb && only === "online") || (!otb && only === "otb");
    }
  };
  rows.format.field.addEventListener("change", show);
  if (!values.id) { // a new event's suggested name follows the game until the director types one
    let named = false;
    rows.name.field.addEventListener("input", () => { named = true; });
    rows.game.field.addEventListener("change", () => {
      const g = games.find((x) => x.game === rows.game.field.value);
      if (!named && g) rows.name.field.value = `${g.title} Open`;
    });
  }
  rows.mode.field.addEventListener("change", show);
  show();
  const read = () => {
    const body = {};
    for (const [key, { field, kind, row }] of Object.entries(rows)) {
      if (kind === "rules") {
        if (started) continue; // locked once the event has started
        const { preset, options, error } = field.read();
        if (error) throw new Error(error);
        Object.assign(body, { preset, options });
        continue;
      }
      if (field.disabled || row.hidden) continue;
      if (kind === "check") body[key] = field.checked;
      else if (kind === "number") { if (field.value !== "") body[key] = Number(field.value); else if (started !== null) body[key] = null; }
      else if (kind === "datetime") body[key] = field.value ? new Date(field.value).toISOString() : null;
      else if (key === "bye_points") body[key] = field.value === "" ? null : Number(field.value);
      else if (field.value.trim() !== "") body[key] = field.value.trim();
    }
    return body;
  };
  return { form, read };
}
