"""The real bot (`python -m bot`), as the load benchmark starts it in its own process.

Identical to `python -m bot` except for one benchmark knob: BENCH_GLOBAL_RATE, when
set, replaces the outbox's own pacing (bot.notify.GLOBAL_RATE, 45 requests a second).
The load benchmark lifts it so that the requests the bot *wants* to send (the demand
on Discord's global limit) are measured instead of the pace of a queue; pass
`--global-rate 45` to the benchmark to see the bot paced as in production.
"""

from __future__ import annotations

import os
import sys

from bot import notify
from bot.app import main

if __name__ == "__main__":
    rate = os.environ.get("BENCH_GLOBAL_RATE")
    if rate:
        notify.Outbox.__init__.__kwdefaults__["rate"] = float(rate)
    sys.exit(main())
