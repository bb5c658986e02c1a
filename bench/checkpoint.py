"""What an SQLite checkpoint costs the commit that runs it (why the log writer checkpoints in a
worker thread, boneyard.store.writer).

Commits single log rows (as the server's group commit does at low load) to a WAL database with
``synchronous=NORMAL``, as ``boneyard serve`` sets it, once with SQLite's automatic checkpoint (the
commit that takes the log past 1,000 pages copies it into the database file and fsyncs) and once
with ``wal_autocheckpoint=0`` (the server's writer connection), and prints the commit times: the
slow commits of the first are the stalls an event loop would take.

    python bench/checkpoint.py [--commits 20000] [--repeat 2] [--dir /tmp]
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import tempfile
import time
from pathlib import Path

PAYLOAD = json.dumps({"play": "6-5", "on": "5-5", "port": 2})


def run(directory: str, commits: int, auto: bool) -> dict[str, float | int | str]:
    """Time ``commits`` one-row commits; returns the percentiles in ms and the slow ones."""
    path = Path(tempfile.mkdtemp(dir=directory)) / "log.db"
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    if not auto:
        db.execute("PRAGMA wal_autocheckpoint=0")
    db.execute(
        "CREATE TABLE table_log (table_id TEXT, seq INTEGER, kind TEXT, seat INTEGER,"
        " payload TEXT, created_at TEXT, PRIMARY KEY (table_id, seq))"
    )
    times = []
    for i in range(commits):
        started = time.perf_counter()
        db.execute("BEGIN")
        db.execute(
            "INSERT INTO table_log VALUES (?, ?, ?, ?, ?, ?)",
            (f"{i % 1000:032x}", i, "action", 0, PAYLOAD, "2026-11-24T02:00:00+00:00"),
        )
        db.execute("COMMIT")
        times.append(time.perf_counter() - started)
    db.close()
    for p in path.parent.iterdir():
        p.unlink()
    path.parent.rmdir()
    times.sort()
    return {
        "checkpoint": "automatic" if auto else "off (the writer's connection)",
        "p50_ms": round(1000 * times[len(times) // 2], 3),
        "p99_9_ms": round(1000 * times[int(0.999 * len(times))], 2),
        "max_ms": round(1000 * times[-1], 2),
        "over_5_ms": sum(t > 0.005 for t in times),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--commits", type=int, default=20_000)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--dir", default=tempfile.gettempdir(), help="where the database is written")
    args = ap.parse_args()
    for _ in range(args.repeat):
        for auto in (True, False):
            print(json.dumps(run(args.dir, args.commits, auto)))


if __name__ == "__main__":
    main()
