"""The game core on its own (no door at all): it starts, brings its games back, tells its
subscribers every table it follows, and stops with its clocks frozen."""

from __future__ import annotations

import asyncio
import logging

from bot.game.changes import Followed, LobbyChanged, Settled
from bot.game.commands import Join, Open, Start
from bot.game.core import GameCore, Settings
from tests.game.conftest import Recorder, caller

ANN, BOB = 1, 2


async def started(settings: Settings) -> tuple[GameCore, Recorder]:
    """A core with a subscriber from before its start (as bot.app plugs its doors)."""
    core = GameCore(settings)
    heard = Recorder()
    core.stream.subscribe(heard)
    await core.start()
    return core, heard


async def test_the_core_runs_alone_and_its_games_come_back_after_a_planned_stop(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="bot.game.core")
    settings = Settings(database=str(tmp_path / "core.sqlite3"), seed=7)
    core, heard = await started(settings)
    assert "resumed 0 open games" in caplog.text and core.serving
    # From a door whose answer carries nothing (the web): the lobby is told once followed,
    # then shown, then sent.
    table = (await core.run(caller(ANN, answers=False), Open())).table
    assert heard.kinds() == ["Followed", "LobbyChanged", "Settled"]
    assert all(change.table is table for change in heard.changes)
    await core.run(caller(BOB), Join())
    await core.run(caller(ANN), Start(first=ANN))
    assert table.status == "active"
    await core.stop()
    await core.stop()  # once only
    assert "froze 1 running clocks" in caplog.text and not core.serving
    await core.close()

    again, told = await started(settings)
    try:
        assert "resumed 1 open games" in caplog.text
        (back,) = again.recovered
        assert back.id == table.id and back.status == "active"
        # a subscriber from before the start hears every table followed, the recovery's too
        followed = [c for c in told.changes if isinstance(c, Followed)]
        assert [c.table for c in followed] == [back]
        assert not [c for c in told.changes if isinstance(c, LobbyChanged | Settled)]
    finally:
        await again.stop()
        await again.close()


async def test_the_heartbeat_says_once_that_the_database_file_was_deleted(
    tmp_path, caplog, monkeypatch
):
    monkeypatch.setattr("bot.game.core.HEARTBEAT_SECONDS", 0.01)
    path = tmp_path / "core.sqlite3"
    core, _ = await started(Settings(database=str(path)))

    def errors() -> list[logging.LogRecord]:
        return [record for record in caplog.records if record.levelno >= logging.ERROR]

    try:
        path.unlink()
        async with asyncio.timeout(5):
            while not errors():
                await asyncio.sleep(0.01)
        await asyncio.sleep(0.1)  # ten more beats: no more lines
        (said,) = errors()
        assert said.message.startswith("the database cannot take the games' writes: ")
        assert f"{path} was deleted, moved or replaced while the bot ran" in said.message
    finally:
        await core.stop()
        await core.close()
