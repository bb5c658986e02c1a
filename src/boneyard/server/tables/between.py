"""Between hands: the final board stays, and the next hand is dealt when everyone has seen it.

When a hand ends at a table with people, the server does not deal the next hand at once: every
view carries the hand's end (the final board, every seat's remaining tiles, the scoring in words:
:mod:`boneyard.server.tables.tableview`) and the next deal waits until every seated person has sent
``{"type": "continue", "hand": h}`` (bots continue at once), or until ``pause`` seconds have
passed. A thrown-in deal (High Five: nobody holds a double) is not a hand's end: it is dealt
again as before (``Dealer.arm_redeal``).

:class:`Breaks` is the table's dealer between hands: it runs the ``Continue`` commands (the last
one deals, in the same turn of the table's actor: the players see the new hand, not first a pause
that everyone has ended) and, when the pause is over, sends the table's actor a ``Deal`` command.

Fairness is unchanged (docs/fairness.md): the next hand's commitment was published with the
previous deal, the players' seeds for it are taken until the deal, and the ended hand's server
seed is revealed as soon as it ended. A bot-only table deals at once.

The pause is kept in memory (``LiveTable.break_until``); a restarted server, or another process
catching the table up, counts it from the hand's last log entry, and whichever process deals first
wins (the log's unique sequence number refuses the other).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from boneyard.core.errors import IllegalActionError
from boneyard.server.tables.broadcast import Broadcaster
from boneyard.server.tables.commands import Continue, ContinuedElsewhere, Deal

if TYPE_CHECKING:
    from boneyard.server.tables.live import Ask, LiveTable

Dealer = Callable[["LiveTable", Deal], Awaitable[None]]

HAND_PAUSE = 20.0
"""Seconds the next deal waits at most for everyone to press Continue."""


def people(table: LiveTable) -> list[int]:
    """The seats a person holds (a bot account's seat is a bot's here: it never presses
    Continue, and a hand's end does not wait for it)."""
    return [
        i
        for i, s in enumerate(table.seats)
        if s.kind == "person" and s.user_id not in table.bot_users
    ]


def hand_ended(table: LiveTable) -> bool:
    """Whether the table waits for a deal because a hand ended (not a thrown-in deal)."""
    st = table.state
    log = table.movelog
    if st is None or not st.awaiting_deal or table.ended or st.hands_dealt == 0:
        return False
    end = log.last_end if log is not None else None
    return end is not None and end.get("hand") == st.hands_dealt - 1


class Breaks:
    """The hand-end pauses of the live tables: ``ask`` sends a table's actor a command, ``deal``
    is the handler of its ``Deal`` (run inside a ``Continue``), ``broadcaster`` tells the other
    processes who continued."""

    def __init__(
        self, ask: Ask, deal: Dealer, broadcaster: Broadcaster, pause: float = HAND_PAUSE
    ) -> None:
        self.ask = ask
        self.deal = deal
        self.broadcaster = broadcaster
        self.pause = pause
        self.timers: dict[str, asyncio.Task[None]] = {}

    def wanted(self, table: LiveTable) -> bool:
        """Whether a hand's end at ``table`` waits for its people."""
        return self.pause > 0 and bool(people(table))

    def begin(self, table: LiveTable, since: float | None = None) -> None:
        """A hand ended: the next deal waits (from ``since``, server time; default now)."""
        start = time.time() if since is None else since
        table.break_until = round(start + self.pause, 3)
        table.continued = set()
        self._arm(table)

    def _arm(self, table: LiveTable) -> None:
        old = self.timers.pop(table.id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        due = table.break_until
        if due is None:
            return
        self.timers[table.id] = asyncio.create_task(self._later(table, due - time.time()))

    async def _later(self, table: LiveTable, delay: float) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        self.timers.pop(table.id, None)
        await self.ask(table, Deal())

    def resume(self, table: LiveTable) -> bool:
        """After a load or a catch-up: a table that waits after a hand's end waits on (counted
        from its last log entry); returns whether it does."""
        if not hand_ended(table) or not self.wanted(table):
            return False
        if table.break_until is None:
            since = table.last_at.timestamp() if table.last_at is not None else None
            self.begin(table, since)
        return True

    def retry(self, table: LiveTable, after: float = 5.0) -> None:
        """The deal failed (the database): try again in ``after`` seconds."""
        table.break_until = round(time.time() + after, 3)
        self._arm(table)

    def clear(self, table: LiveTable) -> None:
        """The next hand is dealt (or the game ended): no pause any more."""
        table.break_until = None
        table.continued = set()
        timer = self.timers.pop(table.id, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()

    async def press(self, table: LiveTable, c: Continue) -> None:
        """``c.seat`` pressed Continue after hand ``c.hand`` (the command's handler).

        Raises :class:`IllegalActionError` with the reason (nothing changed)."""
        seat, hand = c.seat, c.hand
        if seat is None:
            raise IllegalActionError("only a seated player presses Continue")
        if not isinstance(hand, int) or isinstance(hand, bool):
            raise IllegalActionError('"hand" must be the number of the hand that ended')
        if table.break_until is None or not hand_ended(table):
            raise IllegalActionError("no hand is waiting to be continued")
        st = table.state
        assert st is not None
        if hand != st.hands_dealt - 1:
            raise IllegalActionError(f"hand {hand} is not the hand that just ended")
        table.continued.add(seat)
        message = {"type": "continued", "hand": hand, "seat": seat}
        await self.broadcaster.publish(table.id, message, local=False)
        await self._deal_if_all_continued(table)

    async def on_continued(self, table: LiveTable, message: dict[str, object]) -> None:
        """Another process's Continue (a broadcast message): a command to the table."""
        await self.ask(table, ContinuedElsewhere(message.get("seat"), message.get("hand")))

    async def pressed_elsewhere(self, table: LiveTable, c: ContinuedElsewhere) -> None:
        """Note another process's Continue (the command's handler)."""
        st = table.state
        if not isinstance(c.seat, int) or st is None or c.hand != st.hands_dealt - 1:
            return
        if table.break_until is not None:
            table.continued.add(c.seat)
            await self._deal_if_all_continued(table)

    async def _deal_if_all_continued(self, table: LiveTable) -> None:
        if set(people(table)) <= table.continued:
            await self.deal(table, Deal())

    async def close(self) -> None:
        """Stop the timers (on shutdown)."""
        for task in list(self.timers.values()):
            task.cancel()
        self.timers.clear()
