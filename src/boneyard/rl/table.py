"""One game played one action id at a time: what every reinforcement-learning adapter drives.

A :class:`Table` deals for itself (from the generator it is reset with) or, with ``chance``,
takes each deal as explicit chance outcomes (:meth:`Table.draw`, :mod:`boneyard.rl.chance`:
OpenSpiel's chance nodes). It offers the seat to move the mask of the ids it may give next (the
first ids of its legal actions, or the next id of a High Fives turn begun with a claim), applies
an action once its last id is given, and says what each seat earned when the game ends: the
winners share +1 and the others share -1 (no single winner: the top scores share the win), so
every game sums to zero. A table pickles as its generator's state at reset and the ids and
outcomes given since, and is played again from them when read back.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from boneyard.core.errors import BoneyardError, IllegalActionError
from boneyard.core.protocol import Action, GameResult, GameState
from boneyard.games.registry import get_spec
from boneyard.rl.chance import Script, next_draw
from boneyard.rl.codec import Codec, codec_for, learning_of
from boneyard.rl.features import Features, Filler, Vector, features_for

Mask = NDArray[np.int8]


class Table:
    """One game of ``game`` for ``players`` seats under ``options`` (see the module docstring);
    ``like``: a table of the same game whose spec, codec and encoders this one shares."""

    def __init__(
        self,
        game: str,
        players: int,
        options: Mapping[str, object] | None = None,
        chance: bool = False,
        like: Table | None = None,
    ) -> None:
        self.spec = get_spec(game)
        if not self.spec.min_players <= players <= self.spec.max_players:
            raise BoneyardError(
                f"{self.spec.title} is for {self.spec.min_players} to "
                f"{self.spec.max_players} players, not {players}"
            )
        self.game = game
        self.players = players
        self.options = dict(options or {})
        self.chance = chance
        probe = self.spec.new_game(players, self.options)
        if like is None:
            dealt = probe.copy()
            dealt.deal_random(random.Random(0))
            view = dealt.observation(0).to_json()
            self.codec: Codec = codec_for(game, view)
            self.features: Features = features_for(game, players, view)
            fast = learning_of(game).fast
            self.filler = None if fast is None else Filler(fast(players, dealt))
            """The game's fast path (its vectors and ids straight from the state), if any."""
        else:
            self.codec, self.features, self.filler = like.codec, like.features, like.filler
        self.state: GameState = probe
        self.rng = random.Random(0)
        self.start: object = None
        """The generator's state at :meth:`reset` (``None``: not reset yet)."""
        self.log: list[int] = []
        """Every id and chance outcome given since :meth:`reset`, in order."""
        self.draws: list[int] = []
        self.bound: int | None = None
        """With ``chance``, while a deal is drawn: how many outcomes its next draw has."""
        self.prefix: tuple[int, ...] = ()
        self.paths: dict[tuple[int, ...], Action] = {}

    def __deepcopy__(self, memo: dict[int, object]) -> Table:
        """A table that plays on alone (OpenSpiel clones states this way): the state by its
        own ``copy()`` (a compiled state cannot be deep-copied field by field), the generator
        duplicated; the spec, codec and features are shared, as nothing changes them."""
        clone = Table.__new__(Table)  # (not copy.copy: it would pickle, replaying the game)
        clone.__dict__.update(self.__dict__)
        clone.state = self.state.copy()
        clone.rng = random.Random()
        clone.rng.setstate(self.rng.getstate())  # (its state is a tuple: nothing to deep-copy)
        clone.options = dict(self.options)
        clone.paths = dict(self.paths)
        clone.log = list(self.log)
        clone.draws = list(self.draws)
        return clone

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as what replays it (see the module docstring)."""
        return (
            _replayed,
            (self.game, self.players, self.options, self.chance, self.start, self.log),
        )

    def reset(self, rng: random.Random | None = None) -> None:
        """A new game, dealt from ``rng`` (with ``chance``: waiting for its first deal's draws)."""
        self.state = self.spec.new_game(self.players, self.options)
        self.rng = rng if rng is not None else random.Random(0)
        self.start = self.rng.getstate()
        self.log = []
        self._advance()

    @property
    def awaiting_chance(self) -> bool:
        """Whether the game waits for a chance outcome (:meth:`draw`)."""
        return self.bound is not None

    def draw(self, outcome: int) -> None:
        """Give the next chance outcome of the deal being drawn (one of ``range(bound)``)."""
        bound = self.bound
        if bound is None or not 0 <= outcome < bound:
            raise IllegalActionError(f"chance outcome {outcome} is not possible now")
        self.draws.append(outcome)
        self.log.append(outcome)
        self.bound = next_draw(self.state, self.draws)
        if self.bound is None:
            self.state.deal_random(Script(self.draws))
            self._advance()

    @property
    def seat(self) -> int | None:
        """The seat to give the next id (``None``: the game is over, or a deal is awaited)."""
        return self.state.current_seat

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.state.is_over

    def observe(self, seat: int) -> Vector:
        """What ``seat`` sees, as its vector."""
        if self.filler is not None:
            return self.filler.vector(self.state, seat)
        return self.features.encode(self.state.observation(seat).to_json())

    def mask(self) -> Mask:
        """1 for each id the seat to move may give next, else 0."""
        out = np.zeros(self.codec.size, dtype=np.int8)
        k = len(self.prefix)
        if k:
            out[[path[k] for path in self.paths if path[:k] == self.prefix]] = 1
        else:
            out[[path[0] for path in self.paths]] = 1
        return out

    def step(self, token: int) -> bool:
        """Give one id; True when it completed an action (which was applied)."""
        wanted = (*self.prefix, int(token))
        action = self.paths.get(wanted)
        if action is None:
            k = len(wanted)
            if not any(path[:k] == wanted for path in self.paths):
                raise IllegalActionError(f"action id {int(token)} is not legal now")
            self.log.append(int(token))
            self.prefix = wanted
            return False
        self.log.append(int(token))
        self.state.apply(action)
        self._advance()
        return True

    def rewards(self) -> list[float]:
        """What each seat earned: 0 until the game ends (see the module docstring)."""
        return rewards_of(self.state.result(), self.players)

    def _advance(self) -> None:
        """Deal while a deal is awaited (with ``chance``: wait for its draws); number the legal
        actions of the seat to move."""
        state = self.state
        self.draws = []
        self.bound = None
        if self.chance:
            if state.awaiting_deal and not state.is_over:
                self.bound = next_draw(state, self.draws)
        else:
            while state.awaiting_deal and not state.is_over:
                state.deal_random(self.rng)
        self.prefix = ()
        self.paths = numbered(state, self.filler, self.codec)


def _replayed(
    game: str,
    players: int,
    options: Mapping[str, object],
    chance: bool,
    start: Any,
    log: list[int],
) -> Table:
    """A table played again from its generator's state at reset and what was given since."""
    table = Table(game, players, options, chance)
    if start is None:
        return table
    rng = random.Random()
    rng.setstate(start)
    table.reset(rng)
    for given in log:
        if table.awaiting_chance:
            table.draw(given)
        else:
            table.step(given)
    return table


def rewards_of(result: GameResult | None, n: int) -> list[float]:
    """What each of ``n`` seats earned by ``result`` (0 while there is none): the winners share
    +1 and the others share -1 (no single winner: the top scores share the win)."""
    if result is None:
        return [0.0] * n
    top = max(result.scores)
    won = (
        [result.winner]
        if result.winner is not None
        else [s for s in range(n) if result.scores[s] == top]
    )
    if len(won) == n:
        return [0.0] * n
    return [1 / len(won) if s in won else -1 / (n - len(won)) for s in range(n)]


def numbered(
    state: GameState, filler: Filler | None, codec: Codec
) -> dict[tuple[int, ...], Action]:
    """The legal actions of ``state``'s seat to move by their ids (the fast path's, else the
    codec's from their record forms)."""
    paths: dict[tuple[int, ...], Action] = {}
    seat = state.current_seat
    if seat is None:
        return paths
    if filler is not None:
        legal = state.legal_actions()
        for path, action in zip(filler.fast.ids(state, legal), legal, strict=True):
            paths[(path,) if isinstance(path, int) else path] = action
    else:
        view = state.observation(seat).to_json()
        for action in state.legal_actions():
            paths[codec.tokens(action.to_event(), view)] = action
    if len(paths) != len(state.legal_actions()):  # pragma: no cover - a codec bug
        raise BoneyardError("two legal actions share their action ids")
    return paths
