"""The story of a game's end (bot.views.story), from games played by the engine and logged
as the store logs them, and the final board that tells it."""

from __future__ import annotations

import json

from bot.lobby_settings import LobbySettings
from bot.table import Table
from bot.views import components, story
from engine import Game, GameEvent
from engine.events import from_dict
from tests.engine.helpers import table as position

ANN, BOB = 1, 2


def logged(game: Game, *moves) -> list[GameEvent]:
    """Each move played on `game`, its events as the store logs them and they are read
    back (oldest first)."""
    events = []
    for move in moves:
        events += [from_dict(event.to_dict()) for event in move(game)]
    return events


def ended(game: Game, history: list[GameEvent], remaining: float | None) -> Table:
    """The channel's table of `game`, which has ended with `remaining` seconds on the clock."""
    status = "abandoned" if game.outcome.value == "abandoned" else "finished"
    players = list(game.players)
    return Table(
        1, 10, 100, ANN, LobbySettings(game.rules.value, "easy", 10), status, players,
        game=game, remaining=remaining, history=history,
    )  # fmt: skip


def lost_basic_game() -> Table:
    """Basic rules: a red and yellow rocket hits (damage 1, and a counter), a second one
    misses, and the clock runs out."""
    game = position(
        players=(ANN, BOB),
        hands=[
            ["3H", "4H", "5H", "2C", "2H", "2D", "2S", "5S"],
            ["3S", "4S", "6H", "3C", "3D", "7H", "7S"],
        ],
        dice=[6, 4, 1],  # accuracy 6 + 3 hits, damage 4 + 3 damages; then accuracy 1 + 2 misses
    )
    history = logged(
        game,
        lambda g: g.build(ANN, "red", "large"),
        lambda g: g.build(BOB, "yellow", "medium"),
        lambda g: g.launch(ANN, ["2C", "2H", "2D", "2S"]),
        lambda g: g.build(BOB, "red", "small"),
        lambda g: g.build(ANN, "yellow", "small"),
        lambda g: g.launch(BOB, ["3C", "3D", "7H", "7S"]),
        lambda g: g.clock_expired(),
    )
    return ended(game, history, remaining=None)


def destroyed_advanced_game() -> Table:
    """Advanced rules, Apophis damaged twice already: one rocket destroys it, 3:12 left."""
    game = position(
        players=(ANN, BOB),
        rules="advanced",
        hands=[["3H", "4H", "5H", "2C", "2H", "2D", "2S"], ["3S", "4S"]],
        damage=2,
        dice=[2, 6, 6],  # launch roll 2 + 2 flies, accuracy 6 + 1 hits, damage 6 + 3
    )
    history = logged(
        game,
        lambda g: g.build(ANN, "red", "large"),
        lambda g: g.build(BOB, "yellow", "medium"),
        lambda g: g.launch(ANN, ["2C", "2H", "2D", "2S"]),
    )
    return ended(game, history, remaining=192)


def test_a_lost_game_tells_each_launch_and_how_far_short_it_fell():
    told = story.story(lost_basic_game(), "en", now=0)
    assert (told.outcome, told.won, told.time_left) == ("lost", False, None)
    assert told.headline == "☄️ Apophis hit Earth: the team ran out of time."
    assert [launch.result for launch in told.launches] == ["hit", "missed"]
    assert told.lines == (
        f"1. <@{ANN}>: 🟥L 🟨M, 5 pts → hit, damage 1/3, deflection 1/5",
        f"2. <@{BOB}>: 🟥S 🟨S, 2 pts → missed",
    )
    assert (told.damage, told.damage_needed, told.counters, told.counters_needed) == (1, 3, 1, 5)
    assert told.short == (
        "2 more damage would have destroyed Apophis. "
        "Or 4 more deflection counters would have deflected it."
    )
    assert told.hits == 1


def test_a_won_game_tells_the_time_left_and_nothing_short():
    told = story.story(destroyed_advanced_game(), "en", now=0)
    assert (told.outcome, told.won, told.time_left, told.short) == ("destroyed", True, 192, None)
    assert told.headline == "🎉 Victory! Apophis was destroyed with 3:12 to spare."
    assert (told.counters, told.counters_needed) == (None, None)  # no deflection in advanced
    assert told.lines == (f"1. <@{ANN}>: 🟥L 🟨M, 5 pts → hit, damage 3/3",)


def test_a_deflected_game_is_won_by_its_counters():
    game = position(
        players=(ANN, BOB),
        hands=[["3C", "4C", "5C", "2C", "2H", "2D", "2S"], ["3S", "4S"]],
        counters=4,
        dice=[6, 6],  # accuracy 6 + 3 hits; deflection 6 + 3
    )
    history = logged(
        game,
        lambda g: g.build(ANN, "green", "large"),
        lambda g: g.build(BOB, "yellow", "medium"),
        lambda g: g.launch(ANN, ["2C", "2H", "2D", "2S"]),
    )
    told = story.story(ended(game, history, remaining=61), "en", now=0)
    assert (told.outcome, told.won, told.counters) == ("deflected", True, 5)
    assert told.headline == "🎉 Victory! Apophis was deflected with 1:01 to spare."


def unfinished_advanced_game() -> Table:
    """Advanced rules: a rocket short of fuel, one that explodes, and one whose damage
    roll failed while its fail-safe's reroll was on offer when the host ended the game."""
    reds = ["3H", "4H", "5H", "6H", "7H", "8H"]  # Ann's two large red sections
    game = position(
        players=(ANN, BOB),
        rules="advanced",
        hands=[
            [*reds, "2C", "2H", "2D", "2S", "9C", "10C", "QC", "9H", "QD", "QS"],
            ["3C", "10H", "3D", "7S", "3S", "4S", "JH", "QH", "KH", "5S", "6S"],
        ],
        dice=[6, 1, 6, 1],  # explodes (6 + 2); then flies, hits, and 1 + 3 does no damage
    )
    history = logged(
        game,
        lambda g: g.build(ANN, "red", "large"),
        lambda g: g.launch(BOB, ["3C", "10H", "3D", "7S"]),  # 3 points and no fuel
        lambda g: g.build(ANN, "red", "large"),
        lambda g: g.build(BOB, "yellow", "medium"),
        lambda g: g.launch(ANN, ["2C", "2H", "2D", "2S"]),
        lambda g: g.build(BOB, "red", "large"),
        lambda g: g.build(ANN, "green", "medium"),
        lambda g: g.build(BOB, "yellow", "medium"),
        lambda g: g.launch(ANN, ["QC", "9H", "QD", "QS"]),
        lambda g: g.end("host"),
    )
    return ended(game, history, remaining=300)


def test_a_rocket_short_of_fuel_one_that_explodes_and_one_left_unfinished():
    told = story.story(unfinished_advanced_game(), "en", now=0)
    assert (told.outcome, told.won, told.time_left, told.short) == ("abandoned", False, 300, None)
    assert told.headline == "⏹️ This game was ended with 5:00 left, without a result."
    assert [launch.result for launch in told.launches] == ["no_fuel", "exploded", "unfinished"]
    assert told.lines == (
        f"1. <@{BOB}>: 🟥L, 3 pts → not enough fuel",
        f"2. <@{ANN}>: 🟥L 🟨M, 5 pts → exploded",
        f"3. <@{ANN}>: 🟥L 🟩M 🟨M, 7 pts → not finished",
    )
    assert told.hits == 0


def test_the_story_is_plain_json_for_the_live_table():
    told = story.story(lost_basic_game(), "en", now=0).as_json()
    assert json.loads(json.dumps(told)) == told
    assert told == {
        "outcome": "lost",
        "won": False,
        "headline": "☄️ Apophis hit Earth: the team ran out of time.",
        "launches": [
            {
                "sections": [{"colour": "red", "size": 3}, {"colour": "yellow", "size": 2}],
                "points": 5,
                "result": "hit",
                "line": f"1. <@{ANN}>: 🟥L 🟨M, 5 pts → hit, damage 1/3, deflection 1/5",
            },
            {
                "sections": [{"colour": "red", "size": 1}, {"colour": "yellow", "size": 1}],
                "points": 2,
                "result": "missed",
                "line": f"2. <@{BOB}>: 🟥S 🟨S, 2 pts → missed",
            },
        ],
        "damage": 1,
        "damage_needed": 3,
        "counters": 1,
        "counters_needed": 5,
        "time_left": None,
        "short": told["short"],
        "firsts": [],
    }
    won = story.story(destroyed_advanced_game(), "en", now=0).as_json()
    assert (won["won"], won["time_left"], won["counters"], won["short"]) == (True, 192, None, None)


def test_the_story_is_told_in_french():
    lost = story.story(lost_basic_game(), "fr", now=0)
    assert lost.headline.startswith("☄️ Apophis a percuté la Terre")
    assert lost.short.startswith("Il manquait 2 dégâts pour détruire Apophis.")
    assert "4 compteurs de déviation" in lost.short
    assert lost.lines[0] == f"1. <@{ANN}>\u202f: 🟥G 🟨M, 5 pts → touché, dégâts 1/3, déviation 1/5"
    won = story.story(destroyed_advanced_game(), "fr", now=0)
    assert "Victoire" in won.headline and "3:12 d’avance" in won.headline


def test_a_game_in_play_has_no_story_yet():
    game = position(players=(ANN, BOB))
    table = Table(
        1, 10, 100, ANN, LobbySettings("basic", "easy", 10), "active", [ANN, BOB], game=game
    )
    table.deadline = 1000.0
    told = story.story(table, "en", now=400)
    assert (told.outcome, told.won, told.headline, told.launches) == (None, False, "", ())
    assert (told.time_left, told.short) == (None, None)


# ------------------------------------------------------------- the final board


def test_the_final_board_tells_the_headline_the_damage_and_how_far_short():
    table = lost_basic_game()
    embed = components.board_message(table, now=0).embed
    assert embed.description.splitlines() == [
        "**☄️ Apophis hit Earth: the team ran out of time.**",
        "Damage 1/3 · deflection 1/5 · 2 launches, 1 hit",
        "2 more damage would have destroyed Apophis. "
        "Or 4 more deflection counters would have deflected it.",
    ]
    (launched,) = [field for field in embed.fields if field.name == "🚀 Launches"]
    assert launched.value.splitlines() == list(story.story(table, "en", now=0).lines)
    assert len(embed) <= 6000  # Discord's limit on an embed's text


def test_the_final_board_of_a_win_tells_the_time_to_spare_in_the_servers_language():
    table = destroyed_advanced_game()
    table.language = "fr"
    description = components.board_message(table, now=0).embed.description
    assert description.splitlines()[0].startswith("**🎉 Victoire")
    assert "3:12 d’avance" in description
    assert description.splitlines()[1] == "Dégâts 3/3 · 1 lancement, 1 a touché Apophis"
    assert "manquait" not in description
    table = unfinished_advanced_game()
    description = components.board_message(table, now=0).embed.description
    assert description.splitlines() == [
        "**⏹️ This game was ended with 5:00 left, without a result.**",
        "Damage 0/3 · 3 launches, no hit",
    ]


def test_the_final_board_tells_the_firsts_earned_in_seat_order_in_both_languages():
    """Those who earned the same firsts share their line."""
    table = destroyed_advanced_game()
    table.firsts = [(ANN, "advanced"), (BOB, "win"), (BOB, "hard"), (BOB, "on_target")]
    table.seats = [BOB, ANN, 3]
    table.firsts += [(3, "win"), (3, "hard"), (3, "on_target")]  # as Bob's: one line
    embed = components.board_message(table, now=0).embed
    (firsts,) = [field for field in embed.fields if field.name == "Firsts"]
    assert firsts.value.splitlines() == [
        f"🏅 <@{BOB}> and <@3>: first win, first win at hard and first win with every launch "
        "on target",
        f"🏅 <@{ANN}>: first advanced-rules win",
    ]
    assert story.story(table, "en", now=0).as_json()["firsts"] == firsts.value.splitlines()
    table.language = "fr"
    (firsts,) = [f for f in components.board_message(table, now=0).embed.fields if "🏅" in f.value]
    assert firsts.name == "Premières fois"
    assert firsts.value.splitlines()[1] == (
        f"🏅 <@{ANN}>\u202f: première victoire aux règles avancées"
    )
    table.firsts = []  # none earned: no such field
    assert all(
        "🏅" not in field.value for field in components.board_message(table, now=0).embed.fields
    )
