# One command each: `make run` starts the bot, `make test` runs lint and every test.
# Both create .venv and install the project into it first (only when pyproject.toml changed).

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint e2e bench demo clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m bot

lint: $(STAMP)
	$(BIN)/ruff check .

test: lint
	$(BIN)/python -m pytest

e2e: $(STAMP)
	$(BIN)/python -m pytest -m e2e

# make bench BENCH_ARGS="--database postgresql --processes 2": the bot as 2 processes on PostgreSQL
bench: $(STAMP)
	$(BIN)/python benchmarks/load_bench.py $(BENCH_ARGS)
	$(BIN)/python benchmarks/load_bench.py --global-rate 45 --steps 100,1000,2500 --all-steps --recovery "" $(BENCH_ARGS)

# A whole game on a local fake Discord, written as a page (ARGS="--help" for options).
demo: $(STAMP)
	$(BIN)/python -m devtools.demo $(ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
