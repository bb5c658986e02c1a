"""The replay and analysis routes (docs/server.md): a finished table's replay, hands and
analysis, an uploaded record's replay and analysis. Uploads are read as bytes and parsed in a
worker process (:mod:`.jobs`), so these routes only hand bodies on."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import StreamingResponse
from starlette.requests import HTTPConnection

from boneyard.core.protocol import JSON
from boneyard.server.deps import VisibleTable, address
from boneyard.server.errors import ERRORS
from boneyard.server.replays.analysis import Analyses
from boneyard.server.replays.schemas import AnalysisIn, RecordAnalysisIn, RecordIn, upload_body
from boneyard.server.replays.service import Replays

router = APIRouter(responses=ERRORS)
BUSY: dict[int | str, dict[str, object]] = {503: {"description": "Busy: try again"}}
STREAM_HEADERS = {"X-Accel-Buffering": "no", "Cache-Control": "no-store"}


def replays_of(conn: HTTPConnection) -> Replays:
    """The app's replays service."""
    found: Replays = conn.app.state.replays
    return found


def analyses_of(conn: HTTPConnection) -> Analyses:
    """The app's analyses."""
    found: Analyses = conn.app.state.analyses
    return found


ReplaysDep = Annotated[Replays, Depends(replays_of)]
AnalysesDep = Annotated[Analyses, Depends(analyses_of)]


def ndjson(lines: AsyncIterator[bytes]) -> StreamingResponse:
    """A streamed answer of JSON lines, never buffered by a proxy."""
    return StreamingResponse(lines, media_type="application/x-ndjson", headers=STREAM_HEADERS)


@router.get("/api/tables/{table_id}/replay")
async def table_replay(table: VisibleTable, replays: ReplaysDep) -> Response:
    """Every step of a finished game, as public views with all hands shown."""
    return Response(await replays.of_table(table), media_type="application/json")


@router.get("/api/tables/{table_id}/hands")
async def table_hands(table: VisibleTable, replays: ReplaysDep) -> JSON:
    """The ends (winner, award, scores) of the hands this table has finished."""
    return {"hands": await replays.hands(table)}


@router.post("/api/replays", responses=BUSY, openapi_extra=upload_body(RecordIn))
async def upload_replay(request: Request, replays: ReplaysDep) -> Response:
    """Replay an uploaded record (``{"record": {...}}``, at most 2 MB); a record that does
    not replay is refused with why. The body is parsed in the worker, not here."""
    body = await replays.upload(await request.body(), address(request))
    return Response(body, media_type="application/json")


@router.post("/api/tables/{table_id}/analysis")
async def table_analysis(
    table: VisibleTable, body: AnalysisIn, request: Request, analyses: AnalysesDep
) -> StreamingResponse:
    """The expert's analysis of one seat of a finished game, as JSON lines: its progress
    after each part, the last line with every decision (docs/server.md)."""
    return ndjson(await analyses.of_table(table, body.seat, address(request)))


@router.post("/api/analysis", responses=BUSY, openapi_extra=upload_body(RecordAnalysisIn))
async def record_analysis(request: Request, analyses: AnalysesDep) -> StreamingResponse:
    """The same for an uploaded record of a finished game (parsed in a worker, not here)."""
    return ndjson(await analyses.of_upload(await request.body(), address(request)))
