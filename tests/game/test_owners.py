"""A game belongs to one process: its server's shard, or, without a server, its channel's.

A command for a game of a shard this process does not hold is refused with a reason, and
nothing is stored; the commands and callers handed to an owner cross as plain values and
come back the same.
"""

from __future__ import annotations

import asyncio
import time

import orjson
import pytest

from bot.errors import UserError
from bot.game import commands as c
from bot.game import handed, relay
from bot.game.access import Caller, Standing
from bot.game.audience import Audience
from bot.game.changes import Stream
from bot.game.relay import Relay
from bot.game.service import GameService
from bot.store.records import SHARD_SHIFT, Shards
from engine.cards import Colour
from engine.signals import Signal
from tests.game.conftest import MEMBER
from tests.game.test_presence import Board, settled


def as_text(value: dict) -> dict:
    """What the other process reads: the value through JSON text, as a notice carries it."""
    return orjson.loads(orjson.dumps(value))


#: A server of shard 1 of 2, and a DM channel of shard 0 of 2.
GUILD_ONE, DM_ZERO = (3 << SHARD_SHIFT) | 7, (4 << SHARD_SHIFT) | 9


def test_a_game_without_a_server_belongs_to_its_channels_shard():
    shards = Shards((0,), 2)
    assert shards.home_of(GUILD_ONE, DM_ZERO) == 1  # the server decides where there is one
    assert shards.home_of(0, DM_ZERO) == 0
    assert shards.own(0, DM_ZERO) and not shards.own(GUILD_ONE, 5)
    assert not Shards((), 2).own(0, DM_ZERO)  # the live table alone owns nothing


async def test_a_command_for_another_processs_game_is_refused_and_nothing_is_stored(store):
    service = GameService(store, Stream(), Audience(store), shards=Shards((0,), 2))
    elsewhere = Caller(1, "ann", GUILD_ONE, 20, MEMBER)
    with pytest.raises(UserError) as refused:
        await service.run(elsewhere, c.Open())
    assert refused.value.key == "error.owner_away"
    assert await store.active_game_in_channel(20) is None
    here = Caller(1, "ann", 0, DM_ZERO, MEMBER)
    opened = await service.run(here, c.Open())  # its own: a DM channel of shard 0
    assert opened.table.channel_id == DM_ZERO


@pytest.mark.parametrize(
    "command",
    [
        c.Open(difficulty="easy", minutes=10),
        c.Configure(rules="advanced"),
        c.Move({"type": "draw"}, version=4),
        c.Say(Signal("build", Colour.RED)),
        c.Say(Signal("hold", Colour.BLUE, 2)),
        c.Leave(crewmate=True),
        c.Kick(5),
        c.PlayAgain(12),
        c.Start(first=3),
        c.Join(),
    ],
    ids=lambda command: type(command).__name__,
)
def test_commands_cross_as_plain_values_and_come_back_the_same(command):
    assert handed.command_from(as_text(handed.command_json(command))) == command


def test_a_caller_and_a_refusal_cross_and_come_back_the_same():
    standing = Standing(member=True, view=True, send=False, roles=frozenset({4, 9}))
    caller = Caller(1, "ann", GUILD_ONE, 20, standing, answers=False, reach="interactions")
    assert handed.caller_from(as_text(handed.caller_json(caller))) == caller
    refusal = UserError("error.not_your_turn", player="bob")
    back = handed.refusal_from(as_text(handed.refusal_json(refusal)))
    assert (back.key, back.params) == (refusal.key, refusal.params)
    with pytest.raises(ValueError):
        handed.command_from({"type": "Exec", "code": "rm -rf /"})


async def test_a_command_handed_over_runs_once_on_its_owner_and_never_after_its_asker_gave_up():
    board = Board()
    ran: list[c.Command] = []

    async def run_here(caller, command, language) -> str:
        ran.append(command)
        return f"done in {language}"

    owner = Relay(board, Shards((1,), 2), run_here)
    asker = Relay(board, Shards((0,), 2), run_here)
    await owner.start()
    await asker.start()
    caller = Caller(1, "ann", GUILD_ONE, 20, MEMBER)
    assert await asker.ask(caller, c.Join(), "fr") == "done in fr"
    assert ran == [c.Join()]
    # The same request heard twice (a notice delivered again) runs once.
    request = next(n for n in board.sent if n.startswith('{"kind":"command"'))
    owner._request(request)
    await settled()
    assert ran == [c.Join()]
    # One heard after its asker gave up is dropped, unanswered.
    late = orjson.loads(request) | {"id": "late", "sent": time.time() - relay.ANSWER_SECONDS}
    owner._request(orjson.dumps(late).decode())
    await settled()
    assert ran == [c.Join()]
    # Its owner gone (nobody listens on its shard): refused with a reason, in time.
    lone = Relay(Board(), Shards((0,), 2), run_here)
    await lone.start()
    with pytest.raises(UserError) as refused:
        await asyncio.wait_for(lone.ask(caller, c.Join(), "en"), relay.ANSWER_SECONDS + 1)
    assert refused.value.key == "error.owner_away"
