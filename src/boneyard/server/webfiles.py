"""Where the site's pages and static files are (``boneyard/web``): one place, so a module that
serves a page does not work the path out from its own depth in the package."""

from __future__ import annotations

from pathlib import Path

from fastapi.responses import FileResponse

WEB = Path(__file__).resolve().parent.parent / "web"


def page(name: str) -> FileResponse:
    """The page ``name`` (an HTML file of ``boneyard/web``) as a response."""
    return FileResponse(WEB / name)
