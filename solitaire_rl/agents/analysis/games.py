"""What the analysis needs of each game: a new game, move text, the solver, and sampled tallies.

One small adapter per game keeps :mod:`solitaire_rl.agents.analysis.line` and
:mod:`solitaire_rl.agents.analysis.hindsight`
free of game-specific code. Variant keys are :mod:`solitaire_rl.agents.variants`' (``pyramid-000``,
``pyramid-001``, ``klondike-draw3``), and ``klondike-draw1`` (the play page's draw-1 games:
:data:`solitaire_rl.agents.variants.KLONDIKE_DRAW1`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from solitaire_rl.agents.solver.limits import SearchLimits
from solitaire_rl.agents.solver.result import SolveResult
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike import KlondikeGame
from solitaire_rl.envs.klondike import Move as KlondikeMove
from solitaire_rl.envs.pyramid import Move as PyramidMove
from solitaire_rl.envs.pyramid import PyramidGame

Game = PyramidGame | KlondikeGame
GAME_VARIANTS = ("pyramid-000", "pyramid-001", "klondike-draw3", "klondike-draw1")


@dataclass(frozen=True)
class GameKind:
    """One variant's operations."""

    variant: str

    @property
    def game(self) -> str:
        return self.variant.split("-")[0]

    def new_game(self, deal: object) -> Game:
        """The deal's first position (an ID, a deal code or 52 card names)."""
        if self.game == "pyramid":
            return PyramidGame(deal, stock_top_playable=self.variant == "pyramid-000")
        return KlondikeGame(deal, draw_count=1 if self.variant == "klondike-draw1" else 3)

    def parse_move(self, text: object) -> Any:
        """A move from its text form (``r7c2+r7c3``, ``draw``, ``c2:3>c5``) or a move value."""
        if self.game == "pyramid":
            return text if isinstance(text, PyramidMove) else PyramidMove.parse(text)  # type: ignore[arg-type]
        return text if isinstance(text, KlondikeMove) else KlondikeMove.parse(text)  # type: ignore[arg-type]

    def solve(self, game: Game, limits: SearchLimits) -> SolveResult[Any]:
        """The exact solver's verdict on the true position (every card known)."""
        from solitaire_rl.agents.solver import solve_klondike, solve_pyramid

        if isinstance(game, PyramidGame):
            return solve_pyramid(game, limits=limits)
        return solve_klondike(game, limits=limits)

    def unknown_count(self, game: Game) -> int:
        """Cards whose place the player could not know in this position."""
        if isinstance(game, PyramidGame):
            from solitaire_rl.agents.planner.pimc import unseen_places

            return len(unseen_places(game))
        from solitaire_rl.agents.planner.knowledge import klondike_knowledge
        from solitaire_rl.envs.klondike.observer import observe

        return len(klondike_knowledge(observe(game), game.draw_count).unknown)

    def sampled_tally(self, game: Game, moves: list[Any], *, samples: int, states_per_solve: int,
                      max_states: int, seed: int) -> Any:
        """For each of ``moves`` (legal in ``game``), in how many samples of the cards the player
        has not seen (every seen card where it was seen) the position after it is won, lost or
        undecided: the native loops the ``pimc`` and ``hop`` planners use."""
        from solitaire_rl.agents.solver import _native

        if isinstance(game, PyramidGame):
            from solitaire_rl.agents.planner.pimc import unseen_places
            from solitaire_rl.agents.solver.pyramid import PyramidPosition, native_moves

            hidden = unseen_places(game)
            position = PyramidPosition.from_game(game)
            stock = list(position.stock)  # the unseen cards in card order: nothing of their places
            for place, card in zip(hidden, sorted(stock[i] for i in hidden), strict=True):
                stock[place] = card
            pimc = _native.PyramidPimcOptions(seed=seed % 2**63, states_per_solve=states_per_solve,
                                              max_samples=samples if hidden else 1, max_states=max_states)
            return _native.pyramid_pimc(replace(position, stock=tuple(stock)).to_native(), hidden,
                                        native_moves(moves), pimc)
        from solitaire_rl.agents.planner.knowledge import klondike_knowledge
        from solitaire_rl.agents.solver.klondike import native_actions
        from solitaire_rl.envs.klondike.observer import observe

        knowledge = klondike_knowledge(observe(game), game.draw_count)
        options = _native.KlondikeHopOptions(
            draw_count=game.draw_count, seed=seed % 2**64, states_per_solve=states_per_solve,
            max_samples=samples if knowledge.unknown else 1, max_states=max_states)
        return _native.klondike_hop(knowledge.position.to_native(), list(knowledge.unknown),
                                    native_actions(moves), options).tally


def game_kind(variant: str) -> GameKind:
    """The adapter of a variant: ``pyramid`` (``pyramid-000``), ``pyramid-001``, ``klondike``."""
    key = {"pyramid": "pyramid-000", "klondike": "klondike-draw3"}.get(str(variant).strip().lower(),
                                                                       str(variant).strip().lower())
    if key not in GAME_VARIANTS:
        raise MalformedInputError(f"unknown game {variant!r}: use one of {', '.join(GAME_VARIANTS)}")
    return GameKind(key)


def variant_of(game: Game) -> str:
    """The variant key a game plays."""
    if isinstance(game, PyramidGame):
        return f"pyramid-{game.variant}"
    if isinstance(game, KlondikeGame):
        return f"klondike-draw{game.draw_count}"  # draw 1: a game from the play page's draw-1 deals
    raise MalformedInputError(f"expected a PyramidGame or a KlondikeGame, not {type(game).__name__}")


__all__ = ["GAME_VARIANTS", "Game", "GameKind", "game_kind", "variant_of"]
