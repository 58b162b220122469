"""protocol.ts against the server's types (bot.views.table_state): each type the client
declares is the server's, field for field, both ways; the comparison and the check of a
message find what is off (tests/web/helpers.py's sockets check every message they receive)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal, NotRequired, TypedDict

from bot.views import table_state, web_state
from tests.web.protocol import Python, TypeScript, differences, mismatches

PROTOCOL = Path(__file__).parents[2] / "bot" / "web" / "client" / "src" / "protocol.ts"
#: The server's names of the client's types, where they differ.
RENAMED = {"Colour": "ColourName"}


def test_protocol_ts_declares_the_servers_messages_field_for_field():
    client, server = TypeScript(PROTOCOL.read_text(encoding="utf-8")), Python()
    found = []
    for name in client.written:
        theirs = getattr(table_state, RENAMED.get(name, name), None)
        assert theirs is not None, f"protocol.ts's {name} is not in bot.views.table_state"
        found += differences(client.read(name), server.read(theirs), name)
    assert not found, "\n".join(found)
    # Both ways: all the server sends, all it reads.
    assert {"ServerMessage", "ClientMessage"} <= client.written.keys()


class Sample(TypedDict):
    id: str
    count: int | None
    kind: Literal["a", "b"]
    note: NotRequired[str]
    parts: list[tuple[str, int]]


SAMPLE = """
// a comment, and a field written inline
export interface Sample {
  id: string;
  /** not null here */
  count: number;
  kind: "a" | "c";
  note: string;
  parts: [string, number][];
  extra: { deep: boolean };
}
"""


def test_each_difference_is_named_with_where_it_is():
    found = differences(TypeScript(SAMPLE).read("Sample"), Python().read(Sample), "Sample")
    assert list(found) == [
        "Sample.count: protocol.ts says number, the server null | number",
        "Sample.extra: in protocol.ts only",
        'Sample.kind: protocol.ts says "a" | "c", the server "a" | "b"',
        "Sample.note: always there in protocol.ts, may be missing on the server",
    ]
    same = SAMPLE.replace("number;", "number | null;").replace('"c"', '"b"')
    same = same.replace("note:", "note?:").replace("extra: { deep: boolean };", "")
    assert not list(differences(TypeScript(same).read("Sample"), Python().read(Sample)))


def test_a_message_is_checked_against_its_type():
    server = Python()
    message = server.read(table_state.ServerMessage)
    state = web_state.no_table(42, 1000.0, moves=[web_state.open_move("en")])
    assert not list(mismatches(state, message, server.named))
    state["seats"] = [{"id": 7, "name": "ann"}]  # type: ignore[typeddict-item]
    state["lobby_moves"][0]["style"] = 9  # type: ignore[index]
    found = list(mismatches(state, message, server.named))
    assert ".seats[0].id: 7 is not string" in found
    assert ".seats[0].avatar: missing" in found
    assert ".lobby_moves[0].style: 9 is not 1 | 2 | 3 | 4" in found
    assert list(mismatches({"type": "pong", "at": 1}, message, server.named)) == [
        ".at: not in the type"
    ]
