"""The live table served by the game core alone (APOPHIS_DISCORD=off): no Discord client,
no gateway; people sign in through Discord's OAuth2, and who may watch and play is asked
of Discord's REST API with the bot's token (the gatekeeper without a cache)."""

from __future__ import annotations

import aiohttp
import pytest

from bot.app import build
from bot.config import Config, ConfigError
from tests.bot.conftest import make_config
from tests.bot.helpers import Scene
from tests.web.conftest import serving
from tests.web.helpers import Socket, move_id

pytestmark = pytest.mark.e2e


async def signed_in(fake, app, user) -> str:
    """A session for `user`, from the code Discord's OAuth2 gave (the Activity's way)."""
    origin = {"Origin": f"https://{fake.world.application_id}.discordsays.com"}
    code = fake.oauth.issue_code(user)
    async with (
        aiohttp.ClientSession() as http,
        http.post(f"{app.web.public_url}/api/token", json={"code": code}, headers=origin) as r,
    ):
        assert r.status == 200, await r.text()
        return (await r.json())["session"]


async def hello(app, channel: int, session: str | None, instance: str | None = None) -> Socket:
    socket = Socket(app, channel, instance=instance)
    message = {"type": "hello", "channel": str(channel), "session": session}
    if instance is not None:
        message["instance"] = instance
    await socket.connect(message)
    return socket


async def test_the_table_alone_signs_in_and_its_game_is_watched_and_played(
    fake_discord, make_table
):
    app = make_table()
    assert app.discord is None and app.gateway is None
    scene = Scene(fake_discord, app.core, names=("ann", "bob"))
    channel = scene.channel.id
    async with serving(fake_discord, app):
        instance = fake_discord.launch_activity(scene.channel, scene["ann"], scene["bob"])
        ann = await hello(
            app, channel, await signed_in(fake_discord, app, scene["ann"].user), instance
        )
        bob = await hello(
            app, channel, await signed_in(fake_discord, app, scene["bob"].user), instance
        )
        watcher = await hello(app, channel, None)  # a browser with the channel's link
        eve = fake_discord.add_user("eve")  # signed in, but no member of the server
        outsider = await hello(app, channel, await signed_in(fake_discord, app, eve))
        try:
            await ann.wait_state(lambda s: s["status"] == "none")
            opened = await ann.move("apo:b:0:0:open")
            assert opened["ok"], opened
            lobby = await bob.wait_state(lambda s: s["status"] == "lobby")
            assert (await bob.move(move_id(lobby, "join", lobby=True)))["ok"]
            lobby = await ann.wait_state(lambda s: len(s["seats"]) == 2)
            started = await ann.move(move_id(lobby, "start", lobby=True))
            assert started["ok"], started
            table = scene.live()
            assert table.status == "active" and table.guild_id == scene.guild.id
            mover = ann if table.game.active_player == scene.id("ann") else bob
            state = await mover.wait_state(lambda s: s["status"] == "active")
            version = table.version
            played = await mover.move(move_id(state, "draw"))
            assert played["ok"] and table.version > version, played
            shown = await watcher.wait_state(lambda s: s["version"] == table.version)
            assert shown["you"] is None and [s["name"] for s in shown["seats"]] == ["ann", "bob"]
            # an account outside the server watches (the channel is public), never plays
            await outsider.wait_state(lambda s: s["version"] == table.version)
            refused = await outsider.move(f"apo:h:{table.id}:{table.version}:draw")
            assert not refused["ok"] and "member" in refused["note"], refused
            assert table.version == version + 1
        finally:
            for socket in (ann, bob, watcher, outsider):
                await socket.close()
    assert fake_discord.gateway.identify_count == 0  # never logged in to the gateway
    assert not fake_discord.requests_to("GET /gateway/bot")
    assert fake_discord.requests_to("GET /guilds/{guild_id}/members/{user_id}")
    # nothing was posted anywhere: the table alone sends no messages
    assert not [r for r in fake_discord.requests if r.method in ("POST", "PATCH")]


async def test_the_web_door_alone_starts_without_contacting_discords_gateway(
    fake_discord, make_table
):
    app = make_table()
    async with serving(fake_discord, app):
        assert app.core.serving and app.web.port is not None
        async with (
            aiohttp.ClientSession() as http,
            http.get(f"http://127.0.0.1:{app.web.port}/api/session") as answer,
        ):
            assert answer.status == 401  # served: nobody signed in
    assert fake_discord.gateway.identify_count == 0
    assert not fake_discord.requests_to("GET /gateway/bot")


def test_apophis_discord_is_on_or_off_and_off_needs_the_table(fake_discord, tmp_path):
    database = tmp_path / "apophis.sqlite3"
    assert make_config(fake_discord, database).discord
    with pytest.raises(ConfigError, match="APOPHIS_DISCORD must be on or off, not 'maybe'"):
        make_config(fake_discord, database, APOPHIS_DISCORD="maybe")
    with pytest.raises(ConfigError, match="set APOPHIS_WEB_PORT too"):
        make_config(fake_discord, database, APOPHIS_DISCORD="off")
    config: Config = make_config(
        fake_discord, database, APOPHIS_DISCORD="off", APOPHIS_WEB_PORT="8750"
    )
    assert build(config).discord is None
