"""Leaving and going again: resign, abort, claim, rematch, play again (docs/server.md).

* **Resign** (``{"type": "resign"}``, a seated person, the game in play): with two players the
  opponent wins at once; with three or four a bot plays the seat out and the seat is placed last
  (docs/rules-notes.md): it can never be the table's winner and rates last.
* **Abort** (``{"type": "abort"}``): before every seat has moved in the first hand; the table
  ends with no result and no rating (status ``aborted``).
* **Claim** (``{"type": "claim", "seat": s, "how": "win" | "bot"}``): once seat ``s``'s person
  has been disconnected for ``claim_after`` seconds (a minute: ``live.CLAIM_AFTER``, or the
  site's ``--claim-after``), with a clock or without; or, at a table without a clock, once it has
  been their turn for ``stall_after`` seconds (three minutes, ``--stall-after``; connected or not:
  the clock's ``stall``): the win (two players), or a bot plays the seat until its person takes
  it back (like the clock's abandonment; ``seat_changes`` event ``handed``).
* **Rematch** (``{"type": "rematch"}``, at the game's end): the same seats and options at a new
  table, made when every person has accepted (bots accept at once); every socket learns its id.
* **Play again** (``POST /api/tables/{id}/again``): a new table of the same game and options,
  you and the same bots, the other people's seats open.

An early ending is kept in ``settings["ending"]`` (``{reason, seat, winner, scores, hand,
at}``) and the record's ``meta.ending`` (docs/records.md); it is committed before any socket
hears of it. Tournament tables refuse all of this: their director decides forfeits.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from boneyard.core.errors import BoneyardError, IllegalActionError
from boneyard.core.protocol import JSON
from boneyard.server.tables import presence, tableview
from boneyard.server.tables.clock import DEFAULT_BOT, FALLBACK_BOT
from boneyard.server.tables.commands import Abort, Claim, Rematch, Resign
from boneyard.server.tables.live import LiveTable, now
from boneyard.server.tables.manager import TableManager
from boneyard.server.tables.tableview import abortable
from boneyard.store import livetables
from boneyard.store.seats import BotSeat, OpenSeat, PersonSeat, Seat
from boneyard.store.statuses import SeatChange, TableStatus

if TYPE_CHECKING:
    from boneyard.server.lobby.service import Lobby


def stand_in(table: LiveTable) -> str:
    """The bot level that plays a seat its person left: the clock's, else ``medium`` (``greedy``
    for a game the searching bots cannot play)."""
    from boneyard.bots.expert import GAMES_WITH_SEARCH

    level = ((table.settings or {}).get("clock") or {}).get("bot")
    if isinstance(level, str):
        return level
    return DEFAULT_BOT if table.game in GAMES_WITH_SEARCH else FALLBACK_BOT


def people(table: LiveTable) -> dict[int, int]:
    """Seat → user id of every person who holds (or held, before a bot took over) a seat."""
    out = {}
    for i, s in enumerate(table.seats):
        user = s.user_id if s.kind == "person" else (s.replaced.user_id if s.replaced else None)
        if isinstance(user, int):
            out[i] = user
    return out


def scores_of(table: LiveTable) -> list[int]:
    """The public scores now."""
    st = table.state
    view = st.observation(None).to_json() if st is not None else {}
    return [int(x) for x in view.get("scores") or [0] * len(table.seats)]


class Endings:
    """Resign, abort, claim, rematch and play again at the tables of one :class:`TableManager`."""

    def __init__(self, tables: TableManager, lobby: Lobby) -> None:
        self.tables = tables
        self.lobby = lobby
        tables.handle(Resign, self.resign)
        tables.handle(Abort, self.abort)
        tables.handle(Claim, self.claim)
        tables.handle(Rematch, self.rematch)

    # -- checks -------------------------------------------------------------------------------

    @staticmethod
    def my_seat(table: LiveTable, user_id: int | None) -> int:
        """The seat ``user_id`` plays, or the reason they cannot act on the game."""
        if user_id is None:
            raise IllegalActionError("sign in to play")
        if (table.settings or {}).get("event"):
            raise IllegalActionError(
                "this is a tournament game: its director decides forfeits and replays"
            )
        seat = table.seat_of(user_id)
        if seat is None:
            raise IllegalActionError("you are watching this table, not playing at it")
        return seat

    @staticmethod
    def in_play(table: LiveTable) -> None:
        """The reason the game is not in play, if it is not."""
        if table.state is None or table.status == TableStatus.OPEN:
            raise IllegalActionError("the game has not started yet")
        if table.ended or table.status != TableStatus.PLAYING:
            raise IllegalActionError("the game is over")

    # -- resign, abort, claim ------------------------------------------------------------------

    async def resign(self, table: LiveTable, c: Resign) -> None:
        """``c.user_id`` resigns (see the module docstring)."""
        user_id = c.user_id
        await self.tables.refresh_shared(table)
        seat = self.my_seat(table, user_id)
        self.in_play(table)
        if len(table.seats) == 2:
            ending = self.ending(table, "resign", seat, 1 - seat)
            await self.finish(table, ending, TableStatus.OVER)
        else:
            await self.stand_in(table, seat, SeatChange.RESIGNED)

    async def abort(self, table: LiveTable, c: Abort) -> None:
        """``c.user_id`` aborts the game before everyone has moved in the first hand."""
        user_id = c.user_id
        await self.tables.refresh_shared(table)
        seat = self.my_seat(table, user_id)
        self.in_play(table)
        if not abortable(table):
            raise IllegalActionError(
                "too late to abort: every player has moved (you may resign instead)"
            )
        await self.finish(table, self.ending(table, "abort", seat, None), TableStatus.ABORTED)

    async def claim(self, table: LiveTable, c: Claim) -> None:
        """``c.user_id`` claims the win over, or hands to a bot, the seat ``c.seat`` whose
        person has been away for ``claim_after`` seconds, or (no clock) has not moved for
        ``stall_after`` seconds."""
        user_id, seat, how = c.user_id, c.seat, c.how
        await self.tables.refresh_shared(table)
        mine = self.my_seat(table, user_id)
        self.in_play(table)
        if how not in ("win", "bot"):
            raise IllegalActionError('"how" is "win" or "bot"')
        if (
            not isinstance(seat, int)
            or isinstance(seat, bool)
            or not (0 <= seat < len(table.seats))
        ):
            raise IllegalActionError('"seat" must be the number of a seat at this table')
        if seat == mine or table.seats[seat].kind != "person":
            raise IllegalActionError("you can claim only another person's seat")
        stalled = self.claimable(table, seat)
        why = {"stalled": True} if stalled else {}
        if how == "win":
            if len(table.seats) != 2:
                raise IllegalActionError(
                    "with more than two players, hand the absent player's seat to a bot"
                )
            ending = {**self.ending(table, "claim", seat, mine), **why}
            await self.finish(table, ending, TableStatus.OVER)
        else:
            await self.stand_in(table, seat, SeatChange.HANDED, **why)

    def claimable(self, table: LiveTable, seat: int) -> bool:
        """Whether ``seat`` may be claimed against because it stalled (true) or because its
        person is away (false); the reason it cannot yet, if it cannot: its person has been
        away less than ``claim_after`` seconds and has not stalled ``stall_after`` (no clock)."""
        presence.sync(table)
        gone = presence.away_for(table, seat)
        stall = self.tables.clock.stall(table)
        stalled = time.time() - stall["since"] if stall and stall["seat"] == seat else 0.0
        if gone >= table.claim_after:
            return False
        if stall and stalled >= table.stall_after:
            return True
        name = table.seats[seat].name
        if seat in table.away:  # (away, even if noticed this very millisecond: 0 s)
            raise IllegalActionError(
                f"{name} has been away for {int(gone)} s: you may claim after "
                f"{int(table.claim_after)} s"
            )
        if stall and stall["seat"] == seat:
            raise IllegalActionError(
                f"{name} has not moved for {int(stalled)} s: you may claim after "
                f"{int(table.stall_after)} s"
            )
        raise IllegalActionError(f"{name} is at the table")

    def ending(self, table: LiveTable, reason: str, seat: int, winner: int | None) -> JSON:
        """An early ending, as ``settings["ending"]`` keeps it."""
        return {
            "reason": reason,
            "seat": seat,
            "winner": winner,
            "scores": scores_of(table),
            "hand": table.hands_dealt() - 1,
            "at": now().isoformat(),
        }

    async def finish(self, table: LiveTable, ending: JSON, status: TableStatus) -> None:
        """End the game early: commit the ending and status (with the record); the table's
        actor then tells every socket and runs the game-over hooks."""
        old = table.settings
        table.settings = {**(table.settings or {}), "ending": ending}
        try:
            record = tableview.record(table)
            async with self.tables.sessions() as db, db.begin():
                if not await livetables.finish(db, table.id, table.settings, status, record):
                    raise BoneyardError("no such table")
        except BaseException:
            table.settings = old
            raise
        table.status = table.stored_status = status
        self.tables.breaks.clear(table)
        table.log().note_changes(table.settings, table.version)

    async def stand_in(self, table: LiveTable, seat: int, event: SeatChange, **more: bool) -> None:
        """A bot plays ``seat`` from now on (``resigned``: to the end, placed last; ``handed``:
        until its person takes it back; ``more``: noted with the change, e.g. ``stalled``)."""
        resigned = event == SeatChange.RESIGNED
        await self.tables.bot_takes_seat(table, seat, stand_in(table), event, resigned, **more)
        presence.sync(table)

    # -- rematch, play again ---------------------------------------------------------------------

    async def rematch(self, table: LiveTable, c: Rematch) -> None:
        """``c.user_id`` accepts a rematch; the new table is made when every person has."""
        user_id = c.user_id
        await self.tables.refresh_shared(table)
        if (table.settings or {}).get("event"):
            raise IllegalActionError("this is a tournament game: the event sets the next one")
        held = people(table)
        seat = next((i for i, u in held.items() if u == user_id), None)
        if seat is None:
            raise IllegalActionError("only the players of this game can ask for a rematch")
        if table.status != TableStatus.OVER:
            raise IllegalActionError("a rematch is offered once the game is over")
        offer = dict((table.settings or {}).get("rematch") or {"accepted": [], "table": None})
        if offer.get("table"):
            raise IllegalActionError("the rematch has started already")
        offer["accepted"] = sorted(set(offer.get("accepted") or []) | {seat})
        # A bot account accepts at once, as the built-in bots do (its program is told of
        # the new table's seat by its event stream).
        waited = {i for i, u in held.items() if u not in table.bot_users}
        if waited <= set(offer["accepted"]):
            created = await self.new_table(table, None)
            offer["table"] = created.id
        settings = {**(table.settings or {}), "rematch": offer}
        async with self.tables.sessions() as db, db.begin():
            await livetables.set_settings(db, table.id, settings)
        table.settings = settings

    async def new_table(self, table: LiveTable, me: int | None) -> LiveTable:
        """A table like ``table``: the same seats (a rematch), or ``me`` with the same bots and
        the other people's seats open (play again)."""
        seats: list[Seat] = []
        held = people(table)
        for i, s in enumerate(table.seats):
            user = held.get(i)
            if user is not None and (me is None or user == me):
                name = s.replaced.name if s.replaced else s.name
                seats.append(PersonSeat(user_id=user, name=name or f"Seat {i + 1}"))
            elif user is None and s.bot is not None:
                seats.append(BotSeat(bot=s.bot, name=s.name))
            else:
                seats.append(OpenSeat())
        keep = ("clock", "bot_pace")
        settings = {k: v for k, v in (table.settings or {}).items() if k in keep}
        return await self.lobby.open_table(
            table.game, dict(table.options), seats, settings, table.private, me or table.created_by
        )
