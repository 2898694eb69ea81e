# A clean clone needs only python3 and the package registries: .venv is made here, with uv
# in it; nox then makes one environment per check under .nox (see noxfile.py).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
NOX := $(VENV)/bin/nox

.PHONY: demo test lint unit lowest docs bench schema-table peers clean redis-server

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet 'uv>=0.6.7'
	$(VENV)/bin/uv pip install --quiet --python $(PY) -e . --group dev
	touch $(STAMP)

demo: $(STAMP)
	$(PY) examples/demo.py

# Everything CI checks: the suite on Python 3.11-3.13 (coverage on 3.12), and on 3.10 at the lowest
# declared dependency versions; alongside it, with its output held until the suites end,
# lint and mypy, the API reference and the integrations (mypy and the installs leave a core
# idle, which the suites use). Fails when either side fails.
test: $(STAMP) redis-server
	@rm -f $(VENV)/checks.log $(VENV)/checks.rc
	@{ $(NOX) -s lint docs integrations >$(VENV)/checks.log 2>&1; echo $$? >$(VENV)/checks.rc; } & \
	$(NOX) -s tests lowest; suites=$$?; wait; \
	echo "=== lint, docs and integrations (ran alongside the suites) ==="; \
	cat $(VENV)/checks.log; checks=$$(cat $(VENV)/checks.rc); \
	echo "suites: exit $$suites; lint, docs and integrations: exit $$checks"; \
	test "$$suites" -eq 0 && test "$$checks" -eq 0

lint: $(STAMP)
	$(NOX) -s lint

unit: $(STAMP) redis-server
	$(NOX) -s tests-3.11

lowest: $(STAMP) redis-server
	$(NOX) -s lowest

# The RedisStore tests start their own redis-server on 127.0.0.1 (tests/redis_server.py);
# the Debian package is installed, quietly, only when none is on PATH (CI runs as root).
redis-server:
	@command -v redis-server >/dev/null 2>&1 || { \
		apt-get update -qq >/dev/null && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null; }

docs: $(STAMP)
	$(NOX) -s docs

bench: $(STAMP)
	$(PY) benchmarks/failure_path.py
	$(PY) benchmarks/redact_scaling.py
	$(PY) benchmarks/handle_scaling.py
	$(PY) benchmarks/success_path.py
	$(PY) benchmarks/history_costs.py
	$(PY) benchmarks/success_redaction.py
	$(PY) benchmarks/observed_round.py
	$(PY) benchmarks/import_time.py
	$(PY) benchmarks/resume_scaling.py
	$(PY) benchmarks/store.py
	$(PY) benchmarks/payload_check.py

# The README's schema table, next to pydantic-ai and the OpenAI Agents SDK (the bench group).
schema-table: $(STAMP)
	$(VENV)/bin/uv pip install --quiet --python $(PY) -e . --group bench
	$(PY) benchmarks/schema_table.py --write

# The README's side-by-side table and benchmarks/peers.png: each framework's default and the
# same framework with toolhygiene (the bench group).
peers: $(STAMP)
	$(VENV)/bin/uv pip install --quiet --python $(PY) -e . --group bench
	$(PY) benchmarks/peers.py

clean:
	rm -rf $(VENV) .nox .pytest_cache .mypy_cache .ruff_cache .coverage .hypothesis site
