"""The replays' and analyses' request bodies (as documented: uploads are parsed in a worker
process, not by the route, so these describe them for OpenAPI and the table analysis)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class RecordIn(BaseModel):
    """An uploaded record (RECORDS.md), as its JSON document."""

    record: dict[str, object]


class AnalysisIn(BaseModel):
    """Which seat to analyse (0-based, as in records)."""

    seat: int = Field(ge=0, le=7)


class RecordAnalysisIn(AnalysisIn):
    """An uploaded record and the seat to analyse."""

    record: dict[str, object]


def upload_body(model: type[BaseModel]) -> dict[str, object]:
    """The OpenAPI ``requestBody`` of a route that reads its JSON body itself."""
    schema = model.model_json_schema()
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": schema}}}}
