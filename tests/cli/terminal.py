"""A program run in a pseudo-terminal of a given size, as a person at a terminal runs it."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")


class Terminal:
    """``boneyard ARGS`` in a ``cols`` × ``rows`` pseudo-terminal; :meth:`expect` reads its
    screen output (colours stripped) until a text appears."""

    def __init__(self, *args: str, cols: int = 80, rows: int = 50, cwd: Path | None = None) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
        env["TERM"] = "xterm-256color"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "boneyard", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=cwd,
            env=env,
            close_fds=True,
        )
        os.close(slave)
        self.master = master
        self.text = ""
        self.seen = 0

    def expect(self, *texts: str, timeout: float = 120) -> str:
        """Read until one of ``texts`` appears after what was already matched; returns it."""
        deadline = time.monotonic() + timeout
        while True:
            for t in texts:
                k = self.text.find(t, self.seen)
                if k >= 0:
                    self.seen = k + len(t)
                    return t
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"none of {texts} within {timeout} s:\n{self.text[-3000:]}")
            ready, _, _ = select.select([self.master], [], [], left)
            if not ready:
                continue
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # the program ended (EIO on Linux)
                chunk = b""
            if not chunk:
                raise AssertionError(f"the program ended without {texts}:\n{self.text[-3000:]}")
            self.text += ANSI.sub("", chunk.decode("utf-8", "replace"))

    def send(self, line: str) -> None:
        """Type a line."""
        os.write(self.master, (line + "\n").encode())

    def close(self) -> int:
        """Wait for the program's end; its exit status."""
        try:
            while True:
                ready, _, _ = select.select([self.master], [], [], 5)
                if not ready or not os.read(self.master, 65536):
                    break
        except OSError:
            pass
        code = self.proc.wait(timeout=30)
        os.close(self.master)
        return code
