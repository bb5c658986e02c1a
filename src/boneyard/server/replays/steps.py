"""Replays as data: step through a finished game (or an uploaded record) as public views.

A replay is computed server-side by replaying the record with the engine: the game's own
``replay`` checks the whole record first (its :class:`RecordError` is the answer to a bad one),
then the game's positions walk it once (each hand dealt from the record's set-up, its events
applied one at a time). Every step carries the spectator observation of that moment plus every
seat's hand: a replay is only served for a game that is over (or a record someone uploads), so
nothing hidden is live any more.

Also :func:`hand_ends`: the ``hand_end``/``game_end`` lines of the hands a live table has
finished (public once the hand is over), for the table page's hand summaries. Pure functions of
records: the worker processes run them (:mod:`.jobs`), the service (:mod:`.service`) asks.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from boneyard.core.errors import RecordError
from boneyard.core.protocol import JSON, GameState
from boneyard.core.records import Record, record_from_json
from boneyard.core.words import reveal
from boneyard.games.registry import AnySpec, get_spec
from boneyard.server.tables import handend, tableview

if TYPE_CHECKING:
    from boneyard.server.tables.live import LiveTable

MAX_EVENTS = 5_000
"""Events in one replayed record (the longest real games have a few hundred)."""


def _snapshot(state: GameState) -> JSON:
    """The public view of a moment, with every seat's hand (the game is over)."""
    view = dict(state.observation(None).to_json())
    view["hands"] = [state.observation(s).to_json().get("hand", []) for s in range(state.num_seats)]
    view.pop("legal_actions", None)
    return view


def replay_steps(record: Record) -> JSON:
    """Every step of ``record``: ``{"steps": [{hand, event, seat, text, line, view}], ...}``.

    Raises :class:`RecordError` (the game's replay error) when the record does not replay.
    """
    _check_size(record)
    spec = get_spec(record.game)
    by_event, ends, game_end = _index_lines(spec.replay(record))
    names = list(record.seats)
    steps: list[JSON] = []
    applied: JSON | None = None  # the step of the event just applied: its view comes next
    before: list[list[str]] = []  # every seat's tiles before the event just applied
    for pos in spec.positions(record):
        h, i, state = pos.hand, pos.event, pos.state
        if applied is not None:
            applied["view"] = _snapshot(state)
            steps.append(applied)
            applied = None
        if i == 0:
            steps.append(
                {"hand": h, "event": None, "seat": None, "text": f"Hand {h + 1} is dealt",
                 "view": _snapshot(state)}
            )  # fmt: skip
        if pos.action is None:  # the hand's end: the final board, with what everyone kept
            if h in ends:
                steps[-1]["hand_end"] = _hand_end(record, h, ends[h], steps[-1], before)
            continue
        before = [list(x) for x in steps[-1]["view"]["hands"]]
        seat = state.current_seat
        who = names[seat] if seat is not None and seat < len(names) else "?"
        found = by_event.get((h, i), [])
        text = _step_text(spec, state, pos.action, who, found)
        applied = {"hand": h, "event": i, "seat": seat, "text": text, "lines": found}
    if game_end is not None and steps:
        steps[-1]["game_end"] = game_end
    ending = (record.meta or {}).get("ending")
    return {
        "game": record.game,
        "title": spec.title,
        "drawing": spec.drawing.to_json(),
        "seats": names,
        "options": dict(record.options),
        "steps": steps,
        "hand_ends": [ends[h] for h in sorted(ends)],
        "game_end": game_end,
        "ending": ending if isinstance(ending, dict) else None,
        "record": record.to_json(),
    }


def _check_size(record: Record) -> None:
    """Refuse a record whose hands are not lists of events, or too long to view."""
    for h, hand in enumerate(record.hands):
        if not isinstance(hand.get("events", []), list):
            raise RecordError("events must be a list", h, None)
    events = sum(len(h.get("events") or []) for h in record.hands)
    if events > MAX_EVENTS:
        raise RecordError(f"the record is too long to view (over {MAX_EVENTS} events)")


def _index_lines(
    lines: Iterable[JSON],
) -> tuple[dict[tuple[int, int], list[JSON]], dict[int, JSON], JSON | None]:
    """The replay's lines by (hand, event), each hand's end by hand, and the game's end."""
    by_event: dict[tuple[int, int], list[JSON]] = {}
    ends: dict[int, JSON] = {}
    game_end: JSON | None = None
    for line in lines:
        if line.get("type") == "hand_end" and isinstance(line.get("hand"), int):
            ends[line["hand"]] = line
        elif line.get("type") == "game_end":
            game_end = line
        elif isinstance(line.get("hand"), int) and isinstance(line.get("event"), int):
            by_event.setdefault((line["hand"], line["event"]), []).append(line)
    return by_event, ends, game_end


def _step_text(spec: AnySpec, state: GameState, action: Any, who: str, found: list[JSON]) -> str:
    """ "Ann plays 5-5 on 5-0 (3-4): 10 points": the move in the game's words, the tile drawn
    and the points the replay's lines give it."""
    legal = spec.legal_match(state, action)
    shown = legal if type(legal) is type(action) else action
    text = f"{who} {spec.describe_action(shown)}"
    drawn = next((x.get("tile") for x in found if x.get("type") == "draw"), None)
    if drawn:
        text += f" ({drawn})"
    points = sum(int(x.get("points") or 0) for x in found)
    if points and "point" not in text:
        text += f": {points} points"
    return text


def _hand_end(record: Record, h: int, line: JSON, step: JSON, before: list[list[str]]) -> JSON:
    """A hand's end as the table shows it: the tiles every seat kept (shown on the step's view:
    the hands before the hand's last event, with its tiles moved) and the scoring in words. A
    deal the rules threw in (High Five's, when nobody held a double) shows the hands as dealt:
    they are the reason it was dealt again, and the state after it holds none."""
    view = step["view"]
    events = record.hands[h].get("events") or []
    kept: list[list[str]] | None = None
    if "hand_number" in view:
        view["hand_number"] = h  # (the state after the hand's end counts the next one)
    if line.get("reason") == "redeal":
        _as_dealt(view, record, h)
    elif events and before:
        kept = reveal(before, events[-1])
        view["hands"] = kept
    words = handend.explain(
        record.game,
        list(record.seats),
        line,
        kept,
        dict(record.options),
        bool(view.get("partnerships")),
    )
    return {**line, "kept": kept, "explain": words}


def _as_dealt(view: JSON, record: Record, h: int) -> None:
    """Show on ``view`` the hand ``h`` as the record deals it: every seat's tiles, their counts
    and the boneyard's (the state after a deal thrown in holds none of them)."""
    deal = record.hands[h].get("deal")
    if not isinstance(deal, list) or not all(isinstance(x, list) for x in deal):
        return
    view["hands"] = [[str(t) for t in x] for x in deal]
    view["hand_sizes"] = [len(x) for x in deal]
    boneyard = record.hands[h].get("boneyard")
    if "boneyard_size" in view and isinstance(boneyard, list):
        view["boneyard_size"] = len(boneyard)


def hand_ends(table: LiveTable) -> list[JSON]:
    """The ``hand_end`` (and ``game_end``) replay lines of the hands ``table`` has finished."""
    st = table.state
    if st is None:
        return []
    record = record_from_json(tableview.record(table))
    out: list[JSON] = []
    lines: Iterator[JSON] = get_spec(table.game).replay(record)
    for line in lines:
        if line.get("type") in ("hand_end", "game_end"):
            out.append(line)
    return out


def count_events(raw: dict[str, object]) -> int:
    """How many events an uploaded record holds (counted before any replay; a malformed
    record counts 0 and is refused by the replay with its reason).

    >>> count_events({"hands": [{"events": [{}, {}]}, {"events": [{}]}]})
    3
    """
    hands = raw.get("hands")
    if not isinstance(hands, list):
        return 0
    return sum(
        len(h["events"]) for h in hands if isinstance(h, dict) and isinstance(h.get("events"), list)
    )
