"""Absentees handled in the open, and cards that tell the truth (docs/tournaments-site.md): an automatic
forfeit is in the log and its exports, told to the directors, undone like any ruling with the
words of what must happen for it not to forfeit again; a card's whole history (entries,
signatures and the entry each was for, disputes, rulings, PDA 9b penalties, bogus play) is on
the card, the printed card, its PDF and ``scorecards.csv``; the printed pages and their PDFs
hold the same lines."""

from __future__ import annotations

import csv
import io
import subprocess
from typing import Any

from starlette.testclient import TestClient

from tests.server.conftest import post, register, use, wait_for
from tests.server.tournaments.test_tournaments import get, match, ok
from tests.server.tournaments.test_tournaments_venue import entrant, otb_event, paper
from tests.services import needs, program


def forfeited(c: TestClient, eid: str, mid: str) -> bool:
    return bool(match(get(c, eid), mid)["over"])


def test_an_automatic_forfeit_is_logged_told_and_undone_with_what_it_needs(
    tournament_client: TestClient,
) -> None:
    c = tournament_client
    register(c, "dora")
    eid = otb_event(c, grace_minutes=0.02)  # 1.2 seconds of grace
    data = ok(post(c, f"/api/tournaments/{eid}/walk-ins", {"text": "Ann\nBob\nCyd\nDan"}))
    for n in ("Ann", "Cyd", "Dan"):  # Bob is not there
        e = entrant(data, n)
        ok(post(c, f"/api/tournaments/{eid}/entrants/{e['id']}/checkin", {"present": True}))
    data = ok(post(c, f"/api/tournaments/{eid}/start"))
    bob = entrant(data, "Bob")["id"]
    mid = next(m["id"] for m in data["rounds"][0] if bob in (m["a"], m["b"]))
    wait_for(lambda: forfeited(c, eid, mid))
    data = get(c, eid)
    act = next(a for a in data["actions"] if a["kind"] == "forfeit")
    assert act["payload"]["auto"] and act["payload"]["reason"] == "no_show"
    assert act["note"] == "Bob: no-show, not checked in 1 second after the match was ready: forfeit"
    g = match(data, mid)["games"][0]
    assert g["how"] == "forfeit: Bob no-show"
    log = list(csv.DictReader(io.StringIO(c.get(f"/api/tournaments/{eid}/log.csv").text)))
    assert any(
        x["kind"] == "forfeit" and x["match"] == mid and "auto=True" in x["details"] for x in log
    )
    notes = c.get("/api/me/notifications").json()["notifications"]
    assert any(n["kind"] == "forfeit" and "you may undo it" in n["title"] for n in notes)
    # undone: a new grace period, and the words of what it needs
    data = ok(
        post(c, f"/api/tournaments/{eid}/actions/{act['id']}/undo", {"note": "he was at the bar"})
    )
    assert data["message"] == (
        f"{mid} is open again. Bob is not checked in: the match is forfeited again in 1 second "
        "unless Bob checks in (or you check them in)."
    )
    assert not match(data, mid)["over"]
    wait_for(lambda: forfeited(c, eid, mid))  # as it said
    # an event without grace: undoing would forfeit again at once, so it says to check in first
    ok(
        c.patch(
            f"/api/tournaments/{eid}",
            json={"grace_minutes": 0},
            headers={"X-CSRF-Token": c.cookies["boneyard_csrf"]},
        )
    )
    again = [a for a in get(c, eid)["actions"] if a["kind"] == "forfeit" and not a["undone"]][-1]
    r = post(c, f"/api/tournaments/{eid}/actions/{again['id']}/undo", {})
    assert r.status_code == 400
    assert "Check Bob in first, then undo" in r.json()["detail"]
    ok(post(c, f"/api/tournaments/{eid}/entrants/{bob}/checkin", {"present": True}))
    data = ok(post(c, f"/api/tournaments/{eid}/actions/{again['id']}/undo", {}))
    assert data["message"] == f"{mid} is open again: both players are checked in."
    assert not match(data, mid)["over"]


def test_cards_prints_and_exports_tell_the_whole_story(tournament_client: TestClient) -> None:
    c = tournament_client
    dora = register(c, "dora")
    eid = otb_event(c, schedule="bo3")
    jars = {}
    for n in ("ann", "bob"):
        jars[n] = register(c, n)
        ok(post(c, f"/api/tournaments/{eid}/register"))
    use(c, dora)
    for e in get(c, eid)["entrants"]:
        ok(post(c, f"/api/tournaments/{eid}/entrants/{e['id']}/checkin", {"present": True}))
    data = ok(post(c, f"/api/tournaments/{eid}/start"))
    m = data["rounds"][0][0]
    a, b = m["a_name"], m["b_name"]
    mid = m["id"]
    # game 1: a PDA 9b penalty while it is played, then its paper card
    body = {"offender": m["b"], "points": 55, "note": "picked up 8 tiles"}
    ok(post(c, f"/api/tournaments/{eid}/matches/{mid}/penalty", body))
    ok(paper(c, eid, mid, (150, 45)))
    # game 2: entered for signing on screen 60-150; b signs it, a disputes; ruled 120-150
    card = {"score_a": 60, "score_b": 150}
    data = ok(post(c, f"/api/tournaments/{eid}/matches/{mid}/card", card))
    g2 = next(g for g in match(data, mid)["games"] if g["status"] == "reported")
    use(c, jars[b])
    ok(post(c, f"/api/tournaments/{eid}/games/{g2['id']}/sign"))
    use(c, jars[a])
    ok(post(c, f"/api/tournaments/{eid}/games/{g2['id']}/dispute", {"note": "it was 120-150"}))
    use(c, dora)
    body = {
        "kind": "score",
        "game_id": g2["id"],
        "score_a": 120,
        "score_b": 150,
        "note": "both sheets",
    }
    ok(post(c, f"/api/tournaments/{eid}/matches/{mid}/ruling", body))
    data = get(c, eid)
    g1, g2 = match(data, mid)["games"]
    assert g1["how"] == (
        f"signed on paper, entered from the paper card by dora; PDA 9b: {b} penalised, {a} scores 55"
    )
    assert g2["status"] == "ruled" and g2["signed_b"] is None and g2["how"] == "ruled by dora"
    lines = [h["text"] for h in g2["history_text"]]
    assert lines == [
        f"{a} 60–150 {b} entered by dora, for both players to sign",
        f"signed on screen by {b}, for the entry {a} 60–150 {b}",
        f"disputed by {a}: it was 120-150 (the entry {a} 60–150 {b})",
        f"ruled {a} 120–150 {b} by dora; overrules the entry {a} 60–150 {b} and its signatures (both sheets)",
    ]
    # the CSV: the same words, the ruled result signed by nobody
    rows = list(csv.DictReader(io.StringIO(c.get(f"/api/tournaments/{eid}/scorecards.csv").text)))
    assert rows[0]["how"] == g1["how"] and rows[0]["signed_a"] == "on paper"
    assert "PDA 9b" in rows[0]["history"]
    assert rows[1]["signed_b"] == "" and rows[1]["how"] == "ruled by dora"
    assert all(line in rows[1]["history"] for line in lines)
    # the printed card: the history under the games; the ruled game has no signature
    doc = c.get(f"/api/tournaments/{eid}/print/cards.json?match={mid}&tz=UTC").json()
    card_block = doc["pages"][0]["blocks"][0]
    table = next(x for x in card_block["blocks"] if x["type"] == "table")
    ruled = next(r for r in table["rows"] if r.get("game") == g2["id"])
    assert ruled["cells"][5:] == [[""], [""]]
    printed = " ".join(" ".join(x["lines"]) for x in card_block["blocks"] if x["type"] == "text")
    assert f"signed on screen by {b}, for the entry" in printed and "PDA 9b" in printed
    # a bogus play ruled on the third game names the offender on the card
    body = {"kind": "bogus", "offender": m["a"], "note": "drew with a play (8c)"}
    data = ok(post(c, f"/api/tournaments/{eid}/matches/{mid}/ruling", body))
    g3 = match(data, mid)["games"][-1]
    assert g3["how"] == f"ruled by dora: bogus play by {a} (PDA 8c–e: 150–100)"


@needs("pdftotext")
def test_the_printed_pages_and_their_pdfs_agree(tournament_client: TestClient) -> None:
    c = tournament_client
    register(c, "dora")
    eid = otb_event(c, schedule="bo3", third_place=True)
    names = "\n".join(f"Player {i:02d}" for i in range(1, 11))
    ok(post(c, f"/api/tournaments/{eid}/walk-ins", {"text": names, "here": True}))
    data = ok(post(c, f"/api/tournaments/{eid}/start"))
    for m in [x for x in data["rounds"][0] if x["ready"]]:
        ok(paper(c, eid, m["id"], (150, 90), (150, 100)))
    tool = program("pdftotext")
    for kind, query in [
        ("pairings", "round=1"),
        ("cards", "round=1"),
        ("standings", ""),
        ("bracket", ""),
    ]:
        for size in ("letter", "a4"):
            doc = c.get(
                f"/api/tournaments/{eid}/print/{kind}.json?{query}&paper={size}&tz=UTC"
            ).json()
            pdf = c.get(f"/api/tournaments/{eid}/print/{kind}.pdf?{query}&paper={size}&tz=UTC")
            assert pdf.headers["content-type"] == "application/pdf"
            text = subprocess.run(
                [tool, "-", "-"], input=pdf.content, capture_output=True, check=True
            ).stdout.decode()
            assert text.count("\f") == len(doc["pages"]), (kind, size)
            flat = " ".join(text.split())
            for word in words(doc):
                assert " ".join(word.split()) in flat, (kind, size, word)
    bracket = c.get(f"/api/tournaments/{eid}/print/bracket.json").json()
    labels = [x["text"] for p in bracket["pages"] for b in p["blocks"] for x in b.get("labels", [])]
    assert "Third-place match" in labels and "Champion" in labels


def words(doc: dict[str, Any]) -> list[str]:
    """The texts of a printed document (every line, cell and box)."""
    out = [doc["title"]]
    for page in doc["pages"]:
        for b in page["blocks"]:
            for x in [b, *b.get("blocks", [])]:
                out += x.get("lines", []) if x["type"] == "text" else []
                out += [ln for r in x.get("rows", []) for cell in r["cells"] for ln in cell]
                out += [s["text"] for bx in x.get("boxes", []) for s in bx["lines"]]
    return [w for w in out if w and "…" not in w and len(w) < 60]
