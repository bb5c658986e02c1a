"""Determinization for High Fives: whole game states consistent with one seat's observation.

:class:`WorldSampler` builds, from a :class:`~boneyard.games.high_fives.state.HighFivesObservation`
only, states in which the observer's hand, the layout (and the pairs claimable from it), every
score pile, the scores, the hand sizes and the progress of the pass (deal, turn, leader, tiles
still to be dealt or turned up) are those observed, and the unseen tiles — the double-fifteen set
less the observer's hand, the layout, the score piles and the pairs claimed this turn — are
spread at random over the other hands, the deals still to come and the tiles still to be turned
up at the last deal.

Constraints enforced: only the counts. High Fives has no draws and no passes, every seat holds a
tile at every turn, and any tile of a hand may be played (a non-matching tile simply joins the
layout; a matching one captures), so the public history proves nothing about a hidden hand: the
unseen tiles are exchangeable and a uniform random split of them is the conditional
distribution of the deal given the observation and the rules alone (:meth:`WorldSampler.sample`).

The plays say more, softly (:meth:`WorldSampler.infer`): a seat that captured for one point when
a tile worth four more would have scored probably held no such tile. The observation's
``deal_turns``, replayed on its ``deal_layout``, give the row each turn of the deal in play was
taken on, and so what every tile a hidden seat might have held could have scored there
(:func:`deal_choices`); candidate splits are weighed by how likely a
:class:`~boneyard.games.inference.PlayModel` makes the plays made (:data:`READING`: points,
and the played tile's pips as the greedy bot's tie-break). Earlier deals say nothing of the
hidden tiles: every tile of a deal is played out within it.

A sampled world starts mid-pass, only counting the earlier passes, with placeholder earlier
deals, so it is for search, not for writing a record.

>>> import random
>>> from boneyard.games.high_fives.state import HighFivesState
>>> real = HighFivesState(2)
>>> real.deal_random(random.Random(3))
>>> _ = real.apply(real.legal_actions()[0])
>>> obs = real.observation(real.current_seat)
>>> WorldSampler(obs).sample(random.Random(1)).observation(obs.seat) == obs
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from functools import cached_property

from boneyard.core.errors import BoneyardError
from boneyard.core.state import PLAYING
from boneyard.games.high_fives.actions import Turn
from boneyard.games.high_fives.observation import HighFivesObservation
from boneyard.games.high_fives.playout import finish_deals, greedy_action
from boneyard.games.high_fives.rules import (
    ALL_MASK,
    NUM_TILES,
    PIPS,
    TILE_ID,
    bits,
    mask_of,
    schedule,
)
from boneyard.games.high_fives.state import HighFivesState
from boneyard.games.high_fives.turns import TurnRules, enumerate_turns, without
from boneyard.games.inference import Choice, PlayModel, Style, log_likelihood, resample
from boneyard.games.registry import GameSearch

GAME_BONUS = 20.0
"""Play-out value of winning the game within the horizon, on top of the points."""
DEALS_AHEAD = 1
"""Play-outs finish the current deal and this many more deals of the pass (the layout a deal
leaves is played on by the next one, so its value shows only there)."""


class WorldSampler:
    """Precomputed constraints of one observation; :meth:`sample` draws consistent worlds."""

    def __init__(self, obs: HighFivesObservation) -> None:
        if obs.seat is None:
            raise BoneyardError("a spectator's observation cannot be determinized: no hand")
        if obs.is_over or obs.current_seat is None or obs.leader is None:
            raise BoneyardError("there is no pass in play to sample")
        self.obs = obs
        n = obs.num_seats
        self.me = obs.seat
        self.schedule = schedule(n, obs.options.remainder_timing)
        self.pending = tuple((TILE_ID[a], TILE_ID[b]) for a, b in obs.claimed_this_turn)
        self.my_ids = bytes(sorted(TILE_ID[t] for t in obs.hand))
        self.my_hand = mask_of(self.my_ids)
        self.layout = bytes([TILE_ID[t] for t in obs.layout] + [t for p in self.pending for t in p])
        """The row every world starts from (``bytes``, shared: a state never changes a row)."""
        self.pile_of = [-1] * NUM_TILES
        seen = self.my_hand | mask_of(self.layout)
        for seat, pile in enumerate(obs.piles):
            for t in pile:
                self.pile_of[TILE_ID[t]] = seat
                seen |= 1 << TILE_ID[t]
        self.unseen = list(bits(ALL_MASK & ~seen))
        self.others = [s for s in range(n) if s != self.me]
        hidden = sum(obs.hand_sizes[s] for s in self.others) + obs.undealt
        if len(self.unseen) != hidden or obs.hand_sizes[self.me] != len(obs.hand):
            raise BoneyardError("the observation's tile counts do not add up")
        k = obs.deal_number
        sizes = self.schedule.sizes
        self.deal_end = n * sum(sizes[: k + 1])
        self.turn = self.deal_end - sum(obs.hand_sizes)
        self.left: set[tuple[int, int]] = (
            set()
            if obs.options.claimable_pairs == "any"
            else {(TILE_ID[a], TILE_ID[b]) for a, b in obs.claimable} | set(self.pending)
        )
        self.deal_row = bytes([TILE_ID[t] for t in obs.deal_layout])

    @cached_property
    def choices(self) -> list[Choice]:
        """The other seats' plays of the deal in play, as evidence of their hands: worked out
        when :meth:`infer` first reads them, so that a level that samples without reading
        (every one but the expert) does not pay for them."""
        return deal_choices(self.obs, mask_of(self.unseen))

    def sample(self, rng: random.Random) -> HighFivesState:
        """One world consistent with the observation (uniform over the unseen tiles)."""
        ids = self.unseen.copy()
        rng.shuffle(ids)
        return self.build(ids)

    def build(self, ids: list[int]) -> HighFivesState:
        """The world that deals the unseen tiles in the order ``ids``: the other seats' hands
        first (in seat order), then the deals still to come, then the tiles still to be turned
        up."""
        obs = self.obs
        n = obs.num_seats
        pos = 0
        hands: list[bytes] = [b""] * n
        for s in range(n):
            if s == self.me:
                hands[s] = self.my_ids
                continue
            size = obs.hand_sizes[s]
            hands[s] = bytes(sorted(ids[pos : pos + size]))
            pos += size
        sizes = self.schedule.sizes
        k = obs.deal_number
        deals: list[tuple[bytes, ...]] = [tuple(b"" for _ in range(n))] * k
        deals.append(tuple(hands))
        for size in sizes[k + 1 :]:
            deal = []
            for _ in range(n):
                deal.append(bytes(sorted(ids[pos : pos + size])))
                pos += size
            deals.append(tuple(deal))
        extra = bytes(ids[pos:]) if obs.extra_to_come else b""
        w = HighFivesState(n, obs.options)
        w.position_only = True
        w.hands_dealt = obs.pass_number + 1
        w.scores = list(obs.scores)
        w.phase = PLAYING
        w.leader = obs.leader
        w.deals = tuple(deals)
        w.extra = extra
        w.deal = k
        w.deal_end = self.deal_end
        w.played = self.turn
        assert obs.leader is not None  # checked when the sampler was built
        w.turn = (obs.leader + self.turn) % n
        w.hands = hands
        w.row = self.layout
        w.deal_row = self.deal_row
        w.deal_known = obs.deal_turns
        w.pile_of = self.pile_of.copy()
        w.left = set(self.left)
        w.pending = self.pending
        if w.current_seat != obs.current_seat:
            raise BoneyardError("the observation's turn does not follow its pass schedule")
        return w

    def infer(
        self,
        rng: random.Random,
        count: int,
        pool: int,
        model: PlayModel,
        stop: Callable[[], bool] | None = None,
    ) -> list[HighFivesState]:
        """``count`` worlds drawn in proportion to how likely ``model`` makes the other seats'
        plays of the deal in play: ``pool`` candidate splits of the unseen tiles weighed
        (fewer if ``stop()`` turns true), ``count`` of them resampled; a split drawn more than
        once keeps its hands and deals the tiles still to come anew each time. Without plays
        to read every world is sampled as by :meth:`sample`."""
        if not self.choices or pool <= 0:
            return [self.sample(rng) for _ in range(count)]
        weighed = model.weigh(self.choices)
        drawn: list[list[int]] = []
        logs: list[float] = []
        for _ in range(pool):
            if drawn and stop is not None and stop():
                break
            ids = self.unseen.copy()
            rng.shuffle(ids)
            drawn.append(ids)
            logs.append(log_likelihood(weighed, self.hidden_hands(ids), {}))
        top = max(logs)
        weights = [math.exp(x - top) for x in logs]
        held = sum(self.obs.hand_sizes[s] for s in self.others)
        worlds: list[HighFivesState] = []
        used: set[int] = set()
        for i in resample(weights, count, rng):
            ids = drawn[i]
            if i in used:  # (the same hands; what is still to come shuffled anew)
                tail = ids[held:]
                rng.shuffle(tail)
                ids = ids[:held] + tail
            used.add(i)
            worlds.append(self.build(ids))
        return worlds

    def hidden_hands(self, ids: list[int]) -> dict[int, int]:
        """The other seats' hands (bit masks) that :meth:`build` deals from ``ids``."""
        hands: dict[int, int] = {}
        pos = 0
        for s in self.others:
            size = self.obs.hand_sizes[s]
            m = 0
            for t in ids[pos : pos + size]:
                m |= 1 << t
            hands[s] = m
            pos += size
        return hands

    @property
    def determined(self) -> bool:
        """Whether no tile is unseen (one world only)."""
        return not self.unseen


def deal_choices(obs: HighFivesObservation, unseen: int) -> list[Choice]:
    """The other seats' turns of the deal in play as :class:`~boneyard.games.inference.Choice`
    records: for each, the points of every turn any tile it might have held (``unseen``, or
    played by it then or later in the deal) could have taken on the row of the moment.

    None when a turn's claims are steps or only the pairs a play left may be claimed (the row
    alone does not give what could be claimed), nor when the turns do not replay to the layout
    shown (an observation not built by the engine)."""
    opts = obs.options
    if opts.max_claims_per_turn == "unlimited" or opts.claimable_pairs != "any":
        return []
    rules = TurnRules(opts)
    row = bytes([TILE_ID[t] for t in obs.deal_layout])
    played = [TILE_ID[turn.tile] for _seat, turn in obs.deal_turns]
    out: list[Choice] = []
    for moment, (seat, turn) in enumerate(obs.deal_turns):
        if seat != obs.seat:
            later = 0
            for k in range(moment, len(played)):
                if obs.deal_turns[k][0] == seat:
                    later |= 1 << played[k]
            places: dict[int, list[tuple[int, int]]] = {}
            for action in enumerate_turns(bytes(bits(unseen | later)), row, None, rules):
                assert isinstance(action, Turn)  # (claims are whole turns here)
                places.setdefault(TILE_ID[action.tile], []).append(
                    (action.points, PIPS[TILE_ID[action.tile]])
                )
            options = tuple((t, tuple(p)) for t, p in places.items())
            out.append(
                Choice(seat, moment, later, 0, (turn.points, PIPS[TILE_ID[turn.tile]]), options)
            )
        row = after_turn(row, turn)
    return out if row == bytes([TILE_ID[t] for t in obs.layout]) else []


def after_turn(row: bytes, turn: Turn) -> bytes:
    """The row ``turn`` leaves: its claimed pairs and its capture taken, or its tile laid on
    the end (as the state takes a turn)."""
    for tile in turn.claimed_tiles():
        row = without(row, TILE_ID[tile])
    if turn.capture is not None:
        return without(row, TILE_ID[turn.capture])
    return row + bytes([TILE_ID[turn.tile]])


def sample_world(obs: HighFivesObservation, rng: random.Random) -> HighFivesState:
    """One full state consistent with everything ``obs`` shows (see the module docstring)."""
    return WorldSampler(obs).sample(rng)


def hand_playout(state: HighFivesState, seat: int, rng: random.Random) -> float:
    """Finish the current deal and :data:`DEALS_AHEAD` more with :func:`greedy_action` for every
    seat (changing ``state``); ``seat``'s points minus the most any opponent scores from here,
    ±:data:`GAME_BONUS` if the game ends meanwhile."""
    before = list(state.scores)
    stop_deal = state.deal + DEALS_AHEAD
    finish_deals(state, stop_deal, rng)
    scores = state.scores
    gains = [scores[i] - before[i] for i in range(len(scores))]
    value = float(gains[seat] - max(g for i, g in enumerate(gains) if i != seat))
    result = state.result()
    winner = None if result is None else result.winner
    if winner is not None:
        value += GAME_BONUS if winner == seat else -GAME_BONUS
    return value


def seat_scores(world: HighFivesState, seat: int) -> tuple[int, list[int]]:
    """The seat's points and every opponent's."""
    return world.scores[seat], [x for i, x in enumerate(world.scores) if i != seat]


READING = PlayModel(
    (
        (1 / 3, Style(30.0, 0.03, 0.01)),
        (1 / 3, Style(2.0, 0.03, 0.02)),
        (1 / 3, Style(0.3, 0.01, 0.1)),
    )
)
"""How the expert takes the other seats to play High Fives: a mixture of three styles, a tile's
pips (up to 30) worth under a point in each, the tie-break they are for the greedy bot. Besides
the expert's sharp and soft ones (:data:`boneyard.bots.expert.READING`), a third all but
certain to take the most points, then the heaviest tile: five tiles from some ninety unseen
say little, and a seat whose plays show that style tells most by what it did not do: the true
hand of a greedy seat reads twice as likely as with the two styles alone (+0.89 nats over
uniform sampling, against +0.45), and against ``greedy`` the expert won 1.1 points of games
more (900 paired games, −0.5 … +2.7: not shown; docs/performance.md, "High Fives reads a
greedy style")."""

# The compiled engine plays a High Fives pass about seven times as fast as when the levels were
# tuned. At three times the worlds the expert's p95 decision time at 2 players fell from 0.13 s
# to 0.08 s and five times brought it back; the bytes hands and row (2026-11-28) took it down
# by about 15% again, and six times brings it back (docs/performance.md, "Bot strength").
SEARCH = GameSearch(WorldSampler, hand_playout, seat_scores, world_scale=6, reading=READING)
"""How the expert bot searches High Fives."""

__all__ = ["SEARCH", "WorldSampler", "greedy_action", "hand_playout", "sample_world"]
