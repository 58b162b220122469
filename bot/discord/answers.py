"""Private answers to an interaction: a reason, in the language of whoever interacted.

Also whether a click is on the game's current board, and freeing an answered interaction.
"""

from __future__ import annotations

import contextlib
import logging

import discord

from bot.errors import UserError
from bot.i18n.catalogs import language_of
from bot.table import Table

log = logging.getLogger(__name__)


def speaks(interaction: discord.Interaction) -> str:
    """The language of the person who interacted (their Discord locale)."""
    return language_of(interaction.locale)


async def send_reason(interaction: discord.Interaction, reason: UserError | str) -> None:
    """A short private answer: the first response if none was sent yet, else a follow-up.

    A UserError is worded in the language of the person who interacted.
    """
    message = reason.text(speaks(interaction)) if isinstance(reason, UserError) else reason
    try:
        if interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not answer interaction %s", interaction.id)


def clicked_board(interaction: discord.Interaction, table: Table) -> bool:
    """Whether the clicked button is on the game's current board message."""
    message = interaction.message
    return message is not None and message.id == table.board_message_id


def release(interaction: discord.Interaction) -> None:
    """Let an answered interaction be freed at once, without the garbage collector.

    discord.py's Interaction and its InteractionResponse refer to each other, so each
    interaction, with the message, member and components parsed from it (about thirty
    objects), would otherwise be left to the cyclic collector, whose pauses at a few
    hundred interactions a second stop every game at once. Called when we are done
    with it; should anything ask for `interaction.response` later, discord.py makes a
    new one.
    """
    with contextlib.suppress(AttributeError):
        del interaction._cs_response
