// Your hand and what you can do with it: the tiles (those you can play raised, the rest dimmed
// while it is your turn), the words that say what to do next (a touch screen is told to tap,
// a mouse and keyboard to click or Tab and Enter), the choices left for a chosen tile, and the
// draw / pass buttons.
import { el } from "/static/api.js";
import { tile, sameTile } from "/static/tiles.js";
import { spacerChoice, tileMoves } from "/static/picker.js";

// A touch screen (a phone, a tablet): taps, not clicks; the first tap on a tile only chooses it.
export function touchScreen() {
  return Boolean(window.matchMedia && window.matchMedia("(pointer: coarse)").matches);
}

// A press that came from a finger (or a pen) rather than a mouse or the keyboard.
export function byTouch(ev) {
  return Boolean(ev && (ev.pointerType === "touch" || ev.pointerType === "pen"));
}

// What to do now, in words for this screen. ctx: {moves, sel, cand, how}.
export function hint(ctx) {
  const { moves, sel, cand, how } = ctx;
  const touch = touchScreen();
  if (!sel) {
    if (moves.some((m) => m.event.play)) {
      return touch ? "Your turn: tap a raised tile." : "Your turn: choose a raised tile (click, or Tab and Enter).";
    }
    const other = moves.filter((m) => !m.event.play); // (nothing to place: say what is left)
    return other.length === 1 ? `Your turn: no tile can be played, ${other[0].text}.` : moves.length ? "Your turn." : "";
  }
  const pick = touch ? "Tap" : "Choose";
  if (how === "cells") {
    if (!sel.cells.length) return `Where does ${sel.tile} go? ${pick} a highlighted square.`;
    if (spacerChoice(cand)) return `${pick} the spacer.`;
    return `${pick} the square for the other half, or a placement below.`;
  }
  if (how === "capture") {
    if (sel.capture === undefined && cand.some((m) => m.event.capture)) return `${pick} a highlighted layout tile to capture it with ${sel.tile}, or choose below.`;
    if (cand.length === 1) return touch ? `Tap ${sel.tile} again, or the button below, to play it.` : "Play it with the button below.";
    return `${pick} your claim below.`;
  }
  if (cand.length === 1 && !cand[0].event.on) return touch ? `Tap ${sel.tile} again to lead it.` : `Press ${sel.tile} again to lead it.`;
  if (cand.length === 1) return touch ? `Tap ${sel.tile} again, or the highlighted end, to play it.` : `Choose the highlighted end for ${sel.tile}.`;
  return `${pick} a highlighted end for ${sel.tile}.`;
}

function handTile(t, moves, ctx) {
  const { view, sel, suggested } = ctx;
  const opts = tileMoves(moves, t);
  const cls = [opts.length ? "playable" : "", sel && sel.tile === t ? "selected" : "", view.drawn && sameTile(view.drawn, t) ? "drawn" : "",
    suggested && sameTile(suggested, t) ? "suggested" : ""].join(" ").replace(/\s+/g, " ").trim();
  const node = tile(t, cls, 30, true); // (its name is the tile's, "five-six", from the picture inside)
  const holder = el("button", { type: "button", class: `hand-tile ${cls}`.trim(), "data-tile": t }, node);
  if (!opts.length) {
    holder.append(el("span", { class: "sr-only" }, ", cannot be played now"));
    holder.setAttribute("aria-disabled", "true");
    return holder;
  }
  holder.setAttribute("aria-pressed", String(Boolean(sel && sel.tile === t)));
  holder.addEventListener("click", (ev) => ctx.choose(t, opts, byTouch(ev)));
  // Or drag it onto a highlighted end / cell / capture: the targets appear as the drag starts.
  holder.setAttribute("draggable", "true");
  holder.addEventListener("dragstart", (ev) => {
    ev.dataTransfer.setData("text/plain", t);
    ev.dataTransfer.effectAllowed = "move";
    node.classList.add("selected");
    ctx.dragStart(t);
  });
  return holder;
}

// The hand, the choices for the chosen tile and the other moves. ctx: {view, moves, tiles, sel,
// cand, how, suggested, guided(event), watching, choose(t, opts, touch), dragStart(t), send,
// cancel, optionText(m)}.
export function renderMine(ctx) {
  const { moves, tiles, sel, cand, how } = ctx;
  const hand = document.getElementById("hand");
  const focused = document.activeElement && hand.contains(document.activeElement) ? document.activeElement.dataset.tile : null;
  hand.replaceChildren(...tiles.map((t) => handTile(t, moves, ctx)));
  hand.classList.toggle("turn", moves.length > 0); // (your turn: what you cannot play is dimmed)
  if (!tiles.length) hand.append(el("em", {}, ctx.watching ? "You are watching: hands stay hidden." : "No tiles."));
  if (focused) { const back = hand.querySelector(`[data-tile="${focused}"]`); if (back) back.focus(); }
  document.getElementById("hint").textContent = hint(ctx);
  const options = document.getElementById("options");
  options.replaceChildren();
  if (sel) {
    const show = how === "cells" ? (sel.cells.length ? cand : []) : cand;
    for (const m of show) {
      options.append(el("button", { class: "option", "data-event": JSON.stringify(m.event), onclick: () => ctx.send(m.event) }, ctx.optionText(m)));
    }
    options.append(el("button", { class: "cancel", onclick: ctx.cancel }, "cancel"));
  }
  const box = document.getElementById("moves");
  box.replaceChildren();
  for (const m of moves.filter((x) => !x.event.play)) {
    box.append(el("button", { class: `move big${ctx.guided(m.event) ? " suggested" : ""}`, "data-event": JSON.stringify(m.event), onclick: () => ctx.send(m.event) }, m.text));
  }
}
