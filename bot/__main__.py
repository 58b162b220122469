"""Run the bot: `python -m bot` (or `make run`)."""

import sys

from bot.app import main

sys.exit(main())
