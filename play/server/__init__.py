"""The local play server: FastAPI over the Python rules engine, serving the Pyramid page."""

from play.server.app import PlayServer, create_app

__all__ = ["PlayServer", "create_app"]
