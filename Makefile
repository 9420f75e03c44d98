# Two entry points for a fresh machine with Python 3.11+ and make:
#   make serve  - the web app at http://127.0.0.1:8000 (SQLite in data/)
#   make test   - lint, type-check and run the whole test suite
# (make play: a game of Stairs in the terminal against the computer)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# One stamp per set of packages: playing needs only the game's own dependencies,
# testing adds the dev tools (pytest, hypothesis, mypy, ruff, OpenSpiel). Playing does
# not compile the computer players when it installs: the first game compiles them in the
# background while the board is read, the computer playing a plain-Python search until
# then (docs/agents.md, "The first move"); `stairgames prepare` compiles them ahead.
PLAY_STAMP := $(VENV)/.installed-play
DEV_STAMP := $(VENV)/.installed-dev
# Every package at the version the lock names (pip-compile's output, used as constraints:
# both sets install exactly the locked versions); a new lock reinstalls. `make lock`
# writes it anew from pyproject.toml after a change of dependencies, keeping the other
# pins; `make lock LOCK_ARGS=--upgrade` moves every package to its newest release, and
# `make lock LOCK_ARGS='--upgrade-package fastapi'` one package.
LOCK := requirements/lock.txt
LOCK_ARGS ?=

.PHONY: serve play test lock bench bench-engines bench-playouts bench-search messages clean

$(PLAY_STAMP): pyproject.toml $(LOCK)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c $(LOCK) -e .
	touch $(PLAY_STAMP)

$(DEV_STAMP): pyproject.toml $(LOCK)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c $(LOCK) -e '.[dev]'
	$(BIN)/stairgames prepare  # the tests' computer players find their compiled code ready
	touch $(PLAY_STAMP) $(DEV_STAMP)

serve: $(PLAY_STAMP)
	$(BIN)/stairgames serve

play: $(PLAY_STAMP)
	$(BIN)/stairgames play stairs --light human --dark medium

# The page's JavaScript checks (biome, tsc, node --test) use the packages package-lock.json
# pins, installed into node_modules/ again only when the lock changes; the page itself
# needs none of them (no build step), so `make serve` never runs npm.
JS_STAMP := node_modules/.installed
$(JS_STAMP): package-lock.json
	npm ci --no-audit --no-fund
	touch $(JS_STAMP)

test: $(DEV_STAMP) $(JS_STAMP)
	node_modules/.bin/biome ci
	node_modules/.bin/tsc -p tsconfig.json
	node_modules/.bin/tsc -p tsconfig.strict.json
	node --test tests/js/
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/ruff format --check src tests benchmarks examples
	$(BIN)/mypy
	$(BIN)/python -m pytest

# The lock of everything `.[dev]` and `.[postgresql]` need (so `-e .` too), for Python
# 3.11 on Linux x86_64; pip-tools is installed into .venv for it.
lock:
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -c $(LOCK) --upgrade pip-tools
	CUSTOM_COMPILE_COMMAND="make lock" $(BIN)/pip-compile --quiet --strip-extras \
		--no-emit-index-url --no-emit-find-links --extra dev --extra postgresql --extra redis \
		$(LOCK_ARGS) --output-file $(LOCK) pyproject.toml

bench: $(PLAY_STAMP)
	$(BIN)/python benchmarks/run.py

bench-engines: $(PLAY_STAMP)
	$(BIN)/python -m benchmarks.engine_speed

bench-playouts: $(PLAY_STAMP)
	$(BIN)/python -m benchmarks.playout_speed

bench-search: $(PLAY_STAMP)
	$(BIN)/python -m benchmarks.search_speed

# After changing a player-facing text: extract the messages into the template and merge
# them into the Japanese catalog (then translate the new entries in the .po file).
LOCALE := src/stairgames/locale
messages: $(DEV_STAMP)
	$(BIN)/pybabel extract -F babel.cfg --no-location --sort-output --omit-header \
		-o $(LOCALE)/stairgames.pot src/stairgames
	$(BIN)/pybabel update -D stairgames -d $(LOCALE) -i $(LOCALE)/stairgames.pot \
		--no-fuzzy-matching --ignore-obsolete

clean:
	rm -rf $(VENV) node_modules build src/*.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
