# One command each: `make run` starts the bot, `make test` runs lint and every test.
# Both create .venv and install the project into it first (only when pyproject.toml changed),
# and build the web table's client (bot/web/client, with npm; only when its sources changed).
# `make test` also installs headless Chromium for the browser tests where it is missing.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

CLIENT := bot/web/client
CLIENT_SOURCES := $(wildcard $(CLIENT)/src/* $(CLIENT)/*.html $(CLIENT)/*.json $(CLIENT)/*.ts bot/web/fonts/*.woff2)

.PHONY: run test lint e2e bench demo clean client browser

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

$(CLIENT)/node_modules/.installed: $(CLIENT)/package-lock.json
	cd $(CLIENT) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(CLIENT)/dist/index.html: $(CLIENT)/node_modules/.installed $(CLIENT_SOURCES)
	cd $(CLIENT) && npm run --silent build

# The web table's client, built into bot/web/client/dist (never committed).
client: $(CLIENT)/dist/index.html

# Headless Chromium for the browser tests, where missing and installable.
browser:
	@devtools/chromium.sh

run: $(STAMP) client
	$(BIN)/python -m bot

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy engine

test: lint client browser
	$(BIN)/python -m pytest

e2e: $(STAMP) client browser
	$(BIN)/python -m pytest -m e2e

# make bench BENCH_ARGS="--database postgresql --processes 2": the bot as 2 processes on PostgreSQL
bench: $(STAMP)
	$(BIN)/python benchmarks/load_bench.py $(BENCH_ARGS)
	$(BIN)/python benchmarks/load_bench.py --global-rate 45 --steps 100,1000,2500 --all-steps --recovery "" $(BENCH_ARGS)

# A whole game on a local fake Discord, written as a page (ARGS="--help" for options).
demo: $(STAMP) client
	$(BIN)/python -m devtools.demo $(ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis $(CLIENT)/node_modules $(CLIENT)/dist
