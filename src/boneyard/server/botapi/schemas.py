"""The bot API's request bodies."""

from __future__ import annotations

from pydantic import BaseModel, Field


class TokenIn(BaseModel):
    """A new API token's name (what it is for)."""

    name: str = Field(default="bot", min_length=1, max_length=60)
