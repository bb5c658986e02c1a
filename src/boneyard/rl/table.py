"""One game played one action id at a time: what every reinforcement-learning adapter drives.

A :class:`Table` deals for itself (from the generator it is reset with), offers the seat to
move the mask of the ids it may give next (the first ids of its legal actions, or the next id
of a High Fives turn begun with a claim), applies an action once its last id is given, and says
what each seat earned when the game ends: the winners share +1 and the others share -1 (no
single winner: the top scores share the win), so every game sums to zero.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from boneyard.core.errors import BoneyardError, IllegalActionError
from boneyard.core.protocol import Action, GameState
from boneyard.games.registry import get_spec
from boneyard.rl.codec import Codec, codec_for
from boneyard.rl.features import Features, Vector, features_for

Mask = NDArray[np.int8]


class Table:
    """One game of ``game`` for ``players`` seats under ``options`` (see the module docstring)."""

    def __init__(self, game: str, players: int, options: Mapping[str, Any] | None = None) -> None:
        self.spec = get_spec(game)
        if not self.spec.min_players <= players <= self.spec.max_players:
            raise BoneyardError(
                f"{self.spec.title} is for {self.spec.min_players} to "
                f"{self.spec.max_players} players, not {players}"
            )
        self.game = game
        self.players = players
        self.options = dict(options or {})
        probe = self.spec.new_game(players, self.options)
        probe.deal_random(random.Random(0))
        view = probe.observation(0).to_json()
        self.codec: Codec = codec_for(game, view)
        self.features: Features = features_for(game, players, view)
        self.state: GameState = probe
        self.rng = random.Random(0)
        self.prefix: tuple[int, ...] = ()
        self.paths: dict[tuple[int, ...], Action] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        """A table that plays on alone (OpenSpiel clones states this way): the state by its
        own ``copy()`` (a compiled state cannot be deep-copied field by field), the generator
        duplicated; the spec, codec and features are shared, as nothing changes them."""
        clone = copy.copy(self)
        clone.state = self.state.copy()
        clone.rng = copy.deepcopy(self.rng, memo)
        clone.options = dict(self.options)
        clone.paths = dict(self.paths)
        return clone

    def reset(self, rng: random.Random) -> None:
        """A new game, dealt from ``rng``."""
        self.state = self.spec.new_game(self.players, self.options)
        self.rng = rng
        self._advance()

    @property
    def seat(self) -> int | None:
        """The seat to give the next id (``None``: the game is over)."""
        return self.state.current_seat

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.state.is_over

    def observe(self, seat: int) -> Vector:
        """What ``seat`` sees, as its vector."""
        return self.features.encode(self.state.observation(seat).to_json())

    def mask(self) -> Mask:
        """1 for each id the seat to move may give next, else 0."""
        out = np.zeros(self.codec.size, dtype=np.int8)
        k = len(self.prefix)
        for path in self.paths:
            if path[:k] == self.prefix:
                out[path[k]] = 1
        return out

    def step(self, token: int) -> bool:
        """Give one id; True when it completed an action (which was applied)."""
        wanted = (*self.prefix, int(token))
        k = len(wanted)
        if not any(path[:k] == wanted for path in self.paths):
            raise IllegalActionError(f"action id {int(token)} is not legal now")
        action = self.paths.get(wanted)
        if action is None:
            self.prefix = wanted
            return False
        self.state.apply(action)
        self._advance()
        return True

    def rewards(self) -> list[float]:
        """What each seat earned: 0 until the game ends (see the module docstring)."""
        result = self.state.result()
        n = self.players
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

    def _advance(self) -> None:
        """Deal while a deal is awaited; number the legal actions of the seat to move."""
        state = self.state
        while state.awaiting_deal and not state.is_over:
            state.deal_random(self.rng)
        self.prefix = ()
        self.paths = {}
        seat = state.current_seat
        if seat is None:
            return
        view = state.observation(seat).to_json()
        for action in state.legal_actions():
            path = self.codec.tokens(action.to_event(), view)
            if path in self.paths:  # pragma: no cover - a codec bug, not a player's error
                raise BoneyardError(f"two legal actions share the action ids {path}")
            self.paths[path] = action
