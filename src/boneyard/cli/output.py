"""Consoles for the commands' output: wrapped to a terminal's width, never wrapped when piped.

Rich wraps at 80 columns when its output is not a terminal; lines that a program (``grep``,
``jq``, a spreadsheet) reads must stay whole, so piped output gets no width limit.
"""

from __future__ import annotations

import sys

from rich.console import Console

UNWRAPPED = 100_000
"""The width of piped output (wide enough for any line the commands print)."""


def console(stderr: bool = False) -> Console:
    """A console on standard output (or error) that wraps only on a terminal."""
    stream = sys.stderr if stderr else sys.stdout
    if stream.isatty():
        return Console(stderr=stderr, highlight=False)
    return Console(stderr=stderr, highlight=False, width=UNWRAPPED, soft_wrap=True)
