"""Determinization for High Five: whole game states consistent with one seat's observation.

:func:`sample_world` takes only a :class:`~boneyard.games.highfive.state.HighFiveObservation`
and an injected generator and builds a :class:`~boneyard.games.highfive.state.HighFiveState` in
which

* the observer's hand, the layout, the counts of every hand and of the boneyard, the scores, the
  chips and the public history of the hand are exactly those observed;
* the unseen tiles are spread over the other hands and the boneyard;
* a seat that drew or passed while some ends were open to play held no tile matching them at
  that moment (under ``strict`` enforcement a draw or pass is only legal without a playable
  tile); a tile it drew later is exempt from the earlier draws and passes, and each of its hidden
  draws is given a tile it held or played later, acquired no earlier than allowed;
* under a pending Big 6 call the seat to lead holds the highest double dealt, and in the first
  hand of a game (which always opens with the call) no seat was dealt a double higher than the
  lead (later hands open with the call only after outcomes of earlier hands that the
  observation does not show, so it is not assumed there).

Sampling is exact (every world returned is consistent): a candidate world is drawn by
rejection sampling (each hidden hand uniform over the tiles its seat may hold), then, when that
keeps failing, by constrained sequential sampling (tiles in a random order, each kept only if a
matching of the seat's draws to the tiles it had to draw still exists — checked with augmenting
paths), its hidden draws are assigned by randomised backtracking, and the hand is then replayed
under the strict rules from the sampled deal, so a world that breaks any rule is rejected; after
``tries`` attempts an exhaustive randomised search finds a consistent world (one always exists:
the real one). While rejection succeeds, each consistent hidden-hand set is equally likely for
one hidden hand (2 players); the sequential fallback is consistent but not exactly uniform.
:meth:`sample` does not use the other seats' earlier choices as evidence (Perfect Information
Monte Carlo); :meth:`~boneyard.games.fives.worlds.HiddenDeal.infer` does: the sampler records
each hidden seat's free choices, and worlds are drawn in proportion to their likelihood.

Earlier hands of the game are not reconstructed: a sampled world only counts them, so it is
for search, not for writing a record.

>>> import random
>>> from boneyard.games.highfive.state import HighFiveState
>>> real = HighFiveState(2)
>>> real.deal_random(random.Random(3))
>>> obs = real.observation(real.current_seat)
>>> world = sample_world(obs, random.Random(1))
>>> world.observation(obs.seat) == obs
True
"""

from __future__ import annotations

import random

from boneyard.core.errors import BoneyardError, IllegalActionError
from boneyard.core.state import PLAYING
from boneyard.games.fives.layout import (
    IS_DOUBLE,
    PIP_MASK,
    PIPS,
    PORT_CODE,
    TILE_ID,
    Availability,
    FivesLayout,
    ids_of,
)
from boneyard.games.fives.play import PLAYS, default_port
from boneyard.games.fives.worlds import (
    FULL,
    HiddenDeal,
    Options,
    SeatHistory,
    allowed_masks,
    greedy_action,
    read_choices,
)
from boneyard.games.highfive.actions import DRAW, PASS, Play
from boneyard.games.highfive.endgame import solve
from boneyard.games.highfive.observation import HighFiveObservation
from boneyard.games.highfive.state import HighFiveState
from boneyard.games.registry import GameSearch

GAME_BONUS = 100.0
"""Play-out value of winning the game (reaching 150) within the hand, on top of the chips."""


class WorldSampler(HiddenDeal[HighFiveState]):
    """Precomputed constraints of one observation; :meth:`sample` draws consistent worlds.

    Build it once per decision and sample many worlds from it.
    """

    def __init__(self, obs: HighFiveObservation, tries: int = 200) -> None:
        if obs.seat is None:
            raise BoneyardError("a spectator's observation cannot be determinized: no hand")
        if obs.options.enforcement != "strict":
            raise BoneyardError(
                "the expert bot plays High Five under strict enforcement only "
                f"(this game uses {obs.options.enforcement!r})"
            )
        if obs.is_over or obs.current_seat is None:
            raise BoneyardError("there is no hand in play to sample")
        self.obs = obs
        self.tries = tries
        n = obs.num_seats
        me = obs.seat
        self.me = me
        policy = (
            Availability.SIDES_FIRST
            if obs.options.spinner_ends_need_both_sides
            else Availability.ANY
        )
        seats = [SeatHistory() for _ in range(n)]
        lay = FivesLayout()
        played_mask = 0
        my_drawn: dict[int, int] = {}
        self.plays: list[Play | None] = []
        """Per history event: the play to replay (None for a draw or pass)."""
        # The scores and chips when the hand began: the replay then pays every play of the
        # history exactly as it was paid (a payer short of chips included).
        self.start_scores = list(obs.scores)
        self.start_chips = list(obs.chips_left)
        for ev in obs.history:
            if ev.kind == "play" and ev.points:
                self.start_scores[ev.seat] -= ev.points
                self.start_chips[_payer(ev.seat, n)] += ev.points
        chips = self.start_chips.copy()
        read: list[tuple[int, int, tuple[int, int], Options]] = []
        for index, ev in enumerate(obs.history):
            info = seats[ev.seat]
            if ev.kind == "play":
                assert ev.tile is not None
                tile = TILE_ID[ev.tile]
                if ev.seat != me and (ev.on is not None or not IS_DOUBLE[tile]):
                    # A free choice of a hidden seat (a double lead may have been the Big 6
                    # call): what every tile it might have held could have done instead.
                    cap = chips[_payer(ev.seat, n)] if obs.options.payment_cap == "chips" else 999
                    options = _options(lay, policy, played_mask, cap)
                    read.append((ev.seat, index + 1, (ev.points, PIPS[tile]), options))
                chips[_payer(ev.seat, n)] -= ev.points
                if ev.on is None:
                    lay.place(tile)
                    self.plays.append(Play(ev.tile))
                else:
                    anchor = TILE_ID[ev.on]
                    code = (
                        PORT_CODE[ev.port]
                        if ev.port is not None
                        else default_port(lay, policy, tile, anchor)
                    )
                    lay.place(tile, anchor, code)
                    self.plays.append(Play(ev.tile, ev.on, ev.port))
                played_mask |= 1 << tile
                info.played[tile] = index + 1
            elif ev.kind in ("draw", "pass"):
                mask = 0
                for value, _a, _c in lay.available(policy):
                    mask |= PIP_MASK[value]
                info.checks.append((index + 1, mask))
                if ev.kind == "draw":
                    info.draws.append(index + 1)
                    if ev.seat == me:
                        assert ev.tile is not None
                        my_drawn[index] = TILE_ID[ev.tile]
                self.plays.append(None)
            else:
                raise BoneyardError(f"cannot sample a hand with a {ev.kind!r} event")
        self.seats = seats
        self.my_hand = 0
        for own in obs.hand:
            self.my_hand |= 1 << TILE_ID[own]
        self.my_drawn = my_drawn
        self.unseen = FULL & ~self.my_hand & ~played_mask
        self.others = [s for s in range(n) if s != me]
        self.sizes = obs.hand_sizes
        if self.unseen.bit_count() != sum(self.sizes[s] for s in self.others) + obs.boneyard_size:
            raise BoneyardError("the observation's tile counts do not add up")
        # Pending Big 6 call: the seat to lead holds the highest double dealt.
        self.big6 = obs.big6_lead and not obs.history
        forbid = 0
        if self.big6 and obs.current_seat == me:
            top = max((TILE_ID[h] for h in obs.hand if IS_DOUBLE[TILE_ID[h]]), default=-1)
            for d in range(28):
                if IS_DOUBLE[d] and d > top:
                    forbid |= 1 << d
        # The first hand of a game opens with the Big 6 call: the lead was the highest double
        # dealt, so no seat was dealt a higher one (a check before every event, moment 0;
        # history events are moments 1, 2, ...). Later hands open with it only after some
        # outcomes of the previous hand, which the observation does not show: not assumed.
        self.big6_led = False
        if obs.history and obs.hand_number == 0:
            lead = obs.history[0]
            assert lead.tile is not None
            led = TILE_ID[lead.tile]
            if IS_DOUBLE[led]:
                self.big6_led = True
                higher = 0
                for d in range(led + 1, 28):
                    if IS_DOUBLE[d]:
                        higher |= 1 << d
                for info in seats:
                    info.checks.insert(0, (0, higher))
        self.seats = seats
        self.allowed = allowed_masks(seats, self.others, self.unseen, forbid)
        self.choices = read_choices(seats, read)
        first = obs.history[0].seat if obs.history else obs.current_seat
        self.leader: int | None = None if self.big6 or self.big6_led else first

    def build(
        self, hands: dict[int, int], draws: dict[int, list[int]], rng: random.Random
    ) -> HighFiveState | None:
        """The state with these hidden hands and draws, replayed under the strict rules; None if
        the replay breaks a rule."""
        obs = self.obs
        n = obs.num_seats
        deal, order = self.setup(obs.history, hands, draws, rng)
        state = HighFiveState(n, obs.options)
        state.scores = self.start_scores.copy()
        state.chips = self.start_chips.copy()
        state.advantage = self.leader
        state._begin(deal, order)
        first = obs.history[0].seat if obs.history else obs.current_seat
        if state.current_seat != first:
            return None
        try:
            for play in self.plays:
                if play is None:
                    if state.bpos < len(state.boneyard):
                        state.apply(DRAW)
                    else:
                        state.apply(PASS)
                else:
                    state.apply(play)
        except IllegalActionError:
            return None
        if state.phase != PLAYING or state.turn != obs.current_seat:
            return None
        state.scores = list(obs.scores)
        state.chips = list(obs.chips_left)
        state.hands_dealt = obs.hand_number + 1
        return state


def _payer(seat: int, n: int) -> int:
    """The seat that pays ``seat``'s scores (RULES §1.2)."""
    return (seat + 2) % 4 if n == 4 else (seat - 1) % n


def _options(lay: FivesLayout, policy: int, placed: int, cap: int) -> Options:
    """What every tile not yet on the table could do on ``lay``: the lead (every tile) or its
    placements on the ends open to play, each ``(points, pips)``, points capped at ``cap``."""
    free = FULL & ~placed
    by_tile: dict[int, list[tuple[int, int]]] = {}
    if lay.empty:
        for t in ids_of(free):
            count = PIPS[t]
            by_tile[t] = [(min(cap, count) if count and count % 5 == 0 else 0, PIPS[t])]
    else:
        for play in PLAYS.placements(lay, policy, free):
            t, anchor, code = play.key
            count = lay.count_after(t, anchor, code)
            points = min(cap, count) if count > 0 and count % 5 == 0 else 0
            by_tile.setdefault(t, []).append((points, PIPS[t]))
    return tuple((t, tuple(p)) for t, p in by_tile.items())


def sample_world(obs: HighFiveObservation, rng: random.Random) -> HighFiveState:
    """One full state consistent with everything ``obs`` shows (see the module docstring)."""
    return WorldSampler(obs).sample(rng)


def hand_playout(state: HighFiveState, seat: int, rng: random.Random) -> float:
    """Finish the hand of ``state`` greedily (changing it); ``seat``'s chip differential: what
    it scores minus the most any opponent scores from here (settlements included), plus
    :data:`GAME_BONUS` if the hand ends the game with ``seat`` the winner (minus it if another
    seat wins)."""
    before = state.scores.copy()
    hand = state.hands_dealt
    while state.phase == PLAYING and state.hands_dealt == hand:
        state.apply(greedy_action(state, rng))
    gains = [state.scores[i] - before[i] for i in range(state.n)]
    mine = gains[seat]
    value = float(mine - max(g for i, g in enumerate(gains) if i != seat))
    result = state.result()
    if result is not None:
        value += GAME_BONUS if result.winner == seat else -GAME_BONUS
    return value


def playable_mask(values: list[int]) -> int:
    """Tiles matching any of the end ``values``.

    >>> from boneyard.games.fives.layout import TILES, ids_of
    >>> [str(TILES[t]) for t in ids_of(playable_mask([0]))]
    ['0-0', '0-1', '0-2', '0-3', '0-4', '0-5', '0-6']
    """
    m = 0
    for v in values:
        m |= PIP_MASK[v]
    return m


def seat_scores(world: HighFiveState, seat: int) -> tuple[int, list[int]]:
    """The seat's chips received and every opponent's."""
    return world.scores[seat], [x for i, x in enumerate(world.scores) if i != seat]


SEARCH = GameSearch(WorldSampler, hand_playout, seat_scores, solve=solve)
"""How the expert bot searches High Five."""

__all__ = [
    "SEARCH",
    "WorldSampler",
    "greedy_action",
    "hand_playout",
    "playable_mask",
    "sample_world",
]
