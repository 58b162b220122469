"""Every door's commands, through the game layer alone: who may do what here, and what each
command changes and publishes (no Discord, no web server)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.errors import UserError
from bot.game.access import OUTSIDER, Standing
from bot.game.commands import (
    AddCrewmate,
    End,
    Join,
    Kick,
    Leave,
    Move,
    Open,
    PlayAgain,
    RemoveCrewmate,
    Reset,
    Skip,
    Start,
)
from tests.game.conftest import CHANNEL, GUILD, MEMBER, caller

ANN, BOB, MOD = 1, 2, 3
NO_VIEW = Standing(member=True, view=False, send=False)
NO_SEND = Standing(member=True, view=True, send=False)


async def refused(service, who, command) -> str:
    with pytest.raises(UserError) as info:
        await service.run(who, command)
    return info.value.key


async def test_opening_follows_the_server_defaults_and_what_was_asked(service):
    outcome = await service.run(caller(ANN), Open())
    table = outcome.table
    assert (table.rules, table.difficulty, table.length_seconds) == ("basic", "medium", 600)
    assert table.seats == [ANN] and table.host_id == ANN and table.guild_id == GUILD
    await service.run(caller(ANN), End())
    table = (await service.run(caller(ANN), Open(difficulty="hard", minutes=8))).table
    assert (table.difficulty, table.length_seconds) == ("hard", 480)  # hard is 8 minutes
    await service.run(caller(ANN), End())
    table = (await service.run(caller(ANN), Open(difficulty="hard", minutes=7))).table
    assert (table.difficulty, table.length_seconds) == ("custom", 420)
    await service.run(caller(ANN), End())
    table = (await service.run(caller(ANN), Open(rules="advanced"))).table
    assert (table.rules, table.difficulty) == ("advanced", "medium")  # meant for 10 minutes


@pytest.mark.parametrize(
    ("standing", "key"),
    [(OUTSIDER, "seat.not_member"), (NO_VIEW, "seat.cannot_view"), (NO_SEND, "seat.cannot_send")],
)
async def test_who_may_not_play_here_is_refused_by_name_and_nothing_changes(service, standing, key):
    outsider = caller(BOB, standing)
    assert await refused(service, outsider, Open()) == key
    assert CHANNEL not in service.by_channel
    table = (await service.run(caller(ANN), Open())).table
    for command in (Join(), AddCrewmate(), Start()):
        assert await refused(service, outsider, command) == key
    assert table.seats == [ANN] and table.status == "lobby"
    await service.run(caller(ANN), Start())
    version = table.version
    assert await refused(service, outsider, Move({"type": "draw"})) == key
    assert table.version == version


async def test_a_member_joins_and_the_lobby_change_is_published_once(service):
    table = (await service.run(caller(ANN), Open())).table
    service.recorder.changes.clear()
    outcome = await service.run(caller(BOB), Join())
    assert outcome.table is table and table.seats == [ANN, BOB]
    assert table.names[BOB] == "user2"
    assert service.recorder.kinds() == ["LobbyChanged"]
    assert await refused(service, caller(BOB), Join()) == "error.already_seated"


async def test_only_the_host_seats_crewmates_and_starts(service):
    table = (await service.run(caller(ANN), Open())).table
    await service.run(caller(BOB), Join())
    assert await refused(service, caller(BOB), AddCrewmate()) == "error.host_seats_crew"
    assert await refused(service, caller(BOB), Start()) == "error.host_starts"
    await service.run(caller(ANN), AddCrewmate())
    await service.run(caller(ANN), AddCrewmate())
    assert table.seats == [ANN, BOB, -1, -2]
    await service.run(caller(ANN), RemoveCrewmate())
    assert table.seats == [ANN, BOB, -1]
    service.recorder.changes.clear()
    outcome = await service.run(caller(ANN), Start(first=ANN))
    assert table.status == "active" and table.game.active_player == ANN
    kinds = service.recorder.kinds()
    assert kinds.count("HandChanged") == 3 and kinds[-1] == "BoardChanged"
    assert outcome.result is None


async def test_a_move_returns_its_result_and_a_web_caller_settles_at_once(service):
    table = (await service.run(caller(ANN), Open())).table
    await service.run(caller(BOB), Join())
    await service.run(caller(ANN), Start(first=ANN))
    service.recorder.changes.clear()
    outcome = await service.run(caller(ANN, answers=False), Move({"type": "draw"}))
    assert outcome.result is not None and outcome.result.events
    kinds = service.recorder.kinds()
    assert "BoardChanged" in kinds and kinds[-1] == "Settled"
    # ann's own draw, clicked twice
    stale = Move({"type": "draw"}, version=0)
    assert await refused(service, caller(ANN), stale) == "error.already_done"
    assert table.version == outcome.table.version


async def test_moderation_is_for_the_host_or_a_moderator(service, store):
    # a reset is refused for not being a moderator before anything else is looked at
    assert await refused(service, caller(ANN), Reset()) == "error.moderators_reset"
    assert await refused(service, caller(ANN), Skip()) == "error.no_game"
    table = (await service.run(caller(ANN), Open())).table
    await service.run(caller(BOB), Join())
    await service.run(caller(ANN), Start(first=ANN))
    for command in (Skip(), Kick(ANN), End()):
        assert await refused(service, caller(BOB), command) == "error.host_or_moderator"
    assert await refused(service, caller(ANN), Reset()) == "error.moderators_reset"
    manager = replace(MEMBER, manage_messages=True)
    skipped = await service.run(caller(MOD, manager), Skip())
    assert skipped.result is not None and table.game.active_player == BOB
    await store.update_guild_settings(GUILD, moderator_role_id=99)
    service.audience._servers.clear()  # read the new setting
    role = replace(MEMBER, roles=frozenset({99}))
    kicked = await service.run(caller(MOD, role), Kick(BOB))
    assert kicked.result is not None and BOB not in table.game.players
    ended = await service.run(caller(MOD, role), Reset())
    assert ended.reason == "reset" and not table.open


async def test_the_host_ends_and_a_leaver_of_a_game_gets_the_result(service):
    table = (await service.run(caller(ANN), Open())).table
    await service.run(caller(BOB), Join())
    await service.run(caller(ANN), Start(first=ANN))
    left = await service.run(caller(BOB), Leave())
    assert left.result is not None and table.game.players == [ANN]
    ended = await service.run(caller(ANN), End())
    assert ended.reason == "host" and table.status == "abandoned"


async def test_play_again_opens_a_lobby_like_the_ended_game(service):
    table = (await service.run(caller(ANN), Open(difficulty="hard"))).table
    await service.run(caller(BOB), Join())
    await service.run(caller(ANN), Start(first=ANN))
    await service.run(caller(ANN), End())
    assert await refused(service, caller(MOD), PlayAgain(table.id)) == "again.not_a_player"
    again = await service.run(caller(BOB), PlayAgain(table.id))
    lobby = again.table
    assert lobby.id != table.id and lobby.host_id == BOB and lobby.difficulty == "hard"
    assert lobby.invited == [ANN]


async def test_a_player_removed_from_a_game_neither_opens_its_rematch_nor_is_invited(service):
    """Kicked by the host: not invited back, and Play again is not theirs to press (#34, 15);
    someone who left on their own is still invited back."""
    cid, dee = 4, 5
    table = (await service.run(caller(ANN), Open())).table
    for player in (BOB, cid, dee):
        await service.run(caller(player), Join())
    await service.run(caller(ANN), Start(first=ANN))
    await service.run(caller(ANN), Kick(BOB))
    await service.run(caller(dee), Leave())
    await service.run(caller(ANN), End())
    assert await refused(service, caller(BOB), PlayAgain(table.id)) == "again.removed"
    again = (await service.run(caller(cid), PlayAgain(table.id))).table
    assert again.host_id == cid and again.invited == [ANN, dee]


async def test_a_channel_with_many_thread_games_answers_within_discords_limit(service):
    """With its 25 games in threads, the most a channel may have, a command typed in the
    channel names the first ten and counts the rest (the whole list passed Discord's 2,000
    characters at 78 games and went unanswered), and the channel takes no new lobby until
    one of them ends (#34, 16)."""
    from bot.game.tables import THREAD_GAMES_PER_CHANNEL, THREADS_NAMED

    threads = iter(range(10_000_000_000_000_000, 10_000_000_000_000_100))

    async def thread_of(table):
        return next(threads)

    for _ in range(THREAD_GAMES_PER_CHANNEL):
        await service.run(caller(ANN), Open())
        await service.run(caller(ANN), Start(venue=thread_of))
    assert await refused(service, caller(ANN), Open()) == "thread.full"
    with pytest.raises(UserError) as info:
        service.table_in(CHANNEL)
    for language in ("en", "fr"):
        text = info.value.text(language)
        assert len(text) < 2000 and text.count("<#") == THREADS_NAMED, text
        assert str(THREAD_GAMES_PER_CHANNEL - THREADS_NAMED) in text
    assert "15 more" in info.value.text("en") and "15 autres" in info.value.text("fr")


async def test_a_game_nobody_attends_ends_as_abandoned_and_autopilot_is_not_all_human(
    service, store
):
    """Every person on autopilot: the autopilot plays UNATTENDED_MOVES moves for them, then
    the game ends as abandoned (it played itself to the end and counted as an all-human
    win); a game in which the autopilot played a seat counts beside the games with
    crewmates, never as an all-human result (#34, 12). A person back resets the count."""
    from bot.game.autopilot import UNATTENDED_MOVES
    from engine.crew import decide

    table = (await service.run(caller(ANN), Open())).table
    await service.run(caller(ANN), AddCrewmate())
    await service.run(caller(ANN), Start(first=ANN))
    service.crew.stop()  # this test plays the autopilot's moves itself
    table.autopilot.add(ANN)
    table.runtime.unattended = UNATTENDED_MOVES - 2
    assert await service._crewmate_acts(table, ANN, {"type": "draw"}, None, table.version)
    service.crew.autopilot.seen(table, ANN)  # ann is back: counting starts again
    assert table.runtime.unattended == 0 and ANN not in table.autopilot
    table.autopilot.add(ANN)
    table.runtime.unattended = UNATTENDED_MOVES - 1
    game = table.game
    for _ in range(8):  # the last move it may make for ann, then the end
        if not table.open:
            break
        player = game.active_player
        action = {k: v for k, v in decide(game.view_for(player), None).action.items()}
        action.pop("player", None)
        if player == ANN:
            await service._crewmate_acts(table, ANN, action, None, table.version)
        else:
            await service.act(CHANNEL, player, action)
    assert table.status == "abandoned" and game.outcome.value == "abandoned"
    (last,) = (await store.game_log(table.id))[-1:]
    assert last.action == {"type": "end", "reason": "unattended"} and last.actor is None
    (tally,) = (await store.stats(GUILD)).tallies
    assert tally.with_crewmates and tally.abandoned == 1


async def test_the_autopilots_seat_makes_a_result_one_with_crewmates(service, store):
    """A game in which the autopilot played a person's seat is no all-human result: it
    counts with the games beside crewmates, in its players' profiles too."""
    table = (await service.run(caller(ANN), Open())).table
    await service.run(caller(BOB), Join())
    await service.run(caller(ANN), Start(first=ANN))
    service.crew.stop()
    table.autopilot.add(ANN)
    await service.act(CHANNEL, ANN, {"type": "draw"}, autopilot=True)
    await service.run(caller(ANN), End())
    profile = await store.profile(GUILD, BOB)
    assert [t.with_crewmates for t in profile.tallies] == [True]


async def test_a_lobby_nobody_touches_closes_itself_with_a_word_to_the_channel(service, timer):
    """#34, 18: LOBBY_IDLE_SECONDS after its last change a lobby closes, as abandoned, and
    the channel is free; a change meanwhile counts from then. Lobbies are looked at every
    SWEEP_SECONDS once recovery is done."""
    from bot.game.changes import Posted
    from bot.game.idle import LOBBY_IDLE_SECONDS, SWEEP_SECONDS

    await service.recover()
    table = (await service.run(caller(ANN), Open())).table
    await timer.advance(LOBBY_IDLE_SECONDS - SWEEP_SECONDS)
    await service.run(caller(BOB), Join())  # touched: it waits from now
    await timer.advance(2 * SWEEP_SECONDS)
    assert table.status == "lobby"  # swept twice since it would have closed untouched
    await timer.advance(LOBBY_IDLE_SECONDS - 2 * SWEEP_SECONDS - 1)
    assert table.status == "lobby"
    await timer.advance(SWEEP_SECONDS)
    assert table.status == "abandoned" and CHANNEL not in service.by_channel
    (posted,) = [c for c in service.recorder.changes if isinstance(c, Posted)]
    assert "closed itself" in posted.content and f"#{table.id}" in posted.content
    again = (await service.run(caller(ANN), Open())).table  # the channel is free
    assert again.status == "lobby"


async def test_someone_who_left_the_server_leaves_its_lobbies(service):
    """#34, 18: at the start, a seated person who left the server is unseated; Play again
    does not invite back someone who left it."""
    table = (await service.run(caller(ANN), Open())).table
    for player in (BOB, MOD):
        await service.run(caller(player), Join())
    service.members.gone.add(BOB)
    await service.run(caller(ANN), Start(first=ANN))
    assert table.game.players == [ANN, MOD]
    await service.run(caller(ANN), End())
    service.members.gone.add(MOD)  # who played it, then left the server
    again = (await service.run(caller(ANN), PlayAgain(table.id))).table
    assert again.invited == [] and again.seats == [ANN]
