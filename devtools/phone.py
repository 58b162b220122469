"""How tall a message stands on a phone 360 px wide, laid out as Discord's mobile client does.

An estimate, not a rendering: text is wrapped word by word at the width it has, measured
in the shipped DejaVu Sans Condensed at 16 px (within a few per cent of Discord's gg sans),
an emoji counted 22 px wide; an embed's title, description, fields, picture (scaled to
the embed's width) and footer; a Components V2 layout's text, separators and container;
buttons as wide as their labels, wrapped onto lines 44 px apart. The message's own
chrome is counted too: the author's line, the "… used /command" line above an
interaction's answer, "Only you can see this" below an ephemeral one.

A screen of `SCREEN` px keeps `ROOM` px for messages once Discord's top bar and input bar
(`CHROME`) are drawn. `height` takes a message as Discord's JSON (what the fake Discord
records, or `bot.views.message.Message.json()`), and returns its parts' heights.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from PIL import ImageFont

from bot.pictures.sprites import FONT_FILE

SCREEN_WIDTH, SCREEN = 360, 740
#: Discord's top bar (the channel's name, the status bar) and its input bar.
TOP_BAR, INPUT_BAR = 120, 60
CHROME = TOP_BAR + INPUT_BAR
ROOM = SCREEN - CHROME
#: A message's text column: 16 px of margin, a 40 px avatar and 12 px beside it on the
#: left, 16 px of margin on the right.
TEXT_WIDTH = SCREEN_WIDTH - 16 - 40 - 12 - 16
#: An embed's inside: its 4 px edge, 12 px of padding on the left and 16 on the right.
EMBED_WIDTH = TEXT_WIDTH - 4 - 12 - 16
#: A Components V2 container's inside: its 4 px accent and 16 px of padding each side.
CONTAINER_WIDTH = TEXT_WIDTH - 4 - 32
#: Text sizes (px) and their lines' heights.
BODY, BODY_LINE = 16, 22
SMALL, SMALL_LINE = 13, 17
HEADINGS = {"# ": (24, 30), "## ": (20, 26), "### ": (18, 24)}
EMOJI = 22
#: A button's line (40 px tall, 4 px apart), its padding and its label's size.
BUTTON_LINE, BUTTON_PADDING, BUTTON_GAP, BUTTON_TEXT = 44, 32, 8, 14
#: A mention and a timestamp as they read ("@" and a name of 8 letters; "in 9 minutes").
MENTION = "@Brahim K"
TIMESTAMPS = {"R": "in 10 minutes", "t": "21:14", "T": "21:14:05", "d": "01/12/2026"}
TIMESTAMP = "1 December 2026 21:14"


@dataclass
class Height:
    """A message's height on the phone, part by part (px)."""

    parts: list[tuple[str, int]] = field(default_factory=list)

    def add(self, part: str, px: float) -> None:
        if px:
            self.parts.append((part, round(px)))

    @property
    def total(self) -> int:
        return sum(px for _, px in self.parts)

    def __str__(self) -> str:
        return f"{self.total} px (" + ", ".join(f"{p} {px}" for p, px in self.parts) + ")"


def height(
    message: Mapping[str, Any],
    pictures: Mapping[str, tuple[int, int]] | None = None,
    *,
    answer: bool = False,
    ephemeral: bool = False,
) -> Height:
    """`message` (Discord's JSON: content, embeds, components) on the phone. `pictures`
    names each attached file's size (`attachment://` names one); `answer`: an interaction's
    answer (the line above it); `ephemeral`: seen only by its reader (the line below)."""
    pictures = pictures or {}
    measured = Height()
    measured.add("gap and author", 16 + BODY_LINE)
    measured.add("used /command", 20 if answer else 0)
    if message.get("content"):
        measured.add("content", text_height(message["content"], TEXT_WIDTH))
    for embed in message.get("embeds") or []:
        _embed(measured, embed, pictures)
    components = message.get("components") or []
    for component in components:
        _component(measured, component, TEXT_WIDTH, top=True)
    measured.add("only you can see this", 4 + 20 if ephemeral else 0)
    return measured


def _embed(measured: Height, embed: Mapping[str, Any], pictures: Mapping[str, tuple[int, int]]):
    """An embed: 8 px of padding above, 16 below, its parts 8 px apart."""
    measured.add("embed padding", 4 + 8 + 16)
    if embed.get("title"):
        measured.add("title", text_height(f"**{embed['title']}**", EMBED_WIDTH))
    if embed.get("description"):
        measured.add("description", 4 + text_height(embed["description"], EMBED_WIDTH))
    fields = list(embed.get("fields") or [])
    while fields:
        inline = 1
        while inline < min(3, len(fields)) and all(f.get("inline") for f in fields[: inline + 1]):
            inline += 1
        width = (EMBED_WIDTH - 8 * (inline - 1)) / inline
        tallest = max(
            text_height(f"**{f['name']}**", width) + text_height(f["value"], width)
            for f in fields[:inline]
        )
        name = fields[0]["name"] if inline == 1 else " | ".join(f["name"] for f in fields[:inline])
        measured.add(f"field {name}", 8 + tallest)
        del fields[:inline]
    image = (embed.get("image") or {}).get("url", "")
    size = pictures.get(image.removeprefix("attachment://"))
    if size is not None:
        measured.add("picture", 16 + picture_height(size, EMBED_WIDTH))
    if embed.get("footer"):
        measured.add("footer", 8 + text_height(f"-# {embed['footer']['text']}", EMBED_WIDTH))


def _component(measured: Height, component: Mapping[str, Any], width: float, *, top: bool):
    """A component: a row of buttons or a select, a TextDisplay, a separator, a container."""
    kind = component.get("type")
    gap = 8
    if kind == 1:  # an action row
        items = component.get("components") or []
        if any(item.get("type") != 2 for item in items):
            measured.add("select", gap + BUTTON_LINE)
        else:
            measured.add("buttons", gap + BUTTON_LINE * button_lines(items, width))
    elif kind == 10:
        measured.add("text", (gap if not top else 0) + text_height(component["content"], width))
    elif kind == 14:
        measured.add("separator", 1 + (32 if component.get("spacing") == 2 else 16))
    elif kind == 17:
        measured.add("container padding", gap + 32)
        for child in component.get("components") or []:
            _component(measured, child, CONTAINER_WIDTH, top=False)


def button_lines(buttons: list[Mapping[str, Any]], width: float) -> int:
    """How many lines `buttons` take at `width`: each as wide as its emoji and label (at
    most the whole line), wrapped where the next one does not fit."""
    lines, used = 1, 0.0
    for item in buttons:
        label = str(item.get("label") or "")
        padded = BUTTON_PADDING + (EMOJI + 4 if item.get("emoji") else 0)
        wide = min(width, padded + line_width(label, BUTTON_TEXT))
        if used and used + BUTTON_GAP + wide > width:
            lines, used = lines + 1, wide
        else:
            used += (BUTTON_GAP if used else 0) + wide
    return lines


def picture_height(size: tuple[int, int], width: float) -> float:
    """A picture `size` (w, h) shown at most `width` wide, and never wider than it is."""
    w, h = size
    return h * min(1.0, width / w)


def png_size(png: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its header."""
    w, h = struct.unpack(">II", png[16:24])
    return w, h


# ------------------------------------------------------------------------ text

_MENTION = re.compile(r"<@[!&]?\d+>|<#\d+>")
_TIMESTAMP = re.compile(r"<t:-?\d+(?::([tTdDfFR]))?>")
_CUSTOM_EMOJI = re.compile(r"<a?:\w+:\d+>")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_MARKS = re.compile(r"\*\*|__|~~|\|\||`|(?<!\w)\*(?=\S)|(?<=\S)\*(?!\w)")


def readable(text: str) -> str:
    """`text`'s markdown as it reads: mentions, timestamps and links by what they show."""
    text = _MENTION.sub(MENTION, text)
    text = _TIMESTAMP.sub(lambda m: TIMESTAMPS.get(m.group(1) or "f", TIMESTAMP), text)
    text = _CUSTOM_EMOJI.sub("\U0001f600", text)
    text = _LINK.sub(r"\1", text)
    return _MARKS.sub("", text)


def text_height(text: str, width: float) -> int:
    """Markdown `text` wrapped at `width`: its lines' heights (headings and -# small print at
    their sizes, a quote's and a list's lines narrower)."""
    total = 0
    for line in text.split("\n"):
        size, step, indent = BODY, BODY_LINE, 0
        for mark, (heading, heading_line) in HEADINGS.items():
            if line.startswith(mark):
                line, size, step = line[len(mark) :], heading, heading_line + 8
        if line.startswith("-# "):
            line, size, step = line[3:], SMALL, SMALL_LINE
        if line.startswith(("> ", "- ", "• ")):
            line, indent = line[2:], 16
        total += step * wrapped_lines(readable(line), width - indent, size)
    return total


def wrapped_lines(text: str, width: float, size: int = BODY) -> int:
    """How many lines `text` takes at `width`, broken between words (a word too long for a
    line broken where it must)."""
    lines, used = 1, 0.0
    space = line_width(" ", size)
    for word in text.split(" "):
        wide = line_width(word, size)
        if used and used + space + wide > width:
            lines, used = lines + 1, 0.0
        elif used:
            used += space
        while wide > width:
            lines, wide = lines + 1, wide - width
        used += wide
    return lines


def line_width(text: str, size: int = BODY) -> float:
    """`text`'s width at `size` px: its letters in the font, each emoji `EMOJI` px."""
    font = _font(size)
    wide = 0.0
    letters = []
    for i, char in enumerate(text):
        if _emoji(char, text[i + 1 : i + 2]):
            wide += EMOJI * size / BODY
        elif char not in "\ufe0f\u200d":
            letters.append(char)
    return wide + font.getlength("".join(letters))


def _emoji(char: str, after: str) -> bool:
    """Whether Discord draws `char` as an emoji picture (pictographs, and the older
    symbols followed by U+FE0F)."""
    point = ord(char)
    return point >= 0x1F000 or (0x2190 <= point <= 0x2BFF and after == "\ufe0f")


@lru_cache(maxsize=8)
def _font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_FILE), size)
