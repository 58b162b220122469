"""Builds the ``data`` of slash-command and component interactions.

Everything here checks the request against what a Discord user could actually
do (a synced command, a declared option, an allowed choice, a button that is
on the message) and raises :class:`InvalidInvocation` otherwise: a test that
asks for the impossible is a broken test, never a silent no-op.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from typing import Any

from .state import Channel, ChannelType, ComponentType, Guild, Member, Message, Role, User, World


class InvalidInvocation(ValueError):
    """A test asked the fake for something no Discord user could do."""


class OptionType(IntEnum):
    """Application command option types."""

    SUB_COMMAND = 1
    SUB_COMMAND_GROUP = 2
    STRING = 3
    INTEGER = 4
    BOOLEAN = 5
    USER = 6
    CHANNEL = 7
    ROLE = 8
    MENTIONABLE = 9
    NUMBER = 10
    ATTACHMENT = 11


_NESTING = (OptionType.SUB_COMMAND, OptionType.SUB_COMMAND_GROUP)
CHAT_INPUT = 1
#: The command type of an Activity's Entry Point (PRIMARY_ENTRY_POINT): "Launch" in the App
#: Launcher. One per app, global only.
PRIMARY_ENTRY_POINT = 4


class EntryPointHandler(IntEnum):
    """Who answers an Entry Point command (its ``handler``)."""

    #: The app gets an APPLICATION_COMMAND interaction and answers it (LAUNCH_ACTIVITY).
    APP_HANDLER = 1
    #: Discord launches the Activity itself; the app is not told.
    DISCORD_LAUNCH_ACTIVITY = 2


class Context(IntEnum):
    """Where an interaction happens (its ``context``; a command's ``contexts``)."""

    GUILD = 0
    BOT_DM = 1
    #: A group DM, or a DM between users.
    PRIVATE_CHANNEL = 2


class Install(IntEnum):
    """How the app is installed (``integration_types``; the keys of
    ``authorizing_integration_owners``)."""

    GUILD = 0
    USER = 1


_PLACES = {
    Context.GUILD: "in a server",
    Context.BOT_DM: "in a DM with the bot",
    Context.PRIVATE_CHANNEL: "in a group DM",
}


def find_command(commands: Iterable[dict[str, Any]], path: str) -> tuple[dict[str, Any], list[str]]:
    """The synced slash command named by ``"name [group] [subcommand]"``, and the rest."""
    name, *rest = path.split()
    for command in commands:
        if command["name"] == name and command.get("type", CHAT_INPUT) == CHAT_INPUT:
            return command, rest
    known = sorted(c["name"] for c in commands)
    raise InvalidInvocation(f"unknown command /{name}; the bot synced {known}")


def find_entry_point(commands: Iterable[dict[str, Any]]) -> dict[str, Any] | None:
    """The app's Entry Point command among its global commands, if Activities are enabled."""
    return next((c for c in commands if c.get("type") == PRIMARY_ENTRY_POINT), None)


def command_contexts(command: dict[str, Any]) -> set[int]:
    """Where Discord offers a synced command: its ``contexts``, else (as before contexts
    existed) servers, and the bot's DM unless ``dm_permission`` is false. A guild command
    is offered in its server only."""
    if "guild_id" in command:
        return {Context.GUILD}
    contexts = command.get("contexts")
    if contexts is not None:
        return set(contexts)
    in_dms = command.get("dm_permission") is not False
    return {Context.GUILD, Context.BOT_DM} if in_dms else {Context.GUILD}


def command_installs(command: dict[str, Any]) -> set[int]:
    """The installs a synced command works through: its ``integration_types`` (guild install
    when absent; a guild command is its server's)."""
    if "guild_id" in command:
        return {Install.GUILD}
    return set(command.get("integration_types") or [Install.GUILD])


def context_of(channel: Channel) -> Context:
    """The interaction context of a channel: a server's, the bot's DM, or a group DM."""
    if channel.type is ChannelType.DM:
        return Context.BOT_DM
    if channel.type is ChannelType.GROUP_DM:
        return Context.PRIVATE_CHANNEL
    return Context.GUILD


def installs_at(world: World, channel: Channel, user: User) -> dict[int, str]:
    """The installs of the app that apply when ``user`` acts in ``channel``, with their
    owners' ids: the guild install where the server has the bot or installed its commands
    alone ("0" in the bot's DM), the user install wherever the user installed the app."""
    installs: dict[int, str] = {}
    guild_id = channel.guild_id
    if channel.type is ChannelType.DM:
        installs[Install.GUILD] = "0"
    elif guild_id is not None and (
        world.has_bot(world.guild(guild_id)) or guild_id in world.command_installs
    ):
        installs[Install.GUILD] = str(guild_id)
    if user.id in world.user_installs:
        installs[Install.USER] = str(user.id)
    return installs


def check_usable(
    command: dict[str, Any], context: Context, installs: dict[int, str]
) -> dict[str, str]:
    """The ``authorizing_integration_owners`` of this command used here, or InvalidInvocation.

    ``installs`` are the installs that apply where it is used (``Install`` -> the owner's id,
    "0" for the guild install in the bot's DM). Discord offers a command where its
    ``contexts`` hold the context and one of its ``integration_types`` applies; the owners
    are those of the applying installs the command works through.
    """
    name = command["name"]
    if context not in command_contexts(command):
        if context is Context.BOT_DM:
            raise InvalidInvocation(f"/{name} is server-only: Discord offers it in no DM")
        allowed = sorted(command_contexts(command))
        raise InvalidInvocation(
            f"/{name} is not offered {_PLACES[context]}: its contexts are {allowed}"
        )
    works_through = command_installs(command)
    owners = {str(key): owner for key, owner in installs.items() if key in works_through}
    if not owners:
        wanted = sorted(works_through)
        here = sorted(installs) or "none"
        raise InvalidInvocation(
            f"/{name} needs the app installed by {wanted} (0: the server, 1: the user); "
            f"the installs that apply {_PLACES[context]} are {here}"
        )
    return owners


def check_usable_in_dms(command: dict[str, Any]) -> None:
    """Raise InvalidInvocation if Discord offers this synced command in no DM with the bot
    (the app guild-installed, as a bot is)."""
    check_usable(command, Context.BOT_DM, {Install.GUILD: "0"})


def build_command_data(
    world: World,
    guild: Guild | None,
    command: dict[str, Any],
    path: list[str],
    values: dict[str, Any],
    *,
    forged: bool = False,
) -> dict[str, Any]:
    """The ``data`` of an APPLICATION_COMMAND interaction for this command and options.

    ``forged``: scalar values are sent as given, unchecked against the declaration.
    """
    resolved: dict[str, dict[str, Any]] = {}
    options = _command_options(world, guild, command, path, values, resolved, forged)
    data: dict[str, Any] = {
        "id": str(command["id"]),
        "name": command["name"],
        "type": CHAT_INPUT,
        "options": options,
    }
    if guild is not None:
        data["guild_id"] = str(guild.id)
    if resolved:
        data["resolved"] = resolved
    return data


def _command_options(
    world: World,
    guild: Guild | None,
    node: dict[str, Any],
    path: list[str],
    values: dict[str, Any],
    resolved: dict[str, dict[str, Any]],
    forged: bool,
) -> list[dict[str, Any]]:
    declared = node.get("options") or []
    nested = [o for o in declared if o["type"] in _NESTING]
    if nested:
        if not path:
            names = [o["name"] for o in nested]
            raise InvalidInvocation(f"/{node['name']} needs a subcommand, one of {names}")
        step, *rest = path
        for option in nested:
            if option["name"] == step:
                inner = _command_options(world, guild, option, rest, values, resolved, forged)
                return [{"type": option["type"], "name": step, "options": inner}]
        raise InvalidInvocation(f"/{node['name']} has no subcommand {step!r}")
    if path:
        raise InvalidInvocation(f"/{node['name']} has no subcommands, got {path}")
    return _leaf_options(world, guild, node, declared, values, resolved, forged)


def _leaf_options(
    world: World,
    guild: Guild | None,
    node: dict[str, Any],
    declared: list[dict[str, Any]],
    values: dict[str, Any],
    resolved: dict[str, dict[str, Any]],
    forged: bool,
) -> list[dict[str, Any]]:
    by_name = {option["name"]: option for option in declared}
    unknown = set(values) - set(by_name)
    if unknown:
        raise InvalidInvocation(
            f"/{node['name']} has no option(s) {sorted(unknown)}; it has {sorted(by_name)}"
        )
    missing = [o["name"] for o in declared if o.get("required") and o["name"] not in values]
    if missing:
        raise InvalidInvocation(f"/{node['name']} needs option(s) {missing}")
    return [
        {
            "name": name,
            "type": by_name[name]["type"],
            "value": _option_value(world, guild, by_name[name], value, resolved, forged),
        }
        for name, value in values.items()
    ]


def _option_value(
    world: World,
    guild: Guild | None,
    option: dict[str, Any],
    value: Any,
    resolved: dict[str, dict[str, Any]],
    forged: bool,
) -> Any:
    kind = OptionType(option["type"])
    name = option["name"]
    if kind in (OptionType.STRING, OptionType.INTEGER, OptionType.NUMBER, OptionType.BOOLEAN):
        if not forged:
            _check_scalar(kind, option, value)
        return value
    if kind is OptionType.USER:
        user = world.user(value)
        resolved.setdefault("users", {})[str(user.id)] = user.payload()
        member = guild.members.get(user.id) if guild is not None else None
        if guild is not None and member is not None:
            resolved.setdefault("members", {})[str(user.id)] = member.payload(
                with_user=False, permissions=guild.permissions_of(member)
            )
        return str(user.id)
    if kind is OptionType.CHANNEL:
        channel = world.channel(value)
        allowed = option.get("channel_types")
        if allowed and channel.type not in allowed:
            raise InvalidInvocation(f"option {name!r} takes channel types {allowed}")
        resolved.setdefault("channels", {})[str(channel.id)] = _resolved_channel(channel)
        return str(channel.id)
    if kind is OptionType.ROLE:
        if isinstance(value, Role):  # another guild's role, sent as a tampered client would
            role = value
        elif forged and (guild is None or value not in guild.roles):
            role = Role(int(value), 0, "forged", 0, 0)  # an id no guild has
        else:
            role = _role_by_id(guild, value)
        resolved.setdefault("roles", {})[str(role.id)] = role.payload()
        return str(role.id)
    raise InvalidInvocation(
        f"option {name!r} has type {kind.name}, which the fake does not support"
    )


def _check_scalar(kind: OptionType, option: dict[str, Any], value: Any) -> None:
    name = option["name"]
    expected: dict[OptionType, type | tuple[type, ...]] = {
        OptionType.STRING: str,
        OptionType.INTEGER: int,
        OptionType.NUMBER: (int, float),
        OptionType.BOOLEAN: bool,
    }
    typed = isinstance(value, expected[kind])  # (value stays Any: a number or a text)
    if not typed or (kind is not OptionType.BOOLEAN and type(value) is bool):
        raise InvalidInvocation(f"option {name!r} is {kind.name}, got {value!r}")
    choices = option.get("choices")
    if choices and value not in [choice["value"] for choice in choices]:
        allowed = [choice["value"] for choice in choices]
        raise InvalidInvocation(f"option {name!r} must be one of {allowed}, got {value!r}")
    size = len(value) if kind is OptionType.STRING else value
    low = option.get("min_length" if kind is OptionType.STRING else "min_value")
    high = option.get("max_length" if kind is OptionType.STRING else "max_value")
    if (low is not None and size < low) or (high is not None and size > high):
        raise InvalidInvocation(f"option {name!r} must be within [{low}, {high}], got {value!r}")


def _role_by_id(guild: Guild | None, role_id: int) -> Role:
    if guild is None or role_id not in guild.roles:
        raise InvalidInvocation(f"no role {role_id} in this guild")
    return guild.roles[role_id]


def _resolved_channel(channel: Channel) -> dict[str, Any]:
    return {
        "id": str(channel.id),
        "name": channel.name,
        "type": int(channel.type),
        "permissions": "0",
    }


def build_component_data(
    message: Message,
    custom_id: str,
    user: User,
    values: list[str] | None,
    *,
    forged: bool = False,
) -> dict[str, Any]:
    """The ``data`` of a MESSAGE_COMPONENT interaction: a click or a select choice.

    Discord sends one only for a component on that message, as it is now, which the
    user can see. ``forged``: whatever custom id and values, as a tampered client could
    send them, on any message that exists (another user's ephemeral one included).
    """
    if message.deleted or not (forged or message.seen_by(user.id)):
        raise InvalidInvocation(f"user {user.id} cannot see message {message.id}")
    if forged:
        if values is None:
            return {"custom_id": custom_id, "component_type": ComponentType.BUTTON}
        kind = ComponentType.STRING_SELECT
        return {"custom_id": custom_id, "component_type": kind, "values": list(values)}
    try:
        component = message.component(custom_id)
    except LookupError as error:
        raise InvalidInvocation(str(error)) from None
    if component.get("disabled"):
        raise InvalidInvocation(f"component {custom_id!r} is disabled")
    kind = component["type"]
    if values is None:
        if kind != ComponentType.BUTTON:
            raise InvalidInvocation(f"component {custom_id!r} is not a button (type {kind})")
        return {"custom_id": custom_id, "component_type": kind}
    if kind != ComponentType.STRING_SELECT:
        raise InvalidInvocation(f"component {custom_id!r} is not a string select (type {kind})")
    offered = [option["value"] for option in component.get("options", [])]
    if not set(values) <= set(offered):
        raise InvalidInvocation(f"select {custom_id!r} offers {offered}, got {values}")
    low, high = component.get("min_values", 1), component.get("max_values", 1)
    if not low <= len(values) <= high:
        raise InvalidInvocation(f"select {custom_id!r} takes {low} to {high} values, got {values}")
    return {"custom_id": custom_id, "component_type": kind, "values": list(values)}


def interaction_member_fields(
    world: World, channel: Channel, user: User
) -> tuple[Guild | None, dict[str, Any]]:
    """The channel's guild (None in DMs) and the ``member``/``user`` part of an interaction
    (a member's ``permissions`` are theirs in that channel, as on Discord)."""
    if channel.is_private:
        if not world.can_view(user, channel):
            raise InvalidInvocation(f"user {user.id} is not a recipient of channel {channel.id}")
        return None, {"user": user.payload()}
    guild = world.guild_of(channel)
    if guild is None:
        raise InvalidInvocation(f"channel {channel.id} is in no server")
    member: Member | None = guild.members.get(user.id)
    if member is None:
        raise InvalidInvocation(f"user {user.id} is not a member of guild {guild.id}")
    return guild, {"member": member.payload(permissions=guild.permissions_in(member, channel))}
