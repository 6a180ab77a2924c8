"""Local stand-ins for the chat platforms, used to test the real frontends end to end."""
