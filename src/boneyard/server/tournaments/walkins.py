"""Entrants at a venue, at work: walk-ins the director enters by name (one, a pasted list, or a
CSV of names, clubs and seeds) with no account; their claim by a person's account (a code the
director hands out, or the director links it), which moves their games and rating; and the
drop of everyone not checked in when check-in closes (docs/tournaments-site.md, "At the venue").

A walk-in is an entrant with neither an account nor a bot: they play over the board, and the
director (or a scorekeeper) enters their cards. Their rating is kept under ``w:<entrant id>``
until the entry is claimed. (The routes are :mod:`~boneyard.server.tournaments.venue`.)
"""

from __future__ import annotations

import csv
import io
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from boneyard.server import validation
from boneyard.server.accounts.service import Me
from boneyard.server.errors import NotFound, Refused
from boneyard.server.ratings import store as ratings_store
from boneyard.server.tables.clock import now
from boneyard.server.tournaments.entry import (
    count_entrants,
    director_event,
    enter,
    late_entry,
    may_enter,
)
from boneyard.server.tournaments.scorecards import player_key, rated_cards, walk_in_key
from boneyard.server.tournaments.service import Tournaments
from boneyard.store import ratings as stored_ratings
from boneyard.store import tournament_people, unit
from boneyard.store.db import AsyncSession
from boneyard.store.models import User
from boneyard.store.statuses import EntrantStatus, TournamentStatus
from boneyard.store.tournaments import Entrant, TournamentRow
from boneyard.tournament.ratings import rate_game

MOST = 256
"""The most entrants one list may hold (an event's largest cap)."""
CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""A claim code's letters: none that reads like another (0/O, 1/I/L)."""
HEADERS = {"name": "name", "player": "name", "entrant": "name", "club": "club", "seed": "seed"}


@dataclass(frozen=True, slots=True)
class WalkIn:
    """One entrant of a list: their name, club and seed (``line``: where, for refusals)."""

    name: str
    club: str | None = None
    seed: int | None = None
    line: int = 1


def new_code() -> str:
    """A claim code, ``XXXX-XXXX`` (31⁸ ≈ 8.5e11 of them: guessing one is hopeless under the
    ``claims`` rate limit)."""
    raw = "".join(secrets.choice(CODE_LETTERS) for _ in range(8))
    return f"{raw[:4]}-{raw[4:]}"


def normal_code(text: str) -> str:
    """A typed code as stored: capitals, one dash (spaces and dashes typed anywhere).

    >>> normal_code(" abcd efgh "), normal_code("ABCD-EFGH"), normal_code("ab")
    ('ABCD-EFGH', 'ABCD-EFGH', 'AB')
    """
    raw = re.sub(r"[^0-9A-Za-z]", "", text).upper()
    return f"{raw[:4]}-{raw[4:]}" if len(raw) == 8 else raw


def one(line: int, name: str, club: str | None = None, seed: str | None = None) -> WalkIn:
    """One entrant of a list, checked (400 naming the line otherwise)."""
    name = " ".join(name.split())
    where = f"line {line}: " if line else ""
    if not name:
        raise Refused(f"{where}the name is empty")
    if len(name) > 40 or not validation.storable(name):
        raise Refused(f"{where}a name has at most 40 letters ({name[:40]}…)")
    club = " ".join((club or "").split()) or None
    if club is not None and (len(club) > 60 or not validation.storable(club)):
        raise Refused(f"{where}a club's name has at most 60 letters")
    number = None
    if seed and seed.strip():
        if not seed.strip().isdigit() or not 1 <= int(seed) <= MOST:
            raise Refused(f"{where}the seed of {name} must be a whole number from 1 to {MOST}")
        number = int(seed)
    return WalkIn(name, club, number, line)


def parse_list(text: str, as_csv: bool) -> list[WalkIn]:
    """The entrants of a pasted list (a name a line; a line pasted from a spreadsheet: name,
    club and seed split by tabs) or of a CSV file (columns ``name``, ``club``, ``seed`` named
    in a first row, or in that order without one). Blank lines are skipped."""
    text = text.lstrip("\ufeff")
    if as_csv:
        try:
            rows = list(csv.reader(io.StringIO(text)))
        except csv.Error as exc:
            raise Refused(f"that is not a CSV file this can read ({exc})") from None
    else:
        rows = [line.split("\t") for line in text.splitlines()]
    found = [(i + 1, r) for i, r in enumerate(rows) if any(c.strip() for c in r)]
    if not found:
        raise Refused("the list is empty: one name a line")
    columns = ["name", "club", "seed"]
    head = [HEADERS.get(c.strip().casefold()) for c in found[0][1]]
    if "name" in head:
        columns = [c or "" for c in head]
        found = found[1:]
    if len(found) > MOST:
        raise Refused(f"a list holds at most {MOST} entrants")
    out = []
    for line, row in found:
        cells = dict(zip(columns, row, strict=False))
        out.append(one(line, cells.get("name", ""), cells.get("club"), cells.get("seed")))
    return out


def checked_list(items: Sequence[WalkIn], taken: dict[str, str], seeds: set[int]) -> None:
    """Refuse (400, naming the line) a name entered twice or a seed already given."""
    seen: dict[str, int] = {}
    given: set[int] = set()
    for w in items:
        key = w.name.casefold()
        where = f"line {w.line}: " if len(items) > 1 else ""
        if key in taken or key in seen:
            raise Refused(
                f"{where}{w.name} is already entered (two people of one name: add an initial or "
                "their club to one of them)"
            )
        seen[key] = w.line
        if w.seed is not None and (w.seed in seeds or w.seed in given):
            raise Refused(f"{where}seed {w.seed} is already given")
        if w.seed is not None:
            given.add(w.seed)


async def add(
    svc: Tournaments, event_id: str, items: Sequence[WalkIn], here: bool, by: int
) -> list[Entrant]:
    """A director (or scorekeeper) enters walk-ins by name: over-the-board tournaments, before the
    start (a Swiss event with late entry: until its last round is paired), checked in when
    ``here``. Seeds given make the seeding ``manual``; nothing is added on a refusal."""
    async with svc.lock(event_id):
        async with svc.sessions() as db, db.begin():
            ev = await svc.need_event(db, event_id)
            await svc.need_scorekeeper(db, ev, by)
            if ev.mode != "otb":
                raise Refused(
                    "entrants without an account play over the board: this event is online"
                )
            if ev.status != TournamentStatus.REGISTRATION and not late_entry(ev):
                raise Refused("the event has started: it takes no new entrants")
            have = await count_entrants(db, event_id)
            if have + len(items) > ev.cap:
                room = max(0, ev.cap - have)
                raise Refused(
                    f"the event takes {ev.cap} entrants and has {have}: {room} more fit, "
                    f"not {len(items)} (raise the cap in Settings)"
                )
            rows = await tournament_people.entrants(db, event_id)
            taken = {e.name.casefold(): e.name for e in rows}
            checked_list(items, taken, {e.seed for e in rows if e.seed is not None})
            added = [await enter_one(db, ev, w, here) for w in items]
            if any(w.seed is not None for w in items):
                ev.settings = {**ev.settings, "seeding": "manual"}
            await unit.flush(db)
            names = [e.name for e in added]
            Tournaments.action(db, ev, by, "walk_in", {"count": len(added), "names": names}, None)
        if ev.status != TournamentStatus.REGISTRATION:
            await svc.advance_locked(event_id)
    return added


async def enter_one(db: AsyncSession, ev: TournamentRow, w: WalkIn, here: bool) -> Entrant:
    """One walk-in added to ``ev`` (late entry into a running Swiss event: paired from the
    next round, checked in)."""
    e = Entrant(
        event_id=ev.id,
        user_id=None,
        bot=None,
        name=w.name,
        club=w.club,
        seed=w.seed,
        claim_code=new_code(),
        checked_in=here,
        status=EntrantStatus.REGISTERED,
        created_at=now(),
    )
    await enter(db, ev, e)
    return e


async def drop_absent(svc: Tournaments, event_id: str, note: str, by: int) -> int:
    """Close check-in and drop everyone not checked in (before the start): they are not in the
    draw, and keep their entry (status ``withdrawn``, listed as dropped; the director may check
    one in again before the start). Returns how many were dropped."""
    async with svc.lock(event_id), svc.sessions() as db, db.begin():
        ev = await director_event(svc, db, event_id, by)
        if ev.status != TournamentStatus.REGISTRATION:
            raise Refused("the event has started: its draw is made")
        rows = await tournament_people.entrants_not_checked_in(db, event_id)
        for e in rows:
            e.status = EntrantStatus.WITHDRAWN
        ev.settings = {**ev.settings, "checkin": "closed"}
        payload = {"entrants": [e.id for e in rows], "names": [e.name for e in rows]}
        Tournaments.action(db, ev, by, "drop_absent", payload, note)
        return len(rows)


async def claim(
    svc: Tournaments,
    person: Me | User,
    code: str | None = None,
    event_id: str | None = None,
    entrant_id: int | None = None,
    by: int | None = None,
) -> tuple[str, int]:
    """``person`` (an account) takes the walk-in entry with claim ``code`` (any event), or the
    one director ``by`` links (``event_id``, ``entrant_id``): its games are theirs from now on.
    Returns the event's id and the entrant's; the rating moves after the commit
    (:func:`move_rating`)."""
    async with svc.sessions() as db:
        e = await find_walk_in(db, event_id, code, entrant_id)
        found_event = e.event_id
    async with svc.lock(found_event), svc.sessions() as db, db.begin():
        ev = await svc.need_event(db, found_event)
        if by is not None:
            await svc.need_director(db, ev, by)
        e = await find_walk_in(db, found_event, code, entrant_id)
        if await svc.role_of(db, ev, person.id) is not None:
            raise Refused(f"{person.display_name} runs this event and cannot play in it")
        mine = await tournament_people.entrant_id_of(db, ev.id, person.id)
        if mine is not None:
            raise Refused(f"{person.display_name} is already an entrant of {ev.name}")
        may_enter(ev, bool(person.is_bot))
        e.user_id, e.claim_code = person.id, None
        how = "code" if code is not None else "director"
        payload = {"entrant": e.id, "name": e.name, "account": person.display_name, "by": how}
        Tournaments.action(db, ev, person.id if by is None else by, "claim", payload, None)
        text = f"Your entry {e.name} in {ev.name} is now on your account, with its games"
        await svc.notes.add(db, [person.id], "claim", text, ev.name, f"/tournaments/{ev.id}", ev.id)
        return ev.id, e.id


async def find_walk_in(
    db: AsyncSession, event_id: str | None, code: str | None, entrant_id: int | None
) -> Entrant:
    """The unclaimed walk-in with ``code``, or entrant ``entrant_id`` of ``event_id``."""
    if code is not None:
        e = await tournament_people.entrant_by_code(db, normal_code(code))
        if e is None or e.user_id is not None or e.bot is not None:
            raise NotFound("no walk-in entry has that code: check it with the director")
        return e
    found = await unit.get(db, Entrant, entrant_id or 0)
    if found is None or found.event_id != event_id:
        raise NotFound("no such entrant")
    if found.user_id is not None or found.bot is not None:
        raise Refused(f"{found.name} already plays with an account (or is a bot)")
    return found


async def move_rating(svc: Tournaments, game: str, entrant_id: int, person: Me | User) -> None:
    """Move a claimed walk-in's rating (``w:<entrant>``) to the account (``u:<id>``): the row
    itself when the account has none in that game, else the walk-in's rated cards rated again
    for the account, in order, against their opponents' ratings as they are now (an opponent's
    rating does not change twice). The walk-in's row is then gone."""
    src_key, dst_key = walk_in_key(entrant_id), f"u:{person.id}"
    async with svc.sessions() as db, db.begin():
        rows = await stored_ratings.rating_rows(db, game, "2p", [src_key, dst_key])
        src, dst = rows.get(src_key), rows.get(dst_key)
        if src is None:
            return
        if dst is None:
            src.player, src.name = dst_key, str(person.display_name)[:40]
            return
        mine = ratings_store.as_rating(dst)
        for g in await rated_cards(db, entrant_id):
            first = g.side_a == entrant_id
            opp = await unit.get(db, Entrant, g.side_b if first else g.side_a)
            key = player_key(opp) if opp is not None else None
            found = await stored_ratings.rating_rows(db, game, "2p", [key] if key else [])
            theirs = ratings_store.as_rating(found.get(key or ""))
            pair = [mine, theirs] if first else [theirs, mine]
            winner = 0 if g.winner == g.side_a else 1
            new = rate_game(pair, [g.score_a or 0, g.score_b or 0], winner, "2p")
            mine = new[0 if first else 1]
        dst.mu, dst.sigma, dst.games, dst.updated_at = mine.mu, mine.sigma, mine.games, now()
        await unit.delete(db, src)
