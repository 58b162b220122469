"""/hint: what the crew policy would do, told privately to the player whose turn it is."""

from __future__ import annotations

import pytest

from bot.hints import decision_text
from engine.crew import decide
from tests.bot.helpers import Scene, text_of

pytestmark = pytest.mark.e2e


async def test_a_hint_is_private_changes_nothing_and_can_be_followed(fake_discord, make_bot):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob", difficulty="medium", rules="basic")
        scene.arrange(hands=[["3H", "4H", "5H", "KS", "QS"], ["9D"]])
        public_before, version = len(scene.public()), table.version

        reply = await scene.cmd("hint", "ann")
        assert reply.ephemeral
        text = text_of(reply.message)
        decision = decide(table.game.view_for(scene["ann"].user.id), 600)
        assert text == f"💡 {decision_text(decision, 'en', 'suits')}"
        assert text.startswith("💡 Build the large red section") and decision.reason == "build"
        assert table.version == version and len(scene.public()) == public_before

        reply = await scene.cmd("hint", "bob")
        assert reply.ephemeral and "not your turn" in text_of(reply.message)

        await scene.cmd("build", "ann", colour="red", size="large")  # as hinted
        assert [s.value for s, _ in table.game.rocket] == ["red"]
        reply = await scene.cmd("hint", "bob")
        assert reply.ephemeral and text_of(reply.message).startswith("💡 ")
        scene.assert_no_cards_in_public()


async def test_a_hint_outside_a_game_is_refused_politely(fake_discord, make_bot):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    async with fake_discord.connected(bot):
        reply = await scene.cmd("hint", "ann")
        assert reply.ephemeral and "no apophis game" in text_of(reply.message).lower()
        await scene.new_game("ann", difficulty="medium")
        reply = await scene.cmd("hint", "bob")
        assert reply.ephemeral and "not playing" in text_of(reply.message)
