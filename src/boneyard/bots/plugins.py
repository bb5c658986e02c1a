"""Bots by name: the built-in ones, plugins, and programs in another process.

Every place that takes bot names (``play``, ``selfplay``, ``arena``, ``tournament simulate``,
and the site's bot seats when its operator allows plugins) reads them here:

* a built-in name: ``random``, ``greedy``, ``easy``, ``medium``, ``hard``, ``expert``;
* the name of an **entry point** in the group ``boneyard.bots`` of an installed distribution
  (``[project.entry-points."boneyard.bots"] mybot = "mybot:Bot"``);
* ``module:attribute`` (``mybot:Bot``, ``pkg.bots:make``): imported from the current folder
  or the installed packages;
* ``cmd:COMMAND`` (``cmd:python mybot.py``, ``cmd:node bot.js``): a program in another process
  speaking the line protocol of :mod:`boneyard.bots.process` (command-line only, never the site).

A plugin's object is a bot (anything with ``choose(observation)``: it then plays every seat it
is given), or a factory of bots: a class or function called with a ``random.Random`` when it
takes an argument, else with none.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import os
import random
import shlex
import shutil
import sys
from collections.abc import Callable
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from boneyard.bots.referee import AnyBot, Rules
from boneyard.core.errors import BoneyardError

GROUP = "boneyard.bots"
"""The entry-point group of bot plugins."""
CMD = "cmd:"


@functools.cache
def plugin_entry_points() -> dict[str, EntryPoint]:
    """The installed bot plugins by name (entry points of the group ``boneyard.bots``)."""
    return {ep.name: ep for ep in entry_points(group=GROUP)}


def builtin_bots() -> dict[str, Callable[[random.Random], AnyBot]]:
    """The built-in bots by name."""
    from boneyard.bots import BOTS

    return BOTS


def comparison_bots() -> dict[str, Callable[[random.Random], AnyBot]]:
    """Built-in bots kept for comparison on the command line (``expert-pimc``), not offered to
    the site's seats nor listed among the bots."""
    from boneyard.bots.expert import COMPARISON

    return dict(COMPARISON)


def known(plugins: bool = True) -> list[str]:
    """The names a bot may be given by (built-in, then installed plugins)."""
    names = list(builtin_bots())
    if plugins:
        names += [n for n in sorted(plugin_entry_points()) if n not in names]
    return names


def is_command(name: str) -> bool:
    """Whether ``name`` is a ``cmd:`` bot (a program in another process)."""
    return name.startswith(CMD)


def command_argv(name: str) -> list[str]:
    """The program and arguments of a ``cmd:`` bot; BoneyardError if it cannot be found."""
    try:
        argv = shlex.split(name[len(CMD) :])
    except ValueError as exc:
        raise BoneyardError(f"bot {name!r}: the command cannot be read ({exc})") from None
    if not argv:
        raise BoneyardError(f"bot {name!r}: write the command after cmd:, e.g. cmd:python bot.py")
    if shutil.which(argv[0]) is None:
        raise BoneyardError(f"bot {name!r}: there is no program {argv[0]!r} to run")
    return argv


def factory(name: str, *, local: bool = True, plugins: bool = True) -> Callable[..., AnyBot]:
    """A maker of the bot ``name``: ``make(rng, rules)``. ``local`` allows ``module:attribute``
    and ``cmd:`` bots (the command line); ``plugins`` allows installed plugins. Raises
    BoneyardError, naming the bots there are, when ``name`` is none of them."""
    builtin = builtin_bots()
    if name in builtin:
        made = builtin[name]
        return lambda rng, rules=None: made(rng)
    if local and name in comparison_bots():
        kept = comparison_bots()[name]
        return lambda rng, rules=None: kept(rng)
    if local and is_command(name):
        argv = command_argv(name)
        from boneyard.bots.process import ProcessBot

        return lambda rng, rules=None: ProcessBot(argv, name, rules or Rules())
    if plugins and name in plugin_entry_points():
        ep = plugin_entry_points()[name]
        return _as_factory(_load(name, ep.load), name)
    if local and ":" in name:
        return _as_factory(_load(name, lambda: _import(name)), name)
    hint = ", module:attribute or cmd:COMMAND" if local else ""
    raise BoneyardError(f"bot {name!r} is unknown (bots: {', '.join(known(plugins))}{hint})")


def make(
    name: str,
    rng: random.Random,
    rules: Rules | None = None,
    *,
    local: bool = True,
    plugins: bool = True,
) -> AnyBot:
    """The bot ``name`` (see :func:`factory`), ready to play."""
    bot: AnyBot = factory(name, local=local, plugins=plugins)(rng, rules)
    return bot


def _load(name: str, load: Callable[[], object]) -> object:
    try:
        return load()
    except BoneyardError:
        raise
    except ModuleNotFoundError as exc:
        raise BoneyardError(
            f"bot {name!r}: there is no module {exc.name!r} here (run from the folder that "
            "holds it, or install it)"
        ) from None
    except AttributeError as exc:
        raise BoneyardError(f"bot {name!r}: {exc}") from None
    except Exception as exc:  # a plugin that fails to import: say so, in its own words
        raise BoneyardError(f"bot {name!r} could not be loaded: {type(exc).__name__}: {exc}") from (
            None
        )


def _import(name: str) -> Any:
    """The object ``module:attribute`` names, the current folder searched first."""
    module_name, _, attribute = name.partition(":")
    if not module_name or not attribute:
        raise BoneyardError(f"bot {name!r}: write a plugin as module:attribute (mybot:Bot)")
    here = os.getcwd()
    if here not in sys.path:
        sys.path.insert(0, here)
    obj: Any = importlib.import_module(module_name)
    for part in attribute.split("."):
        obj = getattr(obj, part)
    return obj


def _as_factory(obj: Any, name: str) -> Callable[..., AnyBot]:
    """A maker of bots from a plugin's object: a bot itself, or a class or function."""
    if not isinstance(obj, type) and callable(getattr(obj, "choose", None)):
        return lambda rng, rules=None: _timed(obj, name, rules)
    if not callable(obj):
        raise BoneyardError(
            f"bot {name!r} is not a bot: give an object with a choose(observation) method, "
            "or a class or function that makes one"
        )
    takes_rng = _takes_argument(obj)

    def make(rng: random.Random, rules: Rules | None = None) -> AnyBot:
        bot: AnyBot = obj(rng) if takes_rng else obj()
        if not callable(getattr(bot, "choose", None)):
            raise BoneyardError(
                f"bot {name!r} made {type(bot).__name__!r}, which has no choose(observation)"
            )
        return _timed(bot, name, rules)

    return make


def _timed(bot: AnyBot, name: str, rules: Rules | None) -> AnyBot:
    """A plugin under the referee's clock where there is one (``rules``: the command line's
    runs; the site runs its bots under its own clock)."""
    if rules is None:
        return bot
    from boneyard.bots.timed import TimedBot

    return TimedBot(bot, name, rules)


def _takes_argument(obj: Callable[..., object]) -> bool:
    """Whether a class or function accepts one positional argument (the random generator)."""
    try:
        params = inspect.signature(obj).parameters.values()
    except (TypeError, ValueError):
        return True
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return any(p.kind in positional or p.kind is inspect.Parameter.VAR_POSITIONAL for p in params)


def check_bot(name: str, game: str | None, *, local: bool = True, plugins: bool = True) -> None:
    """Refuse, in a player's words, a bot that cannot be found or cannot play ``game`` (an
    expert level for a game it cannot search; ``None``: any game). One is made (a plugin that
    makes no bot is refused now, not in the middle of a game); no program is started."""
    from boneyard.bots.expert import check_game

    factory(name, local=local, plugins=plugins)(random.Random(0), None)
    if game is not None:
        check_game(name, game)


def check_rules(rules: Rules, game: str) -> None:
    """Refuse a fallback bot that cannot be found or cannot play ``game``: the fallback is a
    built-in bot or a plugin, never another program."""
    from boneyard.bots.referee import FORFEIT

    if rules.on_error == FORFEIT:
        return
    if is_command(rules.on_error):
        raise BoneyardError("the fallback bot is built in or a plugin, not a cmd: program")
    check_bot(rules.on_error, game)


def short_label(name: str) -> str:
    """A short name for people (tournament entrants): a ``cmd:`` bot by its script's name.

    >>> short_label("cmd:python examples/python_bot.py"), short_label("greedy")
    ('python_bot', 'greedy')
    """
    if not is_command(name):
        return name
    try:
        words = [w for w in shlex.split(name[len(CMD) :]) if not w.startswith("-")]
    except ValueError:
        return name
    if not words:
        return name
    return os.path.splitext(os.path.basename(words[-1]))[0] or name
