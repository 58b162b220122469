"""The one way into the games for every door: typed commands, checked, applied, answered.

A door (Discord's slash commands and buttons, the live table's socket) reads its input
into a `Command` and calls `Commands.run` with the `Caller` (bot.game.access). Whatever the
door, the same thing happens: who may do it here is checked by one policy, the change is
made under the game's lock as one transaction (through the service's lobbies, moderation
and action path), and a typed `Outcome` comes back for the door to render in its own way
(a Discord answer, a socket reply). Everyone else hears of the change through the
service's change stream (bot.game.changes). A refusal is a `UserError` saying why.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.errors import UserError
from bot.game import changes, newcomers
from bot.game.access import Caller, may_moderate, may_play, may_run
from bot.game.actions import ActionResult
from bot.game.audience import Audience
from bot.game.lobbies import Lobbies, Venue
from bot.game.moderation import Moderation
from bot.game.seats import Seats
from bot.game.tables import Tables
from bot.game.talk import Talk
from bot.lobby_settings import BY_NAME, OPTIONS, LobbySettings
from bot.table import Table
from engine import DIFFICULTY_MINUTES
from engine.signals import Signal


@dataclass(frozen=True, slots=True, init=False)
class Asking:
    """A command that asks for some of a lobby's options: each a keyword named as its option
    (bot.lobby_settings.OPTIONS), None or left out when not asked. `asked` keeps them, in
    the options' order."""

    asked: tuple[tuple[str, Any], ...]

    def __init__(self, **asked: Any) -> None:
        unknown = asked.keys() - BY_NAME.keys()
        if unknown:
            raise TypeError(f"{type(self).__name__}: no lobby option {', '.join(sorted(unknown))}")
        chosen = tuple((o.name, asked[o.name]) for o in OPTIONS if asked.get(o.name) is not None)
        object.__setattr__(self, "asked", chosen)


@dataclass(frozen=True, slots=True, init=False)
class Open(Asking):
    """A new lobby in the caller's channel; what is left out comes from the server's defaults
    (advanced rules get 10 minutes unless asked otherwise; `minutes` overrides the countdown:
    LobbySettings.opened)."""


@dataclass(frozen=True, slots=True)
class Join:
    """Take a seat in the channel's lobby, or a free one of its game in play (a crewmate's,
    or one someone left: bot.game.seats)."""


@dataclass(frozen=True, slots=True)
class Leave:
    """Leave the channel's lobby, or its game in play: your cards are discarded, or, with
    `crewmate`, a crewmate plays your seat on with them."""

    crewmate: bool = False


@dataclass(frozen=True, slots=True)
class AddCrewmate:
    """The host seats an AI crewmate in the lobby."""


@dataclass(frozen=True, slots=True)
class RemoveCrewmate:
    """The host takes back the crewmate seated last."""


@dataclass(frozen=True, slots=True, init=False)
class Configure(Asking):
    """The host chooses some of the lobby's options again (its rules, difficulty or countdown,
    LOBBY_MINUTES), before the start; what is left out stays (LobbySettings.chosen)."""


@dataclass(frozen=True, slots=True)
class Start:
    """The host deals and starts the clock; `first` plays first (random if None); `venue`
    may open the game's own thread."""

    first: int | None = None
    venue: Venue | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Move:
    """A player's move (an engine action without its player), aimed at `version` when it
    came from a button of a board drawn at that version."""

    action: dict[str, Any]
    version: int | None = None


@dataclass(frozen=True, slots=True)
class Say:
    """A player's signal to their team (engine.signals): no move, no turn taken."""

    signal: Signal


@dataclass(frozen=True, slots=True)
class Skip:
    """The host or a moderator skips the turn being played."""


@dataclass(frozen=True, slots=True)
class Kick:
    """The host or a moderator removes a player from the lobby or the game."""

    player: int


@dataclass(frozen=True, slots=True)
class End:
    """The host or a moderator ends the lobby or game without a result."""


@dataclass(frozen=True, slots=True)
class Reset:
    """A moderator clears the channel's lobby or game, whatever its state."""


@dataclass(frozen=True, slots=True)
class PlayAgain:
    """A lobby like ended game `game_id`, pressed on its final board by one of its players."""

    game_id: int


Command = (
    Open | PlayAgain | Join | Leave | AddCrewmate | RemoveCrewmate | Configure | Start | Move
) | (Say | Skip | Kick | End | Reset)
#: Commands that take part in a game: only for who may play here (bot.game.access).
PLAYING = (Open, PlayAgain, Join, AddCrewmate, RemoveCrewmate, Configure, Start, Move, Say)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a command did: the table it changed, and, when it changed a game in play, the
    action's result (its events and public lines). `reason` is what an End or Reset
    recorded ("host", "moderator", "reset")."""

    command: Command
    table: Table
    result: ActionResult | None = None
    reason: str | None = None


#: A move applied through the service's action path (GameService.act).
Act = Callable[..., Awaitable[ActionResult]]


class Commands:
    """Runs every door's commands (see the module docstring)."""

    def __init__(
        self,
        tables: Tables,
        lobbies: Lobbies,
        moderation: Moderation,
        audience: Audience,
        stream: changes.Stream,
        *,
        act: Act,
        seats: Seats,
        talk: Talk,
    ) -> None:
        self.talk = talk
        self.tables = tables
        self.lobbies = lobbies
        self.moderation = moderation
        self.seats = seats
        self.audience = audience
        self.stream = stream
        self.act = act

    async def run(self, caller: Caller, command: Command) -> Outcome:
        """Check, apply and answer `command` for `caller`; UserError: refused, nothing done."""
        outcome = await self._run(caller, command)
        if not caller.answers:  # nothing will carry what it caused: sent now
            if isinstance(command, Open | PlayAgain):  # its message is yet to be posted
                self.stream.publish(changes.LobbyChanged(outcome.table))
            self.stream.publish(changes.Settled(outcome.table))
        return outcome

    async def _run(self, caller: Caller, command: Command) -> Outcome:
        channel, user = caller.channel_id, caller.user_id
        if isinstance(command, PLAYING):
            may_play(caller.standing)
        match command:
            case Open():
                return Outcome(command, await self._open(caller, command))
            case PlayAgain(game_id=game_id):
                table = await self.lobbies.play_again(
                    game_id, channel, user, caller.name, reach=caller.reach
                )
                return Outcome(command, table)
            case Leave(crewmate=crewmate):  # whoever is seated may always leave
                return self._seated(command, await self._leave(channel, user, crewmate))
            case Join() if self.tables.table_in(channel).status == "active":
                return self._seated(command, await self.seats.drop_in(channel, user, caller.name))
            case Join():
                return self._seated(command, await self.lobbies.join(channel, user, caller.name))
            case AddCrewmate():
                return self._seated(command, await self.lobbies.add_crewmate(channel, user))
            case RemoveCrewmate():
                return self._seated(command, await self.lobbies.remove_crewmate(channel, user))
            case Configure(asked=pairs):
                asked = dict(pairs)
                _check_settings(asked)
                table = await self.lobbies.configure(channel, user, asked)
                self.stream.publish(changes.LobbyChanged(table))
                return Outcome(command, table)
            case Start(first=first, venue=venue):
                table = await self.lobbies.start(channel, user, first, venue=venue)
                return Outcome(command, table)
            case Move(action=action, version=version):
                result = await self.act(channel, user, action, expected_version=version)
                return Outcome(command, result.table, result)
            case Say(signal=signal):
                table = self.tables.table_in(channel)
                await self.talk.say(table, user, signal)
                return Outcome(command, table)
        return await self._moderate(caller, command)

    async def _leave(self, channel: int, user: int, crewmate: bool) -> Table | ActionResult:
        """Leave a lobby, or a game in progress (your cards go to the discard pile, or stay
        with your seat, which a crewmate plays on)."""
        table = self.tables.table_in(channel)
        if table.status == "active" and crewmate:
            return await self.seats.hand_over(channel, user)
        if table.status == "active":
            return await self.act(channel, user, {"type": "remove_player"}, as_player=True)
        return await self.lobbies.unseat(
            table, user, host_refusal="error.host_cannot_leave", absent="error.not_seated"
        )

    async def _moderate(self, caller: Caller, command: Command) -> Outcome:
        channel, user = caller.channel_id, caller.user_id
        role = (await self.audience.settings(caller.guild_id)).moderator_role_id
        if isinstance(command, Reset):  # whatever the channel holds: moderators only
            may_moderate(caller, role)
            table = self.tables.table_in(channel)
            await self.moderation.end(channel, user, "reset")
            return Outcome(command, table, reason="reset")
        table = self.tables.table_in(channel)
        may_run(caller, table, role)
        match command:
            case Skip():
                result = await self.moderation.skip(channel, user)
                return Outcome(command, table, result)
            case Kick(player=player):
                kicked = await self.moderation.kick(channel, user, player)
                return self._seated(command, kicked)
            case End():
                reason = "host" if user == table.host_id else "moderator"
                await self.moderation.end(channel, user, reason)
                return Outcome(command, table, reason=reason)
        raise UserError("error.unknown_button")  # no door sends anything else

    def _seated(self, command: Command, done: Table | ActionResult) -> Outcome:
        """A seat taken or freed: in a lobby its message shows it; in play, the action's."""
        if isinstance(done, ActionResult):
            return Outcome(command, done.table, done)
        self.stream.publish(changes.LobbyChanged(done))
        return Outcome(command, done)

    async def _open(self, caller: Caller, command: Open) -> Table:
        settings = await self.audience.settings(caller.guild_id)
        newness = await self.lobbies.store.newness(caller.guild_id, [caller.user_id])
        reason = newcomers.offer(newness, dict(command.asked))
        table = await self.lobbies.open(
            caller.guild_id,
            caller.channel_id,
            caller.user_id,
            LobbySettings.opened(
                newcomers.asked_with(dict(command.asked), reason),
                settings.default_rules,
                settings.default_difficulty,
            ),
            host_name=caller.name,
            reach=caller.reach,
        )
        table.offer = reason
        newcomers.seated(table, newness, [caller.user_id])
        return table


def _check_settings(asked: Mapping[str, Any]) -> None:
    """UserError unless every setting asked for (by option name) is one a lobby may have."""
    for name, value in asked.items():
        option = BY_NAME[name]
        if not option.takes(value):
            raise UserError(option.refusal, **(option.refusal_words or {}))
    difficulty, minutes = asked.get("difficulty"), asked.get("minutes")
    if difficulty is not None and minutes is not None and DIFFICULTY_MINUTES[difficulty] != minutes:
        raise UserError("settings.mismatch")
