"""The web table's sockets against the real bot and the fake Discord: the same games, the
same checks as a Discord click, each client seeing only its own hand."""

from __future__ import annotations

import json

import aiohttp
import pytest

from bot.i18n.catalogs import t
from bot.web import sockets
from bot.web.sessions import Sessions, User
from tests.bot.helpers import CARD, Scene, bot_state, text_of
from tests.web.conftest import serving
from tests.web.helpers import Paced, Socket, move_id

ALL_SUITS = ["2C", "2H", "2D", "2S"]

pytestmark = pytest.mark.e2e


def public_text(state: dict) -> str:
    """A state without the viewer's own part, as JSON text."""
    return json.dumps({k: v for k, v in state.items() if k != "you"}, ensure_ascii=False)


async def test_moves_from_discord_and_from_the_web_reach_each_other(fake_discord, make_web_bot):
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("ann", "bob"))
    async with fake_discord.connected(bot.discord):
        table = await scene.new_game("ann", "bob")
        game = table.game
        channel = scene.channel.id
        async with (
            Socket(bot, channel, scene["ann"]) as ann,
            Socket(bot, channel, scene["bob"]) as bob,
            Socket(bot, channel) as watcher,
        ):
            for socket, player in ((ann, "ann"), (bob, "bob")):
                state = await socket.wait_state(lambda s: s["status"] == "active")
                hand = [card["card"] for card in state["you"]["hand"]]
                assert sorted(hand) == sorted(game.hands[game.players.index(scene.id(player))])
            first = await watcher.wait_state(lambda s: s["status"] == "active")
            assert first["you"] is None and first["table"]["deck"] == len(game.deck)
            assert [seat["name"] for seat in first["seats"]] == ["ann", "bob"]

            # /draw in Discord: every socket sees the new state.
            version = table.version
            await scene.cmd("draw", "ann")
            for socket in (ann, bob, watcher):
                await socket.wait_state(lambda s, v=version: s["version"] > v)
            assert watcher.state["seats"][0]["cards"] == len(game.hands[0])

            # A move on the web: played, told, and shown on the channel's board.
            await bot.discord.outbox.drain()
            before = text_of(scene.board(table))
            socket = ann if game.active_player == scene.id("ann") else bob
            if game.phase.value == "discard":
                picker = next(m for m in socket.state["you"]["moves"] if m["type"] == 3)
                values = [o["value"] for o in picker["options"]][: picker["min_values"]]
                result = await socket.move(picker["custom_id"], values)
            else:
                result = await socket.move(move_id(socket.state, "draw"))
            assert result["ok"] and result["note"], result
            shown = table.version
            await watcher.wait_state(lambda s: s["version"] == shown)
            await bot.discord.outbox.drain()
            assert text_of(scene.board(table)) != before

        for socket in (ann, bob, watcher):
            for state in socket.states:  # no card outside the viewer's own part
                assert not CARD.findall(public_text(state)), public_text(state)[:300]
                you = state["you"]
                assert (you is None) == (socket.user is None)
                if you is not None:
                    assert you["id"] == str(socket.user.user.id)


async def test_a_web_move_passes_the_same_checks_as_a_discord_click(fake_discord, make_web_bot):
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("ann", "bob", "cid"))
    async with fake_discord.connected(bot.discord):
        table = await scene.new_game("ann", "bob")
        channel = scene.channel.id
        async with (
            Socket(bot, channel, scene["ann"]) as ann,
            Socket(bot, channel, scene["bob"]) as bob,
            Socket(bot, channel, scene["cid"]) as cid,
            Socket(bot, channel) as watcher,
        ):
            await ann.wait_state(lambda s: s["status"] == "active")
            await bob.wait_state(lambda s: s["status"] == "active")
            await cid.wait_state(lambda s: s["status"] == "active")
            await watcher.wait_state(lambda s: s["status"] == "active")
            draw = move_id(ann.state, "draw")
            version = table.version

            refused = await watcher.move(draw)  # not signed in: watching only
            assert not refused["ok"] and "Sign in with Discord to play" in refused["note"]
            refused = await cid.move(draw)  # signed in, not seated
            assert not refused["ok"] and "not playing in this game" in refused["note"]
            waiting = move_id(bob.state, "draw")  # bob's own button, not his turn (disabled)
            refused = await bob.move(waiting)
            assert not refused["ok"] or "⚠️" in refused["note"]
            forged = await ann.move(draw.replace(":draw", ":launch:7H.7H"))
            assert not forged["ok"] and "button" in forged["note"].lower()
            other_game = await ann.move(f"apo:h:{table.id + 1}:{version}:draw")
            assert not other_game["ok"]
            assert table.version == version  # nothing changed

            played = await ann.move(draw)
            assert played["ok"] and table.version > version
            played_version = table.version
            again = await ann.move(draw)  # the same button, now outdated: told, not played
            assert again["ok"] and "moved on" in again["note"] and "⚠️" not in again["note"]
            assert table.version == played_version

            await ann.send({"type": "hello"})
            await ann.ws.send_str("{not json")
            unreadable = await ann.wait_for(
                lambda s: [m for m in s.received if m["type"] == "refused"]
            )
            assert "could not be read" in unreadable[0]["reason"]


async def test_origins_sessions_and_rates_are_checked(fake_discord, make_table, monkeypatch):
    bot = make_table()
    scene = Scene(fake_discord, bot.core, names=("ann",))
    async with serving(fake_discord, bot):
        paced = Paced(bot, monkeypatch)  # people's rates on a clock the test moves
        channel = scene.channel.id
        url = f"http://127.0.0.1:{bot.web.port}/ws"
        async with aiohttp.ClientSession() as http:
            for origin in ("https://evil.example", None):
                headers = {"Origin": origin} if origin else {}
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await http.ws_connect(url, headers=headers)
                assert refused.value.status == 403
            token = await http.post(
                f"http://127.0.0.1:{bot.web.port}/api/token",
                json={"code": "x"},
                headers={"Origin": "https://evil.example"},
            )
            assert token.status == 403

        forged = Socket(bot, channel)
        await forged.connect({"type": "hello", "channel": str(channel), "session": "a.b"})
        assert await forged.closed() == 4003
        await forged.close()
        nameless = Socket(bot, channel)
        await nameless.connect({"type": "hello", "channel": "general"})
        assert await nameless.closed() == 4003
        await nameless.close()

        # A session that ends closes its socket; an ended one is refused at hello.
        user = User(scene.id("ann"), "ann", "en-US")
        brief = Sessions("fake-client-secret", lifetime=0.3).open(user)
        ending = Socket(bot, channel)
        await ending.connect({"type": "hello", "channel": str(channel), "session": brief})
        await ending.wait_state(lambda s: s["status"] == "none")
        assert await ending.closed() == 4001
        await ending.close()
        over = Sessions("fake-client-secret", lifetime=-1).open(user)
        late = Socket(bot, channel)
        await late.connect({"type": "hello", "channel": str(channel), "session": over})
        assert await late.closed() == 4001
        await late.close()

        # Too many messages at once: the surplus is dropped, the burst told once that it
        # is too fast; two sockets of the same person share one rate.
        async with (
            Socket(bot, channel, scene["ann"]) as ann,
            Socket(bot, channel, scene["ann"]) as again,
        ):
            for socket in (ann, again):
                await socket.wait_state(lambda s: s["status"] == "none")
            for _ in range(20):
                await ann.send({"type": "ping"})
                await again.send({"type": "ping"})
            await bot_state(lambda: paced.dropped(channel) == 40 - sockets.BURST)  # all read
            paced.passes(2.5 / sockets.RATE)  # the rate allows two more: a last message on each,
            for socket in (ann, again):  # answered once all those before it were read
                await socket.send({"type": "move", "id": 99})
                await socket.wait_for(lambda s: [m for m in s.received if m.get("id") == 99])
            answers = [m for s in (ann, again) for m in s.received]
            pongs = [m for m in answers if m["type"] == "pong"]
            slow = [m for m in answers if m["type"] == "refused"]
            assert (
                len(pongs) == sockets.BURST and len(slow) == 1 and "too fast" in slow[0]["reason"]
            )


async def test_a_lobby_joined_and_started_from_the_web_is_the_channels_game(
    fake_discord, make_web_bot
):
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("ann", "bob"))
    async with fake_discord.connected(bot.discord):
        channel = scene.channel.id
        async with (
            Socket(bot, channel, scene["ann"]) as ann,
            Socket(bot, channel, scene["bob"], locale="fr") as bob,
        ):
            await bob.wait_state(lambda s: s["status"] == "none")
            await scene.cmd("apophis new", "ann")
            lobby = await bob.wait_state(lambda s: s["status"] == "lobby")
            # The lobby's buttons in each viewer's language (the channel's message in its own).
            buttons = [m["label"] for m in lobby["lobby_moves"] if m["type"] == 2]
            assert buttons[:2] == ["Rejoindre", "Quitter"]
            assert ann.state["lobby_moves"][0]["label"] == "Join"
            joined = await bob.move(move_id(lobby, "join", lobby=True))
            assert joined["ok"], joined
            await ann.wait_state(lambda s: [x["name"] for x in s["seats"]] == ["ann", "bob"])
            await bot.discord.outbox.drain()
            table = scene.live()
            assert "bob" in text_of(scene.board(table)).lower() or str(scene.id("bob")) in text_of(
                scene.board(table)
            )
            started = await ann.move(move_id(ann.state, "start", lobby=True))
            assert started["ok"], started
            state = await bob.wait_state(lambda s: s["status"] == "active")
            assert len(state["you"]["hand"]) == len(table.game.hands[1])
            await bot.discord.outbox.drain()
            assert table.game is not None and "Apophis arrives <t:" in text_of(scene.board(table))


async def test_a_lobby_click_is_told_in_the_same_words_on_discord_and_on_the_web(
    fake_discord, make_web_bot
):
    """Joining and leaving, typed on Discord and pressed on the live table: the same reply."""
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("ann", "bob"))
    async with fake_discord.connected(bot.discord):
        channel = scene.channel.id
        async with Socket(bot, channel, scene["bob"]) as bob:
            await scene.cmd("apophis new", "ann")
            lobby = await bob.wait_state(lambda s: s["status"] == "lobby")
            said = {}
            for action in ("join", "leave"):
                typed = await scene.cmd(f"apophis {action}", "bob")
                said[action] = [typed.response_data["content"]]
            for action in ("join", "leave"):
                pressed = await bob.move(move_id(lobby, action, lobby=True))
                assert pressed["ok"], pressed
                said[action].append(pressed["note"])
            assert said["join"] == [t("en", "reply.join", seated=2)] * 2, said
            assert said["leave"] == [t("en", "reply.leave")] * 2, said


async def test_clients_resume_after_a_restart(fake_discord, make_web_bot):
    fake_discord.gateway.identify_interval = 0  # a restart at once (see tests/bot/test_restart)
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("ann",))
    async with fake_discord.connected(bot.discord):
        table = await scene.new_game("ann")
        version = table.version
        socket = Socket(bot, scene.channel.id, scene["ann"])
        await socket.connect()
        await socket.wait_state(lambda s: s["version"] == version)
    assert await socket.closed() == 1012  # the bot went away: "service restart"
    await socket.close()
    again = make_web_bot()
    scene.bot = again.discord
    async with fake_discord.connected(again.discord):
        socket.bot = again
        await socket.connect()  # the same session token, after the restart
        state = await socket.wait_state(lambda s: s["status"] == "active")
        assert state["version"] == version and state["you"]["hand"]
        played = await socket.move(move_id(state, "draw"))
        assert played["ok"], played
        await socket.close()


async def test_a_failure_on_our_side_is_answered_politely_and_the_socket_stays(
    fake_discord, make_web_bot, monkeypatch, caplog
):
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("ann",))
    async with fake_discord.connected(bot.discord):
        table = await scene.new_game("ann")
        async with Socket(bot, scene.channel.id, scene["ann"]) as ann:
            await ann.wait_state(lambda s: s["status"] == "active")
            draw = move_id(ann.state, "draw")

            async def broken(*args, **kwargs):
                raise RuntimeError("a bug")

            monkeypatch.setattr(bot.core.service.commands, "act", broken)
            failed = await ann.move(draw)
            assert not failed["ok"] and "Sorry" in failed["note"], failed
            assert "web move in channel" in caplog.text
            monkeypatch.undo()
            played = await ann.move(draw)  # the same socket plays on
            assert played["ok"] and table.version > 0


async def won_alone(scene: Scene):
    """Ann's game alone, won by her first launch (built, fuelled, every die a six), played
    from Discord while nobody watches the table; its table."""
    table = await scene.new_game("ann", difficulty="easy", rules="basic")
    scene.arrange(hands=[["3H", "4H", "5H", "KS", "QS", *ALL_SUITS]], damage=2, dice=[6] * 4)
    await scene.cmd("build", "ann", colour="red", size="large")
    await scene.cmd("build", "ann", colour="yellow", size="medium")
    await scene.cmd("launch", "ann", cards=" ".join(ALL_SUITS))
    return table


async def test_an_ended_game_shows_to_those_who_open_the_table_later(fake_discord, make_web_bot):
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("ann",))
    async with fake_discord.connected(bot.discord):
        table = await won_alone(scene)
        assert not table.open and table.game.outcome.value == "destroyed"
        # Nobody was watching; someone opens the table afterwards: the result, Play again.
        async with Socket(bot, scene.channel.id, scene["ann"]) as ann:
            final = await ann.wait_state(lambda s: s["status"] == "finished")
            assert final["table"]["outcome"] == "destroyed" and final["texts"]["result"]
            again = await ann.move(move_id(final, "again", lobby=True))
            assert again["ok"], again
            lobby = await ann.wait_state(lambda s: s["status"] == "lobby")
            assert lobby["game"] != table.id and [s["name"] for s in lobby["seats"]] == ["ann"]
            await bot.discord.outbox.drain()
            assert scene.live().messages.board_id is not None  # its lobby message posted


async def test_a_viewer_reads_the_whole_table_in_their_own_language(fake_discord, make_web_bot):
    """The channel plays in English; a French player's table tells everything in French:
    its last actions (a build, the launch, the clock), its launch report and the story, as
    the channel's board tells them in English, never a line of the channel's."""
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("ann",))
    async with fake_discord.connected(bot.discord):
        table = await won_alone(scene)
        english = list(table.recent)
        async with Socket(bot, scene.channel.id, scene["ann"], locale="fr") as ann:
            final = await ann.wait_state(lambda s: s["status"] == "finished")
        recent = final["texts"]["recent"]
        assert len(recent) == len(english)
        assert "🏗️ ann a construit une section moyenne jaune 🟨." in recent, recent
        assert any(line.startswith("⏱️ Le compte à rebours s’est arrêté") for line in recent)
        assert not set(recent) & {line.replace(f"<@{scene.id('ann')}>", "ann") for line in english}
        assert t("fr", "step.fuel") in " ".join(final["report"]["lines"])
        assert final["story"]["headline"].startswith("🎉 Victoire")
        (launch,) = final["story"]["launches"]
        assert launch["line"].startswith("1. ann\u202f: ")  # who launched, by name
        (firsts,) = final["story"]["firsts"]  # and the firsts it earned, by name (not "<@…>")
        assert firsts.startswith("🏅 ann\u202f: première victoire, ")


async def test_the_table_counts_who_watches_without_a_seat(fake_discord, make_web_bot):
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("ann", "bob", "cid"))
    async with fake_discord.connected(bot.discord):
        await scene.new_game("ann", "bob")
        channel = scene.channel.id
        async with Socket(bot, channel, scene["ann"]) as ann:
            await ann.wait_state(lambda s: s["status"] == "active" and s["watching"] == 0)
            async with Socket(bot, channel, scene["cid"]) as cid:  # not seated: watching
                await ann.wait_state(lambda s: s["watching"] == 1)
                async with Socket(bot, channel, scene["bob"]) as bob:  # seated: playing
                    state = await bob.wait_state(lambda s: s["status"] == "active")
                    assert state["watching"] == 1
                assert (await cid.wait_state(lambda s: s["watching"] == 1))["watching"] == 1
            await ann.wait_state(lambda s: s["watching"] == 0)


class _Account:
    """A Discord account as tests.web.helpers.Socket signs it in (a member has `.user`)."""

    def __init__(self, user) -> None:
        self.user = user


OUTSIDERS = ("another server's member", "no shared server", "cannot see", "cannot post")


async def outsiders(fake_discord, scene) -> dict[str, tuple[_Account, str]]:
    """Four accounts that may not play at the scene's table, and why each is told."""
    elsewhere = fake_discord.add_guild("Elsewhere")
    hid, mute = (
        fake_discord.add_member(scene.guild, "hid"),
        fake_discord.add_member(scene.guild, "mute"),
    )
    await fake_discord.set_permissions(scene.channel, hid, deny=1 << 10)
    await fake_discord.set_permissions(scene.channel, mute, deny=1 << 11)
    return {
        OUTSIDERS[0]: (_Account(fake_discord.add_member(elsewhere, "stranger").user), "not one"),
        OUTSIDERS[1]: (_Account(fake_discord.add_user("loner")), "not one of them"),
        OUTSIDERS[2]: (_Account(hid.user), "cannot see this channel"),
        OUTSIDERS[3]: (_Account(mute.user), "cannot send messages in this channel"),
    }


@pytest.mark.parametrize("command", ["join", "start", "move"])
async def test_an_outsiders_web_command_is_refused_by_name_and_a_members_succeeds(
    fake_discord, make_web_bot, command
):
    """Who may act at a channel's table from the web is who may on Discord: a member of the
    server who can see the channel and post there. An account outside the server, one that
    shares no server with the bot, a member who cannot see the channel and one who cannot
    post there are each told why, and nothing changes; the member beside them succeeds."""
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("ann", "bob"))
    refused_ones = await outsiders(fake_discord, scene)
    async with fake_discord.connected(bot.discord):
        await scene.cmd("apophis new", "ann", difficulty="easy")
        table = scene.live()
        channel = scene.channel.id
        if command == "move":
            await scene.cmd("apophis join", "bob")
            await scene.cmd("apophis start", "ann", first=scene["ann"])
        for account, reason in refused_ones.values():
            async with Socket(bot, channel, account) as socket:
                state = await socket.wait_state(lambda s: s["status"] in ("lobby", "active"))
                if command == "move":  # ann's Draw, as if theirs
                    custom_id = f"apo:h:{table.id}:{table.version}:draw"
                else:
                    custom_id = move_id(state, command, lobby=True)
                before = (list(table.seats), table.status, table.version)
                refused = await socket.move(custom_id)
                assert not refused["ok"] and reason in refused["note"], refused
                assert (table.seats, table.status, table.version) == before
        who = "bob" if command == "join" else "ann"  # a member: done
        version = table.version
        async with Socket(bot, channel, scene[who]) as member:
            state = await member.wait_state(lambda s: s["status"] in ("lobby", "active"))
            if command == "move":
                done = await member.move(move_id(state, "draw"))
            else:
                done = await member.move(move_id(state, command, lobby=True))
            assert done["ok"], done
        if command == "join":
            assert table.seats == [scene.id("ann"), scene.id("bob")]
        elif command == "start":
            assert table.status == "active"
        else:
            assert table.version > version


async def test_a_private_channels_table_is_for_those_who_may_see_the_channel(
    fake_discord, make_web_bot
):
    """A channel open to the whole server has a public table, watched from its link; one
    that is not is watched only by a signed-in member who may see it: anyone else is told
    why, and their socket closes without a state."""
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("ann", "bob"))
    elsewhere = fake_discord.add_guild("Elsewhere")
    stranger = _Account(fake_discord.add_member(elsewhere, "stranger").user)
    everyone = scene.guild.roles[scene.guild.id]
    await fake_discord.set_permissions(scene.channel, everyone, deny=1 << 10)
    for member in (scene["ann"], fake_discord.world.bot):
        await fake_discord.set_permissions(scene.channel, member, allow=1 << 10)
    async with fake_discord.connected(bot.discord):
        await scene.cmd("apophis new", "ann")
        channel = scene.channel.id
        refusals = {
            None: "sign in with Discord to watch",
            stranger: "not one of them",
            _Account(scene["bob"].user): "cannot see this channel",
        }
        for account, reason in refusals.items():
            socket = Socket(bot, channel, account)
            await socket.connect()
            assert await socket.closed() == 4003
            assert [m["type"] for m in socket.received] == ["refused"], socket.received
            assert reason in socket.received[0]["reason"], socket.received
            await socket.close()
        async with Socket(bot, channel, scene["ann"]) as ann:  # she may see it: she watches
            state = await ann.wait_state(lambda s: s["status"] == "lobby")
            assert [seat["name"] for seat in state["seats"]] == ["ann"]


async def test_play_again_on_the_channels_table_for_a_game_played_in_its_thread(
    fake_discord, make_web_bot
):
    """The channel's live table shows the game its thread played, and its Play again works
    there: a button the table offers works where it is shown (it was refused as "another
    channel's game")."""
    from tests.bot.test_threads import scene_with_admin, start_in_thread

    bot = make_web_bot()
    scene = scene_with_admin(fake_discord, bot.discord)
    parent = scene.channel
    async with fake_discord.connected(bot.discord):
        await scene.cmd("apophis config", "boss", threads=True)
        thread = await start_in_thread(scene, "ann", "bob")
        table = bot.core.service.by_channel[thread.id]
        async with Socket(bot, parent.id, scene["bob"]) as bob:
            await bob.wait_state(lambda s: s["status"] == "active")
            table.deadline = bot.core.service.now() - 1  # the clock runs out as ann plays on
            await scene.cmd("draw", "ann", channel=thread)
            final = await bob.wait_state(lambda s: s["status"] != "active")
            again = await bob.move(move_id(final, "again", lobby=True))
            assert again["ok"], again
            lobby = await bob.wait_state(lambda s: s["status"] == "lobby")
        new = bot.core.service.by_channel[parent.id]
        assert lobby["game"] == new.id and new.host_id == scene.id("bob")
        assert new.invited == [scene.id("ann")]


async def test_a_signal_from_the_tables_say_menu_reaches_the_team_in_each_ones_language(
    fake_discord, make_web_bot
):
    """Bob, out of turn, picks "I'll build ♥" in his table's Say menu: the move answers
    him, every viewer's table shows it under his name in their own language (Ann's French),
    and the channel's board beside his seat; the game did not move."""
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("ann", "bob"))
    async with fake_discord.connected(bot.discord):
        table = await scene.new_game("ann", "bob")
        channel = scene.channel.id
        async with (
            Socket(bot, channel, scene["ann"], locale="fr") as ann,
            Socket(bot, channel, scene["bob"]) as bob,
        ):
            state = await bob.wait_state(lambda s: s["status"] == "active")
            menu = state["you"]["say"]
            assert all(not m.get("custom_id", "").endswith(":say") for m in state["you"]["moves"])
            assert {"value": "build.red", "label": "I'll build ♥"}.items() <= next(
                o for o in menu["options"] if o["value"] == "build.red"
            ).items()
            version = table.version
            result = await bob.move(menu["custom_id"], ["build.red"])
            assert result["ok"] and result["note"] == "💬 You told the team: I'll build ♥"
            seen = await ann.wait_state(lambda s: s["seats"][1]["said"] is not None)
            assert seen["seats"][1]["said"] == "Je construis ♥" and seen["version"] == version
            await bob.wait_state(lambda s: s["seats"][1]["said"] == "I'll build ♥")
            refused = await bob.move(menu["custom_id"], ["hold.red.7"])
            assert refused["note"].startswith("⚠️") and "your hand" in refused["note"]  # told why
        await bot.discord.outbox.drain()
        assert f"💬 <@{scene.id('bob')}>: I'll build ♥" in text_of(scene.board(table))
