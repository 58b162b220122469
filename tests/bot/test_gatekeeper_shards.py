"""Who may watch or play where, asked by a door without Discord's permissions (the live
table), on a process that holds some of the shards: the servers of its shards are answered
from the gateway's cache, the others from Discord's API (bot.discord.gatekeeper)."""

from __future__ import annotations

import pytest

from bot.errors import UserError
from bot.game.access import OUTSIDER, may_play, watch_refusal
from tests.bot.helpers import Scene

pytestmark = pytest.mark.e2e

VIEW_CHANNEL, SEND_MESSAGES = 1 << 10, 1 << 11
#: The routes a server's facts come from when the cache does not hold them.
PLACE_ROUTES = ("GET /guilds/{guild_id}", "GET /channels/{channel_id}")


def refusal(error: UserError | None) -> str | None:
    return None if error is None else error.text("en")


def refused_to_play(standing) -> str | None:
    try:
        may_play(standing)
    except UserError as error:
        return error.text("en")
    return None


async def test_a_server_of_another_processs_shard_is_answered_from_discords_api(
    fake_discord, make_bot
):
    home = Scene(fake_discord, None, names=("ann",), shard=(0, 2))
    away = Scene(fake_discord, None, names=("bob", "mute"), shard=(1, 2))
    everyone = away.guild.roles[away.guild.id]
    await fake_discord.set_permissions(away.channel, everyone, deny=VIEW_CHANNEL)
    the_bot = away.guild.members[fake_discord.world.bot.id]
    await fake_discord.set_permissions(away.channel, the_bot, allow=VIEW_CHANNEL)
    await fake_discord.set_permissions(away.channel, away["bob"], allow=VIEW_CHANNEL)
    await fake_discord.set_permissions(
        away.channel, away["mute"], allow=VIEW_CHANNEL, deny=SEND_MESSAGES
    )
    eve = fake_discord.add_user("eve")  # signed in somewhere, a member of neither server
    bare = Scene(fake_discord, None, names=("dee",), shard=(0, 2), bot_member=False)
    bot = make_bot(APOPHIS_SHARD_COUNT="2", APOPHIS_SHARD_IDS="0")
    async with fake_discord.connected(bot, timeout=20):
        keeper = bot.gatekeeper
        assert bot.get_guild(home.guild.id) is not None and bot.get_guild(away.guild.id) is None

        # The server of its own shard: from the cache; only the member is asked, once.
        asked = len(fake_discord.requests)
        assert await keeper.guild_of(home.channel.id) == home.guild.id
        assert await keeper.public(home.channel.id)
        for _ in range(2):
            ann = await keeper.standing(home.id("ann"), home.guild.id, home.channel.id)
            assert ann.member and ann.send
        # A server of its shard the bot is not in: the cache is the word there too.
        dee = await keeper.standing(bare.id("dee"), bare.guild.id, bare.channel.id)
        assert dee == OUTSIDER and await keeper.is_member(bare.id("dee"), bare.guild.id)
        asked_home = fake_discord.requests[asked:]
        assert [r.route for r in asked_home] == ["GET /guilds/{guild_id}/members/{user_id}"]
        assert not any(r.route in PLACE_ROUTES for r in fake_discord.requests)

        # The other shard's server: from Discord's API, with the standing the cache would give.
        assert await keeper.guild_of(away.channel.id) == away.guild.id
        assert not await keeper.public(away.channel.id)
        bob = await keeper.standing(away.id("bob"), away.guild.id, away.channel.id)
        assert (bob.member, bob.view, bob.send) == (True, True, True)
        assert refused_to_play(bob) is None and watch_refusal(False, bob) is None
        mute = await keeper.standing(away.id("mute"), away.guild.id, away.channel.id)
        assert refused_to_play(mute) == (
            "You cannot send messages in this channel on Discord, so you can watch its game "
            "but not play."
        )
        outsider = await keeper.standing(eve.id, away.guild.id, away.channel.id)
        assert outsider == OUTSIDER
        not_member = (
            "Only members of this server can play at its tables: your Discord account is "
            "not one of them."
        )
        assert refused_to_play(outsider) == not_member
        assert refusal(watch_refusal(False, outsider)) == not_member
        assert await keeper.is_member(away.id("bob"), away.guild.id)
        assert not await keeper.is_member(eve.id, away.guild.id)
        for route in PLACE_ROUTES:
            assert len(fake_discord.requests_to(route)) == 1, route  # then kept

        # Asked again soon (a burst of moves): Discord is asked nothing more.
        asked = len(fake_discord.requests)
        again = await keeper.standing(away.id("bob"), away.guild.id, away.channel.id)
        assert again == bob
        assert await keeper.standing(eve.id, away.guild.id, away.channel.id) == OUTSIDER
        assert await keeper.guild_of(away.channel.id) == away.guild.id
        assert len(fake_discord.requests) == asked
