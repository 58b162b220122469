"""Resets, ends, skips and kicks: who may, and what the channel is told."""

from __future__ import annotations

import discord
import pytest

from bot.i18n.catalogs import t
from tests.bot.helpers import (
    Scene,
    button_id,
    content,
    forged,
    text_of,
)

pytestmark = pytest.mark.e2e


def mod_scene(fake, bot) -> Scene:
    scene = Scene(fake, bot, names=("ann", "bob"))
    mods = fake.add_role(
        scene.guild, "mods", permissions=discord.Permissions(manage_messages=True).value
    )
    scene.members["mod"] = fake.add_member(scene.guild, "mod", roles=[mods])
    scene.members["eve"] = fake.add_member(scene.guild, "eve")
    return scene


async def test_a_moderator_resets_a_game_and_others_cannot(fake_discord, make_bot):
    bot = make_bot()
    scene = mod_scene(fake_discord, bot)
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob")
        for user in ("eve", "ann"):  # a bystander, and even the host, are not moderators
            refused = await scene.cmd("apophis reset", user)
            assert refused.ephemeral and "Only moderators" in refused.response_data["content"]
        assert table.open
        reset = await scene.cmd("apophis reset", "mod")
        assert not reset.ephemeral and "reset this channel's game" in reset.response_data["content"]
        assert not table.open and table.game.outcome.value == "abandoned"
        log = await bot.store.game_log(table.id)
        assert log[-1].action == {"type": "end", "reason": "reset"}
        assert log[-1].actor == scene.id("mod")
        again = await scene.cmd("apophis new", "eve")
        assert not again.ephemeral  # the channel is free again
        tally = (await bot.store.stats(scene.guild.id)).tallies[0]
        assert (tally.abandoned, tally.wins, tally.losses) == (1, 0, 0)


async def test_a_moderator_role_set_by_config_may_reset(fake_discord, make_bot):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    manage_guild = discord.Permissions(manage_guild=True).value
    admins = fake_discord.add_role(scene.guild, "admins", permissions=manage_guild)
    helpers = fake_discord.add_role(scene.guild, "game helpers")
    scene.members["boss"] = fake_discord.add_member(scene.guild, "boss", roles=[admins])
    scene.members["hal"] = fake_discord.add_member(scene.guild, "hal", roles=[helpers])
    async with fake_discord.connected(bot):
        refused = await scene.cmd("apophis config", "ann", moderator_role=helpers)
        assert refused.ephemeral and "Manage Server" in refused.response_data["content"]
        done = await scene.cmd("apophis config", "boss", moderator_role=helpers, rules="advanced")
        assert done.ephemeral and "Default rules: advanced" in done.response_data["content"]
        table = await scene.new_game("ann", "bob")
        assert table.rules == "advanced"
        reset = await scene.cmd("apophis reset", "hal")
        assert not reset.ephemeral and not table.open


async def test_host_skips_a_turn_and_kicks_a_player(fake_discord, make_bot):
    bot = make_bot()
    scene = mod_scene(fake_discord, bot)
    scene.members["cid"] = fake_discord.add_member(scene.guild, "cid")
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob", "cid")
        refused = await scene.cmd("apophis skip", "bob")
        assert refused.ephemeral and "host or a moderator" in refused.response_data["content"]
        skipped = await scene.cmd("apophis skip", "ann")  # the host skips their own turn
        assert skipped.response_data["content"] == (
            f"⏭️ <@{scene.id('ann')}> skipped their own turn."  # one line for it, not two
        )
        assert table.game.active_player == scene.id("bob")
        hand = len(table.game.hands[1])
        discards = len(table.game.discard_pile)
        kicked = await scene.cmd("apophis kick", "mod", player=scene["bob"])
        assert kicked.response_data["content"] == (
            f"🚪 <@{scene.id('mod')}> removed <@{scene.id('bob')}> from the game; their "
            f"{hand} cards went to the discard pile."
        )
        assert table.game.players == [scene.id("ann"), scene.id("cid")]
        assert len(table.game.discard_pile) == discards + hand
        assert table.game.active_player == scene.id("cid")
        ended = await scene.cmd("apophis end", "ann")
        assert "ended the game" in ended.response_data["content"] and not table.open
        scene.assert_no_cards_in_public()


@pytest.mark.scene(names=("ann", "bob", "cid", "dee", "eve"))
async def test_lobby_leave_join_limits_and_a_second_game_refused(scene):
    bot = scene.bot
    await scene.cmd("apophis new", "ann")
    second = await scene.cmd("apophis new", "bob")
    assert second.ephemeral and "already has a lobby" in second.response_data["content"]
    for name in ("bob", "cid", "dee"):
        assert "You joined" in (await scene.cmd("apophis join", name)).response_data["content"]
    full = await scene.cmd("apophis join", "eve")
    assert full.ephemeral and "full" in full.response_data["content"]
    again = await scene.cmd("apophis join", "bob")
    assert again.ephemeral and "already in this game" in again.response_data["content"]
    host = await scene.cmd("apophis leave", "ann")
    assert host.ephemeral and "host cannot leave" in host.response_data["content"]
    assert "You left" in (await scene.cmd("apophis leave", "dee")).response_data["content"]
    assert "You joined" in (await scene.cmd("apophis join", "eve")).response_data["content"]
    not_host = await scene.cmd("apophis start", "bob")
    assert not_host.ephemeral and "Only the host" in not_host.response_data["content"]
    assert scene.live().seats == [scene.id(n) for n in ("ann", "bob", "cid", "eve")]
    await bot.outbox.drain()
    lobby = scene.board()
    assert "Players (4/4)" in str(lobby.embeds)


@pytest.mark.scene(names=("ann",))
async def test_closing_a_lobby_is_not_called_ending_a_game(scene):
    await scene.cmd("apophis new", "ann")
    table = scene.live()
    closed = await scene.cmd("apophis end", "ann")
    text = closed.response_data["content"]
    assert "closed the lobby" in text and "abandoned" not in text and "ended" not in text
    assert not table.open


async def test_only_a_role_of_this_server_can_be_the_moderator_role(fake_discord, make_bot):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann",))
    manage_guild = discord.Permissions(manage_guild=True).value
    admins = fake_discord.add_role(scene.guild, "admins", permissions=manage_guild)
    helpers = fake_discord.add_role(scene.guild, "game helpers")
    scene.members["boss"] = fake_discord.add_member(scene.guild, "boss", roles=[admins])
    elsewhere = fake_discord.add_guild("elsewhere")
    foreign = fake_discord.add_role(elsewhere, "their mods")
    async with fake_discord.connected(bot):
        for role in (foreign, 123):  # another server's role, an id nobody has
            reply = await forged(fake_discord, "apophis config", scene, "boss", moderator_role=role)
            assert reply.ephemeral and "role of this server" in content(reply)
            assert "<@&" not in content(reply)
            assert (await bot.store.get_guild_settings(scene.guild.id)).moderator_role_id is None
        done = await scene.cmd("apophis config", "boss", moderator_role=helpers)
        assert f"<@&{helpers.id}>" in content(done)
        assert (await bot.store.get_guild_settings(scene.guild.id)).moderator_role_id == helpers.id


async def test_a_skip_that_hands_the_turn_to_the_skipper_announces_it(
    fake_discord, make_bot, timer
):
    bot = make_bot(timer=timer)
    scene = mod_scene(fake_discord, bot)
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob")
        bot.service.set_autopilot(scene.guild.id, 30)
        scene.arrange(hands=[["KC"], ["KH"]], deck=["2C", "3C", "4C", "5C", "6C", "7C"])
        ann = scene.id("ann")
        panel = await scene.panel("ann")
        await scene.press(panel, "draw", "ann")  # bob's turn; he says nothing
        await bot.outbox.drain()
        assert f"It is <@{scene.id('bob')}>'s turn." in text_of(panel)
        await timer.advance(10)
        await scene.cmd("apophis skip", "ann")  # the host skips bob: her turn again
        await fake_discord.wait_for(lambda: text_of(panel).startswith("🔔 **It is your turn.**"))
        assert table.game.active_player == ann and button_id(panel, "draw")
        # The autopilot counts her wait from the skip, not from bob's turn.
        assert bot.service.crew.autopilot.waiting[table.id] == (ann, timer.now())
        await timer.advance(25)  # she waits past the ping's delay: pinged once
        await bot.outbox.drain()
        assert len(fake_discord.notified(scene["ann"])) == 1
        await timer.advance(4)
        assert ann not in table.autopilot


@pytest.mark.parametrize(
    ("language", "question", "labels", "stayed", "left"),
    [
        (
            "en",
            "🚪 Leave this game? Your {} cards go to the discard pile and the others play on "
            "without you.",
            ["Leave, discard my hand", "A crewmate takes my seat", "Stay"],
            "You are still in the game; your hand is as it was.",
            "cards went to the discard pile",
        ),
        (
            "fr",
            "🚪 Quitter cette partie\u202f? Vos {} cartes partent à la défausse et les autres "
            "continuent sans vous.",
            ["Quitter, défausser ma main", "Un coéquipier IA prend ma place", "Rester"],
            "Vous êtes toujours dans la partie\u202f; votre main n’a pas changé.",
            "vos cartes sont parties à la défausse",
        ),
    ],
)
async def test_leaving_a_game_in_play_asks_first(
    fake_discord, make_bot, language, question, labels, stayed, left
):
    """`/apophis leave` mid-game asks, privately: Stay changes nothing; Leave discards the
    hand, as leaving did before, and the others play on."""
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob", "cid"))
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob", "cid")
        scene["bob"].user.locale = language
        bob = scene.id("bob")
        hand = list(table.game.hands[1])
        asked = await scene.cmd("apophis leave", "bob")
        assert asked.ephemeral and content(asked).split("\n")[0] == question.format(len(hand))
        buttons = [c for c in asked.message.iter_components() if c["type"] == 2]
        assert [b["label"] for b in buttons] == labels
        stay = await scene.press(asked.message, "stay", "bob")
        assert content(stay) == stayed and stay.response_data.get("components") == []
        assert table.game.players[1] == bob and table.game.hands[1] == hand
        asked = await scene.cmd("apophis leave", "bob")
        discards = len(table.game.discard_pile)
        gone = await scene.press(asked.message, "leave", "bob")
        assert left in content(gone)
        assert bob not in table.game.players and table.status == "active"
        assert len(table.game.discard_pile) == discards + len(hand)


@pytest.mark.parametrize(
    ("language", "counts"),
    [
        ("en", {0: "Your hand is empty", 1: "Your 1 card goes", 2: "Your 2 cards go"}),
        ("fr", {0: "Votre main est vide", 1: "Votre 1 carte part", 2: "Vos 2 cartes partent"}),
    ],
)
def test_the_leave_question_counts_the_hand(language, counts):
    for count, words in {**counts, 5: counts[2].replace("2", "5")}.items():
        assert words in t(language, "leave.confirm", count=count)
