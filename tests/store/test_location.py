"""Which database APOPHIS_DATABASE names, for the bot and for its backup and restore commands."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store.backup import main
from bot.store.store import Store


async def test_the_backup_command_reads_a_sqlite_url_as_the_bot_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    live, copy = tmp_path / "live.sqlite3", tmp_path / "copy.sqlite3"
    await (await Store.open(live)).close()
    monkeypatch.setenv("APOPHIS_DATABASE", f"sqlite://{live}")
    assert main(["backup", str(copy)]) == 0
    assert capsys.readouterr().out.startswith(f"Backed up {live} to {copy}")


def test_the_commands_refuse_a_database_url_of_no_known_kind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("APOPHIS_DATABASE", "mysql://root:hunter2@db/apophis")
    with pytest.raises(SystemExit) as stopped:
        main(["backup", "copy.sqlite3"])
    said = capsys.readouterr().err
    assert stopped.value.code == 2 and "not a mysql: URL (mysql://root:***@db/apophis)" in said
    assert "hunter2" not in said and list(tmp_path.iterdir()) == []
