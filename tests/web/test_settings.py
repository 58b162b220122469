"""A lobby's settings from the web table: its signed-in host changes the countdown over the
socket, the same command as on Discord, and every viewer and the channel's lobby see it."""

from __future__ import annotations

import pytest

from bot.views import components
from tests.bot.helpers import Scene, text_of
from tests.web.helpers import Socket

pytestmark = pytest.mark.e2e


async def test_the_host_changes_the_countdown_over_the_socket(fake_discord, make_web_bot):
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("ann", "bob"))
    async with fake_discord.connected(bot.discord):
        lobby = (await scene.cmd("apophis new", "ann")).message
        await scene.cmd("apophis join", "bob")
        table = scene.live()
        # The Table button beside How to play: still within Discord's five rows.
        assert any(i.get("custom_id", "").endswith(":table") for i in lobby.iter_components())
        assert len(lobby.components) == 4
        selects = {s["custom_id"].rsplit(":", 1)[1]: s for s in components.lobby_settings(table)}
        minutes = selects["minutes"]["custom_id"]
        channel = scene.channel.id
        async with (
            Socket(bot, channel, scene["ann"]) as ann,
            Socket(bot, channel, scene["bob"]) as bob,
            Socket(bot, channel) as watcher,
        ):
            await watcher.wait_state(lambda s: s["status"] == "lobby")
            await bob.wait_state(lambda s: s["status"] == "lobby")
            await ann.wait_state(lambda s: s["status"] == "lobby")

            done = await ann.move(minutes, ["12"])
            assert done["ok"] and done["note"] == "Settings changed: basic rules, easy, 12 minutes."
            for socket in (ann, bob, watcher):
                state = await socket.wait_state(lambda s: s["settings"]["minutes"] == 12)
                assert state["settings"]["difficulty"] == "easy"
            assert (table.difficulty, table.length_seconds) == ("easy", 720)
            await bot.discord.outbox.drain()
            assert "Easy: 12:00" in text_of(lobby)
            host = lobby.component(f"apo:s:{table.id}:0:host")["options"]  # the lobby's one select
            default = [o["value"] for o in host if o.get("description") == "chosen now"]
            assert default == ["rules=basic", "difficulty=easy", "minutes=12"]

            refused = await bob.move(minutes, ["9"])  # not the host
            assert not refused["ok"] and "Only the host" in refused["note"], refused
            forged = await ann.move(minutes, ["45"])  # never offered
            assert not forged["ok"] and "menu" in forged["note"], forged
            assert (table.difficulty, table.length_seconds) == ("easy", 720)

            done = await ann.move(minutes, ["9"])  # no difficulty's countdown
            assert done["ok"] and "custom, 9 minutes" in done["note"], done
            await watcher.wait_state(lambda s: s["settings"]["difficulty"] == "custom")
        stored = await bot.core.store.get_game(table.id)
        assert (stored.difficulty, stored.length_seconds) == ("custom", 540)
