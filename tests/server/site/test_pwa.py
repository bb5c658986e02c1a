"""The installable app as the server gives it (boneyard.server.pwa): the manifest and its real
PNG icons, the service worker with this release's version and files (never ``/api/``), a new
version when a kept file changes, and the HTML 404 page outside ``/api/`` (JSON inside)."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import struct
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from boneyard.server import pwa, webfiles
from boneyard.server.webfiles import WEB


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_names_the_app_and_its_icons(client: TestClient) -> None:
    r = client.get("/manifest.webmanifest")
    assert r.status_code == 200 and r.headers["content-type"] == "application/manifest+json"
    m = r.json()
    assert (m["name"], m["short_name"]) == ("Boneyard — dominoes", "Boneyard")
    assert (m["display"], m["start_url"], m["scope"]) == ("standalone", "/", "/")
    assert m["theme_color"] and m["background_color"]
    sizes = {}
    for icon in m["icons"]:
        got = client.get(icon["src"])
        assert got.status_code == 200 and got.headers["content-type"] == "image/png"
        w, h = png_size(got.content)
        assert f"{w}x{h}" == icon["sizes"]
        sizes[icon["purpose"], w] = True
    assert {("any", 192), ("any", 512), ("maskable", 512)} <= set(sizes)
    home = client.get("/").text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in home


def test_the_service_worker_keeps_this_releases_shell_and_never_the_api(
    client: TestClient,
) -> None:
    r = client.get("/sw.js")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
    assert r.headers["cache-control"] == "no-cache"
    version, urls = pwa.shell()
    assert f'const VERSION = "{version}";' in r.text and 'VERSION = "dev"' not in r.text
    assert {"/", "/static/offline.html", "/static/lobby.js", "/static/style.css"} <= set(urls)
    assert "/static/icon-192.png" in urls and "/static/sw.js" not in urls
    assert not [u for u in urls if u.startswith(("/api/", "/ws/", "/table/", "/profile/"))]
    for url in urls:  # every file it keeps is there
        assert client.get(url).status_code == 200, url


def test_the_shell_is_everything_the_home_and_offline_pages_load() -> None:
    """The files fetched as the worker installs are what the two kept pages load: their style
    sheets, scripts (and every module those import), icons and the manifest's icons."""
    wanted: set[str] = set()
    todo = []
    for page in ("index.html", "offline.html"):
        html = (WEB / page).read_text(encoding="utf-8")
        for ref in re.findall(r'(?:href|src)="/static/([^"]+)"', html):
            wanted.add(ref)
            todo.append(ref)
    while todo:
        name = todo.pop()
        if name.endswith(".js"):
            for dep in re.findall(r'from "/static/([^"]+)"', (WEB / name).read_text()):
                if dep not in wanted:
                    wanted.add(dep)
                    todo.append(dep)
    manifest = json.loads((WEB / "manifest.webmanifest").read_text(encoding="utf-8"))
    wanted |= {icon["src"].removeprefix("/static/") for icon in manifest["icons"]}
    assert wanted == set(pwa.SHELL_FILES)


def test_a_changed_file_is_a_new_release(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    web = tmp_path / "web"
    shutil.copytree(WEB, web)
    monkeypatch.setattr(pwa, "WEB", web)
    first = pwa.release(web)
    assert pwa.release(web) == first  # (the same files: the same version)
    (web / "table.js").write_text((web / "table.js").read_text() + "\n// changed\n")
    assert pwa.release(web)[0] != first[0]  # (a file kept as it is used, too)


def test_a_missing_page_is_an_html_page_with_a_way_back(client: TestClient) -> None:
    for path in ("/nonexistent", "/rules-of-chess/x", "/static/nothing.js"):
        r = client.get(path)
        assert r.status_code == 404 and r.headers["content-type"].startswith("text/html"), path
        assert "Page not found" in r.text and 'href="/" class="button" id="back-home"' in r.text
    r = client.get("/api/nonexistent")
    assert r.status_code == 404 and r.json() == {"detail": "Not Found"}
    r = client.get("/api/tables/nosuchtable")
    assert r.status_code == 404 and r.json() == {"detail": "no such table"}
    r = client.post("/nonexistent", headers={"X-CSRF-Token": client.cookies["boneyard_csrf"]})
    assert r.status_code == 404 and r.json() == {"detail": "Not Found"}  # (not a page)


def test_pages_and_unversioned_files_are_checked_on_use(client: TestClient) -> None:
    """No page, and no file of the client asked for without its version, is kept by a browser
    without asking (``no-cache``): kept heuristically, last release's script would run with this
    release's page after an upgrade. A page or file unchanged since the browser's copy costs a
    304 and no body."""
    for path in (
        "/",
        "/table/abc",
        "/leaderboard",
        "/tournaments",
        "/profile/ann",
        "/replay",
        "/rules",
        "/static/table.js",
        "/static/style.css",
        "/static/table.js?v=000000000000",  # (another release's)
        "/manifest.webmanifest",
        "/sw.js",
    ):
        r = client.get(path)
        assert r.status_code == 200 and r.headers.get("cache-control") == "no-cache", path
    for path in ("/static/table.js", "/", "/rules/highrise"):
        first = client.get(path)
        again = client.get(path, headers={"If-None-Match": first.headers["etag"]})
        assert again.status_code == 304 and again.content == b"", path
        assert again.headers.get("cache-control") == "no-cache"


def test_a_page_names_its_files_by_version_and_those_are_kept_for_good(
    client: TestClient,
) -> None:
    """Every static file a page names, and every module its scripts import (through the page's
    import map, which names just those), carries the start of the digest of its bytes; asked
    for by that name it is kept for a year without asking (``immutable``)."""
    digest = {p.name: hashlib.sha256(p.read_bytes()).hexdigest()[:12] for p in WEB.glob("*.*")}
    for path in ("/", "/table/abc", "/tournaments", "/rules/highfive", "/nonexistent"):
        html = client.get(path).text
        named = re.findall(r'(?:src|href)="(/static/[^"]+)"', html)
        assert named and all(u.endswith(f"?v={digest[u[8:].split('?')[0]]}") for u in named), path
        found = re.search(r'<script type="importmap">(.*?)</script>', html)
        assert found is not None and html.index(found[0]) < html.index('type="module"')
        imports = json.loads(found[1])["imports"]
        loaded = set(re.findall(r'<script type="module" src="/static/([\w.-]+)\?', html))
        assert loaded and {k[8:] for k in imports} == loaded.union(*map(imported, loaded))
        assert all(v == f"{k}?v={digest[k[8:]]}" for k, v in imports.items())
    for name in ("table.js", "style.css", "favicon.svg", "icon-192.png"):
        r = client.get(f"/static/{name}?v={digest[name]}")
        assert r.status_code == 200 and r.content == (WEB / name).read_bytes()
        assert r.headers["cache-control"] == "public, max-age=31536000, immutable"


def imported(name: str) -> set[str]:
    """The modules ``web/name`` imports, directly or not (followed in the files themselves)."""
    found: set[str] = set()
    todo = [name]
    while todo:
        text = (WEB / todo.pop()).read_text(encoding="utf-8")
        for module in re.findall(r'from "/static/([\w.-]+)"', text):
            if module not in found:
                found.add(module)
                todo.append(module)
    return found


def test_a_page_asks_for_every_module_it_will_import_at_once(client: TestClient) -> None:
    """A page links every module its scripts import, directly or not (``modulepreload``), after
    its import map: the browser asks for them all at once instead of one import deep at a time."""
    for path, entries in (("/table/abc", {"table.js"}), ("/", {"nav.js", "lobby.js"})):
        html = client.get(path).text
        links = re.findall(r'<link rel="modulepreload" href="/static/([\w.-]+)\?v=', html)
        expected = set().union(*(imported(e) for e in entries)) - entries
        assert len(links) == len(set(links)) and set(links) == expected, path
        assert html.index("importmap") < html.index("modulepreload"), path
    assert len(imported("table.js")) > 15


def test_a_file_edited_while_the_server_runs_is_never_kept_for_good() -> None:
    """The versions are read as the server starts; a file changed since (a developer's edit)
    is served by its old name but checked on use, never kept under a name it no longer has."""
    path = WEB / "api.js"
    version = webfiles.release().versions["api.js"]
    scope: dict[str, Any] = {"query_string": f"v={version}".encode()}
    stat = path.stat()
    assert webfiles.is_current(path, stat, scope)
    edited = (WEB / "table.js").stat()  # (another size and time)
    assert not webfiles.is_current(path, edited, scope)
    assert not webfiles.is_current(path, stat, {"query_string": b"v=0"})
    assert not webfiles.is_current(WEB / "rules" / "api.js", stat, scope)  # (not a web/ file)
