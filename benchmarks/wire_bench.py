"""CPU of one request to Discord, as the interaction tokens send them: aiohttp's client
against ours (bot.discord.wire), on the same local server, one after the other.

Prints microseconds of the client's CPU per request (its process's time, the server
running in a process of its own) for each, several rounds.
    .venv/bin/python benchmarks/wire_bench.py [--requests 20000] [--concurrency 8] [--rounds 2]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import sys
import time
from pathlib import Path

import aiohttp
import orjson
from aiohttp import web

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.app import on_fast_loop
from bot.discord.wire import Wire

#: A board edit's body, about the size of the bot's (text, an embed, buttons).
BODY = orjson.dumps(
    {"content": "x" * 300, "embeds": [{"description": "y" * 600}], "components": [{"type": 1}] * 4}
)
ANSWER = b'{"id":"1","attachments":[]}'


def serve(port: int, ready) -> None:
    async def answer(request: web.Request) -> web.Response:
        await request.read()
        return web.Response(body=ANSWER, content_type="application/json")

    async def main() -> None:
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", answer)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        ready.set()
        await asyncio.Event().wait()

    on_fast_loop(main())


async def through_aiohttp(base: str, requests: int, concurrency: int) -> None:
    headers = {"Content-Type": "application/json"}
    async with aiohttp.ClientSession() as session:

        async def worker(n: int) -> None:
            for i in range(n):
                url = f"{base}/webhooks/1/token{i}/messages/@original"
                async with session.request("PATCH", url, data=BODY, headers=headers) as response:
                    orjson.loads(await response.read())

        await asyncio.gather(*(worker(requests // concurrency) for _ in range(concurrency)))


async def through_wire(base: str, requests: int, concurrency: int) -> None:
    wire = Wire(lambda: base, "DiscordBot (bench, 1)")

    async def worker(n: int) -> None:
        for i in range(n):
            path = f"/webhooks/1/token{i}/messages/@original"
            answer = await wire.request("PATCH", path, BODY, "application/json")
            orjson.loads(answer.body)

    await asyncio.gather(*(worker(requests // concurrency) for _ in range(concurrency)))
    wire.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=20000)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--port", type=int, default=8931)
    args = parser.parse_args()
    ready = multiprocessing.Event()
    server = multiprocessing.Process(target=serve, args=(args.port, ready), daemon=True)
    server.start()
    ready.wait(10)
    base = f"http://127.0.0.1:{args.port}/api/v10"
    print(f"{args.requests} PATCH requests of {len(BODY)} bytes, {args.concurrency} at a time")
    for round_ in range(1, args.rounds + 1):
        for name, client in (("aiohttp", through_aiohttp), ("wire", through_wire)):
            began = time.process_time()
            on_fast_loop(client(base, args.requests, args.concurrency))
            cpu = time.process_time() - began
            print(f"round {round_}: {name:8} {cpu / args.requests * 1e6:6.1f} µs of CPU a request")
    server.terminate()


if __name__ == "__main__":
    main()
