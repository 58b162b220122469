"""What the game says, in parts: the people, places and moments it names, and the words it
stresses, for each door to write its own way.

A text that names someone (`Person`), a channel (`Channel`) or a moment (`Moment`), or
whose catalog message stresses words (``**…**``), is a `Said`: a string whose value is
the form the views' messages carry (Discord's: ``<@id>``, ``<#id>``, ``<t:…:R>``, bold as
written), and which keeps what it was made of, so that another door writes it from its
parts (`written`, with that door's `Markup`: the live table names people, and shows no
moment it cannot keep current). A text with none of these is a plain string, read the
same by every door. Joining texts keeps their parts (`joined`); a text built with an
f-string or `str.join` is what it reads in Discord only.
"""

from __future__ import annotations

import functools
import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Person:
    """Someone the game names (a person: a crewmate is named in words, bot.views.render)."""

    id: int

    def __format__(self, spec: str) -> str:
        return f"<@{self.id}>"


@dataclass(frozen=True, slots=True)
class Channel:
    """A channel or thread the game names."""

    id: int

    def __format__(self, spec: str) -> str:
        return f"<#{self.id}>"


@dataclass(frozen=True, slots=True)
class Moment:
    """A moment, as each reader's clock shows it: relative ("in 5 minutes", `style` R) or
    the time of day (T), in Discord's styles."""

    at: int
    style: str = "R"

    def __format__(self, spec: str) -> str:
        return f"<t:{self.at}:{self.style}>"


Part = Person | Channel | Moment
#: Where stressed words begin or end in a catalog's message.
STRESS = "**"


class _Stress:
    """Where stressed words begin or end among a `Said`'s pieces."""


STRESSED = _Stress()


class Markup(Protocol):
    """How a door writes the parts of a text."""

    def person(self, person: Person) -> str: ...

    def channel(self, channel: Channel) -> str: ...

    def moment(self, moment: Moment) -> str: ...

    def stressed(self, text: str) -> str: ...


class Said(str):
    """A text with parts (see the module docstring): its value is its form in the views'
    messages; `pieces` are what it is made of, in order: strings, parts, nested texts,
    and `STRESSED` where stressed words begin or end."""

    __slots__ = ("_params", "_pieces", "_template")

    _template: str
    _params: Mapping[str, object] | None
    _pieces: tuple[object, ...] | None

    def __new__(
        cls,
        value: str,
        template: str = "",
        params: Mapping[str, object] | None = None,
        pieces: tuple[object, ...] | None = None,
    ) -> Said:
        """A text worth `value`, made of `pieces`, or of a catalog message's `template`
        filled from `params` (read into pieces only when a door asks)."""
        said = str.__new__(cls, value)
        said._template, said._params, said._pieces = template, params, pieces
        return said

    def pieces(self) -> tuple[object, ...]:
        if self._pieces is None:
            self._pieces = tuple(_read(self._template, self._params or {}))
        return self._pieces


def _read(template: str, params: Mapping[str, object]) -> Iterable[object]:
    """A catalog message's pieces once filled: its words (with `STRESSED` where it
    stresses some) and its values, as `str.format` would fill them."""
    for literal, name, spec, conversion in string.Formatter().parse(template):
        stressed = literal.split(STRESS)
        for i, words in enumerate(stressed):
            if i:
                yield STRESSED
            if words:
                yield words
        if name is None:
            continue
        value = params[name]
        if isinstance(value, Person | Channel | Moment | Said):
            yield value
        else:
            if conversion:
                value = repr(value) if conversion == "r" else str(value)
            yield format(value, spec or "")


#: People and channels kept named (a board names its players again at every action).
NAMED = 4096


@functools.lru_cache(maxsize=NAMED)
def person(user_id: int) -> Said:
    return Said(f"<@{user_id}>", pieces=(Person(user_id),))


@functools.lru_cache(maxsize=NAMED)
def channel(channel_id: int) -> Said:
    return Said(f"<#{channel_id}>", pieces=(Channel(channel_id),))


@functools.lru_cache(maxsize=NAMED)
def moment(at: int, style: str = "R") -> Said:
    shown = Moment(at, style)
    return Said(format(shown), pieces=(shown,))


def joined(separator: str, texts: Iterable[str]) -> str:
    """`separator.join(texts)`, keeping the parts of those that have some."""
    texts = list(texts)
    value = separator.join(texts)
    if not any(isinstance(text, Said) for text in texts):
        return value
    pieces: list[object] = []
    for i, text in enumerate(texts):
        if i and separator:
            pieces.append(separator)
        pieces.append(text)
    return Said(value, pieces=tuple(pieces))


def written(text: str, markup: Markup) -> str:
    """`text` as the door of `markup` writes it (a plain string: as it is)."""
    if not isinstance(text, Said):
        return str(text)
    out: list[str] = []
    stress: list[str] | None = None
    for piece in _flat(text):
        if piece is STRESSED:
            if stress is None:
                stress, out = out, []
            else:
                out = [*stress, markup.stressed("".join(out))]
                stress = None
            continue
        if isinstance(piece, Person):
            piece = markup.person(piece)
        elif isinstance(piece, Channel):
            piece = markup.channel(piece)
        elif isinstance(piece, Moment):
            shown = markup.moment(piece)
            if not shown and out:  # a moment not shown takes the space before it along
                out[-1] = out[-1].rstrip()
            piece = shown
        out.append(str(piece))
    return "".join(stress + out if stress is not None else out)


def _flat(text: Said) -> Iterable[object]:
    """`text`'s pieces, nested texts' pieces in their place."""
    for piece in text.pieces():
        if isinstance(piece, Said):
            yield from _flat(piece)
        else:
            yield piece
