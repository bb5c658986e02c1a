"""The site's own routes outside any domain: the lobby and table pages' HTML, the replay
pages, and ``/metrics`` (Prometheus, docs/operations.md)."""

from __future__ import annotations

import secrets

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from boneyard.server.metrics import CONTENT_TYPE_LATEST
from boneyard.server.settings import SiteSettings
from boneyard.server.tables.manager import TableManager
from boneyard.server.webfiles import Page, page

router = APIRouter(include_in_schema=False)
LOOPBACK = ("127.0.0.1", "::1")


def metrics_allowed(request: Request, token: str | None) -> bool:
    """Whether ``request`` may read ``/metrics``: the bearer of ``token`` when one is set,
    else a client on this machine."""
    if token:
        sent = request.headers.get("authorization", "")
        return secrets.compare_digest(sent.encode(), f"Bearer {token}".encode())
    return request.client is not None and request.client.host in LOOPBACK


@router.get("/metrics")
async def metrics(request: Request) -> Response:
    """Prometheus metrics of this process (docs/operations.md): with ``metrics_token`` set,
    for its bearer only; otherwise only to this machine."""
    settings: SiteSettings = request.app.state.accounts.settings
    if not metrics_allowed(request, settings.metrics_token):
        return JSONResponse({"detail": "metrics are not public"}, 403)
    tables: TableManager = request.app.state.tables
    return Response(tables.metrics.render(), media_type=CONTENT_TYPE_LATEST)


@router.get("/")
async def index() -> Page:
    return page("index.html")


@router.get("/table/{table_id}")
async def table_page(table_id: str) -> Page:
    return page("table.html")


@router.get("/replay")
async def replay_upload_page() -> Page:
    return page("replay.html")


@router.get("/replay/{table_id}")
async def replay_page(table_id: str) -> Page:
    return page("replay.html")
