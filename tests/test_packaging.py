"""The package: discord.py's pin and the private parts the bot relies on, the locks against
pyproject.toml (their hashes and markers), and the wheel installed and run from a new virtual
environment, offline, each of its dependencies checked against the run lock's hashes.

discord.py is pinned (pyproject.toml) to the releases checked here: the bot reaches into a
few of its private parts (listed below, each with where it is used), and a release that
drops or renames one fails `test_discord_py_still_has_the_private_parts_the_bot_uses` once
the pin is raised and `make lock` installs it.
"""

from __future__ import annotations

import importlib
import os
import re
import shutil
import subprocess
import sys
import tomllib
import venv
import zipfile
from dataclasses import dataclass
from pathlib import Path

import discord
import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
RUN_LOCK = ROOT / "requirements" / "run.lock"
TEST_LOCK = ROOT / "requirements" / "test.lock"
#: The run lock's wheels, downloaded by `make test` (the Makefile's WHEELHOUSE).
WHEELHOUSE = Path(sys.prefix) / "wheelhouse"
CLIENT = ROOT / "bot" / "web" / "client" / "dist"

#: discord.py's private (or undocumented) parts that the bot uses: (owner, attribute, where).
#: The owner is a module or a class, by its dotted path; `where` names the file using it.
PRIVATE_PARTS = (
    ("discord.http", "Route", "bot/discord/channel.py"),  # undocumented: requests by route
    ("discord.http.Route", "BASE", "bot/app.py"),  # point_discord_at: a proxy or the fake
    ("discord.http.HTTPClient", "request", "bot/discord/threads.py"),
    # sweep_now_and_then: the rate-limit records swept once a minute
    ("discord.http.HTTPClient", "_try_clear_expired_ratelimits", "bot/discord/client.py"),
    ("discord.gateway.DiscordWebSocket", "DEFAULT_GATEWAY", "bot/app.py"),
    # Tokens.respond tells discord.py's response object that it was answered
    ("discord.interactions.InteractionResponse", "_response_type", "bot/discord/tokens.py"),
    # answers.let_go: the cached response deleted, to break a reference cycle
    ("discord.interactions.Interaction", "_cs_response", "bot/discord/answers.py"),
    ("discord.utils", "_to_json", "bot/discord/embeds.py"),  # the multipart form's JSON
    # Clicked reads a click's message lightly (read_clicks_lightly)
    ("discord.interactions.Interaction", "_from_data", "bot/discord/clicked.py"),
)
#: And the client's connection state (an instance's): its event parsers, replaced for the
#: message events and clicks, the bot's own id (ApophisBot.count_messages), and how a
#: parser hands an event on (bot.discord.clicked).
CONNECTION_PARTS = (
    ("parsers", "bot/discord/client.py"),
    ("self_id", "bot/discord/client.py"),
    ("dispatch", "bot/discord/clicked.py"),
)


@dataclass(frozen=True, slots=True)
class Pin:
    """A package's line in a lock: its exact version, its marker ("" for none), its hashes."""

    version: str
    marker: str
    hashes: tuple[str, ...]


def pins_of(lock: Path) -> dict[str, Pin]:
    """A lock's pins by canonical name (pip-compile's lines: a requirement, `--hash=` options
    on the lines it continues onto, `# via` comments)."""
    pins = {}
    for line in lock.read_text(encoding="utf-8").replace("\\\n", " ").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        spec, *hashes = line.split(" --hash=")
        requirement = Requirement(spec.strip())
        (pinned,) = requirement.specifier
        assert pinned.operator == "==", line
        marker = str(requirement.marker) if requirement.marker else ""
        pins[canonicalize_name(requirement.name)] = Pin(
            pinned.version, marker, tuple(h.strip() for h in hashes)
        )
    return pins


def locked(lock: Path) -> dict[str, str]:
    """A lock's pins: canonical name to exact version."""
    return {name: pin.version for name, pin in pins_of(lock).items()}


def owner(dotted: str) -> object:
    """The module or class at a dotted path."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            found = getattr(found, name)
        return found
    raise ModuleNotFoundError(dotted)


def discord_requirement() -> Requirement:
    (requirement,) = (
        r for r in map(Requirement, PYPROJECT["project"]["dependencies"]) if r.name == "discord.py"
    )
    return requirement


def test_discord_py_is_pinned_to_the_locked_and_installed_release() -> None:
    requirement = discord_requirement()
    # Capped: a new minor release comes in only by raising the cap, with this file passing.
    assert any(spec.operator == "<" for spec in requirement.specifier), requirement
    for lock in (RUN_LOCK, TEST_LOCK):
        assert locked(lock)["discord-py"] in requirement.specifier, lock.name
    assert discord.__version__ in requirement.specifier
    assert discord.__version__ == locked(TEST_LOCK)["discord-py"]


@pytest.mark.parametrize(
    ("owner_path", "attribute", "where"),
    PRIVATE_PARTS,
    ids=[f"{o}.{a}" for o, a, _ in PRIVATE_PARTS],
)
def test_discord_py_still_has_the_private_parts_the_bot_uses(
    owner_path: str, attribute: str, where: str
) -> None:
    assert hasattr(owner(owner_path), attribute), f"{owner_path}.{attribute}, used in {where}"
    # The list stays true: the file named still uses it.
    assert attribute in (ROOT / where).read_text(encoding="utf-8")


def test_interaction_response_is_cached_where_the_bot_deletes_it() -> None:
    # answers.let_go deletes `_cs_response`: discord.py must keep `response` cached there.
    assert discord.Interaction.response.name == "_cs_response"


def test_discord_py_clients_connection_state_has_what_the_bot_replaces() -> None:
    connection = discord.Client(intents=discord.Intents.none())._connection
    for attribute, where in CONNECTION_PARTS:
        assert hasattr(connection, attribute), f"ConnectionState.{attribute}, used in {where}"
        assert attribute in (ROOT / where).read_text(encoding="utf-8")
    assert {
        "MESSAGE_CREATE",
        "MESSAGE_UPDATE",
        "MESSAGE_DELETE",
        "MESSAGE_DELETE_BULK",
        "INTERACTION_CREATE",
    } <= set(connection.parsers)


@pytest.mark.parametrize(("extra", "lock"), [(None, RUN_LOCK), ("test", TEST_LOCK)])
def test_the_locks_satisfy_pyproject(extra: str | None, lock: Path) -> None:
    pins = locked(lock)
    project = PYPROJECT["project"]
    wanted = list(map(Requirement, project["dependencies"]))
    if extra:
        wanted += map(Requirement, project["optional-dependencies"][extra])
    for requirement in wanted:
        if requirement.marker and not requirement.marker.evaluate({"extra": extra or ""}):
            continue
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{requirement} is not in {lock.name}: run make lock"
        assert pins[name] in requirement.specifier, f"{lock.name} has {name}=={pins[name]}"


@pytest.mark.parametrize("lock", [RUN_LOCK, TEST_LOCK])
def test_every_pin_carries_its_hashes(lock: Path) -> None:
    """`pip install --require-hashes` (the Makefile's) installs each package's files only."""
    for name, pin in pins_of(lock).items():
        assert pin.hashes, f"{lock.name}: {name} has no hash: run make lock"
        assert all(re.fullmatch(r"sha256:[0-9a-f]{64}", h) for h in pin.hashes), name


@pytest.mark.parametrize("lock", [RUN_LOCK, TEST_LOCK])
def test_the_locks_keep_pyprojects_markers(lock: Path) -> None:
    """uvloop is not installed on Windows, where it is not built."""
    pins = pins_of(lock)
    for requirement in map(Requirement, PYPROJECT["project"]["dependencies"]):
        if requirement.marker:
            pin = pins[canonicalize_name(requirement.name)]
            assert pin.marker == str(requirement.marker), f"{lock.name}: {requirement.name}"


def test_the_test_lock_holds_the_run_lock_at_the_same_versions() -> None:
    run, test = locked(RUN_LOCK), locked(TEST_LOCK)
    assert {name: test.get(name) for name in run} == run


def test_the_changelog_names_the_version_newest_first() -> None:
    """CHANGELOG.md (Keep a Changelog): Unreleased, then each release as `## [X.Y.Z] -
    YYYY-MM-DD`, newest first, the newest being pyproject's version (CONTRIBUTING.md)."""
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## \[([^\]]+)\](.*)$", text, re.MULTILINE)
    assert headings[0] == ("Unreleased", "")
    releases = [name for name, _ in headings[1:]]
    for name, dated in headings[1:]:
        assert re.fullmatch(r"\d+\.\d+\.\d+", name), name
        assert re.fullmatch(r" - \d{4}-\d{2}-\d{2}", dated), dated
    as_numbers = [tuple(map(int, name.split("."))) for name in releases]
    assert as_numbers == sorted(as_numbers, reverse=True)
    assert releases[0] == PYPROJECT["project"]["version"]


def test_example_env_writes_every_setting_explained_for_a_host_to_fill_in(
    tmp_path: Path,
) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "bot", "example-env", *args]
        return subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=60)

    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    assert (ROOT / ".env.example").resolve() == ROOT / "bot" / "env.example"  # one file
    printed = run()
    assert printed.returncode == 0 and printed.stdout == example, printed.stderr
    for name in ("DISCORD_TOKEN", "APOPHIS_DATABASE", "APOPHIS_LOG_FORMAT"):
        assert f"\n{name}=" in example
    written = run(".env")
    assert written.returncode == 0, written.stderr
    assert (tmp_path / ".env").read_text(encoding="utf-8") == example
    assert (tmp_path / ".env").stat().st_mode & 0o777 == 0o600  # it will hold the token
    (tmp_path / ".env").write_text("DISCORD_TOKEN=kept\n")
    again = run(".env")
    assert again.returncode == 1 and "exists" in again.stderr and "Traceback" not in again.stderr
    assert (tmp_path / ".env").read_text() == "DISCORD_TOKEN=kept\n"


def build_wheel(into: Path, scratch: Path) -> Path:
    """The project's wheel, built offline from a copy of its sources (not in the checkout)."""
    source = scratch / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source)
    # The client's sources and test build are copied, to show that the wheel leaves them out.
    skipped = shutil.ignore_patterns("__pycache__", "node_modules")
    for package in ("engine", "bot", "migrations"):
        shutil.copytree(ROOT / package, source / package, ignore=skipped)
    pip = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
    subprocess.run([*pip, "-w", str(into), str(source)], check=True, capture_output=True)
    (wheel,) = into.glob("apophis_bot-*.whl")
    return wheel


@pytest.mark.slow
def test_the_wheel_installs_and_runs_from_a_new_virtual_environment(tmp_path: Path) -> None:
    if not (CLIENT / "index.html").is_file():
        pytest.fail("the web client is not built: run make client (make test does)")
    if not WHEELHOUSE.is_dir():
        pytest.fail(f"no {WHEELHOUSE}: run make test (it downloads the run lock's wheels)")
    wheel = build_wheel(tmp_path / "wheels", tmp_path)

    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = {
        f"bot/web/client/dist/{path.relative_to(CLIENT)}"
        for path in [CLIENT / "index.html", *(CLIENT / "assets").iterdir()]
    }
    assert shipped <= names
    assert any(name.endswith(".woff2") for name in shipped)  # the table's font
    client_files = {name for name in names if name.startswith("bot/web/client/")}
    assert client_files == shipped  # not dist/test, the sources, nor node_modules
    (licence,) = (name for name in names if name.endswith(".dist-info/licenses/LICENSE"))
    assert zipfile.ZipFile(wheel).read(licence) == (ROOT / "LICENSE").read_bytes()
    assert "bot/env.example" in names  # what `apophis-bot example-env` writes
    (entry_points,) = (name for name in names if name.endswith(".dist-info/entry_points.txt"))
    assert b"apophis-bot = bot.__main__:main" in zipfile.ZipFile(wheel).read(entry_points)

    # A new environment outside the checkout: the wheel and the run lock, nothing else,
    # from files only (pip of this environment installs into it).
    environment = tmp_path / "env"
    venv.create(environment, with_pip=False)
    python = environment / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-index"]
    for install in (["--require-hashes", "-r", str(RUN_LOCK)], [str(wheel)]):
        subprocess.run([*pip, "--find-links", str(WHEELHOUSE), *install], check=True)
    clean = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DISCORD_", "APOPHIS_", "PYTHON", "VIRTUAL_ENV"))
    }
    command = environment / "bin" / "apophis-bot"

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            args, cwd=tmp_path, env=clean, capture_output=True, text=True, timeout=60
        )

    helped = run(str(command), "--help")
    assert helped.returncode == 0, helped.stderr
    assert "DISCORD_TOKEN" in helped.stdout
    version = PYPROJECT["project"]["version"]
    assert run(str(command), "--version").stdout.strip() == f"apophis-bot {version}"

    untokened = run(str(command))
    assert untokened.returncode == 2
    assert "DISCORD_TOKEN is not set" in untokened.stderr
    assert "Traceback" not in untokened.stderr
    # Both send the host to the example settings, which the installed command writes.
    for told in (helped.stdout, untokened.stderr):
        assert "apophis-bot example-env .env" in " ".join(told.split())
        assert ".env.example" not in told  # a checkout's file, not on this machine
    example = run(str(command), "example-env")
    assert example.returncode == 0 and "\nDISCORD_TOKEN=" in example.stdout, example.stderr
    assert example.stdout == (ROOT / ".env.example").read_text(encoding="utf-8")

    # The installed bot serves the client shipped inside site-packages.
    found = run(
        str(python),
        "-c",
        "import bot, bot.web.server as s; print(bot.__file__); print(s.CLIENT / 'index.html')",
    )
    assert found.returncode == 0, found.stderr
    package, page = map(Path, found.stdout.split())
    python_version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    site_packages = environment / "lib" / python_version / "site-packages"
    assert package.is_relative_to(site_packages)
    assert page.is_relative_to(site_packages)
    assert page.is_file()
    assert page.read_bytes() == (CLIENT / "index.html").read_bytes()
