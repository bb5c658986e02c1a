"""The queries the events, the bell and the ratings moved into the store (issue 31): results in
the order they were made final, game numbers that skip void games, the entrants counted with or
without those who withdrew, staff in the order they were named, the bell's unread count and
marking, the queued e-mails with their preferences, and the leaderboard (bots and bot accounts
on their own side, people who met too few opponents left out, by ordinal) — the same on SQLite
and PostgreSQL (a scratch database, with ``BONEYARD_TEST_POSTGRES_URL``)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

from boneyard.store import notifications, ratings, tournament_games, tournament_people, unit
from boneyard.store.db import AsyncSession, make_engine, migrate, sessionmaker, sqlite_url
from boneyard.store.models import User
from boneyard.store.tournaments import (
    Entrant,
    Notification,
    NotifyPrefs,
    PlayerRating,
    RatedPair,
    TournamentDirector,
    TournamentGame,
    TournamentRow,
)
from tests.services import needs_postgres, scratch_postgres

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def person(name: str, bot: bool = False) -> User:
    return User(
        display_name=name, display_key=name.lower(), username=name.lower(), is_guest=False,
        is_bot=bot, created_at=T0,
    )  # fmt: skip


async def fill(db: AsyncSession) -> dict[str, int]:
    """Three people and a bot account, an event with three entrants (one withdrew), five
    games of match ``r1m1`` (one void, two final out of id order), a co-director and a
    scorekeeper, notifications, ratings and rated pairs."""
    users = {n: person(n) for n in ("Ann", "Bob", "Cy")} | {"Robo": person("Robo", bot=True)}
    for u in users.values():
        unit.add(db, u)
    await unit.flush(db)
    ids = {n: u.id for n, u in users.items()}
    unit.add(db, TournamentRow(
        id="ev", name="Cup", game="highfive", format="swiss", mode="otb", options={},
        schedule="bo1", settings={}, cap=8, status="running", director_id=ids["Ann"],
        created_at=T0,
    ))  # fmt: skip
    await unit.flush(db)
    for n, status in (("Bob", "playing"), ("Cy", "withdrawn"), ("Robo", "playing")):
        unit.add(db, Entrant(
            event_id="ev", user_id=ids[n], name=n, checked_in=True, status=status, created_at=T0,
        ))  # fmt: skip
    for who, role, at in (("Cy", "scorekeeper", T0), ("Bob", "director", T0 - timedelta(1))):
        unit.add(db, TournamentDirector(event_id="ev", user_id=ids[who], role=role, created_at=at))
    for number, status, final in ((1, "confirmed", 2), (2, "void", None), (3, "confirmed", 1),
                                  (4, "reported", None), (5, "confirmed", None)):  # fmt: skip
        unit.add(db, TournamentGame(
            event_id="ev", match_id="r1m1", number=number, kind="game", status=status,
            side_a=1, side_b=3, final_seq=final, created_at=T0, updated_at=T0,
        ))  # fmt: skip
    for i in range(3):
        unit.add(db, Notification(
            user_id=ids["Bob"], kind="ready", title=f"note {i}", created_at=T0,
            mail="queued" if i else None,
        ))  # fmt: skip
    unit.add(db, NotifyPrefs(user_id=ids["Bob"], email="bob@example.org", by_email=True,
                             updated_at=T0))  # fmt: skip
    key = {n: f"u:{i}" for n, i in ids.items()} | {"greedy": "bot:greedy"}
    rated = {"Ann": (30.0, 3), "Bob": (35.0, 1), "Cy": (20.0, None), "Robo": (40.0, 5),
             "greedy": (45.0, 0)}  # fmt: skip
    for who, (mu, opponents) in rated.items():
        player = key[who]
        unit.add(db, PlayerRating(
            game="highfive", category="2p", player=player, name=player, mu=mu, sigma=2.0,
            games=12, updated_at=T0, opponents=opponents,
        ))  # fmt: skip
    a, b = key["Ann"], key["Bob"]
    for player, opponent, ago in ((a, b, 1), (a, b, 30), (b, a, 1), (a, "u:99", 2)):
        unit.add(db, RatedPair(game="highfive", category="2p", player=player,
                               opponent=opponent, rated_at=T0 - timedelta(hours=ago)))  # fmt: skip
    return ids


async def check(url: str) -> None:
    engine = make_engine(url)
    await migrate(engine)
    sessions = sessionmaker(engine)
    async with sessions() as db, db.begin():
        ids = await fill(db)
    async with sessions() as db:
        finals = await tournament_games.final_games(db, "ev")
        assert [g.number for g in finals] == [3, 1]  # by final_seq, not by id
        assert await tournament_games.last_final_seq(db, "ev") == 2
        assert sorted(await tournament_games.numbers_taken(db, "ev", "r1m1")) == [1, 3, 4, 5]
        waiting = await tournament_games.match_game_in(db, "ev", "r1m1", ["reported", "disputed"])
        assert waiting is not None and waiting.number == 4
        assert await tournament_games.match_game_in(db, "ev", "r1m1", ["playing"]) is None
        assert await tournament_people.entrant_count(db, "ev", withdrawn=True) == 3
        assert await tournament_people.entrant_count(db, "ev", withdrawn=False) == 2
        assert [e.name for e in await tournament_people.entrants_not_withdrawn(db, "ev")] == [
            "Bob",
            "Robo",
        ]
        assert await tournament_people.entrant_names(db, "ev") == {1: "Bob", 2: "Cy", 3: "Robo"}
        assert [tuple(r) for r in await tournament_people.staff(db, "ev")] == [
            (ids["Bob"], "Bob", "director"),
            (ids["Cy"], "Cy", "scorekeeper"),
        ]
        assert list(await tournament_people.staff_ids(db, "ev", "director")) == [ids["Bob"]]
        assert await tournament_people.display_names(db, [ids["Ann"], None, 999]) == {
            ids["Ann"]: "Ann"
        }
        assert (
            await tournament_people.tournaments_run_by(db, ids["Ann"], ["registration", "running"])
            == 1
        )
        bob = ids["Bob"]
        assert [n.title for n in await notifications.newest(db, bob, 0, 2)] == ["note 2", "note 1"]
        assert await notifications.unread(db, bob) == 3
        queued = await notifications.queued_mails(db, 10)
        assert [(n.title, p.email if p else None) for n, p in queued] == [
            ("note 1", "bob@example.org"),
            ("note 2", "bob@example.org"),
        ]
        best = await ratings.best_ratings(db, "highfive", "2p", 10, False, None)
        assert [r.player for r in best] == [f"u:{bob}", f"u:{ids['Ann']}", f"u:{ids['Cy']}"]
        ranked = await ratings.best_ratings(db, "highfive", "2p", 10, False, 3)
        assert [r.player for r in ranked] == [f"u:{ids['Ann']}", f"u:{ids['Cy']}"]
        bots = await ratings.best_ratings(db, "highfive", "2p", 10, True, None)
        assert [r.player for r in bots] == ["bot:greedy", f"u:{ids['Robo']}"]
        assert await ratings.people_rated(db, "highfive", "2p", None) == 3
        assert await ratings.people_rated(db, "highfive", "2p", 3) == 1
        a, b = f"u:{ids['Ann']}", f"u:{bob}"
        assert await ratings.rated_since(db, a, b, T0 - timedelta(days=1)) == 1
        met = await ratings.opponents_met(db, "highfive", "2p", [a, b, "u:7"])
        assert met == {a: 2, b: 1, "u:7": 0}
    async with sessions() as db, db.begin():
        await notifications.mark_read(db, bob, upto=2, at=T0)
    async with sessions() as db:
        assert await notifications.unread(db, bob) == 1
    await engine.dispose()


def test_on_sqlite(tmp_path: Path) -> None:
    asyncio.run(check(sqlite_url(tmp_path / "db.sqlite")))


@needs_postgres
def test_on_postgres() -> None:
    with scratch_postgres() as url:
        asyncio.run(check(url))
