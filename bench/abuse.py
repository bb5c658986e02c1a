"""WebSocket abuse at full volume: 100,000 generated messages against one live table.

Runs tests/server/test_ws_abuse.py::test_generated_messages_never_break_the_table with
``BONEYARD_ABUSE_MESSAGES`` (default here 100,000; CI runs 10,000) and prints its figures: the
messages sent, the legal moves made between batches, the seconds and the answers by type. Exit
status: pytest's (0 when no message broke the table).

    .venv/bin/python bench/abuse.py [--messages N]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEST = "tests/server/test_ws_abuse.py::test_generated_messages_never_break_the_table"


def main() -> int:
    """Run the abuse test at the given volume; print its summary line and the wall time."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=100_000)
    args = parser.parse_args()
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
