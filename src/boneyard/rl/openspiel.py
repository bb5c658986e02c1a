"""The games registered with OpenSpiel (``pip install boneyard-dominoes[openspiel]``).

Importing this module registers ``python_boneyard_highfive``, ``python_boneyard_merry_go_round``,
``python_boneyard_high_fives`` and ``python_boneyard_highrise``, Python games with the
parameters ``players`` (2), ``seed`` (0, the deals) and ``options`` (the game's options as JSON
text, ``""``: the defaults)::

    import pyspiel
    import boneyard.rl.openspiel  # noqa: F401 (registers the games)
    game = pyspiel.load_game("python_boneyard_highfive", {"players": 3})

The deals are sampled inside the game from its ``seed`` (``SAMPLED_STOCHASTIC``: there are no
chance nodes; the shuffles would be too many outcomes to list). Action ids, observation tensors
and returns are those of :mod:`boneyard.rl.table`, so a policy trained with either library plays
the other's games.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import numpy as np
import pyspiel

from boneyard.games.registry import available_games, get_spec
from boneyard.rl.table import Table

PREFIX = "python_boneyard_"
MAX_GAME_LENGTH = 20_000
"""An upper bound on the steps of a game (the longest real games take a few thousand)."""


def short_name(game: str) -> str:
    """The OpenSpiel name of a game (``python_boneyard_merry_go_round``)."""
    return PREFIX + game.replace("-", "_")


def _game_type(game: str) -> Any:
    spec = get_spec(game)
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=f"Boneyard {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": 2, "seed": 0, "options": ""},
    )


def _game_class(game: str) -> type:
    game_type = _game_type(game)

    class BoneyardGame(pyspiel.Game):  # type: ignore[misc]
        """One Boneyard game under OpenSpiel (see the module docstring)."""

        def __init__(self, params: dict[str, Any] | None = None) -> None:
            params = dict(params or {})
            players = int(params.get("players", 2))
            text = str(params.get("options", ""))
            self.options = json.loads(text) if text else {}
            self.seed = int(params.get("seed", 0))
            self.table = Table(game, players, self.options)
            info = pyspiel.GameInfo(
                num_distinct_actions=self.table.codec.size,
                max_chance_outcomes=0,
                num_players=players,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0,
                max_game_length=MAX_GAME_LENGTH,
            )
            super().__init__(game_type, info, params)
            self.games = 0

        def new_initial_state(self) -> BoneyardState:
            """A new game; each is dealt from the seed and its number."""
            self.games += 1
            return BoneyardState(self, random.Random(f"{self.seed}/{self.games}"))

        def make_py_observer(
            self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
        ) -> Observer:
            """The observer of a seat's vector (:mod:`boneyard.rl.features`)."""
            return Observer(self.table.features.size)

    BoneyardGame.__name__ = BoneyardGame.__qualname__ = f"Boneyard{game.title().replace('-', '')}"
    return BoneyardGame


class BoneyardState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: a :class:`~boneyard.rl.table.Table`."""

    def __init__(self, game: Any, rng: random.Random) -> None:
        super().__init__(game)
        self.table = Table(game.table.game, game.table.players, game.options)
        self.table.reset(rng)

    def current_player(self) -> int:
        """The seat to give the next id, or TERMINAL."""
        seat = self.table.seat
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        return [int(k) for k in np.flatnonzero(self.table.mask())]

    def _apply_action(self, action: int) -> None:
        self.table.step(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.table.codec.name(action)

    def is_terminal(self) -> bool:
        """Whether the game has ended."""
        return self.table.over

    def returns(self) -> list[float]:
        """What each seat earned (0 until the end)."""
        return self.table.rewards()

    def __str__(self) -> str:
        view = self.table.state.observation(None).to_json()
        return json.dumps(view, separators=(",", ":"))

    def __deepcopy__(self, memo: dict[int, Any]) -> BoneyardState:
        clone = copy.copy(self)
        clone.table = copy.deepcopy(self.table, memo)
        return clone


class Observer:
    """A seat's vector, as OpenSpiel's observers give it (``tensor``, ``dict``)."""

    def __init__(self, size: int) -> None:
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: BoneyardState, player: int) -> None:
        """Fill the tensor with what ``player`` sees of ``state``."""
        self.tensor[:] = state.table.observe(player)

    def string_from(self, state: BoneyardState, player: int) -> str:
        """What ``player`` sees, as its observation's JSON text."""
        view = state.table.state.observation(player).to_json()
        return json.dumps(view, separators=(",", ":"))


def register() -> list[str]:
    """Register every game (once); the OpenSpiel names."""
    names = []
    for game in available_games():
        name = short_name(game)
        if name not in pyspiel.registered_names():
            pyspiel.register_game(_game_type(game), _game_class(game))
        names.append(name)
    return names


GAMES = register()
"""The OpenSpiel names of the games."""
