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

DEMO_FILES := sample_data/*.csv sample_data/messy sample_data/conflicts sample_data/alt \
	sample_data/docs/*.pdf sample_data/docs/market_notes.md

demo: $(VENV)/.installed
	rm -rf $(KB)
	$(BIN)/hyrag ingest $(DEMO_FILES) --kb $(KB)
	$(BIN)/hyrag schema --kb $(KB) --table sales
	$(BIN)/hyrag sql --kb $(KB) "SELECT region, round(sum(revenue), 2) AS revenue FROM sales GROUP BY region ORDER BY revenue DESC"
	$(BIN)/hyrag sql --kb $(KB) "SELECT kind, count(*) AS claims FROM claims GROUP BY kind ORDER BY claims DESC"
	$(BIN)/hyrag sql --kb $(KB) "SELECT a.entity, a.attribute, a.time_key, a.value_text, a.file, b.value_text, b.file FROM claim_links l JOIN claims a ON a.claim_id = l.src JOIN claims b ON b.claim_id = l.dst WHERE l.kind = 'contradicts' ORDER BY 1"
	$(BIN)/hyrag sql --kb $(KB) "SELECT text, locator FROM claims WHERE entity = 'Crestwood College' AND attribute LIKE '%employment rate%'"
	@echo "--- a broken file is refused with its line, and the knowledge base is unchanged:"
	-$(BIN)/hyrag ingest sample_data/broken/orders_broken.csv --kb $(KB)

test: $(VENV)/.installed-dev
	$(BIN)/python -m pytest

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check hyrag ingest ecr verify tests

bench-ingest: $(VENV)/.installed
	$(BIN)/hyrag bench ingest

clean:
	rm -rf $(VENV) $(KB) .pytest_cache
