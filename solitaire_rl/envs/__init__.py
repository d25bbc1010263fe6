"""Rules engines and Gymnasium environments for Pyramid and Klondike solitaire.

Importing this package registers ``Solitaire/Pyramid-v0`` and ``Solitaire/Klondike-v0``.
"""

from solitaire_rl.envs.registration import register_envs

register_envs()
