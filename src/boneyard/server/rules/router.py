"""The rules pages' routes: ``GET /rules`` and ``GET /rules/{game}``."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from boneyard.server.rules import service

router = APIRouter(include_in_schema=False)


@router.get("/rules")
async def rules_index() -> HTMLResponse:
    return HTMLResponse(service.index_page())


@router.get("/rules/{game}")
async def rules_page(game: str) -> HTMLResponse:
    body, status = service.page_of(game)
    return HTMLResponse(body, status_code=status)
