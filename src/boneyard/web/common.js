// Pieces shared by the live table and the replay viewer.
import { el } from "/static/api.js";

export function seatName(s, i) {
  return (s && (s.name || s)) || `Seat ${i + 1}`;
}

// "Scores: Pat 350 · Greedy bot 532." (each seat's name with its score, as a hand's end says
// them): a bare "350 – 532" after "Greedy bot wins" read as the winner's score first.
export function scoresText(names, scores) {
  return `Scores: ${(scores || []).map((s, i) => `${names[i]} ${s}`).join(" · ")}.`;
}

// How a hand ended, in words ("blocked: Bob wins it"), from a replay hand_end line.
const ENDINGS = {
  redeal: "no double to start with: the tiles were dealt again",
  bogus: "bogus play ended the hand",
  ruling: "a referee's ruling ended the hand",
};

// "Bob went out: award 15" from a replay hand_end line.
export function handEndText(end, names) {
  const w = end.winner;
  const who = w === null || w === undefined ? null : names[w];
  let text;
  if (end.reason === "domino") text = `${who} went out`;
  else if (end.reason === "block") text = who ? `blocked: ${who} wins it` : "blocked: no winner";
  else if (end.reason === "game_over") text = who ? `${who} reached the target` : "the game is over";
  else if (end.reason === "played_out") text = who ? `played out: ${who} wins it` : "played out";
  else text = `${ENDINGS[end.reason] || "the hand ended"}${who ? `: ${who}` : ""}`;
  if (end.award) text += `, award ${end.award}`;
  if (Array.isArray(end.awards) && end.awards.some((a) => a)) text += ` (${end.awards.map((a, i) => `${names[i]} ${a > 0 ? "+" : ""}${a}`).join(", ")})`;
  return text;
}

// Merry-Go-Round's stage of the hand: [what it says, what it means].
const STAGES = {
  set: ["set a double", "The hand starts: the first player sets a double in the middle."],
  cross_sides: ["cross: the sides", "Both sides of the set double must be covered before anything else."],
  cross_ends: ["cross: the ends", "Both ends of the set double must be covered before play opens up."],
  cross: ["cross", "All four edges of the set double must be covered before anything else."],
  open: ["open play", "The cross is complete: play on any open end."],
  idle: ["between hands", "The hand is over."],
};

// The chips while a hand's end is shown (`ended`: {hand, word}: the hand that ended, and what
// the game calls a hand): its number and the game's target, not the next hand's nor the counts
// and piles of a hand no longer played.
function endedItems(view, ended) {
  const out = [[ended.word || "Hand", ended.hand + 1, "", `The ${(ended.word || "hand").toLowerCase()} that has just ended.`]];
  const stage = view.stage === undefined ? undefined : ""; // (Merry-Go-Round: "Exactly", no stage)
  return out.concat(infoItems({ target: view.target, stage, partnerships: view.partnerships }));
}

// The few public numbers of a view worth a chip: [label, value, id, tooltip], in plain words.
export function infoItems(view) {
  const out = [];
  if (view.hand_number !== undefined) out.push(["Hand", view.hand_number + 1, "", "The number of this hand in the game."]);
  if (view.pass !== undefined && view.deal !== undefined) {
    out.push(["Pass · deal", `${view.pass + 1} · ${view.deal + 1}`, "", "A pass is one shuffle of the whole set, dealt out over several deals."]);
  }
  if (view.count !== undefined) {
    out.push(["Ends add up to", view.count, "count", `The open ends add up to ${view.count}. A play that leaves a multiple of 5 scores it.`]);
  }
  if (view.boneyard_size !== undefined) out.push(["Boneyard", view.boneyard_size, "", "Tiles left to draw."]);
  if (view.reserve) out.push(["Never drawn", view.reserve, "", "Tiles at the bottom of the boneyard that can never be drawn."]);
  if (view.pile_size !== undefined) out.push(["Draw pile", view.pile_size, "", "Dominoes left to draw: one a turn, when you cannot place."]);
  if (view.undealt !== undefined) {
    out.push(["Still to deal", view.undealt, "", "Tiles still to be dealt in this pass; those left at the last deal go face up on the layout."]);
  }
  if (view.spacers_left !== undefined) {
    out.push(["Spacers", view.spacers_left, "", "Clear spacers left this hand: one lets a domino cover a square one level lower."]);
  }
  if (view.target !== undefined) {
    const exact = view.stage !== undefined;
    out.push([exact ? "Exactly" : "Playing to", view.target, "", exact ? `The first to reach exactly ${view.target} wins; a score that would pass it scores nothing.` : `The first to reach ${view.target} points wins.`]);
  }
  if (view.stage) {
    const [text, tip] = STAGES[view.stage] || ["", ""];
    if (text) out.push(["Now", text, "stage", tip]);
  }
  if (view.partnerships) out.push(["Partners", "sit opposite", "", "Partners sit opposite each other and share one score."]);
  return out;
}

// The chips of infoItems, each with its tooltip (of endedItems while a hand's end is shown).
export function infoChips(view, ended = null) {
  return (ended ? endedItems(view, ended) : infoItems(view)).map(([label, value, id, tip]) => {
    const attrs = { class: "chip", title: tip };
    if (id) attrs.id = id;
    return el("span", attrs, el("small", {}, label), el("b", {}, value));
  });
}

async function sha256hex(text) {
  const buf = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export function renderFairness(ol, fairness) {
  ol.replaceChildren();
  for (const f of fairness || []) {
    const li = el("li", {}, "commitment ", el("code", { title: "sha256 of the server seed" }, f.commitment.slice(0, 16) + "…"));
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

// A clause as a sentence of its own ("blocked: …" → "Blocked: …"); a sentence that starts with a
// seat's name keeps it as its owner wrote it.
export function sentence(text, names = []) {
  if (names.some((n) => n && text.startsWith(n))) return text; // (a name is written as its owner wrote it)
  return text.charAt(0).toUpperCase() + text.slice(1);
}
