# The two commands of the README: `make run` and `make test`.
# Everything they need is set up here, from nothing but Python 3.11, make and git.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
CORPUS ?= ../shared/corpus/puzzles.jsonl

.PHONY: run test test-slow bench bench-solve bench-logic bench-generate bench-print bench-startup bench-web bench-research bench-families bench-tail lint venv clean system-deps

$(STAMP): pyproject.toml setup.py src/nurikabe/solver/_csolve.c src/nurikabe/solver/_csolve_py.c src/nurikabe/solver/_csolve.h src/nurikabe/_cgrid.c src/nurikabe/research/_cenum.c
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,cpsat,web,cluster,print,figures]'
	touch $(STAMP)

venv: $(STAMP)

run: $(STAMP)
	$(BIN)/nurikabe serve --host 127.0.0.1 --port 8000

# Debian packages the tests drive: chromium (the browser tests, through Playwright, which
# never downloads a browser) and poppler-utils (pdftoppm renders the printed booklets).
system-deps:
	@missing=""; \
	test -x /usr/bin/chromium || missing="$$missing chromium"; \
	test -x /usr/bin/pdftoppm || missing="$$missing poppler-utils"; \
	if [ -n "$$missing" ]; then apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; fi

# The suite runs on every core (pytest-xdist); `pytest PATH` alone runs in one process.
test: $(STAMP) system-deps
	$(BIN)/ruff check src tests bench
	$(BIN)/python -m pytest -n auto

test-slow: $(STAMP)
	$(BIN)/python -m pytest -n auto -m slow

# Each benchmark prints its tables and writes a JSON summary under bench/results/.
bench: bench-solve bench-logic bench-generate bench-print bench-startup bench-web bench-research bench-tail bench-families

bench-solve: $(STAMP)
	$(BIN)/python bench/solve.py --corpus $(CORPUS)

bench-logic: $(STAMP)
	$(BIN)/python bench/logic.py --corpus $(CORPUS)

bench-generate: $(STAMP)
	nice -n 10 $(BIN)/python bench/generate_quality.py --corpus $(CORPUS)

bench-print: $(STAMP)
	$(BIN)/python bench/print.py --corpus $(CORPUS)

bench-startup: $(STAMP)
	$(BIN)/python bench/startup.py --corpus $(CORPUS)

bench-web: $(STAMP)
	$(BIN)/python bench/web.py
	$(BIN)/python bench/abuse.py --seconds 30 --honest 50 --hostile 2 --think 0.25

bench-research: $(STAMP)
	$(BIN)/python bench/research.py --corpus $(CORPUS)
	$(BIN)/python bench/research_answers.py --store-6x6 bench/results/census-6x6-store.sqlite

bench-families: $(STAMP)
	$(BIN)/python bench/families.py --logic-seconds 20

bench-tail: $(STAMP)
	$(BIN)/python bench/tail.py --corpus $(CORPUS) -o bench/results/tail.json

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy src/nurikabe

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .ruff_cache
