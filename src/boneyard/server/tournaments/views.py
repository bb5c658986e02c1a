"""What the event pages show, as JSON: the event, its entrants and log, and its results —
rounds with titles and table numbers, every match marked by how it ended, standings with
labelled tiebreak columns, crosstables, the bracket's layout and the winner.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import cast

from boneyard.games.registry import get_spec
from boneyard.server.accounts.service import Me
from boneyard.server.rules.service import changed_options
from boneyard.server.tables.clock import aware
from boneyard.server.tournaments import cardtext
from boneyard.server.tournaments.service import DIRECTOR, SCOREKEEPER
from boneyard.server.tournaments.settings import DEFAULTS, checkin_open, clock_rule, setting
from boneyard.server.tournaments.viewtypes import (
    ActionView,
    ChampionView,
    CrosstableView,
    EntrantView,
    GameFacts,
    GameView,
    HistoryEntry,
    LabelView,
    ListedView,
    MatchEventView,
    MatchPageView,
    MatchView,
    MeView,
    Names,
    ResultsView,
    SectionView,
    StandingLine,
    TournamentView,
    WaitView,
)
from boneyard.store import tournament_games, tournament_people, unit
from boneyard.store.db import AsyncSession
from boneyard.store.models import User
from boneyard.store.statuses import EntrantStatus, TournamentStatus
from boneyard.store.tournament_queries import match_games
from boneyard.store.tournaments import (
    Entrant,
    TournamentAction,
    TournamentDirector,
    TournamentGame,
    TournamentRow,
)
from boneyard.tournament import (
    DoubleElimination,
    Pools,
    RoundRobin,
    SingleElimination,
    Swiss,
    Tournament,
    TournamentError,
    tournament_from_json,
)
from boneyard.tournament.crosstable import Crosstable
from boneyard.tournament.labels import Label, outcome_label
from boneyard.tournament.match import Match

FORMATS = {
    "single_elimination": "single elimination",
    "double_elimination": "double elimination",
    "swiss": "Swiss",
    "round_robin": "round robin",
    "pools": "pools, then a bracket",
}
CROSSTABLE_MAX = 32
"""Swiss tournaments up to this size get a crosstable (round robins and pools always do)."""


def iso(t: datetime | None) -> str | None:
    """A stored time as ISO text (with its zone)."""
    return aware(t).isoformat() if t is not None else None


def label_json(x: Label) -> LabelView:
    """A result mark or a standings criterion, as the pages show it."""
    return {"key": x.key, "name": x.name, "short": x.short, "explanation": x.explanation}


def game_json(g: TournamentGame, names: Names, users: Names) -> GameView:
    """A game row for the pages (and the exports), with its card in words (cardtext)."""
    out: GameFacts = {
        "id": g.id,
        "number": g.number,
        "kind": g.kind,
        "table_id": g.table_id,
        "status": g.status,
        "side_a": g.side_a,
        "side_b": g.side_b,
        "score_a": g.score_a,
        "score_b": g.score_b,
        "winner": g.winner,
        "winner_name": names.get(g.winner) if g.winner is not None else None,
        "reason": g.reason,
        "reason_label": label_json(outcome_label(g.reason)) if g.reason else None,
        "note": g.note,
        "reported_by": g.reported_by,
        "reported_by_name": users.get(g.reported_by) if g.reported_by else None,
        "confirmed_by": g.confirmed_by,
        "by_director": bool(g.by_director),
        "paper": bool(g.paper),
        "signed_a": g.signed_a,
        "signed_b": g.signed_b,
        "signed_a_at": iso(g.signed_a_at),
        "signed_b_at": iso(g.signed_b_at),
        "history": cast(list[HistoryEntry], list(g.history or [])),
        "final": g.final_seq is not None,
        "created_at": iso(g.created_at),
        "updated_at": iso(g.updated_at),
    }
    a_name, b_name = names.get(g.side_a or 0, "?"), names.get(g.side_b or 0, "?")
    return {
        **out,
        "how": cardtext.how(out, names, users),
        "history_text": [
            {"at": at, "text": text}
            for at, text in cardtext.history_entries(out, names, users, a_name, b_name)
        ],
    }


def user_ids(games: Sequence[TournamentGame]) -> set[int]:
    """The accounts a list of game rows names (who entered, confirmed, or acted on a card)."""
    ids = {x for g in games for x in (g.reported_by, g.confirmed_by) if x}
    ids |= {h["by"] for g in games for h in g.history or [] if isinstance(h.get("by"), int)}
    return ids


async def user_names(db: AsyncSession, ids: set[int]) -> dict[int, str]:
    """Display names of accounts by id."""
    return await tournament_people.display_names(db, ids)


def match_json(
    t: Tournament,
    m: Match,
    names: Names,
    games: list[GameView],
    table: int | None,
    waits: list[WaitView],
) -> MatchView:
    """A match of the tournament value with its names, game rows and marks, its table number,
    the sides it waits for, and what it is (``kind``, ``title``: the tournament's names)."""
    a = int(m.a) if m.a is not None else None
    b = int(m.b) if m.b is not None else None
    winner = int(m.winner) if m.winner is not None else None
    outcome = m.outcome
    return {
        "id": m.id,
        "round": m.round,
        "index": m.index,
        "a": a,
        "b": b,
        "a_name": names.get(a) if a is not None else None,
        "b_name": names.get(b) if b is not None else None,
        "best_of": m.best_of,
        "wins": list(m.wins),
        "winner": winner,
        "winner_name": names.get(winner) if winner is not None else None,
        "bye": m.bye,
        "forfeit": int(m.forfeit) if m.forfeit is not None else None,
        "outcome": outcome,
        "outcome_label": label_json(outcome_label(outcome)) if outcome else None,
        "over": m.is_over,
        "ready": m.is_ready,
        "games": games,
        "table": table,
        "waiting": waits,
        "kind": t.match_kind(m.id),
        "title": t.match_title(m.id),
    }


@dataclass(frozen=True, slots=True)
class Rows:
    """The rows an event's page is built from: its entrants, game rows in order, log, staff
    ``(account, name, role)`` and the names of the accounts they mention."""

    entrants: Sequence[Entrant]
    games: Sequence[TournamentGame]
    actions: Sequence[TournamentAction]
    directors: list[tuple[int, str, str]]
    users: Names


async def load(db: AsyncSession, ev: TournamentRow) -> Rows:
    """The rows an event's page needs."""
    entrants = await tournament_people.entrants(db, ev.id)
    games = await tournament_games.games_in_order(db, ev.id)
    actions = await tournament_games.actions(db, ev.id)
    owner = await unit.get(db, User, ev.director_id)
    staff = await tournament_people.staff(db, ev.id)
    directors = [(ev.director_id, owner.display_name if owner else "?", DIRECTOR)]
    directors += [(int(r[0]), str(r[1]), str(r[2])) for r in staff]
    who = await user_names(db, {a.user_id for a in actions if a.user_id} | user_ids(games))
    return Rows(entrants, games, actions, directors, who)


def base_json(ev: TournamentRow, rows: Rows, user: Me | None) -> TournamentView:
    """Everything but the results."""
    entrants = rows.entrants
    mine = next((e for e in entrants if user is not None and e.user_id == user.id), None)
    staff = rows.directors
    directors = [d for d in staff if d[2] == DIRECTOR]
    role = next((d[2] for d in staff if user is not None and d[0] == user.id), None)
    draw = set((ev.settings or {}).get("draw") or [])
    open_, why = checkin_open(ev)
    settings = {k: setting(ev, k) for k in DEFAULTS}
    return {
        "id": ev.id,
        "name": ev.name,
        "game": ev.game,
        "title": get_spec(ev.game).title,
        "format": ev.format,
        "format_name": FORMATS.get(ev.format, ev.format),
        "mode": ev.mode,
        "options": ev.options,
        "rules": changed_options(ev.game, ev.options or {}),
        "schedule": ev.schedule,
        "settings": settings,
        "clock": clock_rule(ev),
        "cap": ev.cap,
        "starts_at": iso(ev.starts_at),
        "started_at": iso(ev.started_at),
        "finished_at": iso(ev.finished_at),
        "status": ev.status,
        "rated": ev.rated,
        "checkin": {"open": open_, "why": why, "by_hand": settings["checkin"]},
        "director": {"id": ev.director_id, "name": directors[0][1] if directors else "?"},
        "directors": [
            {"id": d[0], "name": d[1], "owner": d[0] == ev.director_id} for d in directors
        ],
        "scorekeepers": [{"id": d[0], "name": d[1]} for d in staff if d[2] == SCOREKEEPER],
        "entrants": [entrant_json(e, role is not None, draw) for e in entrants],
        "rounds": [],
        "standings": [],
        "champion": None,
        "actions": [action_json(a, rows.users) for a in rows.actions],
        "me": me_json(ev, mine, role, user),
        "join_code": setting(ev, "join_code") if role == DIRECTOR else None,
    }


def me_json(ev: TournamentRow, mine: Entrant | None, role: str | None, user: Me | None) -> MeView:
    """Who the viewer is in the event: their entrant, whether they direct, keep the score
    cards (``scorekeeper``: the console's cards and check-in only) or own it."""
    return {
        "entrant": mine.id if mine else None,
        "director": role == DIRECTOR,
        "scorekeeper": role == SCOREKEEPER,
        "owner": user is not None and user.id == ev.director_id,
    }


def listed_json(ev: TournamentRow, director: str, entrants: int) -> ListedView:
    """An event in the list of tournaments."""
    return {
        "id": ev.id,
        "name": ev.name,
        "game": ev.game,
        "format": ev.format,
        "mode": ev.mode,
        "schedule": ev.schedule,
        "status": ev.status,
        "cap": ev.cap,
        "entrants": int(entrants or 0),
        "starts_at": ev.starts_at.isoformat() if ev.starts_at else None,
        "director": director,
    }


async def match_page_json(
    db: AsyncSession, ev: TournamentRow, match_id: str, user: Me | None
) -> MatchPageView | None:
    """The match page's JSON (``None``: no such match): the match as on the event page, with
    its games, table and waits, and the few fields of the event it shows. Only the match's
    rows are read."""
    if ev.bracket is None:
        return None
    t = tournament_from_json(ev.bracket)
    found = [(r, m) for r, rnd in enumerate(t.rounds) for m in rnd if m.id == match_id]
    if not found:
        return None
    r, m = found[0]
    entrants = await tournament_people.entrants(db, ev.id)
    names = {e.id: e.name for e in entrants}
    rows = await match_games(db, ev.id, match_id)
    users = await user_names(db, user_ids(rows))
    games = [game_json(g, names, users) for g in rows]
    tables = (ev.settings or {}).get("tables") or {}
    waits = waiting(ev, entrants, t).get(m.id, [])
    match = match_json(t, m, names, games, tables.get(m.id), waits)
    mine = next((e for e in entrants if user is not None and e.user_id == user.id), None)
    staff = await unit.get(db, TournamentDirector, (ev.id, user.id)) if user is not None else None
    role = DIRECTOR if user is not None and user.id == ev.director_id else None
    role = role or (staff.role if staff is not None else None)
    titles = t.round_titles()
    event: MatchEventView = {
        "id": ev.id,
        "name": ev.name,
        "mode": ev.mode,
        "status": ev.status,
        "me": me_json(ev, mine, role, user),
        "format": ev.format,
        "round_title": titles[r] if r < len(titles) else "",
    }
    return {"event": event, "match": match}


def entrant_json(e: Entrant, staff: bool = False, draw: set[str] | None = None) -> EntrantView:
    """An entrant row: ``walk_in`` (entered by name, no account), ``dropped`` (not checked in
    when check-in closed: not in the draw); the claim code only for the event's staff."""
    walk_in = e.user_id is None and e.bot is None
    return {
        "id": e.id,
        "name": e.name,
        "club": e.club,
        "bot": e.bot,
        "user_id": e.user_id,
        "walk_in": walk_in,
        "claim_code": e.claim_code if staff else None,
        "checked_in": e.checked_in,
        "status": e.status,
        "dropped": e.status == EntrantStatus.WITHDRAWN and not (draw and str(e.id) in draw),
        "seed": e.seed,
        "registered_at": iso(e.created_at),
    }


def action_json(a: TournamentAction, users: Names) -> ActionView:
    """An entry of the event log."""
    return {
        "id": a.id,
        "kind": a.kind,
        "payload": a.payload,
        "note": a.note,
        "by": users.get(a.user_id) if a.user_id is not None else None,
        "at": iso(a.created_at),
        "undone": bool((a.payload or {}).get("undone")),
    }


async def event_json(db: AsyncSession, ev: TournamentRow, user: Me | None) -> TournamentView:
    """The event page's JSON: everything, and the results once the event has started (the
    results' keys that the base has keep their place; the others follow)."""
    rows = await load(db, ev)
    out = base_json(ev, rows, user)
    if ev.bracket is None:
        return out
    names = {e.id: e.name for e in rows.entrants}
    by_match: dict[str, list[GameView]] = {}
    for g in rows.games:
        by_match.setdefault(g.match_id, []).append(game_json(g, names, rows.users))
    results = results_json(ev, tournament_from_json(ev.bracket), names, by_match, rows.entrants)
    return {**out, **results}


def results_json(
    ev: TournamentRow,
    t: Tournament,
    names: Names,
    by_match: dict[str, list[GameView]],
    entrants: Sequence[Entrant],
) -> ResultsView:
    """Rounds, standings with their labels, crosstables, the bracket's layout, the winner."""
    waits = waiting(ev, entrants, t)
    tables = (ev.settings or {}).get("tables") or {}
    rounds = [
        [
            match_json(t, m, names, by_match.get(m.id, []), tables.get(m.id), waits.get(m.id, []))
            for m in rnd
        ]
        for rnd in t.rounds
    ]
    champion = int(t.champion) if t.champion is not None else None
    return {
        "num_rounds": t.num_rounds,
        "current_round": t.current_round,
        "round_titles": list(t.round_titles()),
        "rounds": rounds,
        "standings": [
            cast(StandingLine, {**s.to_json(), "name": names.get(int(s.entrant), s.entrant)})
            for s in t.standings()
        ],
        "ranking": [label_json(x) for x in t.ranking()],
        "tiebreak_labels": [label_json(x) for x in t.tiebreak_labels()],
        "crosstables": crosstables(t, names),
        "sections": sections(t),
        "champion": champion_json(champion, names),
    }


def champion_json(champion: int | None, names: Names) -> ChampionView | None:
    """The winner (``None`` while the event runs)."""
    return {"id": champion, "name": names.get(champion)} if champion else None


def waiting(
    ev: TournamentRow, entrants: Sequence[Entrant], t: Tournament
) -> dict[str, list[WaitView]]:
    """For each ready match, the sides not checked in and when their grace ends."""
    if ev.status not in (TournamentStatus.RUNNING, TournamentStatus.PAUSED):
        return {}
    late = {e.id: e for e in entrants if not e.checked_in and e.status == EntrantStatus.PLAYING}
    grace = timedelta(minutes=float(setting(ev, "grace_minutes")))
    out: dict[str, list[WaitView]] = {}
    for mid, since in ((ev.settings or {}).get("ready") or {}).items():
        try:
            m = t.match(mid)
        except TournamentError:
            continue
        until = aware(datetime.fromisoformat(since)) + grace
        out[mid] = [
            {"entrant": int(x), "name": late[int(x)].name, "until": until.isoformat()}
            for x in m.sides
            if x is not None and int(x) in late
        ]
    return out


def crosstables(t: Tournament, names: Names) -> list[CrosstableView]:
    """The crosstables the format has: a round robin's, each pool's, a small Swiss event's."""
    found: list[tuple[str, Crosstable]] = []
    if isinstance(t, RoundRobin) or (isinstance(t, Swiss) and len(t.entrants) <= CROSSTABLE_MAX):
        found = [("Crosstable", t.crosstable())]
    elif isinstance(t, Pools):
        found = [(f"Pool {i + 1}", t.crosstable(i + 1)) for i in range(len(t.groups))]
    out: list[CrosstableView] = []
    for title, table in found:
        doc = table.to_json()
        names_ = [names.get(int(e), e) for e in doc["order"]]
        out.append({"order": doc["order"], "rows": doc["rows"], "title": title, "names": names_})
    return out


def sections(t: Tournament) -> list[SectionView]:
    """How to draw the bracket: sections of columns (indices into ``rounds``) with each
    column's slot count (a column of half the slots feeds the next in pairs)."""
    offset = 0
    bracket: Tournament | SingleElimination | DoubleElimination = t
    if isinstance(t, Pools):
        if t.bracket is None:
            return []
        offset, bracket = t.pool_rounds, t.bracket
    if isinstance(bracket, SingleElimination):
        k = len(bracket.rounds)
        third = bracket.rounds[-1][1].id if len(bracket.rounds[-1]) > 1 else None
        cols = [(offset + r, 1 << (k - 1 - r)) for r in range(k)]
        return [{"title": "Bracket", "columns": cols, "third_place": third}]
    if isinstance(bracket, DoubleElimination):
        k = bracket.k
        size = 1 << k
        winners = [(offset + r, size >> (r + 1)) for r in range(k)]
        losers = [(offset + k + lr - 1, size >> ((lr + 1) // 2 + 1)) for lr in range(1, 2 * k - 1)]
        finals = [(offset + r, 1) for r in range(3 * k - 2, len(bracket.rounds))]
        return [
            {"title": "Winners' bracket", "columns": winners},
            {"title": "Losers' bracket", "columns": losers},
            {"title": "Grand final", "columns": finals},
        ]
    return []
