# Sphere Sweep Explorer — the commands of the README's quick start:
#   make run    check the system, create .venv, install, open the explorer (SCENE=file.json for another scene)
#   make test   check the system (Xvfb too), create .venv, install with the test extra, run the whole test suite
#   make test-full  the same with every generated family at its full size (a nightly-style run, about twice as long)
#   make docs   check the system, create .venv, install with the docs extra, build the documentation site
#               into docs/_build/html (offline; warnings are errors, as when tests/docs/test_site.py builds it)
# Before anything else, `python3 -m explorer.system` (standard library only) checks what the
# system must provide: as root with apt-get it installs what is missing; otherwise it stops with
# one line giving the exact install command.  A half-made .venv is detected and built again.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
SCENE  ?=
SETUP   = $(PYTHON) -m explorer.system --venv $(VENV)
# make's own check that there is a Python to run the set-up with at all
HAVE_PYTHON = command -v $(PYTHON) >/dev/null 2>&1 || { \
	echo "make: $(PYTHON) not found; install with: sudo apt-get install -y python3 python3-venv" >&2; exit 2; }

.PHONY: run test test-full docs bench bench-explorer clean

run:
	@$(HAVE_PYTHON)
	@$(SETUP) run
	$(BIN)/sphere-explorer $(SCENE)

test:
	@$(HAVE_PYTHON)
	@$(SETUP) test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m pytest -n auto --dist loadfile

test-full:
	@$(HAVE_PYTHON)
	@$(SETUP) test
	$(BIN)/python -m pytest -n auto --dist loadfile --full

docs:
	@$(HAVE_PYTHON)
	@$(SETUP) docs
	$(BIN)/sphinx-build -W --keep-going -q -b html docs docs/_build/html
	@echo "make docs: the site is docs/_build/html/index.html"

bench:
	@$(HAVE_PYTHON)
	@$(SETUP) test
	$(BIN)/python benchmarks/bench_solver.py

bench-explorer:
	@$(HAVE_PYTHON)
	@$(SETUP) test
	$(BIN)/python benchmarks/bench_explorer.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis docs/_build
	find . -name __pycache__ -prune -exec rm -rf {} +
