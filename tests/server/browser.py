"""Shared pieces of the browser tests: Debian's Chromium, a real server process, free ports.

Every ``test_browser*.py`` uses these (own fixtures: no pytest-playwright beside async tests).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

needs_chromium = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason=f"{CHROMIUM} is missing (apt-get install chromium)"
)


def free_port() -> int:
    """A TCP port free on 127.0.0.1 just now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def launch(p: Any) -> Any:
    """Debian's Chromium, headless, through Playwright's ``p``."""
    return p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)


@contextmanager
def running(argv: Callable[[int], list[str]], log_path: Path, wait: float = 60) -> Iterator[str]:
    """Start the server process ``argv(port)``, wait (up to ``wait`` s: a busy machine starts
    slowly) until ``/api/games`` answers, yield its base URL, stop it afterwards. Its output goes
    to ``log_path``, shown if it dies before answering."""
    port = free_port()
    with log_path.open("w") as log:
        proc = subprocess.Popen(argv(port), stdout=log, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            end = time.monotonic() + wait
            while True:
                try:
                    urllib.request.urlopen(url + "/api/games", timeout=1).read()
                    break
                except OSError:
                    if proc.poll() is not None or time.monotonic() > end:
                        raise RuntimeError(log_path.read_text()) from None
                    time.sleep(0.05)
            yield url
        finally:
            proc.terminate()
            proc.wait(10)


def serve(db: Path, log_path: Path, bot_delay: str = "0.05") -> Any:
    """``boneyard serve`` on the SQLite file ``db`` (see :func:`running`)."""
    return running(
        lambda port: [
            sys.executable,
            "-m",
            "boneyard",
            "serve",
            "--port",
            str(port),
            "--db",
            str(db),
            "--bot-delay",
            bot_delay,
        ],
        log_path,
    )
