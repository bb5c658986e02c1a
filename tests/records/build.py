"""Build golden records, one way for every game: ``python -m tests.records.build GAME [NAME...]``.

Golden records live in ``tests/records/<game>/``: ``NAME.json`` (a ``boneyard-record/1``
document, written by :func:`dump_record`) and ``NAME.jsonl`` (its replay output, one JSON line
per line, RECORDS.md §5). Each game's ``tests/records/<game>/build.py`` makes its records (written
by hand, or found by seeded play and frozen) with a ``build(write, only)`` function that calls
``write(name, record)`` for each; this module writes both files the same way for every game.
``NAME`` arguments build only those records. The tests replay every record and compare with its
``.jsonl``, and check the vectors' figures on their own, so these files are not the only witness.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from boneyard.core.records import dump_record, record_from_json
from boneyard.games.registry import MODULES, get_spec

HERE = Path(__file__).resolve().parent

Write = Callable[[str, dict[str, Any]], None]


def lines_text(record: dict[str, Any]) -> str:
    """The ``.jsonl`` text of a record: its replay output, one compact JSON object a line."""
    rec = record_from_json(record)
    return "".join(json.dumps(line) + "\n" for line in get_spec(rec.game).replay(rec))


def writer(game: str) -> Write:
    """``write(name, record)`` for one game's directory."""
    folder = HERE / game

    def write(name: str, record: dict[str, Any]) -> None:
        text = lines_text(record)
        (folder / f"{name}.json").write_text(dump_record(record), encoding="utf-8")
        (folder / f"{name}.jsonl").write_text(text, encoding="utf-8")
        print(name, text.splitlines()[-1] if text else "(no lines)")

    return write


def main(argv: list[str]) -> None:
    """Build the records of the game named first (all of them, or the names that follow)."""
    if not argv or argv[0] not in MODULES:
        raise SystemExit(f"usage: python -m tests.records.build {{{','.join(MODULES)}}} [NAME...]")
    game, only = argv[0], set(argv[1:])
    spec = importlib.util.spec_from_file_location(f"golden_{game}", HERE / game / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    write = writer(game)

    def chosen(name: str, record: dict[str, Any]) -> None:
        if not only or name in only:
            write(name, record)

    module.build(chosen, only)


if __name__ == "__main__":
    main(sys.argv[1:])
