"""Two versions of a bot on the same games: the paired difference of their results.

    .venv/bin/python bench/strength.py --games 600 --json > before.json   # on one build
    .venv/bin/python bench/strength.py --games 600 --json > after.json    # on the other
    .venv/bin/python bench/paired.py before.json after.json
    .venv/bin/python bench/paired.py b1.json a1.json b2.json a2.json      # two seeds, pooled

Each file is ``bench/strength.py --json`` output (its last line: one match, or with ``--hands``
the first hands). Both must be the same match (game, players, bots, seed, games), so that game
(hand) k has the same deal and the same bot seeds in both; the versions then differ only where
their decisions do. The paired difference (after less before) has a far narrower interval than
the two win rates' (most games are won or lost by both), and the games only one of them won
are counted. More pairs of files (the same two builds under other seeds) are pooled: each pair
must be one match, and their games are counted together.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

SAME = ("game", "players", "bot", "against", "seed")


def last_match(path: Path) -> dict[str, Any]:
    """The last JSON line of a ``bench/strength.py --json`` output."""
    lines = [line for line in path.read_text().splitlines() if line.strip()]
    if not lines:
        raise SystemExit(f"{path}: empty")
    doc: dict[str, Any] = json.loads(lines[-1])
    return doc


def results(doc: dict[str, Any]) -> list[float]:
    """Per game 1 or 0 (won or not), or per hand the chip differential (``--hands``)."""
    if "won" in doc:
        return [float(c) for c in doc["won"]]
    if "diffs" in doc:
        return [float(d) for d in doc["diffs"]]
    raise SystemExit("no per-game results: run bench/strength.py with --json")


def paired(before: list[float], after: list[float]) -> dict[str, Any]:
    """Mean of after − before, its 95% interval (normal), and the games only one side won."""
    diffs = [b - a for a, b in zip(before, after, strict=True)]
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5
    return {
        "n": len(diffs),
        "before": statistics.fmean(before),
        "after": statistics.fmean(after),
        "mean_diff": mean,
        "ci95": [mean - half, mean + half],
        "only_after": sum(1 for d in diffs if d > 0),
        "only_before": sum(1 for d in diffs if d < 0),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", type=Path, nargs="+", metavar="BEFORE.json AFTER.json")
    args = ap.parse_args(argv)
    if len(args.runs) % 2:
        raise SystemExit(
            "give the runs in pairs: BEFORE.json AFTER.json [BEFORE.json AFTER.json …]"
        )
    before: list[float] = []
    after: list[float] = []
    for i in range(0, len(args.runs), 2):
        a, b = last_match(args.runs[i]), last_match(args.runs[i + 1])
        differ = [k for k in SAME if a.get(k) != b.get(k)]
        if differ or len(results(a)) != len(results(b)):
            raise SystemExit(f"not the same match: {', '.join(differ) or 'games'} differ")
        before += results(a)
        after += results(b)
    out = paired(before, after)
    sys.stdout.write(json.dumps(out) + "\n")
    lo, hi = out["ci95"]
    print(
        f"{out['n']} paired: {out['before']:.3f} -> {out['after']:.3f}, "
        f"difference {out['mean_diff']:+.3f} ({lo:+.3f} … {hi:+.3f}); "
        f"only after {out['only_after']}, only before {out['only_before']}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
