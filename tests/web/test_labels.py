"""The live table's words: the client names only labels the server sends (bot.views.web_state
LABELS, from the catalogs), and the server sends only labels the client names; in French
none of them is left in English; every word that counts agrees with its count, at 0, 1,
2 and 5, in both languages, as the page itself words it (in headless Chromium)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.i18n.catalogs import t
from bot.views.web_state import COUNTED, LABELS, STEPS, labels
from tests.bot.helpers import Scene
from tests.web import test_browser
from tests.web.test_browser import activity_url

SOURCES = Path(__file__).resolve().parents[2] / "bot" / "web" / "client" / "src"
#: The forms of a counted label the server sends (web_state.COUNTED).
FORMS = ("one", "other")
#: The counts every counted word is checked at.
COUNTS = (0, 1, 2, 5)
#: The labels holding a number that need no agreement with it, and why.
UNCOUNTED = {
    "seat_cards": "cards: {count}",
    "minutes": "{count} min",
    "damage_done": "Damage: {count} of {needed}",
    "deflection_done": "deflection: {count} of {needed}",
    "story_launches": "The launches ({count})",
    "describe_apophis": "damage {damage} of {needed}",
    "describe_deflection": "Deflection {count} of {needed}",
    "describe_piles": "Deck: {deck}; discard pile: {discard}",
    "die_shows": "die showing {value}",
    "target_below": "(needs less than {target})",
    "target_at_least": "(needs {target} or more)",
    "fuel_needs": "fuel (≥ {needed})",
    "replay_hint": "game #{game}",
}
#: The other values a counted label holds, for checking it.
VALUES = {"name": "Ada", "needed": 3}
#: Labels the client names by a prefix and a value from a state (rules_basic, slot_played...).
BY_PREFIX = ("rules_", "difficulty_", "step_", "slot_")


def client_sources() -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in sorted(SOURCES.glob("*.ts")))


def test_the_client_and_the_server_name_the_same_labels():
    source = client_sources()
    named = set(re.findall(r'label\("(\w+)"', source))
    named |= {f"{key}.{form}" for key in re.findall(r'counted\("(\w+)"', source) for form in FORMS}
    sent = set(labels("en"))
    assert named <= sent, f"the client names labels the server never sends: {named - sent}"
    unused = [k for k in LABELS if f'"{k}"' not in source and not k.startswith(BY_PREFIX)]
    assert not unused, f"labels the client never shows: {unused}"
    assert {f"step_{step}" for step in STEPS} <= sent


def test_every_label_has_its_french_words():
    english, french = labels("en"), labels("fr")
    assert english.keys() == french.keys()
    same = {k for k in english if english[k] == french[k]}
    assert same == {"apophis", "points", "minutes"}, same  # "Apophis", "pts", "{count} min"
    holes = re.compile(r"\{\w+\}")
    for key in english:  # the same placeholders, for the client to fill
        assert sorted(holes.findall(english[key])) == sorted(holes.findall(french[key])), key


def test_every_number_the_client_shows_is_counted_or_needs_no_agreement():
    numbers = re.compile(r"\{(count|needed|damage|deck|discard|value|target|game)\}")
    holding = {key.split(".")[0] for key, words in labels("en").items() if numbers.search(words)}
    assert holding == set(COUNTED) | set(UNCOUNTED), holding ^ (set(COUNTED) | set(UNCOUNTED))


#: What each counted word says at 0, 1, 2 and 5 (the lobby's, after its host's name).
SAID = {
    ("fr", "watching_count"): ["0 spectateur", "1 spectateur", "2 spectateurs", "5 spectateurs"],
    ("en", "watching_count"): ["0 watching", "1 watching", "2 watching", "5 watching"],
    ("fr", "lobby_lead"): [
        "0 place prise", "1 place prise", "2 places prises", "5 places prises"
    ],
    ("en", "lobby_lead"): ["0 seated", "1 seated", "2 seated", "5 seated"],
    ("en", "build_choices"): ["(0 choices)", "(1 choice)", "(2 choices)", "(5 choices)"],
    ("fr", "build_choices"): ["(0 choix)", "(1 choix)", "(2 choix)", "(5 choix)"],
    ("en", "slots_count"): ["0 placed", "1 placed", "2 placed", "5 placed"],
    ("fr", "slots_count"): ["0 posée", "1 posée", "2 posées", "5 posées"],
}  # fmt: skip


@pytest.mark.parametrize("language", ["en", "fr"])
def test_each_counted_word_agrees_with_its_count(language):
    for key in COUNTED:
        for count, words in zip(COUNTS, SAID[language, key], strict=True):
            said = t(language, f"web.{key}", count=count, **VALUES)
            assert re.search(rf"(?<!\w){re.escape(words)}(?!\w)", said), (key, count, said)


pages = test_browser.pages


@pytest.mark.e2e
@pytest.mark.parametrize("language", ["en", "fr"])
async def test_the_page_words_each_count_as_the_catalog_does(
    fake_discord, make_web_bot, pages, language, tmp_path
):
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("Ada",))
    async with fake_discord.connected(bot.discord):
        scene["Ada"].user.locale = "fr" if language == "fr" else "en-US"  # her page's words
        page = await pages(360, 740)
        await page.open(activity_url(bot, fake_discord, scene, "Ada"))
        await page.wait(f"document.documentElement.lang === {language!r}")
        asked = [(key, count) for key in COUNTED for count in COUNTS]
        shown = await page.js(
            "return arguments[0].map(([key, count]) =>"
            " window.__apophis.counted(key, count, arguments[1]));",
            asked,
            VALUES,
        )
        wanted = [t(language, f"web.{key}", count=count, **VALUES) for key, count in asked]
        said = list(zip(asked, shown, wanted, strict=True))
        assert shown == wanted, json.dumps(said, ensure_ascii=False)
        # A new lobby opens with its host alone: one seat taken, said so.
        await scene.cmd("apophis new", "Ada")
        await page.wait("document.body.dataset.screen === 'lobby'")
        lead = t(language, "web.lobby_lead", count=1, name="Ada")
        shown_lead = "return document.querySelector('.lobby-screen .lead').textContent;"
        assert await page.js(shown_lead) == lead
        for width, height in ((360, 740), (1280, 800)):
            await page.view_at(width, height)
            await page.settled()
            await page.screenshot(tmp_path / f"lobby-{width}-{language}.png")
