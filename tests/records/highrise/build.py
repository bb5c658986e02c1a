"""The Highrise golden records: ``python -m tests.records.build highrise [NAME...]``
(tests/records/build.py writes NAME.json and its replay output NAME.jsonl).

These records are frozen as they are: the T-HR vectors were written by hand on the basement of
T-HR-14 (RECORDS.md §4) and the self-play games were played once (their ``meta`` names the seed
and the bots) before ``early_block`` defaulted to true. Rebuilding one writes it back unchanged and
writes its replay output again; the tests check the vectors' figures on their own.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def build(write: Any, only: set[str]) -> None:
    """Every record, as committed (``only`` is applied by the writer)."""
    for path in sorted(HERE.glob("*.json")):
        write(path.stem, json.loads(path.read_text(encoding="utf-8")))
