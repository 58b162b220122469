"""Slash commands and buttons, as discord.py extensions."""
