# Every target makes its own virtual environment: a clean clone needs only python3.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck unit bench schema-table clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(PY) examples/demo.py

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests examples benchmarks
	$(VENV)/bin/ruff format --check src

typecheck: $(STAMP)
	$(VENV)/bin/mypy

unit: $(STAMP)
	$(VENV)/bin/coverage run -m pytest -q
	$(VENV)/bin/coverage report --fail-under=85

test: lint typecheck unit

bench: $(STAMP)
	$(PY) benchmarks/failure_path.py
	$(PY) benchmarks/redact_scaling.py
	$(PY) benchmarks/handle_scaling.py
	$(PY) benchmarks/success_path.py
	$(PY) benchmarks/history_costs.py
	$(PY) benchmarks/success_redaction.py
	$(PY) benchmarks/observed_round.py

# The README's schema table, next to pydantic-ai and the OpenAI Agents SDK (the bench extra).
schema-table: $(STAMP)
	$(PY) -m pip install --quiet -e '.[bench]'
	$(PY) benchmarks/schema_table.py --write

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .coverage .hypothesis
