# The two commands: `make run` serves the API with a worker and beat; `make test` runs the suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Three layers, each installed once into the same .venv: what the service runs (`make run`), what
# the tests and lint add (`make test`), and the peers the benchmarks measure against (`make bench`).
# A stamp per layer: switching between the commands never installs a layer again unless its
# requirements file changed, and pip leaves what is already there as it is.
BASE := $(VENV)/.installed-base
DEV := $(VENV)/.installed-dev
BENCH := $(VENV)/.installed-bench

.PHONY: run test test-all bench lint format migrate superuser clean catalogues messages

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(BASE): $(BIN)/python requirements/base.txt
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements/base.txt
	touch $@

$(DEV): $(BASE) requirements/dev.txt
	$(BIN)/python -m pip install --quiet -r requirements/dev.txt
	touch $@

$(BENCH): $(DEV) requirements/bench.txt
	$(BIN)/python -m pip install --quiet -r requirements/bench.txt
	touch $@

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

migrate: $(BASE)
	@$(LOCAL_ENV) $(BIN)/python manage.py migrate --noinput

# The translation catalogues (.po, committed) compiled to .mo (built, not committed), in pure Python.
# Only a catalogue newer than its .mo is compiled again.
catalogues: $(BASE)
	@$(LOCAL_ENV) $(BIN)/python manage.py compile_catalogues --verbosity 0

# The messages of each package (T and N of games/engine/words.py, Django's gettext) extracted into
# its own catalogues, for every language but English (docs/translations.md). The engine and each
# game keep their catalogue in their own package, the Django apps in theirs.
MESSAGE_LANGUAGES := es_MX fa
MESSAGE_PACKAGES := games api ledger games/engine $(wildcard games/rules/*)
messages: $(DEV)
	@for package in $(MESSAGE_PACKAGES); do \
		[ -d "$$package" ] && [ "$$(basename $$package)" != "__pycache__" ] || continue; \
		ignore="migrations locale __pycache__"; \
		[ "$$package" = games ] && ignore="$$ignore engine rules"; \
		pot="$$(mktemp)"; \
		$(BIN)/pybabel -q extract --no-default-keywords -k T -k N:1,2 -k _ -k gettext -k gettext_lazy \
			-k gettext_noop -k ngettext:1,2 -k ngettext_lazy:1,2 -k pgettext:1c,2 -k pgettext_lazy:1c,2 \
			--ignore-dirs="$$ignore" --sort-by-file --no-wrap --project=game-ledger --version=1 -o "$$pot" "$$package" || exit 1; \
		if grep -q '^msgid "[^"]' "$$pot"; then \
			for language in $(MESSAGE_LANGUAGES); do \
				$(BIN)/pybabel -q update --init-missing --ignore-obsolete --no-wrap -N -i "$$pot" -d "$$package/locale" -D django -l $$language || exit 1; \
			done; \
		fi; \
		rm -f "$$pot"; \
	done
	@# The web client's words (api/static/web/, the page's own modules) go to the api app's djangojs
	@# catalogue, which /jsi18n/ serves: t() and nt() of i18n.js, and Django's gettext/ngettext.
	@pot="$$(mktemp)"; \
	$(BIN)/pybabel -q extract -F config/babel-web.cfg --no-default-keywords -k t -k gettext -k ngettext:1,2 -k nt:1,2 \
		--ignore-dirs="vendor" --sort-by-file --no-wrap --project=game-ledger --version=1 -o "$$pot" api/static/web || exit 1; \
	for language in $(MESSAGE_LANGUAGES); do \
		$(BIN)/pybabel -q update --init-missing --ignore-obsolete --no-wrap -N -i "$$pot" -d api/locale -D djangojs -l $$language || exit 1; \
	done; \
	rm -f "$$pot"
	@$(MAKE) --no-print-directory catalogues

# Web server, Celery worker and beat in one command, under supervisord (config/supervisord.conf): a
# process that dies is started again while the others keep serving; Ctrl-C (or SIGTERM to make)
# stops all three. The static files are collected first, as in production.
run: migrate catalogues
	@$(LOCAL_ENV) $(BIN)/python manage.py collectstatic --noinput --verbosity 0
	@# The three processes share their metrics through files, so /metrics shows the worker's too;
	@# the files of an earlier run would be counted again, so each run starts them afresh.
	@# supervisord is exec'd: make passes its SIGTERM to its child, which is then supervisord itself.
	@$(LOCAL_ENV) export HOST="$${HOST:-127.0.0.1}" WEB_PORT="$${PORT:-8000}" DATA_DIR="$(abspath $(DATA_DIR))" \
		PROMETHEUS_MULTIPROC_DIR="$(abspath $(DATA_DIR))/metrics"; \
		rm -rf "$$PROMETHEUS_MULTIPROC_DIR" && mkdir -p "$$PROMETHEUS_MULTIPROC_DIR"; \
		echo "serving on http://$$HOST:$$WEB_PORT"; \
		PATH="$(abspath $(BIN)):$$PATH" exec $(BIN)/supervisord --nodaemon --configuration config/supervisord.conf

# The suite on every core (pytest-xdist; each worker with its own databases, DATA_DIR and Celery
# queue, tests/settings.py), then the tests that start a whole production shape or a browser one at
# a time, as they would fight the others for the two cores of a small machine. Both print their
# ten slowest tests; a fast-suite test over 10 s fails (tests/conftest.py). A phase that selects no
# test (pytest's exit 5, say with PYTEST_ARGS naming one file) is no failure. `make test-all` adds
# the long tests, as CI (CI=true) does.
TEST_WORKERS ?= auto
ALONE := production or browser
test: $(DEV) catalogues
	@$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal --durations=10 -m "not ($(ALONE))" $(PYTEST_ARGS) || [ $$? -eq 5 ]
	@$(BIN)/python -m pytest -p no:xdist --durations=10 -m "$(ALONE)" $(PYTEST_ARGS) || [ $$? -eq 5 ]

test-all:
	@LONG_TESTS=1 $(MAKE) --no-print-directory test

bench: $(BENCH)
	@for script in tests/benchmarks/bench_*.py; do \
		echo "== $$script"; $(BIN)/python $$script || exit 1; \
	done

# Style, the direction of imports (pyproject's import-linter contracts) and types (mypy, strict on
# the engine, the rules and the ledger): the same three guards locally and in CI.
lint: $(DEV)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-logo
	$(BIN)/mypy

format: $(DEV)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

superuser: migrate
	@$(LOCAL_ENV) $(BIN)/python manage.py createsuperuser

clean:
	rm -rf var/broker var/test_db.sqlite3* var/static
