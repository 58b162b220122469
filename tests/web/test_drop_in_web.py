"""A drop-in from the live table: the board's Join, offered in the state to a member not
seated while a seat is free, sent from the web, takes a crewmate's seat or one left empty;
and the lobby's first-game offer, said in the state in each reader's language."""

from __future__ import annotations

import pytest

from bot.i18n.catalogs import t
from bot.views.balance import FIRST_GAMES
from tests.bot.helpers import Scene
from tests.store.test_records_store import Games
from tests.web.helpers import Socket

pytestmark = pytest.mark.e2e
LOCALES = {"en": "en-US", "fr": "fr"}


def join_of(state: dict) -> str | None:
    """The custom id of the Join a state offers its viewer (None: none)."""
    moves = state["lobby_moves"]
    return next((m["custom_id"] for m in moves if m["custom_id"].endswith(":join")), None)


async def test_a_viewer_of_the_live_table_takes_a_crewmates_seat(fake_discord, make_web_bot):
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("ann", "bob"))
    async with fake_discord.connected(bot.discord):
        lobby = (await scene.cmd("apophis new", "ann")).message
        await scene.click(lobby, "crewadd", "ann")
        await scene.cmd("apophis start", "ann", first=scene["ann"])
        table = scene.live()
        hand = list(table.game.hands[1])
        async with Socket(bot, scene.channel.id, scene["bob"]) as bob:
            await bob.wait_state(lambda s: s["status"] == "active")
            joined = await bob.move(f"apo:b:{table.id}:{table.version}:join")
            assert joined["ok"] and "You took a crewmate's seat" in joined["note"], joined
            state = await bob.wait_state(lambda s: (s.get("you") or {}).get("seated"))
            assert len(state["you"]["hand"]) == len(hand)
            assert table.game.players == [scene.id("ann"), scene.id("bob")]
            assert table.game.hands[1] == hand


@pytest.mark.parametrize("language", ["en", "fr"])
async def test_join_is_offered_to_a_member_not_seated_and_gone_once_seated(
    fake_discord, make_web_bot, language
):
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("ann", "bob"))
    locale = LOCALES[language]
    async with fake_discord.connected(bot.discord):
        lobby = (await scene.cmd("apophis new", "ann")).message
        await scene.click(lobby, "crewadd", "ann")
        await scene.cmd("apophis start", "ann", first=scene["ann"])
        table = scene.live()
        hand = sorted(table.game.hands[1])
        async with (
            Socket(bot, scene.channel.id, scene["ann"], locale=locale) as ann,
            Socket(bot, scene.channel.id, scene["bob"], locale=locale) as bob,
            Socket(bot, scene.channel.id) as watcher,  # not signed in: nothing to join with
        ):
            offered = await bob.wait_state(lambda s: s["status"] == "active")
            join = join_of(offered)
            assert join is not None, offered["lobby_moves"]
            assert offered["lobby_moves"][0]["label"] == t(language, "button.join")
            crew = t(language, "drop_in.crewmate", name="🤖 Robot 1")
            assert offered["you"] == {"id": str(scene.id("bob")), "seated": False, "drop_in": crew}
            seated = await ann.wait_state(lambda s: s["status"] == "active")
            assert join_of(seated) is None and "drop_in" not in seated["you"]
            watching = await watcher.wait_state(lambda s: s["status"] == "active")
            assert watching["lobby_moves"] == [] and watching["you"] is None

            joined = await bob.move(join)  # the custom id its state offered
            assert joined["ok"], joined
            mine = await bob.wait_state(lambda s: "hand" in (s.get("you") or {}))
            assert sorted(card["card"] for card in mine["you"]["hand"]) == hand
            assert join_of(mine) is None and "drop_in" not in mine["you"]
            # The others are told who took the seat, in one line, never the cards.
            told = t(language, "event.seat_taken", player="bob", seat="🤖 Robot 1", count=len(hand))
            others = await ann.wait_state(lambda s: told in s["texts"]["recent"])
            shown = [card["label"] for card in mine["you"]["hand"]]
            assert not any(c in line for line in others["texts"]["recent"] for c in shown)
            assert join_of(others) is None  # every seat is a person's now
            latest = await watcher.wait_state(lambda s: s["version"] == mine["version"])
            assert join_of(latest) is None


async def test_a_seat_someone_left_is_offered_and_said_as_empty(fake_discord, make_web_bot):
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("ann", "bob", "cid"))
    async with fake_discord.connected(bot.discord):
        await scene.new_game("ann", "bob")
        async with Socket(bot, scene.channel.id, scene["cid"], locale="fr") as cid:
            full = await cid.wait_state(lambda s: s["status"] == "active")
            assert join_of(full) is None and "drop_in" not in full["you"]
            await scene.leave_game("bob")
            free = await cid.wait_state(lambda s: join_of(s) is not None)
            assert free["you"]["drop_in"] == t("fr", "drop_in.empty")
            joined = await cid.move(join_of(free))
            assert joined["ok"], joined
            mine = await cid.wait_state(lambda s: "hand" in (s.get("you") or {}))
            assert mine["you"]["hand"] == [] and join_of(mine) is None


@pytest.mark.first_games
@pytest.mark.parametrize("language", ["en", "fr"])
async def test_the_lobby_says_why_it_offers_a_first_games_difficulty(
    fake_discord, make_web_bot, language
):
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("ann", "bob"))
    async with fake_discord.connected(bot.discord):
        await scene.cmd("apophis new", "ann")  # a server whose team has never won
        table = scene.live()
        assert table.offer is not None and table.difficulty == FIRST_GAMES
        async with Socket(bot, scene.channel.id, scene["bob"], locale=LOCALES[language]) as watcher:
            state = await watcher.wait_state(lambda s: s["status"] == "lobby")
            difficulty = t(language, f"difficulty.{FIRST_GAMES}")
            said = t(language, str(table.offer), difficulty=difficulty).replace("**", "")
            assert state["offer"] == said and difficulty in said
            await scene.cmd("apophis start", "ann")
            started = await watcher.wait_state(lambda s: s["status"] == "active")
            assert started["offer"] is None  # said in the lobby only


@pytest.mark.first_games
async def test_a_new_hosts_lobby_says_why_in_the_readers_language(fake_discord, make_web_bot):
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("ann", "bob"))
    async with fake_discord.connected(bot.discord):
        await Games(scene.bot.store).win([scene.id("bob")], guild=scene.guild.id)  # not ann
        await scene.cmd("apophis new", "ann")
        assert scene.live().offer == "first.host"
        async with Socket(bot, scene.channel.id, scene["bob"], locale="fr") as watcher:
            state = await watcher.wait_state(lambda s: s["status"] == "lobby")
            assert state["offer"].startswith("🌱 L’hôte n’a pas encore gagné de partie")
            assert "Débutant" in state["offer"] and "**" not in state["offer"]


@pytest.mark.first_games
async def test_a_lobby_opened_at_a_chosen_difficulty_says_no_offer(fake_discord, make_web_bot):
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("ann",))
    async with fake_discord.connected(bot.discord):
        await scene.cmd("apophis new", "ann", difficulty="hard")
        async with Socket(bot, scene.channel.id) as watcher:
            state = await watcher.wait_state(lambda s: s["status"] == "lobby")
            assert state["offer"] is None
