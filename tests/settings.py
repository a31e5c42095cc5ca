"""The tests' settings: the production settings, with the environment a test run needs.

Tests run with DEBUG off, as production does, so they need a key of their own; the test client
speaks plain HTTP, so the redirect to HTTPS is off. The environment still wins (CI sets its
database and broker), and a worker process started by the tests inherits these values.
"""

from __future__ import annotations

import os

os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("SECRET_KEY", "tests-only-key-not-secret-0123456789-abcdefghijklmnopqrstuvwxyz")
os.environ.setdefault("SECURE_SSL_REDIRECT", "false")

from config.settings import *  # noqa: F403

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
