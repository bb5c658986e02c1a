// A game's rules as a form: its preset (High Five: box or pda) and every option it takes, each
// with its words from the game's rules page (GET /api/games). Used by the New table form and
// the event settings. It reads back only what differs from the preset chosen, so a table's or
// an event's record names just the changes.
import { el } from "/static/api.js";

const NUMBER = "#number"; // the choice "a whole number" of an option that takes words too

// An option's value as the rules page names it, words without underscores (as the server's
// rules.service.value_words); seats are numbered from 1 on the site.
function valueWords(value, seat = false) {
  if (seat && typeof value === "number") return `seat ${value + 1}`;
  return String(value).replaceAll("_", " ");
}

function baseline(f, preset) {
  return f.presets && preset in f.presets ? f.presets[preset] : f.default;
}

function choiceSelect(attrs, choices, value, base, seat = false) {
  const sel = el("select", attrs);
  for (const c of choices) sel.append(el("option", { value: JSON.stringify(c) }, valueWords(c, seat) + (c === base ? " (default)" : "")));
  sel.value = JSON.stringify(choices.includes(value) ? value : choices.includes(base) ? base : choices[0]);
  return sel;
}

// One option's row (ids `${p}opt-<name>`): a choice, or a whole number (with the words it takes
// too), set to `value`; null when there is nothing to choose.
function control(p, f, preset, players, value, changed) {
  const base = baseline(f, preset);
  const id = `${p}opt-${f.name}`;
  const seat = !!f.seats; // first_setter ...: "random" or a seat
  const choices = f.choices.filter((c) => !(seat && typeof c === "number" && c >= players));
  const row = el("div", { class: "option-row", "data-option": f.name }, el("label", { for: id }, f.label, " "));
  if ("low" in f) {
    const num = el("input", { type: "number", id, min: f.low, max: f.high, step: 1, "aria-describedby": `${id}-help`,
      value: typeof value === "number" ? value : typeof base === "number" ? base : f.default });
    num.addEventListener("input", changed);
    if (choices.length) {
      const sel = choiceSelect({ id: `${id}-kind`, "aria-label": `${f.label}: a number or a choice` }, choices, value, base);
      sel.prepend(el("option", { value: NUMBER }, `a number${typeof base === "number" ? " (default)" : ""}`));
      sel.value = typeof value === "number" ? NUMBER : JSON.stringify(value);
      num.hidden = sel.value !== NUMBER;
      sel.addEventListener("change", () => { num.hidden = sel.value !== NUMBER; changed(); });
      row.append(sel, " ");
    }
    row.append(num);
  } else {
    if (choices.length < 2) return null;
    const sel = choiceSelect({ id, "aria-describedby": `${id}-help` }, choices, value, base, seat);
    sel.addEventListener("change", changed);
    row.append(sel);
  }
  row.append(el("small", { class: "note", id: `${id}-help` }, f.help));
  return row;
}

// The picker, its element ids prefixed by `p`: `${p}preset-row`, `${p}preset`,
// `${p}rule-options`, `${p}options-changed`, `${p}opt-<name>`. Returns { nodes, show, read,
// disable }: show(game, players, values?) draws the rows of `game` (its /api/games entry),
// set to `values` ({preset?, option: value}), else kept from the same game's rows;
// read() gives { preset, options, error }.
export function rulesPicker(p = "") {
  const preset = el("select", { id: `${p}preset` });
  const presetHelp = el("a", { href: "/rules" }, "what the presets are");
  const presetRow = el("span", { id: `${p}preset-row`, class: "preset-row" },
    el("label", { title: "A named bundle of rule options" }, "Preset ", preset), " ", presetHelp);
  const count = el("span", { id: `${p}options-changed`, class: "note" });
  const optionsHelp = el("a", { href: "/rules" }, "the options");
  const list = el("div", { class: "option-list" });
  const reset = el("button", { type: "button" }, "Back to the game's own rules");
  const details = el("details", { id: `${p}rule-options`, class: "rule-options" },
    el("summary", {}, "Rule options\u00a0", count),
    el("p", { class: "note" }, "Each option is explained on the game's rules page (", optionsHelp, ")."),
    list, reset);
  let current = null; // { game, players, fields }

  const chosenPreset = () => (presetRow.hidden ? null : preset.value);
  const valueOf = (f) => {
    const input = document.getElementById(`${p}opt-${f.name}`);
    const kind = document.getElementById(`${p}opt-${f.name}-kind`);
    if (!input) return undefined;
    if (input.tagName === "SELECT") return JSON.parse(input.value);
    if (kind && kind.value !== NUMBER) return JSON.parse(kind.value);
    return input.value.trim() === "" ? null : Number(input.value);
  };
  const read = () => {
    const options = {};
    if (!current) return { preset: null, options };
    const chosen = chosenPreset();
    for (const f of current.fields) {
      const value = valueOf(f);
      if (value === undefined) continue;
      if (value === null || (typeof value === "number" && "low" in f && (!Number.isInteger(value) || value < f.low || value > f.high))) {
        return { preset: chosen, options, error: `${f.label}: choose a whole number from ${f.low} to ${f.high}` };
      }
      if (value !== baseline(f, chosen)) options[f.name] = value;
    }
    return { preset: chosen && preset.selectedIndex > 0 ? chosen : null, options };
  };
  const changed = () => {
    const n = Object.keys(read().options).length;
    count.textContent = n ? `(${n} changed)` : "(the game's own)";
  };
  const draw = (game, players, values) => {
    const same = current && current.game === game.game;
    const presets = game.presets || [];
    const keptPreset = values ? values.preset : same ? preset.value : null;
    const kept = values || (same ? read().options : {});
    current = { game: game.game, players, fields: game.options, entry: game };
    presetRow.hidden = !presets.length;
    preset.replaceChildren(...presets.map((name, i) => el("option", { value: name }, name + (i === 0 ? " (default)" : ""))));
    if (presets.length) preset.value = presets.includes(keptPreset) ? keptPreset : presets[0];
    presetHelp.href = `/rules/${game.game}#presets`;
    optionsHelp.href = `/rules/${game.game}#options`;
    const base = chosenPreset();
    list.replaceChildren(...game.options
      .map((f) => control(p, f, base, players, f.name in kept ? kept[f.name] : baseline(f, base), changed))
      .filter(Boolean));
    changed();
  };
  // Another preset shows its own values; "back" shows the default preset's.
  preset.addEventListener("change", () => draw(current.entry, current.players, { preset: preset.value }));
  reset.addEventListener("click", () => draw(current.entry, current.players, { preset: null }));
  const disable = (off) => {
    for (const c of [preset, reset, ...list.querySelectorAll("select, input")]) c.disabled = off;
  };
  return { nodes: [presetRow, details], show: draw, read, disable };
}
