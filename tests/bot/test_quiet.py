"""Pings that mean something, one live panel: a player is pinged only when away, and a
newer panel removes the older, through the fake Discord."""

from __future__ import annotations

import random

import pytest

from bot.discord.pings import WAIT_BEFORE_PING
from engine import Phase
from tests.bot.helpers import Scene, bot_state, button_id, play_as, text_of

pytestmark = pytest.mark.e2e

#: A pause long enough to be away.
AWAY = WAIT_BEFORE_PING + 5
#: A table of four people.
PEOPLE = ("ann", "bob", "cid", "dee")
YOUR_TURN = "🔔 **It is your turn.**"


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


async def move(scene, table, panel, user: str):
    """`user` draws on their panel (and discards the excess, if over the hand limit)."""
    played = await scene.press(panel, "draw", user)
    if table.game.phase is Phase.DISCARD:  # (the last card pressed discards them all)
        seat = table.game.players.index(scene.id(user))
        played = await scene.choose(panel, table.game.hands[seat][5:], user)
    return played


@pytest.mark.scene(names=PEOPLE, timer=True)
async def test_a_ping_comes_only_once_a_turn_has_waited_and_once_a_turn(fake_discord, scene, timer):
    bot = scene.bot
    await scene.autopilot_off()  # ann waits longer than the autopilot would
    table = await scene.new_game(*PEOPLE)
    deck = [f"{rank}{suit}" for rank in range(2, 11) for suit in "CHDS"]
    scene.arrange(hands=[["KC"], ["KH"], ["KD"], ["KS"]], deck=deck)
    panels = {name: await scene.panel(name) for name in PEOPLE}

    def pings(name: str) -> int:
        return len(fake_discord.notified(scene[name]))

    # At Discord's pace, a move every 10 s: nobody is pinged in rounds of turns, not even
    # as the turn passes to them, 40 s after their last click.
    for name in PEOPLE * 3:
        await timer.advance(10)
        await move(scene, table, panels[name], name)
        await bot.outbox.drain()
        assert [pings(person) for person in PEOPLE] == [0, 0, 0, 0], name
    # Ann's turn: she waits past the delay, once pinged however long she waits.
    assert table.game.active_player == scene.id("ann")
    await timer.advance(WAIT_BEFORE_PING - 1)
    await bot.outbox.drain()
    assert pings("ann") == 0
    await timer.advance(2)
    await bot.outbox.drain()
    assert pings("ann") == 1
    await timer.advance(10 * WAIT_BEFORE_PING)
    await bot.outbox.drain()
    assert pings("ann") == 1 and pings("bob") == 0
    (ping,) = fake_discord.notified(scene["ann"])
    assert ping.content.startswith("🔔") and not ping.deleted
    await move(scene, table, panels["ann"], "ann")  # she plays: her ping comes down
    await fake_discord.wait_for(lambda: ping.deleted)
    await bot.outbox.drain()
    assert pings("bob") == 0  # none for bob as his turn comes


async def test_a_person_playing_with_a_crewmate_is_pinged_only_after_a_pause(
    fake_discord, make_bot, timer
):
    bot = make_bot(timer=timer)
    scene = Scene(fake_discord, bot, names=("ann",))
    async with fake_discord.connected(bot):
        bot.service.crew.random = Thinking()
        lobby = (await scene.cmd("apophis new", "ann", difficulty="easy")).message
        await scene.click(lobby, "crewadd", "ann")
        await scene.cmd("apophis start", "ann", first=scene["ann"])
        table = scene.live()
        deck = [f"{rank}{suit}" for rank in range(2, 11) for suit in "CHDS"]
        scene.arrange(hands=[["KC"], ["KH"]], deck=deck)
        panel = await scene.panel("ann")
        pings = []
        # Per turn of hers: how long she waits before her move.
        for round_, wait in enumerate((5, 15, AWAY, 5, AWAY)):
            await timer.advance(wait)
            await bot.outbox.drain()
            pings.append(len(fake_discord.notified(scene["ann"])))
            played = await move(scene, table, panel, "ann")
            await noted(bot, table, played)
            await timer.advance(1)  # the crewmate plays: her turn again, her panel says so
            await fake_discord.wait_for(lambda: text_of(panel).startswith(YOUR_TURN))
            await bot.outbox.drain()
            assert table.game.active_player == scene.id("ann"), round_
        assert pings == [0, 0, 1, 1, 2]
        first, second = fake_discord.notified(scene["ann"])
        assert first.deleted and second.deleted  # she played after each
        await scene.cmd("apophis end", "ann")


@pytest.mark.scene(names=("ann", "bob"))
async def test_a_new_panel_removes_the_older_one(fake_discord, scene):
    bot = scene.bot
    await scene.new_game("ann", "bob")
    scene.arrange(hands=[["2C", "3C", "4C"], ["5C"]], deck=["6C", "7C", "8C", "9C"])
    first = await scene.panel("ann")  # My hand
    bobs = await scene.panel("bob")
    opened = await scene.click(scene.board(), "hand", "ann")  # My hand, again
    second = opened.message
    assert second.ephemeral and second.id != first.id and second.components
    await scene.panel_noted(opened, "ann")
    assert first.deleted and not second.deleted
    typed = await scene.cmd("draw", "ann")  # typed: answered with a panel
    third = typed.message
    await scene.panel_noted(typed, "ann")
    assert second.deleted and button_id(third, "refresh")  # a panel, bob's turn now
    assert scene.private_to("ann") == [third]  # one panel: no pointer left behind
    await scene.press(third, "refresh", "ann")  # the live panel, updated in place
    await bot.outbox.drain()
    assert third.components and "Your hand" in text_of(third)  # (bob's turn now)
    assert bobs.components and "Your turn" in text_of(bobs)  # another's panel: untouched
    await scene.press(bobs, "draw", "bob")
    await bot.outbox.drain()
    assert button_id(third, "draw") and text_of(third).startswith(YOUR_TURN)
    assert scene.private_to("ann") == [third]
    assert [m for m in scene.private_to("bob") if m.components] == [bobs]


@pytest.mark.scene(names=PEOPLE[:3], timer=True)
async def test_people_who_move_every_ten_seconds_are_never_pinged_in_a_whole_game(
    fake_discord, scene, timer
):
    bot = scene.bot
    table = await scene.new_game(*PEOPLE[:3], difficulty="beginner")
    scene.arrange(damage=2)  # one hit from victory: a short game
    names = {scene.id(name): name for name in PEOPLE[:3]}
    moves = 0
    while not table.game.is_over and moves < 300:
        waited = 0  # each thinks 10 s of game time (and waits out a reshuffle)
        while waited < 10 or table.game.phase is Phase.RESHUFFLE:
            await timer.advance(1)
            waited += 1
        if table.game.is_over:
            break
        reply = await play_as(scene, table, names[table.game.active_player])
        assert reply.ephemeral
        await bot.outbox.drain()
        moves += 1
    assert table.game.is_over and moves > 3 * 3
    assert [len(fake_discord.notified(scene[name])) for name in PEOPLE[:3]] == [0, 0, 0]
