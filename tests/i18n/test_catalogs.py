"""The message catalogs: complete in every language, placeholders alike, plurals right."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.i18n import catalogs
from bot.i18n.catalogs import catalog_path, language_of, languages, refusal, t

ENGINE = Path(__file__).parents[2] / "engine" / "game.py"


def messages(language: str) -> dict[str, tuple[str, ...]]:
    """Message id -> its text(s) (one, or one per plural form)."""
    with catalog_path(language).open("rb") as f:
        catalog = read_po(f, locale=language)
    found = {}
    for message in catalog:
        if not message.id:
            continue
        key = message.id[0] if message.pluralizable else message.id
        texts = message.string if message.pluralizable else (message.string,)
        found[key] = tuple(texts)
    return found


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_there_are_english_and_french_catalogs():
    assert languages() == ("en", "fr")


@pytest.mark.parametrize("language", [lang for lang in languages() if lang != "en"])
def test_every_message_exists_in_both_catalogs_with_the_same_placeholders(language):
    english, other = messages("en"), messages(language)
    assert sorted(set(english) - set(other)) == [], f"missing in {language}"
    assert sorted(set(other) - set(english)) == [], f"only in {language}"
    for key, texts in english.items():
        wanted = set().union(*map(placeholders, texts))
        for text in other[key]:
            assert text, f"{key} is empty in {language}"
            assert placeholders(text) == wanted, f"{key} in {language}: {text!r}"
        assert len(other[key]) == len(texts), f"{key}: plural forms differ"


def test_a_missing_or_misnamed_placeholder_is_caught():
    assert placeholders("{count} card") != placeholders("{n} carte")
    assert placeholders("A {section} costs {cost}") != placeholders("Une {section} coûte")


def test_plurals_follow_each_language():
    assert [t("en", "count.cards", count=n) for n in (1, 2)] == ["1 card", "2 cards"]
    assert [t("fr", "count.cards", count=n) for n in (0, 1, 2)] == [
        "aucune carte",  # its zero form, in words
        "1 carte",
        "2 cartes",
    ]
    assert [t("fr", "count.sections", count=n) for n in (0, 1, 2)] == [
        "0 section",  # no zero form: French counts 0 as singular
        "1 section",
        "2 sections",
    ]


def test_unknown_keys_are_bugs_and_unknown_languages_read_english():
    with pytest.raises(KeyError):
        t("en", "no.such.message")
    assert t("xx", "colour.red") == "red"


@pytest.mark.parametrize(
    ("locale", "language"),
    [("fr", "fr"), ("en-US", "en"), ("en-GB", "en"), ("de", "en"), (None, "en")],
)
def test_discord_locales_map_to_catalogs(locale, language):
    assert language_of(locale) == language


def test_every_refusal_of_the_engine_has_a_message():
    codes = set(re.findall(r'IllegalMove\(\s*"([a-z_]+)"', ENGINE.read_text()))
    assert len(codes) > 25
    missing = [c for c in sorted(codes) if not catalogs.has(f"refusal.{c}")]
    assert missing == []


def test_refusals_read_in_each_language_from_their_code_and_parameters():
    params = {"colour": "red", "size": "large", "cost": 3, "have": 1}
    assert refusal("en", "not_enough_cards", params) == (
        "A large red section costs 3 hearts ♥; you have 1."
    )
    assert refusal("fr", "not_enough_cards", params) == (
        "Une grande section rouge coûte 3 cœurs ♥\u202f; vous en avez 1."
    )
    small = {"colour": "red", "size": "small", "cost": 1, "have": 0}
    assert refusal("en", "not_enough_cards", small).startswith(
        "A small red section costs 1 heart ♥;"
    )
    top = {"size": "medium", "top_colour": "blue", "top_size": "small"}
    assert refusal("fr", "too_large", top).startswith(
        "Une section moyenne ne peut pas aller sur la petite section bleue du sommet"
    )


def test_a_third_language_needs_only_its_catalog(tmp_path, monkeypatch):
    """A copied catalog is a language: found by its folder, mapped from Discord's locales."""
    for language in ("en", "fr", "de"):
        folder = tmp_path / language / "LC_MESSAGES"
        folder.mkdir(parents=True)
        source = catalog_path("fr" if language == "de" else language).read_text(encoding="utf-8")
        (folder / "apophis.po").write_text(source.replace("Language: fr", f"Language: {language}"))
    caches = (catalogs.languages, catalogs._translations, catalogs._wording)
    for cache in caches:
        cache.cache_clear()
    monkeypatch.setattr(catalogs, "LOCALES", tmp_path)
    try:
        assert languages() == ("en", "de", "fr")
        assert language_of("de") == "de" and language_of("es-ES") == "en"
        assert t("de", "board.depot") == "Réserve"  # the copy, as yet untranslated
    finally:
        monkeypatch.undo()
        for cache in caches:
            cache.cache_clear()
