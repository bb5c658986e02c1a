"""Where the site's pages and static files are (``boneyard/web``), and how they are served: one
place, so a module that serves a page does not work the path out from its own depth in the
package.

A page names each static file it loads with this release's version of it
(``/static/table.js?v=…``, the start of the digest of its bytes), and carries an import map that
gives every module the same versioned names for the modules it imports (``/static/api.js`` in an
``import`` is resolved to ``/static/api.js?v=…``). A versioned file is kept by the browser for a
year without asking (``immutable``): a page opened again loads its scripts, styles and icons from
the browser's cache with no request, where each would otherwise cost a round trip and a 304 —
thirty of them for a table, over a hall's one Wi-Fi. A new release changes the names of the files
it changes, so no browser runs last release's script with this release's page. A file asked for
without its version, or with another release's, is served as before: checked with the server on
use (``no-cache``).
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from starlette.datastructures import QueryParams
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

from boneyard.server.middleware.headers import CSP

WEB = Path(__file__).resolve().parent.parent / "web"

REVALIDATE = {"Cache-Control": "no-cache"}
"""A page, and a static file asked for without this release's version, is checked with the
server on use (a 304 by its ETag when it is unchanged). Without it a browser keeps a file with a
Last-Modified date but no Cache-Control for a tenth of its age (heuristic freshness), and after
an upgrade would run last release's script with this release's page."""

KEEP = {"Cache-Control": "public, max-age=31536000, immutable"}
"""A static file asked for by this release's version of it: its bytes can never change."""

VERSIONED = (".js", ".css", ".svg", ".png")
"""The static files a page names by version."""

STATIC_REF = re.compile(r'(src|href)="/static/([\w.-]+)"')
MODULE = re.compile(r'<script type="module" src="/static/([\w.-]+\.js)"')
IMPORT = re.compile(r'\bfrom\s+"/static/([\w.-]+\.js)"')


@dataclass(frozen=True, slots=True)
class Release:
    """This release's static files: each one's version (the start of the digest of its bytes),
    its size and time as the server found them, and the modules each module imports."""

    versions: Mapping[str, str]
    found: Mapping[str, tuple[int, int]]
    imports: Mapping[str, tuple[str, ...]]

    def url(self, name: str) -> str:
        """``/static/name`` with this release's version of it."""
        return f"/static/{name}?v={self.versions[name]}"

    def reached(self, entries: list[str]) -> list[str]:
        """The modules that the modules ``entries`` import, directly or not, in the order
        they are first met."""
        seen = dict.fromkeys(entries)
        todo = list(entries)
        while todo:
            for name in self.imports.get(todo.pop(0), ()):
                if name not in seen:
                    seen[name] = None
                    todo.append(name)
        return [name for name in seen if name not in entries]


def release_of(web: Path) -> Release:
    """The release of the static files in ``web``."""
    versions: dict[str, str] = {}
    found: dict[str, tuple[int, int]] = {}
    imports: dict[str, tuple[str, ...]] = {}
    for path in sorted(p for p in web.iterdir() if p.suffix in VERSIONED and p.is_file()):
        stat, data = path.stat(), path.read_bytes()
        versions[path.name] = hashlib.sha256(data).hexdigest()[:12]
        found[path.name] = (stat.st_mtime_ns, stat.st_size)
        if path.suffix == ".js":
            imports[path.name] = tuple(IMPORT.findall(data.decode("utf-8")))
    return Release(versions, found, imports)


@functools.cache
def release() -> Release:
    """This release (the files are read once, as the server starts)."""
    return release_of(WEB)


def stamp(html: str, current: Release) -> tuple[str, str]:
    """``html`` with every static file it names by its version, and its Content-Security-Policy.

    Before its first script go the import map of the modules it loads (a map must come before
    the modules it maps), which the policy allows by its digest, and a ``modulepreload`` link
    for each module its modules import, directly or not: the browser asks for them all at
    once, where it would find each only once the module that imports it had come (a table's
    scripts are five imports deep, five round trips)."""
    entries = MODULE.findall(html)
    preload = current.reached(entries)
    html = STATIC_REF.sub(
        lambda m: f'{m[1]}="{current.url(m[2])}"' if m[2] in current.versions else m[0],
        html,
    )
    at = html.find("<script")
    if at < 0 or not entries:
        return html, CSP
    mapped = {f"/static/{m}": current.url(m) for m in (*entries, *preload)}
    import_map = json.dumps({"imports": mapped}, separators=(",", ":"))
    digest = base64.b64encode(hashlib.sha256(import_map.encode()).digest()).decode()
    links = "".join(f'<link rel="modulepreload" href="{current.url(m)}">\n' for m in preload)
    element = f'<script type="importmap">{import_map}</script>\n{links}'
    csp = CSP.replace("script-src 'self'", f"script-src 'self' 'sha256-{digest}'")
    return html[:at] + element + html[at:], csp


class Page(Response):
    """A page of the site: stamped with this release's versions (:func:`stamp`), its
    Content-Security-Policy allowing its import map, checked on use (``no-cache``) and answered
    with a 304 when the browser holds the same page (by its ETag)."""

    media_type = "text/html"

    def __init__(
        self, html: str, status_code: int = 200, headers: Mapping[str, str] | None = None
    ) -> None:
        body, csp = stamp(html, release())
        etag = '"' + hashlib.sha256(body.encode()).hexdigest()[:20] + '"'
        extra = {**REVALIDATE, "ETag": etag, "Content-Security-Policy": csp}
        super().__init__(body, status_code, {**extra, **(headers or {})})
        self.etag = etag

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        asked = dict(scope.get("headers", ())).get(b"if-none-match", b"").decode("latin-1")
        if self.status_code == 200 and self.etag in (t.strip() for t in asked.split(",")):
            kept = {k: v for k, v in self.headers.items() if k != "content-length"}
            await Response(status_code=304, headers=kept)(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


def page(name: str) -> Page:
    """The page ``name`` (an HTML file of ``boneyard/web``) as a response."""
    return Page((WEB / name).read_text(encoding="utf-8"))


class ClientFiles(StaticFiles):
    """``/static``: the client's files. A file asked for by this release's version of it is
    kept for good (:data:`KEEP`); any other answer is checked on use (:data:`REVALIDATE`)."""

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers.update(KEEP if is_current(full_path, stat_result, scope) else REVALIDATE)
        return response


def is_current(full_path: str | os.PathLike[str], stat: os.stat_result, scope: Scope) -> bool:
    """Whether the request names this release's version of the file, and the file is still the
    one the server found as it started (a file edited since is never kept for good)."""
    path = Path(full_path)
    name = path.name if path.parent == WEB else ""
    current = release()
    asked = QueryParams(scope.get("query_string", b"").decode("latin-1")).get("v")
    return (
        asked is not None
        and current.versions.get(name) == asked
        and current.found.get(name) == (stat.st_mtime_ns, stat.st_size)
    )
