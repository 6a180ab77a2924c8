"""The terminal chat: the same command language and service as the real bots, in a local shell."""

from .chat import ConsoleChat, run_console

__all__ = ["ConsoleChat", "run_console"]
