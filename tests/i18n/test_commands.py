"""Slash commands in French (checked against Discord's rules), and the rules summary."""

from __future__ import annotations

import re

import pytest

from bot.i18n.catalogs import languages
from bot.views import howto
from engine import Rules
from tests.bot.helpers import Scene, text_of

pytestmark = pytest.mark.e2e

#: Discord's rule for command and option names (its API reference), lower case.
NAME = re.compile(r"^[-_\w\u0900-\u097F\u0E00-\u0E7F]{1,32}$")


def walk(command: dict, path: str = ""):
    """Every (path, item) of a synced command: itself, its subcommands and options."""
    here = f"{path} {command['name']}".strip()
    yield here, command
    for option in command.get("options", []):
        yield from walk(option, here)


async def test_commands_are_synced_with_valid_french_names_and_descriptions(fake_discord, make_bot):
    bot = make_bot()
    Scene(fake_discord, bot)
    async with fake_discord.connected(bot):
        commands = fake_discord.synced_commands() or next(
            iter(fake_discord.world.guild_commands.values()), []
        )
    assert commands
    for command in commands:
        for path, item in walk(command):
            french = item.get("name_localizations", {}).get("fr")
            assert french, f"{path} has no French name"
            assert NAME.match(french) and french == french.lower(), (path, french)
            if "description" in item and item.get("type", 1) in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10):
                description = item.get("description_localizations", {}).get("fr")
                assert description and 1 <= len(description) <= 100, (path, description)
            for choice in item.get("choices", []):
                name = choice.get("name_localizations", {}).get("fr")
                assert name and 1 <= len(name) <= 100, (path, choice)
        names = [o.get("name_localizations", {}).get("fr") for o in command.get("options", [])]
        assert len(names) == len(set(names)), f"two options of {command['name']} share a name"


async def test_a_french_player_reads_the_rules_in_french(fake_discord, make_bot):
    bot = make_bot()
    scene = Scene(fake_discord, bot)
    scene["ann"].user.locale = "fr"
    async with fake_discord.connected(bot):
        french = text_of((await scene.cmd("apophis rules", "ann")).message)
        english = text_of((await scene.cmd("apophis rules", "bob")).message)
    assert "Comment jouer" in french and "percute la Terre" in french
    assert "How to play" in english and "hits Earth" in english


@pytest.mark.parametrize("language", languages())
@pytest.mark.parametrize("rules", ["basic", "advanced"])
def test_the_rules_summary_says_what_the_rulings_say(language, rules):
    text = "\n\n".join(howto.text(language, Rules(rules), part) for part in howto.SECTIONS)
    text = text.lower()
    words = {
        "en": {
            "lost": "game is lost",
            "value": "largest pyramid still standing",
            "ends": "ends it",
            "depot": "after every launch",
            "damaged": "damaged three times",
            "explodes": "explodes",
            "counters": "5 deflection counters",
        },
        "fr": {
            "lost": "partie est perdue",
            "value": "plus grande pyramide encore debout",
            "ends": "y met fin",
            "depot": "après chaque lancement",
            "damaged": "subi trois dégâts",
            "explodes": "explose",
            "counters": "5 compteurs de déviation",
        },
    }[language]
    for fact in ("lost", "value", "ends", "depot", "damaged"):
        assert words[fact] in text, fact
    # The launch roll: a step of advanced games, mentioned to basic ones as advanced.
    assert (
        words["explodes"] in text if rules == "advanced" else "launch roll" in text or "jet" in text
    )
    assert (words["counters"] in text) == (rules == "basic")
    assert "hitting apophis three times" not in text  # a hit is the accuracy check


async def test_advanced_rules_without_a_difficulty_get_ten_minutes(fake_discord, make_bot):
    bot = make_bot()
    scene = Scene(fake_discord, bot)
    async with fake_discord.connected(bot):
        lobby = await scene.cmd("apophis new", "ann", rules="advanced")
        assert "10:00" in text_of(lobby.message)
        await scene.cmd("apophis end", "ann")
        lobby = await scene.cmd("apophis new", "ann", rules="advanced", difficulty="hard")
        assert "8:00" in text_of(lobby.message)
