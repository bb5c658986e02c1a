"""Bot plugins: found by entry point (group ``boneyard.bots``) or ``module:attribute`` by the
command line, and by the site's bot seats only where the operator allows plugins."""

from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from boneyard.bots.plugins import plugin_entry_points
from tests.server.conftest import ROOMY, make_app, post, register

PLUGIN = '''
"""A plugin bot: the heaviest legal play."""


class HeaviestBot:
    name = "heaviest"

    def __init__(self, rng):
        self.rng = rng

    def choose(self, observation):
        return max(observation.legal_actions, key=observation.action_weight)


def broken(rng):
    return object()
'''


def install_plugin(folder: Path) -> Path:
    """A distribution with a ``boneyard.bots`` entry point, as pip would install it."""
    (folder / "heavybots.py").write_text(PLUGIN)
    info = folder / "heavybots-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: heavybots\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[boneyard.bots]\nheaviest = heavybots:HeaviestBot\n")
    return folder


def boneyard(
    *args: str, path: Path | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = str(path)
    return subprocess.run(
        [sys.executable, "-m", "boneyard", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=cwd,
    )


def test_a_plugin_found_by_entry_point_plays_in_the_arena(tmp_path: Path) -> None:
    site = install_plugin(tmp_path)
    r = boneyard("arena", "--bots", "heaviest,random", "--games", "4", "--json", path=site)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    figures = {b["bot"]: b for b in doc["bots"]}
    assert figures["heaviest"]["games"] == 4 and figures["heaviest"]["decisions"] > 0
    assert doc["failures"] == []
    r = boneyard(
        "tournament", "simulate", "--entrants", "4", "--bots", "heaviest,greedy", path=site
    )
    assert r.returncode == 0, r.stderr
    assert "heaviest-1" in r.stdout and "Champion:" in r.stdout
    unknown = boneyard("arena", "--bots", "heaviest,random", "--games", "2")
    assert unknown.returncode == 2 and "bot 'heaviest' is unknown" in unknown.stderr


def test_module_attribute_plugins_from_the_current_folder(tmp_path: Path) -> None:
    (tmp_path / "heavybots.py").write_text(PLUGIN)
    r = boneyard(
        "arena", "--bots", "heavybots:HeaviestBot,greedy", "--games", "2", "--json", cwd=tmp_path
    )
    assert r.returncode == 0, r.stderr
    assert {b["bot"] for b in json.loads(r.stdout)["bots"]} == {"heavybots:HeaviestBot", "greedy"}
    r = boneyard("selfplay", "--bots", "heavybots:HeaviestBot,greedy", "--seed", "3", cwd=tmp_path)
    assert r.returncode == 0 and json.loads(r.stdout)["meta"]["bots"][0] == "heavybots:HeaviestBot"
    for name, says in [
        ("heavybots:Missing", "has no attribute 'Missing'"),
        ("nowhere:Bot", "there is no module 'nowhere' here"),
        ("heavybots:broken", "made 'object', which has no choose(observation)"),
    ]:
        r = boneyard("arena", "--bots", f"{name},greedy", "--games", "2", cwd=tmp_path)
        assert r.returncode == 2 and says in " ".join(r.stderr.split()), r.stderr


@pytest.fixture
def plugin_installed(tmp_path: Path) -> Iterator[None]:
    site = str(install_plugin(tmp_path))
    sys.path.insert(0, site)
    importlib.invalidate_caches()
    plugin_entry_points.cache_clear()
    yield
    sys.path.remove(site)
    sys.modules.pop("heavybots", None)
    plugin_entry_points.cache_clear()


def test_the_site_seats_plugins_only_where_the_operator_allows(
    plugin_installed: None, tmp_path: Path
) -> None:
    seats = [{"kind": "me"}, {"kind": "bot", "bot": "heaviest"}]
    for allowed in (False, True):
        settings = replace(ROOMY, plugin_bots=allowed)
        with TestClient(make_app(str(tmp_path / f"{allowed}.db"), settings=settings)) as client:
            register(client, "ann")
            assert ("heaviest" in client.get("/api/games").json()["bots"]) is allowed
            r = post(client, "/api/tables", {"seats": seats})
            if not allowed:
                assert r.status_code == 400, r.text
                assert "bot 'heaviest' is unknown" in r.json()["detail"]
                continue
            assert r.status_code == 200, r.text
            live = client.app.state.tables.live[r.json()["id"]]  # type: ignore[attr-defined]
            assert type(live.bots[1]).__name__ == "HeaviestBot"
            for name in ("cmd:python x.py", "heavybots:broken"):
                r = post(
                    client, "/api/tables", {"seats": [{"kind": "me"}, {"kind": "bot", "bot": name}]}
                )
                assert r.status_code == 400, name
