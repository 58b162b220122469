"""The live table's font (bot/web/fonts/table.woff2, devtools/font_subset.py): it has every
character the web's messages and the client's sources write, each named when missing; it
stays small; its figures keep one width; the server serves it with the security headers."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator

import aiohttp
import pytest
from babel.messages.pofile import read_po
from fontTools.ttLib import TTFont

from bot.i18n.catalogs import catalog_path, typeset
from bot.web import server
from devtools.font_subset import CLIENT_SOURCES
from tests.bot.helpers import Scene

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
    has, source = cmap(server.TABLE_FONT), cmap(server.FONT)
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
    size = server.TABLE_FONT.stat().st_size
    assert size < MAX_BYTES, f"{size / 1024:.1f} KB (at most {MAX_BYTES // 1024} KB)"
    font = TTFont(server.TABLE_FONT)
    assert font.flavor == "woff2"
    glyphs = font.getBestCmap()
    widths = {font["hmtx"][glyphs[ord(d)]][0] for d in "0123456789"}
    assert len(widths) == 1, widths  # a clock's figures do not shift as it counts down
    assert "fpgm" not in font and "prep" not in font  # no hinting


@pytest.mark.e2e
async def test_the_server_serves_the_table_font_and_still_the_old_one(fake_discord, make_web_bot):
    bot = make_web_bot()
    Scene(fake_discord, bot, names=("ann",))
    async with fake_discord.connected(bot):
        base = f"http://127.0.0.1:{bot.web.port}"
        async with aiohttp.ClientSession() as http:
            for prefix in ("", server.PROXY):
                async with http.get(f"{base}{prefix}/fonts/table.woff2") as r:
                    assert r.status == 200, prefix
                    assert r.headers["Content-Type"] == "font/woff2"
                    assert await r.read() == server.TABLE_FONT.read_bytes()
                    cache = dict(
                        part.strip().partition("=")[::2]
                        for part in r.headers["Cache-Control"].split(",")
                    )
                    assert "public" in cache and int(cache["max-age"]) >= 7 * 86400
                    policy = r.headers["Content-Security-Policy"]
                    assert "default-src 'self'" in policy and "font-src 'self'" in policy
                    assert r.headers["X-Content-Type-Options"] == "nosniff"
                    assert r.headers["Referrer-Policy"] == "no-referrer"
                    assert "aiohttp" not in r.headers["Server"]
            async with http.get(f"{base}/fonts/DejaVuSansCondensed.ttf") as r:
                assert r.status == 200
                assert len(await r.read()) == server.FONT.stat().st_size
