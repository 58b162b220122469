"""The demo's page in the game's language, read on a phone: a short French game, its page
in French (none of the English chrome), and no wider than a 360 px screen."""

from __future__ import annotations

import re

import html5lib
import pytest
from babel.messages.pofile import read_po

from bot.i18n.catalogs import catalog_path, t
from devtools.demo import page
from devtools.demo.run import Options, play
from tests.demo.layout import measured
from tests.web.browser import Page, require_browser

pytestmark = [pytest.mark.e2e, pytest.mark.slow]  # slow: handed out first in parallel

#: The demo's messages that the page itself shows whatever the game (the others show
#: where something was removed, a select has no placeholder, or in the terminal).
ON_EVERY_PAGE = (
    "demo.title",
    "demo.to_private",
    "demo.private",
    "demo.ephemeral",
    "demo.used",
    "demo.tag.app",
    "demo.tag.dm",
    "demo.edit",
    "demo.did.clicked",
    "demo.time.in",
)


def english_chrome() -> dict[str, list[str]]:
    """Each English demo.* message's own words: its text around its placeholders, each
    piece of two letters or more ("Only you can see this", "used", "DM", "in"...)."""
    with catalog_path("en").open("rb") as f:
        catalog = read_po(f, locale="en")
    pieces: dict[str, list[str]] = {}
    for message in catalog:
        key = message.id[0] if message.pluralizable else message.id
        if not (key and key.startswith("demo.")):
            continue
        texts = message.string if message.pluralizable else (message.string,)
        for text in texts:
            for piece in re.split(r"\{\w+\}", text):
                piece = piece.strip(" :;,.()“”↓↪")
                if sum(c.isalpha() for c in piece) >= 2:
                    pieces.setdefault(key, []).append(piece)
    return pieces


def shown_text(document: str) -> str:
    """The words a reader sees on the page (its title included), markup and style left out."""
    tree = html5lib.parse(document, namespaceHTMLElements=False)
    for parent in tree.iter():
        for style in parent.findall("style"):
            parent.remove(style)
    return " ".join(tree.itertext())


def found(pieces: list[str], text: str) -> list[str]:
    """The pieces `text` has as words of their own ("APP" is not found in "APPLI")."""
    return [p for p in pieces if re.search(rf"(?<!\w){re.escape(p)}(?!\w)", text)]


async def test_a_french_game_s_page_says_nothing_in_english_and_reads_on_a_phone(tmp_path):
    # One short game (8 minutes at 60 times real speed).
    options = Options(
        people=("Ada", "Brahim"),
        crewmates=1,
        language="fr",
        difficulty="hard",
        time_scale=60,
        seed=2,
        out=tmp_path / "fr",
    )
    french = await play(options)
    document = french.page.read_text(encoding="utf-8")
    html5lib.HTMLParser(strict=True).parse(document)
    assert '<html lang="fr">' in document
    chrome = english_chrome()
    assert set(ON_EVERY_PAGE) <= set(chrome)
    # The same record drawn in English has the chrome the French page must not have: the
    # check finds it where it is.
    english = page.write(french.record, tmp_path / "en" / "index.html", "en", french.summary)
    english_text = shown_text(english.read_text(encoding="utf-8"))
    assert '<html lang="en">' in english.read_text(encoding="utf-8")
    for key in ON_EVERY_PAGE:
        assert found(chrome[key], english_text), f"{key} not on the English page"
    text = shown_text(document)
    english_words = {key: found(pieces, text) for key, pieces in chrome.items()}
    assert not {key: words for key, words in english_words.items() if words}
    # Discord's chrome as a French Discord words it, and the page's own headings.
    for words in (
        t("fr", "demo.title"),
        t("fr", "demo.ephemeral"),
        t("fr", "demo.tag.app"),
        t("fr", "demo.private", name="Ada"),
        t("fr", "demo.private", name="Brahim"),
        t("fr", "demo.used", name="Ada", command="/apophis nouvelle"),
        t("fr", "demo.summary.crewmates", count=1),
        t("fr", "difficulty.hard"),
    ):
        assert words in text, words
    assert re.search(r"\+0:0\d,\d", text)  # a time on the page, with a decimal comma

    # In a browser: as wide as the screen at most, on a phone, a tablet and a desktop,
    # in French and in English, its type readable, its pictures within the screen.
    require_browser()
    browser = await Page.create()
    try:
        drawn = {
            language: await measured(browser, path.resolve().as_uri())
            for language, path in (("fr", french.page), ("en", english))
        }
    finally:
        await browser.close()
    for language, widths in drawn.items():
        for width, seen in widths.items():
            assert seen["page"] <= width, (language, width, seen)
            assert seen["widest_image"] <= width, (language, width, seen)
            assert seen["smallest_type"] >= 12, (language, width, seen)
            assert seen["scrolling"] == [], (language, width, seen)


def test_the_chrome_check_reads_words_not_letters():
    assert found(["APP", "in"], "APPLI · dans 0:08 · main") == []
    assert found(["APP", "in"], "Apophis APP · in 0:08") == ["APP", "in"]
    shown = "<!DOCTYPE html><title>A</title><style>.edit {}</style><p class='in'>b<b>c</b></p>"
    assert shown_text(shown) == "A b c"


def test_every_demo_message_has_words_of_its_own():
    """No demo.* message is all placeholders (the check above would miss it in English)."""
    with catalog_path("en").open("rb") as f:
        keys = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f) if m.id}
    assert {k for k in keys if k.startswith("demo.")} == set(english_chrome())
