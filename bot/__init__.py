"""fevga-bot: the chat frontends, game-session service and their configuration."""
