# Two commands on a fresh machine with only Python: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
KB ?= demo_kb

.PHONY: demo test lint bench-ingest clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(VENV)/.installed $@

demo: $(VENV)/.installed
	rm -rf $(KB)
	$(BIN)/hyrag ingest sample_data --kb $(KB)
	$(BIN)/hyrag schema --kb $(KB)
	$(BIN)/hyrag sql --kb $(KB) "SELECT region, round(sum(revenue), 2) AS revenue FROM sales GROUP BY region ORDER BY revenue DESC"
	$(BIN)/hyrag sql --kb $(KB) "SELECT kind, count(*) AS claims FROM claims GROUP BY kind ORDER BY claims DESC"

test: $(VENV)/.installed-dev
	$(BIN)/python -m pytest

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check hyrag ingest ecr verify tests

bench-ingest: $(VENV)/.installed
	$(BIN)/hyrag bench ingest

clean:
	rm -rf $(VENV) $(KB) .pytest_cache
