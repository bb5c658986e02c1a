"""WebSocket abuse at ten times CI's volume: 1,000,000 generated messages against live tables.

Runs tests/server/tables/test_ws_abuse.py::test_generated_messages_never_break_the_table with
``BONEYARD_ABUSE_MESSAGES`` (default here 1,000,000, about 10 minutes on a 2-core machine; CI
runs the test's own default, 100,000) and prints its figures: the messages sent, the legal moves
made between batches, the games and hands they spanned, the seconds (with the CPU seconds of
sending and checking, and of drawing in the child process) and the answers by type. Exit
status: pytest's (0 when no message broke a table).

    .venv/bin/python bench/abuse.py [--messages N]

With ``--attacks [NAME ...]`` it runs instead the attacks of issues 14 and 28 (bench/attacks.py,
bench/flood.py, bench/cheats.py) against a live server with the site's default settings, one
line of figures per attack; ``--flood IDLE SOCKETS`` sizes the connection flood (8,000 each).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEST = "tests/server/tables/test_ws_abuse.py::test_generated_messages_never_break_the_table"


def main() -> int:
    """Run the abuse test at the given volume; print its summary line and the wall time."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=1_000_000)
    parser.add_argument(
        "--attacks",
        nargs="*",
        metavar="NAME",
        help="instead: the attacks of issues 14 and 28 against a live server (bench/attacks.py, "
        "bench/flood.py, bench/cheats.py), all or the ones named",
    )
    parser.add_argument("--flood", nargs=2, type=int, metavar=("IDLE", "SOCKETS"))
    args = parser.parse_args()
    if args.attacks is not None:
        sys.path.insert(0, str(ROOT))
        from bench.attacks import run_all

        if args.flood:
            os.environ["BONEYARD_FLOOD"] = f"{args.flood[0]},{args.flood[1]}"
        run_all(args.attacks or None)
        return 0
    env = {**os.environ, "BONEYARD_ABUSE_MESSAGES": str(args.messages)}
    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", TEST],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.monotonic() - started
    lines = [line for line in proc.stdout.splitlines() if line.startswith("abuse:")]
    print(*(lines or [proc.stdout[-3000:], proc.stderr[-2000:]]), sep="\n")
    print(f"pytest exit {proc.returncode}, {wall:.1f} s wall")
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
