"""The fake Discord's OAuth2: codes, the token exchange, bearer ``/users/@me`` and the
browser's authorize redirect, checked against Discord's OpenAPI description."""

from __future__ import annotations

import base64
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
import yarl
from jsonschema import Draft202012Validator

from devtools.fakediscord import DEFAULT_OPENAPI_PATH, FakeDiscord, Member
from devtools.fakediscord.oauth import ACCESS_TOKEN_LIFETIME, CODE_LIFETIME

pytestmark = pytest.mark.e2e

REDIRECT = "https://apophis.example/auth/callback"

#: The access token response as Discord documents it (OAuth2, "Access Token Response"):
#: the OpenAPI description has no operation for the token endpoint (it only names its URL
#: in ``components/securitySchemes/OAuth2``), so the answer is checked against these fields.
TOKEN_RESPONSE = {
    "type": "object",
    "required": ["access_token", "token_type", "expires_in", "refresh_token", "scope"],
    "properties": {
        "access_token": {"type": "string", "minLength": 1},
        "token_type": {"const": "Bearer"},
        "expires_in": {"type": "integer", "minimum": 1},
        "refresh_token": {"type": "string", "minLength": 1},
        "scope": {"type": "string"},
    },
}


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


@pytest.fixture
def alice(fake_discord: FakeDiscord) -> Member:
    guild = fake_discord.add_guild("Apophis Club")
    return fake_discord.add_member(guild, "alice", locale="fr")


async def exchange(
    fake: FakeDiscord, http: aiohttp.ClientSession, code: str, **fields: str
) -> tuple[int, Any]:
    """POST the token exchange, form-encoded with the client's credentials unless overridden."""
    form = {
        "grant_type": "authorization_code",
        "code": code,
        "client_id": fake.oauth.client_id,
        "client_secret": fake.oauth.client_secret,
        **fields,
    }
    async with http.post(f"{fake.api_base_url}/oauth2/token", data=form) as response:
        return response.status, await response.json()


def basic_auth(login: str, password: str) -> str:
    """An HTTP Basic ``Authorization`` header value (RFC 7617)."""
    return "Basic " + base64.b64encode(f"{login}:{password}".encode()).decode()


async def get_me(fake: FakeDiscord, http: aiohttp.ClientSession, auth: str) -> tuple[int, Any]:
    headers = {"Authorization": auth}
    async with http.get(f"{fake.api_base_url}/users/@me", headers=headers) as response:
        return response.status, await response.json()


def check_token_response(fake: FakeDiscord, body: Any) -> None:
    if fake.validator.has_operation("POST", "/oauth2/token") and fake.validator.available:
        assert fake.validator.validate_response("POST", "/oauth2/token", body) is None
    errors = [e.message for e in Draft202012Validator(TOKEN_RESPONSE).iter_errors(body)]
    assert errors == []
    assert body["expires_in"] == ACCESS_TOKEN_LIFETIME and body["scope"] == "identify"


def skip_without_description(fake: FakeDiscord) -> None:
    if not fake.validator.available:
        pytest.skip(fake.validator.skip_reason)


async def test_a_code_exchanges_for_a_token_that_reads_its_user(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession, alice: Member
) -> None:
    skip_without_description(fake_discord)
    status, token = await exchange(fake_discord, http, fake_discord.oauth.issue_code(alice))
    assert status == 200
    check_token_response(fake_discord, token)

    status, me = await get_me(fake_discord, http, f"Bearer {token['access_token']}")
    assert status == 200
    assert fake_discord.validator.validate_response("GET", "/users/@me", me) is None
    assert fake_discord.validator.validate_response("GET", "/users/@me", {"id": "1"}) is not None
    assert (me["id"], me["username"], me["global_name"]) == (str(alice.user.id), "alice", "alice")
    assert (me["discriminator"], me["avatar"], me["locale"]) == ("0", None, "fr")


async def test_the_bot_token_still_reads_the_bot_and_bearer_requests_are_not_the_bots(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession, alice: Member
) -> None:
    status, me = await get_me(fake_discord, http, f"Bot {fake_discord.bot_token}")
    assert (status, me) == (200, fake_discord.world.bot.payload())
    _, token = await exchange(fake_discord, http, fake_discord.oauth.issue_code(alice))
    await get_me(fake_discord, http, f"Bearer {token['access_token']}")
    bot_call, user_call = fake_discord.requests_to("GET /users/@me")
    assert bot_call.counts_global and not user_call.counts_global


async def test_client_credentials_may_come_as_http_basic_auth(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession, alice: Member
) -> None:
    oauth = fake_discord.oauth
    form = {"grant_type": "authorization_code", "code": oauth.issue_code(alice)}
    url = f"{fake_discord.api_base_url}/oauth2/token"
    wrong = {"Authorization": basic_auth(oauth.client_id, "not-the-secret")}
    async with http.post(url, data=form, headers=wrong) as response:
        assert (response.status, await response.json()) == (401, {"error": "invalid_client"})
    right = {"Authorization": basic_auth(oauth.client_id, oauth.client_secret)}
    async with http.post(url, data=form, headers=right) as response:
        assert response.status == 200
        check_token_response(fake_discord, await response.json())


async def test_a_code_is_single_use(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession, alice: Member
) -> None:
    code = fake_discord.oauth.issue_code(alice)
    assert (await exchange(fake_discord, http, code))[0] == 200
    status, body = await exchange(fake_discord, http, code)
    assert (status, body["error"]) == (400, "invalid_grant")
    assert body["error_description"] == 'Invalid "code" in request.'


async def test_wrong_client_credentials_are_refused_without_using_the_code(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession, alice: Member
) -> None:
    fake_discord.oauth.client_secret = "configured-secret"
    code = fake_discord.oauth.issue_code(alice)
    for wrong in ({"client_secret": "fake-client-secret"}, {"client_id": "1234"}):
        assert await exchange(fake_discord, http, code, **wrong) == (
            401,
            {"error": "invalid_client"},
        )
    assert (await exchange(fake_discord, http, code))[0] == 200


async def test_a_code_is_good_only_for_the_client_it_was_issued_to(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession, alice: Member
) -> None:
    code = fake_discord.oauth.issue_code(alice)
    fake_discord.oauth.client_id = "999"
    status, body = await exchange(fake_discord, http, code)
    assert (status, body["error"]) == (400, "invalid_grant")


async def test_the_redirect_uri_a_code_was_issued_with_must_be_given_again(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession, alice: Member
) -> None:
    code = fake_discord.oauth.issue_code(alice, redirect_uri=REDIRECT)
    for wrong in ({"redirect_uri": REDIRECT + "/elsewhere"}, {}):
        status, body = await exchange(fake_discord, http, code, **wrong)
        assert (status, body["error"]) == (400, "invalid_grant")
        assert body["error_description"] == 'Invalid "redirect_uri" in request.'
    assert (await exchange(fake_discord, http, code, redirect_uri=REDIRECT))[0] == 200


async def test_a_code_expires_after_ten_minutes(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession, alice: Member
) -> None:
    early, late = fake_discord.oauth.issue_code(alice), fake_discord.oauth.issue_code(alice)
    fake_discord.advance_time(CODE_LIFETIME - 1)
    assert (await exchange(fake_discord, http, early))[0] == 200
    fake_discord.advance_time(2)
    status, body = await exchange(fake_discord, http, late)
    assert (status, body["error"]) == (400, "invalid_grant")


async def test_only_form_encoded_authorization_code_grants_are_served(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession, alice: Member
) -> None:
    code = fake_discord.oauth.issue_code(alice)
    status, body = await exchange(fake_discord, http, code, grant_type="client_credentials")
    assert (status, body["error"]) == (400, "unsupported_grant_type")
    as_json = {"grant_type": "authorization_code", "code": code}
    async with http.post(f"{fake_discord.api_base_url}/oauth2/token", json=as_json) as response:
        assert response.status == 400
        assert await response.json() == {
            "error": "unsupported_grant_type",
            "error_description": "Grant type None is not supported",
        }
    status, body = await exchange(fake_discord, http, "")
    assert (status, body["error"]) == (400, "invalid_request")


async def test_unknown_or_expired_bearer_tokens_are_unauthorized(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession, alice: Member
) -> None:
    unauthorized = (401, {"message": "401: Unauthorized", "code": 0})
    assert await get_me(fake_discord, http, "Bearer not-a-token") == unauthorized
    _, token = await exchange(fake_discord, http, fake_discord.oauth.issue_code(alice))
    bearer = f"Bearer {token['access_token']}"
    async with http.get(
        f"{fake_discord.api_base_url}/gateway/bot", headers={"Authorization": bearer}
    ) as r:
        assert r.status == 401  # a user's token is good for /users/@me, not the bot's routes
    fake_discord.advance_time(ACCESS_TOKEN_LIFETIME)
    assert await get_me(fake_discord, http, bearer) == unauthorized
    _, other = await exchange(
        fake_discord, http, fake_discord.oauth.issue_code(alice, scope="guilds")
    )
    assert other["scope"] == "guilds"  # without identify, /users/@me is not for this token
    assert await get_me(fake_discord, http, f"Bearer {other['access_token']}") == unauthorized


def authorize_url(fake: FakeDiscord, path: str = "/oauth2/authorize", **query: str) -> yarl.URL:
    params = {
        "client_id": fake.oauth.client_id,
        "response_type": "code",
        "redirect_uri": REDIRECT + "?from=table",
        "scope": "identify",
        "state": "xyz 1",
        **query,
    }
    return yarl.URL(fake.url + path).with_query(params)


async def test_the_browser_authorize_redirects_with_state_and_a_code_that_exchanges(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession, alice: Member
) -> None:
    fake_discord.oauth.browser_user = alice
    async with http.get(authorize_url(fake_discord), allow_redirects=False) as response:
        assert response.status == 302
        target = yarl.URL(response.headers["Location"])
    assert str(target.with_query(None)) == REDIRECT
    assert target.query["state"] == "xyz 1" and target.query["from"] == "table"
    code = target.query["code"]
    status, token = await exchange(fake_discord, http, code, redirect_uri=REDIRECT + "?from=table")
    assert status == 200
    _, me = await get_me(fake_discord, http, f"Bearer {token['access_token']}")
    assert me["id"] == str(alice.user.id)


async def test_the_browser_authorize_refuses_what_discord_refuses(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession, alice: Member
) -> None:
    async def refusal(url: yarl.URL) -> str:
        async with http.get(url, allow_redirects=False) as response:
            assert response.status == 400
            return await response.text()

    assert "browser_user" in await refusal(authorize_url(fake_discord))
    fake_discord.oauth.browser_user = alice.user.id
    assert "Unknown application" in await refusal(authorize_url(fake_discord, client_id="42"))
    assert "response_type" in await refusal(authorize_url(fake_discord, response_type="token"))
    fake_discord.oauth.redirect_uris = {REDIRECT}
    assert "redirect_uri" in await refusal(authorize_url(fake_discord))
    async with http.get(
        authorize_url(fake_discord, redirect_uri=REDIRECT), allow_redirects=False
    ) as response:
        assert response.status == 302


async def test_the_urls_the_openapi_description_names_are_served(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession, alice: Member
) -> None:
    if not DEFAULT_OPENAPI_PATH.is_file():
        pytest.skip(f"Discord's OpenAPI description is absent: {DEFAULT_OPENAPI_PATH}")
    document = json.loads(DEFAULT_OPENAPI_PATH.read_text(encoding="utf-8"))
    flow = document["components"]["securitySchemes"]["OAuth2"]["flows"]["authorizationCode"]
    token_path = yarl.URL(flow["tokenUrl"]).path  # /api/oauth2/token, without a version
    authorize_path = yarl.URL(flow["authorizationUrl"]).path
    fake_discord.oauth.browser_user = alice
    url = authorize_url(fake_discord, authorize_path)
    async with http.get(url, allow_redirects=False) as response:
        code = yarl.URL(response.headers["Location"]).query["code"]
    form = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": REDIRECT + "?from=table",
        "client_id": fake_discord.oauth.client_id,
        "client_secret": fake_discord.oauth.client_secret,
    }
    async with http.post(fake_discord.url + token_path, data=form) as response:
        assert response.status == 200
        check_token_response(fake_discord, await response.json())
