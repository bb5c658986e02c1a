"""The accounts' request and answer bodies."""

from __future__ import annotations

from pydantic import BaseModel, Field

from boneyard.server.accounts import auth


class Credentials(BaseModel):
    """Username and password."""

    username: str = Field(max_length=30)
    password: str = Field(max_length=auth.MAX_PASSWORD)


class Registration(Credentials):
    """A new account."""

    display_name: str | None = Field(default=None, max_length=30)


class GuestIn(BaseModel):
    """A guest's display name (none: the site picks one, "Guest 48213", to change later)."""

    display_name: str | None = Field(default=None, max_length=30)


class NameIn(BaseModel):
    """A guest's new display name."""

    display_name: str = Field(max_length=30)


class UserOut(BaseModel):
    """A person as the site shows them to themself."""

    id: int
    display_name: str
    username: str | None
    guest: bool
    bot: bool


class FailedSignIns(BaseModel):
    """Failed attempts to sign in to an account since its owner last signed in."""

    count: int
    since: str


class MeOut(BaseModel):
    """Who is signed in (``null``: nobody)."""

    user: UserOut | None


class SignedInOut(MeOut):
    """Who signed in, and the failed attempts on the account since its owner last did."""

    failed_sign_ins: FailedSignIns | None = None


class SessionOut(BaseModel):
    """One browser a person is signed in on."""

    id: str
    created_at: str
    last_seen_at: str
    expires_at: str
    browser: str
    current: bool


class SessionsOut(BaseModel):
    """Where a person is signed in."""

    sessions: list[SessionOut]


class EndedOut(BaseModel):
    """Signed out everywhere."""

    ended: int
    user: None = None
