"""The `apophis-bot` command (also `python -m bot` and `make run`): its options, then the bot."""

import argparse
import os
import sys
from importlib import metadata, resources

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
    "page). `apophis-bot example-env .env` writes a .env with every setting explained, to "
    "fill in (without a file name, it prints them). "
    "`apophis-bot backup FILE` copies the running bot's SQLite database to FILE, and "
    "`apophis-bot restore FILE` puts a backup back with the bot stopped (each has --help)."
)
#: The command writing the example settings, and the file it writes (shipped in the package).
EXAMPLE_ENV = "example-env"
EXAMPLE = resources.files("bot") / "env.example"


def version() -> str:
    """The installed project's version."""
    try:
        return metadata.version("apophis-bot")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "(not installed)"


def example_env(args: list[str]) -> int:
    """`example-env [FILE]`: every setting, explained, printed or written to a new FILE
    (readable by its owner alone: it will hold the token); the exit status."""
    parser = argparse.ArgumentParser(
        prog=f"apophis-bot {EXAMPLE_ENV}",
        description="Write an example settings file, every setting explained, to fill in.",
    )
    parser.add_argument("file", nargs="?", help="the file to create (default: print it)")
    file = parser.parse_args(args).file
    text = EXAMPLE.read_text(encoding="utf-8")
    if file is None:
        sys.stdout.write(text)
        return 0
    try:
        with os.fdopen(os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as out:
            out.write(text)
    except FileExistsError:
        print(f"apophis-bot: {file} exists; it was left as it was.", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"apophis-bot: cannot write {file} ({exc.strerror}).", file=sys.stderr)
        return 1
    print(f"Wrote {file}: put the bot's token after DISCORD_TOKEN=, then start the bot.")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Answer --help and --version, or run the bot; the exit status (0 once stopped)."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == [EXAMPLE_ENV]:
        return example_env(args[1:])
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
