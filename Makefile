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

DATA_DIR ?= var
SECRET_FILE := $(DATA_DIR)/secret_key
# The settings are production's unless told otherwise; a developer's machine gets DEBUG on and a
# secret key generated once into DATA_DIR (kept across runs, so sessions survive a restart). Values
# already in the environment win.
LOCAL_ENV = export DEBUG="$${DEBUG:-true}"; \
	if [ -z "$${SECRET_KEY:-}" ]; then \
		[ -s "$(SECRET_FILE)" ] || (mkdir -p "$(DATA_DIR)" && umask 077 && \
			$(BIN)/python -c "import secrets; print(secrets.token_urlsafe(64))" > "$(SECRET_FILE)"); \
		export SECRET_KEY="$$(cat "$(SECRET_FILE)")"; \
	fi;

migrate: $(STAMP)
	@$(LOCAL_ENV) $(BIN)/python manage.py migrate --noinput

# Web server, Celery worker and beat in one command (config/Procfile); Ctrl-C stops all three, and
# so does any one of them exiting. The static files are collected first, as in production.
run: migrate
	@$(LOCAL_ENV) $(BIN)/python manage.py collectstatic --noinput --verbosity 0
	@# honcho sets PORT for each process itself, so the web port travels as WEB_PORT.
	@# The three processes share their metrics through files, so /metrics shows the worker's too;
	@# the files of an earlier run would be counted again, so each run starts them afresh.
	@$(LOCAL_ENV) export HOST="$${HOST:-127.0.0.1}" WEB_PORT="$${PORT:-8000}" \
		PROMETHEUS_MULTIPROC_DIR="$(abspath $(DATA_DIR))/metrics"; \
		rm -rf "$$PROMETHEUS_MULTIPROC_DIR" && mkdir -p "$$PROMETHEUS_MULTIPROC_DIR"; \
		echo "serving on http://$$HOST:$$WEB_PORT"; \
		PATH="$(abspath $(BIN)):$$PATH" $(BIN)/honcho --procfile config/Procfile --app-root . start

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
	@$(LOCAL_ENV) $(BIN)/python manage.py createsuperuser

clean:
	rm -rf var/broker var/test_db.sqlite3* var/static
