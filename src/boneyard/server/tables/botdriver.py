"""The bot driver: while a bot is to act at a table, wait its pace and send its move's command.

A bot never touches the table: its driver (one task per table, started after every command that
leaves a bot to act) sends the ``BotMove`` command, whose handler asks the bot for its action on
its seat's observation and hands it to the mover. A bot-only table nobody watches is paused (its
log stops; a socket that opens starts it again). A searching bot thinks in a thread, one table at
a time, so that many expert tables slow each other down, never the people's moves.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from boneyard.core.protocol import blocks
from boneyard.server.tables import between
from boneyard.server.tables import commands as cmd
from boneyard.server.tables.hub import Hub, StaleError, UnavailableError
from boneyard.server.tables.live import LiveTable
from boneyard.store.statuses import TableStatus

log = logging.getLogger("boneyard.server")

BOT_RETRY = (0.5, 30.0)
"""A bot whose move the database refused tries again after the first figure (seconds),
doubling each time up to the second, for as long as the table lives."""


class BotDriver:
    """The bots of the tables of a :class:`Hub` (its ``bot_delay``, ``bot_pace`` and
    ``pause_unwatched`` are the site's settings)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        # Searching bots think one at a time (each holds a core for up to a second).
        self.thinking = asyncio.Semaphore(1)
        hub.handle(cmd.BotMove, self.bot_move)

    def schedule_bots(self, table: LiveTable) -> None:
        """Let the bots move (in the background) while one is to act."""
        if table.bot_task is not None and not table.bot_task.done():
            return
        st = table.state
        if st is None or table.ended or st.current_seat not in table.bots:
            return
        if self.paused(table):
            return  # nobody watches: paused (a socket that opens starts them again)
        table.bot_task = asyncio.create_task(self._run_bots(table))

    def paused(self, table: LiveTable) -> bool:
        """Whether ``table``'s bots wait: a bot-only table nobody watches (operators may turn
        this off: ``pause_unwatched``)."""
        return self.hub.pause_unwatched and table.bot_only and not table.clients

    def pace(self, table: LiveTable) -> float:
        """Seconds a bot waits before each move at ``table``: the table's ``bot_pace`` (the
        site's default) where people play, so that they can follow; ``bot_delay`` at tables of
        bots only."""
        if not between.people(table):
            return self.hub.bot_delay
        chosen = (table.settings or {}).get("bot_pace")
        pace = self.hub.bot_pace if not isinstance(chosen, int | float) else float(chosen)
        return max(self.hub.bot_delay, pace)

    async def _run_bots(self, table: LiveTable) -> None:
        """The driver's task: while a bot is to act, wait its pace and send its move's command.

        A move the database refused changed nothing: the bot tries again, later and later
        (:data:`BOT_RETRY`). Nothing else would wake it in a single process, and the people at
        the table would wait on it for ever."""
        retry = BOT_RETRY[0]
        while not self.hub.closing:
            st = table.state
            if st is None or table.ended or st.current_seat not in table.bots:
                return  # (a person's turn: their move starts the bots again, pace from then)
            delay = self.pace(table)
            if delay:
                await asyncio.sleep(delay)
            if self.hub.closing or self.paused(table):
                return  # (nobody watches any more: paused)
            try:
                moved = await table.ask(cmd.BotMove())
            except StaleError:
                continue
            except UnavailableError:
                log.warning("bot at table %s waits for the database (%.1f s)", table.id, retry)
                await asyncio.sleep(retry)
                retry = min(2 * retry, BOT_RETRY[1])
                continue
            except Exception:
                log.exception("bot move failed at table %s", table.id)
                return
            if not moved:
                return
            retry = BOT_RETRY[0]

    async def bot_move(self, table: LiveTable, _c: cmd.BotMove) -> bool:
        """The ``BotMove`` command: the bot to act chooses and its action is applied; whether a
        bot moved (none: it is a person's turn, the game is over or halted)."""
        st = table.state
        if st is None or table.ended or st.current_seat not in table.bots:
            return False
        if table.status != TableStatus.PLAYING:
            return False  # halted (boneyard.server.tournaments)
        seat = st.current_seat
        bot = table.bots[seat]
        obs = st.observation(seat)
        if not blocks(bot):  # it says it answers in microseconds: no thread
            action = bot.choose(obs)
        else:  # a search of up to a second, in a thread, one table at a time
            async with self.thinking:
                action = await asyncio.to_thread(bot.choose, obs)
        await self.hub.mover.apply(table, seat, action)
        return True

    async def stop(self) -> None:
        """Let the bots finish the move they are making (a cancel in the middle of a commit
        could leave a connection holding the database's write lock); only a bot still busy
        after a few seconds is cancelled (on shutdown, ``hub.closing`` set)."""
        tasks = [t.bot_task for t in self.hub.live.values() if t.bot_task is not None]
        if not tasks:
            return
        _done, busy = await asyncio.wait(tasks, timeout=5)
        for task in busy:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
