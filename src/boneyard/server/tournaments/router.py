"""Every route of the tournaments domain in one router, which the app includes: the pages at
``/tournaments…`` and the API at ``/api/tournaments…`` (each module of this package keeps its own
routes; this one gathers them in the order they must be matched).

The domain was called "events" before 2026-11, so its old addresses keep working: an old page
address (``/events…``) answers 308 with the new one, query string kept, and the old API
(``/api/events…``) is served by the very same routes, hidden from the OpenAPI document, so that
a bookmark, a printed QR code or a script written against the old API still works.
"""

from __future__ import annotations

from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse
from fastapi.routing import APIRoute

from boneyard.server.errors import ERRORS
from boneyard.server.tournaments import (
    admin,
    cards,
    console,
    entrants,
    exports,
    inbox,
    offers,
    pages,
    prints,
    venue,
)

PAGES, API = "/tournaments", "/api/tournaments"
OLD_PAGES, OLD_API = "/events", "/api/events"
MODULES = (admin, entrants, venue, offers, console, cards, exports, prints, pages, inbox)
"""The modules with routes, in the order their routes are matched."""

router = APIRouter()
for module in MODULES:
    router.include_router(module.router, responses=ERRORS)


def _old_api(into: APIRouter) -> None:
    """Serve every ``/api/tournaments…`` route at its old ``/api/events…`` address too."""
    for module in MODULES:
        for route in module.router.routes:
            if isinstance(route, APIRoute) and route.path.startswith(API):
                into.add_api_route(
                    OLD_API + route.path.removeprefix(API),
                    route.endpoint,
                    methods=sorted(route.methods or ()),
                    response_model=route.response_model,
                    responses=ERRORS,
                    include_in_schema=False,
                )


_old_api(router)


@router.get(OLD_PAGES, include_in_schema=False)
@router.get(OLD_PAGES + "/{rest:path}", include_in_schema=False)
async def old_page(request: Request) -> RedirectResponse:
    """An old page address: 308 to the same page under ``/tournaments``, query string kept."""
    target = PAGES + quote(request.url.path.removeprefix(OLD_PAGES))
    if request.url.query:
        target += "?" + request.url.query
    return RedirectResponse(target, status_code=308)
