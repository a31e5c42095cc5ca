"""The API served as `make run` serves it (uvicorn, DEBUG on, SQLite and the file broker in a fresh
DATA_DIR), as a subprocess on a free port, with a staff member's token: for the tools that test it
from outside (schemathesis, a generated client)."""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Server:
    url: str
    token: str
    data_dir: Path


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _env(data_dir: Path) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        # This server's own database, broker and cache, never the ones the test run uses.
        if key not in ("DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL", "DJANGO_SETTINGS_MODULE", "DJANGO_DB_NAME")
    }
    env.update(
        DEBUG="true",
        SECRET_KEY=secrets.token_urlsafe(64),
        DATA_DIR=str(data_dir),
        DJANGO_SETTINGS_MODULE="config.settings",
        # Tools send thousands of requests; the limits are tested elsewhere.
        THROTTLE_ANON="1000000/minute",
        THROTTLE_USER="1000000/minute",
        THROTTLE_LOGIN_ADDRESS="1000000/minute",
        THROTTLE_LOGIN_ACCOUNT="1000000/minute",
        # Mails (password reset links) as files a test can read.
        EMAIL_BACKEND="django.core.mail.backends.filebased.EmailBackend",
        EMAIL_FILE_PATH=str(data_dir / "mail"),
    )
    # The desks' tests are written around a two-person limit of 1,000.00 MXN (payouts and
    # compensations above it wait for a second approver), below the per-currency default.
    for name in ("PAYOUT_TWO_PERSON_LIMIT", "DEPOSIT_TWO_PERSON_LIMIT"):
        env.setdefault(name, "MXN=1000.00,*=1000")
    return env


def manage(server: Server, *args: str) -> subprocess.CompletedProcess[str]:
    """``manage.py <args>`` against the served database (a role given, ``reconcile`` run), as an
    operator runs it beside the service; the completed process, its output captured."""
    env = _env(server.data_dir)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )


@contextlib.contextmanager
def serve(data_dir: Path, *, worker: bool = False) -> Iterator[Server]:
    """The web process; with ``worker``, Celery's worker and beat beside it (bots, timers), as
    config/Procfile runs them."""
    env = _env(data_dir)
    python = sys.executable
    subprocess.run([python, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    script = (
        "from django.contrib.auth import get_user_model;"
        "from knox.models import AuthToken;"
        "u = get_user_model().objects.create_user(username='contract', password=None, is_staff=True);"
        "print('TOKEN=' + AuthToken.objects.create(u)[1])"
    )
    out = subprocess.run(
        [python, "manage.py", "shell", "-c", script], cwd=ROOT, env=env, check=True, capture_output=True, text=True
    ).stdout
    token = next(line[6:] for line in out.splitlines() if line.startswith("TOKEN="))
    port = _free_port()
    log = open(data_dir / "server.log", "w")  # noqa: SIM115 - closed below
    process = subprocess.Popen(
        [python, "-m", "uvicorn", "config.asgi:application", "--port", str(port), "--log-level", "warning"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    helpers = []
    if worker:
        bin_dir = Path(python).parent
        for command in (
            [str(bin_dir / "celery"), "-A", "config", "worker", "--pool=threads", "--concurrency=2", "-l", "WARNING"],
            [str(bin_dir / "celery"), "-A", "config", "beat", "-l", "WARNING", "-s", str(data_dir / "beat-schedule")],
        ):
            helpers.append(subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT))
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(150):
            try:
                with urllib.request.urlopen(url + "/healthz", timeout=1):
                    break
            except OSError:
                if process.poll() is not None:
                    raise RuntimeError((data_dir / "server.log").read_text()) from None
                time.sleep(0.2)
        yield Server(url=url, token=token, data_dir=data_dir)
    finally:
        for child in (process, *helpers):
            child.terminate()
        for child in (process, *helpers):
            try:
                child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                child.kill()
        log.close()
