"""Seats have a schema (boneyard.store.seats), checked on every read and write of a table row:
the previous release's stored seats load as they were, and a malformed list fails at once, with
what is wrong, whether it is stored already or about to be."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.exc import StatementError

from boneyard.store.db import make_engine, migrate, sessionmaker, sqlite_url
from boneyard.store.models import GameTable
from boneyard.store.seats import BotSeat, PersonSeat, SeatsError, dump_seats, load_seats
from boneyard.store.statuses import SeatKind, TableStatus

FIXTURE = Path(__file__).parents[1] / "fixtures" / "previous_release" / "boneyard.db"
AT = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)


def test_every_seat_the_previous_release_stored_loads_and_dumps_back_the_same() -> None:
    con = sqlite3.connect(f"file:{FIXTURE}?mode=ro", uri=True)
    stored = [json.loads(s) for (s,) in con.execute("SELECT seats FROM game_tables")]
    kinds = set()
    for seats in stored:
        loaded = load_seats(seats)
        kinds |= {(s.kind, s.replaced is not None, s.resigned, s.invited is not None,
                   s.reclaimed_at is not None) for s in loaded}  # fmt: skip
        # Only an open seat's ``"name": null`` is left out (it is the default).
        assert dump_seats(loaded) == [
            {k: v for k, v in s.items() if not (k == "name" and v is None)} for s in seats
        ]
    assert kinds >= {
        (SeatKind.PERSON, False, False, False, False),
        (SeatKind.PERSON, False, False, False, True),  # took the seat back from a bot
        (SeatKind.BOT, False, False, False, False),
        (SeatKind.BOT, True, True, False, False),  # resigned: a bot plays it out
        (SeatKind.OPEN, False, False, False, False),
        (SeatKind.OPEN, False, False, True, False),  # kept for a challenged bot account
    }


@pytest.mark.parametrize(
    ("seats", "why"),
    [
        ([{"kind": "person", "name": "Ann"}], "0.person.user_id: Field required"),
        ([{"kind": "robot", "bot": "x"}], "0: Input tag 'robot' found using 'kind'"),
        ([{"kind": "bot", "name": "B"}], "0.bot.bot: Field required"),
        ([{"kind": "open", "user_id": 3}], "0.open.user_id: Input should be None"),
        ([{"kind": "person", "user_id": 1, "name": "A", "colour": "red"}], "Extra inputs"),
        ({"kind": "open"}, "Input should be a valid list"),
    ],
)
def test_a_malformed_seat_list_is_refused_with_what_is_wrong(seats: object, why: str) -> None:
    with pytest.raises(SeatsError, match="a seat does not fit") as err:
        load_seats(seats)
    assert why in str(err.value)


async def read_and_write(path: Path) -> None:
    engine = make_engine(sqlite_url(path))
    await migrate(engine)
    good = [PersonSeat(user_id=1, name="Ann"), BotSeat(bot="greedy", name="Greedy bot 2")]
    async with sessionmaker(engine)() as db, db.begin():
        db.add(GameTable(id="t", game="highfive", options={}, seats=good,
                         status=TableStatus.OPEN, created_at=AT))  # fmt: skip
    async with sessionmaker(engine)() as db:
        row = await db.get(GameTable, "t")
        assert row is not None and row.seats == good
        row.seats = [{"kind": "person", "name": "Bob"}]  # type: ignore[list-item]
        with pytest.raises(StatementError, match=r"person\.user_id: Field required"):
            await db.commit()  # refused before any SQL
    async with engine.begin() as conn:  # a row broken outside the code: reading it says so
        await conn.execute(sa.text("""UPDATE game_tables SET seats = '[{"kind": "bot"}]'"""))
    async with sessionmaker(engine)() as db:
        with pytest.raises(SeatsError, match=r"0\.bot\.bot: Field required"):
            await db.get(GameTable, "t")
    await engine.dispose()


def test_seats_are_checked_when_written_and_when_read(tmp_path: Path) -> None:
    asyncio.run(read_and_write(tmp_path / "seats.db"))
