# One command each: `make run` starts the bot, `make test` runs lint and every test.
# Both create .venv and install into it first (only when pyproject.toml or a lock changed) the
# exact versions of requirements/*.lock, each file checked against the lock's hashes, `make run`
# what running needs, `make test` that and the test tools, then the project itself (editable);
# and they build the web table's client
# (bot/web/client, with npm; only when its sources changed).
# `make test` also installs headless Chromium for the browser tests where it is missing.
# `make lock` resolves pyproject.toml's dependencies afresh into the locks, with their hashes
# (requirements/lock.sh, with pip-tools);
# `make wheel` builds the installable package, the built client inside, into dist/.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
RUN_LOCK  := requirements/run.lock
TEST_LOCK := requirements/test.lock
RUN_STAMP := $(VENV)/.installed-run
STAMP     := $(VENV)/.installed
# The run lock's wheels, kept for tests/test_packaging.py: it installs the project's wheel into
# a new virtual environment from them, offline.
WHEELHOUSE := $(VENV)/wheelhouse

CLIENT := bot/web/client
CLIENT_SOURCES := $(wildcard $(CLIENT)/src/* $(CLIENT)/*.html $(CLIENT)/*.json $(CLIENT)/*.ts bot/web/fonts/*.woff2)

.PHONY: run test lint e2e bench demo clean client browser lock wheel

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# What running needs, at the run lock's versions and hashes, then the project without dependencies;
# pip check fails where the lock no longer satisfies pyproject.toml (run `make lock`).
$(RUN_STAMP): pyproject.toml $(RUN_LOCK) | $(BIN)/python
	$(BIN)/python -m pip install --quiet --require-hashes -r $(RUN_LOCK)
	$(BIN)/python -m pip install --quiet --no-deps -e .
	$(BIN)/python -m pip check
	touch $@

# And the test tools, at the test lock's versions (the run lock's among them).
$(STAMP): $(RUN_STAMP) $(TEST_LOCK)
	$(BIN)/python -m pip install --quiet --require-hashes -r $(TEST_LOCK)
	$(BIN)/python -m pip check
	$(BIN)/python -m pip download --quiet --no-deps -r $(RUN_LOCK) -d $(WHEELHOUSE)
	touch $@

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

run: $(RUN_STAMP) client
	$(BIN)/python -m bot

# Every package pinned afresh, with its hashes: the newest releases pyproject.toml allows
# (commit the locks).
lock:
	requirements/lock.sh $(PYTHON)

# The wheel to install anywhere (`pipx install dist/apophis_bot-*.whl`), the client built first
# (setuptools' build/ goes first: it would keep files since deleted from the sources).
wheel: $(STAMP) client
	rm -rf build
	$(BIN)/python -m pip wheel --quiet --no-deps --no-build-isolation --wheel-dir dist .

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

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
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis $(CLIENT)/node_modules $(CLIENT)/dist build dist
