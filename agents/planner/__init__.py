"""Planners: players that search over what the player has seen, built on the exact solvers.

``hop`` (Klondike, :mod:`agents.planner.hop`) and ``pimc`` (Pyramid, :mod:`agents.pimc`) sample
the unknown cards, solve each sample natively and play the move that wins most often.
"""
