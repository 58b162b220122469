"""Every message rendered with 1, 2 and 5: spacing, plurals and articles a native speaker signs.

Each message of each catalog is filled in: its numbers (placeholders the code fills with
a number) with 1, 2 and 5 in turn, its other placeholders with a stand-in. What comes out
must have French spacing (a narrow no-break space before : ; ! ?), English punctuation
(no space before it), a noun in the form its number wants ("1 card", "2 cards", "1 carte",
"2 jaunes", never "1 sections" or "1 gagnées"), an English article that fits its number
("an 8-point"), and no placeholder left over.
"""

from __future__ import annotations

import functools
import re
import string

import pytest
from babel.messages.pofile import read_po

from bot.i18n.catalogs import NARROW_SPACE, catalog_path, languages, t, typeset


def words(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: Placeholders the code fills with a number (the others take a word or a phrase).
NUMBERS = words(
    "count at cost counters damage deck deflect die discards explode fuel have held high id "
    "left length limit losses low minutes need needed percent played points rank seat seated "
    "seconds sections success target total value version wins"
)
#: Numbers that are never 1 (the hand limit, a hand over it), so their nouns may stay plural.
NEVER_ONE = frozenset(
    (
        ("refusal.must_discard", "limit"),
        ("refusal.wrong_discard_count", "held"),
        ("refusal.wrong_discard_count", "limit"),
    )
)
#: Nouns (and French adjectives used as nouns) by number, to catch "1 cards" or "2 carte".
PLURAL = {
    "en": words(
        "cards sections points pts games players turns minutes seconds rerolls fail-safes "
        "counters warheads pieces dice suits hits"
    ),
    "fr": words(
        "cartes sections points pts parties joueurs tours minutes secondes relances redondances "
        "compteurs ogives pièces dés jaunes rouges vertes verts bleues bleus gagnées perdues "
        "abandonnées coups places"
    ),
}
SINGULAR = {
    "en": words(
        "card section point game player turn minute second reroll fail-safe counter warhead "
        "piece die suit hit"
    ),
    "fr": words(
        "carte section point partie joueur tour minute seconde relance redondance compteur "
        "ogive pièce dé jaune gagnée perdue abandonnée coup place"
    ),
}
#: Text typography leaves alone: links, Discord markup, code.
UNTOUCHED = re.compile(r"https?://\S+|<[^<>\s]*>|`[^`\n]*`")


@functools.cache
def catalog(language: str) -> dict[str, tuple[str, ...]]:
    """Message id -> its text(s) (one, or one per plural form)."""
    with catalog_path(language).open("rb") as f:
        messages = read_po(f, locale=language)
    found = {}
    for message in messages:
        if message.id:
            key = message.id[0] if message.pluralizable else message.id
            found[key] = tuple(message.string) if message.pluralizable else (message.string,)
    return found


def placeholders(texts: tuple[str, ...]) -> set[str]:
    return {name for text in texts for _, name, _, _ in string.Formatter().parse(text) if name}


def rendered(language: str, key: str, n: int) -> str:
    """Message `key` with every number `n` (5 if never 1) and other placeholders a stand-in."""
    english = catalog("en")[key]
    values: dict[str, object] = {"count": n} if len(english) > 1 else {}  # chooses the form
    for name in placeholders(english):
        values[name] = (5 if (key, name) in NEVER_ONE else n) if name in NUMBERS else "X"
    return t(language, key, **values)


KEYS = sorted(catalog("en"))


def offences(language: str, check) -> list[str]:
    """What `check(language, key)` finds wrong in each message of the catalog (its problems,
    a list of strings for each key), every offending message listed."""
    return [problem for key in KEYS for problem in check(language, key)]


def fail_listing(problems: list[str]) -> str:
    return f"{len(problems)} offending message(s):\n" + "\n".join(problems)


def read_with_1_2_and_5(language: str, key: str) -> list[str]:
    """The problems of message `key` rendered with 1, 2 and 5: a placeholder left, a noun
    whose form does not fit its number, spacing."""
    plural, singular = PLURAL[language], SINGULAR[language]
    problems = []
    for n in (1, 2, 5):
        text = rendered(language, key, n)
        if "{" in text or "}" in text:
            problems.append(f"{key}: placeholder left in {text!r}")
        for number, word in re.findall(r"(?<![\w.,/#-])(\d+) ([\w-]+)", text):
            if word.lower() in (plural if number == "1" else singular):
                problems.append(f"{key}: {number} {word} in {text!r}")
        problems += spacing(language, key, text)
    return problems


@pytest.mark.parametrize("language", languages())
def test_every_message_reads_right_with_1_2_and_5(language):
    problems = offences(language, read_with_1_2_and_5)
    assert not problems, fail_listing(problems)


def spacing(language: str, key: str, text: str) -> list[str]:
    """French: a narrow no-break space before : ; ! ?; English: no space before them."""
    prose = UNTOUCHED.sub("", text)
    problems = []
    if language == "fr":
        if re.search(r"[ \u00a0][:;!?]", prose):
            problems.append(f"{key}: plain space in {text!r}")
        glued = re.search(r"[^\s:;!?][:;!?](?=\s|$|\*)", prose)
        if glued:
            problems.append(f"{key}: no space before {glued[0][-1]!r} in {text!r}")
    else:
        if re.search(r"\s[:;!?]", prose):
            problems.append(f"{key}: space before a mark in {text!r}")
        if NARROW_SPACE in text:
            problems.append(f"{key}: French spacing in English: {text!r}")
    return problems


def counted_with_a_plural_form(language: str, key: str) -> list[str]:
    """ "{sections} sections" cannot agree with its number: "{count} section(s)" can."""
    nouns = PLURAL[language] | SINGULAR[language]
    texts = catalog(language)[key]
    plural_message = len(texts) > 1
    problems = []
    for text in texts:
        for name, word in re.findall(r"\{(\w+)\}[ \u00a0]([\w-]+)", text):
            counts = name in NUMBERS and word.lower() in nouns and (key, name) not in NEVER_ONE
            if counts and not (name == "count" and plural_message):
                problems.append(f"{key}: {{{name}}} {word} in {text!r}")
    counted = (re.findall(r"\{count\} ([\w-]+)", text) for text in texts)
    if plural_message and nouns.intersection(w.lower() for found in counted for w in found):
        one, two = rendered(language, key, 1), rendered(language, key, 2)
        if one.replace("1", "2") == two:
            problems.append(f"{key}: the same words for 1 and 2: {one!r}")
    return problems


@pytest.mark.parametrize("language", languages())
def test_a_number_before_a_noun_is_a_count_with_a_plural_form(language):
    """ "{sections} sections" cannot agree with its number: "{count} section(s)" can."""
    problems = offences(language, counted_with_a_plural_form)
    assert not problems, fail_listing(problems)


def test_the_checks_list_every_offending_message():
    """A failure names every offending message, not just the first one found."""
    assert spacing("fr", "a", "Victoire !") == ["a: plain space in 'Victoire !'"]
    assert spacing("fr", "b", "Victoire!") == ["b: no space before '!' in 'Victoire!'"]
    assert len(spacing("en", "c", "Time :\u202f5!")) == 2
    problems = offences("fr", lambda language, key: [key] if key.startswith("count.") else [])
    assert len(problems) > 1 and all(p.startswith("count.") for p in problems)
    listed = fail_listing(problems)
    assert listed.startswith(f"{len(problems)} offending message(s):")
    assert all(p in listed.splitlines() for p in problems)


@pytest.mark.parametrize("language", languages())
def test_no_cards_is_said_in_words(language):
    assert not re.match(r"0\b", t(language, "count.cards", count=0))


def test_english_articles_fit_their_numbers():
    """ "an 8-point rocket", "an 11", "a 1", "a 5": by how the number is said."""
    for key in KEYS:
        for n in (1, 2, 5, 8, 11, 18, 80):
            text = rendered("en", key, n)
            wrong = re.search(r"\b[Aa] (8|11|18|80)\b|\b[Aa]n (1|2|5)\b", text)
            assert not wrong, f"{key}: {text!r}"


def test_french_typography_leaves_links_markup_and_times_alone():
    marked = typeset("fr", "Apophis arrive <t:{at}:R> : voyez https://x.y/a?b=1 ; `/a:b` ?")
    assert (
        marked.format(at=5)
        == "Apophis arrive <t:5:R>\u202f: voyez https://x.y/a?b=1\u202f; `/a:b`\u202f?"
    )
    assert typeset("fr", "« oui »") == "«\u202foui\u202f»"
    assert typeset("fr", "Victoire!") == "Victoire\u202f!"
    assert typeset("fr", "12:57, :rocket: et ?!") == "12:57, :rocket: et\u202f?!"
    assert "à 14:57 de la fin" in t("fr", "notice.stopped", left="14:57")  # values stay as given
    assert typeset("en", "Time: 14:57!") == "Time: 14:57!"
