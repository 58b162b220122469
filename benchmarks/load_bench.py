"""Load benchmark of the whole bot: concurrent games, latency, CPU, memory, Discord budget.

Run: make bench   (or .venv/bin/python benchmarks/load_bench.py --help for the knobs)

What it does, in this process (the load generator) and one other (the bot):

* starts the fake Discord (devtools/fakediscord) here, with one guild per game table
  (a text channel and 4 members each), and the real bot (`python -m bot`, through
  benchmarks/bot_process.py) as a separate process on a fresh SQLite database, so
  the load generator never shares the bot's event loop. With `--database postgresql`
  the database is a fresh one on a throwaway PostgreSQL server (devtools/pgserver.py),
  and `--processes N` runs the bot as N processes sharing it, process k running
  shard k of N (APOPHIS_SHARD_IDS, APOPHIS_PROCESSES; the guilds spread evenly over
  the shards); bot CPU and memory are then those of all N, and the database server's
  CPU is given in the notes;
* open-loop load in steps of G concurrent 4-player games: every game is its own
  task; whoever must act waits a think time (uniform 0.5-1.5 x --think, default 5 s),
  then acts as a player would: from their hand panel (opened once with the board's My
  hand, then kept current by the bot; one click a move, the select of sections for a
  build, a select for a chosen launch subset, buttons for a discard; a move the panel
  does not offer is counted in the notes), some slash commands (/draw /build /launch
  /scrap /discard, --command-share), now and then a look at the hand; the team also chats in the
  channel (--chat messages per game a minute), which the bot counts to re-post a
  buried board. Games that end (won, lost on the clock) are reopened with /apophis new,
  join x3, start. Countdowns are a mix of the standard lengths and short games of 1 to
  5 minutes, so the clock warns and expires and games are reopened in every window.
  (Short games of a single length, all opened within the 10 s ramp, would end within
  seconds of each other: a burst of reopenings that steady play never has.)
* players decide with engine.playout.choose_action on the state the bot committed,
  read from the bot's database (SQLite read-only; option (c) of the issue): only the
  acting player's own view is used by the policy, so nobody cheats. Clicks use the
  buttons on the board message as the fake holds it; a player waits (up to 15 s) for
  the board to show the state before clicking, as a person would;
* for each step it measures a window of --duration seconds after a warm-up and
  prints one row: actions a second, latency from dispatch of the interaction to the
  bot's first response reaching the fake, latency to the last message the action
  caused (board edit, hand DMs), interactions past Discord's 3 s deadline (or never
  answered), CPU and resident memory of the bot process (from /proc), memory per
  game, and the requests that count against Discord's global limit (50/s);
* start-up recovery: N stored active games (written through bot.store.store.Store), then
  the time from process start to "resumed N open games" (clocks re-armed, a fresh
  board for every channel queued), and to the gateway IDENTIFY;
* the engine alone: actions a second with a save after each (Game.apply + orjson).

`--web-clients N` (default 0: no web server) also runs the bot's live table (bot.web, on
a free port) and opens N WebSockets per game beside the Discord load, socket k signed in
as the game's k-th player, so it receives that player's hand (benchmarks/web_clients.py).
The players still act through Discord. Each step then adds a row: delivery latency, from
an action's dispatch to each socket of its game receiving a state at least as new as
the one the action made (p50, p99 and max over all (action, socket) pairs), states
received a second, and the bot's CPU per action, to compare with a run of `--web-clients 0`.
The sockets offer permessage-deflate as browsers do (`--web-compression off`: they do not)
and send the web client's ping every 25 s. The notes give the live table's own CPU per
action, timed in the bot (benchmarks/bot_process.py: its feed, and the frames it sends).

`--place` says where the games are played: `channel` (the default) is a server's channel
with the bot a member, as above. `group-dm` plays each game in a group DM of its four
people, the first having installed the app to their account; `no-bot-server` in a server
that never installed the bot (`add_guild(bot_member=False)`), the first player's user
install. There the bot is no member, so everything goes through interaction tokens: only
the host has the slash commands (/apophis new), the others join with the lobby's Join,
the host starts with its Start, and every move is made by buttons (the board's, each
player's panel) — the same moves as in a channel, where a share would be typed; no hand
DMs come, so the last message is the board. Every run also gives requests per action by
route class (interaction callbacks, @original edits, follow-ups, follow-up edits and
deletions, other token requests, the place's channel routes, hand DMs, the rest) and the
token answers the fake refused (40094 over a user install's follow-up cap, 401, 404),
benchmarks/load/routes.py. `--skip-engine` leaves out the engine alone (about 20 s).

Results go to the screen and to benchmarks/results/ (machine and commit recorded).

The code is in benchmarks/load/, a module a job: cli (these options, the run in order),
steps (the bot started, each step's window measured), players (the simulated players)
and watch (what they see the bot do, timed), bots (the bot's processes, their CPU and
memory), database, recovery, engine_alone, routes (requests by route class, token
refusals), figures and report (what is printed), model (what is recorded) and machine
(where a run ran).

Knobs that change the meaning of figures: the bot's outbox normally paces itself at
45 requests a second; by default that pacing is lifted here (BENCH_GLOBAL_RATE) so that
the demand on the global limit is measured, not a queue. `--global-rate 45` is Discord's
production pacing: then hand DMs queue behind the budget, and the DM lag is the figure
to read. Each step also reports the share of the updates players wait for (boards,
panels, pings, reports, posts) that went through the global budget rather than an
interaction token. `--pictures off` runs the bot with no board pictures (as servers
that turned them off with /apophis config), to compare with pictures on (the default).
OpenAPI validation of request bodies in the fake is off for speed (`--validate` on).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.load.cli import main

if __name__ == "__main__":
    main()
