"""AI crewmates: seated by the host in the lobby, playing their turns, resumed after a restart."""

from __future__ import annotations

import pytest

from engine import Phase
from engine.crew import decide
from tests.bot.helpers import Scene, bot_state, text_of

pytestmark = pytest.mark.e2e


async def open_lobby_with_crewmates(scene: Scene, crewmates: int, **options):
    """/apophis new by ann, then her clicks on "Add AI crewmate"; the lobby message."""
    lobby = (await scene.cmd("apophis new", "ann", **options)).message
    for _ in range(crewmates):
        reply = await scene.click(lobby, "crewadd", "ann")
        assert reply.response_type == 7  # the lobby redrawn
    return lobby


async def play_as_ann(scene: Scene, table) -> None:
    """Ann's turn, played as the crew policy would (through slash commands)."""
    ann = scene.id("ann")
    decision = decide(table.game.view_for(ann), table.time_left(scene.bot.service.now()))
    action = decision.action
    kind = action["type"]
    if kind in ("build",):
        sizes = {1: "small", 2: "medium", 3: "large"}
        reply = await scene.cmd("build", "ann", colour=action["colour"], size=sizes[action["size"]])
    elif kind in ("launch", "discard"):
        reply = await scene.cmd(kind, "ann", cards=" ".join(action["cards"]))
    else:
        reply = await scene.cmd(kind, "ann")
    assert reply.ephemeral, kind


async def test_one_person_and_two_crewmates_play_to_the_end(fake_discord, make_bot):
    bot = make_bot(time_scale=50)
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    async with fake_discord.connected(bot):
        lobby = await open_lobby_with_crewmates(scene, 3, difficulty="beginner", rules="basic")
        refused = await scene.click(lobby, "crewadd", "ann")
        assert "full" in text_of(refused.message)
        refused = await scene.click(lobby, "crewdrop", "bob")
        assert "Only the host" in text_of(refused.message)
        await scene.click(lobby, "crewdrop", "ann")
        table = scene.live()
        assert table.seats == [scene.id("ann"), -1, -2]
        assert "🤖 Robot 2" in text_of(lobby)
        start = await scene.cmd("apophis start", "ann", first=scene["ann"])
        assert "game has started" in text_of(start.message)
        scene.arrange(damage=2)  # one hit from victory: a short game
        ann, turns = scene.id("ann"), 0
        while not table.game.is_over and turns < 200:
            await bot_state(
                lambda: (
                    table.game.is_over
                    or (table.game.active_player == ann and table.game.phase is not Phase.RESHUFFLE)
                ),
                timeout=10,
            )
            if not table.game.is_over:
                await play_as_ann(scene, table)
                turns += 1
        await bot_state(lambda: table.status == "finished")  # the last move committed
        await bot.outbox.drain()
        board = text_of(scene.board(table))
        assert "🤖 Robot 1" in board and "🤖 Robot 2" in board
        assert len(fake_discord.dms(scene["ann"])) == 1  # her hand; crewmates get no DMs
        stats = await bot.store.stats(scene.guild.id)
        (tally,) = stats.tallies
        assert tally.games == 1 and tally.with_crewmates
        assert stats.fastest_wins == ()  # fastest wins are all-human teams'
        scene.assert_no_cards_in_public()


async def test_crewmates_resume_their_turns_after_a_restart(fake_discord, make_bot):
    fake_discord.gateway.identify_interval = 0  # a test restart may identify again at once
    first = make_bot()  # crewmates pause 1 to 3 s: the bot stops before they move
    scene = Scene(fake_discord, first, names=("ann",))
    async with fake_discord.connected(first):
        await open_lobby_with_crewmates(scene, 2, difficulty="beginner")
        await scene.cmd("apophis start", "ann", first=scene["ann"])
        table = scene.live()
        await scene.cmd("draw", "ann")
        if table.game.phase is Phase.DISCARD:
            await scene.cmd("discard", "ann", cards=table.game.hands[0][-1])
        assert table.game.active_player == -1
        version = table.version
    assert table.version == version  # the crewmate had not moved when the bot stopped
    second = make_bot(time_scale=50)
    scene.bot = second
    async with fake_discord.connected(second):
        resumed = scene.live()
        ann = scene.id("ann")
        # both crewmates played (each move committed), and it is ann's turn again
        await bot_state(
            lambda: (
                resumed.version >= version + 2
                and (resumed.game.active_player == ann or resumed.game.is_over)
            ),
            timeout=10,
        )
        assert any("Robot 1" in line for line in resumed.recent)


async def test_crewmates_do_not_play_on_alone(fake_discord, make_bot):
    bot = make_bot(time_scale=50)
    scene = Scene(fake_discord, bot, names=("ann",))
    async with fake_discord.connected(bot):
        await open_lobby_with_crewmates(scene, 1, difficulty="beginner")
        await scene.cmd("apophis start", "ann", first=scene["ann"])
        table = scene.live()
        reply = await scene.cmd("apophis leave", "ann")
        assert "You left the game" in text_of(reply.message)
        await bot_state(lambda: table.status == "abandoned")
        assert table.game.players == [-1]
