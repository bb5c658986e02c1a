"""Schemathesis over the OpenAPI spec: no operation answers with a server error (issue 6).

Every operation of ``/openapi.json`` gets generated requests (valid ones and, for the checks of
the request validation, invalid ones), once as a signed-out visitor and once signed in, always
with the CSRF header so that state-changing requests reach their own validation. Path
parameters are sometimes swapped for the id of a real table (open, in play, finished) so that
the table routes get past "no such table". The answers must not be 5xx and must conform to the
response schemas. Regression tests for the server errors it found follow.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.python import asgi
from schemathesis.specs.openapi.checks import response_schema_conformance
from starlette.responses import JSONResponse
from starlette.testclient import TestClient

from boneyard.server.app import create_app
from tests.server.conftest import ROOMY, csrf, make_app, post, register
from tests.services import needs_postgres, postgres_url

EXAMPLES = 12  # per operation and generation mode (positive / negative), per kind of visitor
CHECKS = [not_a_server_error, response_schema_conformance]


@dataclass
class Api:
    """The app under test, its schema and the people and tables the requests may use."""

    app: Any
    schema: Any
    csrf: str  # bound to ``session`` (the CSRF token is signed for one session)
    session: str
    tables: list[str] = field(default_factory=list)
    anon_csrf: str = ""  # for requests without a session
    client: Any = None

    def session_client(self) -> Any:
        """One in-process client for all the requests (a new one per request is slow)."""
        if self.client is None:
            self.client = asgi_client(self.app)
        return self.client


def asgi_client(app: Any) -> Any:
    return asgi.get_client(app)


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    db = str(tmp_path_factory.mktemp("schemathesis") / "boneyard.db")
    if os.environ.get("BONEYARD_SCHEMATHESIS_POSTGRES"):  # (by hand: slower)
        db = postgres_url()
    app = make_app(db, settings=replace(ROOMY, pause_unwatched=False))  # (bots play unwatched)
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    with asgi_client(app) as c:
        c.get("/api/me")
        csrf = c.cookies.get("boneyard_csrf")
        head = {"X-CSRF-Token": csrf}

        def make(body: dict[str, Any]) -> str:
            r = c.post("/api/tables", json=body, headers=head)
            assert r.status_code == 200, r.text
            return str(r.json()["id"])

        # Someone else's open table (a seat to take) and a finished game between two bots.
        r = c.post("/api/register", json={"username": unique("owner"), "password": "long enough"},
                   headers=head)  # fmt: skip
        assert r.status_code == 200, r.text
        head["X-CSRF-Token"] = c.cookies.get("boneyard_csrf") or ""  # a new token at sign-in
        other_open = make({"game": "highfive", "seats": [{"kind": "me"}, {"kind": "open"}]})
        finished = make({"game": "highfive", "seats": [{"kind": "bot"}, {"kind": "bot"}]})
        for _ in range(600):
            if c.get(f"/api/tables/{finished}").json()["status"] == "over":
                break
            time.sleep(0.05)
        else:
            raise AssertionError("the bots did not finish")
        # The signed-in visitor: a table in play and an open table of their own.
        c.cookies.clear()
        c.cookies.set("boneyard_csrf", csrf)
        head["X-CSRF-Token"] = csrf
        r = c.post("/api/register", json={"username": unique("tester"), "password": "long enough"},
                   headers=head)  # fmt: skip
        assert r.status_code == 200, r.text
        session = c.cookies.get("boneyard_session")
        # A new CSRF token came with the sign-in (the jar holds both the set and the sent one).
        anon = csrf
        csrf = next(k.value for k in c.cookies if k.name == "boneyard_csrf" and k.value != anon)
        c.cookies.clear()
        c.cookies.set("boneyard_session", session)
        c.cookies.set("boneyard_csrf", csrf)
        head["X-CSRF-Token"] = csrf
        playing = c.post("/api/quickplay", headers=head).json()["id"]
        own_open = make({"game": "merry-go-round", "seats": [{"kind": "me"}, {"kind": "open"}]})
    app.state.tables.bot_delay = 30  # the bots of new tables wait: the requests stay the load
    yield Api(app, schema, csrf, session, [other_open, finished, playing, own_open], anon_csrf=anon)


def with_real_tables(case: Any, api: Api) -> None:
    """Swap a generated ``table_id`` for a real one about half the time (deterministically)."""
    params = case.path_parameters or {}
    tid = params.get("table_id")
    if not isinstance(tid, str):
        return
    k = hashlib.sha256(tid.encode("utf-8", "surrogatepass")).digest()[0]
    if k % 2 == 0 and api.tables:
        params["table_id"] = api.tables[(k // 2) % len(api.tables)]


def send(api: Api, op: Any, case: Any, signed_in: bool) -> None:
    """One generated request, with the CSRF header (and the session), checked."""
    with_real_tables(case, api)
    token = api.csrf if signed_in else api.anon_csrf
    cookies = {"boneyard_csrf": token}
    if signed_in:
        cookies["boneyard_session"] = api.session
        if op.path == "/api/logout":  # a throwaway session: keep the real one
            cookies["boneyard_session"], token = guest_session(api)
            cookies["boneyard_csrf"] = token
    headers = {"X-CSRF-Token": token}
    session = api.session_client()
    try:
        # (schemathesis waits 10 s for an answer by default: a replay's answer on a loaded
        # machine may take longer; the bound only stops a hang)
        case.call_and_validate(
            checks=CHECKS, headers=headers, cookies=cookies, session=session, timeout=120
        )
    finally:
        session.cookies.clear()  # a sign-in answer must not sign the next request in


def run_checks(api: Api, signed_in: bool, only: str | None = None) -> int:
    """Every operation (or the one at path ``only``), positive and negative cases; returns how
    many requests were sent."""
    sent = [0]
    operations = [r.ok() for r in api.schema.get_all_operations()]
    assert len(operations) >= 15, [f"{o.method} {o.path}" for o in operations]
    for op in [o for o in operations if only is None or o.path == only]:
        modes = [GenerationMode.POSITIVE]
        if len(op.body) or len(op.query):  # (any text is a valid path parameter: no negatives)
            modes.append(GenerationMode.NEGATIVE)
        for mode in modes:
            try:
                checker(api, op, mode, signed_in, sent)()
            except Unsatisfiable:  # nothing to make invalid (no parameters, no body)
                assert mode == GenerationMode.NEGATIVE, f"{op.method} {op.path}"
    return sent[0]


def checker(api: Api, op: Any, mode: GenerationMode, signed_in: bool, sent: list[int]) -> Any:
    """The Hypothesis test of one operation in one generation mode."""

    @SETTINGS
    @given(case=op.as_strategy(generation_mode=mode))
    def check(case: Any) -> None:
        send(api, op, case, signed_in)
        sent[0] += 1

    return check


SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)


def guest_session(api: Api) -> tuple[str, str]:
    """A new guest's session and its CSRF token."""
    with asgi_client(api.app) as c:
        c.cookies.set("boneyard_csrf", api.anon_csrf)
        body = {"display_name": unique("Temp")}
        r = c.post("/api/guest", json=body, headers={"X-CSRF-Token": api.anon_csrf})
        assert r.status_code == 200, r.text
        session = str(c.cookies.get("boneyard_session"))
        token = next(
            k.value for k in c.cookies if k.name == "boneyard_csrf" and k.value != api.anon_csrf
        )
        return session, token


@pytest.mark.parametrize("signed_in", [False, True], ids=["signed-out", "signed-in"])
def test_no_operation_answers_with_a_server_error(api: Api, signed_in: bool) -> None:
    started = time.monotonic()
    sent = run_checks(api, signed_in)
    print(f"{sent} requests in {time.monotonic() - started:.1f} s")
    assert sent >= 100


def test_the_check_fails_on_a_server_error(tmp_path: Path) -> None:
    """The harness itself: an operation that answers 500 (or raises) is reported."""
    app = create_app(str(tmp_path / "b.db"), bot_delay=0)

    @app.get("/api/broken")
    async def broken() -> JSONResponse:
        return JSONResponse({"detail": "oops"}, 500)

    @app.get("/api/raises")
    async def raises() -> dict[str, Any]:
        raise RuntimeError("boom")

    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    with pytest.raises(BaseException, match="Server error"):  # (a BaseExceptionGroup)
        run_checks(Api(app, schema, "x", ""), signed_in=False, only="/api/broken")
    with pytest.raises(RuntimeError, match="boom"):
        run_checks(Api(app, schema, "x", ""), signed_in=False, only="/api/raises")


# -- regressions: the server errors schemathesis found -----------------------------------------

DBS = ["sqlite", pytest.param("postgresql", marks=needs_postgres)]


@pytest.fixture(params=DBS)
def any_client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    db = str(tmp_path / "r.db") if request.param == "sqlite" else postgres_url()
    with TestClient(make_app(db)) as c:  # server exceptions are raised in the test
        c.get("/api/me")
        yield c


def unique(name: str) -> str:
    """A username no other test took (PostgreSQL's test database is shared)."""
    return f"{name}{secrets.token_hex(4)}"


def raw_post(c: TestClient, path: str, text: str, **headers: str) -> Any:
    """POST ``text`` as the body, as is (JSON may escape a lone surrogate: valid JSON)."""
    head = {
        "X-CSRF-Token": c.cookies.get("boneyard_csrf") or "",
        "content-type": "application/json",
    }
    return c.post(path, content=text.encode(), headers={**head, **headers})


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/login", '{"username": "\\ud800", "password": "whatever1"}'),
        ("/api/register", '{"username": "abcd", "password": "\\udfff long enough"}'),
        ("/api/guest", '{"display_name": "\\ud800"}'),
    ],
)
def test_a_lone_surrogate_is_a_422_not_a_server_error(
    any_client: TestClient, path: str, body: str
) -> None:
    # The 422 answer echoed the input, which could not be encoded: HTTP 500.
    r = raw_post(any_client, path, body)
    assert r.status_code == 422
    assert r.json()["detail"][0]["type"] == "string_unicode"


def test_a_lone_surrogate_in_a_new_table_is_a_422(any_client: TestClient) -> None:
    register(any_client, unique("ann"))
    r = raw_post(
        any_client, "/api/tables", '{"game": "\\ud800", "seats": [{"kind": "me"}, {"kind": "bot"}]}'
    )
    assert r.status_code == 422
    body = '{"seats": [{"kind": "me"}, {"kind": "bot", "bot": "\\ud800"}]}'
    assert raw_post(any_client, "/api/tables", body).status_code == 422


def test_a_nul_in_a_username_or_table_id_is_a_clear_4xx(any_client: TestClient) -> None:
    # PostgreSQL refuses NUL characters in text: looking them up was a server error there.
    r = post(any_client, "/api/login", {"username": "a\x00b", "password": "whatever1"})
    assert r.status_code == 400 and r.json()["detail"] == "wrong username or password"
    for tid in ("a%00b", "%ED%A0%80", "x" * 40):
        r = any_client.get(f"/api/tables/{tid}")
        assert r.status_code == 404 and r.json()["detail"] == "no such table"
        r = any_client.get(f"/api/tables/{tid}/replay")
        assert r.status_code == 404
    register(any_client, unique("nul"))
    r = post(any_client, "/api/tables/a%00b/join", {"seat": 1})
    assert r.status_code == 404


def test_an_uploaded_record_with_odd_events_or_text_is_refused_with_why(
    any_client: TestClient,
) -> None:
    base = {"format": "boneyard-record/1", "game": "highfive", "seats": ["a", "b"], "options": {}}
    # Events that are not a list: a TypeError (HTTP 500) while counting them.
    r = post(any_client, "/api/replays", {"record": {**base, "hands": [{"events": 5}]}})
    assert r.status_code == 400
    assert r.json()["detail"] == "the record does not replay: events must be a list (hand 0)"
    # A seat name with a lone surrogate: the answer echoing it could not be encoded.
    text = '{"record": {"format": "boneyard-record/1", "game": "highfive", "seats": ["\\ud800", "b"], "options": {}, "hands": []}}'
    r = raw_post(any_client, "/api/replays", text)
    assert r.status_code == 400 and "UTF-8" in r.json()["detail"]
    # A Content-Length that is not a number.
    r = raw_post(any_client, "/api/replays", '{"record": {}}', **{"content-length": "abc"})
    assert r.status_code == 400 and "Content-Length" in r.json()["detail"]


def test_a_number_too_large_for_the_database_is_a_400(any_client: TestClient) -> None:
    # Muting user 2**63: SQLite raised OverflowError (HTTP 500); PostgreSQL a DataError (503).
    register(any_client, unique("big"))
    for uid in (2**31, 2**63, 10**30):
        r = post(any_client, "/api/me/mutes", {"user_id": uid})
        assert r.status_code == 400 and r.json()["detail"] == "no such person", r.text
        r = any_client.delete(f"/api/me/mutes/{uid}", headers=csrf(any_client))
        assert r.status_code == 400, r.text
    tid = post(any_client, "/api/quickplay").json()["id"]
    with any_client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.receive_json()
        ws.send_text(json.dumps({"type": "mute", "user_id": 2**63}))
        while (reply := ws.receive_json())["type"] != "error":
            pass
        assert reply["message"] == "no such person"


def test_values_the_database_refuses_are_a_400_anywhere(tmp_path: Path) -> None:
    from sqlalchemy.exc import DataError

    app = make_app(str(tmp_path / "v.db"))

    @app.get("/api/overflow")
    async def overflow() -> None:
        raise OverflowError("Python int too large to convert to SQLite INTEGER")

    @app.get("/api/data-error")
    async def data_error() -> None:
        raise DataError("SELECT", {}, ValueError("value out of int64 range"))

    with TestClient(app) as c:
        for path in ("/api/overflow", "/api/data-error"):
            r = c.get(path)
            assert r.status_code == 400 and "out of range" in r.json()["detail"]
