"""A drop-in from the live table: the board's Join, sent from the web, takes a crewmate's seat."""

from __future__ import annotations

import pytest

from tests.bot.helpers import Scene
from tests.web.helpers import Socket

pytestmark = pytest.mark.e2e


async def test_a_viewer_of_the_live_table_takes_a_crewmates_seat(fake_discord, make_web_bot):
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("ann", "bob"))
    async with fake_discord.connected(bot.discord):
        lobby = (await scene.cmd("apophis new", "ann")).message
        await scene.click(lobby, "crewadd", "ann")
        await scene.cmd("apophis start", "ann", first=scene["ann"])
        table = scene.live()
        hand = list(table.game.hands[1])
        async with Socket(bot, scene.channel.id, scene["bob"]) as bob:
            await bob.wait_state(lambda s: s["status"] == "active")
            joined = await bob.move(f"apo:b:{table.id}:{table.version}:join")
            assert joined["ok"] and "You took a crewmate's seat" in joined["note"], joined
            state = await bob.wait_state(lambda s: (s.get("you") or {}).get("seated"))
            assert len(state["you"]["hand"]) == len(hand)
            assert table.game.players == [scene.id("ann"), scene.id("bob")]
            assert table.game.hands[1] == hand
