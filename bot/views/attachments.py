"""The pictures on the board and the launch report: files, embed images, alt texts.

`board` is the board message (`components.board_message`): when the game has started
and its server shows pictures, the picture is the embed's image (``attachment://``) and
the text keeps only what the picture does not say (the countdown, what the game waits
for, the last actions), short enough for a phone; the picture's seats
carry the players' display names (`seat_names`). The file is named after
its content, so a board whose picture did not change names the same file and need not
upload it again (see bot.discord.board).
`report` shows the launch report as its picture, its words the picture's description (Discord's
alt text), or as its words where pictures are off; folded once the game moved on, as one
line.
Both are whole messages (bot.views.message): shown in place of an older one, they take
its picture away when they have none.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import orjson

from bot.i18n.catalogs import t, told_in
from bot.i18n.said import written
from bot.pictures import board_picture, launch_picture, pngwrite
from bot.views import components
from bot.views.message import Message
from bot.views.plain import Names
from engine import PublicView

if TYPE_CHECKING:
    from bot.table import Report, Table

#: What separates the parts of a multipart body (it must not occur in them: checked).
BOUNDARY = "apophis-Vx3q9TzR7mKd2WfLp8Ye"


@dataclass(frozen=True, slots=True)
class Picture:
    """A picture ready to attach: file name, PNG bytes and alt text."""

    filename: str
    png: bytes
    description: str

    def attachment(self) -> dict[str, Any]:
        """The upload (`files[0]`) as the JSON body's attachments list names it."""
        return {"id": 0, "filename": self.filename, "description": self.description}

    def form(self, payload: dict[str, Any]) -> tuple[str, bytes]:
        """`payload` with the picture as Discord's multipart form (payload_json, files[0]),
        as one body: its content type and bytes (sent again as they are on a retry)."""
        head = orjson.dumps(payload)
        boundary = BOUNDARY
        while boundary.encode() in head or boundary.encode() in self.png:
            boundary += "x"  # (never seen: 20 random characters turning up by chance)
        name = self.filename.replace('"', "")
        body = b"".join(
            (
                f"--{boundary}\r\n".encode(),
                b'Content-Disposition: form-data; name="payload_json"\r\n',
                b"Content-Type: application/json\r\n\r\n",
                head,
                f"\r\n--{boundary}\r\n".encode(),
                f'Content-Disposition: form-data; name="files[0]"; filename="{name}"\r\n'.encode(),
                b"Content-Type: image/png\r\n\r\n",
                self.png,
                f"\r\n--{boundary}--\r\n".encode(),
            )
        )
        return f"multipart/form-data; boundary={boundary}", body


def seat_names(table: Table, view: PublicView) -> tuple[str, ...]:
    """The names on the picture's seats, in seat order (people's display names; a seat on
    autopilot says so)."""
    return tuple(
        t(table.language, "autopilot.seat", name=table.name_of(seat.player))
        if table.on_autopilot(seat.player)
        else table.name_of(seat.player)
        for seat in view.seats
    )


def picture_of(table: Table, view: PublicView) -> Picture:
    """The board picture of `table`, whose public view is `view`."""
    shown = board_picture.shown(view, table.language, seat_names(table, view))
    png = board_picture.drawn(shown)
    name = f"apophis-board-{pngwrite.fingerprint(png)}.png"
    return Picture(name, png, board_picture.described(shown)[:1024])


def strip_of(table: Table, view: PublicView) -> Picture:
    """The board's strip of `table` (bot.pictures.strip: Apophis, the rocket, the sequence)."""
    shown = board_picture.shown(view, table.language, seat_names(table, view))
    png = board_picture.strip_drawn(shown)
    name = f"apophis-strip-{pngwrite.fingerprint(png)}.png"
    return Picture(name, png, board_picture.described(shown)[:1024])


def board(table: Table) -> Message:
    """The board message (`components.board_message`) with its picture if it has one:
    the embed's image (the strip, short enough to stand above a hand panel on a phone),
    the table's words shortened beside it."""
    if table.game is None or not table.pictured:
        return replace(components.board_message(table), whole=True)
    view = table.game.public_view()
    shown = strip_of(table, view)
    message = components.board_message(table, view=view, pictured=True)
    assert message.embed is not None  # a board has one
    message.embed.set_image(url=f"attachment://{shown.filename}")
    return replace(message, picture=shown, whole=True)


def report_picture(table: Table, report: Report) -> Picture | None:
    """The picture of a launch report, in its language, its words (the report's lines) as
    its description; None where pictures are off."""
    if not table.pictured:
        return None
    png = launch_picture.draw_launch(report.events, report.language)
    name = f"apophis-launch-{pngwrite.fingerprint(png)}.png"
    markup = Names(table)
    words = "\n".join(written(told_in(line, report.language), markup) for line in report.lines)
    return Picture(name, png, words if len(words) <= 1024 else words[:1023] + "…")


def report(table: Table, report: Report) -> Message:
    """A launch report (`components.launch_report`): its picture, with its words as the
    picture's description, or its words where pictures are off; folded, its one line."""
    message = components.launch_report(table, report)
    shown = None if report.folded else report_picture(table, report)
    if shown is None:
        return replace(message, whole=True)
    assert message.embed is not None  # a report has one
    embed = message.embed.copy()
    embed.description = None  # the words are the picture's description
    embed.set_image(url=f"attachment://{shown.filename}")
    return replace(message, embed=embed, picture=shown, whole=True)
