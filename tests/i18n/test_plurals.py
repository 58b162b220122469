"""Every message that counts, in every catalog, read with 0, 1, 2 and 5.

A message with a plural form (gettext's msgid_plural) is chosen by Babel with its
language's CLDR rule: English says "1 card" and "0 cards", French "0 carte" and "1 carte"
(0 and 1 are singular) and "2 cartes". Each catalog's Plural-Forms must be that rule, each
count must pick its form by it, and the singular form must read singular, the plural one
plural. A message without a plural form that puts a count before a word ("{count}
choices") would read "1 choices": the word after its number must be one that does not
change with it ("{count} min", "{count} choix", "{count} to choose from").
"""

from __future__ import annotations

import re

import pytest
from babel import Locale
from babel.plural import to_python

from bot.i18n.catalogs import catalog_path, languages, t, typeset
from tests.i18n.test_wording import KEYS, NEVER_ONE, NUMBERS, SINGULAR, catalog, placeholders

COUNTS = (0, 1, 2, 5)
#: Numbers that are not counts of what follows them (a game's number, a percentage, a
#: die's target), so the word after them need not agree.
NOT_COUNTS = frozenset({"id", "percent", "target", "success", "explode", "rank", "version"})
#: A range's top end (`{low} to {high} characters`): the noun counts the range.
RANGES = frozenset({("error.option_length", "high")})
#: Words that end as plurals do but read the same for one ("requis", "choix") or are not
#: nouns at all ("s" for seconds, "dans", "sans").
SAME_FOR_ONE = {
    "en": frozenset({"s", "is", "was", "has", "goes", "its", "plus", "us"}),
    "fr": frozenset({"s", "requis", "choix", "dans", "sans", "plus", "pas", "fois", "sous", "vos"}),
}
#: Words that may stand between a number and what it counts ("3 more turns", "3 déjà
#: installés"): the word after them is the one that agrees.
BETWEEN = frozenset({"more", "already", "déjà", "encore"})

PLURAL_KEYS = [key for key in KEYS if len(catalog("en")[key]) > 1]


def looks_plural(language: str, word: str) -> bool:
    """Whether `word` carries its language's plural mark (-s; in French also -x)."""
    word = word.lower()
    if word in SAME_FOR_ONE[language] or len(word) < 3:
        return False
    return word.endswith(("s", "x") if language == "fr" else "s") and not word.endswith("ss")


def counted_words(text: str) -> list[tuple[str, str]]:
    """Each number placeholder of `text` with the word that agrees with it (if any)."""
    found = []
    for match in re.finditer(r"\{(\w+)\}((?:[ \u00a0][\w’'-]+){1,2})", text):
        name, after = match[1], match[2].split()
        word = after[1] if after[0].lower() in BETWEEN and len(after) > 1 else after[0]
        found.append((name, word))
    return found


def plural_rule(language: str):
    """The catalog's own rule (its Plural-Forms header) as a function of the count."""
    with catalog_path(language).open(encoding="utf-8") as f:
        header = re.search(r'"Plural-Forms: nplurals=(\d+); plural=(.*?);\\n"', f.read())
    assert header, f"{language}: no Plural-Forms header"
    forms, expression = int(header[1]), header[2]
    return forms, eval(f"lambda n: int({expression.replace('&&', 'and').replace('||', 'or')})")


def values(key: str, n: int) -> dict[str, object]:
    """Message `key`'s placeholders: its count `n`, its other numbers 5, words a stand-in."""
    filled: dict[str, object] = {"count": n}
    for name in placeholders(catalog("en")[key]) - {"count"}:
        filled[name] = 5 if name in NUMBERS else "X"
    return filled


@pytest.mark.parametrize("language", languages())
def test_each_catalog_counts_by_its_languages_cldr_rule(language):
    """The Plural-Forms header is Babel's rule for the language: French 0 and 1 singular."""
    forms, rule = plural_rule(language)
    assert forms >= 2
    cldr = to_python(Locale.parse(language).plural_form)
    for n in range(0, 2001):  # (French's CLDR "many", for millions, is never counted)
        assert (rule(n) == 0) == (cldr(n) == "one"), f"{language}: {n}"
    singular = [n for n in COUNTS if rule(n) == 0]
    assert singular == ([0, 1] if language == "fr" else [1])


@pytest.mark.parametrize("language", languages())
@pytest.mark.parametrize("key", PLURAL_KEYS)
def test_every_plural_message_picks_its_form_at_0_1_2_and_5(language, key):
    """Each count picks the form its language's rule says (0 its own words where the
    catalog has them, "no cards"), with no placeholder left."""
    _, rule = plural_rule(language)
    forms = catalog(language)[key]
    zero = catalog(language).get(f"{key}.zero")
    for n in COUNTS:
        text = t(language, key, **values(key, n))
        assert "{" not in text and "}" not in text, text
        chosen = zero[0] if n == 0 and zero else forms[rule(n)]
        assert text == typeset(language, chosen).format(**values(key, n)), f"{key} at {n}"


@pytest.mark.parametrize("language", languages())
def test_a_singular_form_reads_singular_and_a_plural_form_plural(language):
    """ "{count} card" / "{count} cards", never "{count} cards" for one."""
    problems = []
    for key in PLURAL_KEYS:
        singular, plural = catalog(language)[key][:2]
        for name, one in counted_words(singular):
            if name == "count" and looks_plural(language, one):
                problems.append(f"{key}: {one!r} in the singular form {singular!r}")
        for name, many in counted_words(plural):
            unchanged = (name, many) in counted_words(singular)
            if name == "count" and unchanged and many in SINGULAR[language]:
                problems.append(f"{key}: {many!r} in the plural form {plural!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("language", languages())
def test_a_count_without_a_plural_form_is_followed_by_a_word_the_same_for_one(language):
    """ "Build… (1 choices)": a count in a message with one form must not precede a
    plural; the message needs a plural form, or words that read right with 1 and 5."""
    problems = []
    for key in KEYS:
        texts = catalog(language)[key]
        if len(texts) > 1:
            continue
        for name, word in counted_words(texts[0]):
            counts = name in NUMBERS and name not in NOT_COUNTS
            if counts and (key, name) not in NEVER_ONE | RANGES and looks_plural(language, word):
                problems.append(f"{key}: {{{name}}} {word} in {texts[0]!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("language", languages())
def test_every_counted_message_reads_right_at_0_1_2_and_5(language):
    """Rendered: no "1 cards", no French "0 cartes" (0 is singular there), no "2 card"."""
    _, rule = plural_rule(language)
    problems = []
    for key in PLURAL_KEYS:
        for n in COUNTS:
            text = t(language, key, **values(key, n))
            for number, word in re.findall(r"(?<![\w.,/#-])(\d+)[ \u00a0]([\w’'-]+)", text):
                if number != str(n) or word.lower() in BETWEEN:
                    continue
                if rule(n) == 0 and looks_plural(language, word):
                    problems.append(f"{key} at {n}: {text!r}")
    assert not problems, "\n".join(problems)


def test_the_checks_see_what_they_are_for():
    """The checks would catch the words this file was written for."""
    assert counted_words("Build… ({count} choices)") == [("count", "choices")]
    assert looks_plural("en", "choices") and not looks_plural("fr", "choix")
    assert counted_words("{count} déjà installés") == [("count", "installés")]
    assert looks_plural("fr", "installés") and looks_plural("fr", "spectateurs")
    assert not looks_plural("fr", "requis") and not looks_plural("en", "pass")
    _, rule = plural_rule("fr")
    assert [rule(n) for n in COUNTS] == [0, 0, 1, 1]


#: Counts that can be 0 in play (a hand emptied by launching, then left; no hit yet; a
#: hurried hint with less than a turn left): said in words, not "their 0 cards".
CAN_BE_ZERO = (
    "count.cards",
    "event.left",
    "told.removed",
    "leave.confirm",
    "hint.hurry",
    "profile.hits",
    "story.hits",
    "story.launches",
)


@pytest.mark.parametrize("language", languages())
@pytest.mark.parametrize("key", CAN_BE_ZERO)
def test_a_count_that_can_be_nothing_says_so_in_words(language, key):
    text = t(language, key, **values(key, 0))
    assert not re.search(r"(?<![\w#])0(?!\w)", text), text
