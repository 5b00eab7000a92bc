"""Settings for the BA Platform, read from the environment (and `.env`) through django-environ.

Every default is an embedded one so the demo runs with no services: SQLite, the
in-memory channel layer, local file storage. `.env.example` documents each variable.
"""

from __future__ import annotations

import secrets
from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
# BA_READ_DOTENV=false: settings come from the process environment only (deploy/run sets it).
if env.bool("BA_READ_DOTENV", default=True):
    environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DATA_DIR = Path(env.str("BA_DATA_DIR", default=str(BASE_DIR / ".data"))).resolve()
DATA_DIR.mkdir(parents=True, exist_ok=True)


def _secret_key() -> str:
    """SECRET_KEY from the environment, else one generated once and kept in the data directory."""
    if key := env.str("SECRET_KEY", default=""):
        return key
    path = DATA_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "baplatform.apps.PortalStaticFilesConfig",
    "rest_framework",
    "channels",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "apps.tenants",
    "apps.datasets",
    "apps.agent",
    "apps.audit",
    "apps.conversations",
]

MIDDLEWARE = [
    "apps.observability.middleware.TraceMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "apps.tenants.middleware.PortalTenantMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "baplatform.urls"
WSGI_APPLICATION = "baplatform.wsgi.application"
ASGI_APPLICATION = "baplatform.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "apps.tenants.context_processors.tenant",
            ],
        },
    },
]

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{DATA_DIR / 'db.sqlite3'}")}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets the server read while an ingest writes; a busy timeout avoids spurious "database is locked".
    # IMMEDIATE: a transaction takes the write lock when it begins, waiting out the busy timeout. A deferred
    # one that reads first and writes later fails at once if another thread wrote meanwhile (concurrent asks
    # on different conversations did: "database is locked"), and select_for_update is a no-op on SQLite.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
        }
    )
    # A file (not in-memory) test database, so tests can share it with a real server process.
    DATABASES["default"]["TEST"] = {"NAME": str(DATA_DIR / "test_db.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env.str("REDIS_URL", default="")
if REDIS_URL:
    # socket_timeout None: redis-py 8 reads with a 5 s timeout by default, which ends the layer's blocking
    # 5 s BZPOPMIN on an idle socket with TimeoutError, so Channels closed every idle WebSocket (1011).
    # capacity: all sockets of one process share one Redis list, and a message sent to a full list is
    # dropped; the default (100) lost run events when a busy process drained its list late.
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": None}], "capacity": 5000},
        }
    }
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", "简体中文"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "baplatform" / "locale"]
TIME_ZONE = env.str("TIME_ZONE", default="Asia/Shanghai")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = DATA_DIR / "staticfiles"
MEDIA_URL = "media/"
MEDIA_ROOT = DATA_DIR / "media"
# Each tenant's uploads and columnar files live under TENANT_DATA_ROOT/<tenant id>/.
TENANT_DATA_ROOT = DATA_DIR / "tenants"
# SQLite files that tenants may register as SQL sources: only under SQLITE_SOURCES_ROOT/<tenant slug>/,
# opened read-only (a tenant must not reach other files on the server, such as the platform's own database).
SQLITE_SOURCES_ROOT = Path(env.str("SQLITE_SOURCES_ROOT", default=str(DATA_DIR / "sqlite-sources"))).resolve()
# Connection tests (registering or changing a SQL source, or testing it again) per tenant and minute:
# each one makes the platform connect to a host the tenant names, so they are counted.
SOURCE_CONNECTION_TESTS_PER_MINUTE = env.int("SOURCE_CONNECTION_TESTS_PER_MINUTE", default=10)

# The largest WebSocket message a conversation socket reads (UTF-8 bytes): a bigger one is answered with a
# frame_too_large error and the socket closed (4413). Below daphne's own cap (1 MiB, --websocket-max-message-size),
# so the application answers first; baplatform.serve makes daphne answer the bigger ones too.
WS_MAX_MESSAGE_BYTES = env.int("WS_MAX_MESSAGE_BYTES", default=64 * 1024)
# A conversation's verified answer is sent in answer.delta events of a few words each before its run.finished;
# the socket relaying them types them out over at most this many seconds (0: no pause, as in the tests). The run
# emits them at once, so its worker does not wait.
ANSWER_STREAM_SECONDS = env.float("ANSWER_STREAM_SECONDS", default=0.6)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "apps.tenants.authentication.BearerTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["apps.tenants.permissions.HasTenantScope"],
    "DEFAULT_THROTTLE_CLASSES": ["apps.tenants.throttling.PerTokenRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "token": env.str("API_THROTTLE_RATE", default="600/min"),
        # Questions (each starts a run), over REST and WebSocket alike: per user or token, and per tenant.
        "ask": env.str("ASK_THROTTLE_RATE", default="20/min"),
        "ask_tenant": env.str("ASK_TENANT_THROTTLE_RATE", default="120/min"),
    },
    # Date-times with their offset in the caller's tenant's time zone (TIME_ZONE when none), as the portal shows them.
    "DEFAULT_RENDERER_CLASSES": [
        "baplatform.renderers.LocalTimeJSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_PAGINATION_CLASS": "baplatform.pagination.Pagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "baplatform.api_errors.api_exception_handler",
    "DEFAULT_SCHEMA_CLASS": "baplatform.schema.TenantAutoSchema",
    "UNAUTHENTICATED_USER": None,
}

# The OpenAPI schema (/api/schema/) and its browsable docs (/api/docs/), served with local assets.
SPECTACULAR_SETTINGS = {
    "TITLE": "BA Platform API",
    "DESCRIPTION": "Datasets, SQL sources, queries and verified answers. Send `Authorization: Bearer <token>`.",
    "VERSION": "1",
    "OAS_VERSION": "3.1.0",  # JSON Schema proper: an optional field is {"type": "null"} in an anyOf (pydantic)
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SERVE_AUTHENTICATION": [],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "APPEND_COMPONENTS": {
        "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer", "description": "an API token (bap_...)"}}
    },
    "SECURITY": [{"bearer": []}],
}

# Data engine limits. Per-plan upload limits: bytes and rows of one uploaded file.
PLAN_LIMITS = {
    "free": {"max_upload_bytes": 50 * 1024**2, "max_rows": 1_000_000},
    "team": {"max_upload_bytes": 500 * 1024**2, "max_rows": 5_000_000},
    "enterprise": {"max_upload_bytes": 2 * 1024**3, "max_rows": 50_000_000},
}
# Monthly quotas per plan, checked before a run starts (runs, LLM tokens) and before an upload (storage).
PLAN_QUOTAS: dict[str, dict[str, int | None]] = {
    "free": {"runs_per_month": 300, "tokens_per_month": 2_000_000, "storage_bytes": 1 * 1024**3},
    "team": {"runs_per_month": 5_000, "tokens_per_month": 50_000_000, "storage_bytes": 20 * 1024**3},
    "enterprise": {"runs_per_month": None, "tokens_per_month": None, "storage_bytes": None},
}
# Runs of one tenant executing at once, per plan (None: unbounded); the tenant's further runs wait queued.
PLAN_CONCURRENT_RUNS: dict[str, int | None] = {
    "free": env.int("PLAN_FREE_CONCURRENT_RUNS", default=2),
    "team": env.int("PLAN_TEAM_CONCURRENT_RUNS", default=8),
    "enterprise": None,
}
# A queued or running run whose process showed no sign of life for this long is failed (its process
# stopped); a process refreshes the heartbeat of its runs several times within this period.
RUN_STALE_SECONDS = env.float("RUN_STALE_SECONDS", default=120.0)
# Ingestion runs in a child process: the widest table it loads, its time limit, and how long a pending or
# ingesting version may show no sign of life from its process before it is failed (that process stopped).
INGEST_MAX_COLUMNS = env.int("INGEST_MAX_COLUMNS", default=1000)
INGEST_TIMEOUT_SECONDS = env.float("INGEST_TIMEOUT_SECONDS", default=900.0)
INGEST_STALE_SECONDS = env.float("INGEST_STALE_SECONDS", default=120.0)
# With TASK_QUEUE=celery, an upload still waiting in the ingest queue after this long is failed.
INGEST_QUEUE_WAIT_SECONDS = env.float("INGEST_QUEUE_WAIT_SECONDS", default=900.0)
# Where runs and background ingests execute. "celery" (the default when CELERY_BROKER_URL, or else REDIS_URL, is
# set): web processes store and enqueue a run, Celery workers (deploy/run --workers N) execute it and publish its
# events through the channel layer. "local" (the embedded default): a pool of LOCAL_RUN_THREADS threads in the web
# process (and a thread per background ingest).
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=REDIS_URL)
TASK_QUEUE = env.str("TASK_QUEUE", default="celery" if CELERY_BROKER_URL else "local")
LOCAL_RUN_THREADS = env.int("LOCAL_RUN_THREADS", default=8)
# A run still executing after this long is failed (run_timeout); Celery stops its process shortly after.
RUN_TIME_LIMIT_SECONDS = env.float("RUN_TIME_LIMIT_SECONDS", default=600.0)
# A run still queued after this long (no worker took it: none running, or the queue lost it) is failed.
RUN_QUEUE_WAIT_SECONDS = env.float("RUN_QUEUE_WAIT_SECONDS", default=900.0)
# Seconds before a run waiting for its tenant's concurrency bound is looked at again.
RUN_FAIRNESS_RETRY_SECONDS = env.float("RUN_FAIRNESS_RETRY_SECONDS", default=1.0)
# Celery (read by baplatform/celery.py): a task is acknowledged once it has run, so a worker lost mid-run gives its
# run back (task_reject_on_worker_lost); one task at a time per worker process; the hard limit stops a process
# still busy shortly after its run was failed for RUN_TIME_LIMIT_SECONDS; Redis gives an unacknowledged task to
# another worker only after the visibility timeout, so it is longer than any run.
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_QUEUE", default="runs")
# Background ingests have a queue of their own: its worker supervises each file's reader child process from a
# thread (`celery worker -Q ingest --pool threads`; a prefork pool process may not start children).
CELERY_INGEST_QUEUE = env.str("CELERY_INGEST_QUEUE", default="ingest")
CELERY_TASK_ROUTES = {"datasets.ingest_version": {"queue": CELERY_INGEST_QUEUE}}
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = RUN_TIME_LIMIT_SECONDS + 60
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": int(max(RUN_TIME_LIMIT_SECONDS, INGEST_TIMEOUT_SECONDS) + 600)}
CELERY_TASK_IGNORE_RESULT = True
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_WORKER_SEND_TASK_EVENTS = False
QUERY_TIMEOUT_SECONDS = env.float("QUERY_TIMEOUT_SECONDS", default=20.0)
QUERY_MAX_ROWS = 10_000  # rows a query may return (QuerySpec limit, SQL row cap)
# Bytes a query's result may hold (every source, QuerySpec and free SQL), checked while fetching.
QUERY_MAX_RESULT_BYTES = env.int("QUERY_MAX_RESULT_BYTES", default=16 * 1024**2)
DUCKDB_MEMORY_LIMIT = env.str("DUCKDB_MEMORY_LIMIT", default="1GB")
DUCKDB_THREADS = env.int("DUCKDB_THREADS", default=2)
# Fernet keys for SQL source credentials, newest first (rotate by prepending); SECRET_KEY-derived if unset.
FIELD_ENCRYPTION_KEYS = env.list("FIELD_ENCRYPTION_KEYS", default=[])

# API tokens: default lifetime when none is given at creation (days; 0 = never expires).
API_TOKEN_DEFAULT_DAYS = env.int("API_TOKEN_DEFAULT_DAYS", default=90)

# Language model: any OpenAI-compatible chat-completions endpoint. Without a key the offline planner answers.
OPENAI_API_KEY = env.str("OPENAI_API_KEY", default="")
OPENAI_BASE_URL = env.str("OPENAI_BASE_URL", default="")  # empty: OpenAI's own endpoint
OPENAI_MODEL = env.str("OPENAI_MODEL", default="gpt-4o-mini")
LLM_TIMEOUT_SECONDS = env.float("LLM_TIMEOUT_SECONDS", default=60.0)
LLM_MAX_RETRIES = env.int("LLM_MAX_RETRIES", default=2)
# USD per 1M input/output tokens, for the usage ledger. A served name such as gpt-4o-mini-2024-07-18 is
# priced by its longest listed prefix. LLM_PRICES (JSON, same shape) adds or overrides entries.
LLM_PRICES: dict[str, dict[str, float]] = {
    "offline-planner": {"input": 0.0, "output": 0.0},
    "gpt-4o-mini": {"input": 0.15, "output": 0.60},
    "gpt-4o": {"input": 2.50, "output": 10.00},
    "gpt-4.1-mini": {"input": 0.40, "output": 1.60},
    "gpt-4.1": {"input": 2.00, "output": 8.00},
    "deepseek-chat": {"input": 0.28, "output": 0.42},
    "qwen-plus": {"input": 0.40, "output": 1.20},
    **env.json("LLM_PRICES", default={}),
}
# Web search (Tavily): the search_web tool is offered to the model only when a key is set. The requirement
# documents name the variable VITE_TAVILY_API_KEY; it is read when TAVILY_API_KEY is not set.
TAVILY_API_KEY = env.str("TAVILY_API_KEY", default="") or env.str("VITE_TAVILY_API_KEY", default="")
TAVILY_BASE_URL = env.str("TAVILY_BASE_URL", default="https://api.tavily.com")
# web_reader (a public page's text, behind an SSRF guard) is offered when web access is enabled: by default
# together with web search. Addresses in WEB_READER_ALLOWED_NETWORKS may be read although they are private.
WEB_READER_ENABLED = env.bool("WEB_READER_ENABLED", default=bool(TAVILY_API_KEY))
WEB_READER_ALLOWED_NETWORKS = env.list("WEB_READER_ALLOWED_NETWORKS", default=[])
WEB_READER_MAX_BYTES = env.int("WEB_READER_MAX_BYTES", default=2_000_000)
WEB_READER_MAX_CHARS = env.int("WEB_READER_MAX_CHARS", default=8_000)
WEB_READER_TIMEOUT_SECONDS = env.float("WEB_READER_TIMEOUT_SECONDS", default=10.0)
WEB_READER_MAX_REDIRECTS = env.int("WEB_READER_MAX_REDIRECTS", default=5)

# Logs: JSON lines on stderr (LOG_FORMAT=text for a terminal), each carrying trace_id, tenant and actor.
from apps.observability.logs import logging_config  # noqa: E402  (stdlib only; no Django models)

LOG_FORMAT = env.str("LOG_FORMAT", default="json")
LOG_LEVEL = env.str("LOG_LEVEL", default="INFO")
LOGGING = logging_config(LOG_FORMAT, LOG_LEVEL)
# A bearer token a Prometheus scraper may send to GET /metrics (besides staff sessions and metrics:read tokens).
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
