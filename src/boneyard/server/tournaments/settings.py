"""An event's settings: defaults that fit PDA play, what may change when, the check-in window,
and the tournament value of the event's format built from them.

The settings live in ``TournamentRow.settings`` (JSON); :func:`setting` reads one with its
default, so tournaments created before a setting existed behave as documented
(docs/tournaments-site.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from boneyard.server.tables.clock import aware, now
from boneyard.server.tournaments.viewtypes import ClockView
from boneyard.store.tournaments import TournamentRow
from boneyard.tournament import (
    DoubleElimination,
    Pools,
    RoundRobin,
    Schedule,
    SingleElimination,
    Swiss,
    Tournament,
)

Result = Callable[[Tournament], Tournament]
"""A result, as the function that feeds it to the tournament."""

DEFAULTS: dict[str, object] = {
    "rounds": None,
    "double": False,
    "seeding": "rating",
    "max_tables": None,
    "auto_start": True,
    "checkin_opens_at": None,
    "checkin_closes_at": None,
    "checkin": None,  # "open" / "closed": the director's hand overrides the times
    "grace_minutes": 10.0,
    "per_move": 90,
    "move_grace": 30,
    "timeout": "lose",
    "third_place": False,
    "reset": True,
    "pools": None,
    "advance": 2,
    "bracket_format": "single",
    "bracket_schedule": "bo3",
    "bye_points": None,
    "late_entry": False,
    "bot_accounts": False,  # bot accounts (docs/bots.md) may enter themselves
    "signatures": "paper",  # over the board: "paper" cards the director enters count at once
    "join_code": None,  # the code of the event's venue sign-up (None: off)
}
"""Every setting and its default. PDA play: a no-show gets 10 minutes; a move 90 seconds and a
30-second warning, then the seat loses the game (a live event keeps moving); over the board,
the players sign the paper card (rule 11) and the director types it in (``signatures``:
``screen`` asks each player to sign on screen instead)."""

BEFORE_START_ONLY = (
    "game",
    "format",
    "mode",
    "preset",
    "options",
    "schedule",
    "cap",
    "rounds",
    "double",
    "seeding",
    "third_place",
    "reset",
    "pools",
    "advance",
    "bracket_format",
    "bracket_schedule",
    "bye_points",
    "starts_at",
    "auto_start",
    "checkin_opens_at",
    "checkin_closes_at",
)
"""What shapes the draw: fixed once the event has started."""

TIMES = ("checkin_opens_at", "checkin_closes_at")


def setting(ev: TournamentRow, key: str) -> Any:
    """``ev``'s value of setting ``key`` (its default when unset)."""
    value = (ev.settings or {}).get(key)
    return DEFAULTS.get(key) if value is None else value


def when(ev: TournamentRow, key: str) -> datetime | None:
    """A time setting of ``ev`` (``checkin_opens_at`` …) as a datetime."""
    raw = (ev.settings or {}).get(key)
    return aware(datetime.fromisoformat(raw)) if isinstance(raw, str) else None


def checkin_open(ev: TournamentRow, at: datetime | None = None) -> tuple[bool, str]:
    """Whether entrants may check in before the start, and why not (in their words).

    The director's hand (``checkin``: ``open`` / ``closed``) wins over the set times.
    """
    by_hand = setting(ev, "checkin")
    if by_hand == "open":
        return True, ""
    if by_hand == "closed":
        return False, "check-in is closed: see the director"
    t = at or now()
    opens, closes = when(ev, "checkin_opens_at"), when(ev, "checkin_closes_at")
    if opens is not None and t < opens:
        return False, f"check-in opens at {opens.strftime('%Y-%m-%d %H:%M')} UTC"
    if closes is not None and t >= closes:
        return False, "check-in has closed: see the director"
    return True, ""


def clock_rule(ev: TournamentRow) -> ClockView:
    """The move clock of the event's tables: ``per_move`` and ``grace`` seconds, and what a
    time-out means (``lose``, ``bot`` or ``director``)."""
    return {
        "per_move": int(setting(ev, "per_move")),
        "grace": int(setting(ev, "move_grace")),
        "timeout": str(setting(ev, "timeout")),
    }


def default_schedule(fmt: str, preset: str | None) -> str:
    """The best-of of a new event: PDA's for a PDA bracket, best of 3 for other brackets, best
    of 1 for Swiss, round robin and pools."""
    if fmt in ("single_elimination", "double_elimination"):
        return "pda" if preset == "pda" else "bo3"
    return "bo1"


def create_tournament(ev: TournamentRow, draw: Sequence[str]) -> Tournament:
    """A fresh tournament of ``ev``'s format and settings over ``draw`` (seed order)."""
    schedule = Schedule.parse(ev.schedule)
    fmt = ev.format

    def bye(default: float) -> float:
        value = setting(ev, "bye_points")
        return default if value is None else float(value)

    if fmt == "swiss":
        return Swiss.create(draw, setting(ev, "rounds"), schedule, bye(1.0))
    if fmt == "round_robin":
        return RoundRobin.create(draw, schedule, bool(setting(ev, "double")), bye(0.0))
    if fmt == "double_elimination":
        return DoubleElimination.create(draw, schedule, bool(setting(ev, "reset")))
    if fmt == "pools":
        return Pools.create(
            draw,
            int(setting(ev, "pools") or max(1, len(draw) // 4)),
            int(setting(ev, "advance")),
            schedule,
            str(setting(ev, "bracket_format")),
            Schedule.parse(str(setting(ev, "bracket_schedule"))),
            bool(setting(ev, "third_place")),
            bool(setting(ev, "reset")),
            bool(setting(ev, "double")),
        )
    return SingleElimination.create(draw, schedule, bool(setting(ev, "third_place")))


def rebuilt(ev: TournamentRow, draw: Sequence[str]) -> Callable[[Sequence[Result]], Tournament]:
    """The replay of ``ev``'s tournament from ``draw``: a function of the results in order
    (each feeds itself to the tournament), with Swiss late entrants added back before the
    round they joined was paired. It reads ``ev`` now and nothing of the database later (it
    may run in a thread)."""
    start = create_tournament(ev, draw)
    joins = [(str(k), int(r)) for k, r in (ev.settings or {}).get("late", [])]

    def replay(results: Sequence[Result]) -> Tournament:
        late = list(joins)

        def join(t: Tournament) -> Tournament:
            while late and isinstance(t, Swiss) and len(t.rounds) == late[0][1] - 1:
                t = t.add_entrant(late.pop(0)[0])
            return t

        t = start
        for result in results:
            t = result(join(t))
        return join(t)

    return replay
