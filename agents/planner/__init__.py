"""Planners: players that search over what the player has seen, built on the exact solvers.

``hop`` (Klondike, :mod:`agents.planner.hop`) and ``pimc`` (Pyramid, :mod:`agents.pimc`) sample
the unknown cards, solve each sample natively and play the move that wins most often.
"""

NO_SAMPLE = "no sample finished in time"
"""How a planner's reason starts when its time ran out before any sample: the move is then only
its tie-break's (the play page's hint then asks the trained agent instead)."""
