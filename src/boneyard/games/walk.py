"""Walking a record, for every game: its positions, its replay lines, the state it reaches.

A game provides a :class:`RecordReader`: how to set up a state from a record's envelope, how to
deal one of its hands (with the record-level checks of RECORDS.md §6, in the game's words) and how
to read one of its events as an action. :func:`positions` then walks the whole record once, in
time linear in its length: the state before each event, with the action taken there.
:func:`replay` turns the events the actions return into replay lines (RECORDS.md §5) as they
happen (a :class:`LineFeed`), and :func:`from_record` gives the state the record reaches.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, Generic, Protocol, TypeVar

from boneyard.core.errors import BoneyardError, RecordError
from boneyard.core.protocol import State, game_end_line
from boneyard.core.records import JSON, Record, event_list, record_from_json

S = TypeVar("S", bound="State[Any, Any, Any]")
A = TypeVar("A")


class RecordReader(Protocol[S, A]):
    """How one game reads its records."""

    def new_state(self, record: Record) -> S:
        """A game with the record's options (absent keys read as RECORDS.md §1 says) and seats,
        awaiting its first deal; :class:`RecordError` for bad options or seats."""
        ...

    def deal(self, state: S, record: Record, h: int) -> list[JSON]:
        """Deal hand ``h`` of the record after the checks that come before it (the game is not
        over, the previous hand is finished, the set-up is whole); return its events.
        :class:`RecordError` with ``event`` ``None`` for a fault in the set-up."""
        ...

    def action(self, state: S, event: JSON, h: int, i: int) -> A:
        """The action event ``i`` of hand ``h`` names, with the checks that come before applying
        it (the hand is not over, it is that seat's turn, the fields are well formed, a drawn
        tile is the next one); :class:`RecordError` at ``(h, i)``."""
        ...

    def legal_match(self, state: S, action: A) -> A:
        """The legal action of ``state`` that ``action`` (read from a record, in any of the ways
        a record may write it) takes, or the first step of it; else ``action`` itself."""
        ...


@dataclass(frozen=True, slots=True)
class Position(Generic[S, A]):
    """A moment of a record: the state before event ``event`` of hand ``hand`` and the
    ``action`` taken there; after a hand's last event, the state as the hand left it, with
    ``action`` ``None`` (``event`` is then the hand's number of events).

    ``state`` is the walk's own state, which moves on when the walk does: copy it to keep it.
    """

    hand: int
    event: int
    state: S
    action: A | None


def positions(
    reader: RecordReader[S, A],
    record: Record,
    state: S | None = None,
    stepped: Callable[[], None] | None = None,
) -> Iterator[Position[S, A]]:
    """Every position of ``record`` in order, each hand's ending one included; raises
    :class:`RecordError` at the first fault (after the positions before it). ``stepped`` is
    called after every deal and every applied event, before the next event is read."""
    st = reader.new_state(record) if state is None else state
    for h in range(len(record.hands)):
        events = reader.deal(st, record, h)
        if stepped is not None:
            stepped()
        for i, ev in enumerate(events):
            action = reader.action(st, ev, h, i)
            yield Position(h, i, st, action)
            try:
                st.apply(action)
            except BoneyardError as exc:
                raise RecordError(str(exc), h, i) from None
            if stepped is not None:
                stepped()
        yield Position(h, len(events), st, None)


def from_record(reader: RecordReader[S, A], record: Record) -> S:
    """The state ``record`` reaches, every hand and event checked (:class:`RecordError`)."""
    state = reader.new_state(record)
    for _ in positions(reader, record, state):
        pass
    return state


def undone(reader: RecordReader[S, A], state: S) -> S:
    """The state before ``state``'s last action, or before its last deal when no action followed
    it, rebuilt from ``state``'s record (every hand before it as it was dealt and played: the
    hidden tiles too). Raises BoneyardError when there is nothing to take back."""
    if state.hands_dealt == 0:
        raise BoneyardError("there is nothing to take back: no hand has been dealt")
    record = record_from_json(state.record())
    h = len(record.hands) - 1
    events = event_list(record.hands[h], h)
    if not events:  # the deal: the game as the hand before left it
        return from_record(reader, replace(record, hands=record.hands[:h]))
    for position in positions(reader, record):
        if position.hand == h and position.event == len(events) - 1:
            return position.state  # (the walk stops here: its last event is not applied)
    raise RecordError("the game's own record does not replay", h, None)  # pragma: no cover


LinesOf = Callable[[Any, int, int], list[JSON]]
"""``lines_of(event, hand, index)``: the replay lines of one event."""


class LineFeed:
    """The replay lines of a game as they happen: each :meth:`take` returns the lines of the
    events, hand ends and game end since the last one. Take after every action and deal (a
    hand's events are forgotten at the next deal)."""

    def __init__(self, state: State[Any, Any, Any], lines_of: LinesOf) -> None:
        self._state = state
        self._lines_of = lines_of
        self._hand = state.hands_dealt
        self._events = len(state.events)
        self._ends = len(state.ends)
        self._over = state.is_over

    def take(self) -> list[JSON]:
        """The new lines."""
        st = self._state
        out: list[JSON] = []
        if st.hands_dealt != self._hand:
            self._hand, self._events = st.hands_dealt, 0
        events = st.events
        for i in range(self._events, len(events)):
            out.extend(self._lines_of(events[i], st.hands_dealt - 1, i))
        self._events = len(events)
        ends = st.ends
        for k in range(self._ends, len(ends)):
            out.append(ends[k].to_json())
        self._ends = len(ends)
        result = st.result()
        if result is not None and not self._over:
            out.append(game_end_line(result))
            self._over = True
        return out


def replay(reader: RecordReader[S, A], record: Record, lines_of: LinesOf) -> Iterator[JSON]:
    """The replay lines of ``record`` (RECORDS.md §5); :class:`RecordError` at the first fault,
    after the lines of everything before it."""
    state = reader.new_state(record)
    feed = LineFeed(state, lines_of)
    ready: list[JSON] = []
    try:
        for _ in positions(reader, record, state, lambda: ready.extend(feed.take())):
            yield from ready
            ready.clear()
    except RecordError:
        yield from ready
        raise


def action_from_event(reader: RecordReader[S, A], state: S, event: Mapping[str, object]) -> A:
    """The action a record event (full information, ``seat`` included) names in ``state``."""
    return reader.action(state, dict(event), state.hands_dealt - 1, len(state.events))


__all__ = [
    "LineFeed",
    "Position",
    "RecordReader",
    "action_from_event",
    "from_record",
    "positions",
    "replay",
    "undone",
]
