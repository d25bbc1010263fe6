"""The local play server: FastAPI over the Python rules engine, serving the Pyramid and Klondike pages."""

from solitaire_rl.play.server.app import create_app
from solitaire_rl.play.server.pyramid_api import PyramidServer

__all__ = ["PyramidServer", "create_app"]
