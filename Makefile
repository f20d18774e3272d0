# The two commands of the README: `make run` and `make test`.
# Everything they need is set up here, from nothing but Python 3.11, make and git.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
CORPUS ?= ../shared/corpus/puzzles.jsonl

.PHONY: run test test-slow bench bench-solve bench-logic bench-generate bench-research lint venv clean

$(STAMP): pyproject.toml setup.py src/nurikabe/solver/_csolve.c
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,cpsat]'
	touch $(STAMP)

venv: $(STAMP)

run: $(STAMP)
	$(BIN)/nurikabe demo

test: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/python -m pytest

test-slow: $(STAMP)
	$(BIN)/python -m pytest -m slow

# Each benchmark prints its tables and writes a JSON summary under bench/results/.
bench: bench-solve bench-logic bench-generate bench-research

bench-solve: $(STAMP)
	$(BIN)/python bench/solve.py --corpus $(CORPUS)

bench-logic: $(STAMP)
	$(BIN)/python bench/logic.py --corpus $(CORPUS)

bench-generate: $(STAMP)
	$(BIN)/python bench/generate.py --corpus $(CORPUS)

bench-research: $(STAMP)
	$(BIN)/python bench/research.py --corpus $(CORPUS)

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .ruff_cache
