"""The host's files in deploy/: the systemd unit verified and true to the bot (the signal it
stops on, its shutdown's length, the bot running under its memory protection), and the
Caddyfile valid and passing the live table (page, API, Activity paths, WebSocket) through
to a real bot. The two-machine example (deploy/two-machines): its template unit verified
for every role and the same as the single unit but for its settings files, each role's
settings accepted, its Caddyfiles valid, and one Caddy spreading the table over two web
processes on one PostgreSQL (one behind machine B's relay), skipping one once it stops.

Each tool is Debian's (`apt-get install systemd caddy`); a test whose tool is missing is
skipped and says which.
"""

from __future__ import annotations

import ast
import asyncio
import os
import re
import shutil
import signal
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import aiohttp
import discord
import orjson
import pytest

from bot.app import SHUTDOWN_SECONDS, why_it_stopped
from bot.config import Config
from bot.store.records import DatabaseUnusable
from devtools.fakediscord.server import FakeDiscord
from devtools.livetable import free_port
from devtools.processes import BotProcess, bot_env, spawn_bot_process
from tests.bot.helpers import Scene

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "deploy" / "apophis-bot.service"
CADDYFILE = ROOT / "deploy" / "Caddyfile"
#: What the Caddyfile says, to be replaced by the test's own host and port.
PUBLIC_HOST, UPSTREAM = "apophis.example.com", "127.0.0.1:8080"
#: The bot as `python -m bot`, with memory both writable and executable refused from the
#: start (prctl PR_SET_MDWE): what MemoryDenyWriteExecute=yes does under systemd.
UNDER_MDWE = (
    "import ctypes, runpy, sys\n"
    "if ctypes.CDLL(None, use_errno=True).prctl(65, 1, 0, 0, 0) != 0:\n"
    "    sys.exit('PR_SET_MDWE refused: ' + str(ctypes.get_errno()))\n"
    "sys.argv = ['apophis-bot']\n"
    "runpy.run_module('bot', run_name='__main__')\n"
)


def needs(tool: str) -> str:
    """The tool's path; the test is skipped, saying how to install it, when it is missing."""
    path = shutil.which(tool)
    if path is None:
        package = {"systemd-analyze": "systemd"}.get(tool, tool)
        pytest.skip(f"{tool} is not installed (Debian: apt-get install {package})")
    return path


def unit_settings(unit: Path = UNIT) -> dict[str, list[str]]:
    """A unit's `Key=value` lines, by key (a key may come more than once)."""
    settings: dict[str, list[str]] = defaultdict(list)
    for line in unit.read_text().splitlines():
        if "=" in line and not line.startswith(("#", ";", "[")):
            key, value = line.split("=", 1)
            settings[key.strip()].append(value.strip())
    return settings


def handled_signals() -> set[str]:
    """The signals bot/app.py handles: `for sig in (...): loop.add_signal_handler(sig, ...)`."""
    tree = ast.parse((ROOT / "bot" / "app.py").read_text())
    found = set()
    for loop in ast.walk(tree):
        if not isinstance(loop, ast.For) or not isinstance(loop.iter, ast.Tuple):
            continue
        calls = [node for node in ast.walk(loop) if isinstance(node, ast.Call)]
        if any(getattr(call.func, "attr", "") == "add_signal_handler" for call in calls):
            found |= {element.attr for element in loop.iter.elts}
    return found


def test_the_unit_passes_systemd_analyze(tmp_path: Path) -> None:
    analyze = needs("systemd-analyze")
    # verify wants ExecStart's program to exist: this environment's apophis-bot.
    program = Path(sys.executable).with_name("apophis-bot")
    assert program.exists(), "the project is not installed in this environment (pip install -e .)"
    unit = tmp_path / UNIT.name
    text = UNIT.read_text()
    assert "ExecStart=/opt/apophis/venv/bin/apophis-bot\n" in text
    unit.write_text(text.replace("/opt/apophis/venv/bin/apophis-bot", str(program)))

    analyzed(analyze, unit)


def analyzed(analyze: str, unit: Path) -> None:
    """`systemd-analyze verify` finds nothing wrong with the unit, and `security` rates it
    2.0 at most (systemd's "OK")."""
    verify = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True)
    assert verify.returncode == 0 and not verify.stderr.strip(), verify.stderr
    security = subprocess.run(
        [analyze, "security", "--offline=yes", str(unit)], capture_output=True, text=True
    )
    level = re.search(r"Overall exposure level for \S+: ([\d.]+)", security.stdout)
    assert level, security.stdout + security.stderr
    assert float(level.group(1)) <= 2.0, security.stdout


def test_the_unit_stops_the_bot_as_the_bot_expects() -> None:
    settings = unit_settings()
    assert handled_signals() == {"SIGTERM", "SIGINT"}
    (kill,) = settings["KillSignal"]
    assert kill in handled_signals()
    (timeout,) = settings["TimeoutStopSec"]
    assert int(timeout.removesuffix("s")) >= 2 * SHUTDOWN_SECONDS
    assert settings["Restart"] == ["on-failure"]
    assert settings["MemoryDenyWriteExecute"] == ["yes"]  # run so in the test below
    # The exit statuses that need a person: a wrong setting (2), an unusable database (3).
    assert settings["RestartPreventExitStatus"] == ["2 3"]
    assert why_it_stopped(discord.LoginFailure())[1] == 2  # type: ignore[index]
    assert why_it_stopped(DatabaseUnusable("unusable"))[1] == 3  # type: ignore[index]


def test_the_documents_install_the_bot_where_the_unit_runs_it() -> None:
    """docs/hosting.md creates the virtual environment whose apophis-bot the unit runs, every
    program it and the unit name under /opt/apophis is in that environment, and the unit's
    settings file is the one hosting.md writes."""
    hosting = (ROOT / "docs" / "hosting.md").read_text()
    (environment,) = set(re.findall(r"python3 -m venv (\S+)", hosting))
    settings = unit_settings()
    assert settings["ExecStart"] == [f"{environment}/bin/apophis-bot"]
    named = re.findall(r"/opt/apophis[\w/.-]*", hosting + UNIT.read_text())
    assert named
    for path in {path.rstrip(".") for path in named}:
        assert path == environment or path.startswith(f"{environment}/bin/"), path
    (settings_file,) = settings["EnvironmentFile"]
    assert f"{environment}/bin/apophis-bot example-env {settings_file}" in hosting


async def start_bot(
    fake: FakeDiscord, database: Path, **settings: str
) -> asyncio.subprocess.Process:
    """The bot, as the unit runs it (MemoryDenyWriteExecute), connected to the fake and ready."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "APOPHIS_"))}
    env = bot_env(fake, database, clean, **settings)
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", UNDER_MDWE, env=env, cwd=ROOT, stderr=asyncio.subprocess.PIPE
    )
    while b"ready: logged in" not in (
        line := await asyncio.wait_for(process.stderr.readline(), 20)
    ):
        assert line, "the bot stopped before it was ready"
    return process


async def stop_bot(process: asyncio.subprocess.Process) -> bytes:
    """SIGTERM, as systemd stops the unit: the rest of the log, once it exited cleanly."""
    process.send_signal(signal.SIGTERM)
    rest = await asyncio.wait_for(process.stderr.read(), 20)
    assert await process.wait() == 0, rest.decode()
    assert b"Traceback" not in rest, rest.decode()
    return rest


@pytest.mark.e2e
async def test_the_bot_plays_under_the_unit_s_protection_and_stops_on_its_signal(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    scene = Scene(fake_discord, None, names=("ann",))
    process = await start_bot(fake_discord, tmp_path / "apophis.sqlite3")
    try:
        await scene.cmd("apophis new", "ann")
        await scene.cmd("apophis start", "ann")
        # The board, drawn (Pillow) and sent as a picture.
        await fake_discord.wait_for(
            lambda: any(
                attachment.filename.endswith(".png")
                for message in scene.public()
                for attachment in message.attachments
            ),
            description="a board picture",
        )
    finally:
        rest = await stop_bot(process)
    assert b"froze 1 running clocks" in rest


def local_caddyfile(caddy_port: int, web_port: int) -> str:
    """deploy/Caddyfile on this machine: plain HTTP on localhost, no admin endpoint."""
    text = CADDYFILE.read_text()
    assert text.count(PUBLIC_HOST + " {") == 1 and text.count(UPSTREAM) == 1
    text = text.replace(PUBLIC_HOST + " {", f"http://localhost:{caddy_port} {{")
    return no_admin(text.replace(UPSTREAM, f"127.0.0.1:{web_port}"))


def test_the_caddyfile_is_valid(tmp_path: Path) -> None:
    caddy = needs("caddy")
    (tmp_path / "Caddyfile").write_text(local_caddyfile(free_port(), free_port()))
    for config in (CADDYFILE, tmp_path / "Caddyfile"):
        validated(caddy, config, tmp_path)


def validated(caddy: str, config: Path, home: Path) -> None:
    """`caddy validate` takes the Caddyfile."""
    env = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home)}
    result = subprocess.run(
        [caddy, "validate", "--config", str(config), "--adapter", "caddyfile"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    assert "Valid configuration" in result.stdout + result.stderr


async def start_caddy(caddy: str, config: Path, home: Path) -> asyncio.subprocess.Process:
    """Caddy on `config`, once it serves it (it says so in its log)."""
    process = await asyncio.create_subprocess_exec(
        caddy,
        "run",
        "--config",
        str(config),
        "--adapter",
        "caddyfile",
        env={
            **os.environ,
            "HOME": str(home),
            "XDG_DATA_HOME": str(home),
            "XDG_CONFIG_HOME": str(home),
        },
        stderr=asyncio.subprocess.PIPE,
    )
    while b"serving initial configuration" not in (
        line := await asyncio.wait_for(process.stderr.readline(), 10)
    ):
        assert line, "caddy stopped before serving"
    return process


@pytest.mark.e2e
async def test_caddy_passes_the_live_table_through(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    caddy = needs("caddy")
    caddy_port, web_port = free_port(), free_port()
    public = f"http://localhost:{caddy_port}"
    config = tmp_path / "Caddyfile"
    config.write_text(local_caddyfile(caddy_port, web_port))
    scene = Scene(fake_discord, None, names=("ann",))
    bot = await start_bot(
        fake_discord,
        tmp_path / "apophis.sqlite3",
        APOPHIS_WEB_PORT=str(web_port),
        APOPHIS_PUBLIC_URL=public,
        APOPHIS_CLIENT_ID=str(fake_discord.world.application_id),
        APOPHIS_CLIENT_SECRET="fake-client-secret",
    )
    proxy = await start_caddy(caddy, config, tmp_path)
    try:
        async with aiohttp.ClientSession() as http:
            async with http.get(public + "/", headers={"Accept-Encoding": "gzip"}) as page:
                assert page.status == 200 and "text/html" in page.content_type
                assert page.headers.get("Content-Encoding") == "gzip"
                assert "<html" in (await page.text()).lower()
            for path in ("/api/session", "/.proxy/api/session"):  # the bot's answer: nobody
                async with http.get(public + path) as answer:
                    assert answer.status == 401 and answer.content_type == "application/json"
                    assert answer.headers.getall("Server") == ["Caddy", "apophis"]
            for path in ("/ws", "/.proxy/ws"):
                async with http.ws_connect(public + path, headers={"Origin": public}) as ws:
                    hello = {"type": "hello", "channel": str(scene.channel.id), "session": None}
                    await ws.send_str(orjson.dumps(hello).decode())
                    welcome = orjson.loads(await asyncio.wait_for(ws.receive_str(), 10))
                    state = orjson.loads(await asyncio.wait_for(ws.receive_str(), 10))
                    assert (welcome["type"], state["type"]) == ("welcome", "state")
            # Another site's page may not open a socket, through Caddy as directly.
            with pytest.raises(aiohttp.WSServerHandshakeError):
                await http.ws_connect(public + "/ws", headers={"Origin": "https://evil.example"})
    finally:
        proxy.terminate()
        await proxy.wait()
        await stop_bot(bot)


# ------------------------------------------------------------ two machines (deploy/two-machines)

TWO = ROOT / "deploy" / "two-machines"
TEMPLATE = TWO / "apophis@.service"
ROLES = ("discord-a", "discord-b", "standby", "web")
#: What the two-machine files say, to be replaced by the test's own addresses.
FRONT_UPSTREAMS, MACHINE_A, MACHINE_B = "127.0.0.1:8080 10.0.0.2:8081", "10.0.0.1", "10.0.0.2"
#: Settings a bot process for the fake gets from `bot_env`, not from the files.
FROM_BOT_ENV = {"DISCORD_TOKEN", "APOPHIS_DATABASE", "APOPHIS_LOG_LEVEL"}


def env_file(name: str) -> dict[str, str]:
    """A deploy/two-machines settings file's `KEY=value` lines (comments left out)."""
    lines = (TWO / f"{name}.env").read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))


def role_settings(role: str) -> dict[str, str]:
    """What a role's process reads under the template: common.env, then its own file."""
    return {**env_file("common"), **env_file(role)}


def test_the_template_passes_systemd_analyze_for_every_role(tmp_path: Path) -> None:
    analyze = needs("systemd-analyze")
    program = Path(sys.executable).with_name("apophis-bot")
    text = TEMPLATE.read_text()
    assert "ExecStart=/opt/apophis/venv/bin/apophis-bot\n" in text
    (tmp_path / TEMPLATE.name).write_text(
        text.replace("/opt/apophis/venv/bin/apophis-bot", str(program))
    )
    for role in ROLES:
        assert (TWO / f"{role}.env").exists(), role
        analyzed(analyze, tmp_path / f"apophis@{role}.service")  # the template's instance


def test_the_template_runs_each_role_as_the_single_unit_runs_the_bot() -> None:
    """The template differs from deploy/apophis-bot.service only in what it is and where
    its settings are: common.env, then the role's own file."""
    single, template = unit_settings(), unit_settings(TEMPLATE)
    assert template.pop("EnvironmentFile") == ["/etc/apophis/common.env", "/etc/apophis/%i.env"]
    assert template.pop("Description") == ["Apophis Bot, %i"]
    del single["EnvironmentFile"], single["Description"]
    assert template == single


def test_each_role_s_settings_are_accepted_by_the_bot() -> None:
    # The files' blanks, filled in as a host does.
    token = {
        "DISCORD_TOKEN": "x" * 24 + ".token.example",
        "APOPHIS_CLIENT_ID": "123456789012345678",
        "APOPHIS_CLIENT_SECRET": "client-secret",
    }
    for role in ("discord-a", "discord-b", "standby"):
        config = Config.from_env({**role_settings(role), **token})
        assert config.processes == 2 and config.shard_count == 4 and config.activity, role
        assert config.web_host == "127.0.0.1", role  # reached through Caddy only
    shards = [Config.from_env({**role_settings(r), **token}).shard_ids for r in ROLES[:2]]
    assert shards == [(0, 1), (2, 3)]
    assert Config.from_env({**role_settings("standby"), **token}).standby
    web = role_settings("web")
    assert web["APOPHIS_DISCORD"] == "off" and "APOPHIS_SHARD_IDS" not in web
    table_alone = Config.from_env({**web, **token})  # every shard's tables, none of its own
    assert table_alone.shards.ids == () and table_alone.shard_count == 4
    ports = {role: role_settings(role)["APOPHIS_WEB_PORT"] for role in ROLES}
    # The roles that may run on one machine listen on ports of their own.
    assert len({ports["discord-a"], ports["standby"], ports["web"]}) == 3


def two_machine_caddyfiles(front: int, web_a: int, relay: int, web_b: int) -> tuple[str, str]:
    """Machine A's Caddyfile and machine B's relay on this machine: plain HTTP on
    localhost, machine A's and B's addresses both 127.0.0.1, no admin endpoint."""
    text = (TWO / "Caddyfile").read_text()
    assert text.count(PUBLIC_HOST + " {") == 1 and text.count(FRONT_UPSTREAMS) == 1
    text = text.replace(PUBLIC_HOST + " {", f"http://localhost:{front} {{")
    text = text.replace(FRONT_UPSTREAMS, f"127.0.0.1:{web_a} 127.0.0.1:{relay}")
    relayed = (TWO / "Caddyfile.relay").read_text()
    for old, new in (
        (f"bind {MACHINE_B}", "bind 127.0.0.1"),
        (f"remote_ip {MACHINE_A}", "remote_ip 127.0.0.1"),
        (UPSTREAM, f"127.0.0.1:{web_b}"),
        (":8081 {", f":{relay} {{"),
    ):
        assert relayed.count(old) == 1, old
        relayed = relayed.replace(old, new)
    return no_admin(text), no_admin(relayed)


def no_admin(caddyfile: str) -> str:
    """The Caddyfile without Caddy's admin endpoint (its global options' first line)."""
    return caddyfile.replace("{\n", "{\n\tadmin off\n", 1)


def test_the_two_machine_caddyfiles_are_valid(tmp_path: Path) -> None:
    caddy = needs("caddy")
    local = two_machine_caddyfiles(free_port(), free_port(), free_port(), free_port())
    for name, text in zip(("front", "relay"), local, strict=True):
        (tmp_path / name).write_text(text)
    for config in (TWO / "Caddyfile", TWO / "Caddyfile.relay", tmp_path / "front"):
        validated(caddy, config, tmp_path)
    validated(caddy, tmp_path / "relay", tmp_path)


async def table_sockets(port: int) -> float:
    """A web process's open table sockets, as its metrics say (read on its own machine)."""
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"http://127.0.0.1:{port}/metrics") as answer,
    ):
        text = await answer.text()
    (value,) = re.findall(r"^apophis_table_sockets (\S+)$", text, re.MULTILINE)
    return float(value)


async def watch(
    http: aiohttp.ClientSession, url: str, channel: int
) -> aiohttp.ClientWebSocketResponse:
    """A table's socket through Caddy, once the bot welcomed it and sent the channel's state."""
    public = url.split("/", 3)[:3]
    ws = await http.ws_connect(url, headers={"Origin": "/".join(public)})
    await ws.send_str(
        orjson.dumps({"type": "hello", "channel": str(channel), "session": None}).decode()
    )
    welcome = orjson.loads(await asyncio.wait_for(ws.receive_str(), 10))
    state = orjson.loads(await asyncio.wait_for(ws.receive_str(), 10))
    assert (welcome["type"], state["type"]) == ("welcome", "state")
    return ws


async def web_process(fake: FakeDiscord, database: str, port: int, public: str) -> BotProcess:
    """A web process as deploy/two-machines runs it (common.env and web.env), on this
    machine's fake Discord and database, once it serves."""
    settings = {k: v for k, v in role_settings("web").items() if v and k not in FROM_BOT_ENV}
    settings |= {
        "APOPHIS_WEB_PORT": str(port),
        "APOPHIS_PUBLIC_URL": public,
        "APOPHIS_CLIENT_ID": str(fake.world.application_id),
        "APOPHIS_CLIENT_SECRET": "fake-client-secret",
        "APOPHIS_METRICS": "on",  # on the table's server, read from this machine
    }
    started = BotProcess(await spawn_bot_process(fake, database, **settings), "none")
    await started.said("the web table is at", timeout=30)
    return started


@pytest.mark.e2e
async def test_one_caddy_spreads_the_table_over_two_machines_and_skips_a_stopped_one(
    fake_discord: FakeDiscord, postgres_url: str, tmp_path: Path
) -> None:
    """Machine A's Caddy, machine B's relay and a web process behind each, on one
    PostgreSQL: sockets go to both processes (their metrics say so); with one stopped,
    a page load and a socket's hello through Caddy still succeed, on the other."""
    caddy = needs("caddy")
    front, web_a, relay, web_b = (free_port() for _ in range(4))
    public = f"http://localhost:{front}"
    front_text, relay_text = two_machine_caddyfiles(front, web_a, relay, web_b)
    (tmp_path / "front").write_text(front_text)
    (tmp_path / "relay").write_text(relay_text)
    scene = Scene(fake_discord, None, names=("ann",))
    machine_a, machine_b = await asyncio.gather(
        web_process(fake_discord, postgres_url, web_a, public),
        web_process(fake_discord, postgres_url, web_b, public),
    )
    proxies: list[asyncio.subprocess.Process] = []
    try:
        for name in ("relay", "front"):
            proxies.append(await start_caddy(caddy, tmp_path / name, tmp_path))
        async with aiohttp.ClientSession() as http:
            first = await watch(http, public + "/ws", scene.channel.id)
            where = [await table_sockets(port) for port in (web_a, web_b)]
            assert sorted(where) == [0.0, 1.0]
            second = await watch(http, public + "/.proxy/ws", scene.channel.id)  # the Activity's
            # to the process holding fewer sockets: one on each machine
            assert [await table_sockets(port) for port in (web_a, web_b)] == [1.0, 1.0]
            on_a, on_b = (first, second) if where[0] else (second, first)

            await machine_b.stop()  # SIGTERM: machine B's process is gone, and its socket
            closed = await asyncio.wait_for(on_b.receive(), 10)
            assert closed.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
            # Tried first on machine B's relay (it holds fewer sockets) until the health
            # checks leave it out: its process gone, the relay cuts it, and A answers.
            for _ in range(3):
                async with http.get(public + "/", headers={"Accept-Encoding": "gzip"}) as page:
                    assert page.status == 200 and "<html" in (await page.text()).lower()
                again = await watch(http, public + "/ws", scene.channel.id)
                await again.close()
            assert await table_sockets(web_a) == 1.0 and not on_a.closed
            await on_a.close()
    finally:
        for proxy in proxies:
            proxy.terminate()
            await proxy.wait()
        for process in (machine_a, machine_b):
            await process.stop()
    assert not machine_a.errors() and not machine_b.errors()
