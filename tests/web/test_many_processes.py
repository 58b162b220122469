"""Any process serves any table: a live table on a process that does not own the game.

Two processes of one bot on one PostgreSQL database against the fake Discord (2 shards):
the owner logs in to Discord for shard 1, where the game's server is; the other serves the
live table alone (APOPHIS_DISCORD=off, owning no shard). A socket on each sees the same
game; a move sent through the other lands once, on the owner, and both sockets see it; a
hand reaches its own player only; an outsider is refused on both; with the owner stopped,
a move through the other is refused with a reason, and nothing changes.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.game.relay import GAMES
from bot.i18n.catalogs import t
from bot.store.store import Store
from tests.bot.helpers import Scene
from tests.web.conftest import serving, shared_process
from tests.web.helpers import Socket, move_id

pytestmark = pytest.mark.e2e


def public(state: dict) -> dict:
    """What every viewer of a state shares, without what moves with the clock."""
    return {k: v for k, v in state.items() if k not in {"you", "now", "clock"}}


async def test_a_table_on_another_process_shows_and_plays_the_owners_game(
    fake_discord, postgres_url
):
    owner = shared_process(fake_discord, postgres_url, APOPHIS_SHARD_IDS="1")
    other = shared_process(fake_discord, postgres_url, APOPHIS_DISCORD="off")
    scene = Scene(fake_discord, owner.discord, names=("ann", "bob", "cid"), shard=(1, 2))
    zed = fake_discord.add_user("zed")  # no member of the server
    async with fake_discord.connected(owner.discord), serving(fake_discord, other):
        lobby = (await scene.cmd("apophis new", "ann")).message
        await scene.click(lobby, "join", "bob")
        await scene.cmd("apophis start", "ann", first=scene["ann"])
        table = scene.live()
        channel = scene.channel.id
        async with (
            Socket(other, channel, scene["ann"]) as ann_there,
            Socket(owner, channel, scene["ann"]) as ann_here,
            Socket(other, channel, scene["bob"]) as bob_there,
        ):
            there = await ann_there.wait_state(lambda s: s["status"] == "active")
            here = await ann_here.wait_state(lambda s: s["status"] == "active")
            assert public(there) == public(here) and here["watching"] == 0
            async with Socket(other, channel, scene["cid"]):  # a member watching there
                here = await ann_here.wait_state(lambda s: s["watching"] == 1)
                there = await ann_there.wait_state(lambda s: s["watching"] == 1)
            assert public(there) == public(here)
            await ann_here.wait_state(lambda s: s["watching"] == 0)  # gone: said so
            assert there["you"] == here["you"]
            bobs = await bob_there.wait_state(lambda s: s["status"] == "active")
            assert len(bobs["you"]["hand"]) == len(table.game.hands[1])

            version = table.version
            draw = move_id(there, "draw")
            # The same Draw sent through both processes at once: applied once, on the owner.
            done, again = await asyncio.gather(ann_there.move(draw), ann_here.move(draw))
            assert done["ok"] and again["ok"], (done, again)
            assert table.version == version + 1
            assert t("en", "note.moved_on") in (done["note"], again["note"])
            moved = await ann_there.wait_state(lambda s: s["version"] == version + 1)
            seen = await ann_here.wait_state(lambda s: s["version"] == version + 1)
            assert public(moved) == public(seen) and moved["you"] == seen["you"]
            assert len(moved["you"]["hand"]) == len(table.game.hands[0]) > len(there["you"]["hand"])
            await bob_there.wait_state(lambda s: s["version"] == version + 1)
            for raw in bob_there.raw:  # ann's cards never reach bob's socket
                assert not any(f'"card":"{card}"' in raw for card in cards(moved) - cards(bobs))

        for app in (other, owner):  # an outsider is refused on every process
            async with Socket(app, channel, zed) as outsider:
                state = await outsider.wait_state(lambda s: s["status"] == "active")
                answer = await outsider.move(*discard(moved))
                assert answer["note"] == "⚠️ " + t("en", "seat.not_member"), answer
                assert "you" not in state or not (state["you"] or {}).get("hand")
        assert table.version == version + 1

    # The owner stopped: a move through the other is refused with a reason; nothing changes.
    alone = shared_process(fake_discord, postgres_url, APOPHIS_DISCORD="off")
    async with serving(fake_discord, alone), Socket(alone, channel, scene["ann"]) as ann:
        state = await ann.wait_state(lambda s: s["status"] == "active")
        answer = await ann.move(*discard(state))
        assert answer["note"] == "⚠️ " + t("en", "error.owner_away"), answer
    store = await Store.open(postgres_url)
    try:
        assert (await store.get_game(table.id)).version == version + 1
    finally:
        await store.close()


def discard(state: dict) -> tuple[str, list[str]]:
    """The discard a state asks its player for, with the cards it may take."""
    move = next(m for m in state["you"]["moves"] if m["custom_id"].endswith(":discard"))
    count = move.get("min_values", 1)
    return move["custom_id"], [option["value"] for option in move["options"][:count]]


def cards(state: dict) -> set[str]:
    return {card["card"] for card in state["you"]["hand"]}


async def test_an_activity_in_a_group_dm_opens_and_plays_its_game_on_its_owner(
    fake_discord, postgres_url
):
    ann, bob = fake_discord.add_user("ann"), fake_discord.add_user("bob")
    group = fake_discord.add_group_dm(ann, bob, shard=(1, 2))  # a game of shard 1's process
    owner = shared_process(fake_discord, postgres_url, APOPHIS_SHARD_IDS="1")
    other = shared_process(fake_discord, postgres_url, APOPHIS_DISCORD="off")
    async with fake_discord.connected(owner.discord), serving(fake_discord, other):
        instance = fake_discord.launch_activity(group, ann, bob)
        async with (
            Socket(other, 0, ann, instance=instance) as host,
            Socket(owner, 0, bob, instance=instance) as guest,
        ):
            await host.wait_state(lambda s: s["status"] == "none")
            opened = await host.move("apo:b:0:0:open")
            assert opened["ok"] and opened["note"] == t("en", "web.opened"), opened
            table = owner.core.service.by_channel[group.id]  # created on its owner
            assert group.id not in other.core.service.by_channel
            lobby = await guest.wait_state(lambda s: s["status"] == "lobby")
            await host.wait_state(lambda s: s["status"] == "lobby")
            assert (await guest.move(move_id(lobby, "join", lobby=True)))["ok"]
            seated = await host.wait_state(lambda s: len(s["seats"]) == 2)
            assert (await host.move(move_id(seated, "start", lobby=True)))["ok"]
            playing = await host.wait_state(lambda s: s["status"] == "active")
            assert table.status == "active" and playing["version"] == table.version
            await guest.wait_state(lambda s: s["status"] == "active")


async def test_three_processes_serve_each_others_tables(fake_discord, postgres_url):
    """Shards 0 and 1 each on a process of their own, and the live table alone: a game in each
    shard is watched and played through each of the three, and lands on its own owner."""
    owners = [shared_process(fake_discord, postgres_url, APOPHIS_SHARD_IDS=str(k)) for k in (0, 1)]
    alone = shared_process(fake_discord, postgres_url, APOPHIS_DISCORD="off")
    scenes = [
        Scene(fake_discord, owners[k].discord, names=("ann", "bob"), shard=(k, 2)) for k in (0, 1)
    ]
    async with (
        fake_discord.connected(owners[0].discord),
        fake_discord.connected(owners[1].discord),
        serving(fake_discord, alone),
    ):
        tables = []
        for scene in scenes:
            await scene.cmd("apophis new", "ann")
            await scene.click(await scene.shown(), "join", "bob")
            await scene.cmd("apophis start", "ann", first=scene["ann"])
            tables.append(scene.live())
        for k, (scene, table) in enumerate(zip(scenes, tables, strict=True)):
            assert table.id in owners[k].core.service.tables
            assert table.id not in owners[1 - k].core.service.tables
            for app in (owners[1 - k], alone):  # the other owner, and the table alone
                async with Socket(app, scene.channel.id, scene["ann"]) as ann:
                    state = await ann.wait_state(lambda s, v=table.version: s["version"] == v)
                    version = table.version
                    move, values = next_move(state)
                    done = await ann.move(move, values)
                    assert done["ok"] and table.version == version + 1, done
                    await ann.wait_state(lambda s, v=version: s["version"] == v + 1)


def next_move(state: dict) -> tuple[str, list[str] | None]:
    """Ann's move: a Draw when it is offered, else the discard it made due."""
    ids = [m["custom_id"] for m in state["you"]["moves"]]
    draw = next((i for i in ids if i.endswith(":draw")), None)
    return (draw, None) if draw is not None else discard(state)


async def test_a_table_catches_up_after_its_notices_connection_was_lost(fake_discord, postgres_url):
    """Notices are not stored: one sent while the listener's connection is down is never
    heard, so the game is read again once the connection is made again."""
    owner = shared_process(fake_discord, postgres_url, APOPHIS_SHARD_IDS="1")
    other = shared_process(fake_discord, postgres_url, APOPHIS_DISCORD="off")
    scene = Scene(fake_discord, owner.discord, names=("ann", "bob"), shard=(1, 2))
    async with fake_discord.connected(owner.discord), serving(fake_discord, other):
        await scene.cmd("apophis new", "ann")
        await scene.click(await scene.shown(), "join", "bob")
        await scene.cmd("apophis start", "ann", first=scene["ann"])
        table = scene.live()
        async with Socket(other, scene.channel.id, scene["bob"]) as bob:
            await bob.wait_state(lambda s: s["version"] == table.version)
            notices = other.core.service.relay.notices
            pid = notices._conn.get_server_pid()
            relay = owner.core.service.relay
            told = relay._notify

            async def lost(channel: str, text: str) -> None:  # the game's notice never heard
                if channel != GAMES:
                    await told(channel, text)

            # every game notice lost until the table has caught up, so that a later one
            # (the game's next change) cannot be what brings it up to date
            relay._notify = lost
            try:
                await scene.cmd("draw", "ann")
                assert other.core.service.mirrors.by_id[table.id].version == table.version - 1
                store = await Store.open(postgres_url)
                try:  # the listener's connection cut by the server, as by a network fault
                    await store._db._pool.execute("SELECT pg_terminate_backend($1)", pid)
                finally:
                    await store.close()
                caught_up = await bob.wait_state(lambda s: s["version"] == table.version, 10)
            finally:
                relay._notify = told
            assert caught_up["seats"] and notices._conn.get_server_pid() != pid


async def test_everyone_arriving_at_once_shares_one_read(fake_discord, postgres_url):
    """A web process stops and its players reconnect to another all at once: the game of a
    channel is read once for everyone arriving together."""
    owner = shared_process(fake_discord, postgres_url, APOPHIS_SHARD_IDS="1")
    other = shared_process(fake_discord, postgres_url, APOPHIS_DISCORD="off")
    scene = Scene(fake_discord, owner.discord, names=("ann", "bob"), shard=(1, 2))
    async with fake_discord.connected(owner.discord), serving(fake_discord, other):
        await scene.cmd("apophis new", "ann")
        table = scene.live()
        store = other.core.store
        reads = []
        read = store.game_as_told

        async def counted(*args):
            reads.append(args)
            return await read(*args)

        store.game_as_told = counted
        sockets = [Socket(other, scene.channel.id) for _ in range(8)]
        await asyncio.gather(*(s.connect() for s in sockets))
        try:
            for socket in sockets:
                await socket.wait_state(lambda s: s["status"] == "lobby")
        finally:
            await asyncio.gather(*(s.close() for s in sockets))
        assert reads == [(table.id, 0)]
