"""The tests' settings: the production settings, with the environment a test run needs.

Tests run with DEBUG off, as production does, so they need a key of their own; the test client
speaks plain HTTP, so the redirect to HTTPS is off. The environment still wins (CI sets its
database and broker), and a worker process started by the tests inherits these values.
"""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("SECRET_KEY", "tests-only-key-not-secret-0123456789-abcdefghijklmnopqrstuvwxyz")
os.environ.setdefault("SECURE_SSL_REDIRECT", "false")

# `make test` runs the suite on several workers (pytest-xdist). Each has its own DATA_DIR (SQLite
# database, local broker, sockets, mail) and its own Celery queue; pytest-django gives each its own
# test databases. A process a test starts inherits the worker's name, and with it the same folder
# and queue.
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
if XDIST_WORKER:
    _base = Path(os.environ.get("DATA_DIR") or Path(__file__).resolve().parent.parent / "var")
    if _base.name != XDIST_WORKER:
        os.environ["DATA_DIR"] = str(_base / XDIST_WORKER)

from config.settings import *  # noqa: E402, F403

# Templates name static files through the storage; the production one looks names up in the
# manifest that collectstatic writes, which a test run does not make. tests/api/test_static.py
# collects and serves with the production storage.
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Whitenoise warns at start when the folder it serves is missing; a test run collects nothing.
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # noqa: F405
# Stream reads close their connection after each read: a kept one would outlive the test database.
STREAM_KEEP_CONNECTIONS = False
# Passwords hashed quickly: production's hasher (PBKDF2, a million rounds) is a third of a second a
# login, by design, and the suite logs in thousands of times. Production's settings keep theirs; the
# processes of the production shape tests run with them.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
if XDIST_WORKER:
    CELERY_TASK_DEFAULT_QUEUE = f"tests-{XDIST_WORKER}"
