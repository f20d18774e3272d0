# The two commands of the README: `make run` and `make test`.
# Everything they need is set up here, from nothing but Python 3.11, make and git.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
CORPUS ?= ../shared/corpus/puzzles.jsonl

.PHONY: run test test-slow bench bench-solve bench-logic bench-generate bench-web lint venv clean

$(STAMP): pyproject.toml setup.py src/nurikabe/solver/_csolve.c
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,cpsat,web]'
	touch $(STAMP)

venv: $(STAMP)

run: $(STAMP)
	$(BIN)/nurikabe serve --host 127.0.0.1 --port 8000

test: $(STAMP)
	@# The browser tests drive Debian's chromium (Playwright never downloads a browser).
	test -x /usr/bin/chromium || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium)
	$(BIN)/ruff check src tests bench
	$(BIN)/python -m pytest

test-slow: $(STAMP)
	$(BIN)/python -m pytest -m slow

# Each benchmark prints its tables and writes a JSON summary under bench/results/.
bench: bench-solve bench-logic bench-generate bench-web

bench-solve: $(STAMP)
	$(BIN)/python bench/solve.py --corpus $(CORPUS)

bench-logic: $(STAMP)
	$(BIN)/python bench/logic.py --corpus $(CORPUS)

bench-generate: $(STAMP)
	$(BIN)/python bench/generate.py --corpus $(CORPUS)

bench-web: $(STAMP)
	$(BIN)/python bench/web.py

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .ruff_cache
