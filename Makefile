# `make run` and `make test` work from a clean clone with only python3.11 and make:
# the first target that needs the virtual environment creates it and installs
# balancer with its test and Dask extras; the game kernels are compiled once
# (numba caches them on disk) before the first run or test, so neither waits
# for compilation.
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

.PHONY: run install test test-fast bench lint format clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,dask]'
	touch $(STAMP)

$(WARM): $(STAMP) $(SOURCES)
	$(BIN)/python -m compileall -q balancer
	$(BIN)/python -m balancer.sim.warm
	touch $(WARM)

run: $(WARM)
	$(BIN)/balancer run variants/fdc-5p.yaml

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
	$(BIN)/python -m bench.throughput --whole-run --workers-run --rollouts

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) build *.egg-info
