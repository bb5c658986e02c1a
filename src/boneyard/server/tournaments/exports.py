"""Exports of an event: the score cards (every game, forfeit and card entry, with its history),
the standings with their labelled tiebreaks, and the log of rulings — as CSV (cells a
spreadsheet shows as text: no formulas) and as one JSON document with timestamps."""

import csv
import io
from collections.abc import Iterable, Mapping, Sequence

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from boneyard.server.tournaments.context import Context, Ctx
from boneyard.server.tournaments.viewtypes import GameView, Names, TournamentView
from boneyard.store import tournament_people

Row = dict[str, object]
"""A row of an export: its cells by column name."""

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
CARD_FIELDS = (
    "event", "round", "round_title", "match", "table", "game", "player_a", "player_b",
    "score_a", "score_b", "winner", "reason", "status", "how", "reported_by", "by_director",
    "paper", "signed_a", "signed_b", "signed_a_at", "signed_b_at", "confirmed_by", "created_at",
    "updated_at", "note", "history",
)  # fmt: skip
LOG_FIELDS = ("at", "kind", "by", "match", "game", "note", "undone", "details")


def csv_cell(value: object) -> object:
    """A CSV cell a spreadsheet shows as text: a text that starts like a formula (``= + - @``,
    a tab or a carriage return) gets a leading apostrophe; numbers stay numbers.

    >>> csv_cell("=HYPERLINK(1)"), csv_cell("-2"), csv_cell(-2), csv_cell("Ann")
    ("'=HYPERLINK(1)", "'-2", -2, 'Ann')
    """
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def csv_text(fields: Sequence[str], rows: Iterable[Mapping[str, object]]) -> str:
    """Rows as CSV, every cell through :func:`csv_cell`."""
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(fields))
    w.writeheader()
    w.writerows({k: csv_cell(row.get(k)) for k in fields} for row in rows)
    return buf.getvalue()


def history_text(g: GameView) -> str:
    """A card's history in one cell: ``time: what happened``, oldest first, in the words the
    card and the printed card use (cardtext)."""
    return "; ".join(f"{str(h['at'] or '')[:19]} {h['text']}" for h in g["history_text"])


def signed(g: GameView, side: str, names: dict[str, str | None]) -> str:
    """Who signed the result as it stands for a side: ``on paper``, ``on screen``, or
    nothing (a ruling's result: its entry's signatures are in the history)."""
    if g["kind"] != "game" or g["status"] not in ("confirmed", "reported", "disputed"):
        return ""
    if g["paper"]:
        return "on paper"
    at = g["signed_a_at"] if side == "a" else g["signed_b_at"]
    return f"on screen ({names[side]})" if at else ""


def card_rows(data: TournamentView, users: Names) -> list[Row]:
    """One row per game row of every match (void, disputed and ruled ones too)."""
    rows: list[Row] = []
    titles = data.get("round_titles") or []
    for r, rnd in enumerate(data["rounds"]):
        for m in rnd:
            for g in m["games"]:
                rows.append(
                    {
                        "event": data["name"],
                        "round": m["round"],
                        "round_title": titles[r] if r < len(titles) else "",
                        "match": m["id"],
                        "table": m.get("table"),
                        "game": g["number"],
                        "player_a": m["a_name"],
                        "player_b": m["b_name"],
                        "score_a": g["score_a"],
                        "score_b": g["score_b"],
                        "winner": g["winner_name"],
                        "reason": g["reason"],
                        "status": g["status"],
                        "how": g["how"],
                        "reported_by": users.get(g["reported_by"] or 0),
                        "by_director": g["by_director"],
                        "paper": g["paper"],
                        "signed_a": signed(g, "a", {"a": m["a_name"], "b": m["b_name"]}),
                        "signed_b": signed(g, "b", {"a": m["a_name"], "b": m["b_name"]}),
                        "signed_a_at": g["signed_a_at"],
                        "signed_b_at": g["signed_b_at"],
                        "confirmed_by": users.get(g["confirmed_by"] or 0),
                        "created_at": g["created_at"],
                        "updated_at": g["updated_at"],
                        "table_id": g["table_id"],
                        "note": g["note"],
                        "history": history_text(g),
                        "history_entries": g["history"],
                    }
                )
    return rows


def standing_rows(data: TournamentView) -> list[Row]:
    """The standings with a column per tiebreak, named by its label."""
    labels = [x["name"] for x in data.get("tiebreak_labels") or []]
    out = []
    for s in data["standings"]:
        row: Row = {
            "rank": s["rank"],
            "name": s["name"],
            "seed": s["seed"],
            "points": s["points"],
            "wins": s["wins"],
            "losses": s["losses"],
            "byes": s["byes"],
            "games_won": s["game_wins"],
            "games_lost": s["game_losses"],
            "forfeit_wins": s["forfeit_wins"],
            "forfeit_losses": s["forfeit_losses"],
        }
        row.update(zip(labels, s["tiebreaks"], strict=False))
        out.append(row)
    return out


def log_rows(data: TournamentView) -> list[Row]:
    """The event log: every action and ruling with its time, who and the note."""
    out: list[Row] = []
    for a in data["actions"]:
        p = dict(a["payload"] or {})
        out.append(
            {
                "at": a["at"],
                "kind": a["kind"],
                "by": a["by"],
                "match": p.pop("match", None),
                "game": p.pop("game", None),
                "note": a["note"],
                "undone": a["undone"],
                "details": " ".join(
                    f"{k}={v}" for k, v in p.items() if k not in ("undone", "before")
                ),
            }
        )
    return out


def pick(d: Mapping[str, object], keys: Iterable[str]) -> Row:
    """The fields ``keys`` of a view, in that order (``None`` for one it lacks)."""
    return {k: d.get(k) for k in keys}


def event_document(data: TournamentView, users: Names) -> Row:
    """The whole event as one JSON document, from the event page's JSON (as a stranger sees
    it) and the names of the accounts its cards mention."""
    cards = card_rows(data, users)
    for r in cards:
        r["history"] = r.pop("history_entries")
    keys = (
        "id",
        "name",
        "game",
        "title",
        "format",
        "mode",
        "options",
        "schedule",
        "settings",
        "cap",
        "starts_at",
        "started_at",
        "finished_at",
        "status",
        "rated",
        "directors",
        "champion",
    )
    doc: Row = {
        "event": pick(data, keys),
        "entrants": data["entrants"],
        "standings": standing_rows(data),
        "ranking": data.get("ranking", []),
        "tiebreak_labels": data.get("tiebreak_labels", []),
        "round_titles": data.get("round_titles", []),
        "matches": [
            pick(
                m,
                (
                    "id",
                    "round",
                    "table",
                    "a_name",
                    "b_name",
                    "best_of",
                    "wins",
                    "winner_name",
                    "outcome",
                    "bye",
                ),
            )
            for rnd in data["rounds"]
            for m in rnd
        ],
        "cards": cards,
        "rulings": log_rows(data),
    }
    return doc


router = APIRouter()


async def gather(ctx: Context, event_id: str) -> tuple[TournamentView, Names]:
    """The event page's JSON as a stranger sees it, and the names of the accounts its cards
    mention (who entered, confirmed or acted on each)."""
    data = await ctx.event_json(event_id, None)
    ids = {g["reported_by"] for r in data["rounds"] for m in r for g in m["games"]}
    ids |= {g["confirmed_by"] for r in data["rounds"] for m in r for g in m["games"]}
    ids |= {
        h.get("by") for r in data["rounds"] for m in r for g in m["games"] for h in g["history"]
    }
    async with ctx.sessions() as db:
        users = await tournament_people.display_names(db, ids)
    return data, users


def attachment(name: str) -> dict[str, str]:
    return {"Content-Disposition": f'attachment; filename="{name}"'}


@router.get("/api/tournaments/{event_id}/scorecards.json")
async def cards_json(event_id: str, ctx: Ctx) -> JSONResponse:
    """Every game's score card as JSON, each with its whole history."""
    data, users = await gather(ctx, event_id)
    rows = card_rows(data, users)
    for r in rows:
        r["history"] = r.pop("history_entries")
    doc: Row = {
        "event": pick(data, ("id", "name", "game", "format", "mode")),
        "cards": rows,
    }
    return JSONResponse(doc, headers=attachment(f"scorecards-{event_id}.json"))


@router.get("/api/tournaments/{event_id}/scorecards.csv")
async def cards_csv(event_id: str, ctx: Ctx) -> Response:
    """Every game's score card as CSV (the history in one cell)."""
    data, users = await gather(ctx, event_id)
    text = csv_text(CARD_FIELDS, card_rows(data, users))
    return Response(text, media_type="text/csv", headers=attachment(f"scorecards-{event_id}.csv"))


@router.get("/api/tournaments/{event_id}/standings.csv")
async def standings_csv(event_id: str, ctx: Ctx) -> Response:
    """The standings as CSV, a column per tiebreak (named as on the page)."""
    data, _users = await gather(ctx, event_id)
    rows = standing_rows(data)
    fields = list(rows[0]) if rows else ["rank", "name"]
    return Response(
        csv_text(fields, rows),
        media_type="text/csv",
        headers=attachment(f"standings-{event_id}.csv"),
    )


@router.get("/api/tournaments/{event_id}/log.csv")
async def log_csv(event_id: str, ctx: Ctx) -> Response:
    """The event log as CSV: every ruling, forfeit, check-in … with its time and note."""
    data, _users = await gather(ctx, event_id)
    return Response(
        csv_text(LOG_FIELDS, log_rows(data)),
        media_type="text/csv",
        headers=attachment(f"log-{event_id}.csv"),
    )


@router.get("/api/tournaments/{event_id}/export.json")
async def export_json(event_id: str, ctx: Ctx) -> JSONResponse:
    """The whole event: settings, entrants, standings (with labels), every match and
    card with its history and times, the rulings and the champion."""
    data, users = await gather(ctx, event_id)
    doc = event_document(data, users)
    return JSONResponse(doc, headers=attachment(f"event-{event_id}.json"))
