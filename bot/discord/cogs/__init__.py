"""Slash commands and buttons, as discord.py extensions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord.ext import commands

if TYPE_CHECKING:
    #: A base of the /apophis group's cog (bot.discord.cogs.apophis), whose commands
    #: discord.py gathers from all its bases: a cog to the type checker, a plain class
    #: at run time (only the group is a cog).
    Part = commands.Cog
else:
    Part = object
