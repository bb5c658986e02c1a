"""The games registered with OpenSpiel (``pip install '.[openspiel]'`` from a checkout).

Importing this module registers ``python_boneyard_highfive``, ``python_boneyard_merry_go_round``,
``python_boneyard_high_fives`` and ``python_boneyard_highrise``, Python games with the
parameters ``players`` (2) and ``options``: the game's options as JSON text
(``'{"target": 20, "single_hand": true}'``) or as ``key:value`` pairs separated by ``;``
(``"target:20;single_hand:true"``; ``""``: the defaults). A game names its options in the
second form (:func:`options_text`): a game's name is a list of ``key=value`` separated by
commas, which JSON's commas would break::

    import pyspiel
    import boneyard.rl.openspiel  # noqa: F401 (registers the games)
    game = pyspiel.load_game("python_boneyard_highfive", {"players": 3})

The deals are **explicit chance nodes** (``EXPLICIT_STOCHASTIC``), as in OpenSpiel's own Python
games (``block_dominoes``, ``kuhn_poker``): each draw of a deal is a uniform choice among its
outcomes (:mod:`boneyard.rl.chance`; a shuffle of ``n`` tiles is ``n - 1`` draws), so the
deals' probabilities are exact and whoever samples chance (``random_sim_test``, an
``rl_environment``'s seed, MCTS) decides them. The game has no random generator of its own, so
it needs no ``rng_seed``: pyspiel gives a Python game no way to serialize one (its
``GetRNGState`` cannot be written in Python), and a game and a state serialize as their
parameters and history (``serialize_game_and_state``, ``pickle``), read back exactly.

Action ids, observation tensors and returns are those of :mod:`boneyard.rl.table`, so a policy
trained with either library plays the other's games.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import numpy as np
import pyspiel

from boneyard.games.registry import available_games, get_spec
from boneyard.rl.chance import most_outcomes
from boneyard.rl.table import Table

PREFIX = "python_boneyard_"
MAX_GAME_LENGTH = 100_000
"""An upper bound on the steps of a game, chance draws included (the longest real games take a
few thousand actions and a few dozen deals)."""


def short_name(game: str) -> str:
    """The OpenSpiel name of a game (``python_boneyard_merry_go_round``)."""
    return PREFIX + game.replace("-", "_")


def options_text(options: dict[str, object]) -> str:
    """The ``options`` parameter of ``options`` as a game names it: ``key:value`` pairs,
    separated by ``;``, each value as JSON writes it (a word bare).

    >>> options_text({"target": 20, "single_hand": True, "first_leader": "random"})
    'target:20;single_hand:true;first_leader:random'
    >>> read_options(options_text({"max_claims_per_turn": "unlimited", "first_leader": 0}))
    {'max_claims_per_turn': 'unlimited', 'first_leader': 0}
    """
    pairs = []
    for key, value in options.items():
        pairs.append(f"{key}:{value if isinstance(value, str) else json.dumps(value)}")
    return ";".join(pairs)


def read_options(text: str) -> dict[str, object]:
    """The ``options`` parameter read: JSON text, or :func:`options_text`'s pairs."""
    text = text.strip()
    if text.startswith("{"):
        parsed: dict[str, object] = json.loads(text)
        return parsed
    out: dict[str, object] = {}
    for pair in filter(None, text.split(";")):
        key, _, raw = pair.partition(":")
        try:
            out[key.strip()] = json.loads(raw)
        except json.JSONDecodeError:
            out[key.strip()] = raw.strip()
    return out


def _game_type(game: str) -> object:
    spec = get_spec(game)
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=f"Boneyard {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": 2, "options": ""},
    )


def _game_class(game: str) -> type:
    game_type = _game_type(game)

    class BoneyardGame(pyspiel.Game):  # type: ignore[misc]
        """One Boneyard game under OpenSpiel (see the module docstring)."""

        def __init__(self, params: dict[str, Any] | None = None) -> None:
            params = dict(params or {})
            players = int(params.get("players", 2))
            self.options = read_options(str(params.get("options", "")))
            params["options"] = options_text(self.options)  # (as the game's name writes it)
            self.table = Table(game, players, self.options, chance=True)
            info = pyspiel.GameInfo(
                num_distinct_actions=self.table.codec.size,
                max_chance_outcomes=most_outcomes(self.table.state),
                num_players=players,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0,
                max_game_length=MAX_GAME_LENGTH,
            )
            super().__init__(game_type, info, params)

        def new_initial_state(self) -> BoneyardState:
            """A new game, its first deal to be drawn."""
            return BoneyardState(self)

        def make_py_observer(
            self, iig_obs_type: object = None, params: dict[str, Any] | None = None
        ) -> Observer:
            """The observer of a seat's vector (:mod:`boneyard.rl.features`)."""
            return Observer(self.table.features.size)

        def __reduce__(self) -> tuple[Any, ...]:
            """Pickled as its name (its parameters): the game has no state of its own."""
            return (pyspiel.load_game, (self.serialize(),))

    BoneyardGame.__name__ = BoneyardGame.__qualname__ = f"Boneyard{game.title().replace('-', '')}"
    return BoneyardGame


class BoneyardState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: a :class:`~boneyard.rl.table.Table` whose deals are chance nodes
    (its ``__dict__``, all OpenSpiel serializes of a Python state, pickles as the table's
    history)."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        like = game.table
        self.table = Table(like.game, like.players, game.options, chance=True, like=like)
        self.table.reset()

    def current_player(self) -> int:
        """The seat to give the next id, CHANCE while a deal is drawn, or TERMINAL."""
        table = self.table
        if table.awaiting_chance:
            return int(pyspiel.PlayerId.CHANCE)
        seat = table.seat
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        return [int(k) for k in np.flatnonzero(self.table.mask())]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of the deal's next draw, equally likely."""
        n = self.table.bound or 0
        return [(k, 1.0 / n) for k in range(n)]

    def _apply_action(self, action: int) -> None:
        if self.table.awaiting_chance:
            self.table.draw(action)
        else:
            self.table.step(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal draw {action}"
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
