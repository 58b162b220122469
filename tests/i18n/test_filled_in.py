"""Every message filled in as the bot fills it: French elisions, and the space before marks.

Each message of each catalog is filled with sample values: names that begin with a vowel
sound and with a consonant, numbers, and percentages as the bot writes them
(bot.views.render.percent). In French, no word that elides ("que", "de", "la"...) may
stand whole before a value that begins with a vowel sound ("que Ada" is "qu’Ada"), and
the only space before : ; ! ? % is the narrow no-break one (U+202F), which a % always
has; in English, nothing stands between a number and its %.
"""

from __future__ import annotations

import re

import pytest

from bot.i18n.catalogs import ELISIONS, NARROW_SPACE, Wording, elide, languages, t
from bot.views import howto
from bot.views.balance import STEADY_TEAM_WINS
from bot.views.render import percent
from engine import Rules
from tests.i18n.test_wording import (
    KEYS,
    NUMBERS,
    UNTOUCHED,
    catalog,
    fail_listing,
    offences,
    placeholders,
)

#: Names as a player may be called, by how they begin.
VOWEL_NAMES = ("Ada", "Élodie", "Hugo")
CONSONANT_NAMES = ("Bob",)
#: French words that elide before a vowel sound (the test's own list, not the code's).
ELIDING = "que|de|le|la|je|ne|se|ce|me|te|lorsque|puisque|jusque"
WHOLE_BEFORE_A_VOWEL = re.compile(rf"\b(?:{ELIDING})\s+(?:{'|'.join(VOWEL_NAMES)})\b", re.I)


def samples(language: str) -> list[tuple[object, int | str]]:
    """(a word's value, a number's value) to fill a message with, in turn: each name with a
    number, then a percentage everywhere (a plural message's count stays a number)."""
    names = zip(VOWEL_NAMES + CONSONANT_NAMES, (1, 2, 5, 1), strict=True)
    return [*names, (percent(0.35, language), percent(0.07, language))]


def filled(language: str, key: str, word: object, number: int | str) -> str:
    english = catalog("en")[key]
    values: dict[str, object] = {}
    for name in placeholders(english):
        values[name] = number if name in NUMBERS else word
    if len(english) > 1:  # the count chooses the plural form
        values["count"] = number if isinstance(number, int) else 2
    return t(language, key, **values)


def filled_in_problems(language: str, key: str) -> list[str]:
    problems = []
    for word, number in samples(language):
        text = filled(language, key, word, number)
        prose = UNTOUCHED.sub("", text)
        if language == "fr":
            if whole := WHOLE_BEFORE_A_VOWEL.search(prose):
                problems.append(f"{key}: {whole[0]!r} not elided in {text!r}")
            if spaced := re.search(rf"[^\S{NARROW_SPACE}][:;!?%]", prose):
                problems.append(f"{key}: a plain space before {spaced[0][-1]!r} in {text!r}")
            if re.search(rf"(?<!{NARROW_SPACE})%", prose):
                problems.append(f"{key}: a % without its narrow space in {text!r}")
        else:
            if re.search(r"\s%", prose):
                problems.append(f"{key}: a space before % in {text!r}")
            if NARROW_SPACE in text:
                problems.append(f"{key}: French spacing in English: {text!r}")
    return problems


@pytest.mark.parametrize("language", languages())
def test_every_message_filled_in_elides_and_spaces_its_marks(language):
    problems = offences(language, filled_in_problems)
    assert not problems, fail_listing(problems)


def test_the_walk_finds_an_unelided_word_and_a_badly_spaced_percent():
    """The checks above catch what they look for (on texts the catalogs do not hold)."""
    assert WHOLE_BEFORE_A_VOWEL.search("Connecté en tant que Ada")
    assert WHOLE_BEFORE_A_VOWEL.search("Les parties de Élodie")
    assert not WHOLE_BEFORE_A_VOWEL.search("Connecté en tant que Bob, qu’Ada, d’Hugo")
    assert filled_in_problems("fr", "web.signed_in_as") == []


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Ada", "Les parties d’Ada sur ce serveur."),
        ("Élodie", "Les parties d’Élodie sur ce serveur."),
        ("Hugo", "Les parties d’Hugo sur ce serveur."),
        ("Bob", "Les parties de Bob sur ce serveur."),
        ("<@1>", "Les parties de <@1> sur ce serveur."),
        ("3", "Les parties de 3 sur ce serveur."),
    ],
)
def test_a_french_word_elides_before_a_value_that_begins_with_a_vowel_sound(name, expected):
    assert t("fr", "profile.whose", player=name) == expected


def test_english_never_elides():
    assert t("en", "profile.whose", player="Ada") == t("en", "profile.whose", player="X").replace(
        "X", "Ada"
    )
    assert "en" not in ELISIONS


def test_a_prepared_wording_elides_each_placeholder_by_its_own_value_every_time():
    """A text's elided forms are kept by which values begin with a vowel sound: each call
    still elides before its own values, whatever the calls before it filled in."""
    wording = Wording("fr", "que {a} et de {b}, {{brut}}")
    assert wording.names == ("a", "b")
    fills = [
        ({"a": "Ada", "b": "Bob"}, "qu’Ada et de Bob, {brut}"),
        ({"a": "Bob", "b": "Hugo"}, "que Bob et d’Hugo, {brut}"),
        ({"a": "Ada", "b": "Élodie"}, "qu’Ada et d’Élodie, {brut}"),
        ({"a": "Bob", "b": "3"}, "que Bob et de 3, {brut}"),
        ({"a": "Ada", "b": "Bob"}, "qu’Ada et de Bob, {brut}"),
    ]
    for params, expected in fills:
        assert wording.filled(params) == expected
    assert Wording("en", "that {a}").filled({"a": "Ada"}) == "that Ada"
    assert Wording("fr", "de rien").filled({"a": "Ada"}) == "de rien"


def test_every_eliding_word_takes_its_short_form_and_keeps_its_capital():
    elision = ELISIONS["fr"]
    words = {
        "que": "qu’",
        "Que": "Qu’",
        "de": "d’",
        "De": "D’",
        "le": "l’",
        "la": "l’",
        "je": "j’",
        "ne": "n’",
        "se": "s’",
        "ce": "c’",
        "lorsque": "lorsqu’",
        "jusque": "jusqu’",
    }
    for word, short in words.items():
        text = f"{word} {{name}} et {word} **{{name}}**"
        assert elide(elision, text, {"name": "Ada"}) == f"{short}{{name}} et {short}**{{name}}**"
        assert elide(elision, text, {"name": "Bob"}) == text
    # Only a whole word elides, and only before a placeholder.
    kept = "presque {name}, quelque {name}, que Ada"
    assert elide(elision, kept, {"name": "Ada"}) == kept


def test_the_web_tables_labels_need_no_elision_from_their_client():
    """The client fills a web.* label's placeholders itself, with no elision: no French
    label puts a word that elides right before one a word fills ("en tant que {name}"
    would read "que Ada"; "moins de {target}", a number, needs none)."""
    problems = []
    for key in (k for k in KEYS if k.startswith("web.")):
        for text in catalog("fr")[key]:
            for name in re.findall(rf"\b(?:{ELIDING})\s+\{{(\w+)\}}", text, re.I):
                if name not in NUMBERS:
                    problems.append(f"{key}: {text!r}")
    assert not problems, fail_listing(problems)
    assert t("fr", "web.signed_in_as", name="Ada") == f"Compte Discord{NARROW_SPACE}: Ada"


def test_a_percentage_has_its_narrow_space_in_french_and_none_in_english():
    assert percent(0.35, "fr") == f"35{NARROW_SPACE}%"
    assert percent(0.35, "en") == "35%"
    assert percent(0.004, "fr") == f"1{NARROW_SPACE}%"  # never 0 % for what may happen
    wins = STEADY_TEAM_WINS["basic"]["medium"]
    french, english = (howto.odds(language, Rules.BASIC) for language in ("fr", "en"))
    assert f"{wins}{NARROW_SPACE}% des parties" in french
    assert f"{wins}% of games" in english and NARROW_SPACE not in english
