# brainq: `make demo` and `make test` work on a fresh machine (Debian, Python 3.11).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
DEMO_STORE := .brainq-demo
DEMO_AS_OF := 2026-03-12

.PHONY: install demo test eval bench fuzz stress clean

install: $(VENV)/.installed

# torch is installed first and pinned, so pip keeps the local CPU build instead of a CUDA one.
$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet torch==2.13.0
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

demo: install
	$(BIN)/brainq --store $(DEMO_STORE) ingest corpus_samples/household
	$(BIN)/brainq --store $(DEMO_STORE) ask --as-of $(DEMO_AS_OF) "Is Friday a half-day?"
	$(BIN)/brainq --store $(DEMO_STORE) ask --as-of $(DEMO_AS_OF) "What size is our HVAC filter?"
	$(BIN)/brainq --store $(DEMO_STORE) ask --as-of $(DEMO_AS_OF) "What was the roofer's name?"

test: install
	$(BIN)/python -m pytest -q

# The whole question set of corpus_samples, beside plain semantic search (a few minutes).
eval: install
	$(BIN)/brainq --store $(DEMO_STORE) ingest --quiet corpus_samples/household
	$(BIN)/brainq --store $(DEMO_STORE) eval --baseline corpus_samples/queries.yaml

# Ratios measured side by side in one run; figures and machine in benchmarks/RESULTS.md (~30 min).
bench: install
	$(BIN)/python -m benchmarks.ingest
	$(BIN)/python -m benchmarks.ask
	$(BIN)/python -m benchmarks.memory
	$(BIN)/python -m benchmarks.backfill

fuzz: install
	$(BIN)/python -m benchmarks.fuzz --cases 20000

# kill -9 ingests, backfills and forgets at many points; each next run must mend the store (~30 min).
stress: install
	$(BIN)/python -m benchmarks.crash

clean:
	rm -rf $(VENV) $(DEMO_STORE) .pytest_cache
