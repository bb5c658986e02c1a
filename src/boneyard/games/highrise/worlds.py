"""Determinization for Highrise: whole game states consistent with one seat's observation.

:class:`WorldSampler` builds, from a :class:`~boneyard.games.highrise.state.HighriseObservation`
only (its ``basement`` and ``history`` replay the tower of the hand), states in which the
observer's hand, the tower, the spacers left, every hand size, the pile size, the scores and the
public history of the hand are those observed, and the unseen tiles (the set less the basement,
the observer's hand and every placed tile) are spread over the other hands and the pile.

Constraints enforced (RULES §4.4: a seat that can place must place, and draws only otherwise):

* a seat that **drew** held no tile placeable on the tower of that moment (the spacers left
  included); if the same seat did not place next, the tile it drew did not fit either, so after
  the draw its whole hand held no placeable tile;
* a seat that **passed** held no placeable tile;
* a tile drawn later is exempt from earlier checks; each hidden draw is given a tile the seat
  held or placed later, acquired no earlier than allowed (a tile placed right after a draw is the
  tile drawn: nothing else in the hand fitted), and the pile order is the drawn tiles in the
  order drawn, then the rest shuffled;
* every sampled world is then replayed under the rules from its set-up (``early_block``
  included), so a world breaking any rule is rejected.

Sampling and its exactness are those of :class:`boneyard.games.fives.worlds.HiddenDeal`
(rejection sampling, then constrained sequential sampling, then an exhaustive randomised search);
:meth:`sample` does not read the other seats' choices among placements (Perfect Information
Monte Carlo), :meth:`~boneyard.games.fives.worlds.HiddenDeal.infer` weighs worlds by them (every
free placement of a hidden seat is recorded with what each tile could have done there). Earlier
hands are not reconstructed: a world is for search, not for writing a record.

>>> import random
>>> from boneyard.games.highrise import new_game
>>> real = new_game(2, {})
>>> real.deal_random(random.Random(3))
>>> obs = real.observation(real.current_seat)
>>> world = WorldSampler(obs).sample(random.Random(1))
>>> sorted(world.observation(obs.seat).hand) == sorted(obs.hand)
True
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from boneyard.core.errors import BoneyardError, IllegalActionError
from boneyard.core.tiles import Tile
from boneyard.games.fives.worlds import (
    HiddenDeal,
    Options,
    SeatHistory,
    allowed_masks,
    read_choices,
)
from boneyard.games.highrise.actions import Draw, HighriseAction, Pass, Place
from boneyard.games.highrise.observation import HighriseObservation
from boneyard.games.highrise.options import CARRY_OVER, HighriseOptions
from boneyard.games.highrise.playout import finish_hand, greedy_action
from boneyard.games.highrise.state import GAME_SPACERS, HandSetup, HighriseState
from boneyard.games.highrise.tower import GEOMETRIES, Tower
from boneyard.games.registry import GameSearch

GAME_BONUS = 50.0
"""Play-out value of winning the game within the hand, on top of the points."""


class _Event(NamedTuple):
    kind: str
    seat: int


class WorldSampler(HiddenDeal[HighriseState]):
    """Precomputed constraints of one observation; :meth:`sample` draws consistent worlds.

    Moments: event ``k`` of the hand happens at moment ``2k + 1``; a check "held no placeable
    tile" before it is at ``2k``, and the check after a draw that was not placed at ``2k + 2``.
    """

    def __init__(self, obs: HighriseObservation, tries: int = 200) -> None:
        if obs.seat is None or obs.hand is None:
            raise BoneyardError("a spectator's observation cannot be determinized: no hand")
        if obs.is_over or obs.current_seat is None:
            raise BoneyardError("there is no hand in play to sample")
        if not obs.basement:
            raise BoneyardError("the observation does not show the basement of the hand")
        self.obs = obs
        self.tries = tries
        self.me = obs.seat
        n = obs.num_seats
        self.template = HighriseState(n, obs_options(obs))
        tiles = self.template.tileset
        self.faces = [(t.lo, t.hi) for t in tiles.tiles]
        everything = (1 << len(self.faces)) - 1
        tower, seen = self._basement()
        self.seats = [SeatHistory() for _ in range(n)]
        self.my_drawn = {}
        self.events: list[_Event] = []
        self.actions: list[HighriseAction] = []
        seen, read = self._read(tower, seen, everything)
        my_hand = 0
        for t in obs.hand:
            my_hand |= 1 << tiles.index(t)
        self.hide(n, seen, my_hand, obs.hand_sizes, obs.pile_size, everything)
        self.allowed = allowed_masks(self.seats, self.others, self.unseen)
        self.choices = read_choices(self.seats, read)
        self.starter = obs.starter if obs.starter is not None else obs.current_seat

    def _basement(self) -> tuple[Tower, int]:
        """The tower as the hand began (the basement, the spacers then) and the basement's
        tiles."""
        obs = self.obs
        tiles = self.template.tileset
        used = sum(1 for _s, a in obs.history if type(a) is Place and a.spacer is not None)
        self.start_spacers = obs.spacers_left + used
        basement = [(tiles.index(Tile.of(u, lo)), u, lo) for u, lo in obs.basement]
        wild7 = obs_options(obs).wild_on_wild_value == 7
        geo = GEOMETRIES[obs.base_layout]
        tower = Tower.from_basement(geo, basement, self.start_spacers, wild7)
        seen = 0
        for tid, _u, _l in basement:
            seen |= 1 << tid
        return tower, seen

    def _read(
        self, tower: Tower, seen: int, everything: int
    ) -> tuple[int, list[tuple[int, int, tuple[int, int], Options]]]:
        """Read the history on ``tower`` and list the events and actions to replay; the tiles
        seen then, and the hidden seats' free choices."""
        read: list[tuple[int, int, tuple[int, int], Options]] = []
        for k, (seat, action) in enumerate(self.obs.history):
            if type(action) is Place:
                seen |= 1 << self._read_place(k, seat, action, tower, everything & ~seen, read)
            else:
                self._read_check(k, seat, action, tower)
        return seen, read

    def _read_place(
        self,
        k: int,
        seat: int,
        action: Place,
        tower: Tower,
        free: int,
        read: list[tuple[int, int, tuple[int, int], Options]],
    ) -> int:
        """Place event ``k`` on ``tower`` and return its tile. A free choice of a hidden seat
        (right after its draw it could place only the tile drawn) goes to ``read``, with what
        every tile of ``free`` it might have held could have done instead."""
        history = self.obs.history
        geo = tower.geometry
        tid = self.template.tileset.index(action.tile)
        i, j = geo.index(action.cells[0]), geo.index(action.cells[1])
        fa, fb = action.faces
        if i > j:
            i, j, fa, fb = j, i, fb, fa
        drew = k > 0 and history[k - 1][0] == seat and type(history[k - 1][1]) is Draw
        if seat != self.me and not drew:
            values = self.template.values
            options = _options(tower, self.faces, free, values)
            made = tower.copy().place(tid, i, j, fa, fb)[1]
            read.append((seat, 2 * k + 1, (made, values[tid]), options))
        tower.place(tid, i, j, fa, fb)
        self.seats[seat].played[tid] = 2 * k + 1
        self.events.append(_Event("play", seat))
        self.actions.append(Place(action.faces, action.cells, action.spacer))
        return tid

    def _read_check(self, k: int, seat: int, action: HighriseAction, tower: Tower) -> None:
        """A draw or pass, event ``k``: its seat held no placeable tile before it, nor after a
        draw it did not place at once (the observer's own draw shows its tile)."""
        history = self.obs.history
        info = self.seats[seat]
        mask = 0
        for tid, (x, y) in enumerate(self.faces):
            if tower.fits(x, y):
                mask |= 1 << tid
        info.checks.append((2 * k, mask))
        if type(action) is Draw:
            info.draws.append(2 * k + 1)
            placed_next = (
                k + 1 < len(history)
                and history[k + 1][0] == seat
                and type(history[k + 1][1]) is Place
            ) or (k + 1 == len(history) and self.obs.current_seat == seat)
            if not placed_next:
                info.checks.append((2 * k + 2, mask))
            if seat == self.me:
                if action.tile is None:
                    raise BoneyardError("the observation hides the seat's own draw")
                self.my_drawn[k] = self.template.tileset.index(action.tile)
            self.events.append(_Event("draw", seat))
            self.actions.append(Draw())
        else:
            self.events.append(_Event("pass", seat))
            self.actions.append(Pass())

    def build(
        self, hands: dict[int, int], draws: dict[int, list[int]], rng: random.Random
    ) -> HighriseState | None:
        """The state with these hidden hands and draws, replayed under the rules; None if the
        replay breaks one."""
        obs = self.obs
        n = obs.num_seats
        deal, order = self.setup(self.events, hands, draws, rng)
        tiles = self.template.tileset.tiles
        world = HighriseState(n, self.template.options)
        if world.options.spacers_per_hand == CARRY_OVER:
            world.spacers_used = GAME_SPACERS - self.start_spacers
        setup = HandSetup(
            self.starter,
            obs.basement,
            tuple(tuple(tiles[t] for t in hand) for hand in deal),
            tuple(tiles[t] for t in order),
        )
        try:
            world.deal_hand(setup)
            for action in self.actions:
                world.apply(action)
        except (IllegalActionError, BoneyardError):
            return None
        if world.hand_over or world.turn != obs.current_seat:
            return None
        world.scores = list(obs.scores)
        world.hands_dealt = obs.hand_number + 1
        if obs.last_hand_end is not None:
            world.ends = [obs.last_hand_end]
        return world


def _options(tower: Tower, faces: list[tuple[int, int]], free: int, values: Any) -> Options:
    """What every tile of ``free`` (a bit mask) could do on ``tower``: the ``(points, hand
    value)`` of each of its legal placements."""
    out = []
    m = free
    while m:
        low = m & -m
        tid = low.bit_length() - 1
        m ^= low
        x, y = faces[tid]
        places: list[Any] = []
        tower.add_placements(places, tid, x, y)
        if places:
            out.append((tid, tuple((p[7], values[tid]) for p in places)))
    return tuple(out)


def obs_options(obs: HighriseObservation) -> HighriseOptions:
    """The options of the observed game."""
    if obs.options is None:
        raise BoneyardError("the observation does not carry the game's options")
    return obs.options


def hand_playout(state: HighriseState, seat: int, rng: random.Random) -> float:
    """Finish the hand with the greedy play-out policy for every seat (changing ``state``);
    ``seat``'s points minus the most any opponent scores from here (going out and block
    settlements included), ±:data:`GAME_BONUS` if the hand ends the game."""
    before = list(state.scores)
    finish_hand(state, rng)
    scores = state.scores
    gains = [scores[i] - before[i] for i in range(len(scores))]
    value = float(gains[seat] - max(g for i, g in enumerate(gains) if i != seat))
    result = state.result()
    if result is not None:
        if result.winner == seat:
            value += GAME_BONUS
        elif result.winner is not None:
            value -= GAME_BONUS
    return value


def seat_scores(world: HighriseState, seat: int) -> tuple[int, list[int]]:
    """The seat's running score and every opponent's."""
    return world.scores[seat], [x for i, x in enumerate(world.scores) if i != seat]


# The compiled engine plays a Highrise hand over ten times as fast as when the levels were
# tuned. At eight times the worlds the expert's p95 decision time came back to the 0.9 s budget;
# the tower's pair masks (2026-11-28) took it down by a quarter to a third again, and eleven
# times brought it back (docs/performance.md, "Bot strength"). Since the expert spends its
# worlds by sequential halving (2026-12-02), a turn with many placements no longer costs many
# times one with two, and six times keeps every decision well inside the budget with the same
# strength (docs/performance.md, "Sequential halving").
SEARCH = GameSearch(WorldSampler, hand_playout, seat_scores, world_scale=6)
"""How the expert bot searches Highrise."""

__all__ = ["SEARCH", "WorldSampler", "greedy_action", "hand_playout"]
