"""Settings, all from the environment.

Production is the default: ``DEBUG`` is off unless set, and then ``SECRET_KEY`` must be set or the
settings refuse to load. ``make run`` sets ``DEBUG=true`` and a key of its own for a developer's
machine. No ``DATABASE_URL``: SQLite under ``DATA_DIR``. No ``CELERY_BROKER_URL``: a broker on the
local filesystem, so ``make run`` needs no server at all.
"""

from __future__ import annotations

import os
import sys
from datetime import timedelta
from pathlib import Path

import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured

from config.databases import database
from config.enums import ENUM_NAME_OVERRIDES

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

DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY", "").strip()
if not SECRET_KEY:
    if not DEBUG:
        # A default key in production would let anyone forge sessions and password-reset links.
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Set the SECRET_KEY environment variable to a long random value "
            "(or DEBUG=true on a developer's machine; `make run` does both itself)."
        )
    SECRET_KEY = "insecure-local-development-key-change-me"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost")
# Origins (scheme and host) allowed to POST forms with a session, such as the admin behind a proxy
# whose public name differs from the one the request arrives with.
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

# Behind a proxy that terminates TLS, the request arrives as plain HTTP: trust its X-Forwarded-Proto
# and X-Forwarded-Host only when told so, since a client reaching the server directly could forge them.
BEHIND_PROXY = env_bool("BEHIND_PROXY", False)
if BEHIND_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
USE_X_FORWARDED_HOST = env_bool("USE_X_FORWARDED_HOST", BEHIND_PROXY)

# Load balancers probe over plain HTTP inside the network; a redirect would read as "down".
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^metrics$"]
if not DEBUG:
    # HTTPS only. SECURE_SSL_REDIRECT=false serves plain HTTP, for a production-like run on one's own
    # machine; browsers still keep secure cookies for http://localhost.
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    # Per-device tokens with an expiry, revocable one by one or all at once (api/auth_views.py).
    "knox",
    "corsheaders",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "ledger",
    "games",
    # Disputed hands: filing, the auditors' queue, decisions and compensation (games/disputes/).
    "games.disputes",
    "api",
]

MIDDLEWARE = [
    # The reader's language from Accept-Language (a signed-in person's preference replaces it when
    # DRF authenticates them), with Content-Language and Vary on every answer, the error pages made
    # by the middleware below included.
    "api.languages.LanguageMiddleware",
    # Any HTML error page Django makes under /api/ becomes problem details (api/errors.py).
    "api.errors.JsonErrorsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Static files from the web process itself (the admin's CSS, the Swagger UI), before anything
    # that would touch the session or the database. It answers only under STATIC_URL.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before anything that can answer (CommonMiddleware's redirects, the views' 401s), so a browser's
    # preflight is answered without authentication and every answer to an allowed origin says so.
    "corsheaders.middleware.CorsMiddleware",
    # A control character in a path or query parameter is a 400 before any view (or CSRF check)
    # runs: PostgreSQL refuses NUL in text, and no parameter of the API holds one (api/errors.py).
    "api.errors.ControlCharactersMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # RateLimit and RateLimit-Policy on every answer a throttle counted (api/limits.py).
    "api.limits.RateLimitMiddleware",
]

# The benchmark serves its reference endpoint beside the API through its own urlconf.
CSRF_FAILURE_VIEW = "api.errors.csrf_failure"
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


# PostgreSQL connections come from a pool in each process (Django's own, psycopg_pool): a request
# or a task borrows one and gives it back when Django closes it (at the end of the request, before
# and after each task, after each stream read), so a process opens a handful of connections at
# start instead of one per request or task (6 to 7 ms of the server's CPU each). Sized per process
# (docs/operations.md, "Database and Redis connections"); DATABASE_POOL=false goes back to a connection of
# its own for each request or task (CONN_MAX_AGE then applies).
DATABASE_POOL = env_bool("DATABASE_POOL", True)
# A web process serves its requests' synchronous part (middleware and views) on this many threads
# (config/asgi.py), each borrowing a pooled connection while it works: with STREAM_READ_THREADS,
# the pool's ten by default. A long poll waits on a thread of its own, outside these.
WEB_THREADS = int(os.environ.get("WEB_THREADS", "6"))


DATABASES = {"default": database(data_dir=DATA_DIR, pool=DATABASE_POOL)}
# A worker process started by the tests points at the test database by name (its pool, made on
# first use from these settings, too).
if os.environ.get("DJANGO_DB_NAME"):
    DATABASES["default"]["NAME"] = os.environ["DJANGO_DB_NAME"]

# A PostgreSQL streaming replica of the primary, optional: the reads that need not see the very
# last commit go to it, a person who has just written is never served older data than they wrote
# (ledger/replica.py, docs/scaling.md). Without it, every read goes to the primary as before.
DATABASE_REPLICA_URL = os.environ.get("DATABASE_REPLICA_URL", "").strip()
if DATABASE_REPLICA_URL and DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3":
    DATABASES["replica"] = database(DATABASE_REPLICA_URL, alias="replica", data_dir=DATA_DIR, pool=DATABASE_POOL)
    # Under the tests the replica reads the test database, which replication brings it.
    DATABASES["replica"]["TEST"] = {"MIRROR": "default"}
    if os.environ.get("DJANGO_DB_NAME"):
        DATABASES["replica"]["NAME"] = os.environ["DJANGO_DB_NAME"]
    DATABASE_ROUTERS = ["ledger.replica.Router"]
    MIDDLEWARE.append("ledger.replica.RememberWrites")
# How long a read waits for the replica to replay a person's last write before it reads the
# primary instead, and how long that write's position is remembered.
REPLICA_WAIT_SECONDS = float(os.environ.get("REPLICA_WAIT_SECONDS", "0.5"))
REPLICA_REMEMBER_SECONDS = int(os.environ.get("REPLICA_REMEMBER_SECONDS", "300"))
# After the replica fails to answer, a process reads only the primary for this long.
REPLICA_RETRY_SECONDS = float(os.environ.get("REPLICA_RETRY_SECONDS", "10"))


def _forget_pools_in_child() -> None:
    """A forked process (gunicorn with --preload, a prefork worker) makes pools of its own: the
    parent's hold the parent's sockets and their threads did not survive the fork."""
    backend = sys.modules.get("django.db.backends.postgresql.base")
    if backend is not None:
        backend.DatabaseWrapper._connection_pools.clear()


os.register_at_fork(after_in_child=_forget_pools_in_child)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

# The languages a reader can choose (api/languages.py picks one per request: the user's preference,
# else Accept-Language, else English). Mexican Spanish answers `es`, `es-ES` and `es-MX` alike, and
# its catalogues fall back to Django's and DRF's own Spanish ones (gettext: es_MX, then es).
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("es-mx", "Español (México)"), ("fa", "فارسی")]
# Each game's catalogue sits in its own package and the engine's in the engine, found by listing the
# folders, so a new game's words need no change here. The Django apps' own locale/ folders are found
# by Django itself. The .po files are compiled to .mo by `manage.py compile_catalogues`.
LOCALE_PATHS = [
    BASE_DIR / "games" / "engine" / "locale",
    *sorted(folder for folder in (BASE_DIR / "games" / "rules").glob("*/locale") if folder.is_dir()),
]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Filled by `manage.py collectstatic` (make run does it before serving); whitenoise serves it. With
# DEBUG on, whitenoise also finds files in the apps themselves, so a fresh checkout needs no collect.
STATIC_ROOT = DATA_DIR / "static"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Collected files get a content hash in their name, so browsers may keep them forever, and a
    # compressed copy beside each.
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# Passwords are Django's (ModelBackend); a session opened at auth/session/ loads its person with
# their language preference in one statement (api/authentication.py's SessionBackend, named by it).
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "api.authentication.SessionBackend",
]

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # First, so a request without credentials is answered 401 with WWW-Authenticate: Token.
        "api.authentication.TokenAuthentication",
        # A same-origin browser app logged in at auth/session/; writes need the CSRF token.
        "api.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # JSON with every word in the reader's language (api/languages.py).
    "DEFAULT_RENDERER_CLASSES": ["api.languages.JSONRenderer"],
    # JSON with bounded nesting and number length (api/parsers.py).
    "DEFAULT_PARSER_CLASSES": ["api.parsers.StrictJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    "DEFAULT_THROTTLE_CLASSES": [
        # Counted in windows, locally while far from the limit (api/limits.py).
        "api.limits.AnonThrottle",
        "api.limits.UserThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("THROTTLE_ANON", "60/minute"),
        "user": os.environ.get("THROTTLE_USER", "1200/minute"),
        # auth/token/, auth/register/ and auth/session/ (api/limits.py): per address, and per username named.
        "login_address": os.environ.get("THROTTLE_LOGIN_ADDRESS", "30/minute"),
        "login_account": os.environ.get("THROTTLE_LOGIN_ACCOUNT", "10/minute"),
        # auth/password-reset/ per mail address asked for, from any client address (api/limits.py).
        "reset_address": os.environ.get("THROTTLE_RESET_ADDRESS", "3/hour"),
    },
    # How many proxies in front of us append to X-Forwarded-For; the client's address is the one
    # the outermost of them saw. 0: the header is ignored (anyone can write it) and the address is
    # the connection's own.
    "NUM_PROXIES": int(os.environ.get("NUM_PROXIES", "0")),
    "DEFAULT_PAGINATION_CLASS": "api.pagination.Cursor",
    "PAGE_SIZE": 50,
}
if DEBUG:
    REST_FRAMEWORK["DEFAULT_RENDERER_CLASSES"].append("rest_framework.renderers.BrowsableAPIRenderer")

# Tokens (django-rest-knox): one per device, stored only as a hash, each expiring TOKEN_TTL_HOURS
# after it was issued (30 days by default); a client logs in again for a new one.
TOKEN_TTL_HOURS = float(os.environ.get("TOKEN_TTL_HOURS", "720"))
# The most tokens one person holds at once: a login past it revokes their oldest token first.
MAX_TOKENS_PER_PERSON = int(os.environ.get("MAX_TOKENS_PER_PERSON", "20"))

# How many bots' turns in a row one task may play, each its own command (games.play.worker): a turn
# played in the chain saves a broker round trip and a task's read of the table. 1 is a task a turn.
BOT_MOVES_IN_A_ROW = int(os.environ.get("BOT_MOVES_IN_A_ROW", "20"))
# How many tables one person may own open or running at once (games.play.tables); a finished table
# no longer counts. One more is refused with 409 too_many_tables.
MAX_RUNNING_TABLES_PER_PERSON = int(os.environ.get("MAX_RUNNING_TABLES_PER_PERSON", "10"))

# Mail: the password reset links (api/password_reset.py). A developer's machine prints mails to the
# console (`make run`'s log); a server sends them through SMTP, set from the environment.
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend" if DEBUG else "django.core.mail.backends.smtp.EmailBackend",
)
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = float(os.environ.get("EMAIL_TIMEOUT", "10"))
# For django.core.mail.backends.filebased.EmailBackend: one file per mail in this folder.
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH", str(DATA_DIR / "mail"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "game-ledger@localhost")
# How long a reset link works; it also stops working once used or once the password changes.
PASSWORD_RESET_TIMEOUT = int(os.environ.get("PASSWORD_RESET_TIMEOUT", str(2 * 3600)))
# The web client's address as players reach it (the reset links point there); empty: the address
# the request came to, which Django has checked against ALLOWED_HOSTS.
PUBLIC_URL = os.environ.get("PUBLIC_URL", "").strip()
# Named so migrations that point at the token model (api's TokenDevice) can read it.
KNOX_TOKEN_MODEL = "knox.AuthToken"
REST_KNOX = {
    "TOKEN_TTL": timedelta(hours=TOKEN_TTL_HOURS),
    # Clients keep sending `Authorization: Token <key>`, as with the single tokens before.
    "AUTH_HEADER_PREFIX": "Token",
    "AUTO_REFRESH": False,
    "TOKEN_LIMIT_PER_USER": None,
}

# CORS for browser apps served from other origins: only the origins listed (scheme, host and port,
# comma-separated; none by default) may call the API from a browser, and only under /api/. Tokens
# travel in the Authorization header, so no cookies are allowed across origins.
CORS_ALLOWED_ORIGINS = env_list("CORS_ALLOWED_ORIGINS", "")
CORS_URLS_REGEX = r"^/api/.*$"
CORS_ALLOW_CREDENTIALS = False
CORS_ALLOW_HEADERS = [
    "accept",
    "authorization",
    "content-type",
    "idempotency-key",
    "if-none-match",
    "last-event-id",
    "x-request-id",
]
CORS_EXPOSE_HEADERS = ["ETag", "Idempotent-Replayed", "Retry-After", "X-Request-ID", "RateLimit", "RateLimit-Policy"]
CORS_PREFLIGHT_MAX_AGE = 3600

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
    # 3.1: JSON Schema proper, so the games' schemas generated from their own types fit as they are.
    "OAS_VERSION": "3.1.0",
    # Typed game components, operationIds, tags and the error on every operation (api/schema.py).
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "api.schema.postprocess"],
    # Every enum gets a name that says whose, not the field's alone (config/enums.py).
    "ENUM_NAME_OVERRIDES": ENUM_NAME_OVERRIDES,
}

CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    }
}
if os.environ.get("CACHE_URL", "").startswith("redis"):
    CACHES["default"] = {
        # Django's RedisCache with one client per process rather than one per thread, that is
        # per request (config/cache.py).
        "BACKEND": "config.cache.RedisCache",
        "LOCATION": os.environ["CACHE_URL"],
    }


# Celery. The local transport needs no server: producer and worker exchange messages through files
# under DATA_DIR, which is what `make run` uses on a fresh machine (config/broker.py says how it
# keeps a message whole).
def _broker() -> tuple[str, dict]:
    url = os.environ.get("CELERY_BROKER_URL", "").strip()
    if url:
        return url, {
            "visibility_timeout": BROKER_VISIBILITY_TIMEOUT,
            # A publish after a commit must not hang on a broker that is down or not answering (a
            # half-open connection, a stopped Redis): it fails within these and the outbox relay
            # sends the row later. The worker's BRPOP is polled by its event loop, not bound by these.
            "socket_connect_timeout": BROKER_SOCKET_TIMEOUT,
            "socket_timeout": BROKER_SOCKET_TIMEOUT,
            # A consumer on a half-open connection drops it after brpop_timeout + this.
            "health_check_interval": 5,
            # Every worker looks each second for messages a dead worker held (delivered longer than
            # the visibility timeout ago, never acknowledged) and puts them back on the queue; a
            # worker that starts does so at once. The lock of that scan expires quickly, so a worker
            # killed while holding it does not stop the others from scanning for minutes.
            "unacked_restore_interval": 1,
            "unacked_restore_throttle": 1,
            "unacked_mutex_expire": 5,
        }
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


# A message not acknowledged within this many seconds is delivered again (Redis, SQS): what a
# worker killed with kill -9 had taken comes back this soon. Every task is short and checks the
# table's version, so a second delivery of one still running or just done does nothing. No countdown
# may be longer than half of this, or the message is redelivered before it is due: longer waits are
# deadlines stored in the database and swept by beat within SWEEP_SECONDS.
BROKER_VISIBILITY_TIMEOUT = int(os.environ.get("BROKER_VISIBILITY_TIMEOUT", "10"))
# Seconds a broker connection or command may take before it counts as failed (the outbox relay then
# publishes later); the worker reconnects forever (below).
BROKER_SOCKET_TIMEOUT = float(os.environ.get("BROKER_SOCKET_TIMEOUT", "1.5"))
MAX_TASK_COUNTDOWN = min(300, BROKER_VISIBILITY_TIMEOUT // 2)
CELERY_BROKER_URL, CELERY_BROKER_TRANSPORT_OPTIONS = _broker()
CELERY_BROKER_CONNECTION_TIMEOUT = BROKER_SOCKET_TIMEOUT
# A worker or beat that loses the broker keeps trying to reconnect, at start too, rather than exit.
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_BEAT_SCHEDULE_FILENAME = str(DATA_DIR / "celerybeat-schedule")
# Entries marked run_in_beat run in beat's own process (config/beat.py); the others are sent to the
# workers, each expiring after its own interval, so a worker that comes back after a while runs one
# of them rather than every one queued while it was gone.
CELERY_BEAT_SCHEDULER = "config.beat:Scheduler"
SWEEP_SECONDS = float(os.environ.get("SWEEP_SECONDS", "1.0"))
CELERY_BEAT_SCHEDULE = {
    # Deadlines, stalled bot turns and the outbox relay (games.tasks.sweep_deadlines): in beat, so
    # they run with every worker down and are never queued.
    "sweep-deadlines": {
        "task": "games.tasks.sweep_deadlines",
        "schedule": SWEEP_SECONDS,
        "options": {"run_in_beat": True},
    },
}
# The outbox (games.scheduling, games.outbox). A table that awaits a bot and has not moved for this
# long since its bot turn was published gets it published again (a killed worker took the message).
STALLED_BOT_SECONDS = float(os.environ.get("STALLED_BOT_SECONDS", "5"))
# A table where no person is playing (every person's seat sat out, left or played for by the bot,
# or no person seated at all) has its bots' turns due this many seconds after the move before
# (games.play.execute): at most one bot move a second by default, rather than as fast as a worker
# can play. A turn goes out as a countdown task, so the pace is at most MAX_TASK_COUNTDOWN; 0 plays
# such a table's bots at once, as a table with a person playing always is.
BOT_PACE_SECONDS = min(float(os.environ.get("BOT_PACE_SECONDS", "1.0")), MAX_TASK_COUNTDOWN)
# The relay leaves rows this young to the commit that made them, which is publishing them.
OUTBOX_RELAY_AFTER_SECONDS = float(os.environ.get("OUTBOX_RELAY_AFTER_SECONDS", "1"))
# After a failed publish a process leaves new rows to the relay for this long, so a broker outage
# costs one request per process a timeout rather than every request.
OUTBOX_BROKER_BACKOFF_SECONDS = float(os.environ.get("OUTBOX_BROKER_BACKOFF_SECONDS", "2"))
# Published rows are kept this long (for the stalled-turn check and for an operator), then purged.
OUTBOX_KEEP_SECONDS = int(os.environ.get("OUTBOX_KEEP_SECONDS", "600"))
OUTBOX_PURGE_SECONDS = float(os.environ.get("OUTBOX_PURGE_SECONDS", "60"))
CELERY_BEAT_SCHEDULE["purge-outbox"] = {
    "task": "games.tasks.purge_outbox",
    "schedule": OUTBOX_PURGE_SECONDS,
    "options": {"expires": OUTBOX_PURGE_SECONDS},
}

# Game service settings.
SNAPSHOT_EVERY = int(os.environ.get("SNAPSHOT_EVERY", "100"))
# Amounts set per currency, each in the currency's own units ("EUR=1000.00,CLP=1000000,*=500"), read
# by ledger/per_currency.py, which refuses a bad value at start (docs/operations.md). The defaults
# are worth about 1,000 EUR (the two-person limits) and 10,000 EUR (the compensation budget) each.
_two_person_limits = (
    "EUR=1000.00,USD=1000.00,GBP=1000.00,CHF=1000.00,CAD=1500.00,MXN=20000.00,BRL=6000.00,"
    "ARS=1000000.00,COP=4500000.00,PEN=4000.00,CLP=1000000,JPY=150000,KRW=1500000,KWD=300.000,BHD=400.000"
)
_compensation_budgets = (
    "EUR=10000.00,USD=10000.00,GBP=10000.00,CHF=10000.00,CAD=15000.00,MXN=200000.00,BRL=60000.00,"
    "ARS=10000000.00,COP=45000000.00,PEN=40000.00,CLP=10000000,JPY=1500000,KRW=15000000,KWD=3000.000,"
    "BHD=4000.000"
)
# Payouts (and dispute compensations, summed per hand or table) above this need two approvers.
PAYOUT_TWO_PERSON_LIMIT = os.environ.get("PAYOUT_TWO_PERSON_LIMIT", _two_person_limits)
# Deposits above this wait for a second member of staff (docs/api.md).
DEPOSIT_TWO_PERSON_LIMIT = os.environ.get("DEPOSIT_TWO_PERSON_LIMIT", _two_person_limits)
PAYOUT_AUTO_APPROVE_BELOW = os.environ.get("PAYOUT_AUTO_APPROVE_BELOW", "0")
# A player may dispute a finished hand (or its payout) this many days after it ended (docs/api.md).
DISPUTE_WINDOW_DAYS = int(os.environ.get("DISPUTE_WINDOW_DAYS", "30"))
# How far (per currency, in its units) the house compensation account may go below zero: disputes
# are compensated within it and reconcile checks it (games/disputes/bounds.py, docs/operations.md).
DISPUTE_COMPENSATION_BUDGET = os.environ.get("DISPUTE_COMPENSATION_BUDGET", _compensation_budgets)
LONG_POLL_MAX_SECONDS = float(os.environ.get("LONG_POLL_MAX_SECONDS", "25"))
# A waiting request holds a web thread: one person may hold this many at once (api/limits.py).
LONG_POLL_MAX_PER_USER = int(os.environ.get("LONG_POLL_MAX_PER_USER", "2"))
# Live streams (api/streams.py, games/notify.py): a comment this often keeps proxies from closing an
# idle stream; a browser waits STREAM_RETRY_MS before reconnecting; one person holds at most this
# many streams at once; a person's stream warns this many seconds before their turn's deadline.
STREAM_HEARTBEAT_SECONDS = float(os.environ.get("STREAM_HEARTBEAT_SECONDS", "15"))
STREAM_RETRY_MS = int(os.environ.get("STREAM_RETRY_MS", "3000"))
STREAMS_MAX_PER_USER = int(os.environ.get("STREAMS_MAX_PER_USER", "8"))
# A table stream asked to resume more than this many events behind the table is refused with the
# events endpoint to catch up from (api/streams.py): a stream never replays a long history.
STREAM_RESUME_LIMIT = int(os.environ.get("STREAM_RESUME_LIMIT", "500"))
# Spectator streams (no seat, not the owner) of one table that one web process serves at once.
STREAM_SPECTATORS_PER_TABLE = int(os.environ.get("STREAM_SPECTATORS_PER_TABLE", "500"))
DEADLINE_WARNING_SECONDS = float(os.environ.get("DEADLINE_WARNING_SECONDS", "10"))
# Streams read events on this many threads per web process. Without a pool each keeps its database
# connection (off: a connection per read, closed after it; the tests, whose database is dropped at
# the end); with the pool each read borrows a connection and gives it back, so the reading threads
# hold none while the streams are idle.
STREAM_READ_THREADS = int(os.environ.get("STREAM_READ_THREADS", "4"))
STREAM_KEEP_CONNECTIONS = env_bool("STREAM_KEEP_CONNECTIONS", "pool" not in DATABASES["default"].get("OPTIONS", {}))
# Request bodies: larger ones are refused 413 before they are read (Django's own limit, 2.5 MiB by
# default; api/errors.py answers it); deeper JSON or longer numbers are refused before they are
# built (api/parsers.py).
DATA_UPLOAD_MAX_MEMORY_SIZE = int(os.environ.get("DATA_UPLOAD_MAX_MEMORY_SIZE", str(2_621_440)))
JSON_MAX_DEPTH = int(os.environ.get("JSON_MAX_DEPTH", "20"))
JSON_MAX_NUMBER_DIGITS = int(os.environ.get("JSON_MAX_NUMBER_DIGITS", "30"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}


# --- Operability (issue 11): probes, metrics, JSON logs with a request id, idempotency TTL --------
# Kept in one block at the end so it changes nothing above it: middleware and the beat schedule are
# extended here, and LOGGING is replaced.

# First, so the request id and the latency cover every other middleware (and their refusals).
MIDDLEWARE.insert(0, "config.observability.RequestMiddleware")

# An idempotency record replays its first answer for this long; after it, the key is a new command.
IDEMPOTENCY_TTL_SECONDS = int(os.environ.get("IDEMPOTENCY_TTL_SECONDS", "86400"))
IDEMPOTENCY_PURGE_SECONDS = float(os.environ.get("IDEMPOTENCY_PURGE_SECONDS", "3600"))
CELERY_BEAT_SCHEDULE["purge-idempotency-records"] = {
    "task": "games.tasks.purge_idempotency_records",
    "schedule": IDEMPOTENCY_PURGE_SECONDS,
    "options": {"expires": IDEMPOTENCY_PURGE_SECONDS},
}
# The events' partitions of the coming months (games.partitions), made a day at a time ahead of need.
HISTORY_PARTITIONS_SECONDS = float(os.environ.get("HISTORY_PARTITIONS_SECONDS", "86400"))
CELERY_BEAT_SCHEDULE["prepare-history-partitions"] = {
    "task": "games.tasks.prepare_history_partitions",
    "schedule": HISTORY_PARTITIONS_SECONDS,
    "options": {"expires": HISTORY_PARTITIONS_SECONDS},
}
# Expired API tokens are deleted when presented; beat deletes the ones nobody presents again.
TOKEN_PURGE_SECONDS = float(os.environ.get("TOKEN_PURGE_SECONDS", "3600"))
CELERY_BEAT_SCHEDULE["purge-expired-tokens"] = {
    "task": "api.tasks.purge_expired_tokens",
    "schedule": TOKEN_PURGE_SECONDS,
    "options": {"expires": TOKEN_PURGE_SECONDS},
}

# json for machines (the default), text for a person reading a terminal (the default with DEBUG on).
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text" if DEBUG else "json").strip().lower()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request_id": {"()": "config.logs.RequestIdFilter"},
        "sweep_at_debug": {"()": "config.logs.SweepAtDebug"},
    },
    "formatters": {
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s %(request_id)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
        "text": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "json" if LOG_FORMAT == "json" else "text",
            "filters": ["request_id"],
        }
    },
    "loggers": {
        # Beat says "Sending due task" for the sweep every SWEEP_SECONDS.
        "celery.beat": {"level": "WARNING"},
        "celery.app.trace": {"filters": ["sweep_at_debug"]},
        "celery.worker.strategy": {"filters": ["sweep_at_debug"]},
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
