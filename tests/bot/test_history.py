"""/apophis history through the fake Discord: a server's last ten ended games, newest first,
in public without pinging anyone, in the reader's language; and each result in words."""

from __future__ import annotations

import dataclasses
import re

import pytest

from bot.i18n.catalogs import NARROW_SPACE
from bot.store.records import GameRecord
from bot.store.store import Store
from bot.views import history
from engine import Game
from tests.bot.helpers import CARD, Scene, text_of
from tests.bot.test_replay import played_and_lost
from tests.engine.helpers import table as position
from tests.store.helpers import commit, start

pytestmark = pytest.mark.e2e
ALL_SUITS = ["2C", "2H", "2D", "2S"]


def numbers(message) -> list[int]:
    """The game numbers a history lists, in its order."""
    return [int(n) for n in re.findall(r"\*\*(?:#|n° )(\d+)\*\*", message.embeds[0]["description"])]


async def test_history_lists_the_last_ten_games_newest_first_in_public_without_pings(
    fake_discord, make_bot
):
    bot = make_bot()
    scene = Scene(fake_discord, bot)
    elsewhere = Scene(fake_discord, bot, names=("eve",))
    async with fake_discord.connected(bot):
        await elsewhere.new_game("eve")
        await elsewhere.cmd("apophis end", "eve")  # another server's game
        ended = []
        for _ in range(10):
            ended.append((await scene.new_game("ann")).id)
            await scene.cmd("apophis end", "ann")
        lobby = await scene.cmd("apophis new", "ann", rules="advanced", difficulty="hard")
        await scene.click(lobby.message, "crewadd", "ann")
        await scene.cmd("apophis start", "ann", first=scene["ann"])
        crewed = scene.live().id
        await scene.cmd("apophis end", "ann")
        lost = (await played_and_lost(scene)).id
        await scene.cmd("apophis new", "ann")
        await scene.cmd("apophis end", "ann")  # a lobby that never started: no game
        await scene.new_game("ann")  # one in play: not ended yet
        reply = await scene.cmd("apophis history", "bob")
    message = reply.message
    assert not reply.ephemeral and not message.notified  # for everyone, pinging nobody
    assert numbers(message) == [lost, crewed, *reversed(ended[2:])]
    lines = message.embeds[0]["description"].splitlines()
    ann, bob = scene.id("ann"), scene.id("bob")
    assert lines[0].startswith(f"**#{lost}** · 💥 Lost: damage 0/3, deflection 0/5 · ")
    assert f"basic rules, medium · <@{ann}>, <@{bob}> · <t:" in lines[0]
    assert re.search(r"⏹️ Ended with (7:5\d|8:00) left: damage 0/3 · advanced rules, hard", lines[1])
    assert f"<@{ann}>, 🤖 Robot 1" in lines[1] and "deflection" not in lines[1]
    assert "/apophis replay" in message.embeds[0]["footer"]["text"]
    assert not CARD.findall(text_of(message))


async def test_history_speaks_the_readers_language_and_says_when_there_is_none(
    fake_discord, make_bot
):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob", "cid"))
    scene["cid"].user.locale = "fr"
    async with fake_discord.connected(bot):
        empty = text_of((await scene.cmd("apophis history", "ann")).message)
        vide = text_of((await scene.cmd("apophis history", "cid")).message)
        lost = (await played_and_lost(scene)).id
        french = (await scene.cmd("apophis history", "cid")).message
    assert "No game has ended on this server yet" in empty
    assert "Aucune partie ne s’est encore terminée" in vide
    text = text_of(french)
    assert "Les dernières parties de ce serveur" in text
    assert f"**n° {lost}** · 💥 Perdue{NARROW_SPACE}: dégâts 0/3, déviation 0/5" in text
    assert "règles de base, intermédiaire" in text
    assert numbers(french) == [lost]
    assert "/apophis revoir" in french.embeds[0]["footer"]["text"]


@pytest.fixture
async def stored(tmp_path) -> GameRecord:
    """An ended game as the store gives it (the host ended it at once)."""
    store = await Store.open(tmp_path / "apophis.sqlite3")
    try:
        record, game = await start(store, [1, 2], channel=1)
        await commit(store, record.id, 0, game, {"type": "end", "reason": "host"}, now=1_000.0)
        return await store.get_game(record.id)
    finally:
        await store.close()


@pytest.mark.parametrize(
    ("outcome", "rules", "position", "english", "french"),
    [
        (
            "destroyed",
            "basic",
            (3, 0),
            "🏆 Apophis destroyed with 2:05 left",
            "🏆 Apophis détruit, il restait 2:05",
        ),
        (
            "deflected",
            "basic",
            (0, 5),
            "🏆 Apophis deflected with 2:05 left",
            "🏆 Apophis dévié, il restait 2:05",
        ),
        (
            "lost",
            "basic",
            (2, 3),
            "💥 Lost: damage 2/3, deflection 3/5",
            f"💥 Perdue{NARROW_SPACE}: dégâts 2/3, déviation 3/5",
        ),
        ("lost", "advanced", (2, 0), "💥 Lost: damage 2/3", f"💥 Perdue{NARROW_SPACE}: dégâts 2/3"),
        (
            "abandoned",
            "basic",
            (1, 0),
            "⏹️ Ended with 2:05 left: damage 1/3, deflection 0/5",
            f"⏹️ Arrêtée, il restait 2:05{NARROW_SPACE}: dégâts 1/3, déviation 0/5",
        ),
    ],
)
def test_each_result_says_the_time_left_or_how_far_short_it_fell(
    stored, outcome, rules, position, english, french
):
    game = Game.new([1, 2], rules, seed=1)
    game.damage, game.counters = position  # the table as the game ended
    record = dataclasses.replace(
        stored,
        settings=dataclasses.replace(stored.settings, rules=rules),
        outcome=outcome,
        state=game.save(),
        clock_remaining=125.0,
    )
    assert history.result_text(record, "en") == english
    assert history.result_text(record, "fr") == french


@pytest.mark.parametrize("launcher", [2, -1])  # a person, a crewmate
def test_a_won_game_says_whose_launch_won_it(stored, launcher):
    players = (1, launcher)
    game = position(
        players=players,
        hands=[[], ALL_SUITS],
        rocket=[("red", 3), ("yellow", 1)],
        damage=2,
        dice=[6, 6],
        active=1,
    )
    game.launch(launcher, ALL_SUITS)
    assert game.outcome is not None and game.outcome.won
    record = dataclasses.replace(
        stored, outcome=game.outcome.value, state=game.save(), clock_remaining=125.0
    )
    named = "<@2>" if launcher == 2 else "🤖 Robot 1"
    english = f"🏆 Apophis destroyed by {named}'s launch with 2:05 left"
    assert history.result_text(record, "en") == english
    french = f"🏆 Apophis détruit par le lancement de {named}, il restait 2:05"
    assert history.result_text(record, "fr") == french
