"""A throwaway PostgreSQL server for tests and benchmarks, from the machine's own binaries.

It runs from a fresh data folder in a temporary directory and listens only on a Unix
socket in that directory, so it needs no free port and touches no other cluster.
PostgreSQL refuses to run as root: when we are root, initdb and postgres run as the
``postgres`` user (Debian's package creates it) in a directory that user owns.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

#: Where Debian and Ubuntu install the server binaries (one folder per major version).
BIN_GLOB = "/usr/lib/postgresql/*/bin"
SERVER_USER = "postgres"
START_TIMEOUT = 30.0


def find_binaries() -> Path | None:
    """The folder holding initdb and postgres (the newest installed version), if any."""
    found = sorted(glob.glob(BIN_GLOB), key=lambda path: int(Path(path).parent.name))
    candidates = [Path(path) for path in reversed(found)]
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(Path(on_path).parent)
    for folder in candidates:
        if (folder / "initdb").exists() and (folder / "postgres").exists():
            return folder
    return None


def unavailable_reason() -> str | None:
    """Why no throwaway server can be started here, or None when one can."""
    if find_binaries() is None:
        return f"no PostgreSQL server installed (no initdb and postgres in {BIN_GLOB} or PATH)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(SERVER_USER)
        except KeyError:
            return f"running as root and there is no {SERVER_USER!r} user to run PostgreSQL as"
    return None


class PostgresServer:
    """One throwaway server; `url(name)` for a database on it, `create_database()` for a new one."""

    def __init__(self) -> None:
        found = find_binaries()
        if found is None:
            raise RuntimeError(unavailable_reason())
        #: The folder of PostgreSQL's programs.
        self.bin = found
        self.root = Path(tempfile.mkdtemp(prefix="apophis-pg-"))
        self.data = self.root / "data"
        self.process: subprocess.Popen[bytes] | None = None
        self._created = 0

    # The socket folder is the root itself: a short path (Unix sockets allow ~100 bytes).
    @property
    def socket_dir(self) -> Path:
        return self.root

    def url(self, database: str = "postgres") -> str:
        """A postgresql:// URL for a database on this server (user postgres, no password)."""
        return f"postgresql://{SERVER_USER}@/{database}?host={self.socket_dir}"

    def _as_server_user(self, args: list[str]) -> list[str]:
        if os.geteuid() != 0:
            return args
        return ["runuser", "-u", SERVER_USER, "--", *args]

    def start(self) -> PostgresServer:
        """initdb, then start postgres and wait until it accepts connections."""
        self._initdb()
        return self.run()

    def _initdb(self) -> None:
        if os.geteuid() == 0:
            entry = pwd.getpwnam(SERVER_USER)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        subprocess.run(
            self._as_server_user(
                [
                    str(self.bin / "initdb"),
                    "--pgdata",
                    str(self.data),
                    "--username",
                    SERVER_USER,
                    "--auth",
                    "trust",
                    "--encoding",
                    "UTF8",
                    "--no-sync",
                ]
            ),
            check=True,
            capture_output=True,
        )

    def run(self) -> PostgresServer:
        """Start postgres on the data folder (made by `start`) and wait until it accepts
        connections."""
        self.process = subprocess.Popen(
            self._as_server_user(
                [
                    str(self.bin / "postgres"),
                    "-D",
                    str(self.data),
                    "-k",
                    str(self.socket_dir),
                    "-c",
                    "listen_addresses=",
                    # Throwaway data: no need to survive a power cut (a killed client is
                    # what the crash tests kill, never the server).
                    "-c",
                    "fsync=off",
                    "-c",
                    "synchronous_commit=off",
                    "-c",
                    "full_page_writes=off",
                    "-c",
                    "max_connections=200",
                ]
            ),
            stdout=subprocess.DEVNULL,
            stderr=open(self.root / "server.log", "wb"),  # noqa: SIM115 (the server keeps it)
        )
        deadline = time.monotonic() + START_TIMEOUT
        while not self._ready():
            if self.process.poll() is not None or time.monotonic() > deadline:
                log = (self.root / "server.log").read_text(errors="replace")
                self.stop()
                raise RuntimeError(f"the throwaway PostgreSQL server did not start:\n{log}")
            time.sleep(0.05)
        return self

    def _ready(self) -> bool:
        result = subprocess.run(
            [str(self.bin / "pg_isready"), "-q", "-h", str(self.socket_dir), "-U", SERVER_USER],
            capture_output=True,
        )
        return result.returncode == 0

    def create_database(self) -> str:
        """A new, empty database; its URL."""
        self._created += 1
        name = f"test_{os.getpid()}_{self._created}"
        subprocess.run(
            [
                str(self.bin / "createdb"),
                "-h",
                str(self.socket_dir),
                "-U",
                SERVER_USER,
                "--template",
                "template0",
                name,
            ],
            check=True,
            capture_output=True,
        )
        return self.url(name)

    def processes(self) -> list[int]:
        """The server's processes: the postmaster and its children (one per connection)."""
        master = int((self.data / "postmaster.pid").read_text().split()[0])
        children = subprocess.run(
            ["pgrep", "-P", str(master)], capture_output=True, text=True, check=False
        ).stdout.split()
        return [master, *map(int, children)]

    @contextlib.contextmanager
    def frozen(self) -> Iterator[None]:
        """The whole server stopped in its tracks (SIGSTOP), as a network partition looks to
        its clients: connections stay open, nothing is answered. Thawed on leaving."""
        frozen = self.processes()
        for pid in frozen:
            os.kill(pid, signal.SIGSTOP)
        try:
            yield
        finally:
            # runuser (as root) stops itself when its child stops: it is woken too.
            launcher = [self.process.pid] if self.process is not None else []
            for pid in [*frozen, *launcher]:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGCONT)

    def halt(self) -> None:
        """Stop the server (fast shutdown), keeping its data: `run` starts it again."""
        self._shut_down()

    def stop(self) -> None:
        """Stop the server (fast shutdown) and remove everything it wrote."""
        self._shut_down()
        shutil.rmtree(self.root, ignore_errors=True)

    def _shut_down(self) -> None:
        if self.process is not None:
            # The postmaster itself (runuser would not pass the signal on), told to shut
            # down fast: SIGTERM would wait for every client to disconnect.
            pid_file = self.data / "postmaster.pid"
            if pid_file.exists():
                with contextlib.suppress(ValueError, ProcessLookupError):
                    os.kill(int(pid_file.read_text().split()[0]), signal.SIGINT)
            else:
                self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None

    def __enter__(self) -> PostgresServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
