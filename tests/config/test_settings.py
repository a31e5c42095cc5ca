"""The settings as production loads them: in a fresh process, from the environment alone."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Only what a shell would carry; none of the tests' own settings or defaults.
BASE_ENV = {
    key: value
    for key, value in os.environ.items()
    if key in {"PATH", "HOME", "LANG", "DATABASE_URL", "CELERY_BROKER_URL", "DATA_DIR"}
}


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**BASE_ENV, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_settings_pass_the_deploy_checks():
    result = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(64),
        ALLOWED_HOSTS="games.example.com",
        BEHIND_PROXY="true",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout, result.stdout + result.stderr
    assert "WARNINGS" not in result.stdout + result.stderr


def test_debug_off_without_a_secret_key_refuses_to_load():
    result = manage("check", DEBUG="false")
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "SECRET_KEY is not set" in result.stderr


def test_debug_is_off_unless_set():
    result = manage("shell", "-c", "from django.conf import settings; print(settings.DEBUG)", SECRET_KEY="k" * 60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "False"
