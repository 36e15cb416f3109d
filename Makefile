# The two commands of the README: `make bench` (the main job) and `make test`.
# Both create .venv and install the project with every extra on first use.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: setup bench test lint clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[all,dev]'
	touch $@

setup: $(VENV)/.installed

bench: setup
	$(VENV)/bin/sudoku-bench bench

test: setup
	$(PY) -m pytest -n 2 -q

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
