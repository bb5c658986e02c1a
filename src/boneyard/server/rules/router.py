"""The rules pages' routes: ``GET /rules`` and ``GET /rules/{game}``."""

from __future__ import annotations

from fastapi import APIRouter

from boneyard.server.rules import service
from boneyard.server.webfiles import Page

router = APIRouter(include_in_schema=False)


@router.get("/rules")
async def rules_index() -> Page:
    return Page(service.index_page())


@router.get("/rules/{game}")
async def rules_page(game: str) -> Page:
    body, status = service.page_of(game)
    return Page(body, status_code=status)
