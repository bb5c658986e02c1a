// A Boneyard bot in JavaScript (Node): it plays a random legal action, from the seed it is given.
//
// Run it in an arena:  boneyard arena --bots "cmd:node examples/node_bot.js,greedy"
// It speaks the boneyard-bot/1 protocol of docs/bots.md: one JSON message per line on standard
// input; to each "act" it answers one line on standard output. Debug output goes to stderr.
"use strict";
const readline = require("node:readline");

let state = 1;
function random() { // a small seeded generator (mulberry32), so the same seed plays the same game
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "start") {
    state = message.seed | 0;
    console.error(`playing ${message.game} at seat ${message.seat + 1}`);
  } else if (message.type === "act") {
    const actions = message.legal_actions;
    const choice = actions[Math.floor(random() * actions.length)];
    process.stdout.write(JSON.stringify({ action: choice }) + "\n");
  }
});
