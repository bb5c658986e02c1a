"""Integer action ids: a fixed action space per game, asked of the game's spec.

Every legal action of a game is written as its record event (``action.to_event()``, the form a
process bot answers too), and the game's codec (``GameSpec.learning``,
:mod:`boneyard.games.learning`) numbers those forms once and for all, so that a learner has a
fixed ``Discrete(size)`` space and a mask of the ids legal now. An action is a short sequence of
ids (*tokens*), one decision each. Ids depend only on the game and its table's size, never on
the position; docs/bots.md lists each game's ids.
"""

from __future__ import annotations

from boneyard.core.errors import BoneyardError
from boneyard.games.learning import Codec, Learning, View
from boneyard.games.registry import get_spec


def learning_of(game: str) -> Learning:
    """How a learner sees ``game`` (its spec's ``learning``); raises BoneyardError for a game
    that is unknown or that the adapters cannot play yet."""
    spec = get_spec(game)
    if spec.learning is None:
        raise BoneyardError(f"the reinforcement-learning adapters cannot play {spec.title} yet")
    return spec.learning


def codec_for(game: str, view: View) -> Codec:
    """The codec of ``game``, sized by an observation of it (its table's size)."""
    return learning_of(game).codec(view)


__all__ = ["Codec", "codec_for", "learning_of"]
