"""Apophis Bot: the Discord side of the game (commands, views, persistence)."""
