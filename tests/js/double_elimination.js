// The reference double-elimination brackets: brackets-manager's defaults (seeding, byes and the
// order in which the winners' losers drop into the losers' bracket), played out in memory.
//
// Reads a JSON list of cases from stdin, each {"entrants": n, "reset": bool, "rule":
// "favourite" | "underdog" | "mix", "final": "rule" | "losers"}, and prints a JSON list: for each
// case, every round (winners', losers', then the grand final and its reset) as a list of its
// matches in order, each [a, b] with the seeds who met (null for a bye or a match not played).
// tests/tournament/test_double_reference.py plays the same results on boneyard's bracket.
"use strict";

const { BracketsManager } = require("brackets-manager");
const { InMemoryDatabase } = require("brackets-memory-db");

const READY = 2;

/** The winning seed of a match between seeds x and y (the test mirrors this rule). */
function winner(rule, x, y) {
  const lo = Math.min(x, y);
  const hi = Math.max(x, y);
  if (rule === "favourite") return lo;
  if (rule === "underdog") return hi;
  return (lo * 7 + hi * 13) % 5 < 3 ? lo : hi;
}

async function play(c) {
  const storage = new InMemoryDatabase();
  const manager = new BracketsManager(storage);
  const size = 1 << Math.ceil(Math.log2(c.entrants));
  const seeding = Array.from({ length: size }, (_, i) => (i < c.entrants ? `${i + 1}` : null));
  await manager.create.stage({
    tournamentId: 0,
    name: "reference",
    type: "double_elimination",
    seeding,
    settings: { grandFinal: c.reset ? "double" : "simple" },
  });
  const seedOf = new Map((await storage.select("participant")).map((p) => [p.id, Number(p.name)]));
  const groups = new Map((await storage.select("group")).map((g) => [g.id, g.number]));
  const rounds = new Map((await storage.select("round")).map((r) => [r.id, r.number]));
  const played = new Set(); // the matches given a result (not byes, not a reset left unplayed)
  for (;;) {
    const ready = (await storage.select("match")).filter(
      (m) => m.status === READY && m.opponent1?.id != null && m.opponent2?.id != null,
    );
    if (ready.length === 0) break;
    const m = ready[0];
    const a = seedOf.get(m.opponent1.id);
    const b = seedOf.get(m.opponent2.id);
    // In the first grand final "losers" makes the losers' champion (side b) win.
    const final = groups.get(m.group_id) === 3;
    const firstFinal = final && rounds.get(m.round_id) === 1;
    const wins = c.final === "losers" && firstFinal ? b : winner(c.rule, a, b);
    const side = wins === a ? "opponent1" : "opponent2";
    await manager.update.match({ id: m.id, [side]: { result: "win" } });
    played.add(m.id);
    // The grand final decides unless the losers' champion won it and there is a reset
    // (brackets-manager leaves the reset match ready: it is not played).
    if (final && !(c.reset && firstFinal && side === "opponent2")) break;
  }
  const order = (await storage.select("round")).sort(
    (x, y) => groups.get(x.group_id) - groups.get(y.group_id) || x.number - y.number,
  );
  const matches = await storage.select("match");
  return order.map((r) =>
    matches
      .filter((m) => m.round_id === r.id)
      .sort((x, y) => x.number - y.number)
      .map((m) =>
        played.has(m.id) ? [seedOf.get(m.opponent1.id), seedOf.get(m.opponent2.id)] : null,
      ),
  );
}

async function main() {
  let input = "";
  for await (const chunk of process.stdin) input += chunk;
  const out = [];
  for (const c of JSON.parse(input)) out.push(await play(c));
  process.stdout.write(JSON.stringify(out));
}

main().catch((err) => {
  process.stderr.write(`${err.stack || err}\n`);
  process.exit(1);
});
