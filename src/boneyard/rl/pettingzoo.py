"""A PettingZoo AEC environment for each game: agents ``player_0`` … take turns by action id.

>>> from boneyard.rl.pettingzoo import env
>>> e = env("highfive")
>>> e.reset(seed=1)
>>> observation, reward, terminated, truncated, info = e.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum()) > 0
((73,), True)

Each observation is a dict: ``observation`` (the seat's vector, :mod:`boneyard.rl.features`)
and ``action_mask`` (1 for the ids it may give now, :mod:`boneyard.rl.codec`; all 0 when it is
not its turn), as in PettingZoo's classic games. Deals happen inside the environment, from the
seed given to ``reset``. The reward comes at the end of the game (:mod:`boneyard.rl.table`). A
High Fives turn with a claim takes the same agent two steps or more. ``render()`` returns the
table as text (``render_mode="ansi"``), as a spectator sees it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from rich.text import Text

from boneyard.core.errors import IllegalActionError
from boneyard.rl.features import LIMIT
from boneyard.rl.table import Table


class BoneyardEnv(AECEnv):  # type: ignore[misc]
    """One game of Boneyard as an AEC environment (see the module docstring)."""

    def __init__(
        self,
        game: str = "highfive",
        players: int = 2,
        options: Mapping[str, object] | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.table = Table(game, players, options)
        self.render_mode = render_mode
        self.metadata = {
            "render_modes": ["ansi"],
            "name": f"boneyard_{game.replace('-', '_')}_v0",
            "is_parallelizable": False,
        }
        self.possible_agents = [f"player_{i}" for i in range(players)]
        size = self.table.features.size
        self.observation_spaces: dict[str, gymnasium.spaces.Space[object]] = {
            a: gymnasium.spaces.Dict(
                {
                    "observation": gymnasium.spaces.Box(-LIMIT, LIMIT, (size,), np.float32),
                    "action_mask": gymnasium.spaces.Box(0, 1, (self.table.codec.size,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces: dict[str, gymnasium.spaces.Space[object]] = {
            a: gymnasium.spaces.Discrete(self.table.codec.size) for a in self.possible_agents
        }

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[object]:
        """The observation space of ``agent`` (the same object each time)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[object]:
        """The action space of ``agent`` (the same object each time)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, object] | None = None) -> None:
        """A new game, dealt from ``seed`` (``None``: a fresh random one)."""
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        self.table.reset(random.Random(seed))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, object]] = {a: {} for a in self.agents}
        self._select()

    def observe(self, agent: str) -> dict[str, object]:
        """``agent``'s vector and its action mask."""
        seat = self.possible_agents.index(agent)
        table = self.table
        mask = table.mask() if table.seat == seat else np.zeros(table.codec.size, np.int8)
        return {"observation": table.observe(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """The selected agent gives one action id (``None`` once it is done); an id outside the
        action space or not legal now is refused (IllegalActionError) and changes nothing."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(f"{agent} is to act: give an action id, not None")
        token = int(action)
        if not 0 <= token < self.table.codec.size:
            raise IllegalActionError(
                f"action id {token} is outside the action space (0 to {self.table.codec.size - 1})"
            )
        self.table.step(token)
        self._cumulative_rewards[agent] = 0.0
        if self.table.over:
            for a, r in zip(self.agents, self.table.rewards(), strict=True):
                self.rewards[a] = r
                self.terminations[a] = True
        self._select()
        self._accumulate_rewards()

    def _select(self) -> None:
        seat = self.table.seat
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
        else:
            self.agent_selection = self.agents[0]

    def render(self) -> str | None:
        """The table as text, as a spectator sees it (``render_mode="ansi"``)."""
        if self.render_mode != "ansi":
            return None
        table = self.table
        view = table.state.observation(None)
        return Text.from_markup(table.spec.render(view, table.state.names, None)).plain

    def close(self) -> None:
        """Nothing to release."""


class _Ordered(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order checks, with :meth:`last` answered by the environment itself once it
    is reset: through the wrapper, its six attribute reads each went through the wrapper's
    generic look-up (and its check), a fifth of a step's time."""

    def last(self, observe: bool = True) -> tuple[object, float, bool, bool, dict[str, object]]:
        """What the selected agent sees and has earned (PettingZoo's ``last``)."""
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        answer: tuple[object, float, bool, bool, dict[str, object]] = self.env.last(observe)
        return answer

    def __str__(self) -> str:
        return str(self.env)


def env(
    game: str = "highfive",
    players: int = 2,
    options: Mapping[str, object] | None = None,
    render_mode: str | None = None,
) -> AECEnv:
    """The environment of ``game`` with PettingZoo's order checks (the environment itself
    refuses an id that is out of the action space or not legal now)."""
    wrapped: AECEnv = _Ordered(BoneyardEnv(game, players, options, render_mode))
    return wrapped


raw_env = BoneyardEnv
