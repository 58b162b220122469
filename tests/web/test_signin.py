"""Signing in to the web table through Discord (the fake's OAuth2): the Activity's code
exchange, and a browser's redirect; the secret and the tokens never logged."""

from __future__ import annotations

import logging

import aiohttp
import pytest

from tests.bot.helpers import Scene
from tests.web.conftest import serving
from tests.web.helpers import Socket

pytestmark = pytest.mark.e2e


async def test_the_activity_exchanges_its_code_for_a_session(fake_discord, make_table, caplog):
    caplog.set_level(logging.DEBUG)
    bot = make_table()
    scene = Scene(fake_discord, bot.core, names=("ann", "zoé"))
    scene["zoé"].user.locale = "fr"
    async with serving(fake_discord, bot):
        base = bot.web.public_url
        origin = {"Origin": f"https://{fake_discord.world.application_id}.discordsays.com"}
        async with aiohttp.ClientSession() as http:
            code = fake_discord.oauth.issue_code(scene["zoé"].user)
            async with http.post(f"{base}/api/token", json={"code": code}, headers=origin) as r:
                assert r.status == 200
                body = await r.json()
            assert body["user"] == {"id": str(scene.id("zoé")), "name": "zoé", "locale": "fr"}
            assert body["access_token"] and body["session"]
            # A code is used once; a made-up one is refused with a reason.
            for used in (code, "made-up"):
                async with http.post(f"{base}/api/token", json={"code": used}, headers=origin) as r:
                    assert r.status == 401 and "refused" in (await r.json())["error"]
            async with http.post(f"{base}/api/token", data=b"[", headers=origin) as r:
                assert r.status == 400
        socket = Socket(bot, scene.channel.id)
        await socket.connect(
            {"type": "hello", "channel": str(scene.channel.id), "session": body["session"]}
        )
        welcome = await socket.wait_for(
            lambda s: next((m for m in s.received if m["type"] == "welcome"), None)
        )
        assert welcome["language"] == "fr" and welcome["user"]["name"] == "zoé"
        assert welcome["labels"]["rocket"] == "Missile"
        await socket.close()
    logged = caplog.text
    for secret in ("fake-client-secret", body["access_token"], body["session"], code):
        assert secret not in logged


async def test_a_browser_signs_in_with_the_redirect(fake_discord, make_table):
    bot = make_table()
    scene = Scene(fake_discord, bot.core, names=("ann",))
    fake_discord.oauth.browser_user = scene["ann"].user
    async with serving(fake_discord, bot):
        base = bot.web.public_url
        jar = aiohttp.CookieJar(unsafe=True)
        async with aiohttp.ClientSession(cookie_jar=jar) as http:
            async with http.get(f"{base}/api/session") as r:
                assert r.status == 401  # watching needs no sign-in; playing does
            channel = scene.channel.id
            async with http.get(f"{base}/auth/login?channel={channel}") as r:
                assert str(r.url) == f"{base}/?channel={channel}" and len(r.history) == 3
            async with http.get(f"{base}/api/session") as r:
                session = await r.json()
            # Who is signed in, never the HttpOnly cookie's value (script has no use for it).
            assert session == {
                "user": {"id": str(scene.id("ann")), "name": "ann", "locale": "en-US"}
            }
            token = next(c.value for c in jar if c.key == "apophis_session")
            assert bot.web.sessions.read(token).id == scene.id("ann")
            # The page's socket is signed in by the cookie its upgrade request carries.
            async with http.ws_connect(f"{base}/ws", headers={"Origin": base}) as ws:
                await ws.send_json({"type": "hello", "channel": str(channel), "session": None})
                welcome = await ws.receive_json()
            assert welcome["type"] == "welcome" and welcome["user"]["id"] == str(scene.id("ann"))
            # Coming back without having started here is refused.
            async with http.get(f"{base}/auth/callback?code=x&state=forged") as r:
                assert r.status == 400
