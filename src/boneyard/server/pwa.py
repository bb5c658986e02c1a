"""The site as an installable web app: its manifest, its service worker, and the 404 page.

* ``GET /manifest.webmanifest``: name, icons (``web/icon-*.png``, rendered from
  ``web/icon.svg`` by ``scripts/make_icons.py``), colours, ``display: standalone``.
* ``GET /sw.js``: the service worker (``web/sw.js``) with this release's version and the files
  it fetches as it installs (:func:`shell`): the home page and what it loads, and the offline
  page; the site's other static files are kept as they are first used. Its version is a digest
  of every static file, so a release that changes any of them is a new worker, which replaces
  the old cache. It is served ``no-cache`` (the browser asks for it again at every visit) and
  never keeps ``/api/``, the sockets, or a page with personal data.
* Any other path that does not exist is answered with the HTML 404 page (``web/404.html``, a
  way back to the lobby); ``/api/`` paths keep their JSON answer (:func:`not_found`).
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

from fastapi import APIRouter, Request, Response
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import FileResponse
from starlette.exceptions import HTTPException

from boneyard import __version__
from boneyard.server.webfiles import REVALIDATE, WEB, Page, Release, release_of
from boneyard.server.webfiles import release as webfiles_release

router = APIRouter(include_in_schema=False)

PAGES = ("/", "/static/offline.html")
"""The pages it keeps: the home page (static HTML: the person's data comes from ``/api/``) and
the page it shows offline for any other."""
SHELL_FILES = (
    "theme.js",
    "nav.js",
    "dropdown.js",
    "style.css",
    "home.css",
    "lobby.js",
    "api.js",
    "bell.js",
    "tableoptions.js",
    "who.js",
    "pairing.js",
    "pwa.js",
    "offline.js",
    "favicon.svg",
    "apple-touch-icon.png",
    "icon-192.png",
    "icon-512.png",
    "icon-maskable-512.png",
)
"""What those two pages load (tests/server/site/test_pwa.py follows the home page's imports):
fetched as the worker installs. Fetching only these keeps the install light beside a first
visit; the rest are kept as they are first used."""
VERSION_MARK = 'const VERSION = "dev";'
SHELL_MARK = "const SHELL = [];"


def release(web: Path, files: Release | None = None) -> tuple[str, tuple[str, ...]]:
    """The version of the site in ``web`` (a digest of the home and offline pages and of every
    static file's version, ``files``: read from ``web`` when not given) and the URLs the worker
    fetches as it installs."""
    versions = (files or release_of(web)).versions
    digest = hashlib.sha256(__version__.encode())
    for name in ("index.html", "offline.html"):
        digest.update(name.encode() + b"\0" + (web / name).read_bytes())
    for name, version in versions.items():
        if name != "sw.js":  # (the worker itself: its source is the new worker)
            digest.update(f"\0{name}\0{version}".encode())
    urls = (*PAGES, *(f"/static/{name}" for name in SHELL_FILES))
    return digest.hexdigest()[:16], urls


@functools.cache
def shell() -> tuple[str, tuple[str, ...]]:
    """This release's version and kept URLs (the files do not change while the server runs)."""
    return release(WEB, webfiles_release())


@functools.cache
def worker_source() -> str:
    """``web/sw.js`` with this release's version and file list."""
    version, urls = shell()
    source = (WEB / "sw.js").read_text(encoding="utf-8")
    assert VERSION_MARK in source and SHELL_MARK in source
    source = source.replace(VERSION_MARK, f"const VERSION = {json.dumps(version)};")
    return source.replace(SHELL_MARK, f"const SHELL = {json.dumps(list(urls))};")


@router.get("/sw.js")
async def service_worker() -> Response:
    """The service worker, scoped to the whole site; never kept stale (``no-cache``)."""
    return Response(worker_source(), media_type="text/javascript", headers=REVALIDATE)


@router.get("/manifest.webmanifest")
async def manifest() -> FileResponse:
    """The web app manifest (``application/manifest+json``)."""
    path = WEB / "manifest.webmanifest"
    return FileResponse(path, media_type="application/manifest+json", headers=REVALIDATE)


async def not_found(request: Request, exc: Exception) -> Response:
    """A 404 outside ``/api/`` is the HTML page with a way back; everything else (and every
    ``/api/`` path) keeps FastAPI's JSON answer ``{"detail": …}``."""
    assert isinstance(exc, HTTPException)
    page = request.method in ("GET", "HEAD") and not request.url.path.startswith("/api/")
    if exc.status_code == 404 and page:
        html = (WEB / "404.html").read_text(encoding="utf-8")
        return Page(html, status_code=404, headers={"Cache-Control": "no-store"})
    return await http_exception_handler(request, exc)
