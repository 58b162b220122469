"""The game on a phone 360 × 740: the board's height as Discord's mobile client lays it out
(devtools.phone), alone and with a hand panel below it, at every move of a 4-player
advanced game in both languages, and its Details a click away; the board and the panel
of the player to act within the phone's room together in every usual state (the lobby
and a join's answer, turns at 2, 3 and 4 seats, the turn after a launch), played from
the panels as people play."""

from __future__ import annotations

import pytest

from bot.views import components, panel, story
from devtools import phone
from engine.crew import decide
from tests.bot.helpers import Scene, button_id, play_as, text_of

pytestmark = pytest.mark.e2e

NAMES = ("ann", "bob", "cid", "dee")
#: The moves the board is measured after (984 to 1,138 px tall over them at first; 446 to
#: 529 with its words cut short beside the 480 × 360 picture; 283 to 293 with the strip).
MOVES = 12
#: The hand panel's height at most, over those moves, for every player, each a first-timer
#: (their first turn suggests a move): 891 px at first (935 in French), 549 (571) with one
#: line of cards; now 291, the Say menu's row on the panels of those who wait.
PANEL_MOST = 300
#: The board and any player's panel together, at most: 1,359 px at first (1,425 in
#: French), then 1,017 (1,061); now 579 (589). The panel of the player to act stands within
#: `phone.ROOM` with the board (`test_the_board_and_the_panel_of_the_one_to_act_fit_a_phone`);
#: the panels of those who wait carry table talk's Say menu besides.
TOGETHER = 600
#: The final board and the last launcher's closed panel: 1,246 px with the game's whole
#: story on it (its log, its launches, the firsts its people earned: four people earning
#: five each) and the 480 × 436 picture (1,334 in French); 1,197 (1,285) with the strip;
#: now 524 (546), the rest behind its Details
#: (`test_the_final_board_keeps_the_rest_behind_details`).


def on_phone(message, *, ephemeral: bool = False) -> phone.Height:
    """A message the fake Discord holds, as tall as it stands on the phone."""
    pictures = {a.filename: phone.png_size(a.content) for a in message.attachments}
    body = {"content": message.content, "embeds": message.embeds, "components": message.components}
    answer = message.interaction_metadata is not None
    return phone.height(body, pictures, answer=answer, ephemeral=ephemeral)


async def four_players_advanced(scene: Scene, language: str):
    """A 4-player game with the advanced rules, dealt a rocket under way."""
    if language == "fr":
        scene.guild.preferred_locale = "fr"
        for member in scene.members.values():
            member.user.locale = "fr"
    await scene.cmd("apophis new", "ann", rules="advanced")
    for name in NAMES[1:]:
        await scene.cmd("apophis join", name)
    await scene.cmd("apophis start", "ann", first=scene["ann"])
    scene.arrange(
        hands=[["2H", "3H", "9D", "4S", "KS"], ["2S", "3S", "5C"], ["2C", "3C", "5D"], ["7H"]],
        rocket=[("red", 3), ("yellow", 2)],
        damage=1,
    )
    return scene.live()


@pytest.mark.parametrize("language", ["en", "fr"])
async def test_the_board_fits_a_phones_screen_at_every_move(fake_discord, make_bot, language):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=NAMES)
    async with fake_discord.connected(bot):
        table = await four_players_advanced(scene, language)
        tallest = phone.Height()
        for _ in range(MOVES):
            await play_as(scene, table, NAMES[table.game.players.index(table.game.active_player)])
            await bot.outbox.drain()
            board = on_phone(scene.board(table))
            tallest = max(tallest, board, key=lambda height: height.total)
        print(f"{language}: the board at its tallest: {tallest}")
        assert tallest.total <= phone.ROOM, str(tallest)
        assert "picture" in dict(tallest.parts)  # the picture is part of it


async def test_details_show_the_whole_table_in_words_privately(fake_discord, make_bot):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=NAMES)
    async with fake_discord.connected(bot):
        table = await four_players_advanced(scene, "en")
        await bot.outbox.drain()
        board = text_of(scene.board(table)).replace(
            scene.board(table).attachments[0].description, ""
        )
        assert "Players" not in board and "Depot" not in board  # folded into Details
        details = await scene.click(scene.board(table), "details", "bob")
        assert details.ephemeral
        words = text_of(details.message)
        assert "Players:" in words and "Depot:" in words and "🚀 5 points" in words
        assert f"▶️ <@{scene.id('ann')}> — 5 cards · host" in words
        scene.assert_no_cards_in_public()


@pytest.mark.parametrize("language", ["en", "fr"])
async def test_a_launch_makes_one_report_folded_to_one_line_by_the_next_move(
    fake_discord, make_bot, language
):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=NAMES)
    async with fake_discord.connected(bot):
        await four_players_advanced(scene, language)
        scene.arrange(
            hands=[["2C", "2H", "2D", "2S", "9H"], ["5S", "6S"], ["5C", "6C"], ["7H"]],
            rocket=[("red", 3), ("green", 2), ("yellow", 2)],
            damage=1,
            dice=[5, 6, 6, 6],  # launch roll, accuracy and damage all pass
        )
        before = {m.id for m in scene.public()}
        await scene.cmd("launch", "ann", cards="2C 2H 2D 2S")
        await bot.outbox.drain()
        (report,) = [m for m in scene.public() if m.id not in before]  # one message
        (picture,) = report.attachments
        assert "description" not in report.embeds[0] and picture.description  # words: its alt
        tall = on_phone(report).total
        await scene.cmd("draw", "bob")  # the next player acts
        await bot.outbox.drain()
        folded = {"en": "'s launch: 🟩2 🟥3 🟨2, 7 pts → hit", "fr": "Lancement de <@"}
        assert report.content.startswith("🚀") and folded[language] in report.content
        assert not report.embeds and not report.attachments and len(report.content) < 120
        assert on_phone(report).total < tall / 2  # a line or two where the picture stood
        print(f"{language}: the launch report {tall} px, folded {on_phone(report).total} px")
        scene.assert_no_cards_in_public()


@pytest.mark.parametrize("language", ["en", "fr"])
async def test_the_board_and_a_panel_stand_on_a_phone_together(fake_discord, make_bot, language):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=NAMES)
    async with fake_discord.connected(bot):
        table = await four_players_advanced(scene, language)
        table.newcomers.update(table.game.players)  # first-timers: a first move suggested
        tallest, worst, suggested = 0, "", 0
        for _ in range(MOVES):
            await play_as(scene, table, NAMES[table.game.players.index(table.game.active_player)])
            await bot.outbox.drain()
            board = on_phone(scene.board(table))
            for player in table.game.players:  # the one to play, and those who wait
                shown = panel.panel_message(table, player, language).json()
                mine = phone.height(shown, answer=True, ephemeral=True)  # only they see it
                suggested += "🌱" in str(shown)
                assert not ("🌱" in str(shown) and "-# 🚀" in str(shown))  # one or the other
                assert mine.total <= PANEL_MOST, str(mine)
                if board.total + mine.total > tallest:
                    tallest, worst = board.total + mine.total, f"board {board}\npanel {mine}"
        print(f"{language}: board + panel at their tallest: {tallest} px\n{worst}")
        assert tallest <= TOGETHER, worst
        assert suggested  # measured with the first-move line too


# ------------------------------------------------- the board and the panel of the one to act


def latest_panel(scene: Scene, name: str):
    """`name`'s newest hand panel in the channel (the one they play from)."""
    panels = [m for m in scene.private_to(name) if ":h:" in str(m.components)]
    return panels[-1] if panels else None


async def play_on_panel(scene: Scene, table, name: str) -> None:
    """`name`'s move as the crew policy would play it, from their panel as people do (a
    button, the builds' select, a card button a card), typed where the panel has no control."""
    action = decide(table.game.view_for(scene.id(name)), table.time_left(scene.bot.service.now()))
    kind, panel = action.action["type"], latest_panel(scene, name)
    ids = [c.get("custom_id", "") for c in panel.iter_components()]
    if kind == "build":
        section = f"{action.action['colour']}.{action.action['size']}"
        await scene.press(panel, "build", name, arg=section)
    elif kind == "discard":  # each card's button carries the cards chosen once pressed
        chosen: set[str] = set()
        for card in action.action["cards"]:
            chosen.add(card)
            found = [i for i in ids if set(":".join(i.split(":")[5:]).split(".")) == chosen]
            assert len(found) == 1, (chosen, ids, table.version)
            (custom_id,) = found
            await (await scene.fake.click(panel, custom_id, user=scene[name].user)).wait_response()
            await scene.bot.outbox.drain()
            ids = [c.get("custom_id", "") for c in latest_panel(scene, name).iter_components()]
    elif kind == "launch":
        suits = {card[-1] for card in action.action["cards"]}
        button = [i for i in ids if ":h:" in i and ":launch:" in i]
        if button and {c[-1] for c in button[0].rsplit(":", 1)[1].split(".")} == suits:
            await (await scene.fake.click(panel, button[0], user=scene[name].user)).wait_response()
        else:
            await play_as(scene, table, name)
    elif any(i.endswith(f":{kind}") for i in ids):
        await scene.press(panel, kind, name)
    else:
        await play_as(scene, table, name)
    await scene.bot.outbox.drain()


def to_act(scene: Scene, table) -> str:
    return next(n for n in scene.members if scene.id(n) == table.game.active_player)


async def together(scene: Scene, table) -> tuple[int, str]:
    """The board and the newest panel of the player to act, on the phone, once that panel
    shows the game as it is (the bot redraws it as the turn passes): their height and what
    it is made of."""
    name, version = to_act(scene, table), f":{table.id}:{table.version}:"
    await scene.fake.wait_for(lambda: version in str(latest_panel(scene, name).components))
    board = on_phone(scene.board(table))
    mine = on_phone(latest_panel(scene, name), ephemeral=True)
    return board.total + mine.total, f"board {board}\npanel {mine}"


def in_french(scene: Scene) -> None:
    scene.guild.preferred_locale = "fr"
    for member in scene.members.values():
        member.user.locale = "fr"


class Tallest(dict):
    """The tallest board and panel seen in each state, with what they were made of."""

    def saw(self, state: str, measured: tuple[int, str]) -> None:
        if measured[0] > self.get(state, (0, ""))[0]:
            self[state] = measured


async def lobby_and_turns(scene: Scene, seats: int, tallest: Tallest) -> None:
    """A lobby filled to `seats` (each /apophis join's reply measured under it), then the
    game started and played from the panels for `MOVES` moves."""
    await scene.cmd("apophis new", "ann")
    for name in NAMES[1:seats]:
        reply = await scene.cmd("apophis join", name)
        await scene.bot.outbox.drain()
        lobby = on_phone(scene.board()).total + on_phone(reply.message, ephemeral=True).total
        tallest.saw("lobby + a join's reply", (lobby, str(on_phone(scene.board()))))
    await scene.cmd("apophis start", "ann", first=scene["ann"])
    table = scene.live()
    table.newcomers.update(table.game.players)  # a first evening: first moves suggested
    for name in NAMES[:seats]:
        await scene.panel(name)
    for _ in range(MOVES):
        if table.game.is_over:
            break
        tallest.saw(f"a turn, {seats} seats", await together(scene, table))
        await play_on_panel(scene, table, to_act(scene, table))


async def launch_and_end(scene: Scene, tallest: Tallest):
    """A launch that hits (the next player's turn after it), then one that destroys
    Apophis (the final board, beside the panel of the player who launched)."""
    table = await four_players_advanced(scene, "en")  # (the language: set before)
    for name in NAMES:
        await scene.panel(name)
    scene.arrange(
        hands=[["2C", "2H", "2D", "2S", "9H"], ["5S", "6S", "3D"], ["5C", "6C"], ["7H"]],
        rocket=[("red", 3), ("green", 2), ("yellow", 2)],
        damage=1,
        dice=[5, 6, 6, 6],
    )
    await scene.cmd("hand", "ann")  # (arranged: her panel shows it)
    await scene.press(latest_panel(scene, "ann"), "launch", "ann", arg="2C.2H.2D.2S")
    await scene.bot.outbox.drain()
    tallest.saw("after a launch", await together(scene, table))
    scene.arrange(
        hands=[["3C", "9H"], ["2H", "2D", "2S", "2C"], ["5C", "6C"], ["7H"]],
        rocket=[("red", 3), ("green", 2), ("yellow", 2)],
        damage=2,
        dice=[5, 6, 6, 6],  # every check passes: Apophis destroyed
        active=1,
    )
    launched = await scene.cmd("launch", "bob", cards="2H 2D 2S 2C")
    assert launched.response_type in (4, 7), launched.response_data
    await scene.bot.outbox.drain()
    assert not table.open, (text_of(launched.message), table.game.phase, table.game.damage)
    closed = scene.private_to("bob")[-1]  # his panel, or what /launch answered in its place
    board, mine = on_phone(scene.board(table)), on_phone(closed, ephemeral=True)
    tallest.saw("the final board", (board.total + mine.total, f"board {board}\npanel {mine}"))
    return table


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("seats", [2, 3, 4, "launch"])
async def test_the_board_and_the_panel_of_the_one_to_act_fit_a_phone(
    fake_discord, make_bot, language, seats
):
    """Every usual state, pictures on: the lobby and a join's reply, a turn at 2, 3 and 4
    seats, the turn after a launch, the final board: within `phone.ROOM`."""
    tallest = Tallest()
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=NAMES)
    async with fake_discord.connected(bot):
        if language == "fr":
            in_french(scene)
        if seats == "launch":
            await launch_and_end(scene, tallest)
        else:
            await lobby_and_turns(scene, seats, tallest)
    print(f"\n{language}: the tallest board and panel of the player to act, by state")
    for state, (px, parts) in tallest.items():
        print(f"{state}: {px} px\n{parts}")
    over = {state: parts for state, (px, parts) in tallest.items() if px > phone.ROOM}
    assert not over, over


@pytest.mark.parametrize("language", ["en", "fr"])
async def test_the_final_board_keeps_the_rest_behind_details(fake_discord, make_bot, language):
    """The final board keeps the result, the time left, who played, the firsts earned (in
    one line) and Play again; everything else the whole story told (the title, the log,
    each launch, each first, the game's number) is a click away, in its Details."""
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=NAMES)
    async with fake_discord.connected(bot):
        if language == "fr":
            in_french(scene)
        table = await launch_and_end(scene, Tallest())
        final = scene.board(table)
        board = text_of(final).replace(final.attachments[0].description, "")
        told = story.story(table, language, table.runtime.now())
        assert told.won and told.headline in board and told.firsts  # (the time left in it)
        assert all(f"<@{scene.id(name)}>" in board for name in NAMES)
        earned = len(table.firsts)  # (four people, five firsts each)
        brief = {"en": f"🏅 {earned} firsts earned", "fr": f"🏅 {earned} premières fois obtenues"}
        assert brief[language] in board and told.firsts[0] not in board
        assert button_id(final, "again") and button_id(final, "details")
        whole = components.board_message(table).embed  # the whole story, as it stood on it
        assert whole is not None and whole.fields[-1].value not in board
        details = await scene.click(final, "details", "cid")  # anyone, privately
        assert details.ephemeral
        words = text_of(details.message)
        parts = [whole.title, whole.description]
        parts += [f"{field.name}:" for field in whole.fields]
        parts += [line for field in whole.fields for line in field.value.splitlines()]
        assert not [part for part in parts if part and str(part) not in words], words
        assert details.message.embeds[0]["footer"]["text"] == whole.footer
        scene.assert_no_cards_in_public()
