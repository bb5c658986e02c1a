"""A live table in memory: its state rebuilt from the log, its sockets, its seats' facts.

A :class:`LiveTable` is data with the small questions everyone asks of it (who sits where, how
many hands were dealt, its public facts and fairness); it changes only inside its actor
(boneyard.server.tables.actor), by the handlers of its commands. How it is shown to a seat is
:mod:`boneyard.server.tables.tableview`'s; how it is loaded, committed and driven is the
collaborators' the manager composes (boneyard.server.tables.hub).
"""

from __future__ import annotations

import asyncio
import copy
import random
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from boneyard.bots import AnyBot
from boneyard.bots.plugins import make
from boneyard.core.protocol import JSON, GameState
from boneyard.games.registry import get_spec
from boneyard.server.rules.service import changed_options
from boneyard.server.tables import fairness
from boneyard.server.tables.actor import Command, R, TableActor
from boneyard.server.tables.movelog import Mark, MoveLog
from boneyard.store.seats import Seat
from boneyard.store.statuses import TableStatus


class Ask(Protocol):
    """Sends a live table's actor a command and waits for its answer (``Hub.ask``): how the
    clock and the dealer change a table."""

    async def __call__(self, table: LiveTable, command: Command[R]) -> R: ...


CLAIM_AFTER = 60.0
"""Seconds a person seat must have been disconnected before the others may claim the win or
hand it to a bot (docs/server.md)."""
STALL_AFTER = 180.0
"""Seconds a person seat to act at a table without a clock may take before the others may claim
against it as against an absent one, connected or not (docs/server.md)."""

Sender = Callable[[JSON], Awaitable[None]]


def now() -> datetime:
    """The current time (UTC)."""
    return datetime.now(UTC)


def seat_names(seats: Sequence[Seat]) -> list[str]:
    """The names written in the record's ``seats``."""
    return [s.name or f"Seat {i + 1}" for i, s in enumerate(seats)]


Scores = list[int]
"""The public scores by seat (or partnership) at one moment."""


def scores_at(state: GameState) -> Scores:
    """The public scores (from the spectator view) now: kept at each hand's end."""
    view: JSON = state.observation(None).to_json()
    return [int(x) for x in view.get("scores") or []]


@dataclass(eq=False)
class Client:
    """One connected socket: where to send and which seat it sees (``None``: spectator);
    ``session`` (the hash of its session token) and ``close`` end it when its session ends."""

    send: Sender
    seat: int | None
    user_id: int | None = None
    session: str = ""
    close: Callable[[], Awaitable[None]] | None = None
    presence: bool = False  # it asked to hear who comes and goes (boneyard.server.tables.presence)


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """A live table's game as it was before a command (:meth:`LiveTable.roll_back`)."""

    state: GameState | None
    hand_scores: list[Scores]
    seeds: dict[int, tuple[str, str]]
    version: int
    mark: Mark


@dataclass(eq=False)
class LiveTable:
    """A table in memory: its state rebuilt from the log, its sockets and its actor."""

    id: str
    game: str
    options: JSON
    seats: list[Seat]
    status: TableStatus
    state: GameState | None = None
    version: int = 0
    seeds: dict[int, tuple[str, str]] = field(default_factory=dict)
    # Fairness (docs/fairness.md): the table's scheme, the next hand's committed seed
    # (hand, server seed, commitment) and the client seeds by hand and seat.
    scheme: str = fairness.SCHEME
    pending: tuple[int, str, str] | None = None
    client_seeds: dict[int, dict[int, str]] = field(default_factory=dict)
    # A private table is not listed; seeing it needs its invite token (or a seat).
    private: bool = False
    invite_token: str | None = None
    created_by: int | None = None
    # The public scores at the end of each hand played out (the views' hand-by-hand table).
    hand_scores: list[Scores] = field(default_factory=list)
    clients: list[Client] = field(default_factory=list)
    # Takes the table's commands one at a time (set when the table goes live: Loader.get).
    actor: TableActor | None = None
    bots: dict[int, AnyBot] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None
    # Table settings (game_tables.settings), the time of the last log entry.
    settings: JSON = field(default_factory=dict)
    last_at: datetime | None = None
    # The status the database has (``status`` runs ahead of it while a commit is in flight).
    stored_status: TableStatus | None = None
    created_at: datetime | None = None
    # No person seated, no seat open: its bots move only while someone watches.
    bot_only: bool = False
    # The seated accounts that are bot accounts (boneyard.server.botapi.service): labelled as bots.
    bot_users: frozenset[int] = frozenset()
    # The public move log (tables.movelog) and how much of it the last broadcast sent.
    movelog: MoveLog | None = None
    log_sent: int = 0
    # Between hands (tables.between): when the next deal is due (server time, seconds
    # since the epoch; None: no hand-end pause) and the seats whose person pressed Continue.
    break_until: float | None = None
    continued: set[int] = field(default_factory=set)
    # Who is connected (tables.presence): the people other processes hold sockets of,
    # by process, and since when each person seat has had no socket (server time).
    remote: dict[str, set[int]] = field(default_factory=dict)
    away: dict[int, float] = field(default_factory=dict)
    claim_after: float = CLAIM_AFTER  # (the site's: Hub.claim_after)
    stall_after: float = STALL_AFTER  # (the site's: Hub.stall_after)

    async def ask(self, command: Command[R]) -> R:
        """Have the table's actor run ``command``; its answer (or what it raised)."""
        assert self.actor is not None, "a table takes commands once it is live"
        return await self.actor.ask(command)

    def noting_seat_change(
        self, event: str, seat: int, name: str, at: datetime, **more: object
    ) -> dict[str, object]:
        """The table's settings with a seat change added to ``seat_changes`` (the record's
        ``meta.substitutions``), placed at the hand and sequence number the table is at."""
        settings = copy.deepcopy(self.settings or {})
        settings.setdefault("seat_changes", []).append(
            {
                "event": event,
                "seat": seat,
                "hand": self.hands_dealt() - 1,
                "seq": self.version,
                **more,
                "name": name,
                "at": at.isoformat(),
            }
        )
        return settings

    def make_bots(self) -> None:
        """Bot players for the bot seats (their own randomness: they never see the state)."""
        self.bots = {
            i: make(s.bot, random.Random(secrets.randbits(64)), local=False)
            for i, s in enumerate(self.seats)
            if s.bot is not None
        }

    def seat_of(self, user_id: int | None) -> int | None:
        """The seat ``user_id`` plays now (``None``: none; a seat a bot took over is the bot's)."""
        if user_id is None:
            return None
        return next((i for i, s in enumerate(self.seats) if s.user_id == user_id), None)

    @property
    def ended(self) -> bool:
        """Whether the game is over: played to its end, or ended early (resigned, a win
        claimed, aborted: ``settings["ending"]``)."""
        if (self.settings or {}).get("ending"):
            return True
        return self.state is not None and self.state.is_over

    def log(self) -> MoveLog:
        """The move log (made on first use)."""
        if self.movelog is None:
            self.movelog = MoveLog(self.game, seat_names(self.seats), self.options)
        return self.movelog

    def checkpoint(self) -> Checkpoint:
        """What a command that commits, or a catch-up that replays another process's log, may
        have to take back: the state, the hand scores, the dealt seeds, the version and the move
        log (the state itself is never changed in place: a command applies to a copy and puts
        it in place)."""
        scores, seeds = list(self.hand_scores), dict(self.seeds)
        return Checkpoint(self.state, scores, seeds, self.version, self.log().mark())

    def roll_back(self, to: Checkpoint) -> None:
        """Take the table back to ``to``: a commit or a replay that failed leaves memory as the
        database."""
        self.state, self.hand_scores, self.seeds = to.state, to.hand_scores, to.seeds
        self.version = to.version
        self.log().reset(to.mark)

    def reseat_clients(self) -> None:
        """After the seats changed: every socket sees from the seat its person plays now."""
        for client in self.clients:
            client.seat = self.seat_of(client.user_id)

    # -- views -------------------------------------------------------------------------------

    def hands_dealt(self) -> int:
        """How many hands have been dealt."""
        return len(self.seeds)

    def hand_finished(self, hand: int) -> bool:
        """Whether hand ``hand`` is over (its seed may then be revealed)."""
        st = self.state
        if st is None:
            return False
        last = self.hands_dealt() - 1
        return hand < last or self.ended or st.awaiting_deal

    def seat_seeds(self, hand: int) -> list[str | None]:
        """The client seeds of ``hand`` by seat (``None``: that seat added none)."""
        given = self.client_seeds.get(hand, {})
        return [given.get(i) for i in range(len(self.seats))]

    def fairness_json(self, seat: int | None = None) -> list[JSON]:
        """Per dealt hand: the commitment, the client seeds (public from the deal on) and the
        server seed once the hand is over; then, while the game goes on, the next hand's
        commitment with the seats that added a seed (and ``my_seed``, this seat's own)."""
        out: list[JSON] = []
        for h in sorted(self.seeds):
            seed, commit = self.seeds[h]
            item: JSON = {"hand": h, "commitment": commit}
            if self.scheme == fairness.SCHEME:
                item["client_seeds"] = self.seat_seeds(h)
            if self.hand_finished(h):
                item["seed"] = seed
            out.append(item)
        nxt = self.pending
        over = self.ended
        if nxt is not None and nxt[0] == self.hands_dealt() and not over:
            given = self.client_seeds.get(nxt[0], {})
            item = {"hand": nxt[0], "commitment": nxt[2], "next": True, "seeded": sorted(given)}
            if seat is not None:
                item["my_seed"] = given.get(seat)
            out.append(item)
        return out

    def public_json(self) -> JSON:
        """What anyone may know about the table (no game state)."""
        return {
            "id": self.id,
            "game": self.game,
            "title": get_spec(self.game).title,
            "hand_word": get_spec(self.game).hand_word,
            "options": self.options,
            "rules": changed_options(self.game, self.options),
            "seats": [
                {
                    "seat": i,
                    "kind": s.kind,
                    "name": public_seat_name(s),
                    "bot": s.bot,
                    "user_id": s.user_id,
                    **({"bot_account": True} if s.user_id in self.bot_users else {}),
                    **({"invited": s.invited.name} if s.invited else {}),
                    **({"replacing": s.replaced.model_dump()} if s.replaced else {}),
                }
                for i, s in enumerate(self.seats)
            ],
            "status": self.status,
            "private": self.private,
            "tournament": bool((self.settings or {}).get("event")),
            # Created full: dealt when the players' seeds for hand 0 are in, at the latest then.
            **({"start_by": self.settings["start_by"]} if self.waits_for_seeds() else {}),
            # A game of an event (its page links the match and the next game), and why a game
            # was stopped (boneyard.server.tournaments).
            **({"event": self._event_ref()} if self.settings.get("event") else {}),
            **({"halted": self.settings["halted"]} if self.settings.get("halted") else {}),
        }

    def _event_ref(self) -> JSON:
        on = self.settings
        return {"id": on.get("event"), "match": on.get("match"), "game": on.get("game")}

    def waits_for_seeds(self) -> bool:
        """Whether this table was created full and waits for its players' seeds to deal."""
        return self.status == TableStatus.OPEN and bool((self.settings or {}).get("start_by"))


def public_seat_name(seat: Seat) -> str | None:
    """The name the lobby and the table show: ``bot (replacing NAME)`` for an abandoned seat.

    >>> from boneyard.store.seats import BotSeat, Someone
    >>> public_seat_name(BotSeat(bot="medium", name="Ann", replaced=Someone(user_id=1, name="Ann")))
    'bot (replacing Ann)'
    """
    if seat.replaced is not None:
        return f"bot (replacing {seat.replaced.name})"
    return seat.name


def substitutions(settings: dict[str, Any] | None) -> list[JSON]:
    """The seat changes for the record's ``meta.substitutions``."""
    return list((settings or {}).get("seat_changes") or [])
