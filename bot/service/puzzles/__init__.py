"""Puzzles in the service: the bank, puzzles on demand with their own ratings, and the daily puzzle."""
