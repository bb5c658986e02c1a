"""Reinforcement-learning adapters (the optional extra: ``pip install boneyard-dominoes[rl]``).

* :mod:`boneyard.rl.codec`: integer action ids, a fixed action space per game;
* :mod:`boneyard.rl.features`: observations as numpy vectors;
* :mod:`boneyard.rl.table`: one game played id by id (deals, masks, rewards);
* :mod:`boneyard.rl.pettingzoo`: a PettingZoo AEC environment per game (``env(game)``);
* :mod:`boneyard.rl.vector`: many self-play games stepped at once, in batches;
* :mod:`boneyard.rl.openspiel`: the games registered with OpenSpiel (with the extra
  ``openspiel``).

Each game numbers its own actions and observations (``GameSpec.learning``,
:mod:`boneyard.games.learning`): nothing here knows a game by its name. Nothing else in Boneyard
imports this package: numpy, PettingZoo and OpenSpiel are never
needed to play, serve or analyse games.
"""
