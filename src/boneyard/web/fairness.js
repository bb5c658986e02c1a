// The fairness panel of a live table (docs/fairness.md, scheme boneyard-deal/2): the commitment
// of the coming hand, this browser's own seed for it (made here with crypto.getRandomValues and
// sent by itself), and after each hand "verified ✓" when the revealed server seed hashes to its
// commitment (SubtleCrypto sha256) and this browser's seed is the one the deal used. The full
// deal is recomputed offline: boneyard verify RECORD.
import { el } from "/static/api.js";

const short = (s) => (s && s.length > 12 ? s.slice(0, 12) + "…" : s || "");

export async function sha256hex(text) {
  const buf = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export function randomSeed() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function key(tableId, hand) { return `boneyard-seed-${tableId}-${hand}`; }

// The seed this browser sent for a hand (kept in localStorage so that a reload still knows it).
export function sentSeed(tableId, hand) {
  try { return localStorage.getItem(key(tableId, hand)); } catch { return null; }
}

function remember(tableId, hand, seed) {
  try { localStorage.setItem(key(tableId, hand), seed); } catch { /* private mode: fine */ }
}

// Send a seed for the coming hand once per hand when seated and none is taken yet.
const asked = new Set();
export function autoSeed(msg, tableId, send) {
  if (!msg || msg.seat === null || msg.seat === undefined) return;
  const next = (msg.fairness || []).find((f) => f.next);
  if (!next || next.my_seed || asked.has(next.hand)) return;
  asked.add(next.hand);
  const seed = sentSeed(tableId, next.hand) || randomSeed();
  remember(tableId, next.hand, seed);
  send({ type: "seed", hand: next.hand, seed });
}

// The server took our seed: note it in the last view's fairness list.
export function seedTaken(msg, reply) {
  const f = (msg && msg.fairness || []).find((x) => x.hand === reply.hand && x.next);
  if (f) f.my_seed = reply.seed;
}

export function seedRefused(hand) { asked.delete(hand); }

const results = new Map(); // "hand:seed:commitment" -> verdict text

export function renderFairness(ol, msg, tableId) {
  ol.replaceChildren();
  const seat = msg ? msg.seat : null;
  // What the game calls a hand (High Fives deals the whole set once a pass, over several deals:
  // a commitment is a pass's)
  const unit = (msg && msg.table && msg.table.hand_word) || "Hand";
  for (const f of (msg && msg.fairness) || []) {
    const li = el("li", { "data-hand": f.hand });
    if (f.next) {
      li.className = "next";
      li.append(el("b", {}, `${unit} ${f.hand + 1} (next)`), " commitment ",
        el("code", { class: "commitment", title: f.commitment }, short(f.commitment)));
      if (seat !== null && seat !== undefined) {
        li.append(" · your seed ", f.my_seed ? el("code", { class: "my-seed", title: f.my_seed }, short(f.my_seed)) : el("em", {}, "sending…"));
      }
      if (f.seeded && f.seeded.length) li.append(` · seeds from ${f.seeded.length} player${f.seeded.length > 1 ? "s" : ""}`);
      ol.append(li);
      continue;
    }
    li.append(el("b", {}, `${unit} ${f.hand + 1}`), " commitment ",
      el("code", { class: "commitment", title: f.commitment }, short(f.commitment)));
    const clients = Array.isArray(f.client_seeds) ? f.client_seeds : null;
    const mine = clients && seat !== null && seat !== undefined ? clients[seat] : null;
    const sent = seat !== null && seat !== undefined ? sentSeed(tableId, f.hand) : null;
    if (clients) {
      const n = clients.filter((c) => c !== null).length;
      li.append(` · ${n} client seed${n === 1 ? "" : "s"}`);
      if (mine) li.append(" (yours ", el("code", { title: mine }, short(mine)), ")");
    }
    if (!f.seed) {
      li.append(el("span", { class: "pending" }, " · server seed revealed when the hand ends"));
      ol.append(li);
      continue;
    }
    li.append(" · seed ", el("code", { class: "seed", title: f.seed }, short(f.seed)));
    const out = el("span", { class: "verify" }, " checking…");
    li.append(out);
    ol.append(li);
    if (sent && mine !== sent) {
      li.classList.add("failed");
      out.textContent = " ✗ your seed was left out of this deal";
      continue;
    }
    if (!crypto.subtle) { out.textContent = " (open over https to check here)"; continue; }
    const id = `${f.hand}:${f.seed}:${f.commitment}`;
    const show = (ok) => {
      li.classList.add(ok ? "verified" : "failed");
      out.textContent = ok
        ? ` verified ✓ the seed matches the commitment${sent ? ", with your seed" : ""}`
        : " ✗ the seed does NOT match the commitment";
    };
    if (results.has(id)) show(results.get(id));
    else sha256hex(f.seed).then((h) => { results.set(id, h === f.commitment); show(h === f.commitment); });
  }
}
