"""The live table as a Discord Activity launched anywhere (a group DM, the bot's DM, a server
with or without the bot), against the real bot and the fake Discord: the place and the
people are what Discord's activity-instances endpoint says, never the client; the whole
game is played from the table (opened, joined, a crewmate, started, played to its end,
Play again) in headless Chromium with the SDK mocked; whoever the instance does not list
is refused by name, and a tampered Play again politely; a relaunch finds the running game;
in a server channel the bot is in, the Activity's game is the channel's; and someone who
left the Activity is a quiet player whose seat the autopilot takes."""

from __future__ import annotations

import logging

import pytest

from bot.discord import gatekeeper
from bot.i18n.catalogs import t
from bot.table import Table, is_crewmate
from tests.bot.helpers import Scene
from tests.engine.helpers import table as position
from tests.web import test_browser
from tests.web.conftest import serving
from tests.web.helpers import Socket, move_id
from tests.web.test_browser import button

pytestmark = pytest.mark.e2e
#: The browser tests' fixture: pages showing the client's test build (the SDK mocked).
pages = test_browser.pages
#: Discord's route for an Activity's instance, as the fake logs it.
INSTANCE_ROUTE = "GET /applications/{application_id}/activity-instances/{instance_id}"
#: The no-game screen's Open a game here, once it may be pressed.
OPEN = 'button[data-action="open"]:not([aria-disabled])'


def activity_url(bot, fake, user, instance: str) -> str:
    """The table as Discord opens it for `user` in `instance`, the SDK mocked: no channel,
    no server, only the instance's id (the server asks Discord the rest)."""
    code = fake.oauth.issue_code(user)
    return f"{bot.web.public_url}/?sdk=mock&instance={instance}&code={code}"


def refusal(socket: Socket) -> str | None:
    return next((m["reason"] for m in socket.received if m["type"] == "refused"), None)


class HeldClock:
    """The gatekeeper's clock (once the bot is connected), held still: Discord's answers
    about an instance are kept until it is moved on (`forget`), as INSTANCE_SECONDS do."""

    def __init__(self, bot) -> None:
        self.now = 0.0
        bot.core.gatekeeper.clock = lambda: self.now

    def forget(self) -> None:
        self.now += gatekeeper.INSTANCE_SECONDS


def channel_requests(fake, channel) -> list[str]:
    """The bot's requests to a channel's routes (its messages, its threads...)."""
    return [f"{r.method} {r.path}" for r in fake.requests if f"/channels/{channel.id}" in r.path]


def stack(bot, table: Table, **layout) -> None:
    """Give the live game an exact position (its players and rules kept), shown at once."""
    game = table.game
    table.game = position(players=tuple(game.players), rules=game.rules.value, **layout)
    table.stored = table.game.save()
    bot.web.feed.changed(table)


# ------------------------------------------------------------------ sockets, no browser


async def test_only_those_discord_lists_in_the_instance_may_watch_and_the_place_is_discords(
    fake_discord, make_table
):
    bot = make_table()
    ann, bob, cid = (fake_discord.add_user(name) for name in ("ann", "bob", "cid"))
    chez = fake_discord.add_user("Chez", locale="fr")
    group = fake_discord.add_group_dm(ann, bob, cid, chez)
    elsewhere = fake_discord.add_guild()
    lounge = fake_discord.add_text_channel(elsewhere, "lounge")
    fake_discord.add_member(elsewhere, "ann", user_id=ann.id)
    async with serving(fake_discord, bot):
        instance = fake_discord.launch_activity(group, ann, bob)

        # In the group DM but not in the Activity: refused by name, sent no state.
        async with Socket(bot, group.id, cid, instance=instance) as outsider:
            assert await outsider.closed() == 4003
        assert refusal(outsider) == t("en", "web.error.not_in_activity")
        assert not outsider.states
        async with Socket(bot, group.id, chez, locale="fr", instance=instance) as french:
            assert await french.closed() == 4003
        assert refusal(french) == t("fr", "web.error.not_in_activity")

        # An instance Discord does not know, or none signed in: refused by name too.
        async with Socket(bot, group.id, ann, instance="i-1-pc-2") as lost:
            assert await lost.closed() == 4003
        assert refusal(lost) == t("en", "web.error.no_activity") and not lost.states
        asked = len(fake_discord.requests_to(INSTANCE_ROUTE))
        async with Socket(bot, group.id, None, instance=instance) as nobody:
            assert await nobody.closed() == 4003
        assert refusal(nobody) == t("en", "web.error.activity_sign_in") and not nobody.states
        assert len(fake_discord.requests_to(INSTANCE_ROUTE)) == asked  # Discord not asked

        # Naming another channel changes nothing: the table is the instance's, and a
        # participant is offered to open a game there.
        async with Socket(bot, lounge.id, ann, instance=instance) as socket:
            state = await socket.wait_state(lambda s: True)
        assert state["channel"] == str(group.id) and state["status"] == "none"
        assert [m["custom_id"] for m in state["lobby_moves"]] == ["apo:b:0:0:open"]
        assert state["lobby_moves"][0]["label"] == t("en", "web.open_here")
        # A browser's page of the group DM (no instance) is nobody's: nobody may see it,
        # and signing in would not help (there is no server to be a member of).
        for who in (ann, None):
            async with Socket(bot, group.id, who) as browser:
                assert await browser.closed() == 4003
            assert refusal(browser) == t("en", "table.browser_elsewhere")
            assert not browser.states


async def test_an_instance_id_not_of_discords_form_is_refused_and_discord_not_asked(
    fake_discord, make_table
):
    """Ids "." and ".." would climb out of Discord's route (`GET /applications/{app}/` with the
    bot's token); neither they nor a slash, a percent or a space reach Discord."""
    bot = make_table()
    ann = fake_discord.add_user("ann")
    group = fake_discord.add_group_dm(ann)
    async with serving(fake_discord, bot):
        fake_discord.launch_activity(group, ann)
        before = len(fake_discord.requests)
        for forged in (".", "..", "i-1/..", "%2e%2e", "i-1 x", "i_1", "-1", "i" * 129):
            async with Socket(bot, group.id, ann, instance=forged) as socket:
                assert await socket.closed() == 4003, forged
            assert refusal(socket) == t("en", "web.error.no_activity") and not socket.states
        assert not [r.path for r in fake_discord.requests[before:] if "/applications" in r.path]
        assert await bot.core.gatekeeper.instance("..") is None


async def test_a_relaunch_finds_the_running_game_and_a_participant_who_left_cannot_move(
    fake_discord, make_table
):
    bot = make_table()
    ann, bob = fake_discord.add_user("ann"), fake_discord.add_user("bob")
    group = fake_discord.add_group_dm(ann, bob)
    async with serving(fake_discord, bot):
        clock = HeldClock(bot)
        first = fake_discord.launch_activity(group, ann, bob)
        async with (
            Socket(bot, 0, ann, instance=first) as host,
            Socket(bot, 0, bob, instance=first) as guest,
        ):
            await host.wait_state(lambda s: s["status"] == "none")
            opened = await host.move("apo:b:0:0:open")
            assert opened["ok"], opened
            assert opened["note"] == t("en", "web.opened")
            lobby = await guest.wait_state(lambda s: s["status"] == "lobby")
            table = bot.core.service.by_channel[group.id]
            assert table.reach == "interactions" and table.guild_id == 0
            assert (await guest.move(move_id(lobby, "join", lobby=True)))["ok"]
            await host.wait_state(lambda s: len(s["seats"]) == 2)
            # Two hellos and two moves: Discord was asked once, its answer kept meanwhile.
            assert len(fake_discord.requests_to(INSTANCE_ROUTE)) == 1

            # Bob leaves the Activity: once Discord says so, he cannot move.
            fake_discord.leave_instance(first, bob)
            clock.forget()
            left = await guest.move(move_id(guest.state, "leave", lobby=True))
            assert not left["ok"] and t("en", "web.error.not_in_activity") in left["note"]
            assert bob.id in table.seats
            assert len(fake_discord.requests_to(INSTANCE_ROUTE)) == 2

        # Everyone leaves: the instance ends; a new launch there finds the same lobby.
        fake_discord.leave_instance(first, ann)
        assert fake_discord.instance_in(group) is None
        second = fake_discord.launch_activity(group, ann)
        assert second != first
        async with Socket(bot, 0, ann, instance=second) as back:
            state = await back.wait_state(lambda s: s["status"] == "lobby")
        assert state["game"] == table.id and state["channel"] == str(group.id)
        clock.forget()  # the ended instance's last answer forgotten: Discord says it ended
        async with Socket(bot, 0, ann, instance=first) as gone:
            assert await gone.closed() == 4003
        assert refusal(gone) == t("en", "web.error.no_activity")
        assert not channel_requests(fake_discord, group)


async def test_someone_who_left_the_activity_is_sent_nothing_more_and_closed(
    fake_discord, make_table
):
    """Bob leaves the Activity (removed from the group DM, say) with his socket open: the
    next state is not his; he is told why and his socket closed, while Ann plays on."""
    bot = make_table()
    ann, bob = fake_discord.add_user("ann"), fake_discord.add_user("bob")
    group = fake_discord.add_group_dm(ann, bob)
    async with serving(fake_discord, bot):
        clock = HeldClock(bot)
        instance = fake_discord.launch_activity(group, ann, bob)
        async with (
            Socket(bot, 0, ann, instance=instance) as host,
            Socket(bot, 0, bob, instance=instance) as guest,
        ):
            await host.wait_state(lambda s: s["status"] == "none")
            assert (await host.move("apo:b:0:0:open"))["ok"]
            lobby = await guest.wait_state(lambda s: s["status"] == "lobby")
            assert (await guest.move(move_id(lobby, "join", lobby=True)))["ok"]
            await guest.wait_state(lambda s: len(s["seats"]) == 2)
            seen = len(guest.states)

            fake_discord.leave_instance(instance, bob)
            clock.forget()
            added = await host.move(move_id(host.state, "crewadd", lobby=True))
            assert added["ok"], added
            await host.wait_state(lambda s: len(s["seats"]) == 3)
            assert await guest.closed() == 4003
            assert len(guest.states) == seen  # the crewmate's lobby never reached him
            assert refusal(guest) == t("en", "web.error.not_in_activity")


async def test_a_participants_play_again_of_a_game_number_too_large_is_refused_politely(
    fake_discord, make_table, caplog
):
    """A tampered Play again, once the Activity's game is over, naming a game number no
    database could hold: refused in words, nothing opened, nothing logged as an error."""
    bot = make_table()
    ann = fake_discord.add_user("ann")
    group = fake_discord.add_group_dm(ann, fake_discord.add_user("bob"))
    async with serving(fake_discord, bot):
        instance = fake_discord.launch_activity(group, ann)
        async with Socket(bot, 0, ann, instance=instance) as host:
            await host.wait_state(lambda s: s["status"] == "none")
            assert (await host.move("apo:b:0:0:open"))["ok"]
            for action in ("crewadd", "start"):
                lobby = await host.wait_state(lambda s: s["status"] == "lobby")
                assert (await host.move(move_id(lobby, action, lobby=True)))["ok"], action
            table = bot.core.service.by_channel[group.id]
            await bot.core.service._apply_locked(table, {"type": "end", "reason": "reset"}, None)
            await host.wait_state(lambda s: s["status"] not in ("lobby", "active"))
            again = await host.move(f"apo:b:{'9' * 30}:0:again")
        assert not again["ok"] and t("en", "error.unknown_button") in again["note"]
        assert group.id not in bot.core.service.by_channel
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_in_a_server_channel_the_bot_is_in_the_activitys_game_is_the_channels(
    fake_discord, make_web_bot
):
    """The Activity's and the channel's game are one: opened from the table, played from
    Discord, seen on the table; standing there is the server's (someone who may not post
    in the channel watches but cannot join). In a server without the bot, the Activity's
    participants take part, and its game reaches them by interactions alone."""
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("ann", "bob", "cid"))
    await fake_discord.set_permissions(scene.channel, scene["cid"], deny=1 << 11)  # Send
    bare = fake_discord.add_guild(bot_member=False)
    hall = fake_discord.add_text_channel(bare, "hall")
    dee = fake_discord.add_member(bare, "dee")
    async with fake_discord.connected(bot.discord):
        instance = fake_discord.launch_activity(scene.channel, scene["ann"], scene["cid"])
        async with (
            Socket(bot, 0, scene["ann"], instance=instance) as ann,
            Socket(bot, 0, scene["cid"], instance=instance) as cid,
        ):
            await ann.wait_state(lambda s: s["status"] == "none")
            assert (await ann.move("apo:b:0:0:open"))["ok"]
            table = scene.live()
            assert table.reach == "channel" and table.guild_id == scene.guild.id
            await bot.discord.outbox.drain()
            assert scene.board(table) is not None  # the channel's lobby message

            await scene.cmd("apophis join", "bob")  # from Discord
            state = await ann.wait_state(lambda s: len(s["seats"]) == 2)
            assert [seat["name"] for seat in state["seats"]] == ["ann", "bob"]
            refused = await cid.move(move_id(cid.state, "join", lobby=True))
            assert not refused["ok"] and t("en", "seat.cannot_send") in refused["note"]
            await scene.cmd("apophis start", "ann", first=scene["ann"])
            await ann.wait_state(lambda s: s["status"] == "active")
            version = table.version
            await scene.cmd("draw", "ann")  # a move from Discord shows on the table
            moved = await ann.wait_state(lambda s: s["version"] > version)
            assert moved["game"] == table.id

        bare_instance = fake_discord.launch_activity(hall, dee)
        async with Socket(bot, 0, dee, instance=bare_instance) as socket:
            await socket.wait_state(lambda s: s["status"] == "none")
            assert (await socket.move("apo:b:0:0:open"))["ok"]
            await socket.wait_state(lambda s: s["status"] == "lobby")
        opened = bot.core.service.by_channel[hall.id]
        assert opened.reach == "interactions" and opened.guild_id == bare.id
        assert not channel_requests(fake_discord, hall)


async def test_a_participant_who_left_the_activity_is_a_quiet_player(fake_discord, make_web_bot):
    """Bob leaves the Activity on his turn: his moves are refused, and refused moves do not
    count as being there: the autopilot takes his seat after the server's delay."""
    bot = make_web_bot(time_scale=60.0)  # the autopilot's 30 s: half a second
    scene = Scene(fake_discord, bot.discord, names=("bob", "ann"))
    async with fake_discord.connected(bot.discord):
        clock = HeldClock(bot)
        bot.core.service.set_autopilot(scene.guild.id, 30)
        instance = fake_discord.launch_activity(scene.channel, scene["bob"], scene["ann"])
        table = await scene.new_game("bob", "ann")  # Bob plays first
        async with (
            Socket(bot, 0, scene["bob"], instance=instance) as bob,
            Socket(bot, 0, scene["ann"], instance=instance) as ann,
        ):
            await bob.wait_state(lambda s: s["status"] == "active" and s["you"]["your_turn"])
            await bot.discord.outbox.drain()  # the start's posts done: no state is under way
            await bob.wait_for(lambda s: s.state["version"] == table.version)
            fake_discord.leave_instance(instance, scene["bob"])
            clock.forget()
            quiet_since = table.runtime.seen.get(scene.id("bob"))
            refused = await bob.move(move_id(bob.state, "draw"))
            assert not refused["ok"] and t("en", "web.error.not_in_activity") in refused["note"]
            assert table.runtime.seen.get(scene.id("bob")) == quiet_since
            state = await ann.wait_state(
                lambda s: any(seat["autopilot"] for seat in s["seats"]), timeout=10
            )
            assert await bob.closed() == 4003  # the autopilot's board was not his to see
        assert [seat["autopilot"] for seat in state["seats"]] == [True, False]
        assert scene.id("bob") in table.autopilot


# ------------------------------------------------------------ the whole game, in Chromium


async def play_to_the_end(bot, host, table: Table, player: int) -> None:
    """A deal where `player`'s launch destroys Apophis, their turn (once a crewmate who
    happened to play first has played); they launch from `host`'s page."""
    await host.wait("document.body.dataset.status === 'active'")
    while is_crewmate(table.game.active_player):  # its move first: none under way after
        version = table.version
        await host.wait(f"Number(document.body.dataset.version) > {version}")
    hands = [["2C", "2H", "2D", "2S"] if p == player else [] for p in table.game.players]
    stack(
        bot,
        table,
        hands=hands,
        rocket=[("red", 3), ("yellow", 2)],
        damage=2,
        dice=[6, 6, 6, 6],
        active=table.game.players.index(player),
    )
    await host.wait("window.__apophis.lastState.you.your_turn")
    await host.click(button("launch"))
    await host.wait("document.body.dataset.status === 'finished'", timeout=15)
    assert (await host.state())["table"]["outcome"] == "destroyed"


async def test_a_whole_game_in_a_group_dm_from_the_activity_alone(
    fake_discord, make_web_bot, pages
):
    bot = make_web_bot()
    ann, bob, cid = (fake_discord.add_user(name) for name in ("ann", "bob", "cid"))
    group = fake_discord.add_group_dm(ann, bob, cid)
    async with fake_discord.connected(bot.discord):
        instance = fake_discord.launch_activity(group, ann, bob)
        host, guest = await pages(), await pages()
        for page in (host, guest):
            await page.reduce_motion()
        await host.open(activity_url(bot, fake_discord, ann, instance))
        await guest.open(activity_url(bot, fake_discord, bob, instance))
        for page in (host, guest):
            await page.wait("document.body.dataset.status === 'none'")

        await host.click(OPEN)
        for page in (host, guest):
            await page.wait("document.body.dataset.screen === 'lobby'")
        await guest.click('button[data-action="join"]:not([aria-disabled])')
        await host.wait("document.querySelectorAll('.lobby-seat.taken').length === 2")
        await host.click('button[data-action="crewadd"]:not([aria-disabled])')
        await guest.wait("document.querySelectorAll('.lobby-seat.taken').length === 3")
        await host.click('button[data-action="start"]:not([aria-disabled])')
        table = bot.core.service.by_channel[group.id]
        assert [is_crewmate(p) for p in table.seats] == [False, False, True]
        await play_to_the_end(bot, host, table, ann.id)
        await guest.wait("document.body.dataset.status === 'finished'", timeout=15)

        await guest.click(button("again"))
        for page in (host, guest):
            await page.wait("document.body.dataset.screen === 'lobby'")
        again = bot.core.service.by_channel[group.id]
        assert again.id != table.id and again.reach == "interactions"

        # Cid, in the group DM but not in the Activity, is refused by name.
        outsider = await pages()
        await outsider.open(activity_url(bot, fake_discord, cid, instance))
        await outsider.wait("document.body.dataset.status === 'refused'")
        shown = await outsider.js("return document.body.innerText;")
        assert t("en", "web.error.not_in_activity") in shown
        assert not [f for f in await outsider.received() if f.get("type") == "state"]

        errors = [
            e for page in (host, guest) for e in await page.console() if e["level"] == "SEVERE"
        ]
        assert not errors, errors
    assert not channel_requests(fake_discord, group)


async def test_the_layout_is_followed_when_discord_allows_it_only_once_signed_in(
    fake_discord, make_table, pages
):
    """A Discord client that refuses the layout's subscription until the SDK is
    authenticated: the page asks again once signed in, and follows picture-in-picture."""
    bot = make_table()
    ann = fake_discord.add_user("ann")
    group = fake_discord.add_group_dm(ann)
    async with serving(fake_discord, bot):
        instance = fake_discord.launch_activity(group, ann)
        page = await pages()
        await page.open(activity_url(bot, fake_discord, ann, instance) + "&layout=after-sign-in")
        await page.wait("document.body.dataset.status === 'none'")
        await page.js(
            "window.__apophisSdk.emitEvent('ACTIVITY_LAYOUT_MODE_UPDATE', {layout_mode: 1});"
        )
        await page.wait("document.body.dataset.layout === 'pip'")


async def test_a_browsers_link_to_a_group_dm_says_why_and_offers_no_sign_in(
    fake_discord, make_table, pages
):
    """A `?channel=` link to a group DM (the bot gives none, but links travel): the page
    says a browser is shown only a server's channels the bot is in, and, since signing in
    would change nothing, offers no sign-in."""
    bot = make_table()
    ann = fake_discord.add_user("ann")
    group = fake_discord.add_group_dm(ann, fake_discord.add_user("bob"))
    async with serving(fake_discord, bot):
        page = await pages()
        await page.open(f"{bot.web.public_url}/?channel={group.id}")
        await page.wait("document.body.dataset.status === 'refused'")
        shown = await page.js("return document.body.innerText;")
        assert t("en", "table.browser_elsewhere") in shown
        assert not await page.js("return document.querySelector('a.sign-in');")


async def test_alone_with_a_crewmate_in_the_bots_dm(fake_discord, make_web_bot, pages):
    bot = make_web_bot()
    ann = fake_discord.add_user("ann")
    dm = fake_discord.world.dm_channel(ann)
    async with fake_discord.connected(bot.discord):
        instance = fake_discord.launch_activity(dm, ann)
        page = await pages(360, 640)
        await page.reduce_motion()
        await page.open(activity_url(bot, fake_discord, ann, instance))
        await page.wait("document.body.dataset.status === 'none'")
        await page.click(OPEN)
        await page.wait("document.body.dataset.screen === 'lobby'")
        await page.click('button[data-action="crewadd"]:not([aria-disabled])')
        await page.wait("document.querySelectorAll('.lobby-seat.taken').length === 2")
        await page.click('button[data-action="start"]:not([aria-disabled])')
        table = bot.core.service.by_channel[dm.id]
        await play_to_the_end(bot, page, table, ann.id)
        await page.click(button("again"))
        await page.wait("document.body.dataset.screen === 'lobby'")
        assert bot.core.service.by_channel[dm.id].id != table.id
    assert not channel_requests(fake_discord, dm)
