"""Languages through the fake Discord: a French table, a mixed table, the coloured deck."""

from __future__ import annotations

import re
import string

import discord
import pytest

from bot.discord.pings import WAIT_BEFORE_PING
from bot.game.audience import Audience
from tests.bot.helpers import (
    Scene,
    answer_text,
    bot_state,
    text_of,
)
from tests.i18n.test_catalogs import messages

pytestmark = pytest.mark.e2e

ALL_SUITS = ["2C", "2H", "2D", "2S"]
#: English words that have no business in what a French player reads.
ENGLISH_WORDS = re.compile(
    r"\b(the|your|you|turn|game|cards?|draw|left|with|and|hand|deck|rocket|board|players?)\b",
    re.IGNORECASE,
)
#: Fragments of English messages shorter than this (symbols, single words) are ignored.
SHORTEST_FRAGMENT = 12


def french_scene(fake, bot, names, *, english=()) -> Scene:
    """A server whose Discord locale is French; its members speak French, but `english`."""
    scene = Scene(fake, bot, names=names)
    scene.guild.preferred_locale = "fr"
    for name in names:
        scene[name].user.locale = "en-US" if name in english else "fr"
    return scene


def english_fragments() -> set[str]:
    """The English catalog's sentences, cut at their placeholders, that French never uses."""
    french = "\n".join(text for texts in messages("fr").values() for text in texts)
    fragments = set()
    for texts in messages("en").values():
        for text in texts:
            for literal, *_ in string.Formatter().parse(text):
                for piece in literal.split("\n"):
                    piece = piece.strip(" .,:;()—*`")
                    if len(piece) >= SHORTEST_FRAGMENT and piece not in french:
                        fragments.add(piece)
    return fragments


def versions(message) -> list:
    return [*message.history, message]


def words_of(version) -> list[str]:
    """Everything a person reads in one version of a message (not ids or JSON keys)."""
    words = [version.content]
    words += [a.description or "" for a in version.attachments]  # pictures' alt texts
    for embed in version.embeds:
        words += [embed.get("title", ""), embed.get("description", "")]
        words += [embed.get("footer", {}).get("text", "")]
        for field in embed.get("fields", []):
            words += [field["name"], field["value"]]
    stack = list(version.components)
    while stack:
        item = stack.pop()
        stack += item.get("components", [])
        words += [item.get("label", ""), item.get("placeholder", "")]
        for option in item.get("options", []):
            words += [option.get("label", ""), option.get("description", "")]
    return [w for w in words if w]


def seen_by(scene: Scene, name: str) -> list[str]:
    """Every text `name` was shown: the channel, their private replies, their DMs, all versions."""
    shown = [*scene.public(), *scene.private_to(name), *scene.fake.dms(scene[name])]
    return [
        text for message in shown for version in versions(message) for text in words_of(version)
    ]


def assert_no_english(texts: list[str]) -> None:
    fragments = english_fragments()
    assert len(fragments) > 100  # the check has teeth
    for text in texts:
        found = [f for f in fragments if f in text]
        assert not found, f"English {found} in: {text[:300]}"
        word = ENGLISH_WORDS.search(re.sub(r"https?://\S+|<[@#][^>]+>", "", text))
        assert word is None, f"English word {word.group()!r} in: {text[:300]}"


def assert_french_spacing(texts: list[str]) -> None:
    """A narrow no-break space before : ; ! ? in all a French player reads (not in links,
    markup, code or times)."""
    for text in texts:
        prose = re.sub(r"https?://\S+|<[^<>\s]*>|`[^`\n]*`", "", text)
        wrong = re.search(r"\S*[ \u00a0][:;!?]|\w[:;!?](?=\s|$)", prose)
        assert wrong is None, f"{wrong.group()!r} in: {text[:300]}"


async def test_a_whole_game_by_french_players_on_a_french_server_has_no_english(
    fake_discord, make_bot
):
    bot = make_bot()
    scene = french_scene(fake_discord, bot, ("ann", "bob"))
    async with fake_discord.connected(bot):
        await scene.cmd("apophis new", "ann", difficulty="easy")
        await bot_state(lambda: scene.live().messages.board_id)
        rules = await scene.click(scene.board(), "rules", "bob")  # the lobby's How to play
        assert rules.ephemeral and "Comment jouer à Apophis" in text_of(rules.message)
        joined = await scene.cmd("apophis join", "bob")
        assert "Vous avez rejoint la partie (2/4)" in joined.response_data["content"]
        started = await scene.cmd("apophis start", "ann", first=scene["ann"])
        assert "La partie a commencé" in text_of(started.message)
        table = scene.live()
        scene.arrange(hands=[["3H", "4H", "5H", "KS", "QS"], ["9C", "2D"]], damage=2, dice=[6, 6])

        refused = await scene.cmd("draw", "bob")
        assert "Ce n’est pas votre tour" in refused.response_data["content"]
        unreadable = await scene.cmd("launch", "ann", cards="7Z")
        assert "Je n’ai pas pu lire '7Z'" in unreadable.response_data["content"]
        panel = await scene.panel("ann")
        assert "**À vous** 🟥" in text_of(panel)  # her turn: in place of "Votre main"
        built = await scene.press(panel, "build", "ann", arg="red.3")
        said = "Vous avez construit la grande section rouge avec 3♥, 4♥ et 5♥."
        assert said in answer_text(built)
        await scene.cmd("draw", "bob")
        await scene.cmd("build", "ann", colour="yellow", size="medium")
        await scene.cmd("draw", "bob")  # six cards: a discard, from the panel's buttons
        bobs = await scene.panel("bob")
        assert "À vous\u202f: défaussez 1 carte" in text_of(bobs)
        card = table.game.hands[1][-1]
        await scene.choose(bobs, [card], "bob")  # one card to discard: one press
        assert table.game.discard_pile[-1] == card and len(table.game.hands[1]) == 5
        await scene.cmd("board", "bob")  # posted again below; at once a second time: refused
        again = await scene.cmd("board", "bob")
        assert "vient d’être publié" in again.response_data["content"]
        table.game.hands[0] += ALL_SUITS
        launched = await scene.cmd("launch", "ann", cards="2 vert 2♥️ 2d 2 jaune")
        assert "Lancement\u202f!" in text_of(launched.message)
        await bot.outbox.drain()
        assert not table.open and table.game.outcome.value == "destroyed"
        board = await scene.final_story(table, "bob")  # its last actions: behind Details
        assert "Victoire" in board and "Dernières actions" in board
        (picture,) = scene.board(table).attachments
        assert picture.description.startswith("Plateau\u202f:")
        stats = await scene.cmd("apophis stats", "bob")
        assert "Victoires les plus rapides" in text_of(stats.message)
        await bot.outbox.drain()
        for name in ("ann", "bob"):
            (dm,) = fake_discord.dms(scene[name])
            assert "La partie est terminée\u202f: Apophis a été détruit" in dm.content
            assert_no_english(seen_by(scene, name))
            assert_french_spacing(seen_by(scene, name))
        scene.assert_no_cards_in_public()


async def test_a_mixed_table_each_reads_their_own_language_and_the_channel_the_servers(
    fake_discord, make_bot, timer
):
    bot = make_bot(timer=timer)
    scene = french_scene(fake_discord, bot, ("ann", "bob", "boss"), english=("bob", "boss"))
    scene.guild.owner_id = scene["boss"].user.id
    async with fake_discord.connected(bot):
        await scene.cmd("apophis new", "ann")
        joined = await scene.cmd("apophis join", "bob")
        assert "You joined the game (2/4)" in joined.response_data["content"]
        await scene.cmd("apophis start", "ann", first=scene["ann"])
        table = scene.live()
        scene.arrange(hands=[["2C", "3C"], ["5S"]])
        for name, words in (("ann", "Comment jouer"), ("bob", "How to play")):
            rules = await scene.cmd("apophis rules", name)
            assert words in text_of(rules.message)
        assert "**À vous**" in text_of(await scene.panel("ann"))
        await scene.cmd("draw", "ann")
        refused = await scene.cmd("draw", "ann")
        assert "It is not your turn" not in refused.response_data["content"]
        assert "Ce n’est pas votre tour" in refused.response_data["content"]
        await timer.advance(WAIT_BEFORE_PING)  # bob looks away
        await bot.outbox.drain()
        board = text_of(scene.board(table))
        assert "Apophis arrive <t:" in board and "Apophis arrives <t:" not in board
        (ping,) = [m for m in scene.public() if m.content.startswith("🔔")]
        assert "c’est votre tour" in ping.content  # the channel's language, even for bob
        assert "Your turn" in text_of(await scene.panel("bob"))
        assert "Votre main" in fake_discord.dms(scene["ann"])[0].content
        assert "Your hand" in fake_discord.dms(scene["bob"])[0].content
        # Bob's locale is kept: a DM after a restart still speaks English.
        assert await Audience(bot.store).player(scene.id("bob")) == "en"
        assert await Audience(bot.store).player(scene.id("ann")) == "fr"
        # The server chooses English: the live board follows at once.
        done = await scene.cmd("apophis config", "boss", language="en")
        assert "Language: English (chosen)" in done.response_data["content"]
        await bot.outbox.drain()
        assert "Apophis arrives <t:" in text_of(scene.board(table))


async def test_the_coloured_deck_shows_cards_by_colour_and_reads_them_typed(fake_discord, make_bot):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "boss"))
    scene.guild.owner_id = scene["boss"].user.id
    async with fake_discord.connected(bot):
        done = await scene.cmd("apophis config", "boss", cards="colours")
        assert "Cards: colours" in done.response_data["content"]
        table = await scene.new_game("ann")
        scene.arrange(hands=[["3H", "4H", "5H", "KS", "QS", "2C", "2D"]])
        table.game.phase = table.game.phase.DISCARD
        table.game.pending = {"count": 2}
        panel = await scene.panel("ann")
        text = text_of(panel)
        assert "2 green · 3 red, 4 red, 5 red · 2 blue · Q yellow, K yellow" in text
        assert "♥" not in text
        picks = {c["label"] for c in panel.iter_components() if ":pick" in c.get("custom_id", "")}
        assert picks >= {"3 red", "K yellow", "2 green"}  # a button a card to discard
        reply = await scene.cmd("discard", "ann", cards="2 green, 2 blue")
        assert "You discarded 2 green and 2 blue" in text_of(reply.message)
        await bot.outbox.drain()
        (dm,) = fake_discord.dms(scene["ann"])  # the deal's, then where her hand is
        assert "♥" not in dm.content and "in your panel" in dm.content
        assert "3 red, 4 red, 5 red" in text_of(reply.message)
        panel = await scene.panel("ann")
        (builds,) = [c for c in panel.iter_components() if c.get("custom_id", "").endswith("build")]
        assert any(o["label"] == "large red (3 red)" for o in builds["options"])


async def test_a_french_player_with_an_ai_crewmate_reads_no_english(fake_discord, make_bot):
    bot = make_bot()
    scene = french_scene(fake_discord, bot, ("ann",))
    async with fake_discord.connected(bot):
        lobby = (await scene.cmd("apophis new", "ann")).message
        added = await scene.click(lobby, "crewadd", "ann")
        assert "🤖 Robot 1" in text_of(added.message)
        await scene.cmd("apophis start", "ann", first=scene["ann"])
        scene.arrange(hands=[["3H", "4H", "5H", "KS", "QS"], ["9D"]])
        hint = await scene.cmd("hint", "ann")
        assert hint.ephemeral
        assert text_of(hint.message).startswith("💡 Construisez la grande section rouge")
        rules = await scene.cmd("apophis rules", "ann")
        odds = await scene.pick(rules.message, ["odds"], "ann")  # how hard, a choice away
        assert "Débutant" in text_of(odds.message)
        await bot.outbox.drain()
        assert_no_english(seen_by(scene, "ann"))
        assert_french_spacing(seen_by(scene, "ann"))


@pytest.mark.parametrize("typed", ["7ſ", "ſ", "7K"])
async def test_letters_that_fold_to_suit_words_are_read_or_refused_politely(
    fake_discord, make_bot, typed, caplog
):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob")
        scene.arrange(hands=[["7S", "2H", "3D"], ["4C"]])
        for command in ("launch", "discard"):
            reply = await scene.cmd(command, "ann", cards=typed)
            assert reply.ephemeral
            assert "something went wrong" not in text_of(reply.message)
        assert table.version == 0
    assert "KeyError" not in caplog.text


@pytest.mark.scene(names=("ann", "bob"))
async def test_the_bots_own_notation_is_read(scene):
    table = await scene.new_game("ann", "bob")
    scene.arrange(hands=[["10C", "2H", "3D"], ["4C"]], rocket=[("green", 1)])
    reply = await scene.cmd("launch", "ann", cards="🟩 clubs: 10♣︎")  # as a hand shows it
    assert "could not read" not in text_of(reply.message)
    await bot_state(lambda: table.version == 1)
    assert [c.value for c in table.game.public_view().sequence] == ["green"]


async def test_a_language_chosen_mid_launch_speaks_from_the_next_message(fake_discord, make_bot):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    manage_guild = discord.Permissions(manage_guild=True).value
    admins = fake_discord.add_role(scene.guild, "admins", permissions=manage_guild)
    scene.members["boss"] = fake_discord.add_member(scene.guild, "boss", roles=[admins])
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob", rules="advanced")
        scene.arrange(
            hands=[["2C", "2H", "2D", "2S"], ["9H"]],
            rocket=[("red", 3), ("green", 2), ("yellow", 2)],
            damage=2,
            dice=[2, 1, 6, 4],  # launch roll 4; accuracy 1+1 misses; reroll 6 hits
        )
        await scene.cmd("launch", "ann", cards="2C 2H 2D 2S")
        (report,) = await fake_discord.wait_for(
            lambda: [m for m in scene.public() if "Launch report" in text_of(m)]
        )
        told = list(table.recent)
        await scene.cmd("apophis config", "boss", language="fr")  # mid-launch
        await scene.click(report, "reroll", "ann")
        await bot.outbox.drain()
        text = text_of(report)  # the open report goes on in the language it started in
        assert "Accuracy: 🎲 6 + Apophis's value 1 + guidance 0 = 7 (needs 7) — hit" in text
        assert "Précision" not in text and "Launch report" in text
        assert list(table.recent)[: len(told)] == told  # what was told is kept as told
        board = await scene.final_story(table, "ann")  # the board speaks the new language,
        assert "Victoire" in text_of(scene.board(table))  # its Details too
        assert "Dernières actions" in board and "Last actions" not in board
