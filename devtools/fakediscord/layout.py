"""Components V2 as Discord checks a message body: the flag, what it rules out, its limits.

A message with IS_COMPONENTS_V2 (1 << 15) is all components: a body that sets the flag
with content, embeds, stickers or a poll is refused (400), and so is one that uses a V2
component (a Container, a TextDisplay...) without the flag. A V2 message holds at most 40
components, nested ones counted; a TextDisplay 1 to 4000 characters. The flag is never
removed: an edit whose flags lack it is refused, and an edit that sets it must reset
``content`` to null and ``embeds`` to [] (a loading response being filled is new: it
has neither). Each function returns what is wrong (None: nothing), for the caller to
record and refuse.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

IS_COMPONENTS_V2 = 1 << 15
TEXT_DISPLAY = 10
#: Component types only a V2 message may carry: Section, TextDisplay, Thumbnail,
#: MediaGallery, File, Separator, Container.
V2_TYPES = frozenset({9, TEXT_DISPLAY, 11, 12, 13, 14, 17})
COMPONENT_LIMIT = 40
TEXT_LIMIT = 4000
#: What a V2 message may not carry (Create Message's documented 400s).
_EXCLUDED = ("content", "embeds", "sticker_ids", "poll")


def walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component, nested ones (a row's, a container's, a section's accessory) after
    their parent, in order."""
    for component in components:
        yield component
        yield from walk(component.get("components") or [])
        if component.get("accessory"):
            yield from walk([component["accessory"]])


def new_problem(body: dict[str, Any]) -> str | None:
    """What is wrong with a new message's body (a post, a response, a follow-up)."""
    v2 = bool((body.get("flags") or 0) & IS_COMPONENTS_V2)
    if v2:
        excluded = [name for name in _EXCLUDED if body.get(name)]
        if excluded:
            return f"IS_COMPONENTS_V2 with {', '.join(excluded)}: Discord answers 400"
    return _components_problem(body.get("components"), v2)


def edit_problem(flags: int, body: dict[str, Any]) -> str | None:
    """What is wrong with an edit's body, of a message whose flags are `flags` now."""
    was = bool(flags & IS_COMPONENTS_V2)
    given = body.get("flags")
    sets = given is not None and bool(given & IS_COMPONENTS_V2)
    if was and given is not None and not sets:
        return "an edit cannot remove IS_COMPONENTS_V2 from a message"
    if sets and not was and ("content" not in body or body["content"] is not None):
        return "an edit setting IS_COMPONENTS_V2 must reset content to null"
    if sets and not was and body.get("embeds") != []:
        return "an edit setting IS_COMPONENTS_V2 must reset embeds to []"
    v2 = was or sets
    if v2:
        excluded = [name for name in _EXCLUDED if body.get(name)]
        if excluded:
            return f"{', '.join(excluded)} on an IS_COMPONENTS_V2 message: Discord answers 400"
    return _components_problem(body.get("components"), v2)


def flags_after_edit(flags: int, body: dict[str, Any]) -> int:
    """A message's flags once an edit (already checked) applied: it may set V2 only."""
    return flags | ((body.get("flags") or 0) & IS_COMPONENTS_V2)


def _components_problem(components: list[dict[str, Any]] | None, v2: bool) -> str | None:
    every = list(walk(components or []))
    if not v2:
        used = sorted({kind for c in every if (kind := c.get("type")) in V2_TYPES})
        return f"component types {used} need IS_COMPONENTS_V2" if used else None
    if len(every) > COMPONENT_LIMIT:
        return f"{len(every)} components (a V2 message's limit: {COMPONENT_LIMIT})"
    for component in every:
        if component.get("type") == TEXT_DISPLAY:
            length = len(component.get("content") or "")
            if not 1 <= length <= TEXT_LIMIT:
                return f"a TextDisplay of {length} characters (1 to {TEXT_LIMIT})"
    return None
