"""solitaire-rl: Pyramid and Klondike draw-3 solitaire as reinforcement-learning ground.

Importing the package registers ``Solitaire/Pyramid-v0`` and ``Solitaire/Klondike-v0`` with
Gymnasium, so ``gymnasium.make("solitaire_rl:Solitaire/Klondike-v0")`` works with no import of its
own. The layers, each importing only those before it: :mod:`solitaire_rl.envs` (rules and
environments) <- :mod:`solitaire_rl.agents` <- :mod:`solitaire_rl.training` <- :mod:`solitaire_rl.play`.
"""

from solitaire_rl.envs import register_envs

__all__ = ["register_envs"]
