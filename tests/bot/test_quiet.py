"""Pings that mean something, one live panel: a player is pinged only when away, and an
older panel points to the newest, through the fake Discord."""

from __future__ import annotations

import random

import pytest

from bot.discord.pings import IDLE_BEFORE_PING, PING_EVERY
from engine import Phase
from tests.bot.helpers import Scene, bot_state, button_id, text_of

pytestmark = pytest.mark.e2e

#: A pause long enough to be away.
AWAY = IDLE_BEFORE_PING + 5
YOUR_TURN = "🔔 **It is your turn.**"
MOVED = "↪️ This panel moved: use your newest one."


async def noted(bot, table, interaction) -> None:
    """Wait until the bot took note of its answer to `interaction` (the fake sees the answer
    a moment before the bot goes on): its token is the game's newest."""
    await bot_state(
        lambda: getattr(bot.outbox.channel.fresh.get(table.id), "value", None) == interaction.token
    )


class Thinking(random.Random):
    """A crewmate's pauses as the test says: `next` seconds before its next move, none
    before the moves after it (a discard after its draw)."""

    next = 1.0

    def uniform(self, a: float, b: float) -> float:
        pause, self.next = self.next, 0.0
        return pause


async def test_a_person_playing_with_a_crewmate_is_pinged_only_after_a_pause(
    fake_discord, make_bot, timer
):
    bot = make_bot(timer=timer)
    scene = Scene(fake_discord, bot, names=("ann",))
    async with fake_discord.connected(bot):
        thinking = bot.service.crew.random = Thinking()
        lobby = (await scene.cmd("apophis new", "ann", difficulty="easy")).message
        await scene.click(lobby, "crewadd", "ann")
        await scene.cmd("apophis start", "ann", first=scene["ann"])
        table = scene.live()
        ann = scene.id("ann")
        deck = [f"{rank}{suit}" for rank in range(2, 11) for suit in "CHDS"]
        scene.arrange(hands=[["KC"], ["KH"]], deck=deck)
        panel = await scene.panel("ann")
        pings = []
        # Per hand-back: how long the crewmate thought, she looking away meanwhile.
        for round_, away in enumerate((1, 1, AWAY, AWAY, AWAY)):
            thinking.next = away
            played = await scene.press(panel, "draw", "ann")
            if table.game.phase is Phase.DISCARD:  # over the hand limit: discard the excess
                excess = table.game.hands[0][5:]
                played = await scene.pick(panel, excess, "ann")
            await noted(bot, table, played)
            await timer.advance(away)
            # Her turn again: her panel says so (pinged or not), once the crewmate played.
            await fake_discord.wait_for(lambda: text_of(panel).startswith(YOUR_TURN))
            await bot.outbox.drain()
            assert table.game.active_player == ann, round_
            pings.append(len(fake_discord.notified(scene["ann"])))
        # Never while she plays along; after a pause, once; not twice within a minute.
        assert AWAY < PING_EVERY <= 2 * AWAY
        assert pings == [0, 0, 1, 1, 2]
        first, second = fake_discord.notified(scene["ann"])
        assert first.deleted and not second.deleted  # she clicked after the first one
        assert all(m.content.startswith("🔔") for m in (first, second))
        await scene.cmd("apophis end", "ann")
        await fake_discord.wait_for(lambda: second.deleted)  # the game is over: it goes


@pytest.mark.scene(names=("ann", "bob"))
async def test_a_new_panel_turns_the_older_one_into_a_pointer(fake_discord, scene):
    bot = scene.bot
    await scene.new_game("ann", "bob")
    scene.arrange(hands=[["2C", "3C", "4C"], ["5C"]], deck=["6C", "7C", "8C", "9C"])
    first = await scene.panel("ann")  # My hand
    bobs = await scene.panel("bob")
    second = (await scene.click(scene.board(), "build", "ann")).message  # Build…
    assert second.ephemeral and second.id != first.id and second.components
    await fake_discord.wait_for(lambda: text_of(first) == MOVED)
    assert not list(first.iter_components())[1:] and not first.embeds  # that line alone
    third = (await scene.cmd("draw", "ann")).message  # typed: answered with a panel
    await fake_discord.wait_for(lambda: text_of(second) == MOVED)
    assert button_id(third, "draw") and not list(second.iter_components())[1:]
    await scene.press(third, "refresh", "ann")  # the live panel, updated in place
    await bot.outbox.drain()
    assert third.components and "Your hand" in text_of(third)
    assert bobs.components and "Your hand" in text_of(bobs)  # another's panel: untouched
    # Only the live panel is kept current: bob's draw redraws it alone.
    await scene.press(bobs, "draw", "bob")
    await bot.outbox.drain()
    assert text_of(first) == text_of(second) == MOVED
    assert button_id(third, "draw") and text_of(third).startswith(YOUR_TURN)
