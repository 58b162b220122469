"""Commands, callers and refusals as JSON: what one process hands the process that owns a game.

A door's command for a game another process owns is carried there as text (bot.game.relay),
run there exactly as a command of its own door, and its answer (the caller's words, or why
not) comes back the same way. Only plain values cross: a command's fields, the caller's
standing, a refusal's key and parameters.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from bot.errors import StaleBoard, UserError
from bot.game import commands as c
from bot.game.access import Caller, Standing
from engine.cards import Colour
from engine.signals import Signal

#: The commands a door may hand over, by name (Discord's own are handed over whole, as
#: Discord sent them: bot.discord.handover).
HANDED: dict[str, type[c.Command]] = {
    kind.__name__: kind
    for kind in (
        c.Open,
        c.PlayAgain,
        c.Join,
        c.Leave,
        c.AddCrewmate,
        c.RemoveCrewmate,
        c.Configure,
        c.Start,
        c.Move,
        c.Say,
        c.Skip,
        c.Kick,
        c.End,
        c.Reset,
    )
}


def command_json(command: c.Command) -> dict[str, Any]:
    """A command as plain values (a Start's venue, Discord's own, never crosses)."""
    if isinstance(command, c.Asking):
        return {"type": type(command).__name__, "asked": [list(p) for p in command.asked]}
    fields = {f.name: getattr(command, f.name) for f in dataclasses.fields(command)}
    fields.pop("venue", None)
    if isinstance(command, c.Say):
        signal = command.signal
        colour = None if signal.colour is None else signal.colour.value
        fields["signal"] = {"kind": signal.kind, "colour": colour, "count": signal.count}
    return {"type": type(command).__name__, **fields}


def command_from(data: dict[str, Any]) -> c.Command:
    """The command `command_json` wrote (ValueError: not one)."""
    fields = dict(data)
    kind = HANDED.get(str(fields.pop("type", "")))
    if kind is None:
        raise ValueError(f"no command {data.get('type')!r} is handed over")
    if issubclass(kind, c.Asking):
        return kind(**dict(fields.get("asked", ())))
    if kind is c.Say:
        said = fields["signal"]
        colour = None if said["colour"] is None else Colour(said["colour"])
        return c.Say(Signal(said["kind"], colour, said["count"]))
    return kind(**fields)


def caller_json(caller: Caller) -> dict[str, Any]:
    standing = dataclasses.asdict(caller.standing)
    standing["roles"] = sorted(caller.standing.roles)
    return {
        "user_id": caller.user_id,
        "name": caller.name,
        "guild_id": caller.guild_id,
        "channel_id": caller.channel_id,
        "standing": standing,
        "answers": caller.answers,
        "reach": caller.reach,
    }


def caller_from(data: dict[str, Any]) -> Caller:
    standing = dict(data["standing"])
    standing["roles"] = frozenset(standing.get("roles", ()))
    return Caller(**{**data, "standing": Standing(**standing)})


def refusal_json(refusal: UserError) -> dict[str, Any]:
    """Why not, as plain values: its key and parameters, and whether the board had moved on."""
    return {
        "key": refusal.key,
        "params": refusal.params,
        "code": refusal.code,
        "stale": isinstance(refusal, StaleBoard),
    }


class Outdated(UserError):
    """The owner found the board the caller clicked outdated (a StaleBoard, told there)."""


def refusal_from(data: dict[str, Any]) -> UserError:
    kind = Outdated if data.get("stale") else UserError
    refusal = kind(str(data["key"]), **dict(data.get("params") or {}))
    refusal.code = data.get("code")
    return refusal
