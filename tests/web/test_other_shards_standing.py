"""The live table on a process that holds some of the shards: who may watch a channel of a
server of another process's shard is asked of Discord's API (bot.discord.gatekeeper), so
that its members are let in and outsiders refused by name, in their language."""

from __future__ import annotations

import pytest

from bot.i18n.catalogs import t
from tests.bot.helpers import Scene
from tests.web.helpers import Socket

pytestmark = pytest.mark.e2e

VIEW_CHANNEL = 1 << 10


async def test_a_private_channel_of_another_shard_is_watched_by_its_members_alone(
    fake_discord, make_web_bot
):
    bot = make_web_bot(APOPHIS_SHARD_COUNT="2", APOPHIS_SHARD_IDS="0")
    away = Scene(fake_discord, None, names=("bob",), shard=(1, 2))
    await fake_discord.set_permissions(
        away.channel, away.guild.roles[away.guild.id], deny=VIEW_CHANNEL
    )
    for member in (away.guild.members[fake_discord.world.bot.id], away["bob"]):
        await fake_discord.set_permissions(away.channel, member, allow=VIEW_CHANNEL)
    eve = fake_discord.add_user("eve")
    async with fake_discord.connected(bot.discord):
        assert bot.discord.get_guild(away.guild.id) is None  # another process's server
        async with (
            Socket(bot, away.channel.id, away["bob"]) as bob,
            Socket(bot, away.channel.id, eve) as outsider,
            Socket(bot, away.channel.id, eve, locale="fr") as dehors,
            Socket(bot, away.channel.id) as nobody,
        ):
            assert (await bob.wait_state(lambda s: True))["you"] is None  # watching, no seat
            for socket, language, key in (
                (outsider, "en", "seat.not_member"),
                (dehors, "fr", "seat.not_member"),
                (nobody, "en", "seat.sign_in_to_watch"),
            ):
                refused = await socket.wait_for(
                    lambda s: next((m for m in s.received if m["type"] == "refused"), None)
                )
                assert refused["reason"] == t(language, key), (language, key)
    assert fake_discord.requests_to("GET /guilds/{guild_id}/members/{user_id}")
