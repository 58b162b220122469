"""The one error boundary of slash commands and clicks: a refusal told why, a failure apologised.

A slash command that failed arrives here from the command tree (`command_failed`), a click
from the play cog (`answer_error`). A refusal (a check's, or the game's UserError) is told
its reason, privately; a bug or an outage on our side is logged and answered with an
apology (`apologise`), or only logged when nothing can answer it any more.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.discord.access import UNKNOWN_INTERACTION
from bot.discord.answers import Refusal, release, send_reason
from bot.errors import UserError
from bot.store.records import StoreBusy

log = logging.getLogger(__name__)


async def command_failed(
    interaction: discord.Interaction, error: app_commands.AppCommandError
) -> None:
    """A slash command failed: a refusal (a check's, or the game's) is told why, privately;
    a failed check otherwise explained; anything else apologised."""
    try:
        if isinstance(error, Refusal):
            await send_reason(interaction, error.error)
            return
        if isinstance(error, app_commands.CheckFailure | app_commands.TransformerError):
            await send_reason(interaction, UserError("error.cannot_here"))
            return
        command = interaction.command.qualified_name if interaction.command else "?"
        await answer_error(interaction, f"command {command}", error)
    finally:
        release(interaction)


async def answer_error(interaction: discord.Interaction, what: str, error: Exception) -> None:
    """What every command and click that failed is answered (the one boundary): a
    refusal with its reason, privately; a bug or an outage with an apology."""
    original = getattr(error, "original", error)
    if isinstance(original, UserError):
        await send_reason(interaction, original)
        return
    await apologise(interaction, what, original)


async def apologise(interaction: discord.Interaction, what: str, error: Exception) -> None:
    """A bug or outage on our side: logged with its traceback, answered politely."""
    if isinstance(getattr(error, "original", error), StoreBusy):
        log.warning("%s: the database was busy", what)
        if interaction.response.is_done():
            return  # the player had their answer; only our own record of it waits
        await send_reason(interaction, UserError("error.busy"))
        return
    if getattr(getattr(error, "original", error), "code", None) == UNKNOWN_INTERACTION:
        # Answered after Discord's 3 s (the bot or its database was too busy): the
        # move, if any, stands and the board shows it; nothing can answer it now.
        log.warning("%s: answered too late for Discord", what)
        return
    log.error("%s failed", what, exc_info=error)
    await send_reason(interaction, UserError("error.sorry"))
