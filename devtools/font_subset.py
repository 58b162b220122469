"""Write the live table's font: DejaVu Sans Condensed cut to what the table writes, as WOFF2.

Run: .venv/bin/python -m devtools.font_subset   (then commit bot/web/fonts/table.woff2)
The bot's font for its pictures (bot/pictures/fonts/DejaVuSansCondensed.ttf, 683 KB) has
some 6,000 characters; the table writes a few hundred. Kept: Basic Latin, Latin-1, the
French letters, typographic punctuation, the arrows, maths signs, suits and symbols of
`KEPT`, and every character of every message of the catalogs (the table shows the web's
own words and the bot's lines: the log, the hand panel, the results) and of the client's
sources (bot/web/client/src). Characters the font does not have (emoji: the system's
emoji font draws them) are listed, not kept. Hinting is dropped (browsers hint, or do not,
themselves); the figures keep their one width (DejaVu's digits are tabular as drawn, and
`tnum` is kept where a font has it). tests/web/test_font.py checks the committed file
covers the web's messages and the client's characters: when it names one missing, run
this again.
"""

from __future__ import annotations

import argparse
import sys
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from babel.messages.pofile import read_po
from fontTools import subset
from fontTools.ttLib import TTFont

from bot.i18n.catalogs import catalog_path, languages, typeset

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "bot" / "pictures" / "fonts" / "DejaVuSansCondensed.ttf"
TARGET = ROOT / "bot" / "web" / "fonts" / "table.woff2"
CLIENT_SOURCES = ROOT / "bot" / "web" / "client" / "src"
#: The characters kept whether or not a message uses them today: ranges of code points.
KEPT = (
    (0x0020, 0x007E),  # Basic Latin
    (0x00A0, 0x00FF),  # Latin-1 Supplement (é à ç ë ï « » ¶ · × ÷, the no-break space)
    (0x0152, 0x0153),  # Œ œ
    (0x0178, 0x0178),  # Ÿ
    (0x2010, 0x2027),  # dashes, quotes ‘ ’ “ ”, bullet •, ellipsis …
    (0x202F, 0x202F),  # the narrow no-break space (French typography)
    (0x2030, 0x203A),  # ‰ ′ ″ ‹ ›
    (0x20AC, 0x20AC),  # €
    (0x2190, 0x2193),  # ← ↑ → ↓
    (0x21AA, 0x21AA),  # ↪
    (0x21BA, 0x21BB),  # ↺ ↻
    (0x2212, 0x2212),  # − (minus)
    (0x2260, 0x2265),  # ≠ ≤ ≥
    (0x25A0, 0x25A1),  # ■ □
    (0x25A6, 0x25A6),  # ▦
    (0x25B2, 0x25B6),  # ▲ △ ▴ ▵ ▶
    (0x25BC, 0x25C0),  # ▼ ▽ ▾ ▿ ◀
    (0x25C6, 0x25C9),  # ◆ ◇ ◈ ◉
    (0x25CB, 0x25CF),  # ○ ◌ ◍ ◎ ●
    (0x2604, 0x2606),  # ☄ ★ ☆
    (0x2630, 0x2630),  # ☰ (a menu)
    (0x2660, 0x2667),  # ♠ ♡ ♢ ♣ ♤ ♥ ♦ ♧
    (0x267B, 0x267B),  # ♻
    (0x2699, 0x2699),  # ⚙ (settings)
    (0x26A0, 0x26A0),  # ⚠
    (0x2713, 0x2718),  # ✓ ✔ ✕ ✖ ✗ ✘
    (0x271A, 0x271A),  # ✚
    (0x1F0A0, 0x1F0A0),  # 🂠 (a card's back)
)
#: Names kept: the font's own (1-6) and its copyright, licence and licence URL (0, 13, 14).
NAME_IDS = [0, 1, 2, 3, 4, 5, 6, 13, 14]


def catalog_texts() -> Iterable[str]:
    """Every message of every catalog, set as its language sets it (the table shows them)."""
    for language in languages():
        with catalog_path(language).open("rb") as f:
            catalog = read_po(f, locale=language)
        for message in catalog:
            if not message.id:
                continue
            forms = (message.string,) if isinstance(message.string, str) else message.string or ()
            yield from (typeset(language, form) for form in forms if form)


def client_texts() -> Iterable[str]:
    """The client's sources (their non-ASCII characters are what it writes itself)."""
    for path in sorted(CLIENT_SOURCES.glob("*.ts")):
        yield path.read_text(encoding="utf-8")


def wanted() -> set[int]:
    """Every code point the table may write."""
    points = {p for first, last in KEPT for p in range(first, last + 1)}
    for text in (*catalog_texts(), *client_texts()):
        points.update(ord(c) for c in text if ord(c) > 0x7E)
    return points


def build(source: Path = SOURCE, target: Path = TARGET) -> list[int]:
    """Write the subset of `source` to `target`; the wanted code points it lacks."""
    font = TTFont(source, recalcTimestamp=False)  # the same bytes from the same input
    has = set(font.getBestCmap())
    points = wanted()
    options = subset.Options()
    options.flavor = "woff2"
    options.hinting = False
    options.desubroutinize = True
    options.layout_features = [*options.layout_features, "tnum"]
    options.name_IDs = NAME_IDS
    options.glyph_names = False
    options.drop_tables += ["FFTM", "MATH"]  # FontForge's timestamps; MathML's layout
    options.notdef_outline = True  # a missing character shows as a box, not as nothing
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(points & has))
    subsetter.subset(font)
    target.parent.mkdir(parents=True, exist_ok=True)
    font.flavor = "woff2"
    font.save(target)
    return sorted(points - has)


def describe(point: int) -> str:
    return f"U+{point:04X} {chr(point)} {unicodedata.name(chr(point), '?')}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=TARGET, help=f"where ({TARGET})")
    args = parser.parse_args()
    lacking = build(target=args.out)
    before, after = SOURCE.stat().st_size, args.out.stat().st_size
    print(f"{args.out}: {after / 1024:.1f} KB (from {before / 1024:.0f} KB)")
    if lacking:
        print("not in the font (left to the system's fonts):", file=sys.stderr)
        for point in lacking:
            print(f"  {describe(point)}", file=sys.stderr)


if __name__ == "__main__":
    main()
