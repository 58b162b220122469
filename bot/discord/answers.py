"""Private answers to an interaction: a reason, in the language of whoever interacted.

Also who interacted, as the game layer sees them (`caller_of`); where a command is
declared (`anywhere`) and the checks that refuse it before it runs (`Refusal`, `requires`,
`needs_the_bot`, `server_records`); whether a click is on the game's current
board; and freeing an answered interaction.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from typing import TypeVar

import discord
from discord import app_commands

from bot.discord.gatekeeper import standing_of
from bot.errors import UserError
from bot.game.access import CHANNEL, INTERACTIONS, Caller
from bot.i18n.catalogs import language_of
from bot.table import Table

log = logging.getLogger(__name__)

#: A slash command (or group) being declared.
T = TypeVar("T")


def speaks(interaction: discord.Interaction) -> str:
    """The language of the person who interacted (their Discord locale)."""
    return language_of(interaction.locale)


def reach_of(interaction: discord.Interaction) -> str:
    """How the bot reaches the place of an interaction: through its channel where the bot
    is a member of the server (the gateway told of it) or in the bot's own DM, else through
    interactions alone (a user-installed app in a server without the bot, a server that
    installed the app's commands alone, a DM or a group DM). Which install authorized the
    interaction does not say: a server that installed the commands alone has no bot user,
    and a click on a message a person's install made names that install alone, even once
    the server has added the bot."""
    if interaction.context.dm_channel:  # the bot's DM (context 1): it may post there
        return CHANNEL
    guild_id = interaction.guild_id
    with_bot = guild_id is not None and interaction.client.get_guild(guild_id) is not None
    return CHANNEL if with_bot else INTERACTIONS


def caller_of(interaction: discord.Interaction) -> Caller:
    """Who interacted, where, what their permissions there let them do, and how the bot
    reaches them there."""
    user = interaction.user
    return Caller(
        user.id,
        user.display_name,
        interaction.guild_id or 0,
        interaction.channel_id or 0,
        standing_of(interaction),
        reach=reach_of(interaction),
    )


class Refusal(app_commands.CheckFailure):
    """A command's check refused it: `error` says why (answered by the tree's error handler)."""

    def __init__(self, error: UserError) -> None:
        super().__init__(error.key)
        self.error = error


def requires(allowed: Callable[[discord.Interaction], bool], key: str) -> Callable[[T], T]:
    """A check for a slash command: refused with the catalog's `key` unless `allowed`."""

    def check(interaction: discord.Interaction) -> bool:
        if not allowed(interaction):
            raise Refusal(UserError(key))
        return True

    return app_commands.check(check)


def anywhere(command: T) -> T:
    """Declare a top-level command (or group) for both installs, the server's and a
    user's, and every place: servers, the bot's DM, group DMs and other DMs. Discord
    reads installs and contexts on top-level commands only: a subcommand that needs more
    says so with a check (`requires`)."""
    declared = app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    return app_commands.allowed_installs(guilds=True, users=True)(declared(command))


def with_the_bot(interaction: discord.Interaction) -> bool:
    """Whether the interaction is in a server the bot reaches through its channels (the
    bot a member there), rather than a DM, a group DM or a server without it."""
    return interaction.guild_id is not None and reach_of(interaction) == CHANNEL


#: Server settings and moderation: refused in one line, and nothing attempted, in a DM, a
#: group DM or a server without the bot.
needs_the_bot = requires(with_the_bot, "error.needs_the_bot")


def _a_servers_records(interaction: discord.Interaction) -> bool:
    if interaction.guild_id is None:
        raise Refusal(UserError("error.server_records"))
    if not with_the_bot(interaction):
        raise Refusal(UserError("error.needs_the_bot"))
    return True


#: A server's leaderboard and statistics: in a DM or a group DM, refused in one line that
#: says they are a server's and points to the profile and history there; in a server
#: without the bot, as `needs_the_bot`.
server_records = app_commands.check(_a_servers_records)


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


def clicked_board(interaction: discord.Interaction, table: Table) -> int | None:
    """The clicked message's id if it is the game's current board message, else None."""
    message = interaction.message
    return message.id if message is not None and message.id == table.messages.board_id else None


def release(interaction: discord.Interaction) -> None:
    """Let an answered interaction be freed at once, without the garbage collector.

    discord.py's Interaction and its InteractionResponse refer to each other, so each
    interaction, with the message, member and components parsed from it (about thirty
    objects), would otherwise be left to the cyclic collector, whose pauses at a few
    hundred interactions a second stop every game at once. Called when we are done
    with it; should anything ask for `interaction.response` later, discord.py makes a
    new one.
    """
    with contextlib.suppress(AttributeError):  # (the slot discord.py caches `response` in)
        delattr(interaction, "_cs_response")
