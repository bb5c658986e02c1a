"""The profile routes: ``GET /api/users/{id}`` and the page ``/profile/{id}``."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter
from fastapi import Path as PathParam

from boneyard.core.protocol import JSON
from boneyard.server.deps import MaybeUser, SessionsDep
from boneyard.server.errors import ERRORS, NotFound
from boneyard.server.profiles.service import profile
from boneyard.server.webfiles import Page, page

router = APIRouter()
UserId = Annotated[int, PathParam(ge=1, le=2**31 - 1)]


@router.get("/api/users/{user_id}", responses=ERRORS)
async def user_profile(user_id: UserId, viewer: MaybeUser, sessions: SessionsDep) -> JSON:
    """A person's public profile: name, member since, games played and won per game, and
    their game history (opponents, result, date, replay link)."""
    found = await profile(sessions, user_id, viewer.id if viewer else None)
    if found is None:
        raise NotFound("no such player")
    return found


@router.get("/profile/{user_id}", include_in_schema=False)
async def profile_page(user_id: str) -> Page:
    return page("profile.html")
