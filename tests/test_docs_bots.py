"""docs/bots.md as a new bot author follows it: every file it shows is written to a folder, then
every command and script it shows is run there, as written."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "bots.md"
FENCE = re.compile(r"^```([a-z]*)(?: (file=\S+|run))?\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def blocks() -> list[tuple[str, str, str]]:
    """Each fenced block: language, ``file=NAME`` / ``run`` / "", text."""
    return [(m.group(1), m.group(2) or "", m.group(3)) for m in FENCE.finditer(DOC.read_text())]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    here = tmp_path_factory.mktemp("bot-author")
    (here / "examples").symlink_to(ROOT / "examples")
    for lang, how, text in blocks():
        if lang == "python" and how.startswith("file="):
            (here / how.removeprefix("file=")).write_text(text)
    return here


def commands() -> list[str]:
    return [
        line.strip()
        for lang, _how, text in blocks()
        if lang == "sh"
        for line in text.splitlines()
        if line.strip().startswith("boneyard ")
    ]


def scripts() -> list[str]:
    return [text for lang, how, text in blocks() if lang == "python" and how == "run"]


def test_the_guide_shows_files_commands_and_scripts() -> None:
    assert len(commands()) >= 5 and len(scripts()) >= 4
    assert any(how.startswith("file=") for _l, how, _t in blocks())


@pytest.mark.parametrize("command", commands())
def test_every_command_runs(command: str, folder: Path) -> None:
    argv = shlex.split(command)
    r = subprocess.run(
        [sys.executable, "-m", "boneyard", *argv[1:]],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    assert "forfeit" not in r.stderr, r.stderr[-3000:]


@pytest.mark.parametrize("script", scripts(), ids=lambda s: s.splitlines()[0][:40])
def test_every_script_runs(script: str, folder: Path) -> None:
    if "pyspiel" in script:
        pytest.importorskip("pyspiel")
    if "boneyard.rl" in script:
        pytest.importorskip("pettingzoo")
    r = subprocess.run(
        [sys.executable, "-c", script], cwd=folder, capture_output=True, text=True, timeout=600
    )
    assert r.returncode == 0, r.stderr[-3000:]
