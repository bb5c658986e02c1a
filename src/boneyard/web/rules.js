// The rules pages' pictures: each <figure class="board" data-view="..."> carries a position the
// server built with the engine (server/rules/figures.py); it is drawn here by the tables' own
// renderer (board.js, tiles.js), with a line saying what the engine counts.
import { el } from "/static/api.js";
import { fivesBoard, towerBoard } from "/static/board.js";
import { tile } from "/static/tiles.js";

// A High Fives turn: the tile played, and the layout with the tiles it wins marked.
function captureBoard(view) {
  const box = el("div", { class: "felt capture" });
  const played = el("div", { class: "row played" }, el("span", { class: "label" }, "Played:"), tile(view.played, "selected", 26, true));
  const row = el("div", { class: "row hf-layout" }, el("span", { class: "label" }, "Layout:"));
  for (const t of view.hf_layout) {
    const cls = view.capture.includes(t) ? "target" : view.claim.includes(t) ? "claimable" : "";
    row.append(tile(t, cls, 26, true));
  }
  box.append(played, row);
  const legend = el("p", { class: "legend" });
  if (view.claim.length) legend.append(el("span", { class: "key claimed" }, "claimed pair"));
  if (view.capture.length) legend.append(el("span", { class: "key captured" }, "captured with it"));
  if (legend.children.length) box.append(legend);
  return box;
}

function describe(view) {
  const points = (n) => `${n} point${n === 1 ? "" : "s"}`;
  if (view.layout) return `The open ends add up to ${view.count}${view.points ? `: a multiple of 5, it scores ${points(view.points)}` : ""}.`;
  if (view.tower) return `The last domino scores ${points(view.points)}. Spacers left: ${view.spacers_left}.`;
  const won = view.capture.length + view.claim.length + (view.capture.length ? 1 : 0);
  return `The turn wins ${won} tiles worth ${points(view.points)}.`;
}

for (const fig of document.querySelectorAll("figure.board[data-view]")) {
  const view = JSON.parse(fig.dataset.view);
  let drawing;
  if (view.layout) drawing = fivesBoard(view, { last: view.last });
  else if (view.tower) drawing = towerBoard(view);
  else drawing = captureBoard(view);
  const caption = fig.querySelector("figcaption");
  fig.insertBefore(drawing, caption);
  fig.insertBefore(el("p", { class: "figure-fact" }, describe(view)), caption);
}
