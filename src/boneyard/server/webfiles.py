"""Where the site's pages and static files are (``boneyard/web``), and how they are served: one
place, so a module that serves a page does not work the path out from its own depth in the
package."""

from __future__ import annotations

import os
from pathlib import Path

from fastapi.responses import FileResponse
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

WEB = Path(__file__).resolve().parent.parent / "web"

REVALIDATE = {"Cache-Control": "no-cache"}
"""Every page and file of the client is checked with the server on use (a 304 by its ETag when
it is unchanged). Without it a browser keeps a file with a Last-Modified date but no Cache-Control
for a tenth of its age (heuristic freshness), and after an upgrade would run last release's
script with this release's page; a site in a hall on plain http has no service worker to tell
releases apart."""


def page(name: str) -> FileResponse:
    """The page ``name`` (an HTML file of ``boneyard/web``) as a response."""
    return FileResponse(WEB / name, headers=REVALIDATE)


class ClientFiles(StaticFiles):
    """``/static``: the client's files, each answer revalidated on use (:data:`REVALIDATE`)."""

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers.update(REVALIDATE)
        return response
