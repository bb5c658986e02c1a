"""The results: what a game's end sets going, once its commit is done.

The table's actor emits ``StatusChanged(..., "over")`` after the command that ended the game
(the last move, a resignation, a claim); the results then run the game-over hooks, each in a task
of its own: the result kept in the table's settings (a person's history reads it there instead of
replaying every record), a tournament's bracket, the ratings (boneyard.server.tournaments). An
ending read from another process ran them there.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from boneyard.core.protocol import JSON
from boneyard.server.tables.actor import Command, Seated, StatusChanged, TableEvent
from boneyard.server.tables.hub import DB_ERRORS, Hub
from boneyard.server.tables.live import LiveTable
from boneyard.store import livetables
from boneyard.store.statuses import TableStatus

log = logging.getLogger("boneyard.server")


class Results:
    """The game-over hooks of the tables of a :class:`Hub` (the first keeps the result)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        hub.on_game_over.append(self.store_result)

    async def bookkeeping(
        self, table: LiveTable, command: Command[object], events: Sequence[TableEvent]
    ) -> None:
        """A reaction: the lobby's list is read anew after a seat or status change; a game that
        ended here runs the game-over hooks (an ending read from another process ran them
        there)."""
        if any(isinstance(e, Seated | StatusChanged) for e in events):
            self.hub.lobby_version += 1
        over = any(isinstance(e, StatusChanged) and e.after == TableStatus.OVER for e in events)
        if over and command.shared:
            self.hub.game_over(table)

    async def store_result(self, table: LiveTable) -> None:
        """Keep the finished game's result in the table's settings (``result``): a person's
        history reads it there instead of replaying every record."""
        found = result_json(table)
        if found is None:
            return
        try:
            async with self.hub.sessions() as db, db.begin():
                if await livetables.merge_settings(db, table.id, result=found):
                    table.settings = {**table.settings, "result": found}
        except DB_ERRORS as exc:  # the history computes it again from the record
            log.warning("table %s: storing the result failed: %s", table.id, exc)


def result_json(table: LiveTable) -> JSON | None:
    """A finished table's result: winner seat, final scores, how it ended, partnerships."""
    st = table.state
    result = st.result() if st is not None else None
    if st is None or result is None:
        return None
    teams = bool(st.observation(None).to_json().get("partnerships"))
    return {
        "winner": result.winner,
        "scores": list(result.scores),
        "reason": result.reason,
        "partnerships": teams,
    }
