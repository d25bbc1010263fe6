"""Agents that play the games of :mod:`envs`: exact solvers (:mod:`solitaire_rl.agents.solver`) and players.

Every player implements :class:`solitaire_rl.agents.base.Player` (observation, mask, info -> action and a few
words why); :func:`solitaire_rl.agents.registry.make_player` builds ``random``, ``greedy``, ``ppo`` (a trained
MaskablePPO checkpoint) or ``solver`` (exact, sees hidden cards). This package imports nothing
heavy: torch and the native core load only when a ``ppo`` or ``solver`` player is built.

Data flows one way: agents import envs, never the reverse.
"""
