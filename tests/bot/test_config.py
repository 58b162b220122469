"""The live table's settings (APOPHIS_WEB_PORT and the rest): read, checked, kept secret.

The other settings are checked in tests/bot/test_startup.py.
"""

from __future__ import annotations

import errno

import pytest

from bot.config import Config, ConfigError, cannot_listen

TOKEN = "x" * 24 + "." + "y" * 6 + "." + "z" * 27
SECRET = "s3cr3t-Client-Secret_0123456789"
CLIENT_ID = "123456789012345678"
PORT = {"APOPHIS_WEB_PORT": "8080"}


def config(**env: str) -> Config:
    return Config.from_env({"DISCORD_TOKEN": TOKEN, **env})


def test_without_a_web_port_there_is_no_live_table():
    plain = config()
    assert (plain.web, plain.web_port, plain.public_url) == (False, None, None)
    assert (plain.client_id, plain.client_secret, plain.activity) == (None, None, False)


def test_a_web_port_alone_serves_the_table_on_this_machine():
    local = config(APOPHIS_WEB_PORT="8080")
    assert (local.web, local.web_port, local.public_url) == (True, 8080, "http://localhost:8080")
    assert local.web_host == "127.0.0.1" and not local.activity


def test_a_public_url_is_kept_without_its_trailing_slash_and_binds_every_interface():
    public = config(APOPHIS_WEB_PORT="8080", APOPHIS_PUBLIC_URL="https://apophis.example.com/")
    assert public.public_url == "https://apophis.example.com"
    assert public.web_host == "0.0.0.0"
    other = config(APOPHIS_WEB_PORT="1", APOPHIS_PUBLIC_URL="http://games.example:81")
    assert other.public_url == "http://games.example:81"
    local = config(APOPHIS_WEB_PORT="8080", APOPHIS_PUBLIC_URL="http://127.0.0.1:9000")
    assert local.web_host == "127.0.0.1"
    chosen = config(
        APOPHIS_WEB_PORT="8080",
        APOPHIS_PUBLIC_URL="https://apophis.example.com",
        APOPHIS_WEB_HOST="10.0.0.2",
    )
    assert chosen.web_host == "10.0.0.2"


def test_the_activity_needs_a_client_id_and_a_web_port():
    on = config(APOPHIS_ACTIVITY="on", APOPHIS_CLIENT_ID=CLIENT_ID, APOPHIS_WEB_PORT="8080")
    assert on.activity and on.client_id == CLIENT_ID and on.client_secret is None
    off = config(APOPHIS_ACTIVITY="OFF", APOPHIS_CLIENT_ID=CLIENT_ID, APOPHIS_WEB_PORT="8080")
    assert not off.activity
    both = "needs APOPHIS_CLIENT_ID and APOPHIS_WEB_PORT"
    with pytest.raises(ConfigError, match=both):
        config(APOPHIS_ACTIVITY="on")
    with pytest.raises(ConfigError, match=r"needs APOPHIS_CLIENT_ID:"):
        config(APOPHIS_ACTIVITY="on", APOPHIS_WEB_PORT="8080")
    with pytest.raises(ConfigError, match=r"needs APOPHIS_WEB_PORT:"):
        config(APOPHIS_ACTIVITY="on", APOPHIS_CLIENT_ID=CLIENT_ID)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"APOPHIS_WEB_PORT": "0"}, "APOPHIS_WEB_PORT must be a port number from 1 to 65535"),
        ({"APOPHIS_WEB_PORT": "65536"}, "APOPHIS_WEB_PORT must be a port number"),
        ({"APOPHIS_WEB_PORT": "http"}, "APOPHIS_WEB_PORT must be a port number"),
        ({"APOPHIS_PUBLIC_URL": "https://apophis.example.com"}, "APOPHIS_WEB_PORT is not"),
        ({**PORT, "APOPHIS_PUBLIC_URL": "apophis.example.com"}, "APOPHIS_PUBLIC_URL must be"),
        ({**PORT, "APOPHIS_PUBLIC_URL": "ftp://apophis.example.com"}, "APOPHIS_PUBLIC_URL must be"),
        (
            {**PORT, "APOPHIS_PUBLIC_URL": "https://apophis.example.com/?x=1"},
            "APOPHIS_PUBLIC_URL must",
        ),
        (  # the table's pages and socket are at the root of its host
            {**PORT, "APOPHIS_PUBLIC_URL": "https://games.example/apophis"},
            "the root of a host",
        ),
        (
            {**PORT, "APOPHIS_PUBLIC_URL": "https://me@apophis.example.com"},
            "APOPHIS_PUBLIC_URL must",
        ),
        (
            {**PORT, "APOPHIS_PUBLIC_URL": "https://apophis.example.com:99999"},
            "APOPHIS_PUBLIC_URL must",
        ),
        ({**PORT, "APOPHIS_PUBLIC_URL": "https://"}, "APOPHIS_PUBLIC_URL must be"),
        ({"APOPHIS_WEB_HOST": "http://0.0.0.0"}, "APOPHIS_WEB_HOST must be an address"),
        ({"APOPHIS_CLIENT_ID": "my-app"}, "APOPHIS_CLIENT_ID must be a number"),
        ({"APOPHIS_CLIENT_SECRET": SECRET}, "APOPHIS_CLIENT_SECRET is set but APOPHIS_CLIENT_ID"),
        ({"APOPHIS_ACTIVITY": "maybe"}, "APOPHIS_ACTIVITY must be on or off"),
    ],
)
def test_each_bad_web_setting_is_named(settings, message):
    with pytest.raises(ConfigError, match=message) as refused:
        config(**settings)
    assert SECRET not in str(refused.value)


def test_neither_the_token_nor_the_client_secret_is_ever_shown():
    full = config(
        APOPHIS_WEB_PORT="8080",
        APOPHIS_CLIENT_ID=CLIENT_ID,
        APOPHIS_CLIENT_SECRET=SECRET,
        APOPHIS_ACTIVITY="on",
    )
    assert full.token == TOKEN and full.client_secret == SECRET
    for shown in (repr(full), str(full), f"{full!r}"):
        assert TOKEN not in shown and SECRET not in shown
        assert "client_id='123456789012345678'" in shown  # the rest is there to read


@pytest.mark.parametrize(
    ("value", "database"),
    [
        ("", "data/apophis.sqlite3"),
        ("games/apophis.sqlite3", "games/apophis.sqlite3"),
        ("/var/lib/apophis/apophis.sqlite3", "/var/lib/apophis/apophis.sqlite3"),
        ("sqlite:///var/lib/apophis/apophis.sqlite3", "/var/lib/apophis/apophis.sqlite3"),
        ("sqlite:games/my%20games.sqlite3", "games/my games.sqlite3"),
        ("postgresql://bot:pw@db/apophis", "postgresql://bot:pw@db/apophis"),
        ("postgres://bot@db/apophis", "postgres://bot@db/apophis"),
    ],
)
def test_the_database_is_a_path_a_sqlite_url_or_a_postgresql_url(value, database):
    assert config(APOPHIS_DATABASE=value).database == database


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("mysql://root:hunter2@db/apophis", "mysql://root:***@db/apophis"),
        ("postgressql://bot:hunter2@db/apophis", "postgressql://bot:***@db/apophis"),
        ("sqlite://db/apophis.sqlite3", "sqlite://db/apophis.sqlite3"),
        ("file:apophis.sqlite3", "file:..."),
    ],
)
def test_any_other_database_url_is_refused_without_its_password(value, shown):
    with pytest.raises(ConfigError, match=r"^APOPHIS_DATABASE ") as refused:
        config(APOPHIS_DATABASE=value)
    assert shown in str(refused.value) and "hunter2" not in str(refused.value)


def test_a_privileged_port_is_named_with_what_to_choose():
    refused = cannot_listen(
        PermissionError(errno.EACCES, "Permission denied"),
        "0.0.0.0",
        80,
        ("APOPHIS_WEB_HOST", "APOPHIS_WEB_PORT"),
    )
    assert str(refused).startswith("APOPHIS_WEB_PORT=80 is a privileged port")
    assert "from 1024 up" in str(refused)
