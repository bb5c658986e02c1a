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
    TILE_ID,
    Availability,
    FivesLayout,
    ids_of,
    mask_of,
)
from boneyard.games.fives.play import PLAYS
from boneyard.games.fives.playout import greedy_action
from boneyard.games.fives.worlds import (
    FULL,
    FivesHistory,
    HiddenDeal,
    Options,
    allowed_masks,
    read_choices,
)
from boneyard.games.highfive.actions import DRAW, PASS, Play
from boneyard.games.highfive.endgame import solve
from boneyard.games.highfive.observation import HighFiveObservation
from boneyard.games.highfive.settlement import payer_of
from boneyard.games.highfive.standing import win_chance
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
        self.me = obs.seat
        n = obs.num_seats
        policy = (
            Availability.SIDES_FIRST
            if obs.options.spinner_ends_need_both_sides
            else Availability.ANY
        )
        # The scores and chips when the hand began: the replay then pays every play of the
        # history exactly as it was paid (a payer short of chips included).
        self.start_scores, self.start_chips = _hand_start(obs)
        scan = FivesHistory(n, self.me, policy, 1)
        self.plays: list[Play | None] = []
        """Per history event: the play to replay (None for a draw or pass)."""
        read = self._read(scan)
        self.seats = scan.seats
        self.my_drawn = scan.my_drawn
        my_hand = mask_of([TILE_ID[own] for own in obs.hand])
        self.hide(n, scan.played_mask, my_hand, obs.hand_sizes, obs.boneyard_size)
        forbid = self._big6()
        self.allowed = allowed_masks(self.seats, self.others, self.unseen, forbid)
        self.choices = read_choices(self.seats, read)
        first = obs.history[0].seat if obs.history else obs.current_seat
        self.leader: int | None = None if self.big6 or self.big6_led else first

    def _read(self, scan: FivesHistory) -> list[tuple[int, int, tuple[int, int], Options]]:
        """Read the history on ``scan`` and list the plays to replay; the hidden seats' free
        choices, each with what every tile it might have held could have done instead."""
        obs = self.obs
        chips = self.start_chips.copy()
        read: list[tuple[int, int, tuple[int, int], Options]] = []
        for index, ev in enumerate(obs.history):
            if ev.kind == "play":
                assert ev.tile is not None
                tile = TILE_ID[ev.tile]
                payer = payer_of(ev.seat, obs.num_seats)
                if ev.seat != self.me and (ev.on is not None or not IS_DOUBLE[tile]):
                    # A free choice of a hidden seat (a double lead may have been the Big 6
                    # call).
                    cap = chips[payer] if obs.options.payment_cap == "chips" else 999
                    options = _options(scan.lay, scan.policy, scan.played_mask, cap)
                    read.append((ev.seat, index + 1, (ev.points, PIPS[tile]), options))
                chips[payer] -= ev.points
                scan.place(index, ev)
                self.plays.append(Play(ev.tile) if ev.on is None else Play(ev.tile, ev.on, ev.port))
            elif ev.kind in ("draw", "pass"):
                scan.check(index, ev, scan.open_mask())
                self.plays.append(None)
            else:
                raise BoneyardError(f"cannot sample a hand with a {ev.kind!r} event")
        return read

    def _big6(self) -> int:
        """Read the Big 6 call; the tiles no hidden seat may hold now.

        A pending call: the seat to lead holds the highest double dealt. The first hand of a
        game opens with the call: the lead was the highest double dealt, so no seat was dealt
        a higher one (a check before every event, moment 0; history events are moments 1,
        2, ...). Later hands open with it only after some outcomes of the previous hand, which
        the observation does not show: not assumed.
        """
        obs = self.obs
        self.big6 = obs.big6_lead and not obs.history
        forbid = 0
        if self.big6 and obs.current_seat == self.me:
            top = max((TILE_ID[h] for h in obs.hand if IS_DOUBLE[TILE_ID[h]]), default=-1)
            for d in range(28):
                if IS_DOUBLE[d] and d > top:
                    forbid |= 1 << d
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
                for info in self.seats:
                    info.checks.insert(0, (0, higher))
        return forbid

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


def _hand_start(obs: HighFiveObservation) -> tuple[list[int], list[int]]:
    """The scores and the chips when the hand began: those now, less every play of the
    history (paid by the scorer's payer)."""
    scores = list(obs.scores)
    chips = list(obs.chips_left)
    for ev in obs.history:
        if ev.kind == "play" and ev.points:
            scores[ev.seat] -= ev.points
            chips[payer_of(ev.seat, obs.num_seats)] += ev.points
    return scores, chips


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


def standing(world: HighFiveState, seat: int) -> float:
    """How the scores a finished hand leaves favour ``seat``: :data:`GAME_BONUS` × (2 p − 1),
    ``p`` its chance to win the game from them (:mod:`boneyard.games.highfive.standing`); 0
    once the game is over (:func:`hand_playout` counts that) and with more than 2 players (the
    chances are measured for two)."""
    if world.n != 2 or world.result() is not None:
        return 0.0
    return GAME_BONUS * (2 * win_chance(world.scores[seat], world.scores[1 - seat]) - 1)


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


SEARCH = GameSearch(
    WorldSampler, hand_playout, seat_scores, solve=solve, standing=standing, crowded=(16, 4)
)
"""How the expert bot searches High Five."""

__all__ = [
    "SEARCH",
    "WorldSampler",
    "greedy_action",
    "hand_playout",
    "playable_mask",
    "sample_world",
]
