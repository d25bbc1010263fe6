"""``render_mode="human"``: the table's picture shown in a pygame window, as Gymnasium's toy-text
environments (Blackjack) show theirs. pygame comes with the ``render`` extra."""

from __future__ import annotations

from typing import Any

import numpy as np

from solitaire_rl.envs.card_art import DependencyNotInstalled


class HumanWindow:
    """One window, opened on the first frame, refreshed at ``fps`` frames a second."""

    def __init__(self, title: str, fps: int) -> None:
        self.title, self.fps = title, fps
        self._window: Any = None
        self._clock: Any = None

    def show(self, frame: np.ndarray) -> None:
        try:
            import pygame
        except ImportError:
            raise DependencyNotInstalled(
                'render_mode="human" needs pygame: pip install -e ".[render]"'
            ) from None
        height, width = frame.shape[:2]
        if self._window is None:
            pygame.display.init()
            pygame.display.set_caption(self.title)
            self._window = pygame.display.set_mode((width, height))
            self._clock = pygame.time.Clock()
        surface = pygame.surfarray.make_surface(np.transpose(frame, (1, 0, 2)))
        self._window.blit(surface, (0, 0))
        pygame.event.pump()
        pygame.display.update()
        self._clock.tick(self.fps)

    def close(self) -> None:
        if self._window is not None:
            import pygame

            pygame.display.quit()
            self._window = None


__all__ = ["HumanWindow"]
