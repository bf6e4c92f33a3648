# `make run` and `make test` work from a clean clone with only python3.11 and make:
# the first target that needs the virtual environment creates it and installs
# balancer with its test and Dask extras; the game kernels are compiled once
# (numba caches them on disk), each piece with a line as it is ready. `make run`
# compiles only what its variant plays (fdc's whole-game loop: a fresh clone's
# first run in about 3 minutes instead of 6 on 2 cores); the rest compiles on
# first use, saying so, or all at once with `make warm`. `make test` compiles
# everything before the tests start: two test workers would otherwise both
# compile the same kernels.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Compiled again only when a source has changed (numba's cache knows which piece).
# The bytecode too: an editable install leaves none, and where PYTHONDONTWRITEBYTECODE
# is set (as on the machines this project is developed on) Python would compile every
# module of every command again (`balancer validate` of a dqz variant: 0.30-0.34 s of
# CPU without, 0.21-0.25 with).
WARM := $(VENV)/.warm
SOURCES := $(shell find balancer -name '*.py')

# What `make run` plays; its kernel is all a first run compiles.
RUN_VARIANT := variants/fdc-5p.yaml
WARM_RUN := $(VENV)/.warm-run
# pip's own noise off: no upgrade notice, no note about scripts off PATH, no
# progress bars; its warnings and errors still show.
PIP := $(BIN)/pip --quiet --disable-pip-version-check --no-input
PIP_INSTALL := $(PIP) install --no-warn-script-location --progress-bar off

.PHONY: run install test test-fast bench lint format clean warm

$(STAMP): pyproject.toml
	@echo "balancer: creating $(VENV) and installing balancer with its test and Dask extras (a minute or two)"
	$(PYTHON) -m venv $(VENV)
	$(PIP_INSTALL) --upgrade pip
	$(PIP_INSTALL) -e '.[dev,dask]'
	touch $(STAMP)

$(WARM): $(STAMP) $(SOURCES)
	$(BIN)/python -m compileall -q balancer
	$(BIN)/python -m balancer.sim.warm
	touch $(WARM) $(WARM_RUN)

$(WARM_RUN): $(STAMP) $(SOURCES)
	$(BIN)/python -m compileall -q balancer
	$(BIN)/python -m balancer.sim.warm --for $(RUN_VARIANT)
	touch $(WARM_RUN)

run: $(WARM_RUN)
	$(BIN)/balancer run $(RUN_VARIANT)

# Every game's kernels now, instead of each on its first use.
warm: $(WARM)

# Put `balancer` on PATH: a link in $(PREFIX)/bin to the virtual environment's
# command, so it keeps working as the clone changes (make install PREFIX=/usr/local).
PREFIX ?= $(HOME)/.local
install: $(WARM)
	mkdir -p $(PREFIX)/bin
	ln -sf $(abspath $(BIN))/balancer $(PREFIX)/bin/balancer
	@case ":$$PATH:" in *":$(PREFIX)/bin:"*) ;; \
	  *) echo "note: $(PREFIX)/bin is not on your PATH; add it, e.g. export PATH=\"$(PREFIX)/bin:\$$PATH\"";; esac
	@echo "installed: $(PREFIX)/bin/balancer (try: balancer variants)"

# The tests spread over every core (pytest-xdist): each test stands alone (its own
# tmp_path, processes it starts and kills), so the order they run in is free.
# The kernels compile while ruff and mypy read the code: compiling a fresh
# clone's kernels keeps both cores busy for over a minute, the lint one core for 25 s.
test: $(STAMP)
	$(MAKE) --no-print-directory -j2 lint $(WARM)
	$(BIN)/pytest -n auto

# Every tier but quality/ (the statistical cross-checks; pytest -m quality runs those):
# tests/unit, kernels, cli, reference and golden (tests/conftest.py says what each holds).
test-fast: $(STAMP)
	$(MAKE) --no-print-directory -j2 lint $(WARM)
	$(BIN)/pytest -n auto -m "not quality"

bench: $(WARM)
	$(BIN)/python -m bench.throughput --whole-run --workers-run --rollouts --roles
	$(BIN)/python -m bench.decisions

# Mutation testing, not in CI (hours on 2 cores): mutmut over balancer/stats/,
# games/roles/ and bots/, each folder against its own tests (tests/mutation/run.sh says
# how; docs/mutation.md has the scores and what each survivor means). MUTATE=stats runs
# one folder, MUTANTS='balancer.stats.role_impact.*' one chunk of it, SAMPLE=100 a seeded
# random sample of each folder's mutants (an estimate of its score); a run stopped
# goes on where it stopped.
.PHONY: mutate
MUTATE ?= stats roles bots
MUTATE_STAMP := $(VENV)/.mutate
$(MUTATE_STAMP): $(STAMP)
	$(PIP_INSTALL) -e '.[dev,dask,mutate]'
	touch $(MUTATE_STAMP)

# The kernels compiled first: mutmut copies the tree with its numba caches, and a copy of a
# warm tree compiles nothing for an unmutated kernel (docs/mutation.md); a cold one
# compiles for minutes in the clean run and again for every mutant.
mutate: $(MUTATE_STAMP) $(WARM)
	BIN=$(abspath $(BIN)) MUTANTS='$(MUTANTS)' SAMPLE='$(SAMPLE)' SEED='$(SEED)' tests/mutation/run.sh $(MUTATE)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) build *.egg-info
