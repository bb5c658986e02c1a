// Moves in a player's words. The server describes a move in the words of its records and of
// the terminal ("5-6 on the spinner 5-5, side b", "W-3: W on (0,1), 3 on (1,1)", "claims
// 0-1+1-2 (3 pts)"); a player reads where the tile goes as the board shows it ("to its right",
// "row 1 square 2") and points in full. For the live table's choices, the replay's steps and
// the expert's analysis.
import { edgeDirection } from "/static/board.js";

const WHERE = { left: "to its left", right: "to its right", up: "above it", down: "below it" };
const EDGE = { side: "on one of its sides", end: "on one of its ends" };
const TILE = "[0-9W]{1,2}-[0-9W]{1,2}";

// The words of `text` for a player looking at the board of `view` (drawn for the room ctx: see
// board.js, so that "left" is where they see it).
export function playerWords(view, text, ctx = {}) {
  return String(text || "")
    .replace(new RegExp(`on the (\\w+) (${TILE}), (side|end) ([ab])\\b`, "g"), (_, noun, on, edge, ab) => {
      const dir = view ? edgeDirection(view, on, `${edge.toUpperCase()}_${ab.toUpperCase()}`, ctx) : null;
      return `on the ${noun} ${on}, ${dir ? WHERE[dir] : EDGE[edge]}`;
    })
    .replace(/\((\d+),\s*(\d+)\)/g, (_, r, c) => `row ${Number(r) + 1} square ${Number(c) + 1}`)
    .replace(/\b(\d+) pts?\b/g, (_, n) => `${n} point${n === "1" ? "" : "s"}`)
    .replace(new RegExp(`\\b(${TILE})\\+(${TILE})\\b`, "g"), "$1 and $2");
}

// A move's words: m is {event, text} (a table's move) or {action, text} (an analysis' value).
export function moveWords(view, m, ctx = {}) {
  return playerWords(view, m.text, ctx);
}
