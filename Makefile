# The two commands of the README: `make bench` (the main job) and `make test`.
# Both create .venv and install the project with every extra on first use.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: setup bench report test lint docs clean variant-collections check-variants

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[all,dev,docs]'
	touch $@

setup: $(VENV)/.installed

bench: setup
	$(VENV)/bin/sudoku-bench bench

# The committed reference report (reports/): the default suite into a fresh store, then the
# Markdown tables, the plots and the raw CSV from it.
REPORT_DB ?= build/reference.sqlite
report: setup
	mkdir -p $(dir $(REPORT_DB)) && rm -f $(REPORT_DB) $(REPORT_DB)-wal $(REPORT_DB)-shm
	$(VENV)/bin/sudoku-bench bench --db $(REPORT_DB) --seed 1
	$(VENV)/bin/sudoku-bench report --db $(REPORT_DB) --format md -o reports/REPORT.md --plots reports
	$(VENV)/bin/sudoku-bench report --db $(REPORT_DB) --format csv -o reports/results.csv
	$(VENV)/bin/sudoku-bench report --db $(REPORT_DB) --format html -o reports/report.html
	if command -v chromium >/dev/null; then chromium --headless --no-sandbox --disable-gpu \
	  --window-size=1280,2200 --screenshot=$(CURDIR)/reports/report-html.png \
	  file://$(CURDIR)/reports/report.html; fi

test: setup
	$(PY) -m pytest -n 2 -q

# The documentation site, strictly: any warning or broken internal link fails the build
# (external links are not checked: that needs the network); then every tutorial is run.
docs: setup
	rm -rf build/docs
	$(PY) -m sphinx -W --keep-going -n -q -b html docs build/docs
	@echo "docs: build/docs/index.html"
	$(PY) -m pytest -q -p no:xdist -m slow tests/test_docs_tutorials.py

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

# The bundled variant collections (sudoku_bench/puzzles/data/variants/): for each kind the clue generator
# can make that has no bundled collection yet, 30 6x6 puzzles of its clues, and 30 setter-style
# mixes (mixed.jsonl), seed 2026; every puzzle then verified unique by cpsat and sat. Files that
# exist are kept (delete one to make it again). See sudoku_bench/harness/cli/build_collections.py.
variant-collections: setup
	$(PY) -m sudoku_bench.harness.cli.build_collections --dir sudoku_bench/puzzles/data/variants --size 6 \
	  --count 30 --seed 2026 --verify-with cpsat,sat --counter cpsat
	$(PY) -m sudoku_bench.harness.cli.build_collections --dir sudoku_bench/puzzles/data/variants --size 9 \
	  --count 30 --seed 2026 --verify-with cpsat,sat

# The cross-check of every bundled variant collection (every file in sudoku_bench/puzzles/data/variants/,
# whatever its size) by every available back-end: the table on the terminal, the records and the
# summary (the last line) in build/check-variants.jsonl; exit 1 on any wrong grid or disagreement.
# The run of docs/measurements/variants.md.
CHECK_TIMEOUT ?= 1.5
CHECK_JOBS ?= 2
check-variants: setup
	mkdir -p build
	$(VENV)/bin/sudoku-bench check sudoku_bench/puzzles/data/variants/*.jsonl -s all --timeout $(CHECK_TIMEOUT) \
	  -j $(CHECK_JOBS) --quiet --json --summary-json > build/check-variants.jsonl

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
