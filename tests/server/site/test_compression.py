"""The site's text goes gzipped to a browser that asks for it (server/app.py): pages, scripts,
style sheets and JSON a third of their size, the same bytes once unpacked; a small answer, an
image, and a client that does not ask for gzip get them as they are; the analysis's stream of
JSON lines still arrives line by line."""

from __future__ import annotations

import gzip
import json
import zlib
from pathlib import Path

import httpx
from starlette.testclient import TestClient

GZIP = {"Accept-Encoding": "gzip"}
PLAIN = {"Accept-Encoding": "identity"}


def raw(c: TestClient, path: str, headers: dict[str, str]) -> tuple[dict[str, str], bytes]:
    """The answer's headers and its body as sent (not unpacked by the client)."""
    with c.stream("GET", path, headers=headers) as r:
        assert r.status_code == 200, path
        return dict(r.headers), b"".join(r.iter_raw())


def test_text_goes_gzipped_and_unpacks_to_the_same_bytes(client: TestClient) -> None:
    for path in ("/", "/static/table.js", "/static/style.css", "/rules/highfive", "/api/games"):
        packed_headers, packed = raw(client, path, GZIP)
        plain_headers, plain = raw(client, path, PLAIN)
        assert packed_headers.get("content-encoding") == "gzip", path
        assert "content-encoding" not in plain_headers, path
        assert "accept-encoding" in packed_headers.get("vary", "").lower(), path
        assert gzip.decompress(packed) == plain, path
        assert len(packed) < len(plain) / 2, (path, len(packed), len(plain))
        # (the security headers are on the packed answer too)
        assert packed_headers.get("content-security-policy"), path


def test_small_answers_and_images_go_as_they_are(client: TestClient) -> None:
    headers, body = raw(client, "/api/me", GZIP)
    assert "content-encoding" not in headers and json.loads(body) is not None
    headers, body = raw(client, "/static/icon-192.png", GZIP)
    assert "content-encoding" not in headers and body.startswith(b"\x89PNG")


def test_a_streamed_analysis_still_comes_line_by_line(tmp_path: Path) -> None:
    """Through a real server: the analysis's JSON lines are gzipped chunk by chunk, each chunk
    unpacking to whole lines as it arrives (a compressor holding them back would deliver the
    progress only with the end)."""
    from tests.server.browser import serve
    from tests.server.replays.test_replay import self_played

    env = {"BONEYARD_ANALYSIS_WORLDS": "3"}
    site = serve(tmp_path / "site.db", tmp_path / "server.log", env=env)
    with site as url, httpx.Client(base_url=url, timeout=120) as c:
        c.get("/api/me")
        body = {"record": self_played("highfive", 2), "seat": 0}
        token = {"X-CSRF-Token": c.cookies.get("boneyard_csrf") or ""}
        unpack = zlib.decompressobj(16 + zlib.MAX_WBITS)
        arrived: list[str] = []
        with c.stream("POST", "/api/analysis", json=body, headers={**GZIP, **token}) as r:
            assert r.status_code == 200 and r.headers.get("content-encoding") == "gzip"
            for chunk in r.iter_raw():
                text = unpack.decompress(chunk).decode()
                if text:
                    assert text.endswith("\n"), text  # whole lines, flushed
                    arrived.append(text)
    lines = [json.loads(line) for text in arrived for line in text.splitlines() if line.strip()]
    assert len(arrived) >= 2 and lines[0]["status"] == "running", arrived[:2]
    assert lines[-1]["status"] == "done", lines[-1]
