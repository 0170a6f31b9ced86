# Two commands: `make run` and `make test`. Both set up everything they need from a fresh clone;
# only Python 3.11+, gcc and cmake are assumed.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
STAMP := $(VENV)/.installed
TEST_STATE := $(CURDIR)/.faultline/test

# llama-cpp-python compiles from source; the default native build crashes on CPUs with AMX,
# so build a portable one.
export CMAKE_ARGS := -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON

.PHONY: run test install browser stop clean

run: install
	FAULTLINE_PORT=$(PORT) $(BIN)/python -m faultline run

test: install browser
	@FAULTLINE_STATE_DIR=$(TEST_STATE) $(BIN)/python -m pytest $(PYTEST_ARGS); status=$$?; \
	FAULTLINE_STATE_DIR=$(TEST_STATE) $(BIN)/python -m faultline stop; exit $$status

install: $(STAMP)

$(STAMP): pyproject.toml requirements.lock
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Faultline needs Python 3.11 or newer (found %s)" % sys.version.split()[0])'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $(STAMP)

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
