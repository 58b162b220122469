"""What the bot's token reaches through the channel routes, as Discord decides it: a request's
channel (404 Unknown Channel once deleted, 403 Missing Access where the bot cannot view it),
its message (ephemeral ones unknown there), and the bot's permissions in a channel."""

from __future__ import annotations

from aiohttp import web

from .state import VIEW_CHANNEL, Channel, ChannelType, Message, World
from .wire import DiscordError


def bot_permissions(world: World, channel: Channel) -> int:
    """The bot's permissions in a channel: every one in its DM, none where it is not (a
    group DM, a server without the bot)."""
    if channel.type is ChannelType.DM:
        return ~0
    guild = world.guild_of(channel)
    bot = guild.members.get(world.bot.id) if guild is not None else None
    return guild.permissions_in(bot, channel) if guild is not None and bot is not None else 0


def request_channel(world: World, request: web.Request) -> Channel:
    """The request's channel: 404 Unknown Channel if there is none (deleted), 403 Missing
    Access if the bot cannot view it."""
    channel = world.channels.get(int(request.match_info["channel_id"]))
    if channel is None:
        raise DiscordError(404, 10003, "Unknown Channel")
    if not bot_permissions(world, channel) & VIEW_CHANNEL:
        raise DiscordError(403, 50001, "Missing Access")
    return channel


def request_message(world: World, request: web.Request) -> Message:
    """The request's message through the channel routes: ephemeral ones are unknown there."""
    channel = request_channel(world, request)
    message = world.messages.get(int(request.match_info["message_id"]))
    if message is None or message.deleted or message.ephemeral or message.channel_id != channel.id:
        raise DiscordError(404, 10008, "Unknown Message")
    return message
