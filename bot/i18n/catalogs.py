"""Every text players read comes from here: message catalogs, one per language.

Catalogs are gettext files, ``bot/i18n/locales/<language>/LC_MESSAGES/apophis.po``, read
with Babel and compiled in memory when first needed. Their message ids are keys such
as ``board.turn`` (code names a message, the catalog words it), with named
placeholders: ``t("fr", "board.turn", player=...)``. A message with a plural form
(gettext's ``msgid_plural``) is chosen by its ``count`` placeholder, with each
language's own plural rule; for a count of 0, a message ``<key>.zero`` says it in words
where the catalog has one ("no cards", "aucune carte"). English is complete by
definition; a message missing from another language falls back to English (the catalog
tests forbid that).

Each language's typography is the catalog layer's too: a looked-up text is set as its
language sets punctuation before its placeholders are filled (`typeset`). French puts a
narrow no-break space before ``: ; ! ? %`` and inside « », whatever spaces the catalog
wrote; links, Discord markup (``<t:…:R>``, ``<@…>``), emoji codes and code spans are
left as they are, and so are the filled-in values (times such as 14:57). A percentage is
a value of its own message (``number.percent``), so it is set the same way: "35 %" with
that narrow space in French, "35%" in English.

So are its elisions (`ELISIONS`): in French, a word that loses its vowel before a vowel
sound ("que", "de", "le", "la", "je", "ne", "se", "ce"…) is elided when the value filled
in after it begins with one: ``que {name}`` reads "que Bob" but "qu’Ada".

A message that names people, channels or moments (bot.i18n.said's parts) or stresses
words (``**…**``, the catalogs' mark) is a `Said`: it reads as the views' messages carry
it, and keeps its parts for each door to write (the live table: names, plain words).

Discord locales ("fr", "en-US", "en-GB") map to a catalog's language by their first
part (the slash commands' names in each language: bot.discord.translator).
"""

from __future__ import annotations

import functools
import io
import re
import unicodedata
from collections.abc import Callable, Mapping
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from bot.i18n.said import STRESS, Said
from engine import Colour

LOCALES = Path(__file__).parent / "locales"
DOMAIN = "apophis"
DEFAULT_LANGUAGE = "en"
#: French typography's space: narrow and no-break.
NARROW_SPACE = "\u202f"


def catalog_path(language: str) -> Path:
    return LOCALES / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def languages() -> tuple[str, ...]:
    """The languages with a catalog, English first."""
    found = sorted(p.name for p in LOCALES.iterdir() if catalog_path(p.name).is_file())
    found.remove(DEFAULT_LANGUAGE)
    return (DEFAULT_LANGUAGE, *found)


@functools.cache
def _plural_ids() -> dict[str, str]:
    """Message id -> its plural id, for the messages that have a plural form."""
    return {m.id[0]: m.id[1] for m in _english() if m.id and m.pluralizable}


@functools.cache
def _ids() -> frozenset[str]:
    """Every message id of the English catalog."""
    return frozenset(m.id if isinstance(m.id, str) else m.id[0] for m in _english() if m.id)


def _english() -> Catalog:
    with catalog_path(DEFAULT_LANGUAGE).open("rb") as f:
        return read_po(f)


@functools.cache
def _translations(language: str) -> Translations:
    with catalog_path(language).open("rb") as f:
        catalog = read_po(f, locale=language)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    translations = Translations(buffer, domain=DOMAIN)
    if language != DEFAULT_LANGUAGE:
        translations.add_fallback(_translations(DEFAULT_LANGUAGE))
    return translations


def language_of(locale: object | None) -> str:
    """The catalog language for a locale as its code reads ("fr" -> fr, "en-GB" -> en, else
    English; discord.py's Locale reads as its code)."""
    if locale is None:
        return DEFAULT_LANGUAGE
    prefix = str(locale).split("-")[0].lower()
    return prefix if prefix in languages() else DEFAULT_LANGUAGE


def t(language: str, key: str, /, **params: object) -> str:
    """The message `key` in `language`, its placeholders filled from `params`.

    A key that English lacks is a bug in the code, and raises KeyError.
    """
    wording = _wording(language, key, None)
    if wording.plural:
        count = params["count"]
        if count == 0 and wording.zero:
            wording = _wording(language, f"{key}.zero", None)
        else:
            wording = _wording(language, key, int(count))  # type: ignore[call-overload]
    if not params:
        return Said(wording.text, wording.text) if wording.stressed else wording.text
    if wording.stressed or Said in map(type, params.values()):  # a value with parts
        template = wording.elided(params)  # kept in parts, for each door to write
        return Said(template.format_map(params), template, params)
    return wording.filled(params)


class Line(str):
    """A line told in one language that can be told again in another: it is the words in
    the language it was told in (a channel's), and `told_in` words it in any other (a
    web viewer's), from what it was made of. Lines are never changed: each language's
    words are made once, and keep their parts (a `Said`'s) for each door to write."""

    language: str
    _word: Callable[[str], str]
    _words: dict[str, str]

    def __new__(cls, language: str, word: Callable[[str], str], words: str | None = None) -> Line:
        """`word` words the line in a language; `words`, if given, are its in `language`."""
        first = word(language) if words is None else words
        line = super().__new__(cls, first)
        line.language, line._word, line._words = language, word, {language: first}
        return line

    def told_in(self, language: str) -> str:
        """The line in `language` (a `Said` where it has parts)."""
        words = self._words.get(language)
        if words is None:
            words = self._words[language] = self._word(language)
        return words


def said(language: str, key: str, /, **params: object) -> Line:
    """The message `key` (as `t` words it) told in `language`, and in any other on demand;
    `params` must read the same in every language (names, numbers, times)."""
    return Line(language, lambda other: t(other, key, **params))


def told_in(line: str, language: str) -> str:
    """A line kept for a table, in `language` where it can be told again (a `Line`)."""
    return line.told_in(language) if isinstance(line, Line) else line


class Wording:
    """A message's words in one language before its placeholders are filled: looked up,
    set (`typeset`) and read for elisions once (`_wording`), then filled at every call."""

    __slots__ = (
        "_elided",
        "elision",
        "names",
        "placeholders",
        "plural",
        "stressed",
        "text",
        "zero",
    )

    def __init__(self, language: str, text: str, plural: bool = False, zero: bool = False):
        #: The words (for a message with a plural form asked without a count: none, and
        #: `plural`; `zero` if it has a ``<key>.zero`` message).
        self.text, self.plural, self.zero = text, plural, zero
        self.placeholders = "{" in text or "}" in text  # else filling leaves it as it is
        self.stressed = STRESS in text  # it stresses words (bot.i18n.said)
        self.elision = ELISIONS.get(language)
        #: The placeholders a word of the text may be elided before, in order (none: the
        #: text never elides).
        self.names: tuple[str, ...] = ()
        if self.elision is not None:
            self.names = tuple(dict.fromkeys(m["name"] for m in self.elision.finditer(text)))
        #: The text elided before the placeholders whose values begin with a vowel sound,
        #: by which of `names` do (at most two to the number of `names`).
        self._elided: dict[tuple[bool, ...], str] = {}

    def filled(self, params: Mapping[str, object]) -> str:
        """The text with its placeholders filled from `params`, elided where they say."""
        text = self.text if self.elision is None or not self.names else self.elided(params)
        return text.format_map(params) if self.placeholders else text

    def elided(self, params: Mapping[str, object]) -> str:
        """The text elided where the values of `params` say, placeholders still to fill."""
        text = self.text
        if self.elision is not None and self.names:
            vowels = tuple([starts_with_vowel_sound(params.get(name, "")) for name in self.names])
            if any(vowels):
                elided = self._elided.get(vowels)
                if elided is None:
                    elided = self._elided[vowels] = elide(self.elision, text, params)
                text = elided
        return text


@functools.lru_cache(maxsize=16384)
def _wording(language: str, key: str, count: int | None) -> Wording:
    """A message's `Wording` in `language`: for `count` if it has a plural form (asked
    without one, it only says that it has)."""
    if count is None and key in _plural_ids():
        return Wording(language, "", plural=True, zero=f"{key}.zero" in _ids())
    translations = _translations(language if language in languages() else DEFAULT_LANGUAGE)
    if count is not None:
        text = translations.ngettext(key, _plural_ids()[key], count)
    else:
        text = translations.gettext(key)
    if text == key:
        raise KeyError(f"no message {key!r} in the {DEFAULT_LANGUAGE} catalog")
    return Wording(language, typeset(language, text))


def has(key: str) -> bool:
    """Whether the English catalog has `key` (for optional messages, e.g. refusal codes)."""
    return key in _ids()


#: What typography leaves alone (links, Discord markup, code, emoji codes, placeholders),
#: and the marks French spaces: a high mark with the space before it, or an opening «.
_FRENCH_MARKS = re.compile(
    r"(?P<keep>https?://\S+|<[^<>\s]*>|`[^`\n]*`|:[\w+-]+:|\{[^{}]*\})"
    r"|(?P<space>[ \u00a0\u202f]?)(?P<mark>:(?![\w+-]+:)|[;!?»%])"
    r"|«[ \u00a0\u202f]?"
)
#: What may follow a mark that ends a phrase (so "14:57" or "https:" are left alone).
_AFTER_MARK = re.compile(r"$|[\s*_)»\"’.,…!?]")


def _french(text: str) -> str:
    """A narrow no-break space before : ; ! ? % and », after «, whatever the catalog wrote."""

    def spaced(match: re.Match[str]) -> str:
        mark = match["mark"]
        if match["keep"] is not None:
            return match[0]
        if mark is None:
            return "«" + NARROW_SPACE
        before = text[match.start() - 1 : match.start()]  # "" at the start: " ; " joins
        ends_phrase = _AFTER_MARK.match(text, match.end()) is not None
        doubled = not match["space"] and before in (":", ";", "!", "?")  # "?!"
        unspaced = before.isspace() or not (before or match["space"])
        if unspaced or doubled or not ends_phrase:
            return match[0]
        return NARROW_SPACE + mark

    return _FRENCH_MARKS.sub(spaced, text)


#: Each language's typography, applied to every looked-up text (none: as written).
TYPOGRAPHY: dict[str, Callable[[str], str]] = {"fr": _french}


def typeset(language: str, text: str) -> str:
    """`text` with `language`'s typography (the catalog layer's; code never spaces marks)."""
    typographer = TYPOGRAPHY.get(language)
    return typographer(text) if typographer else text


#: Each language's elisions: the words it shortens before a placeholder whose value begins
#: with a vowel sound. French: que, de, le, la, je, ne, se, ce, me, te, lorsque, puisque,
#: jusque (with or without a capital), and any markup between the word and the value.
ELISIONS: dict[str, re.Pattern[str]] = {
    "fr": re.compile(
        r"\b(?P<word>(?:[Jj]usqu|[Ll]orsqu|[Pp]uisqu|[Qq]u|[CcDdJjLlMmNnSsTt])e|[Ll]a) "
        r"(?=[*_]*\{(?P<name>\w+)[^{}]*\})"
    )
}
#: The letters that begin a vowel sound, once accents are set apart (é, î, Œ…). An h is
#: taken as mute, as in the names a message names (d’Hugo, qu’Hélène).
VOWEL_SOUNDS = frozenset("aeiouyhœæ")
APOSTROPHE = "’"


def starts_with_vowel_sound(value: object) -> bool:
    """Whether a filled-in value begins with a vowel sound ("Ada", "Élodie", "Hugo"; not
    "Bob", "3" or "<@1>")."""
    return _vowel_sound(str(value)[:1])


@functools.lru_cache(maxsize=1024)
def _vowel_sound(first: str) -> bool:
    """Whether a value's first character is a vowel sound's (its accent set apart)."""
    return unicodedata.normalize("NFD", first)[:1].lower() in VOWEL_SOUNDS


def elide(elision: re.Pattern[str], text: str, params: Mapping[str, object]) -> str:
    """`text` with each word `elision` finds elided ("que " → "qu’") where the value of the
    placeholder after it begins with a vowel sound; placeholders still to be filled."""

    def shortened(match: re.Match[str]) -> str:
        if not starts_with_vowel_sound(params.get(match["name"], "")):
            return match[0]
        return match["word"][:-1] + APOSTROPHE

    return elision.sub(shortened, text)


def refusal(language: str, code: str, params: dict[str, str | int]) -> str:
    """An engine refusal (`IllegalMove.code` and `.params`) in `language`'s words.

    Colours and sizes come as plain values; here they become the words of the language
    ("grande section rouge", "cœurs ♥", a price "1 cœur ♥"), so no English sentence of the
    engine is shown.
    """
    words: dict[str, object] = dict(params)
    if "colour" in params and "size" in params:
        words["section"] = t(language, f"section.{params['colour']}.{params['size']}")
    if "top_colour" in params:
        words["top_section"] = t(language, f"section.{params['top_colour']}.{params['top_size']}")
    if "colour" in params:
        colour = Colour(str(params["colour"]))
        words["suit"] = f"{t(language, f'suit.{colour.value}')} {colour.symbol}"
        if "cost" in params:
            price = t(language, f"count.suit.{colour.value}", count=params["cost"])
            words["price"] = f"{price} {colour.symbol}"
    if "size" in params:
        words["piece"] = t(language, f"section.{params['size']}")
    return t(language, f"refusal.{code}", **words)
