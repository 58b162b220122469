"""The autopilot: a crewmate plays the seat of a player gone quiet until they are back, never
racing their own click, through the fake Discord; its setting in English and French.

Time is the game's (`timer`), moved on by the test: the autopilot takes a seat over when
its timer fires, and plays it one to three seconds later, only when the test says so.
"""

from __future__ import annotations

import asyncio

import discord
import pytest

from bot.game.changes import BoardOutdated, Settled
from bot.store.records import DEFAULT_AUTOPILOT_SECONDS
from bot.table import Table
from bot.views import attachments, components
from engine import Colour, Phase, Size
from engine.crew import decide
from tests.bot.helpers import Scene, bot_state, button_id, content, text_of

pytestmark = pytest.mark.e2e

#: Seconds within which the autopilot's move, once due, is made (a crewmate's pause).
MOVES = 3


def autopilot_scene(fake, bot, names=("ann", "bob")) -> Scene:
    """The players, and "boss", who may change the server's settings."""
    scene = Scene(fake, bot, names=names)
    admins = fake.add_role(
        scene.guild, "admins", permissions=discord.Permissions(manage_guild=True).value
    )
    scene.members["boss"] = fake.add_member(scene.guild, "boss", roles=[admins])
    return scene


async def game_with_autopilot(scene: Scene, seconds: int = 30) -> Table:
    """The autopilot on after `seconds`, and a game of ann and bob, ann first."""
    done = await scene.cmd("apophis config", "boss", autopilot=seconds)
    assert f"Autopilot: after {seconds} s without a move" in content(done)
    return await scene.new_game("ann", "bob", difficulty="beginner")


async def plays(scene: Scene, name: str) -> None:
    """`name` draws (and discards down to the limit if need be): the turn passes."""
    table = scene.live()
    await scene.cmd("draw", name)
    if table.game.phase is Phase.DISCARD:
        await scene.cmd("discard", name, cards=" ".join(table.game.hands[0][5:]))


async def turn_of(scene: Scene, table: Table, name: str) -> None:
    """Wait until it is `name`'s turn and nothing is under way (a move, a reshuffle)."""
    player = scene.id(name)
    await bot_state(
        lambda: (
            table.game.active_player == player
            and table.game.phase is Phase.PLAY
            and not table.runtime.lock.locked()
        )
    )


async def autopilot_plays(timer, scene: Scene, table: Table, name: str) -> None:
    """Time moves on, a crewmate's pause at a time, until the autopilot has played to
    `name`'s turn (a draw, and a discard down to the limit if need be)."""
    player = scene.id(name)
    for _ in range(4):
        await timer.advance(MOVES)
        if table.game.active_player == player and table.game.phase is Phase.PLAY:
            return
    raise AssertionError(f"the autopilot did not play to {name}'s turn")


def players_field(scene: Scene, table: Table) -> str:
    """The board's Players, as its Details show them (beside the picture, the picture's
    seats say who is on autopilot)."""
    (field,) = [f for f in components.board_details(table).embed.fields if f.name == "Players"]
    return field.value


async def test_the_autopilot_plays_for_a_quiet_player_until_they_are_back(
    fake_discord, make_bot, timer
):
    bot = make_bot(timer=timer)
    scene = autopilot_scene(fake_discord, bot)
    bob = scene.id("bob")
    async with fake_discord.connected(bot):
        table = await game_with_autopilot(scene)
        autopilot = bot.service.crew.autopilot
        await plays(scene, "ann")
        await turn_of(scene, table, "bob")
        await timer.advance(20)
        await scene.panel("bob")  # he looks at his hand: counting starts again
        await timer.advance(29.9)
        assert bob not in table.autopilot  # 49.9 s since his turn began, but 29.9 since his click
        version = table.version
        await timer.advance(0.1)
        assert table.autopilot == {bob} and table.version == version  # its move comes later
        await bot.outbox.drain()
        assert "🤖 on autopilot" in players_field(scene, table).split("\n")[1]
        assert f"🤖 <@{bob}> has made no move for 30 s" in text_of(scene.board(table))
        names = attachments.seat_names(table, table.game.public_view())
        assert names == ("ann", "bob (autopilot)")  # and on the picture's seats
        await autopilot_plays(timer, scene, table, "ann")  # it played his turn, as bob
        log = await bot.store.game_log(table.id)
        assert {entry.actor for entry in log[version:]} == {bob}
        await plays(scene, "ann")
        await autopilot_plays(timer, scene, table, "ann")  # ...and the next, not 30 s later
        assert table.autopilot == {bob}
        reply = await scene.cmd("hand", "bob")  # he is back: his seat is his at once
        assert reply.ephemeral and table.autopilot == set()
        await bot.outbox.drain()
        assert "autopilot" not in players_field(scene, table)
        assert f"👋 <@{bob}> is back and plays their own seat again." in text_of(scene.board(table))
        await plays(scene, "ann")
        await turn_of(scene, table, "bob")
        await timer.advance(29.9)
        assert bob not in table.autopilot  # his turn again: counting from its start
        await scene.cmd("apophis end", "ann")
        assert table.id not in autopilot.timers and table.id not in autopilot.waiting


@pytest.mark.parametrize(("chosen", "seconds"), [(None, 90), (0, None), (30, 30)])
async def test_the_autopilot_is_on_after_90_s_unless_the_server_chose(
    fake_discord, make_bot, timer, chosen, seconds
):
    """A server that never chose: a quiet seat is taken after 90 s; one that turned the
    autopilot off keeps it off; one that chose 30 s gets 30 s."""
    bot = make_bot(timer=timer)
    scene = autopilot_scene(fake_discord, bot)
    async with fake_discord.connected(bot):
        if chosen is not None:
            await scene.cmd("apophis config", "boss", autopilot=chosen)
        table = await scene.new_game("ann", "bob", difficulty="beginner")
        ann = scene.id("ann")
        if seconds is None:
            await timer.advance(2 * DEFAULT_AUTOPILOT_SECONDS)
            assert not table.autopilot and table.game.active_player == ann
            return
        await timer.advance(seconds - 0.1)
        assert not table.autopilot
        await timer.advance(0.1)
        assert table.autopilot == {ann}
        await bot.outbox.drain()
        assert f"🤖 <@{ann}> has made no move for {seconds} s" in text_of(scene.board(table))


async def test_a_server_without_the_bot_keeps_its_autopilot_setting(fake_discord, make_bot, timer):
    """A game opened by a user install in a server that never added the bot follows that
    server's setting as it was last left: off, so a quiet player keeps their seat however
    long they think."""
    bot = make_bot(timer=timer)
    scene = Scene(fake_discord, bot, names=("ann", "bob"), bot_member=False)
    async with fake_discord.connected(bot):
        await scene.autopilot_off()
        table = await scene.new_game("ann", "bob", rules="basic", difficulty="easy")
        assert table.reach == "interactions" and table.guild_id == scene.guild.id
        waited_for = table.game.active_player
        await timer.advance(2 * DEFAULT_AUTOPILOT_SECONDS)
        assert not table.autopilot and table.game.active_player == waited_for
        await bot.outbox.drain()
        assert "autopilot" not in text_of(scene.board(table)).lower()


async def test_the_autopilot_carries_on_the_absent_players_plan(fake_discord, make_bot, timer):
    """Bob built a small blue and went quiet. His own crewmate would scrap it for a rocket
    of its own, clearly quicker; the autopilot carries on his rocket: a small red on it."""
    bot = make_bot(timer=timer)
    scene = autopilot_scene(fake_discord, bot)
    bob = scene.id("bob")
    async with fake_discord.connected(bot):
        table = await game_with_autopilot(scene)
        scene.arrange(
            rocket=[("blue", 1)],
            builders=[bob],
            hands=[["7C", "3C", "6D"], ["6H", "4C", "9S"]],
        )
        await plays(scene, "ann")
        await turn_of(scene, table, "bob")
        view = table.game.view_for(bob)
        time_left = table.time_left(bot.service.now())
        assert decide(view, time_left).reason == "scrap_restart"  # as a crewmate of his own
        carried = decide(view, time_left, absent=True)
        assert carried.action == {"type": "build", "player": bob, "colour": "red", "size": 1}
        version = table.version
        await timer.advance(30)
        assert table.autopilot == {bob}
        await autopilot_plays(timer, scene, table, "ann")
        log = await bot.store.game_log(table.id)
        assert [(e.actor, e.action) for e in log[version:]] == [
            (bob, {"type": "build", "player": bob, "colour": "red", "size": 1})
        ]
        assert table.game.rocket == [(Colour.BLUE, Size.SMALL), (Colour.RED, Size.SMALL)]
        assert table.game.builders == [bob, bob]


async def test_a_click_that_lands_first_wins_over_the_autopilot(fake_discord, make_bot, timer):
    bot = make_bot(timer=timer)
    scene = autopilot_scene(fake_discord, bot)
    bob = scene.id("bob")
    async with fake_discord.connected(bot):
        table = await game_with_autopilot(scene)
        await plays(scene, "ann")
        await turn_of(scene, table, "bob")
        panel = await scene.panel("bob")  # he opened his panel, then went quiet
        await timer.advance(30)
        assert table.autopilot == {bob}
        decided = []
        act = bot.service.crew.act

        async def autopilot_acts(*args):
            decided.append(args)
            return await act(*args)

        bot.service.crew.act = autopilot_acts
        version = table.version
        await table.runtime.lock.acquire()  # the game is busy with something else meanwhile
        try:
            # its move is decided, and waits for the lock (which `advance` waits for too)
            moving = asyncio.create_task(timer.advance(MOVES))
            await bot_state(lambda: decided)
            click = await fake_discord.click(panel, button_id(panel, "draw"), user=scene["bob"])
            await bot_state(lambda: not table.autopilot)  # his click landed: the seat is his
        finally:
            table.runtime.lock.release()
        await moving
        reply = await click.wait_response()
        assert "You drew" in text_of(reply.message)  # his move, as he meant it
        await bot_state(lambda: not table.runtime.lock.locked())
        log = await bot.store.game_log(table.id)
        assert [(e.actor, e.action["type"]) for e in log[version:]][:1] == [(bob, "draw")]
        assert all(entry.actor == bob for entry in log[version:])  # nothing by the autopilot
        assert decided[0][1] == bob and decided[0][4] == version  # it had aimed at that version


async def test_after_a_restart_every_seat_is_its_players_and_counting_starts_again(
    fake_discord, make_bot, timer
):
    fake_discord.gateway.identify_interval = 0  # restarted at once
    first = make_bot(timer=timer)  # the autopilot's move waits 1 to 3 s: the bot stops before it
    scene = autopilot_scene(fake_discord, first)
    bob = scene.id("bob")
    async with fake_discord.connected(first):
        table = await game_with_autopilot(scene)
        await plays(scene, "ann")
        await turn_of(scene, table, "bob")
        await timer.advance(30)
        assert table.autopilot == {bob}
        version = table.version
    assert timer.pending() == []  # the stopped bot left no timer behind
    await timer.advance(60)  # the bot was away a minute
    restarted = timer.now()
    second = make_bot(timer=timer)
    scene.bot = second
    async with fake_discord.connected(second):
        table = scene.live()
        assert table.version == version and table.autopilot == set()
        autopilot = second.service.crew.autopilot
        player, since = autopilot.waiting[table.id]
        assert player == bob and since == restarted  # counting from the restart
        await timer.advance(29.9)
        assert table.autopilot == set()
        await timer.advance(0.1)
        assert table.autopilot == {bob}


@pytest.mark.parametrize(
    ("language", "on", "off", "refused"),
    [
        (
            "en",
            "Autopilot: after 45 s without a move",
            "Autopilot: off",
            "The autopilot takes 0 (off) or 30 to 300 s, not 15 s. Nothing was changed.",
        ),
        (
            "fr",
            "Pilote automatique\u202f: après 45 s sans action",
            "Pilote automatique\u202f: désactivé",
            "Le pilote automatique prend 0 (désactivé) ou de 30 à 300 s, pas 15 s. Rien n’a été "
            "changé.",
        ),
    ],
)
async def test_the_autopilot_setting(fake_discord, make_bot, language, on, off, refused):
    bot = make_bot()
    scene = autopilot_scene(fake_discord, bot)
    scene["boss"].user.locale = language
    async with fake_discord.connected(bot):
        (config,) = [c for c in fake_discord.synced_commands() if c["name"] == "apophis"]
        (option,) = [
            o
            for sub in config["options"]
            if sub["name"] == "config"
            for o in sub["options"]
            if o["name"] == "autopilot"
        ]
        assert option["name_localizations"]["fr"] == "pilote_automatique"
        assert (option["min_value"], option["max_value"]) == (0, 300)
        assert on in content(await scene.cmd("apophis config", "boss", autopilot=45))
        no = await scene.cmd("apophis config", "boss", autopilot=15, pings=False)
        assert no.ephemeral and content(no) == refused
        settings = await bot.store.get_guild_settings(scene.guild.id)
        assert (settings.autopilot_seconds, settings.turn_pings) == (45, True)  # unchanged
        assert bot.service.crew.autopilot.delays == {scene.guild.id: 45}
        assert off in content(await scene.cmd("apophis config", "boss", autopilot=0))
        assert bot.service.crew.autopilot.delays == {scene.guild.id: 0}
        refused_player = await scene.cmd("apophis config", "ann", autopilot=60)
        assert refused_player.ephemeral and "Manage Server" in content(refused_player)


async def test_a_board_outdated_while_its_edit_is_under_way_is_drawn_again(fake_discord, make_bot):
    """A seat given back while the board's edit showing it on autopilot is still on its
    way: that edit lands, and the board is drawn again (it was left saying "on autopilot",
    the later redraw taken for already shown)."""
    bot = make_bot()
    scene = autopilot_scene(fake_discord, bot)
    bob = scene.id("bob")
    async with fake_discord.connected(bot):
        # no autopilot configured: the test puts bob's seat on it and gives it back itself
        table = await scene.new_game("ann", "bob")
        await bot.outbox.drain()
        edits = [
            "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original",
            "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
            "PATCH /channels/{channel_id}/messages/{message_id}",
        ]
        for route in edits:  # the next edit of the board waits a moment, whichever way
            fake_discord.rate_limit_next(route, retry_after=0.5)
        table.autopilot.add(bob)  # as the autopilot takes his seat over
        bot.service.changes.publish(BoardOutdated(table))
        bot.service.changes.publish(Settled(table))
        await fake_discord.wait_for(
            lambda: [
                r for route in edits for r in fake_discord.requests_to(route) if r.status == 429
            ]
        )
        bot.service.crew.autopilot.seen(table, bob)  # he is back while it is on its way
        assert table.autopilot == set()
        bot.service.changes.publish(Settled(table))
        await bot.outbox.drain()
        assert "autopilot" not in players_field(scene, table)
