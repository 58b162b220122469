"""The processes sharing one database, told of each other's games and handed each other's commands.

A game belongs to the process holding its home shard (bot.store.records.Shards.home_of).
Through the database's notices (bot.store.notices) that process:

- tells every other one each change of its games (`GAMES`: the game's id, version and
  channels), for those that show them (bot.game.mirrors read the game again from the
  database at each notice);
- hears, on its shards' channels (`SHARD` + shard id), the commands other processes hand it
  (a move or a lobby command from a live table open on another process), runs each exactly
  as one of its own door's, under the game's lock, and answers on the asker's own channel
  (`NODE` + its name) with the caller's words or why not;
- hears Discord's interactions another process received for one of its games (its DMs
  and group DMs arrive on shard 0's process): acknowledged at once, then handled by its
  Discord door as if the gateway had sent them (bot.discord.handover).

A command handed over and not answered within ANSWER_SECONDS (its owner is stopping, or
gone until a standby or restart takes its shards) is refused with a reason, and a late
answer is ignored; a request is never run twice (the owner remembers the last ids).
"""

from __future__ import annotations

import asyncio
import base64
import logging
import secrets
import time
import zlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

import orjson

from bot.errors import UserError
from bot.game import changes, handed
from bot.game.access import Caller
from bot.game.commands import Command
from bot.store.database import Notices
from bot.store.records import Shards, StoreBusy
from bot.table import Table

log = logging.getLogger(__name__)
#: The notices' channels: every game's changes; a shard's owner; one process's answers.
GAMES, SHARD, NODE = "apophis_games", "apophis_shard_", "apophis_node_"
#: How long a command handed over may take to be answered, and an interaction to be
#: acknowledged (Discord wants an interaction answered within 3 s of its sending).
ANSWER_SECONDS = 2.5
ACK_SECONDS = 1.0
#: A request its owner hears later than this after it was sent is dropped, unanswered:
#: its asker gives up at ANSWER_SECONDS (or ACK_SECONDS) and tells its caller so; the
#: margin is for the answer's way back (and the machines' clocks, kept by NTP).
LATE_MARGIN = 0.4
#: Requests remembered (never run twice).
REMEMBERED = 1024

#: Runs a command here and says what its caller is told, in their language.
RunHere = Callable[[Caller, Command, str], Awaitable[str]]


class Relay:
    """This process among the others (see the module docstring)."""

    def __init__(self, notices: Notices, shards: Shards, run_here: RunHere) -> None:
        self.notices = notices
        self.shards = shards
        self.run_here = run_here
        #: This process's name on the notices' channels.
        self.node = secrets.token_hex(6)
        #: Told each game notice heard: (game id, version, channel, parent channel).
        self.heard_game: Callable[[int, int, int, int | None], None] = lambda *_: None
        #: Handles a Discord interaction handed over (Discord's payload), set by the Discord
        #: door; None: this process has no gateway (it owns nothing then).
        self.interaction: Callable[[dict[str, Any]], None] | None = None
        #: Whether someone watches a channel on another process (bot.game.presence): its
        #: games' changes are told only then (None: always).
        self.watched: Callable[[int], bool] | None = None
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._done: OrderedDict[str, None] = OrderedDict()
        self._due: dict[int, Table] = {}
        self._tasks: set[asyncio.Task[Any]] = set()

    async def start(self) -> None:
        await self.notices.listen(NODE + self.node, self._answered)
        await self.notices.listen(GAMES, self._game_notice)
        for shard in sorted(set(self.shards.ids)):
            await self.notices.listen(f"{SHARD}{shard}", self._request)

    # ------------------------------------------------------------ telling

    def heard(self, change: changes.TableChange) -> None:
        """A change of one of this process's tables: told to the others once the loop is free."""
        if isinstance(change, changes.TurnPassed | changes.Posted | changes.Settled):
            return  # (what the others show is in the other changes)
        table = change.table
        if not self.shards.own(table.guild_id, table.channel_id):
            return
        watched = self.watched
        if watched is not None and not (
            watched(table.channel_id) or (table.parent_id is not None and watched(table.parent_id))
        ):
            return  # nobody shows it elsewhere: nobody to tell
        self.tell(table)

    def tell(self, table: Table) -> None:
        """Tell the others of `table` as it is now, once the loop is free (someone watches it
        elsewhere now, or it changed)."""
        if not self._due:
            asyncio.get_running_loop().call_soon(self._tell)
        self._due[table.id] = table

    def _tell(self) -> None:
        due, self._due = self._due, {}
        for table in due.values():
            parent = table.parent_id or 0
            text = f"{table.id} {table.version} {table.channel_id} {parent}"
            self._spawn(self._notify(GAMES, text))

    def _game_notice(self, payload: str) -> None:
        try:
            game, version, channel, parent = map(int, payload.split())
        except ValueError:
            log.warning("a game notice of another form: %r", payload[:80])
            return
        self.heard_game(game, version, channel, parent or None)

    # ------------------------------------------------------------ asking

    async def ask(self, caller: Caller, command: Command, language: str) -> str:
        """Hand `command` to the owner of the caller's channel; the caller's words (UserError:
        refused there, or its owner not answering now)."""
        shard = self.shards.home_of(caller.guild_id, caller.channel_id)
        request = {
            "kind": "command",
            "caller": handed.caller_json(caller),
            "command": handed.command_json(command),
            "language": language,
        }
        answer = await self._ask(shard, request, ANSWER_SECONDS)
        if answer is None:
            raise UserError("error.owner_away")
        if "refusal" in answer:
            raise handed.refusal_from(answer["refusal"])
        return str(answer["text"])

    async def hand(self, shard: int, interaction: dict[str, Any]) -> bool:
        """Hand a Discord interaction to the owner of `shard`: whether it took it in time."""
        packed = base64.b64encode(zlib.compress(orjson.dumps(interaction))).decode()
        return (
            await self._ask(shard, {"kind": "interaction", "packed": packed}, ACK_SECONDS)
            is not None
        )

    async def _ask(
        self, shard: int, request: dict[str, Any], seconds: float
    ) -> dict[str, Any] | None:
        ident = secrets.token_hex(8)
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[ident] = answer
        try:
            sent = {
                **request,
                "id": ident,
                "node": self.node,
                "sent": time.time(),
                "within": seconds,
            }
            text = orjson.dumps(sent, default=str)
            await self.notices.notify(f"{SHARD}{shard}", text.decode())
            return await asyncio.wait_for(answer, seconds)
        except (TimeoutError, StoreBusy):
            return None
        finally:
            self._waiting.pop(ident, None)

    def _answered(self, payload: str) -> None:
        answer = _json(payload)
        waiting = self._waiting.get(str(answer.get("id"))) if answer else None
        if answer is not None and waiting is not None and not waiting.done():
            waiting.set_result(answer)

    # ------------------------------------------------------------ owning

    def _request(self, payload: str) -> None:
        request = _json(payload)
        if request is None or not isinstance(request.get("id"), str):
            log.warning("a request of another form was handed over: %r", payload[:80])
            return
        ident, node = request["id"], str(request.get("node", ""))
        if ident in self._done:
            return
        late = (
            time.time() - float(request.get("sent", 0))
            > float(request.get("within", 0)) - LATE_MARGIN
        )
        if late:  # its asker has given up (or is about to): never run unanswered
            log.warning("a request handed over arrived too late to be answered: dropped")
            return
        self._done[ident] = None
        while len(self._done) > REMEMBERED:
            self._done.popitem(last=False)
        if request.get("kind") == "interaction":
            self._take_interaction(ident, node, str(request.get("packed", "")))
        else:
            self._spawn(self._run(ident, node, request))

    def _take_interaction(self, ident: str, node: str, packed: str) -> None:
        if self.interaction is None:
            return  # not acknowledged: the asker answers it
        self._spawn(self._notify(NODE + node, orjson.dumps({"id": ident}).decode()))
        try:
            interaction = orjson.loads(zlib.decompress(base64.b64decode(packed)))
        except (ValueError, zlib.error):
            log.warning("an interaction handed over could not be read")
            return
        self.interaction(interaction)

    async def _run(self, ident: str, node: str, request: dict[str, Any]) -> None:
        answer: dict[str, Any] = {"id": ident}
        try:
            caller = handed.caller_from(request["caller"])
            command = handed.command_from(request["command"])
            if not self.shards.own(caller.guild_id, caller.channel_id):
                raise UserError("error.owner_away")  # a shard taken over since: asked again
            answer["text"] = await self.run_here(caller, command, str(request["language"]))
        except UserError as refusal:
            answer["refusal"] = handed.refusal_json(refusal)
        except (KeyError, TypeError, ValueError):
            log.warning("a command of another form was handed over: %r", request)
            return
        except Exception:
            log.exception("a command handed over failed")
            answer["refusal"] = handed.refusal_json(UserError("error.sorry"))
        await self._notify(NODE + node, orjson.dumps(answer, default=str).decode())

    # ------------------------------------------------------------ inside

    async def _notify(self, channel: str, text: str) -> None:
        try:
            await self.notices.notify(channel, text)
        except StoreBusy as exc:
            log.warning("a notice to the other processes was not sent: %s", exc)

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await self.notices.close()


def _json(payload: str) -> dict[str, Any] | None:
    try:
        value = orjson.loads(payload)
    except orjson.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None
