"""The command language shared by every chat: parsing into intents, and executing them."""

from .grammar import COMMANDS, parse_command
from .intents import CommandError, Intent

__all__ = ["COMMANDS", "CommandError", "Intent", "parse_command"]
