"""The live table against outsiders (issue #34, items 1-8): slow connections closed by a
deadline and the rest refused beyond the caps while the bot plays on; a person's rate kept
across reconnections, and connecting limited; floods dropped, told once, then closed;
nothing an outsider sends logged as an error; logging out ending the session; the session
cookie never handed to script; the mocked SDK absent from production's build; the
security headers on every answer."""

from __future__ import annotations

import asyncio
import base64
import logging
import os
import re
import socket as sockets_
import struct

import aiohttp
import orjson
import pytest

from bot.web import limits, server, sockets
from bot.web.sessions import Expired
from tests.bot.helpers import Scene, bot_state
from tests.web.conftest import serving
from tests.web.helpers import Paced, Socket

pytestmark = pytest.mark.e2e

PING = {"type": "ping"}


def answered(socket: Socket, *kinds: str) -> list[dict]:
    return [m for m in socket.received if m["type"] in kinds]


async def ended(reader: asyncio.StreamReader, timeout: float) -> bytes:
    """What a connection was told before it ended (b"" if nothing; a reset counts as ended)."""
    try:
        async with asyncio.timeout(timeout):
            return await reader.read()
    except ConnectionError:
        return b""


async def signed_in_browser(http: aiohttp.ClientSession, base: str, channel: int) -> str:
    """Sign `http`'s browser in through the redirect (the fake's browser user); its token."""
    async with http.get(f"{base}/auth/login?channel={channel}") as r:
        assert r.status == 200, r.status
    return next(c.value for c in http.cookie_jar if c.key == server.COOKIE)


async def first_word(socket: Socket) -> str | int | None:
    """ "welcome", or the code a socket was closed with instead."""
    welcome = asyncio.ensure_future(socket.wait_for(lambda s: answered(s, "welcome")))
    await asyncio.wait({welcome, socket._reader}, timeout=3, return_when=asyncio.FIRST_COMPLETED)
    welcome.cancel()
    return "welcome" if answered(socket, "welcome") else socket.ws.close_code


async def close_code(ws: aiohttp.ClientWebSocketResponse, within: float = 2) -> int | None:
    """The code of the close frame the server sends `ws` (within `within` seconds)."""
    async with asyncio.timeout(within):
        while True:
            message = await ws.receive()
            if message.type is aiohttp.WSMsgType.CLOSE:
                return message.data
            if message.type in (aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                return ws.close_code


async def hello(ws: aiohttp.ClientWebSocketResponse, channel: int, session=None) -> dict:
    await ws.send_str(
        orjson.dumps({"type": "hello", "channel": str(channel), "session": session}).decode()
    )
    return await ws.receive_json(timeout=5)


# ------------------------------------------------------------------ 1. deadlines, caps


async def test_slow_connections_are_closed_by_the_deadline_and_the_caps_refuse_the_rest(
    fake_discord, make_web_bot, monkeypatch
):
    monkeypatch.setattr(limits, "HEADER_SECONDS", 0.8)
    monkeypatch.setattr(limits, "LIFETIME_SECONDS", 1.0)
    monkeypatch.setattr(limits, "KEEPALIVE_SECONDS", 30.0)  # the table's own deadlines here
    monkeypatch.setattr(limits, "LOCAL_UNLIMITED", False)  # 127.0.0.x as outsiders' addresses
    monkeypatch.setattr(limits, "PER_ADDRESS", 4)
    monkeypatch.setattr(limits, "connection_cap", lambda: 7)
    monkeypatch.setattr(sockets, "HELLO_SECONDS", 0.5)
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("ann",))
    loop = asyncio.get_running_loop()
    async with fake_discord.connected(bot.discord):
        port = bot.web.port

        async def slow(source: str):
            """A connection whose request's headers never end."""
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=(source, 0)
            )
            writer.write(b"GET /api/session HTTP/1.1\r\nHost: table\r\nX-Slow: ")
            await writer.drain()
            return reader, writer

        started = loop.time()
        held = [await slow("127.0.0.1") for _ in range(4)]
        # A fifth from the same address, then one beyond the overall cap: refused at once.
        beyond = [await slow("127.0.0.1")]
        held += [await slow("127.0.0.2") for _ in range(3)]
        beyond.append(await slow("127.0.0.3"))
        for reader, _ in beyond:
            told = await ended(reader, 0.3)
            assert told == b"" or told.startswith(b"HTTP/1.1 503"), told
        assert not any(reader.at_eof() for reader, _ in held)

        # The bot plays on through Discord meanwhile.
        await scene.cmd("apophis new", "ann")
        assert scene.live().status == "lobby"

        # Every slow one is closed by its deadline, the refused ones never counted.
        for reader, _ in held:
            assert await ended(reader, 2.0) == b""
        assert 0.8 <= loop.time() - started < 3.0
        for _, writer in held + beyond:
            writer.close()
        await bot_state(lambda: not bot.web.doors.open, timeout=1)

        # A whole request is answered; a second one begun and never ended is closed with the
        # connection, at the end of its lifetime.
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /api/session HTTP/1.1\r\nHost: table\r\n\r\n")
        head = await reader.readuntil(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 401")
        await reader.readexactly(int(head.split(b"Content-Length: ")[1].split(b"\r\n")[0]))
        writer.write(b"GET /api/session HTTP/1.1\r\nHost: ")
        assert await ended(reader, 1.5) == b""
        writer.close()

        # A socket that never says hello is closed by its own deadline.
        async with aiohttp.ClientSession() as http:
            origin = {"Origin": bot.web.public_url}
            async with http.ws_connect(f"http://127.0.0.1:{port}/ws", headers=origin) as ws:
                message = await ws.receive(timeout=2)
                assert message.type is aiohttp.WSMsgType.CLOSE and ws.close_code == 4003


def test_the_connection_cap_leaves_descriptors_for_the_bot(monkeypatch):
    for soft, cap in ((1024, 1024 - limits.RESERVE), (20000, 20000 - limits.RESERVE), (256, 64)):
        monkeypatch.setattr(limits.resource, "getrlimit", lambda _, s=soft: (s, 1 << 20))
        assert limits.connection_cap() == cap
        assert soft - limits.connection_cap() >= min(limits.RESERVE, soft * 3 // 4)


# ------------------------------------------------------------- 2. rates, reconnecting


async def test_a_persons_rate_outlives_their_sockets(fake_discord, make_table, monkeypatch):
    """Reconnecting does not refill the rate: a person's bucket is theirs for a while after
    their last socket closes (it was forgotten with it: 16 more messages each time)."""
    bot = make_table()
    scene = Scene(fake_discord, bot.core, names=("ann",))
    async with serving(fake_discord, bot):
        paced = Paced(bot, monkeypatch)
        started, pongs = paced.now, 0
        for _ in range(6):
            async with Socket(bot, scene.channel.id, scene["ann"]) as ann:
                await ann.wait_for(lambda s: answered(s, "welcome"))
                for _ in range(20):
                    await ann.send(PING)
                # all read (the first socket answers a burst, the others none), then room
                # for one more message: answered after all those before it
                await bot_state(
                    lambda: paced.dropped(scene.channel.id) == 20 - len(answered(ann, "pong"))
                )
                paced.passes(1.5 / sockets.RATE)
                await ann.send({"type": "move", "id": 1})
                await ann.wait_for(lambda s: [m for m in s.received if m.get("id") == 1])
                pongs += len(answered(ann, "pong"))
        elapsed = paced.now - started
        assert pongs <= sockets.BURST + sockets.RATE * elapsed, (pongs, elapsed)


async def test_connecting_is_limited_per_person_and_per_address(
    fake_discord, make_table, monkeypatch
):
    monkeypatch.setattr(sockets, "ATTEMPT_BURST", 3.0)
    monkeypatch.setattr(sockets, "ATTEMPT_RATE", 0.01)
    monkeypatch.setattr(sockets, "ADDRESS_ATTEMPT_BURST", 4.0)
    monkeypatch.setattr(sockets, "ADDRESS_ATTEMPT_RATE", 0.01)
    monkeypatch.setattr(limits, "LOCAL_UNLIMITED", False)
    bot = make_table()
    scene = Scene(fake_discord, bot.core, names=("ann",))
    async with serving(fake_discord, bot):
        channel = scene.channel.id
        codes = []
        for _ in range(4):  # ann, four times at once: the fourth is told to come back later
            socket = Socket(bot, channel, scene["ann"])
            await socket.connect()
            codes.append(await first_word(socket))
            await socket.close()
        assert codes == ["welcome"] * 3 + [sockets.TRY_LATER]
        # Her address has connected four times: a fifth socket, anyone's, waits too.
        watcher = Socket(bot, channel)
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await watcher.connect()
        assert refused.value.status == 429
        await watcher.close()


# ------------------------------------------------------------------------ 3. floods


async def test_a_flood_is_dropped_told_once_then_closed(fake_discord, make_table):
    bot = make_table()
    scene = Scene(fake_discord, bot.core, names=("ann",))
    loop = asyncio.get_running_loop()
    async with serving(fake_discord, bot):
        async with Socket(bot, scene.channel.id, scene["ann"]) as ann:
            await ann.wait_for(lambda s: answered(s, "welcome"))
            started = loop.time()
            try:
                for _ in range(3000):
                    await ann.send(PING)
            except ConnectionError:
                pass  # closed meanwhile
            assert await ann.closed() == sockets.FLOODING
            elapsed = loop.time() - started
        pongs, slow = answered(ann, "pong"), answered(ann, "refused")
        assert len(pongs) <= sockets.BURST + sockets.RATE * elapsed + 1
        assert len(slow) == 1 and "too fast" in slow[0]["reason"]


async def test_an_address_holds_a_bounded_number_of_sockets(fake_discord, make_table, monkeypatch):
    """Counted by the peer's address, or, from a reverse proxy on this machine, by the
    address it forwards for."""
    monkeypatch.setattr(sockets, "SOCKETS_PER_ADDRESS", 2)
    bot = make_table()
    scene = Scene(fake_discord, bot.core, names=("ann",))
    async with serving(fake_discord, bot):
        url = f"http://127.0.0.1:{bot.web.port}/ws"
        async with aiohttp.ClientSession() as http:

            async def connect(address: str):
                headers = {"Origin": bot.web.public_url, "X-Forwarded-For": f"10.0.0.9, {address}"}
                return await http.ws_connect(url, headers=headers)

            first, second = await connect("203.0.113.5"), await connect("203.0.113.5")
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await connect("203.0.113.5")
            assert refused.value.status == 429
            other = await connect("203.0.113.6")
            assert (await hello(other, scene.channel.id))["type"] == "welcome"
            await first.close()
            await bot_state(lambda: bot.web.sockets.by_address["203.0.113.5"] < 2)
            again = await connect("203.0.113.5")  # a place was freed
            for ws in (second, other, again):
                await ws.close()


# --------------------------------------------------------------- 4. no errors logged


def frame(text: bytes) -> bytes:
    """A masked WebSocket text frame, as a client sends."""
    mask = os.urandom(4)
    head = bytes([0x81]) + (
        bytes([0x80 | len(text)])
        if len(text) < 126
        else bytes([0x80 | 126]) + struct.pack("!H", len(text))
    )
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(text))


async def raw_socket(port: int, origin: str, cookie: str | None = None):
    """A WebSocket opened by hand, to drop its TCP connection at will."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    extra = f"Cookie: {server.COOKIE}={cookie}\r\n" if cookie else ""
    writer.write(
        (
            f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"Origin: {origin}\r\n{extra}\r\n"
        ).encode()
    )
    head = await reader.readuntil(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 101"), head
    return reader, writer


async def raw_request(port: int, data: bytes) -> bytes:
    """The head of the answer to `data` sent as is (b"" if the connection just ended)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(data)
    try:
        async with asyncio.timeout(3):
            return await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError as exc:
        return exc.partial
    except ConnectionError:
        return b""
    finally:
        writer.close()


async def test_nothing_an_outsider_sends_is_logged_as_an_error(
    fake_discord, make_web_bot, caplog, monkeypatch
):
    caplog.set_level(logging.DEBUG)
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("ann", "bob"))
    async with fake_discord.connected(bot.discord):
        paced = Paced(bot, monkeypatch)
        table = await scene.new_game("ann", "bob")
        channel, port, origin = scene.channel.id, bot.web.port, bot.web.public_url
        token = Socket(bot, channel, scene["ann"]).session

        # Hellos no one would send: each refused (4003), none an error.
        for bad in (
            {"channel": "²"},
            {"channel": "१२३"},
            {"channel": "99999999999999999999"},
            {"channel": "0"},
            {"channel": ["1"]},
            {"channel": 1.5},
            {"channel": True},
            {"channel": str(channel), "session": "é.é"},
            {"channel": str(channel), "session": 5},
            {"channel": str(channel), "session": "x" * 2000},
            {"channel": str(channel), "session": "a.b.c"},
        ):
            socket = Socket(bot, channel)
            await socket.connect({"type": "hello", **bad})
            assert await socket.closed() in (4003, 4001), bad
            await socket.close()
        socket = Socket(bot, channel)
        await socket.connect({"type": "hello", "channel": str(channel), "language": ["fr"]})
        await socket.wait_for(lambda s: answered(s, "welcome"))
        await socket.close()

        # Moves no client would send, from a seated player: each answered, none an error.
        async with Socket(bot, channel, scene["ann"]) as ann:
            await ann.wait_state(lambda s: s["status"] == "active")
            for custom_id, values in (
                (f"apo:b:{'9' * 30}:again", None),
                (f"apo:h:{table.id}:{'9' * 30}:draw", None),
                (f"apo:h:{table.id}:{table.version}:launch:{'²' * 5}", None),
                ("apo:p:²:1:discard", ["²"]),
                (5, None),
                (None, {"a": 1}),
                ("apo:h:1:1:draw", [[1], None, 2**64 - 1, -1]),
                ("x" * 3000, None),
            ):
                extra = {"values": values} if values is not None else {}
                await ann.send({"type": "move", "id": 7, "custom_id": custom_id, **extra})
                await ann.wait_for(lambda s: [m for m in s.received if m.get("id") == 7])
                ann.received.clear()
                paced.passes(0.15)  # within the rate
            await ann.ws.send_bytes(b"\x00\xff")  # not text: the socket ends, quietly

        # Requests no browser would send.
        for data in (
            b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20_000 + b"\r\n\r\n",
            b"GET /" + b"a" * 20_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
            b"GET / HTTP/1.1\r\nHost: x\r\n" + b"X-Many: 1\r\n" * 200 + b"\r\n",
            b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + os.urandom(64),
            b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
            b"GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n",
            b"GET /auth/login?channel=%C2%B2 HTTP/1.1\r\nHost: x\r\n\r\n",
            b"GET /auth/callback?state=%C3%A9&code=x HTTP/1.1\r\nHost: x\r\n"
            b"Cookie: apophis_signin=\xc3\xa9:1\r\n\r\n",
            b"GET /auth/callback?state=s&code=x HTTP/1.1\r\nHost: x\r\n"
            b"Cookie: apophis_signin=s:1\\r\\nX\r\n\r\n",
            b"GET /api/session HTTP/1.1\r\nHost: x\r\n"
            b"Cookie: apophis_session=\xc3\xa9.\xc3\xa9\r\n\r\n",
            b"POST /api/token HTTP/1.1\r\nHost: x\r\nOrigin: "
            + origin.encode()
            + b"\r\nContent-Length: 4\r\n\r\n\xff\xfe\xfd\xfc",
            b"POST /api/token HTTP/1.1\r\nHost: x\r\nOrigin: "
            + origin.encode()
            + b'\r\nContent-Length: 11\r\n\r\n{"code": 5}',
        ):
            answer = await raw_request(port, data)
            assert not answer.startswith(b"HTTP/1.1 5"), (data[:60], answer[:200])

        # A client that drops its connection while it is being answered: a goodbye.
        for _ in range(3):
            reader, writer = await raw_socket(port, origin)
            hello_ = orjson.dumps({"type": "hello", "channel": str(channel), "session": token})
            writer.write(frame(hello_))
            await reader.read(1)  # the welcome is coming
            writer.write(frame(b'{"type":"ping"}') * 12)
            await writer.drain()
            sock = writer.get_extra_info("socket")
            sock.setsockopt(sockets_.SOL_SOCKET, sockets_.SO_LINGER, struct.pack("ii", 1, 0))
            writer.transport.abort()  # a reset, as a phone losing its network
            await bot_state(
                lambda: not bot.web.doors.open and not any(bot.web.feed.viewers.values())
            )

    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, "\n".join(f"{r.name}: {r.getMessage()}" for r in errors)


# ------------------------------------------------------------ 5, 6. sessions, cookie


async def test_logging_out_ends_the_session_and_closes_its_sockets(fake_discord, make_table):
    bot = make_table()
    scene = Scene(fake_discord, bot.core, names=("ann",))
    fake_discord.oauth.browser_user = scene["ann"].user
    async with serving(fake_discord, bot):
        base, channel = bot.web.public_url, scene.channel.id
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            token = await signed_in_browser(http, base, channel)
            page = await http.ws_connect(f"{base}/ws", headers={"Origin": base})
            assert (await hello(page, channel))["user"]["name"] == "ann"
            async with aiohttp.ClientSession() as elsewhere:  # the session named in a hello
                activity = await elsewhere.ws_connect(f"{base}/ws", headers={"Origin": base})
                assert (await hello(activity, channel, token))["user"]["name"] == "ann"

                async with http.post(f"{base}/auth/logout", headers={"Origin": base}) as r:
                    assert r.status == 200
                # Its sockets close with 4001 (sign in again)...
                assert await close_code(page) == sockets.SESSION_OVER
                assert await close_code(activity) == sockets.SESSION_OVER
        # ... and its token signs no one in any more, by cookie or by hello.
        with pytest.raises(Expired):
            bot.web.sessions.read(token)
        cookie = {"Cookie": f"{server.COOKIE}={token}"}
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{base}/api/session", headers=cookie) as r:
                assert r.status == 401
            async with http.ws_connect(f"{base}/ws", headers={"Origin": base, **cookie}) as ws:
                assert (await hello(ws, channel))["user"] is None  # a browser: watching
        late = Socket(bot, channel)
        await late.connect({"type": "hello", "channel": str(channel), "session": token})
        assert await late.closed() == sockets.SESSION_OVER
        await late.close()

        # Signing in again in the same browser ends the session it had.
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            first = await signed_in_browser(http, base, channel)
            page = await http.ws_connect(f"{base}/ws", headers={"Origin": base})
            await hello(page, channel)
            second = await signed_in_browser(http, base, channel)
            assert second != first and bot.web.sessions.read(second).name == "ann"
            with pytest.raises(Expired):
                bot.web.sessions.read(first)
            assert await close_code(page) == sockets.SESSION_OVER


async def test_script_is_never_handed_the_session_cookie(fake_discord, make_table):
    bot = make_table()
    scene = Scene(fake_discord, bot.core, names=("ann",))
    fake_discord.oauth.browser_user = scene["ann"].user
    async with serving(fake_discord, bot):
        base, channel = bot.web.public_url, scene.channel.id
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            token = await signed_in_browser(http, base, channel)
            cookie = next(c for c in http.cookie_jar if c.key == server.COOKIE)
            assert cookie["httponly"]
            async with http.get(f"{base}/api/session") as r:
                text = await r.text()
            assert token not in text and orjson.loads(text) == {
                "user": {"id": str(scene.id("ann")), "name": "ann", "locale": "en-US"}
            }
            # The page's socket is signed in by the cookie its upgrade carries.
            async with http.ws_connect(f"{base}/ws", headers={"Origin": base}) as ws:
                assert (await hello(ws, channel))["user"]["name"] == "ann"


# ----------------------------------------------------------------- 7. mocked SDK


def bundle(folder) -> str:
    if not (folder / "index.html").is_file():
        pytest.skip(f"the web client is not built in {folder} (`make client`)")
    return "\n".join(p.read_text(encoding="utf-8") for p in (folder / "assets").glob("*.js"))


def test_the_production_build_has_no_mocked_sdk():
    """A crafted `?sdk=mock&code=...` link signed whoever opened it in as the code's owner:
    the mock is in the tests' build (dist/test) only."""
    production = bundle(server.CLIENT)
    for trace in ("_updateCommandMocks", "mock_code", "`mock`", '"mock"'):
        assert trace not in production, trace
    assert "_updateCommandMocks" in bundle(server.TEST_CLIENT)


def test_the_production_build_has_no_test_hook():
    """The tests' hook (`window.__apophis`, the last state drawn) is in the tests' build only:
    tests of production's page read what it was sent and shows instead."""
    assert "__apophis" not in bundle(server.CLIENT)
    assert "__apophis" in bundle(server.TEST_CLIENT)


# -------------------------------------------------------------------- 8. headers


async def test_every_answer_carries_the_security_headers(fake_discord, make_table):
    bot = make_table()
    Scene(fake_discord, bot.core, names=("ann",))
    async with serving(fake_discord, bot):
        base = f"http://127.0.0.1:{bot.web.port}"
        paths = ["/", "/api/session", "/nowhere", "/.proxy/api/session", "/auth/callback"]
        paths += [f"/assets/{p.name}" for p in (server.CLIENT / "assets").glob("*.css")]
        async with aiohttp.ClientSession() as http:
            answers = []
            for path in paths:
                async with http.get(base + path, allow_redirects=False) as r:
                    answers.append((path, r.status, r.headers))
            async with http.post(f"{base}/auth/logout", headers={"Origin": "https://evil"}) as r:
                answers.append(("/auth/logout", r.status, r.headers))
        for path, _, headers in answers:
            policy = dict(
                part.strip().split(" ", 1) for part in headers["Content-Security-Policy"].split(";")
            )
            assert policy["frame-ancestors"] == server.FRAME_ANCESTORS, path
            assert policy["script-src"] == "'self'" and policy["default-src"] == "'self'"
            assert headers["X-Content-Type-Options"] == "nosniff", path
            assert headers["Referrer-Policy"] == "no-referrer", path
            assert "aiohttp" not in headers.get("Server", "") and "Python" not in headers.get(
                "Server", ""
            ), path
        # aiohttp's own answer to a request it cannot read, too.
        big = b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20_000 + b"\r\n\r\n"
        head = (await raw_request(bot.web.port, big)).decode("latin-1").split("\r\n")
        fields = dict(line.split(": ", 1) for line in head[1:] if ": " in line)
        assert " 400 " in head[0] and "aiohttp" not in fields["Server"], head
        assert "frame-ancestors" in fields["Content-Security-Policy"]
        assert fields["X-Content-Type-Options"] == "nosniff"


#: Where the Embedded App SDK lists the parents it talks to, and those the page need not
#: allow: the page's own origin ('self'), an opaque one (CSP cannot name it) and the SDK's
#: local development server.
SDK_ORIGINS = "node_modules/@discord/embedded-app-sdk/output/Discord.mjs"
NOT_PARENTS = {"window.location.origin", "'null'", "'http://localhost:3333'"}


def framing_allows(ancestors: list[str], origin: str) -> bool:
    """Whether a frame-ancestors list lets `origin` frame the page."""
    scheme, host = origin.split("://")
    for source in ancestors:
        allowed_scheme, _, allowed_host = source.partition("://")
        if allowed_scheme == scheme and (
            allowed_host == host
            or (allowed_host.startswith("*.") and host.endswith(allowed_host[1:]))
        ):
            return True
    return False


def test_the_page_may_be_framed_by_every_discord_parent_the_sdk_accepts():
    """The SDK talks to its parent at discord.com, discordapp.com, their ptb. and canary.
    hosts and Discord's staging: each may frame the page, nothing else."""
    source = (server.CLIENT.parent / SDK_ORIGINS).read_text()
    body = source.split("function getAllowedOrigins()", 1)[1].split("\n}", 1)[0]
    origins = re.findall(r"^\s*('[^']*'|window\.location\.origin),?$", body, re.MULTILINE)
    parents = [o.strip("'") for o in origins if o not in NOT_PARENTS]
    assert "https://canary.discordapp.com" in parents  # the SDK's list was read
    ancestors = server.FRAME_ANCESTORS.split()
    assert [p for p in parents if not framing_allows(ancestors, p)] == []
    for stranger in (
        "https://evil.example",
        "https://discord.com.evil.example",
        "http://discord.com",
    ):
        assert not framing_allows(ancestors, stranger)


def test_the_doors_admit_connections_on_uvloop_the_bots_own_loop():
    """The bot runs on uvloop (bot.app), whose transports are not asyncio.Transport: a
    connection must be served there too (every connection was reset)."""
    import asyncio

    from aiohttp import web

    from bot.web import limits

    uvloop = pytest.importorskip("uvloop", reason="uvloop is not built for this platform")

    async def served() -> str:
        app = web.Application()

        async def hello(request: web.Request) -> web.Response:
            return web.Response(text="hello")

        app.router.add_get("/", hello)
        runner = web.AppRunner(app)
        await runner.setup()
        loop = asyncio.get_running_loop()
        server = await loop.create_server(limits.Doors(runner.server), "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            try:
                async with asyncio.timeout(5):
                    answer = (await reader.read()).decode()
            except (TimeoutError, ConnectionError) as exc:
                answer = f"no answer: {exc!r}"
            writer.close()
            return answer
        finally:
            server.close()
            await runner.cleanup()

    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        answer = runner.run(served())
    assert answer.startswith("HTTP/1.1 200") and answer.endswith("hello"), answer
