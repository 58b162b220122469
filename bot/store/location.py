"""Which database APOPHIS_DATABASE (or a command's --database) names: an SQLite file, or a
PostgreSQL database; any other URL refused, saying why. Also whether the SQLite file is
yet to be made (`new_file`), and the removal of one made for nothing."""

from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

from bot.store.postgres import is_postgresql, without_password
from bot.store.sqlite import DEFAULT_DATABASE

#: A URL's scheme and colon (two letters or more: a Windows drive letter is a path's).
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]+:")
#: What APOPHIS_DATABASE may be, said when it is something else.
DATABASE_HELP = (
    "an SQLite file's path (or sqlite:///absolute/path, sqlite:relative/path), or a "
    "PostgreSQL database as postgresql://user:password@host/name"
)


def database_named(text: str) -> str:
    """The database APOPHIS_DATABASE names, as `Store.open` takes it: an SQLite file's path
    (given as a path or a sqlite: URL), a postgresql:// (or postgres://) URL, or the default
    file when empty. Any other URL raises ValueError saying why, its password masked."""
    if not text:
        return DEFAULT_DATABASE
    scheme = _SCHEME.match(text)
    if scheme is None or is_postgresql(text):
        return text
    parts = urlsplit(text)
    shown = without_password(text) if parts.netloc else f"{scheme[0]}..."
    if scheme[0].lower() != "sqlite:":
        raise ValueError(f"must be {DATABASE_HELP}, not a {scheme[0]} URL ({shown}).")
    if parts.netloc or parts.query or parts.fragment or not parts.path:
        raise ValueError(
            f"as a sqlite: URL must be sqlite:///absolute/path or sqlite:relative/path, "
            f"not {shown}."
        )
    return unquote(parts.path)


def new_file(database: str | os.PathLike[str]) -> Path | None:
    """The SQLite file `database` names when `Store.open` would create it (nothing is there
    yet); None when it exists, or for PostgreSQL."""
    if is_postgresql(database):
        return None
    path = Path(database)
    return None if path.exists() else path


def remove_new_file(path: Path) -> None:
    """Delete a file `new_file` named and its journal's (-wal, -shm), once closed: one the
    bot created but never used (Discord refused its token)."""
    for name in (path.name, f"{path.name}-wal", f"{path.name}-shm"):
        path.with_name(name).unlink(missing_ok=True)
