"""The fake gateway's shards, as Discord has them: routing, sharding required, identify pacing."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import discord
import pytest

from devtools.fakediscord import FakeDiscord, ViolationKind
from devtools.fakediscord.gateway import Op, shard_of


async def identify(
    fake: FakeDiscord, session: aiohttp.ClientSession, shard: list[int] | None
) -> tuple[aiohttp.ClientWebSocketResponse, dict[str, Any]]:
    """Connect and IDENTIFY; the websocket and the first frame after HELLO."""
    ws = await session.ws_connect(fake.gateway_url)
    hello = json.loads((await ws.receive()).data)
    assert hello["op"] == Op.HELLO
    intents = discord.Intents(guilds=True, guild_messages=True).value
    data: dict[str, Any] = {"token": fake.bot_token, "intents": intents, "properties": {}}
    if shard is not None:
        data["shard"] = shard
    await ws.send_json({"op": Op.IDENTIFY, "d": data})
    message = await ws.receive()
    return ws, (json.loads(message.data) if message.type == aiohttp.WSMsgType.TEXT else {})


async def guild_creates(ws: aiohttp.ClientWebSocketResponse, count: int) -> set[int]:
    ids = set()
    while len(ids) < count:
        frame = json.loads((await ws.receive()).data)
        if frame.get("t") == "GUILD_CREATE":
            ids.add(int(frame["d"]["id"]))
    return ids


async def test_each_shard_gets_its_guilds_and_their_interactions(fake_discord) -> None:
    fake_discord.gateway.identify_interval = 0
    guilds = [fake_discord.add_guild(f"g{i}", shard=(i % 2, 2)) for i in range(4)]
    assert [shard_of(g.id, 2) for g in guilds] == [0, 1, 0, 1]
    channels = [fake_discord.add_text_channel(g, "apophis") for g in guilds]
    async with aiohttp.ClientSession() as session:
        connections = {}
        for shard in (0, 1):
            ws, ready = await identify(fake_discord, session, [shard, 2])
            assert ready["t"] == "READY" and ready["d"]["shard"] == [shard, 2]
            mine = {g.id for g in guilds if shard_of(g.id, 2) == shard}
            assert {int(g["id"]) for g in ready["d"]["guilds"]} == mine
            assert await guild_creates(ws, 2) == mine
            connections[shard] = ws
        # An event of a guild goes to its shard's connection only.
        await fake_discord.gateway.dispatch("TYPING_START", {"x": 1}, guilds[1].id)
        frame = json.loads((await connections[1].receive()).data)
        assert frame["t"] == "TYPING_START"
        assert fake_discord.gateway.session_for(guilds[2].id).shard == (0, 2)
        assert fake_discord.gateway.session_for(channels[3].guild_id).shard == (1, 2)
        # So do the messages users post in its channels.
        await fake_discord.say(channels[3], fake_discord.add_member(guilds[3], "ann"), "hi")
        frame = json.loads((await connections[1].receive()).data)
        assert (frame["t"], frame["d"]["content"]) == ("MESSAGE_CREATE", "hi")
        for ws in connections.values():
            await ws.close()


async def test_a_bot_in_too_many_guilds_must_shard(fake_discord) -> None:
    fake_discord.gateway.identify_interval = 0
    for i in range(2_501):
        fake_discord.add_guild(f"g{i}", shard=(0, 1))
    assert fake_discord.gateway.recommended_shards == 3
    async with aiohttp.ClientSession() as session:
        ws, frame = await identify(fake_discord, session, None)
        assert frame == {} and ws.close_code == 4011
    client = discord.Client(intents=discord.Intents(guilds=True))
    with pytest.raises(discord.ConnectionClosed) as closed:
        async with fake_discord.connected(client):
            pass
    assert closed.value.code == 4011


async def test_identifies_come_one_per_interval(fake_discord) -> None:
    fake_discord.gateway.identify_interval = 60
    async with aiohttp.ClientSession() as session:
        first, ready = await identify(fake_discord, session, [0, 2])
        assert ready["t"] == "READY"
        second, refused = await identify(fake_discord, session, [1, 2])
        assert refused == {"op": Op.INVALID_SESSION, "d": False}
        violation = await fake_discord.expect_violation(ViolationKind.IDENTIFY_RATE)
        assert "at most one per 60 s" in violation.message
        assert fake_discord.gateway.identify_count == 1
        await first.close()
        await second.close()
