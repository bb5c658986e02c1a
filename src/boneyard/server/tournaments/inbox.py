"""A person's notifications on the site (the bell: ``/api/me/notifications``) and where they
are e-mailed (``/api/me/notify``); boneyard.server.tournaments.notify adds and sends them."""

from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import Field

from boneyard.server.errors import Refused
from boneyard.server.tables.clock import now
from boneyard.server.tournaments.context import Ctx, Me
from boneyard.server.tournaments.notify import EMAIL, note_json, prefs_json
from boneyard.server.tournaments.schemas import MAX_ID, Clean
from boneyard.server.tournaments.viewtypes import NotesView, PrefsView
from boneyard.store import notifications, unit
from boneyard.store.tournaments import NotifyPrefs

router = APIRouter()


class PrefsIn(Clean):
    """Where to e-mail a person's notifications, and whether to."""

    email: str | None = Field(default=None, max_length=254)
    by_email: bool = False


class ReadIn(Clean):
    """Mark the notifications up to this id read."""

    upto: int = Field(ge=0, le=MAX_ID)


@router.get("/api/me/notifications", response_model=Any)
async def mine(user: Me, ctx: Ctx, after: Annotated[int, Query(ge=0, le=MAX_ID)] = 0) -> NotesView:
    """Your newest notifications (at most 50; ``after``: only newer ones), unread count."""
    async with ctx.sessions() as db:
        rows = await notifications.newest(db, user.id, after, 50)
        unread = await notifications.unread(db, user.id)
    return {"notifications": [note_json(n) for n in rows], "unread": unread}


@router.post("/api/me/notifications/read", response_model=Any)
async def read(body: ReadIn, user: Me, ctx: Ctx) -> NotesView:
    """Mark your notifications up to ``upto`` read."""
    async with ctx.sessions() as db, db.begin():
        await notifications.mark_read(db, user.id, body.upto, now())
    return await mine(user, ctx, 0)


@router.get("/api/me/notify", response_model=Any)
async def prefs(user: Me, ctx: Ctx) -> PrefsView:
    """Your e-mail settings, and whether this site sends e-mail at all."""
    async with ctx.sessions() as db:
        p = await unit.get(db, NotifyPrefs, user.id)
    return prefs_json(p, bool(ctx.cfg.smtp_host))


@router.put("/api/me/notify", response_model=Any)
async def set_prefs(body: PrefsIn, user: Me, ctx: Ctx) -> PrefsView:
    """Set where your notifications are e-mailed, and whether they are."""
    email = (body.email or "").strip() or None
    if email is not None and not EMAIL.match(email):
        raise Refused("that is not an e-mail address (name@example.org)")
    if body.by_email and email is None:
        raise Refused("give an e-mail address first")
    async with ctx.sessions() as db, db.begin():
        p = await unit.get(db, NotifyPrefs, user.id)
        if p is None:
            p = NotifyPrefs(user_id=user.id)
            unit.add(db, p)
        p.email, p.by_email, p.updated_at = email, body.by_email, now()
    return prefs_json(p, bool(ctx.cfg.smtp_host))
