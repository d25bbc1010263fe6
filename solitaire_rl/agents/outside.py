"""Players from outside this package: ``MODULE:FACTORY`` names a function that makes a :class:`Player`.

``MODULE`` is a module on ``sys.path`` (``my_bots.pyramid``; ``python -m`` puts the current folder
there) or a ``.py`` file (``bots/mine.py``, relative to the current folder); ``FACTORY`` is called
with the :class:`~solitaire_rl.envs.spec.GameSpec` to play and returns the player. A player
whose moves draw random numbers implements ``reseed(seed)``
(:class:`~solitaire_rl.agents.seeding.Reseedable`); the benchmark then reseeds it per deal.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from solitaire_rl.agents.base import Player
from solitaire_rl.envs.errors import MalformedInputError


def is_outside(name: str) -> bool:
    """Whether ``name`` names a factory outside the registry (``MODULE:FACTORY``)."""
    return ":" in name


def _module(text: str) -> Any:
    if text.endswith(".py"):
        path = Path(text).resolve()
        if not path.is_file():
            raise MalformedInputError(f"agent {text!r}: no such file {path}")
        name = f"solitaire_rl_outside_{path.stem}_{hashlib.sha256(str(path).encode()).hexdigest()[:12]}"
        if name not in sys.modules:
            spec = importlib.util.spec_from_file_location(name, path)
            if spec is None or spec.loader is None:
                raise MalformedInputError(f"agent {text!r}: {path} is not a Python module")
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            try:
                spec.loader.exec_module(module)
            except BaseException:
                del sys.modules[name]
                raise
        return sys.modules[name]
    try:
        return importlib.import_module(text)
    except ImportError as exc:
        raise MalformedInputError(f"agent module {text!r} cannot be imported ({exc}); give a module on "
                                  f"sys.path or a .py file") from None


def load_factory(spec: str) -> Callable[..., Player]:
    """The factory ``MODULE:FACTORY`` names (a clear error if it is missing or not callable)."""
    module_text, _, attribute = spec.rpartition(":")
    if not module_text or not attribute.isidentifier():
        raise MalformedInputError(f"agent {spec!r}: give MODULE:FACTORY (my_module:make_player)")
    factory = getattr(_module(module_text), attribute, None)
    if not callable(factory):
        raise MalformedInputError(f"agent {spec!r}: {module_text} has no function {attribute!r}")
    return factory


def make_outside_player(spec: str, variant: Any) -> Player:
    """The player the factory ``spec`` makes for ``variant``; anything but a :class:`Player` is refused."""
    player = load_factory(spec)(variant)
    if not isinstance(player, Player):
        raise MalformedInputError(f"agent {spec!r} returned a {type(player).__name__}, not a "
                                  f"solitaire_rl.agents.base.Player")
    return player


def default_name(spec: str, player: Player) -> str:
    """The row name of an outside agent: the player's own ``name`` (unless it kept the base class's
    ``player``), else the module's name."""
    if player.name != Player.name:
        return player.name
    module = spec.rpartition(":")[0]
    return Path(module).stem if module.endswith(".py") else module.rpartition(".")[2]


__all__ = ["default_name", "is_outside", "load_factory", "make_outside_player"]
