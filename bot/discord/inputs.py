"""What players send, checked on arrival: slash command options, custom ids and the
messages they came from, picked values.

A Discord client can be made to send anything: an option outside its choices or range,
a custom id that was never on a message (or was on another: a hand panel's on the
board, on another player's panel), values a picker never offered.
Nothing here trusts what the client claims: each function either returns the input in
our own terms or raises (or returns) UserError with a short, polite reason (never
echoing more than a few characters of what was sent).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands

from bot.discord.clicked import ClickedMessage
from bot.errors import UserError
from bot.game.clicks import Click
from bot.i18n.notation import UnreadableCard
from bot.i18n.notation import parse_cards as read_cards

#: Longest piece of a player's input quoted back to them.
ECHO = 20


def quote(text: str) -> str:
    """A player's input, cut short, to quote back in a reply."""
    return repr(text if len(text) <= ECHO else text[:ECHO] + "…")


# ------------------------------------------------------------------- slash commands


def command_problem(interaction: discord.Interaction) -> UserError | None:
    """Why a slash command cannot be taken as it arrived (None: it can).

    Every option as the synced command declares it: a declared name, the right type, one
    of its choices, within its range or length. (Where a command may be used is its
    declaration's, which Discord enforces: every command is declared for servers, DMs and
    group DMs, and what needs a server with the bot says so: bot.discord.answers.)
    """
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return None  # discord.py answers unknown commands itself
    params = {param.display_name: param for param in command.parameters}
    for option in _leaf_options(interaction.data or {}):
        param = params.get(option.get("name", ""))
        if param is None:
            return UserError("error.unknown_option")
        problem = _option_problem(param, option.get("value"), interaction.guild)
        if problem is not None:
            return problem
    return None


def _leaf_options(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The options of the subcommand invoked (below its group, if any)."""
    options = data.get("options") or []
    while len(options) == 1 and options[0].get("type") in (1, 2):  # subcommand (group)
        options = options[0].get("options") or []
    return options


_TYPES: dict[discord.AppCommandOptionType, tuple[type[Any], ...]] = {
    discord.AppCommandOptionType.string: (str,),
    discord.AppCommandOptionType.integer: (int,),
    discord.AppCommandOptionType.number: (int, float),
    discord.AppCommandOptionType.boolean: (bool,),
}


def _option_problem(
    param: app_commands.Parameter, value: Any, guild: discord.Guild | None
) -> UserError | None:
    name = param.display_name
    if param.type is discord.AppCommandOptionType.role:  # one of this server's roles only
        known = guild is not None and str(value).isdigit() and guild.get_role(int(value))
        return None if known else UserError("error.option_role", name=name)
    kinds = _TYPES.get(param.type)
    if kinds is None:  # users, channels: resolved by Discord, checked by discord.py
        return None
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        return UserError(f"error.option_type.{param.type.name}", name=name)
    if param.choices and value not in [choice.value for choice in param.choices]:
        offered = ", ".join(str(choice.value) for choice in param.choices)
        return UserError("error.option_choice", name=name, choices=offered)
    size = len(value) if isinstance(value, str) else value
    low, high = param.min_value, param.max_value
    if (low is not None and size < low) or (high is not None and size > high):
        key = "error.option_length" if isinstance(value, str) else "error.option_range"
        return UserError(key, name=name, low=low, high=high)
    return None


def parse_cards(text: str) -> list[str]:
    """Cards typed by a player in any form (bot.i18n.notation); UserError if unreadable."""
    try:
        return read_cards(text)
    except UnreadableCard as exc:
        raise UserError("error.unreadable_card", token=quote(exc.token)) from None


# ----------------------------------------------------------------- components


def source_problem(
    click: Click, message: ClickedMessage | None, user_id: int, board_id: int | None
) -> UserError | None:
    """Why a click cannot be taken from the message it came from (None: it can).

    Discord sends a click only from the message that carries the component, but a client
    can claim any custom id: a hand panel's ("h", "p") is taken only from the clicker's
    own panel, an ephemeral message answering their interaction; a board's ("b"), or a
    lobby's setting ("s"), only from the live board (`board_id`), an older board still
    showing the game's buttons, or, for Reroll and Accept, the launch report; a replay's
    ("r") only from a public message carrying that game's replay buttons. `message` is
    the one Discord sent with the click, as it is now; who it answered is Discord's
    interaction metadata.
    """
    wrong = UserError("error.wrong_message")
    if message is None:
        return wrong
    if click.kind in ("r", "l"):  # a replay's ◀ ▶, a launch report's Reroll and Accept:
        # only from a public message carrying that game's buttons of that kind
        own = f"apo:{click.kind}:{click.game}:"
        mine = any(i.startswith(own) for i in message.custom_ids)
        return None if mine and not message.flags.ephemeral else wrong
    if click.kind not in ("b", "s"):
        if not message.flags.ephemeral:
            return wrong
        metadata = message.interaction_metadata
        # Discord names who interacted on every message answering an interaction (since
        # 2024); were it ever missing, only that person could see the message to click it.
        if metadata is not None and metadata.user.id != user_id:
            return UserError("error.not_your_panel")
        return None
    if message.flags.ephemeral:
        return wrong
    board_button = f"apo:b:{click.game}:"
    if message.id != board_id and not any(i.startswith(board_button) for i in message.custom_ids):
        return wrong  # another of our messages (a post, a ping), never a board of this game
    return None
