# Sphere Sweep Explorer — the two commands of the README's quick start:
#   make run    create .venv, install, open the explorer on the default scene
#   make test   create .venv, install with the test extra, run the whole test suite
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: run test bench bench-explorer clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

run: $(VENV)/.installed-run
	$(BIN)/sphere-explorer

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest

bench: $(VENV)/.installed-test
	$(BIN)/python benchmarks/bench_solver.py

bench-explorer: $(VENV)/.installed-test
	$(BIN)/python benchmarks/bench_explorer.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
	find . -name __pycache__ -prune -exec rm -rf {} +
