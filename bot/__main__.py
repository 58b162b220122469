"""The `apophis-bot` command (also `python -m bot` and `make run`): its options, then the bot."""

import argparse
import sys
from importlib import metadata

from dotenv import find_dotenv, load_dotenv

from bot.app import main as run_bot
from bot.store import backup

DESCRIPTION = (
    "Run Apophis Bot: Erik Dresner's cooperative rocket game on Discord, with its live "
    "web table. It runs until stopped (SIGTERM or Ctrl-C)."
)
EPILOG = (
    "Settings come from the environment, or from a .env file in the current directory. "
    "Only DISCORD_TOKEN is required (the bot's token, from the Discord application's Bot "
    "page); every other setting is described in .env.example and docs/hosting.md. "
    "`apophis-bot backup FILE` copies the running bot's SQLite database to FILE, and "
    "`apophis-bot restore FILE` puts a backup back with the bot stopped (each has --help)."
)


def version() -> str:
    """The installed project's version."""
    try:
        return metadata.version("apophis-bot")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "(not installed)"


def main(argv: list[str] | None = None) -> int:
    """Answer --help and --version, or run the bot; the exit status (0 once stopped)."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] and args[0] in backup.COMMANDS:  # `backup FILE`, `restore FILE`: the host's
        load_dotenv(find_dotenv(usecwd=True))
        return backup.main(args)
    parser = argparse.ArgumentParser(prog="apophis-bot", description=DESCRIPTION, epilog=EPILOG)
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    parser.parse_args(argv)
    # The .env of the directory the command runs in: python-dotenv's own search starts
    # beside the calling module, which for an installed package is inside site-packages.
    load_dotenv(find_dotenv(usecwd=True))
    return run_bot()


if __name__ == "__main__":
    sys.exit(main())
