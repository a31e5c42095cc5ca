# The two commands: `make run` serves the API with a worker and beat; `make test` runs the suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench lint format migrate superuser clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python requirements/base.txt requirements/dev.txt requirements/bench.txt
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements/bench.txt
	touch $(STAMP)

migrate: $(STAMP)
	$(BIN)/python manage.py migrate --noinput

# Web server, Celery worker and beat in one command; Ctrl-C stops all three.
run: migrate
	@# honcho sets PORT for each process itself, so the web port travels as WEB_PORT.
	WEB_PORT=$${PORT:-8000} PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/honcho --procfile config/Procfile --app-root . start

test: $(STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: $(STAMP)
	@for script in tests/benchmarks/bench_*.py; do \
		echo "== $$script"; $(BIN)/python $$script || exit 1; \
	done

# Style, the direction of imports (pyproject's import-linter contracts) and types (mypy, strict on
# the engine, the rules and the ledger): the same three guards locally and in CI.
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-logo
	$(BIN)/mypy

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

superuser: migrate
	$(BIN)/python manage.py createsuperuser

clean:
	rm -rf var/broker var/test_db.sqlite3*
