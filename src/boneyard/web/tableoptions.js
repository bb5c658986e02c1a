// The New table form's rules: a game's preset (High Five: box or pda) and every option it takes,
// each with its words from the game's rules page (GET /api/games). The form sends only what
// differs from the preset chosen, so a table's record names just the changes.
import { el } from "/static/api.js";

const $ = (id) => document.getElementById(id);
const NUMBER = "#number"; // the choice "a whole number" of an option that takes words too

// An option's value as the rules page names it, words without underscores (as the server's
// rules.service.value_words); seats are numbered from 1 on the site.
function valueWords(value, seat = false) {
  if (seat && typeof value === "number") return `seat ${value + 1}`;
  return String(value).replaceAll("_", " ");
}

let current = null; // { game, fields }

function baseline(f, preset) {
  return f.presets && preset in f.presets ? f.presets[preset] : f.default;
}

// One option's row: a choice, or a whole number (with the words it takes too), set to `value`.
function control(f, preset, players, value) {
  const base = baseline(f, preset);
  const id = `opt-${f.name}`;
  const help = el("small", { class: "note", id: `${id}-help` }, f.help);
  const seat = !!f.seats; // first_setter ...: "random" or a seat
  const choices = f.choices.filter((c) => !(seat && typeof c === "number" && c >= players));
  const row = el("div", { class: "option-row", "data-option": f.name });
  if ("low" in f) {
    const num = el("input", { type: "number", id, min: f.low, max: f.high, step: 1, "aria-describedby": `${id}-help`,
      value: typeof value === "number" ? value : typeof base === "number" ? base : f.default });
    row.append(el("label", { for: id }, f.label, " "));
    if (choices.length) {
      const sel = el("select", { id: `${id}-kind`, "aria-label": `${f.label}: a number or a choice` });
      sel.append(el("option", { value: NUMBER }, `a number${typeof base === "number" ? " (default)" : ""}`));
      for (const c of choices) sel.append(el("option", { value: JSON.stringify(c) }, valueWords(c) + (c === base ? " (default)" : "")));
      sel.value = typeof value === "number" ? NUMBER : JSON.stringify(value);
      num.hidden = sel.value !== NUMBER;
      sel.addEventListener("change", () => { num.hidden = sel.value !== NUMBER; changed(); });
      row.append(sel, " ");
    }
    num.addEventListener("input", changed);
    row.append(num);
  } else {
    if (choices.length < 2) return null; // nothing to choose
    const sel = el("select", { id, "aria-describedby": `${id}-help` });
    for (const c of choices) sel.append(el("option", { value: JSON.stringify(c) }, valueWords(c, seat) + (c === base ? " (default)" : "")));
    sel.value = JSON.stringify(choices.includes(value) ? value : choices.includes(base) ? base : choices[0]);
    sel.addEventListener("change", changed);
    row.append(el("label", { for: id }, f.label, " "), sel);
  }
  row.append(help);
  return row;
}

// The value a row is set to (a number, or a choice parsed back to its type); null: not valid.
function valueOf(f) {
  const kind = $(`opt-${f.name}-kind`);
  const input = $(`opt-${f.name}`);
  if (!input) return undefined;
  if (input.tagName === "SELECT") return JSON.parse(input.value);
  if (kind && kind.value !== NUMBER) return JSON.parse(kind.value);
  return input.value.trim() === "" ? null : Number(input.value);
}

function changed() {
  const { options } = chosenOptions();
  const n = Object.keys(options).length - ("preset" in options ? 1 : 0);
  $("options-changed").textContent = n ? `(${n} changed)` : "(the game's own)";
}

// Draw the preset picker and the options of `game` (its /api/games entry) for `players` seats.
// Changes already made to the same game's rows are kept when `keep` (the player count
// changed), not when another preset was chosen: its own values are shown then.
export function renderOptions(game, players, keep = true) {
  const same = current && current.game === game.game && keep;
  const keepPreset = current && current.game === game.game ? $("preset").value : null;
  const kept = same ? chosenOptions().options : {};
  current = { game: game.game, fields: game.options };
  const presets = game.presets || [];
  $("preset-row").hidden = !presets.length;
  $("preset").replaceChildren(...presets.map((p, i) => el("option", { value: p }, p + (i === 0 ? " (default)" : ""))));
  if (presets.length) $("preset").value = keepPreset && presets.includes(keepPreset) ? keepPreset : presets[0];
  $("preset-help").href = `/rules/${game.game}#presets`;
  $("options-help").href = `/rules/${game.game}#options`;
  const preset = presets.length ? $("preset").value : null;
  const rows = game.options.map((f) => control(f, preset, players, f.name in kept ? kept[f.name] : baseline(f, preset))).filter(Boolean);
  $("option-list").replaceChildren(...rows);
  changed();
}

// { options, error }: what differs from the chosen preset (and the preset unless it is the
// default), or why a row cannot be sent.
export function chosenOptions() {
  const options = {};
  if (!current) return { options };
  const presetSel = $("preset");
  const preset = $("preset-row").hidden ? null : presetSel.value;
  if (preset && presetSel.selectedIndex > 0) options.preset = preset;
  for (const f of current.fields) {
    const value = valueOf(f);
    if (value === undefined) continue;
    if (value === null || (typeof value === "number" && "low" in f && (!Number.isInteger(value) || value < f.low || value > f.high))) {
      return { options, error: `${f.label}: choose a whole number from ${f.low} to ${f.high}` };
    }
    if (value !== baseline(f, preset)) options[f.name] = value;
  }
  return { options };
}
