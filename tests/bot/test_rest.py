"""Requests to Discord's API (bot.discord.rest) against a small server that answers as told:
the bot's authorization only where it is asked for, a bucket's announced limit kept,
Discord's 429s waited out and a proxy's raised, refusals raised as discord.py's errors."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import discord
import orjson
import pytest

from bot.discord.rest import Rest, Sent
from bot.discord.wire import Wire
from tests.bot.test_wire import Server, answer

TOKEN = "bot-token-for-tests"


async def rest_on(server: Server) -> Rest:
    port = await server.start()
    rest = Rest(SimpleNamespace(http=SimpleNamespace(token=TOKEN)))  # type: ignore[arg-type]
    rest.wire = Wire(lambda: f"http://127.0.0.1:{port}/api/v10", "DiscordBot (test, 1)")
    return rest


async def test_only_a_request_made_as_the_bot_carries_its_authorization():
    server = Server(lambda request: answer())
    rest = await rest_on(server)
    try:
        await rest.request("PATCH", "/webhooks/1/interaction-token/messages/@original", {"a": 1})
        sent = await rest.request("POST", "/channels/5/messages", {"b": 2}, want=True, bucket="dm")
    finally:
        rest.close()
        await server.stop()
    assert sent == {"id": "1"}
    webhook, channel = server.requests
    assert b"Authorization" not in webhook
    assert f"Authorization: Bot {TOKEN}\r\n".encode() in channel
    assert channel.startswith(b"POST /api/v10/channels/5/messages HTTP/1.1\r\n")
    assert channel.endswith(b'{"b":2}')


async def test_a_bucket_with_none_left_waits_for_its_reset_and_no_other_does():
    spent = "X-RateLimit-Remaining: 0\r\nX-RateLimit-Reset-After: 0.300\r\n"
    arrived: list[float] = []
    loop = asyncio.get_running_loop()

    def answering(request: bytes) -> bytes:
        arrived.append(loop.time())
        return answer(headers=spent if len(arrived) == 1 else "")

    server = Server(answering)
    rest = await rest_on(server)
    try:
        await rest.request("PATCH", "/channels/5/messages/9", {}, bucket="dm 5")
        await rest.request("PATCH", "/channels/6/messages/9", {}, bucket="dm 6")
        await rest.request("PATCH", "/channels/5/messages/9", {}, bucket="dm 5")
    finally:
        rest.close()
        await server.stop()
    first, other, same = arrived
    assert other - first < 0.25  # another bucket is not held back
    assert same - first >= 0.29  # the spent one waited for Discord's reset


async def test_discords_429_is_waited_out_and_a_proxys_is_raised():
    limited = b'{"message": "You are being rate limited.", "retry_after": 0.01, "global": false}'
    answers = [
        answer("429 Too Many Requests", limited, "Via: 1.1 google\r\n"),
        answer(),
        answer("429 Too Many Requests", limited),
    ]
    server = Server(lambda request: answers.pop(0))
    rest = await rest_on(server)
    try:
        await rest.request("PATCH", "/channels/5/messages/9", {}, bucket="dm 5")
        assert len(server.requests) == 2  # Discord's own 429, then the same request again
        with pytest.raises(discord.HTTPException) as raised:
            await rest.request("PATCH", "/channels/5/messages/9", {}, bucket="dm 5")
    finally:
        rest.close()
        await server.stop()
    assert raised.value.status == 429 and len(server.requests) == 3


@pytest.mark.parametrize(
    ("status", "error"),
    [("403 Forbidden", discord.Forbidden), ("404 Not Found", discord.NotFound)],
)
async def test_a_refusal_is_raised_as_discord_py_raises_it(status, error):
    body = b'{"message": "Cannot send messages to this user", "code": 50007}'
    server = Server(lambda request: answer(status, body))
    rest = await rest_on(server)
    try:
        with pytest.raises(error) as raised:
            await rest.request("POST", "/channels/5/messages", {"c": 3}, bucket="dm 5")
    finally:
        rest.close()
        await server.stop()
    assert raised.value.code == 50007


def test_an_answer_is_read_only_once_something_in_it_is_asked():
    broken = Sent(b"{not JSON")  # kept as it came: nothing read yet, nothing raised
    with pytest.raises(orjson.JSONDecodeError):
        broken.get("id")
    sent = Sent(b'{"id": "5", "attachments": [{"id": "9", "filename": "a.png"}]}')
    assert sent["id"] == "5" and sent.get("nonce") is None and len(sent) == 2
    assert dict(sent) == {"id": "5", "attachments": [{"id": "9", "filename": "a.png"}]}
