// Choosing a move by clicks: a hand tile, then (as needed) ends, cells, captures or options.
// Pure functions over the seat's legal moves ([{event, text}]) and a selection
// {tile, cells: ["r,c", ...], capture: undefined | tile | null}.
import { sameTile } from "/static/tiles.js";

export function cellKey(c) { return `${c[0]},${c[1]}`; }

export function tileMoves(moves, t) {
  return moves.filter((m) => typeof m.event.play === "string" && sameTile(m.event.play, t));
}

// The moves still possible for the selection.
export function candidates(moves, sel) {
  let cand = tileMoves(moves, sel.tile);
  for (const key of sel.cells || []) cand = cand.filter((m) => (m.event.cells || []).some((c) => cellKey(c) === key));
  if (sel.capture !== undefined) cand = cand.filter((m) => (m.event.capture ?? null) === sel.capture);
  return cand;
}

// Highrise: the cells still to click (those of the candidates, not yet picked).
export function cellTargets(moves, sel) {
  const out = new Set();
  for (const m of candidates(moves, sel)) for (const c of m.event.cells || []) if (!sel.cells.includes(cellKey(c))) out.add(cellKey(c));
  return out;
}

// Highrise: the candidates are one placement that differs only by its spacer.
export function spacerChoice(cands) {
  return cands.length > 1 && new Set(cands.map((m) => `${m.event.play}|${JSON.stringify(m.event.cells)}`)).size === 1;
}

export function spacerLabel(m) {
  return m.event.spacer ? `spacer on (${m.event.spacer.join(",")})` : "no spacer";
}
