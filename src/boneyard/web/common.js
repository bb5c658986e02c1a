// Pieces shared by the live table and the replay viewer.
import { el } from "/static/api.js";

export function seatName(s, i) {
  return (s && (s.name || s)) || `Seat ${i + 1}`;
}

// "Bob went out: award 15" from a replay hand_end line.
export function handEndText(end, names) {
  const w = end.winner;
  const who = w === null || w === undefined ? null : names[w];
  let text;
  if (end.reason === "domino") text = `${who} went out`;
  else if (end.reason === "block") text = who ? `blocked: ${who} wins it` : "blocked: no winner";
  else if (end.reason === "game_over") text = who ? `${who} reached the target` : "the game is over";
  else if (end.reason === "played_out") text = who ? `played out: ${who} wins it` : "played out";
  else text = `${end.reason}${who ? `: ${who}` : ""}`;
  if (end.award) text += `, award ${end.award}`;
  if (Array.isArray(end.awards) && end.awards.some((a) => a)) text += ` (${end.awards.map((a, i) => `${names[i]} ${a > 0 ? "+" : ""}${a}`).join(", ")})`;
  return text;
}

// The few public numbers of a view worth a chip: [label, value, id].
export function infoItems(view) {
  const out = [];
  if (view.hand_number !== undefined) out.push(["hand", view.hand_number + 1]);
  if (view.pass !== undefined && view.deal !== undefined) out.push(["pass · deal", `${view.pass + 1} · ${view.deal + 1}`]);
  if (view.count !== undefined) out.push(["count", view.count, "count"]);
  if (view.boneyard_size !== undefined) out.push(["boneyard", view.boneyard_size]);
  if (view.reserve) out.push(["reserve", view.reserve]);
  if (view.pile_size !== undefined) out.push(["pile", view.pile_size]);
  if (view.undealt !== undefined) out.push(["undealt", view.undealt]);
  if (view.spacers_left !== undefined) out.push(["spacers", view.spacers_left]);
  if (view.target !== undefined) out.push(["target", view.target]);
  if (view.stage) out.push(["stage", view.stage]);
  if (view.partnerships) out.push(["play", "partners"]);
  return out;
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
