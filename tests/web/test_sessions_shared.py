"""A logout holds everywhere: on every process sharing the database, and after a restart.

Two live tables (web doors with their cores, no Discord client) on one PostgreSQL database,
as two processes of one bot: a browser signed in through the first logs out there, and the
second process closes the sockets of that session and signs nobody in with it any more.
"""

from __future__ import annotations

import aiohttp
import pytest

from bot.web import server, sockets
from bot.web.sessions import Expired
from tests.bot.helpers import Scene
from tests.web.conftest import serving, shared_process
from tests.web.test_hardening import close_code, hello, signed_in_browser


async def test_a_logout_on_one_process_ends_the_session_on_the_other(fake_discord, postgres_url):
    first, second = (
        shared_process(fake_discord, postgres_url, APOPHIS_DISCORD="off") for _ in "ab"
    )
    scene = Scene(fake_discord, first.core, names=("ann",))
    fake_discord.oauth.browser_user = scene["ann"].user
    channel = scene.channel.id
    async with serving(fake_discord, first), serving(fake_discord, second):
        here, there = first.web.public_url, second.web.public_url
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            token = await signed_in_browser(http, here, channel)
            async with aiohttp.ClientSession() as elsewhere:  # the Activity, on the other
                activity = await elsewhere.ws_connect(f"{there}/ws", headers={"Origin": there})
                assert (await hello(activity, channel, token))["user"]["name"] == "ann"
                async with http.post(f"{here}/auth/logout", headers={"Origin": here}) as r:
                    assert r.status == 200
                # closed by the other process once it hears of the logout (every 2 s)
                assert await close_code(activity, within=10) == sockets.SESSION_OVER
        cookie = {"Cookie": f"{server.COOKIE}={token}"}
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{there}/api/session", headers=cookie) as r:
                assert r.status == 401
            async with http.ws_connect(f"{there}/ws", headers={"Origin": there}) as ws:
                await ws.send_json({"type": "hello", "channel": str(channel), "session": token})
                assert await close_code(ws) == sockets.SESSION_OVER


async def test_a_logout_holds_after_a_restart(fake_discord, make_table):
    app = make_table()
    scene = Scene(fake_discord, app.core, names=("ann",))
    fake_discord.oauth.browser_user = scene["ann"].user
    async with serving(fake_discord, app):
        base = app.web.public_url
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            token = await signed_in_browser(http, base, scene.channel.id)
            async with http.post(f"{base}/auth/logout", headers={"Origin": base}) as r:
                assert r.status == 200
    again = make_table()  # the same database, a new process
    async with serving(fake_discord, again):
        base = again.web.public_url
        assert again.web.sessions.read(token) is not None  # genuine, and not expired...
        with pytest.raises(Expired):  # ... but ended
            await again.web.sessions.user_of(token)
        async with aiohttp.ClientSession() as http:
            cookie = {"Cookie": f"{server.COOKIE}={token}"}
            async with http.get(f"{base}/api/session", headers=cookie) as r:
                assert r.status == 401
