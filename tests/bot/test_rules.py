"""`/apophis rules`: a short illustrated how-to, the rules in full a menu choice away.

Played through the fake Discord: the answer is private, a picture of a turn over four
short lines, with a menu of the rules' parts; each choice shows its part in full in the
same message (the picture taken away), "in short" brings the picture back; in the
reader's language, for the rules of the channel's game. The basic rules' launch has no
launch roll (RULINGS.md); the advanced rules' has.
"""

from __future__ import annotations

import textwrap

import pytest

from bot.errors import UserError
from bot.game.clicks import read_click
from bot.i18n.catalogs import languages, t
from bot.pictures import howto_picture, parts, sprites
from bot.views import howto
from engine import Colour, Rules, fuel_needed, rocket_points
from tests.bot.helpers import text_of
from tests.bot.test_languages import french_scene

pytestmark = pytest.mark.e2e

#: Discord's phone layout, roughly: an embed's text wraps at some 40 characters a line,
#: 22 px a line; a picture shown 300 px wide; a select 48 px; the title and margins 60.
PHONE_CHARACTERS, PHONE_LINE, PHONE_PICTURE, SELECT_ROW, FRAME = 40, 22, 300, 48, 60
PHONE_HEIGHT = 740


def phone_height(message) -> int:
    """About how tall `message` (an embed and a menu) stands on a 360 px phone, in pixels."""
    (embed,) = message.embeds
    text = "\n".join(
        p for p in (embed.get("description"), embed.get("footer", {}).get("text")) if p
    )
    return text_height(text, bool(message.attachments))


def text_height(text: str, picture: bool = False) -> int:
    """About how tall an embed of `text` (and the how-to's picture) and the menu stands."""
    lines = sum(max(1, len(textwrap.wrap(p, PHONE_CHARACTERS))) for p in text.split("\n"))
    shown = round(howto_picture.HEIGHT * PHONE_PICTURE / howto_picture.WIDTH) if picture else 0
    return FRAME + lines * PHONE_LINE + SELECT_ROW + shown


@pytest.mark.parametrize("language", languages())
@pytest.mark.parametrize("rules", list(Rules))
def test_every_part_of_the_rules_fits_one_phone_screen(language, rules):
    for section in howto.SECTIONS:
        text = howto.text(language, rules, section)
        assert text_height(text, section == "short") < PHONE_HEIGHT, section


def menu_of(message) -> dict:
    (row,) = message.components
    (select,) = row["components"]
    return select


@pytest.mark.scene(names=("ann", "bob"))
async def test_the_rules_are_a_short_illustrated_how_to_that_fits_a_phone(scene):
    answer = await scene.cmd("apophis rules", "ann")
    message = answer.message
    assert answer.ephemeral
    (picture,) = message.attachments
    assert picture.filename == "howto-en.png"
    assert message.embeds[0]["image"]["url"] == "attachment://howto-en.png"
    assert "A turn in three pictures" in picture.description
    text = text_of(message)
    assert "How to play Apophis" in text and "draw 2 cards" in text
    assert len(message.embeds[0]["description"]) < 600
    select = menu_of(message)
    assert [o["value"] for o in select["options"]] == list(howto.SECTIONS)
    assert phone_height(message) < PHONE_HEIGHT  # one phone screen (the old text: 1,556 px)


@pytest.mark.scene(names=("ann",))
async def test_each_part_of_the_rules_is_a_choice_away_and_the_short_one_comes_back(scene):
    message = (await scene.cmd("apophis rules", "ann")).message
    for section in howto.SECTIONS[1:]:
        shown = await scene.pick(message, [section], "ann")
        message = shown.message
        assert message.attachments == [] and "image" not in message.embeds[0]
        assert message.embeds[0]["description"] == howto.text("en", Rules.BASIC, section)
        chosen = [o["value"] for o in menu_of(message)["options"] if o.get("default")]
        assert chosen == [section]
        assert phone_height(message) < PHONE_HEIGHT
    back = (await scene.pick(message, ["short"], "ann")).message
    assert [a.filename for a in back.attachments] == ["howto-en.png"]
    assert "draw 2 cards" in text_of(back)


@pytest.mark.scene(names=("ann", "bob"))
async def test_a_basic_games_launch_has_no_launch_roll_and_an_advanced_ones_has(scene):
    """RULINGS.md: the launch roll (step 2) is the advanced rules' only."""
    basic = await scene.pick((await scene.cmd("apophis rules", "ann")).message, ["launch"], "ann")
    steps = text_of(basic.message).lower()
    assert "launch roll" not in steps and "explodes" not in steps
    assert "fuel" in steps and "accuracy" in steps and "deflection" in steps
    await scene.new_game("ann", "bob", rules="advanced")
    short = (await scene.cmd("apophis rules", "bob")).message
    assert "launch roll" in text_of(short) and "5 deflection" not in text_of(short)
    advanced = await scene.pick(short, ["launch"], "bob")
    steps = text_of(advanced.message).lower()
    assert "launch roll" in steps and "8 or more" in steps and "reroll" in steps
    assert menu_of(advanced.message)["custom_id"] == "apo:u:0:0:advanced"


@pytest.mark.parametrize("language", languages())
@pytest.mark.parametrize("rules", ["basic", "advanced"])
def test_the_short_lines_never_name_a_roll_the_rules_do_not_have(language, rules):
    short = howto.text(language, Rules(rules), "short").lower()
    launch = howto.text(language, Rules(rules), "launch").lower()
    roll = {"en": "launch roll", "fr": "jet de lancement"}[language]
    assert (roll in short) == (roll in launch) == (rules == "advanced")


@pytest.mark.scene(names=("ann", "bob"))
async def test_someone_elses_choice_or_a_part_never_offered_is_refused(scene, fake_discord):
    message = (await scene.cmd("apophis rules", "ann")).message
    before = text_of(message)
    select = menu_of(message)
    other = await fake_discord.select(
        message, select["custom_id"], ["launch"], user=scene["bob"].user, forged=True
    )
    answer = await other.wait_response()
    assert answer.ephemeral and "shown to someone else" in text_of(answer.message)
    (still,) = [m for m in scene.private_to("ann") if m.id == message.id]
    assert text_of(still) == before
    for values in (["everything"], ["turn", "odds"], []):
        with pytest.raises(UserError):
            read_click({"custom_id": select["custom_id"], "values": values})
    with pytest.raises(UserError):
        read_click({"custom_id": "apo:u:0:0:expert", "values": ["turn"]})


async def test_the_how_to_in_each_readers_language(fake_discord, make_bot):
    bot = make_bot()
    scene = french_scene(fake_discord, bot, ("ann", "bob"), english=("bob",))
    async with fake_discord.connected(bot):
        message = (await scene.cmd("apophis rules", "ann")).message
        assert [a.filename for a in message.attachments] == ["howto-fr.png"]
        assert "Comment jouer" in text_of(message) and "piocher 2 cartes" in text_of(message)
        assert menu_of(message)["placeholder"] == t("fr", "howto.more")
        shown = await scene.pick(message, ["launch"], "ann")
        assert "jet de lancement" not in text_of(shown.message).lower()
        assert "Un lancement, étape par étape" in text_of(shown.message)
        english = (await scene.cmd("apophis rules", "bob")).message
        assert [a.filename for a in english.attachments] == ["howto-en.png"]


@pytest.mark.parametrize("language", languages())
def test_the_how_to_picture_reads_on_a_phone_and_its_rocket_can_launch(language):
    """Its words at the board's smallest size (8 px capitals on a phone: test_picture_scale)
    fit their panels whole; the rocket passes the fuel check; the same bytes each time."""
    room = howto_picture.PANEL_WIDTH - 8
    for heading, caption in howto_picture.texts(language):
        for line in (heading, *caption, howto_picture.fuel_words(language)):
            assert sprites.font(parts.SMALL).getlength(line) <= room, line
    points = rocket_points(howto_picture.ROCKET)
    assert points[Colour.YELLOW] >= fuel_needed(sum(points.values()))
    png = howto_picture.draw(language)
    howto_picture.draw.cache_clear()
    assert howto_picture.draw(language) == png and len(png) < 30 * 1024
    assert howto_picture.describe(language) == t(language, "howto.picture.alt")
