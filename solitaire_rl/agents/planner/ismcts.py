"""``ismcts``: the Klondike planner with the information-set tree search among its ties, and
``guided-ismcts``, the same with the expert network's policy as its prior. Both are
:class:`~solitaire_rl.agents.planner.hop.HopPlayer` with other defaults; the tree search itself is native
(``klondike_ismcts``)."""

from __future__ import annotations

from typing import Any

from solitaire_rl.agents.planner.hop import HopPlayer
from solitaire_rl.envs.spec import GameSpec


class IsmctsPlayer(HopPlayer):
    """``hop`` with the information-set tree search among its ties (``search="tree"``)."""

    name = "ismcts"

    def __init__(self, variant: GameSpec, **options: Any) -> None:
        options.setdefault("search", "tree")
        super().__init__(variant, **options)


class GuidedIsmctsPlayer(HopPlayer):
    """``ismcts`` with the expert network's policy as its tie-break prior (``prior="expert"``)."""

    name = "guided-ismcts"

    def __init__(self, variant: GameSpec, **options: Any) -> None:
        options.setdefault("search", "tree")
        options.setdefault("prior", "expert")
        super().__init__(variant, **options)


__all__ = ["GuidedIsmctsPlayer", "IsmctsPlayer"]
