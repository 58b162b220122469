"""The live table's font (bot/web/fonts/table.woff2, devtools/font_subset.py): it has every
character the web's messages and the client's sources write, each named when missing; it
stays small; its figures keep one width; the built client carries it (its stylesheet names
it among the client's own hashed assets, which Discord's proxy passes like the rest)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator

import pytest
from babel.messages.pofile import read_po
from fontTools.ttLib import TTFont

from bot.i18n.catalogs import catalog_path, typeset
from bot.web import server
from devtools.font_subset import CLIENT_SOURCES, SOURCE, TARGET

MAX_BYTES = 40 * 1024


def cmap(path) -> set[int]:
    return set(TTFont(path).getBestCmap())


def web_messages() -> Iterator[tuple[str, str]]:
    """(where, text) for each English and French message under `web.`, as the table shows it
    (French typography sets its narrow no-break spaces)."""
    for language in ("en", "fr"):
        with catalog_path(language).open("rb") as f:
            catalog = read_po(f, locale=language)
        for message in catalog:
            key = message.id[0] if message.pluralizable else message.id
            if not key or not key.startswith("web."):
                continue
            forms = message.string if isinstance(message.string, tuple) else (message.string,)
            for form in forms:
                yield f"{language} {key}", typeset(language, form)


def client_characters() -> Iterator[tuple[str, str]]:
    """(where, character) for each non-ASCII character of the client's sources."""
    for path in sorted(CLIENT_SOURCES.glob("*.ts")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for character in line:
                if ord(character) > 0x7E:
                    yield f"{path.name}:{number}", character


def system_emoji(character: str) -> bool:
    """A character left to the system's emoji font: a pictograph beyond the font's planes
    (🚀, 🟥), or the variation selector asking for an emoji's presentation."""
    return ord(character) >= 0x1F000 or character == "\ufe0f"


def describe(character: str) -> str:
    return f"U+{ord(character):04X} {character!r} {unicodedata.name(character, '?')}"


def test_the_table_font_has_every_character_of_the_webs_messages_and_the_client():
    has, source = cmap(TARGET), cmap(SOURCE)
    written = [(where, c) for where, text in web_messages() for c in text]
    written += list(client_characters())
    assert len({where for where, _ in written}) > 60  # both catalogs' web.* and the sources
    missing = {}
    for where, character in written:
        if unicodedata.category(character) == "Cc" or ord(character) in has:
            continue
        if ord(character) not in source and system_emoji(character):
            continue
        missing.setdefault(character, where)
    assert not missing, "\n".join(
        [f"bot/web/fonts/table.woff2 lacks {len(missing)} character(s) the table writes:"]
        + [
            f"  {describe(c)}, in {where}"
            + ("" if ord(c) in source else " (DejaVu Sans Condensed lacks it too)")
            for c, where in missing.items()
        ]
        + ["run: .venv/bin/python -m devtools.font_subset"]
    )


def test_the_table_font_is_small_and_keeps_its_tabular_figures():
    size = TARGET.stat().st_size
    assert size < MAX_BYTES, f"{size / 1024:.1f} KB (at most {MAX_BYTES // 1024} KB)"
    font = TTFont(TARGET)
    assert font.flavor == "woff2"
    glyphs = font.getBestCmap()
    widths = {font["hmtx"][glyphs[ord(d)]][0] for d in "0123456789"}
    assert len(widths) == 1, widths  # a clock's figures do not shift as it counts down
    assert "fpgm" not in font and "prep" not in font  # no hinting


def test_the_built_client_carries_the_table_font():
    """The stylesheet names the subset as one of the client's assets (hashed by the build,
    so a new cut reaches every browser at once), never the whole font."""
    if not (server.CLIENT / "index.html").is_file():
        pytest.skip("the web client is not built (`make client`, which `make test` runs)")
    assets = server.CLIENT / "assets"
    fonts = [p for p in assets.iterdir() if p.suffix == ".woff2"]
    assert [p.read_bytes() for p in fonts] == [TARGET.read_bytes()], fonts
    styles = " ".join(p.read_text() for p in assets.glob("*.css"))
    assert f"url(./{fonts[0].name})" in styles.replace('"', "")
    assert ".ttf" not in styles
