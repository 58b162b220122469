"""The tokens' HTTP client (bot.discord.wire) against small servers that answer as told:
kept-alive connections, connections the server closed, chunked and compressed answers,
timeouts, unreadable answers and TLS."""

from __future__ import annotations

import asyncio
import gzip
import shutil
import ssl
import subprocess
from collections.abc import Callable

import pytest

from bot.discord.wire import Unanswered, Wire

OK = b'{"id": "1"}'
CLOSE = b"close without answering"
JSON = "application/json"


class Server:
    """An HTTP server on 127.0.0.1 that reads each request whole and answers with
    `answer(request_bytes)` (None: no answer); `close_after` closes the connection after
    each answer. It keeps what it read, and counts connections."""

    def __init__(self, answer: Callable[[bytes], bytes | None], close_after: bool = False):
        self.answer, self.close_after = answer, close_after
        self.requests: list[bytes] = []
        self.connections = 0
        self.server: asyncio.Server | None = None

    async def start(self, ssl_context: ssl.SSLContext | None = None) -> int:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0, ssl=ssl_context)
        return self.server.sockets[0].getsockname()[1]

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n"):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":")[1])
                request = head + await reader.readexactly(length)
                self.requests.append(request)
                answer = self.answer(request)
                if answer is None:  # never answered: held until the connection is dropped
                    await asyncio.get_running_loop().create_future()
                if answer is CLOSE:
                    break
                writer.write(answer)
                await writer.drain()
                if self.close_after:
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    async def stop(self) -> None:
        assert self.server is not None
        self.server.close()


def answer(status: str = "200 OK", body: bytes = OK, headers: str = "") -> bytes:
    return (
        f"HTTP/1.1 {status}\r\nContent-Type: application/json\r\n{headers}"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode() + body


async def started(server: Server, **wire_options) -> Wire:
    port = await server.start()
    return Wire(lambda: f"http://127.0.0.1:{port}/api/v10", "DiscordBot (test, 1)", **wire_options)


async def test_requests_go_on_one_kept_connection_and_say_what_they_are():
    server = Server(lambda request: answer())
    wire = await started(server)
    for n in range(5):
        got = await wire.request(
            "PATCH", f"/webhooks/1/t{n}/messages/@original", b'{"a":1}', "application/json"
        )
        assert (got.status, got.reason, got.body) == (200, "OK", OK)
    assert server.connections == 1 and wire.opened == 1
    head = server.requests[0].decode()
    assert head.startswith("PATCH /api/v10/webhooks/1/t0/messages/@original HTTP/1.1\r\n")
    for line in (
        "Host: 127.0.0.1:",
        "User-Agent: DiscordBot (test, 1)",
        "Content-Type: application/json",
        "Content-Length: 7",
    ):
        assert f"\r\n{line}" in head
    assert server.requests[0].endswith(b'\r\n\r\n{"a":1}')
    assert b"Accept-Encoding" not in server.requests[0]
    wire.close()
    await server.stop()


async def test_concurrent_requests_each_get_their_own_answer():
    server = Server(lambda request: answer(body=request.split(b" ")[1]))
    wire = await started(server)
    paths = [f"/interactions/{n}/t/callback" for n in range(20)]
    got = await asyncio.gather(
        *(wire.request("POST", path, b"{}", "application/json") for path in paths)
    )
    assert [a.body.decode() for a in got] == [f"/api/v10{path}" for path in paths]
    assert wire.opened <= 20


async def test_no_more_connections_than_the_limit_however_many_requests_wait(monkeypatch):
    monkeypatch.setattr("bot.discord.wire.CONNECTIONS", 3)
    server = Server(lambda request: answer())
    wire = await started(server)
    got = await asyncio.gather(*(wire.request("PATCH", f"/m/{n}", b"{}", JSON) for n in range(12)))
    assert [a.status for a in got] == [200] * 12
    assert server.connections == wire.opened == 3
    wire.close()
    await server.stop()


async def test_an_answer_that_closes_its_connection_is_not_reused():
    server = Server(lambda request: answer(headers="Connection: close\r\n"), close_after=True)
    wire = await started(server)
    for _ in range(3):
        assert (await wire.request("DELETE", "/webhooks/1/t/messages/2")).status == 200
    assert server.connections == 3
    assert b"Content-Length: 0\r\n" in server.requests[0]
    wire.close()
    await server.stop()


async def test_a_connection_the_server_closed_while_idle_is_replaced_and_the_request_sent_again():
    # The server closes each connection after its answer without saying so (as an idle
    # timeout does): the next request finds it closed and goes on a fresh one.
    server = Server(lambda request: answer(), close_after=True)
    wire = await started(server)
    assert (await wire.request("PATCH", "/a", b"{}", "application/json")).status == 200
    await asyncio.sleep(0)  # (the close may or may not have been seen yet: both are handled)
    assert (await wire.request("PATCH", "/b", b"{}", "application/json")).status == 200
    assert server.connections == 2
    assert [request.split(b" ")[1] for request in server.requests] == [b"/api/v10/a", b"/api/v10/b"]
    wire.close()
    await server.stop()


async def test_a_request_on_a_kept_connection_closed_before_its_answer_is_sent_again():
    dropped = []

    def once(request: bytes) -> bytes:
        if b" /api/v10/b " in request and not dropped:
            dropped.append(request)
            return CLOSE  # as a server timing the connection out just as the request came
        return answer()

    server = Server(once)
    wire = await started(server)
    assert (await wire.request("PATCH", "/a", b"{}", "application/json")).status == 200
    assert (await wire.request("PATCH", "/b", b"{}", "application/json")).status == 200
    assert dropped and server.connections == 2
    assert [r.split(b" ")[1] for r in server.requests] == [
        b"/api/v10/a",
        b"/api/v10/b",
        b"/api/v10/b",
    ]
    wire.close()
    await server.stop()


async def test_a_post_on_a_kept_connection_closed_before_its_answer_is_not_sent_twice():
    dropped = []

    def once(request: bytes) -> bytes:
        if request.startswith(b"POST") and not dropped:
            dropped.append(request)
            return CLOSE
        return answer()

    server = Server(once)
    wire = await started(server)
    assert (await wire.request("PATCH", "/a", b"{}", JSON)).status == 200
    with pytest.raises(Unanswered):  # a follow-up twice would be two messages
        await wire.request("POST", "/webhooks/1/t?wait=true", b"{}", JSON)
    assert len(server.requests) == 2
    # An interaction's callback may go again: Discord refuses a second one.
    dropped.clear()
    assert (await wire.request("PATCH", "/a", b"{}", JSON)).status == 200
    callback = await wire.request("POST", "/interactions/1/t/callback", b"{}", JSON, again=True)
    assert callback.status == 200 and len(server.requests) == 5
    wire.close()
    await server.stop()


async def test_a_fresh_connection_closed_before_the_answer_fails_once_without_retrying():
    server = Server(lambda request: CLOSE)
    wire = await started(server)
    with pytest.raises(Unanswered):
        await wire.request("POST", "/interactions/1/t/callback", b"{}", "application/json")
    assert server.connections == 1  # not sent twice: it may have been acted on
    await server.stop()


async def test_a_chunked_and_gzipped_answer_is_read_whole():
    body = gzip.compress(b'{"attachments": [{"id": "9"}]}')
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(part), part) for part in (body[:10], body[10:]))
    raw = (
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n" + chunks + b"0\r\n\r\n"
    )
    server = Server(lambda request: raw)
    wire = await started(server)
    for _ in range(2):  # and the connection is kept after it
        got = await wire.request("PATCH", "/m", b"{}", "application/json")
        assert got.body == b'{"attachments": [{"id": "9"}]}'
    assert server.connections == 1
    wire.close()
    await server.stop()


async def test_an_error_answer_keeps_its_headers_case_insensitive():
    server = Server(
        lambda request: answer(
            "429 Too Many Requests",
            b'{"retry_after": 0.5}',
            "Via: 1.1 google\r\nX-RateLimit-Reset-After: 0.5\r\n",
        )
    )
    wire = await started(server)
    got = await wire.request("POST", "/x", b"{}", "application/json")
    assert (got.status, got.reason) == (429, "Too Many Requests")
    assert (
        got.headers.get("via") == "1.1 google" and got.headers["X-RateLimit-Reset-After"] == "0.5"
    )
    wire.close()
    await server.stop()


async def test_a_request_unanswered_in_time_raises_and_its_connection_is_dropped():
    server = Server(lambda request: None)
    wire = await started(server, timeout=0.2)
    with pytest.raises(TimeoutError):
        await wire.request("PATCH", "/slow", b"{}", "application/json")
    assert not wire._idle.get(next(iter(wire._origins.values())))
    await server.stop()


async def test_an_unreadable_answer_is_a_connection_error():
    server = Server(lambda request: b"SPDY/9 nonsense\r\n\r\n")
    wire = await started(server)
    with pytest.raises(ConnectionError):
        await wire.request("GET", "/")
    await server.stop()


async def test_https_with_the_servers_certificate(tmp_path):
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed: no certificate to test TLS with")
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=localhost",
            "-addext",
            "subjectAltName=DNS:localhost",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    served = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    served.load_cert_chain(cert, key)
    server = Server(lambda request: answer())
    port = await server.start(served)
    trusted = ssl.create_default_context(cafile=str(cert))
    wire = Wire(lambda: f"https://localhost:{port}/api/v10", "ua", ssl_context=trusted)
    for _ in range(2):
        assert (await wire.request("PATCH", "/m", b"{}", "application/json")).body == OK
    assert wire.opened == 1
    wire.close()
    # A certificate nobody vouches for is refused.
    untrusting = Wire(lambda: f"https://localhost:{port}/api/v10", "ua")
    with pytest.raises(ssl.SSLError):
        await untrusting.request("PATCH", "/m", b"{}", "application/json")
    await server.stop()
