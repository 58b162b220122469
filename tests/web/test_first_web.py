"""A newcomer's first game on the live table: the welcome Discord shows once, privately (a
rocket that can launch, its line), is in the newcomer's own state until they close it, in
their language; never in anyone else's, nor again once shown in Discord or closed."""

from __future__ import annotations

import pytest

from bot.i18n.catalogs import t
from bot.pictures import first_rocket
from tests.bot.helpers import Scene
from tests.store.test_records_store import Games
from tests.web.helpers import Socket, move_id

pytestmark = [pytest.mark.e2e, pytest.mark.first_games]
LOCALES = {"en": "en-US", "fr": "fr"}


def first(state: dict) -> dict | None:
    return (state.get("you") or {}).get("first")


@pytest.mark.parametrize("language", ["en", "fr"])
async def test_a_newcomer_seated_from_the_table_is_welcomed_there_once(
    fake_discord, make_web_bot, language
):
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("ann", "bob", "cid"))
    async with fake_discord.connected(bot.discord):
        await scene.cmd("apophis new", "ann")  # ann is welcomed in Discord, as she opens it
        table = scene.live()
        locale = LOCALES[language]
        async with (
            Socket(bot, scene.channel.id, scene["ann"], locale=locale) as ann,
            Socket(bot, scene.channel.id, scene["bob"], locale=locale) as bob,
            Socket(bot, scene.channel.id, scene["cid"], locale=locale) as cid,
            Socket(bot, scene.channel.id) as watcher,
        ):
            lobby = await bob.wait_state(lambda s: s["status"] == "lobby")
            assert first(lobby) is None  # not seated yet
            joined = await bob.move(move_id(lobby, "join", lobby=True))
            assert joined["ok"], joined
            welcomed = await bob.wait_state(lambda s: first(s) is not None)
            assert first(welcomed) == {
                "line": t(language, "first.welcome"),
                "alt": first_rocket.describe(language),
            }
            for other in (ann, cid, watcher):  # only bob's: ann was shown it in Discord
                seen = await other.wait_state(lambda s: len(s["seats"]) == 2)
                assert first(seen) is None
            await bob.send({"type": "welcomed"})
            await scene.cmd("apophis start", "ann")
            started = await bob.wait_state(lambda s: s["status"] == "active")
            assert first(started) is None and not any(first(s) for s in bob.states[-1:])
            assert scene.id("bob") in table.welcomed


async def test_a_newcomer_who_has_not_closed_it_still_sees_it_in_play(fake_discord, make_web_bot):
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("ann", "bob"))
    async with fake_discord.connected(bot.discord):
        await scene.cmd("apophis new", "ann")
        async with Socket(bot, scene.channel.id, scene["bob"]) as bob:
            lobby = await bob.wait_state(lambda s: s["status"] == "lobby")
            await bob.move(move_id(lobby, "join", lobby=True))
            await scene.cmd("apophis start", "ann")
            state = await bob.wait_state(lambda s: s["status"] == "active")
            assert first(state) is not None and "hand" in state["you"]
            shown = first(state)["line"] + first(state)["alt"]
            hand = {card["label"] for card in state["you"]["hand"]}
            assert not any(label in shown for label in hand)  # no card of his in it


async def test_no_welcome_for_someone_who_has_played_before(fake_discord, make_web_bot):
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("ann", "bob"))
    async with fake_discord.connected(bot.discord):
        await Games(scene.bot.store).win([scene.id("bob")], guild=scene.guild.id)
        await scene.cmd("apophis new", "ann")
        async with Socket(bot, scene.channel.id, scene["bob"]) as bob:
            lobby = await bob.wait_state(lambda s: s["status"] == "lobby")
            await bob.move(move_id(lobby, "join", lobby=True))
            seated = await bob.wait_state(lambda s: s["you"]["seated"])
            assert first(seated) is None
