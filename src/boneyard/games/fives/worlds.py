"""Determinization shared by the Fives games: hidden hands consistent with draws and passes.

A game's sampler scans the observed history into :class:`SeatHistory` records (for each hidden
seat, the moments it proved it held no tile of a given set: a draw or pass with no playable
tile, a set of a double under a "highest double" rule...), then :class:`HiddenDeal` draws hidden
hands and assigns each hidden draw a tile, so that no tile is held at a moment its seat proved it
did not hold it. The game builds and replays the world (:meth:`HiddenDeal.build`), rejecting any
world its rules refuse.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Generic, TypeVar

from boneyard.core.errors import BoneyardError
from boneyard.games.fives.layout import PIP_MASK, PORT_CODE, TILE_ID, FivesLayout, ids_of
from boneyard.games.fives.play import PublicEvent, default_port
from boneyard.games.inference import Choice, PlayModel, log_likelihood, resample

S = TypeVar("S")

FULL = (1 << 28) - 1
"""Every tile of a double-six set."""
NEVER = 1 << 30
"""Play index of a tile still held (it is never played in the observed history)."""


class SeatHistory:
    """What the history says about one hidden seat."""

    __slots__ = ("checks", "draws", "played")

    def __init__(self) -> None:
        self.checks: list[tuple[int, int]] = []
        """``(event index, mask of tiles that could have been played then)`` for its draws and
        passes."""
        self.draws: list[int] = []
        """Event indices of its draws, in order."""
        self.played: dict[int, int] = {}
        """Tile id -> event index of the play."""

    def latest(self, tile: int, before: int) -> int:
        """The last draw/pass of this seat before ``before`` at which ``tile`` was playable
        (-1: none)."""
        last = -1
        for index, mask in self.checks:
            if index >= before:
                break
            if (mask >> tile) & 1:
                last = index
        return last


class FivesHistory:
    """A Fives hand's public history read in order, as a sampler needs it: the layout as it
    grew, each seat's :class:`SeatHistory`, the tiles played and the observer's own draws.

    ``first`` is the moment of event 0 (High Five keeps moment 0 for a check that comes before
    every event); event ``index`` happens at moment ``index + first``.
    """

    def __init__(self, n: int, me: int, policy: int, first: int) -> None:
        self.seats = [SeatHistory() for _ in range(n)]
        self.lay = FivesLayout()
        self.played_mask = 0
        """The tiles on the table."""
        self.my_drawn: dict[int, int] = {}
        """Event index -> the tile the observer drew then."""
        self.me = me
        self.policy = policy
        self.first = first

    def place(self, index: int, ev: PublicEvent) -> None:
        """Lay the tile of play ``index`` where it was laid."""
        assert ev.tile is not None
        tile = TILE_ID[ev.tile]
        lay = self.lay
        if ev.on is None:
            lay.place(tile)
        else:
            anchor = TILE_ID[ev.on]
            code = (
                PORT_CODE[ev.port]
                if ev.port is not None
                else default_port(lay, self.policy, tile, anchor)
            )
            lay.place(tile, anchor, code)
        self.played_mask |= 1 << tile
        self.seats[ev.seat].played[tile] = index + self.first

    def open_mask(self) -> int:
        """The tiles that match an end open to play now."""
        mask = 0
        for value, _a, _c in self.lay.available(self.policy):
            mask |= PIP_MASK[value]
        return mask

    def check(self, index: int, ev: PublicEvent, mask: int) -> None:
        """Draw or pass ``index``: its seat held no tile of ``mask`` then (the observer's own
        draw shows its tile)."""
        info = self.seats[ev.seat]
        info.checks.append((index + self.first, mask))
        if ev.kind == "draw":
            info.draws.append(index + self.first)
            if ev.seat == self.me:
                assert ev.tile is not None
                self.my_drawn[index] = TILE_ID[ev.tile]


class HiddenDeal(Generic[S]):
    """Samples the hidden hands and hidden draws of the other seats; the game builds the world.

    A subclass sets :attr:`me`, :attr:`seats`, :attr:`my_drawn`, then through :meth:`hide`
    :attr:`my_hand`, :attr:`unseen`, :attr:`others` and :attr:`sizes` (hand sizes by seat),
    then :attr:`allowed` (per hidden seat, the tiles it may hold now: see
    :func:`allowed_masks`), and implements :meth:`build`.
    """

    tries: int
    me: int
    seats: list[SeatHistory]
    unseen: int
    others: list[int]
    sizes: tuple[int, ...]
    allowed: dict[int, int]
    my_hand: int
    my_drawn: dict[int, int]
    choices: Sequence[Choice] = ()
    """The hidden seats' earlier plays, as evidence for :meth:`infer` (none: nothing read)."""

    def hide(
        self,
        n: int,
        seen: int,
        my_hand: int,
        sizes: tuple[int, ...],
        undealt: int,
        everything: int = FULL,
    ) -> None:
        """Set the observer's hand, the unseen tiles (of ``everything``, all but the observer's
        and those ``seen``), the hidden seats and every seat's hand size; raises
        :class:`BoneyardError` when the unseen tiles are not the hidden hands and the
        ``undealt`` tiles (the boneyard, a reserve) together."""
        self.my_hand = my_hand
        self.unseen = everything & ~my_hand & ~seen
        self.others = [s for s in range(n) if s != self.me]
        self.sizes = sizes
        if self.unseen.bit_count() != sum(sizes[s] for s in self.others) + undealt:
            raise BoneyardError("the observation's tile counts do not add up")

    def build(
        self, hands: dict[int, int], draws: dict[int, list[int]], rng: random.Random
    ) -> S | None:
        """The world with these hidden hands and draws, or None if its rules refuse it."""
        raise NotImplementedError

    def setup(
        self,
        history: Sequence[Any],
        hands: dict[int, int],
        draws: dict[int, list[int]],
        rng: random.Random,
    ) -> tuple[list[list[int]], list[int]]:
        """The hand's set-up behind a world: each seat's dealt tiles and the boneyard in draw
        order (the drawn tiles in the order they were drawn, then the rest shuffled)."""
        n = len(self.seats)
        drawn_order: list[int] = []
        taken = [0] * n
        for index, ev in enumerate(history):
            if ev.kind == "draw":
                if ev.seat == self.me:
                    tile = self.my_drawn[index]
                else:
                    tile = draws[ev.seat][taken[ev.seat]]
                    taken[ev.seat] += 1
                drawn_order.append(tile)
        all_drawn = 0
        for t in drawn_order:
            all_drawn |= 1 << t
        rest = self.unseen & ~all_drawn
        for s in self.others:
            rest &= ~hands[s]
        rest_ids = ids_of(rest)
        rng.shuffle(rest_ids)
        deal: list[list[int]] = []
        for s in range(n):
            now = self.my_hand if s == self.me else hands[s]
            for t in self.seats[s].played:
                now |= 1 << t
            deal.append(ids_of(now & ~all_drawn))
        return deal, drawn_order + rest_ids

    # --- hidden draws ---------------------------------------------------------------------

    def _pool(self, seat: int, hand: int) -> list[tuple[int, int, int]]:
        """``(tile, play index, last playable moment)`` of every tile ``seat`` ever held from
        the hidden ``hand`` and its plays."""
        cache = self.__dict__.setdefault("_pools", {})
        got = cache.get(seat)
        if got is None:  # the history's part, the same for every hand: worked out once
            info = self.seats[seat]
            never = [info.latest(t, NEVER) for t in range(self.unseen.bit_length())]
            played = [(t, at, info.latest(t, at)) for t, at in info.played.items()]
            got = cache[seat] = (never, played)
        never, played = got
        pool = [(t, NEVER, never[t]) for t in ids_of(hand)]
        pool.extend(played)
        return pool

    def _cover(self, seat: int, pool: list[tuple[int, int, int]], forced_only: bool) -> bool:
        """Whether a matching of draws to tiles covers every forced tile (``forced_only``) or
        every draw (by Mendelsohn–Dulmage, both together exist when each does)."""
        draws = self.seats[seat].draws
        fits = [[k for k, p in enumerate(pool) if d < p[1] and p[2] <= d] for d in draws]
        if forced_only:
            forced = [k for k, p in enumerate(pool) if p[2] >= 0]
            if len(forced) > len(draws):
                return False
            # Match forced tiles to draws.
            by_tile: dict[int, list[int]] = {k: [] for k in forced}
            for j, ks in enumerate(fits):
                for k in ks:
                    if k in by_tile:
                        by_tile[k].append(j)
            left = forced
            right_of: dict[int, int] = {}
            edges = by_tile
        else:
            left = list(range(len(draws)))
            right_of = {}
            edges = dict(enumerate(fits))

        def augment(u: int, seen: set[int]) -> bool:
            for v in edges[u]:
                if v in seen:
                    continue
                seen.add(v)
                if v not in right_of or augment(right_of[v], seen):
                    right_of[v] = u
                    return True
            return False

        return all(augment(u, set()) for u in left)

    def feasible(self, seat: int, hand: int, complete: bool = True) -> bool:
        """Whether ``seat`` could hold ``hand`` now (``complete=False``: as part of a hand still
        being filled, checking only the tiles it had to draw)."""
        pool = self._pool(seat, hand)
        if not self._cover(seat, pool, True):
            return False
        return not complete or self._cover(seat, pool, False)

    def assign_draws(self, seat: int, hand: int, rng: random.Random) -> list[int] | None:
        """Tiles for ``seat``'s draws (in order) given its hidden ``hand``, or None if none fit."""
        draws = self.seats[seat].draws
        pool = self._pool(seat, hand)
        if not draws:
            return [] if all(p[2] < 0 for p in pool) else None
        if not self.feasible(seat, hand):
            return None
        forced = sum(1 for p in pool if p[2] >= 0)
        out: list[int] = [-1] * len(draws)
        used = [False] * len(pool)
        budget = [20000]

        def fill(j: int, forced_left: int) -> bool:
            if j == len(draws):
                return forced_left == 0
            budget[0] -= 1
            if budget[0] < 0 or forced_left > len(draws) - j:
                return False
            d = draws[j]
            order = [k for k in range(len(pool)) if not used[k] and d < pool[k][1]]
            order = [k for k in order if pool[k][2] <= d]
            rng.shuffle(order)
            # Tiles that must be drawn by a deadline first (the earliest play first).
            order.sort(key=lambda k: (pool[k][2] < 0, pool[k][1] if pool[k][2] >= 0 else 0))
            for k in order:
                t, _at, last = pool[k]
                used[k] = True
                out[j] = t
                if fill(j + 1, forced_left - (1 if last >= 0 else 0)):
                    return True
                used[k] = False
            return False

        return out if fill(0, forced) else None

    def _sequential_hand(self, seat: int, remaining: int, rng: random.Random) -> int:
        """A hand for ``seat`` built tile by tile from a random order, keeping only tiles it
        could hold (-1 if it ends short)."""
        pool = ids_of(remaining & self.allowed[seat])
        rng.shuffle(pool)
        size = self.sizes[seat]
        info = self.seats[seat]
        hand = 0
        for t in pool:
            if hand.bit_count() == size:
                break
            cand = hand | (1 << t)
            if info.latest(t, NEVER) >= 0 and not self.feasible(seat, cand, complete=False):
                continue
            hand = cand
        if hand.bit_count() < size or not self.feasible(seat, hand):
            return -1
        return hand

    # --- building -------------------------------------------------------------------------

    def _draws_for(self, hands: dict[int, int], rng: random.Random) -> dict[int, list[int]] | None:
        draws: dict[int, list[int]] = {}
        for s in self.others:
            got = self.assign_draws(s, hands[s], rng)
            if got is None:
                return None
            draws[s] = got
        return draws

    def candidate(
        self, rng: random.Random, uniform: bool
    ) -> tuple[dict[int, int], dict[int, list[int]]] | None:
        """Hidden hands and draws that meet the history's constraints (the world is not built
        yet: its replay may still refuse it), or None when this attempt failed. ``uniform``:
        each hidden hand uniform over the tiles its seat may hold (rejection); otherwise built
        tile by tile, which succeeds where rejection keeps failing but is not exactly uniform."""
        hands: dict[int, int] = {}
        remaining = self.unseen
        order = self.others.copy()
        rng.shuffle(order)
        for s in order:
            if uniform:
                pool = ids_of(remaining & self.allowed[s])
                if len(pool) < self.sizes[s]:
                    return None
                m = 0
                for t in rng.sample(pool, self.sizes[s]):
                    m |= 1 << t
            else:
                m = self._sequential_hand(s, remaining, rng)
                if m < 0:
                    return None
            hands[s] = m
            remaining &= ~m
        draws = self._draws_for(hands, rng)
        return None if draws is None else (hands, draws)

    def sample(self, rng: random.Random) -> S:
        """One world consistent with the observation."""
        uniform = max(1, self.tries // 10)
        for attempt in range(self.tries):
            got = self.candidate(rng, attempt < uniform)
            if got is None:
                continue
            world = self.build(got[0], got[1], rng)
            if world is not None:
                return world
        for hands in self._exhaustive(rng):
            draws = self._draws_for(hands, rng)
            if draws is None:
                continue
            world = self.build(hands, draws, rng)
            if world is not None:
                return world
        raise BoneyardError("no deal is consistent with this observation")

    # --- reading the other seats' plays (boneyard.games.inference) ---------------------------

    @property
    def determined(self) -> bool:
        """Whether the observation leaves one world only (for the play to come: the draws'
        order aside): no tile unseen, or every one in the single other hand."""
        sizes = sum(self.sizes[s] for s in self.others)
        return self.unseen.bit_count() == sizes and len(self.others) <= 1

    def candidates(
        self, rng: random.Random, count: int, stop: Callable[[], bool] | None = None
    ) -> list[tuple[dict[int, int], dict[int, list[int]]]]:
        """Up to ``count`` candidate hidden deals (:meth:`candidate`): by rejection while it
        succeeds at least once in ten tries, else tile by tile; fewer if ``stop()`` turns
        true (it is asked every ten attempts)."""
        out: list[tuple[dict[int, int], dict[int, list[int]]]] = []
        failed = 0
        uniform = True
        attempts = 0
        while len(out) < count and attempts < 4 * count + 40:
            attempts += 1
            if stop is not None and attempts % 10 == 0 and out and stop():
                break
            got = self.candidate(rng, uniform)
            if got is None:
                failed += 1
                if uniform and failed >= 10 * (len(out) + 1):
                    uniform = False
                continue
            out.append(got)
        return out

    def infer(
        self,
        rng: random.Random,
        count: int,
        pool: int,
        model: PlayModel,
        stop: Callable[[], bool] | None = None,
    ) -> list[S]:
        """``count`` worlds drawn in proportion to how likely ``model`` makes the other seats'
        plays in them: ``pool`` candidate deals weighed (:func:`~boneyard.games.inference.
        log_likelihood`; fewer if ``stop()`` turns true), ``count`` of them resampled and
        built (a deal drawn more than once gets a boneyard of its own each time). Without plays
        to read every world is sampled as by :meth:`sample`."""
        if not self.choices or pool <= 0:
            return [self.sample(rng) for _ in range(count)]
        found = self.weighed_deals(rng, pool, model, stop)
        if not found:
            return [self.sample(rng) for _ in range(count)]
        worlds: list[S] = []
        refused: set[int] = set()
        for i in resample([w for _h, _d, w in found], count, rng):
            # A deal drawn twice is built twice: the same hands, the boneyard shuffled anew.
            world = None if i in refused else self.build(found[i][0], found[i][1], rng)
            if world is None:
                refused.add(i)
                world = self.sample(rng)
            worlds.append(world)
        return worlds

    def weighed_deals(
        self,
        rng: random.Random,
        pool: int,
        model: PlayModel,
        stop: Callable[[], bool] | None = None,
    ) -> list[tuple[dict[int, int], dict[int, list[int]], float]]:
        """Up to ``pool`` candidate deals (hidden hands, hidden draws) with their posterior
        weights under ``model`` (summing to 1): each candidate's likelihood of the other seats'
        plays, normalised over the candidates."""
        found = self.candidates(rng, pool, stop)
        if not found:
            return []
        weighed = model.weigh(self.choices)
        logs = [log_likelihood(weighed, hands, draws) for hands, draws in found]
        top = max(logs)
        raw = [math.exp(x - top) for x in logs]
        total = sum(raw)
        return [(h, d, w / total) for (h, d), w in zip(found, raw, strict=True)]

    def _exhaustive(self, rng: random.Random) -> Iterator[dict[int, int]]:
        """Every assignment of hidden hands, in a random order (the rejection fallback)."""

        def rec(k: int, remaining: int) -> Iterator[dict[int, int]]:
            if k == len(self.others):
                yield {}
                return
            s = self.others[k]
            pool = ids_of(remaining & self.allowed[s])
            rng.shuffle(pool)
            for combo in itertools.combinations(pool, self.sizes[s]):
                m = 0
                for t in combo:
                    m |= 1 << t
                for tail in rec(k + 1, remaining & ~m):
                    yield {s: m, **tail}

        return rec(0, self.unseen)


Options = tuple[tuple[int, tuple[tuple[int, int], ...]], ...]
"""Per tile id: the ``(points, pips)`` of each of its placements (:class:`Choice`)."""


def read_choices(
    seats: list[SeatHistory], read: list[tuple[int, int, tuple[int, int], Options]]
) -> list[Choice]:
    """The :class:`Choice` records of the hidden seats' plays ``(seat, moment, chosen,
    options)``, with the tiles each still held from its later plays and its later draws."""
    out = []
    for seat, moment, chosen, options in read:
        info = seats[seat]
        later = 0
        for t, at in info.played.items():
            if at >= moment:
                later |= 1 << t
        draw_from = sum(1 for d in info.draws if d < moment)
        out.append(Choice(seat, moment, later, draw_from, chosen, options))
    return out


def allowed_masks(
    seats: list[SeatHistory], others: list[int], unseen: int, forbid: int = 0
) -> dict[int, int]:
    """Per hidden seat, the unseen tiles it may hold now: a tile it proved it did not hold at
    some moment must have been drawn at or after the last such moment."""
    out: dict[int, int] = {}
    for other in others:
        hidden = seats[other]
        last_draw = hidden.draws[-1] if hidden.draws else -1
        allowed = 0
        for u in ids_of(unseen & ~forbid):
            if hidden.latest(u, NEVER) <= last_draw:
                allowed |= 1 << u
        out[other] = allowed
    return out
