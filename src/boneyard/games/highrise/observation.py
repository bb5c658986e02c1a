"""What one seat (or a spectator) may see of a Highrise game: the whole tower (public), its own
hand, the other hands' sizes, the pile size, spacers and scores."""

from __future__ import annotations

from dataclasses import dataclass

from boneyard.core.protocol import HandEnd
from boneyard.core.records import JSON
from boneyard.core.tiles import WILD, Tile, parse_halves
from boneyard.core.words import same
from boneyard.games.highrise.actions import Draw, HighriseAction, Pass, Place, oriented_text
from boneyard.games.highrise.options import HighriseOptions, build_highrise_options
from boneyard.games.highrise.tower import Cell, face_text

GAME = "highrise"


@dataclass(frozen=True, slots=True)
class HighriseObservation:
    """What one seat (``None``: a spectator) sees: the whole tower (public), its own hand, the
    other hands' sizes, the pile size, spacers and scores. Never another hand or the pile order."""

    seat: int | None
    legal_actions: tuple[HighriseAction, ...]
    num_seats: int
    hand_number: int
    starter: int | None
    current_seat: int | None
    base_layout: str
    rows: int
    cols: int
    faces: tuple[int, ...]
    """Top face of each cell (``cell = row * cols + col``)."""
    levels: tuple[int, ...]
    tops: tuple[Tile, ...]
    """The domino whose half is on top of each cell (public: it is face up)."""
    on_spacer: tuple[bool, ...]
    wild_values: tuple[int, ...]
    """What a wild placed on each cell would count."""
    spacers_left: int
    hand: tuple[Tile, ...] | None
    drawn: Tile | None
    """The tile this seat has just drawn and must place (only in its own view)."""
    hand_sizes: tuple[int, ...]
    pile_size: int
    scores: tuple[int, ...]
    target: int
    is_over: bool
    winner: int | None
    last_hand_end: HandEnd | None
    basement: tuple[tuple[int, int], ...] = ()
    """The current hand's basement, ``(upper face, lower face)`` per slot (public: face up)."""
    history: tuple[tuple[int, HighriseAction], ...] = ()
    """The current hand's events so far as ``(seat, action)``: placements in full, passes, and
    draws — with the tile drawn only for this seat's own draws (``Draw()`` for the others')."""
    options: HighriseOptions | None = None
    """The game's options (public)."""

    @property
    def game(self) -> str:
        """``highrise``."""
        return GAME

    def _cell(self, cell: Cell) -> int:
        return cell[0] * self.cols + cell[1]

    def action_points(self, action: object) -> int:
        """Points the placement scores at once (level × values); 0 for draws and passes."""
        if not isinstance(action, Place):
            return 0
        i, j = self._cell(action.cells[0]), self._cell(action.cells[1])
        level = max(self.levels[i], self.levels[j]) + 1
        fa, fb = action.faces
        va = self.wild_values[i] if fa == WILD else fa
        vb = self.wild_values[j] if fb == WILD else fb
        return level * (va + vb)

    def action_weight(self, action: object) -> int:
        """The hand value of the placed tile (a wild half 7); -1 for draws and passes."""
        return action.tile.pips if isinstance(action, Place) else -1

    def to_json(self) -> JSON:
        """The JSON form sent to this seat's client."""
        return {
            "game": GAME,
            "seat": self.seat,
            "legal_actions": [a.to_event() for a in self.legal_actions],
            "num_seats": self.num_seats,
            "hand_number": self.hand_number,
            "starter": self.starter,
            "current_seat": self.current_seat,
            "base_layout": self.base_layout,
            "rows": self.rows,
            "cols": self.cols,
            "tower": [
                {
                    "cell": [k // self.cols, k % self.cols],
                    "face": face_text(self.faces[k]),
                    "level": self.levels[k],
                    "tile": str(self.tops[k]),
                    "spacer": self.on_spacer[k],
                    "wild": self.wild_values[k],
                }
                for k in range(len(self.tops))  # no tower before the first deal
            ],
            "spacers_left": self.spacers_left,
            "hand": None if self.hand is None else [str(t) for t in self.hand],
            "drawn": None if self.drawn is None else str(self.drawn),
            "hand_sizes": list(self.hand_sizes),
            "pile_size": self.pile_size,
            "scores": list(self.scores),
            "target": self.target,
            "is_over": self.is_over,
            "winner": self.winner,
            "last_hand_end": None if self.last_hand_end is None else self.last_hand_end.to_json(),
            "basement": [oriented_text(u, lo) for u, lo in self.basement],
            "history": [{"seat": seat, **a.to_event()} for seat, a in self.history],
            "options": None if self.options is None else self.options.to_json(),
        }


def _face(text: str) -> int:
    return WILD if text == "W" else int(text)


def _cell_of(raw: list[int]) -> Cell:
    return (int(raw[0]), int(raw[1]))


def _action(ev: JSON) -> HighriseAction:
    """An action's record form read back (a draw's tile only when shown)."""
    if "play" in ev:
        a, b = parse_halves(ev["play"])
        spacer = None if ev.get("spacer") is None else _cell_of(ev["spacer"])
        return Place((a, b), (_cell_of(ev["cells"][0]), _cell_of(ev["cells"][1])), spacer)
    if "draw" in ev:
        return Draw(None if ev["draw"] is None else Tile.parse(ev["draw"]))
    return Pass()


def _hand_end(doc: JSON | None) -> HandEnd | None:
    if doc is None:
        return None
    awards = doc.get("awards")
    return HandEnd(
        doc["hand"],
        doc["reason"],
        doc["winner"],
        doc["award"],
        None if awards is None else tuple(awards),
        tuple(doc["scores"]),
    )


def held(view: JSON) -> list[str]:
    """The tiles a seat's observation JSON shows it holds: its hand, and a drawn tile still to
    place (the spec's ``held``).

    >>> held({"hand": ["1-2"], "drawn": "W-3"}), held({"hand": None, "drawn": None})
    (['1-2', 'W-3'], [])
    """
    hand = view.get("hand")
    tiles = [str(t) for t in hand] if isinstance(hand, list) else []
    drawn = view.get("drawn")
    if isinstance(drawn, str) and not any(same(drawn, t) for t in tiles):
        tiles.append(drawn)
    return tiles


def observation_from_json(doc: JSON) -> HighriseObservation:
    """The observation whose :meth:`~HighriseObservation.to_json` is ``doc``, equal to it."""
    tower = doc["tower"]
    size = doc["rows"] * doc["cols"]
    hand = doc["hand"]
    return HighriseObservation(
        seat=doc["seat"],
        legal_actions=tuple(_action(ev) for ev in doc["legal_actions"]),
        num_seats=doc["num_seats"],
        hand_number=doc["hand_number"],
        starter=doc["starter"],
        current_seat=doc["current_seat"],
        base_layout=doc["base_layout"],
        rows=doc["rows"],
        cols=doc["cols"],
        faces=tuple(_face(c["face"]) for c in tower) if tower else (0,) * size,
        levels=tuple(c["level"] for c in tower) if tower else (0,) * size,
        tops=tuple(Tile.parse(c["tile"]) for c in tower),
        on_spacer=tuple(c["spacer"] for c in tower) if tower else (False,) * size,
        wild_values=tuple(c["wild"] for c in tower) if tower else (0,) * size,
        spacers_left=doc["spacers_left"],
        hand=None if hand is None else tuple(Tile.parse(t) for t in hand),
        drawn=None if doc["drawn"] is None else Tile.parse(doc["drawn"]),
        hand_sizes=tuple(doc["hand_sizes"]),
        pile_size=doc["pile_size"],
        scores=tuple(doc["scores"]),
        target=doc["target"],
        is_over=doc["is_over"],
        winner=doc["winner"],
        last_hand_end=_hand_end(doc["last_hand_end"]),
        basement=tuple(parse_halves(t) for t in doc["basement"]),
        history=tuple((e["seat"], _action(e)) for e in doc["history"]),
        options=None if doc["options"] is None else build_highrise_options(doc["options"]),
    )
