"""Write the fonts the project ships, cut from bigger ones to what they are drawn for.

Run: .venv/bin/python -m devtools.font_subset   (then commit bot/web/fonts/table.woff2)
     .venv/bin/python -m devtools.font_subset --names   (then commit bot/pictures/fonts/Names*)

**The live table's font** is DejaVu Sans Condensed cut to what the table writes, as WOFF2.
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

**The board picture's fonts for names** (`--names`) draw what DejaVu lacks in people's
names, from Debian's fonts (`apt-get install fonts-noto-cjk fonts-noto-color-emoji`), both
under the SIL Open Font License (bot/pictures/fonts/OFL.txt): Noto Sans CJK SC cut to the
common Chinese characters (GB 2312's first level, 3,755), the Japanese kanji of JIS X 0208's
first level (2,965) and kana, and the Korean syllables of KS X 1001 (2,350), without hinting
(some 1.3 MB); Noto Color Emoji cut to its single characters (no sequences: the pictures
lay text out without ligatures), its bitmaps scaled from 109 to `EMOJI_PIXELS` pixels in 32
colours (some 0.6 MB).
"""

from __future__ import annotations

import argparse
import io
import sys
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from babel.messages.pofile import read_po
from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont
from PIL import Image

from bot.i18n.catalogs import catalog_path, languages, typeset
from bot.pictures.names import CJK_FILE, EMOJI_FILE, EMOJI_PIXELS

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "bot" / "pictures" / "fonts" / "DejaVuSansCondensed.ttf"
TARGET = ROOT / "bot" / "web" / "fonts" / "table.woff2"
CJK_SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
CJK_FACE = 2  # Noto Sans CJK SC, in Debian's collection
EMOJI_SOURCE = Path("/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf")
EMOJI_COLOURS = 32  # each bitmap's palette: the pictures' own has 96 colours in all
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


def double_byte(codec: str, rows: range) -> set[str]:
    """The characters of rows `rows` of a two-byte national character set (EUC form)."""
    found = set()
    for row in rows:
        for cell in range(1, 95):
            try:
                found.add(bytes((0xA0 + row, 0xA0 + cell)).decode(codec))
            except UnicodeDecodeError:
                continue
    return found


def cjk_characters() -> set[str]:
    """What names are written with: common hanzi, kanji and kana, common hangul."""
    return (
        double_byte("gb2312", range(16, 56))  # GB 2312 level 1
        | double_byte("euc_jp", range(16, 48))  # JIS X 0208 level 1
        | double_byte("euc_jp", range(4, 6))  # hiragana, katakana
        | double_byte("euc_kr", range(16, 41))  # KS X 1001's hangul syllables
    )


def build_cjk(target: Path = CJK_FILE) -> None:
    font = TTCollection(CJK_SOURCE).fonts[CJK_FACE]
    options = subset.Options()
    options.hinting = False
    options.layout_features = []  # laid out without features (sprites.font's BASIC)
    options.name_IDs = NAME_IDS
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(ord(c) for c in cjk_characters()))
    subsetter.subset(font)
    font.save(target)


def emoji_points(font: TTFont) -> list[int]:
    """The font's single emoji (not the digits and signs it also has, nor the joiner, the
    keycap and the skin tones, which only build sequences)."""
    builders = {0x200D, 0x20E3, 0xFE0F, *range(0x1F3FB, 0x1F400)}
    return [p for p in font.getBestCmap() if p > 0x7F and p not in builders]


def build_emoji(target: Path = EMOJI_FILE) -> None:
    font = TTFont(EMOJI_SOURCE)
    options = subset.Options()
    options.layout_features = []
    options.drop_tables += ["GSUB"]  # the sequences' ligatures
    options.name_IDs = NAME_IDS
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=emoji_points(font))
    subsetter.subset(font)
    strike = font["CBLC"].strikes[0].bitmapSizeTable
    scale = EMOJI_PIXELS / strike.ppemY
    for glyph in font["CBDT"].strikeData[0].values():
        metrics = glyph.metrics
        with Image.open(io.BytesIO(glyph.imageData)) as image:
            size = (max(1, round(metrics.width * scale)), max(1, round(metrics.height * scale)))
            small = image.convert("RGBA").resize(size, Image.Resampling.LANCZOS)
        out = io.BytesIO()
        small.quantize(EMOJI_COLOURS, Image.Quantize.FASTOCTREE).save(out, "PNG", optimize=True)
        glyph.imageData = out.getvalue()
        metrics.width, metrics.height = size
        for field in ("BearingX", "BearingY", "Advance"):
            setattr(metrics, field, round(getattr(metrics, field) * scale))
    strike.ppemX = strike.ppemY = EMOJI_PIXELS
    for line in (strike.hori, strike.vert):
        for field in ("ascender", "descender", "widthMax"):
            setattr(line, field, round(getattr(line, field) * scale))
    font.save(target)


def describe(point: int) -> str:
    return f"U+{point:04X} {chr(point)} {unicodedata.name(chr(point), '?')}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=TARGET, help=f"where ({TARGET})")
    parser.add_argument("--names", action="store_true", help="the pictures' fonts for names")
    args = parser.parse_args()
    if args.names:
        build_cjk()
        build_emoji()
        for path in (CJK_FILE, EMOJI_FILE):
            print(f"{path}: {path.stat().st_size / 1024:.0f} KB")
        return
    lacking = build(target=args.out)
    before, after = SOURCE.stat().st_size, args.out.stat().st_size
    print(f"{args.out}: {after / 1024:.1f} KB (from {before / 1024:.0f} KB)")
    if lacking:
        print("not in the font (left to the system's fonts):", file=sys.stderr)
        for point in lacking:
            print(f"  {describe(point)}", file=sys.stderr)


if __name__ == "__main__":
    main()
