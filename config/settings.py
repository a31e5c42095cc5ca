"""Settings, all from the environment, with safe defaults for a developer's machine.

No ``DATABASE_URL``: SQLite under ``DATA_DIR``. No ``CELERY_BROKER_URL``: a broker on the local
filesystem, so ``make run`` needs no server at all.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
import django_stubs_ext

# Lets admin classes name their model (ModelAdmin[Payout]) for mypy at run time too.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DATA_DIR = Path(os.environ.get("DATA_DIR", BASE_DIR / "var")).resolve()
DATA_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = env_bool("DEBUG", True)
# The default key is only good for a developer's machine; production sets SECRET_KEY.
SECRET_KEY = os.environ.get("SECRET_KEY", "insecure-local-development-key-change-me")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "ledger",
    "games",
    "api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

# The benchmark serves its reference endpoint beside the API through its own urlconf.
ROOT_URLCONF = os.environ.get("ROOT_URLCONF", "config.urls")
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]


def _database() -> dict:
    url = os.environ.get("DATABASE_URL", "").strip()
    if url:
        # Under ASGI each request runs in a thread of its own, so a persistent connection outlives
        # its thread unclosed: web processes served by uvicorn set CONN_MAX_AGE=0.
        config = dj_database_url.parse(url, conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")))
        config.setdefault("TEST", {})
        return config
    # SQLite is shared by the web process and the worker: WAL lets readers run beside the one
    # writer, and the busy timeout makes a writer wait instead of failing with "database is locked".
    # IMMEDIATE transactions take the write lock at BEGIN, so two writers never deadlock on upgrade.
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(DATA_DIR / "db.sqlite3"),
        "OPTIONS": {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        },
        # A file, not memory, so a worker process started by the tests sees the test database.
        "TEST": {"NAME": str(DATA_DIR / "test_db.sqlite3")},
    }


DATABASES = {"default": _database()}
# A worker process started by the tests points at the test database by name.
if os.environ.get("DJANGO_DB_NAME"):
    DATABASES["default"]["NAME"] = os.environ["DJANGO_DB_NAME"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = DATA_DIR / "static"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.AnonRateThrottle",
        "rest_framework.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("THROTTLE_ANON", "60/minute"),
        "user": os.environ.get("THROTTLE_USER", "1200/minute"),
    },
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 50,
}
if DEBUG:
    REST_FRAMEWORK["DEFAULT_RENDERER_CLASSES"].append("rest_framework.renderers.BrowsableAPIRenderer")

SPECTACULAR_SETTINGS = {
    "TITLE": "Game ledger API",
    "DESCRIPTION": "Card tables played by people and bots; every action an event, every chip in a ledger.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Served from the sidecar package so the docs page loads nothing from outside.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
}

CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    }
}
if os.environ.get("CACHE_URL", "").startswith("redis"):
    CACHES["default"] = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": os.environ["CACHE_URL"],
    }


# Celery. The local transport needs no server: producer and worker exchange messages through files
# under DATA_DIR, which is what `make run` uses on a fresh machine (config/broker.py says how it
# keeps a message whole).
def _broker() -> tuple[str, dict]:
    url = os.environ.get("CELERY_BROKER_URL", "").strip()
    if url:
        return url, {"visibility_timeout": BROKER_VISIBILITY_TIMEOUT}
    folder = Path(os.environ.get("CELERY_BROKER_DIR", DATA_DIR / "broker"))
    (folder / "out").mkdir(parents=True, exist_ok=True)
    (folder / "processed").mkdir(parents=True, exist_ok=True)
    return "localfs://", {
        "data_folder_in": str(folder / "out"),
        "data_folder_out": str(folder / "out"),
        "processed_folder": str(folder / "processed"),
        "control_folder": str(folder / "control"),
        "staging_folder": str(folder / "staging"),
        "rejected_folder": str(folder / "rejected"),
        "store_processed": False,
        # The worker looks for new message files this often; a bot answers within this delay.
        "polling_interval": float(os.environ.get("BROKER_POLLING_INTERVAL", "0.1")),
    }


# A message not acknowledged within this many seconds is delivered again (Redis, SQS). No countdown
# may be longer than this, or the message is redelivered before it is due: longer waits are deadlines
# stored in the database and swept by beat.
BROKER_VISIBILITY_TIMEOUT = int(os.environ.get("BROKER_VISIBILITY_TIMEOUT", "3600"))
MAX_TASK_COUNTDOWN = min(300, BROKER_VISIBILITY_TIMEOUT // 2)
CELERY_BROKER_URL, CELERY_BROKER_TRANSPORT_OPTIONS = _broker()
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_BEAT_SCHEDULE_FILENAME = str(DATA_DIR / "celerybeat-schedule")
SWEEP_SECONDS = float(os.environ.get("SWEEP_SECONDS", "1.0"))
CELERY_BEAT_SCHEDULE = {
    "sweep-deadlines": {"task": "games.tasks.sweep_deadlines", "schedule": SWEEP_SECONDS},
}

# Game service settings.
SNAPSHOT_EVERY = int(os.environ.get("SNAPSHOT_EVERY", "100"))
PAYOUT_TWO_PERSON_LIMIT = int(os.environ.get("PAYOUT_TWO_PERSON_LIMIT", "100000"))  # minor units
PAYOUT_AUTO_APPROVE_BELOW = int(os.environ.get("PAYOUT_AUTO_APPROVE_BELOW", "0"))
LONG_POLL_MAX_SECONDS = float(os.environ.get("LONG_POLL_MAX_SECONDS", "25"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
