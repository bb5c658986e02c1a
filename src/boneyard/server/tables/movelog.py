"""The table's move log: every action of every seat in words, with the points it scored.

One public log per table, the same for every seat and spectator. It is built from the game's typed
events as they happen — their replay lines (``spec.lines_of``, RECORDS.md §5) and the placement's
record fields (``on``, ``port``) — and from the hand ends, the game end and the table's own
events (a bot taking a seat, a resignation). It lives in memory: the server appends to it after
each committed action or deal, and rebuilds it from the table's log when it loads the table, so a
move costs no database read.

Hidden facts stay hidden: a draw never names its tile (the replay line does, the log entry does
not), and the tiles a hand's end reveals are those every seat kept once the hand is over
(:mod:`boneyard.server.tables.handend`).

An entry: ``{"n", "hand", "seat", "type", "tile"?, "on"?, "port"?, "count"?, "level"?,
"capture"?, "claim"?, "ruling"?, "points", "scores", "text"}``; a hand end adds ``reason``,
``winner``, ``award``, ``awards``?, ``hands`` (the tiles kept) and ``explain`` (sentences).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from boneyard.core.protocol import JSON, GameState, game_end_line
from boneyard.core.words import listing, reveal
from boneyard.games.registry import get_spec
from boneyard.server.tables import handend

PUBLIC_EVENT_FIELDS = ("on", "port")
"""Record fields of a placement a log entry copies (a draw's fields are never copied)."""
ACTIONS = frozenset({"lead", "play", "draw", "pass", "turn", "claim", "ruling"})
"""The entry types of a seat's own action."""
LINE_FIELDS = ("tile", "count", "level", "capture", "claim", "ruling")
Mark = tuple[int, tuple[int, int, int, bool], tuple["JSON | None", int, frozenset[object]]]
"""Where a log stood (:meth:`MoveLog.mark`)."""
Before = Callable[[], list[list[str]]] | list[list[str]] | None
"""Every seat's tiles before an action (or a function giving them), for a hand's end."""
RULINGS = {
    "BOGUS_PLAY": "a bogus play",
    "BOGUS_DRAW": "a bogus draw",
    "BOGUS_PASS": "a bogus pass",
    "WRONG_BONE": "a wrong bone",
    "MISPLACED_SPINNER": "a misplaced spinner",
    "MISDEAL_OVER": "a misdeal",
    "COMMISSIONER": "the commissioner's ruling",
    "FALSE_DOMINO": "a false domino",
}


def action_text(who: str, line: JSON) -> str:
    """An action's line in words: ``Ann played 5-5 on the spinner 5-0 — 20 points``."""
    kind = line.get("type")
    tile = line.get("tile")
    points = int(line.get("points") or 0)
    if kind == "lead":
        text = f"{who} led {tile}"
    elif kind == "play" and "level" in line:
        level = int(line.get("level") or 0)
        text = f"{who} placed {tile} on level {level}" if level else f"{who} placed {tile}"
    elif kind == "play":
        on = line.get("on")
        spinner = " the spinner" if str(line.get("port") or "").startswith(("SIDE", "END")) else ""
        text = f"{who} played {tile} on{spinner} {on}" if on else f"{who} played {tile}"
    elif kind == "turn":
        capture = line.get("capture")
        text = f"{who} played {tile}"
        text += f" and captured {capture}" if capture else " to the layout"
        claim = line.get("claim")
        if claim:
            pairs = claim if isinstance(claim[0], list) else [claim]
            text += ", claiming " + ", ".join(" and ".join(p) for p in pairs)
    elif kind == "claim":
        pairs = line.get("claim") or []
        text = f"{who} claimed " + ", ".join(" and ".join(p) for p in pairs)
    elif kind == "draw":
        text = f"{who} drew a tile"
    elif kind == "pass":
        text = f"{who} passed"
    elif kind == "ruling" and line.get("ruling") == "DRAW_RETRACTED":
        text = f"{who} put back {tile} (the grace rule)"
    elif kind == "ruling":
        text = f"Ruling against {who}: {RULINGS.get(str(line.get('ruling')), 'a referee’s ruling')}"
    else:
        text = f"{who} moved"
    if kind in ("play", "lead") and line.get("ruling") == "FALSE_DOMINO":
        text += " (a false domino)"
    if points:
        text += f" — {points} point{'' if points == 1 else 's'}"
    return text


class MoveLog:
    """The log of one table (see the module docstring). :meth:`take` after every applied action
    and deal appends what happened since; :meth:`mark`/:meth:`reset` undo a take whose commit
    failed."""

    def __init__(self, game: str, names: Sequence[str], options: JSON | None = None) -> None:
        self.game = game
        self.names = list(names)
        self.options = dict(options or {})
        self.entries: list[JSON] = []
        self._hand = 0
        self._events = 0
        self._ends = 0
        self._over = False
        self.last_end: JSON | None = None  # the latest hand end (with the tiles kept)
        self.changes = 0  # the table's seat changes noted so far
        self.ending_noted = False
        self.played = 0  # hands that ended (not thrown in)
        self.movers: frozenset[object] = frozenset()  # seats that acted before the first end

    # -- cursor -------------------------------------------------------------------------------

    def mark(self) -> Mark:
        """Where the log stands (to :meth:`reset` to)."""
        return (
            len(self.entries),
            (self._hand, self._events, self._ends, self._over),
            (self.last_end, self.played, self.movers),
        )

    def reset(self, mark: Mark) -> None:
        """Forget everything taken since ``mark``."""
        del self.entries[mark[0] :]
        self._hand, self._events, self._ends, self._over = mark[1]
        self.last_end, self.played, self.movers = mark[2]

    # -- taking -------------------------------------------------------------------------------

    def _add(self, entry: JSON) -> None:
        entry["n"] = len(self.entries)
        self.entries.append(entry)

    def who(self, seat: object) -> str:
        """A seat's name (as the record writes it)."""
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat]
        return "?"

    def take(self, state: GameState, before: Before = None) -> list[JSON]:
        """Append the entries of what ``state`` did since the last take; returns them.
        ``before`` is every seat's tiles before the last action, or a function giving them
        (asked only when a hand ended: what they kept is revealed)."""
        start = len(self.entries)
        spec = get_spec(self.game)
        if state.hands_dealt != self._hand:
            self._hand, self._events = state.hands_dealt, 0
            hand = state.hands_dealt - 1
            word = spec.hand_word
            self._add({"type": "deal", "hand": hand, "text": f"{word} {hand + 1} is dealt"})
        events = state.events
        hand = state.hands_dealt - 1
        for i in range(self._events, len(events)):
            event = events[i]
            record = event.to_json()
            for line in spec.logged(event, hand, i):
                self._add(self._entry(hand, line, record))
        self._events = len(events)
        ends = state.ends
        for k in range(self._ends, len(ends)):
            self._add(self._hand_end(state, ends[k].to_json(), before))
        self._ends = len(ends)
        result = state.result()
        if result is not None and not self._over:
            self._over = True
            self._add(game_end_entry(self.names, game_end_line(result)))
        return self.entries[start:]

    def _entry(self, hand: int, line: JSON, record: JSON) -> JSON:
        kind = line.get("type")
        entry: JSON = {"hand": hand, "seat": line.get("seat"), "type": kind}
        for key in LINE_FIELDS:
            if key in line and not (key == "tile" and kind == "draw"):
                entry[key] = line[key]  # (a draw's tile is hidden: never copied)
        if kind in ("play", "lead"):
            for key in PUBLIC_EVENT_FIELDS:
                if key in record:
                    entry[key] = record[key]
        entry["points"] = int(line.get("points") or 0)
        if "scores" in line:
            entry["scores"] = line["scores"]
        entry["text"] = action_text(self.who(entry["seat"]), entry)
        if not self.played and kind in ACTIONS:
            self.movers = self.movers | {entry["seat"]}
        return entry

    def _hand_end(self, state: GameState, line: JSON, before: Before) -> JSON:
        hands: list[list[str]] | None = None
        if line.get("reason") != "redeal" and before is not None:
            last = state.events[-1].to_json() if state.events else {}
            hands = reveal(before() if callable(before) else before, last)
        partners = bool(state.observation(None).to_json().get("partnerships"))
        entry: JSON = {**line, "hands": hands}
        entry["text"] = handend.summary(self.names, line, get_spec(self.game).hand_word)
        entry["explain"] = handend.explain(
            self.game, self.names, line, hands, self.options, partners
        )
        self.last_end = entry
        if line.get("reason") != "redeal":
            self.played += 1
        return entry

    def note(self, text: str, kind: str = "table", seat: int | None = None) -> JSON:
        """A table event in words (a seat changed hands, a resignation...)."""
        entry: JSON = {"type": kind, "seat": seat, "text": text}
        self._add(entry)
        return entry

    def note_changes(self, settings: JSON | None, upto: int) -> None:
        """Note the table's seat changes (``settings["seat_changes"]``) made at or before log
        sequence number ``upto`` that are not noted yet, and its ending once."""
        changes = (settings or {}).get("seat_changes") or []
        while self.changes < len(changes) and int(changes[self.changes].get("seq") or 0) <= upto:
            change = changes[self.changes]
            self.note(change_text(change), "seat", change.get("seat"))
            self.changes += 1
        ending = (settings or {}).get("ending")
        if isinstance(ending, dict) and not self.ending_noted and self.changes >= len(changes):
            self.ending_noted = True
            self.note(ending_text(self.names, ending), "ending", ending.get("seat"))


def change_text(change: JSON) -> str:
    """A seat change in words (``settings["seat_changes"]``, docs/server.md)."""
    name = change.get("name") or "A player"
    bot = change.get("bot") or "a"
    gone = "did not move" if change.get("stalled") else "left the table"
    return {
        "abandoned": f"{name}'s time ran out: a {bot} bot plays the seat",
        "reclaimed": f"{name} took the seat back",
        "resigned": f"{name} resigned: a {bot} bot plays the seat out, placed last",
        "handed": f"{name} {gone}: a {bot} bot plays the seat",
    }.get(str(change.get("event")), f"{name}'s seat changed")


def ending_text(names: Sequence[str], ending: JSON) -> str:
    """How a game ended early, in words (``settings["ending"]``)."""
    seat, w = ending.get("seat"), ending.get("winner")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "A player"
    won = names[w] if isinstance(w, int) and 0 <= w < len(names) else None
    reason = ending.get("reason")
    if reason == "resign":
        return f"{who} resigned: {won} wins." if won else f"{who} resigned."
    if reason == "claim":
        gone = "did not move" if ending.get("stalled") else "left the table"
        return f"{won} claimed the win: {who} {gone}." if won else "The win was claimed."
    if reason == "abort":
        return f"{who} aborted the game: no result, no rating."
    return "The game ended."


def game_end_entry(names: Sequence[str], line: JSON) -> JSON:
    """The game end in words."""
    w = line.get("winner")
    if isinstance(w, int) and 0 <= w < len(names):
        text = f"Game over: {names[w]} wins."
    else:
        won = [names[i] for i in line.get("winners") or [] if 0 <= i < len(names)]
        text = f"Game over: {listing(won)} share the win." if won else "Game over."
    return {**line, "text": text}


def hands_of(state: GameState) -> list[list[str]]:
    """Every seat's tiles as its own observation shows them (asked just before a hand's last
    action), as the game reads them (its spec's ``held``)."""
    held = get_spec(state.game).held
    return [held(state.observation(seat).to_json()) for seat in range(state.num_seats)]
