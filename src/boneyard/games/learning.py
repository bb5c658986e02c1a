"""What a game tells a learner: its actions as integer ids, its observations as numbers.

A game's :class:`Learning` (``GameSpec.learning``) is how the reinforcement-learning adapters
(:mod:`boneyard.rl`) see it, and all they know of it: they hold a spec, never a game's name.

* Its **codec** numbers the game's actions once and for all, read from their record form
  (``action.to_event()``, the form a process bot answers too), so that a learner has a fixed
  ``Discrete(size)`` space and a mask of the ids legal now. An action is a short sequence of ids
  (*tokens*), one decision each: one in most games; a High Fives turn that claims pairs is a
  claim token per pair, then the play token (the way the engine itself takes an unlimited claim,
  step by step). Ids depend only on the game and its table's size (Highrise: its tower), never
  on the position.
* Its **encoder** turns one seat's observation (its JSON form) into a fixed-length list of
  numbers. Seats are counted from the observer (0 is the observer, 1 the next to play after it
  ...), so a policy learns once for every seat; counts are scaled to about 0 … 1 (scores by the
  target). The adapters make it a numpy vector and clip it.

Each game's layout is in its ``learning`` module and in docs/bots.md. Both are pure: plain ints
and lists of floats, no numpy (the games layer needs none).

Its **fast path** (:class:`FastPath`, optional) gives the same ids and numbers straight from a
state, for self-play at the engine's pace: no observation is built, no JSON written. It reads a
few raw values of the state (bit masks, tile ids, counts: :attr:`FastPath.read`, a method of the
game's compiled :class:`~boneyard.games.reading.Reading`) and says how they make the vector
(:attr:`FastPath.layout`), which the adapters then fill for a whole batch of games at once
(:mod:`boneyard.games.batch`, :mod:`boneyard.rl.features`). Its numbers and ids are exactly the
encoder's and the codec's (tests/rl check it on random positions of every game).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from librt.vecs import vec

from boneyard.core.errors import BoneyardError
from boneyard.core.tiles import parse_halves
from boneyard.games.reading import Path, Reading

View = Mapping[str, Any]
"""An observation in its JSON form (``observation.to_json()``)."""
EventForm = Mapping[str, Any]
"""An action in its record form (``action.to_event()``)."""
Encoder = Callable[[View], list[float]]
"""One seat's observation as numbers: always as many for one table."""


class Codec(Protocol):
    """Numbers one game's actions (see the module docstring)."""

    @property
    def size(self) -> int:
        """How many ids there are (the ``Discrete`` size)."""
        ...

    def tokens(self, event: EventForm, view: View) -> tuple[int, ...]:
        """The ids of one legal action (its record form) in the position ``view`` (the acting
        seat's observation as JSON); raises BoneyardError for a form it cannot number."""
        ...

    def name(self, token: int) -> str:
        """What an id does, in record notation (``5-6 on 5-5 SIDE_B``, ``claim 0-1 1-2``)."""
        ...


@dataclass(frozen=True, slots=True)
class Segment:
    """A run of the vector, made from one raw value of :attr:`FastPath.read`:

    * ``bits``: a bit mask (a number column) -> ``size`` flags, bit ``i`` at place ``i``;
    * ``onehot``: an index (a number column, -1: none) -> ``size`` flags, one set;
    * ``num``: a number (a number column) -> one value, divided by ``scale``;
    * ``ids``: ids below ``size`` (a bytes column) -> ``size`` flags, one per id present.
    """

    kind: str
    size: int = 1
    scale: float = 1.0


@dataclass(frozen=True, slots=True)
class FastPath:
    """A game's ids and numbers read straight from its states (see the module docstring)."""

    layout: tuple[Segment, ...]
    """The vector, segment by segment (their sizes add up to the encoder's length)."""
    reading: Reading
    """The game's ids and raw numbers (:class:`~boneyard.games.reading.Reading`: compiled, so
    that the batch calls them as machine code)."""

    @property
    def read(self) -> Callable[[Any, int, vec[float], int], Sequence[bytes]]:
        """``read(state, seat, out, at)``: writes the number columns of ``seat``'s view into
        ``out[at:at + width]`` (a native vector of floats, which numpy views without a copy:
        :mod:`boneyard.games.batch`) and returns its bytes columns (the layout's ``ids``
        segments, in order)."""
        return self.reading.read

    @property
    def ids(self) -> Callable[[Any, Sequence[object]], list[Path]]:
        """``ids(state, actions)``: the ids of each legal action of the seat to move (the
        codec's tokens, as a :data:`Path`)."""
        return self.reading.ids

    @property
    def size(self) -> int:
        """The vector's length."""
        return sum(s.size for s in self.layout)

    @property
    def width(self) -> int:
        """How many number columns :attr:`read` writes."""
        return sum(1 for s in self.layout if s.kind != "ids")


@dataclass(frozen=True, slots=True)
class Learning:
    """How a learner sees one game (see the module docstring)."""

    codec: Callable[[View], Codec]
    """``codec(view)``: the game's codec, sized by a first observation of the table (Highrise:
    its tower's rows and columns)."""
    features: Callable[[int, View], Encoder]
    """``features(players, view)``: the encoder of a table of ``players`` seats, sized by a
    first observation of it (its length is the length of every vector of that table)."""
    fast: Callable[[int, object], FastPath] | None = None
    """``fast(players, state)``: the fast path of a table of ``players`` seats, sized by a
    dealt state of it (``None``: the game has none; the adapters then use the encoder)."""


def seat_columns(players: int, held: float, target: float) -> tuple[Segment, ...]:
    """The segments of :func:`seats_vector`: tiles held / ``held`` and score / ``target``, per
    seat from the observer."""
    return (Segment("num", 1, held), Segment("num", 1, target)) * players


def tile_index(tiles: Sequence[object]) -> dict[str, int]:
    """Each tile's notation -> its place in ``tiles`` (a set's order numbers its tiles)."""
    return {str(t): i for i, t in enumerate(tiles)}


def tile_id(index: Mapping[str, int], text: object) -> int:
    """The number of a tile written ``text`` (either half first); raises BoneyardError."""
    if isinstance(text, str) and text in index:
        return index[text]
    if isinstance(text, str):
        try:
            lo, hi = sorted(parse_halves(text))
        except BoneyardError:
            pass
        else:
            key = f"{lo}-{hi}"
            if key in index:
                return index[key]
    raise BoneyardError(f"{text!r} is not a tile of this game")


def tiles_vector(index: Mapping[str, int], tiles: Sequence[str] | None) -> list[float]:
    """1 for each tile of ``tiles``, 0 for the others of the set (in its order)."""
    out = [0.0] * len(index)
    for t in tiles or ():
        out[index[t]] = 1.0
    return out


def seats_vector(view: View, players: int, held: float, target: float) -> list[float]:
    """Per seat from the observer: tiles held / ``held`` and score / ``target``."""
    me = view.get("seat") or 0
    out: list[float] = []
    sizes, scores = view.get("hand_sizes") or [0] * players, view["scores"]
    for k in range(players):
        s = (me + k) % players
        out += [sizes[s] / held, scores[s] / target]
    return out


def to_move(view: View) -> float:
    """1 when the observer is the seat to move, else 0."""
    return (
        1.0
        if view.get("current_seat") is not None and view["current_seat"] == view.get("seat")
        else 0.0
    )
