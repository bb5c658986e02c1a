"""The printed pages' routes: each page (pairings, score cards, standings, bracket) as the
document the printable page shows (``.json``) and as its PDF (``.pdf``), laid out once by
:mod:`~boneyard.server.tournaments.printdoc` so they agree. Query: ``paper`` (``letter`` or
``a4``), ``round``, ``match`` (cards), ``tz`` (the reader's time zone for the cards' times)."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from fastapi.responses import Response

from boneyard.server.tournaments import printdoc
from boneyard.server.tournaments.context import Context, Ctx
from boneyard.server.tournaments.exports import gather
from boneyard.server.tournaments.printtypes import PrintDoc

router = APIRouter()

Kind = Literal["pairings", "cards", "standings", "bracket"]
Paper = Annotated[Literal["letter", "a4"], Query()]
Round = Annotated[int, Query(ge=0, le=64)]
MatchId = Annotated[str | None, Query(max_length=16)]
Zone = Annotated[str | None, Query(max_length=64)]


async def doc_of(
    ctx: Context,
    event_id: str,
    kind: str,
    paper: str,
    rnd: int,
    match: str | None,
    tz: str | None,
) -> PrintDoc:
    """The document of one printed page of the event."""
    data, users = await gather(ctx, event_id)
    return printdoc.build(data, kind, paper, rnd, match, tz, users)


@router.get("/api/tournaments/{event_id}/print/{kind}.json", response_model=Any)
async def print_json(
    event_id: str,
    kind: Kind,
    ctx: Ctx,
    paper: Paper = "letter",
    round: Round = 0,
    match: MatchId = None,
    tz: Zone = None,
) -> PrintDoc:
    """A printed page as its pages of blocks (the printable page draws them)."""
    return await doc_of(ctx, event_id, kind, paper, round, match, tz)


@router.get("/api/tournaments/{event_id}/print/{kind}.pdf")
async def print_pdf(
    event_id: str,
    kind: Kind,
    ctx: Ctx,
    paper: Paper = "letter",
    round: Round = 0,
    match: MatchId = None,
    tz: Zone = None,
) -> Response:
    """A printed page as a PDF: the same pages as the printable page."""
    # (fpdf2 and the imaging libraries it brings load on the first PDF, not with the site)
    from boneyard.server.tournaments import printpdf

    doc = await doc_of(ctx, event_id, kind, paper, round, match, tz)
    body = await asyncio.to_thread(printpdf.render, doc)
    part = f"-round{round}" if round else f"-{match}" if match else ""
    name = f"{kind}-{event_id}{part}-{doc['paper']}.pdf"
    return Response(
        body,
        media_type="application/pdf",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
