# Two commands: `make run` and `make test`. Both set up everything they need from a fresh clone;
# only Python 3.11+, gcc and cmake are assumed. `make dev` is `make run` with autoreload;
# `make lock` rewrites the hashed lock files in requirements/ from pyproject.toml.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
STAMP := $(VENV)/.installed
TEST_STATE := $(CURDIR)/.faultline/test
UV_VERSION := 0.13.9
# requirements/runtime.txt: what the site needs (the Docker image installs only this).
# requirements/test.txt: the same pins plus the test and development tools (`make install`).
LOCK_RUNTIME := requirements/runtime.txt
LOCK_TEST := requirements/test.txt

# llama-cpp-python compiles from source; the default native build crashes on CPUs with AMX,
# so build a portable one.
export CMAKE_ARGS := -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON

.PHONY: run dev test test-fast lint install lock browser pages stop clean

run: install
	FAULTLINE_PORT=$(PORT) $(BIN)/python -m faultline run $(if $(RELOAD),--reload)

# Restarts the web server and the worker whenever Python code or a template changes.
dev:
	@$(MAKE) --no-print-directory run RELOAD=1

# The suite runs on TEST_WORKERS pytest-xdist workers (`make test TEST_WORKERS=0` runs it in one
# process); each test file stays on one worker, so a module's shared fixtures are built once, and
# the browser tests share one worker, longest first (tests/support/scheduling.py). It prints its
# ten slowest tests and its total.
TEST_WORKERS ?= 2
XDIST = -n $(TEST_WORKERS) --dist loadgroup --no-loadscope-reorder

test: install browser lint
	@FAULTLINE_STATE_DIR=$(TEST_STATE) $(BIN)/python -m pytest $(XDIST) $(PYTEST_ARGS); status=$$?; \
	FAULTLINE_STATE_DIR=$(TEST_STATE) $(BIN)/python -m faultline stop; exit $$status

# The pure and table tests only (no database, no process, no browser): the edit-run loop.
test-fast: install
	@FAULTLINE_STATE_DIR=$(TEST_STATE) $(BIN)/python -m pytest -n $(TEST_WORKERS) -m "not database and not slow and not browser" $(PYTEST_ARGS)

# The page gallery: every page in every mode and state at 1360 and 390 px, with axe-core on each,
# into benchmarks/reports/pages/index.html (git ignores it). Not part of `make test`; it runs on
# services of its own (.faultline/pages) and exits 1 when any page has a problem.
pages: install browser
	$(BIN)/python benchmarks/pages.py

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

install: $(STAMP)

$(STAMP): pyproject.toml $(LOCK_RUNTIME) $(LOCK_TEST)
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Faultline needs Python 3.11 or newer (found %s)" % sys.version.split()[0])'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --require-hashes -r $(LOCK_TEST)
	$(BIN)/python -m pip install --quiet --no-deps -e .
	bash requirements/portable-pgvector.sh $(BIN)/python
	touch $(STAMP)

# Resolves pyproject.toml again, keeping the pins already in the lock files unless they no longer
# fit (`make lock UPGRADE=1` moves everything to the newest versions that fit).
lock:
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet uv==$(UV_VERSION)
	$(BIN)/uv pip compile pyproject.toml --quiet --generate-hashes --python-version 3.11 \
	  --custom-compile-command "make lock" $(if $(UPGRADE),--upgrade) -o $(LOCK_RUNTIME)
	$(BIN)/uv pip compile pyproject.toml --quiet --generate-hashes --python-version 3.11 --extra test \
	  -c $(LOCK_RUNTIME) --custom-compile-command "make lock" $(if $(UPGRADE),--upgrade) -o $(LOCK_TEST)

# Browser tests drive Debian's chromium; install it when we can (root with apt, as in CI).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing Debian's chromium for the browser tests..."; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else \
	    echo "NOTE: browser tests need Debian's chromium: sudo apt-get install chromium"; \
	  fi; }

stop:
	$(BIN)/python -m faultline stop

clean:
	-$(BIN)/python -m faultline stop
	rm -rf $(VENV) .faultline staticfiles
