"""Settings, read from the environment (see .env.example for every variable).

Development defaults are safe to run on a laptop: SQLite in the project folder, DEBUG on,
only localhost allowed. Production sets DATABASE_URL (PostgreSQL), SECRET_KEY, DEBUG=0 and
ALLOWED_HOSTS.
"""

import os
from pathlib import Path

from config.env import (
    database_from_url,
    env_bool,
    env_choice,
    env_float,
    env_int,
    env_list,
    env_rate,
    load_env_file,
)

BASE_DIR = Path(__file__).resolve().parent.parent
load_env_file(BASE_DIR / ".env")

DEBUG = env_bool("DEBUG", True)
SECRET_KEY = os.environ.get("SECRET_KEY") or (
    "django-insecure-dev-only-key-change-me" if DEBUG else ""
)
if not SECRET_KEY:
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured(
        "SECRET_KEY must be set when DEBUG is off: put 50 or more random characters in it, "
        "e.g. the output of python3 -c 'import secrets; print(secrets.token_urlsafe(50))'.")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.forms",  # Django's widget templates, for FORM_RENDERER below
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "houserules",
    "clubs",
    "scoring",
    "settlements",
    "league",
    "safekeeping",
    "django_tasks",
    "django_tasks_db",
    "compare",
    "sheets",
    "door",
    "accounts",
    "history",
]

# Background work (long rule comparisons) through Django's Tasks API: the django-tasks backport
# with its database backend, so tasks queue in the project's own database (SQLite or
# PostgreSQL) and ``manage.py db_worker`` runs them; no broker to install.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "config.middleware.OversizeApiBodies",
    "config.middleware.RefuseNulCharacters",
    "config.middleware.StripDirectionControls",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # A view that failed because the database is down answers 503 with Retry-After.
    "config.unavailable.DatabaseUnavailable",
    # Last, as django-axes asks: answers a locked-out login with its lockout response.
    "axes.middleware.AxesMiddleware",
]

# django-axes first: it refuses a locked-out login before any password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "config.urls"

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
                "accounts.context.signup",
            ],
        },
    },
]

# Widgets rendered through TEMPLATES, so templates/django/forms/ may replace one of Django's
# (the select, issue #27); the others are Django's own, found in the django.forms app.
FORM_RENDERER = "django.forms.renderers.TemplatesSetting"

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {
    "default": database_from_url(
        os.environ.get("DATABASE_URL", ""), default_sqlite=BASE_DIR / "db.sqlite3"
    )
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/London")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"] if (BASE_DIR / "static").is_dir() else []
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Which clubs a user may see and administers, as the houserules app asks it (houserules sits
# below clubs and cannot import it; see houserules/access.py).
HOUSE_RULE_ACCESS = "clubs.permissions.HouseRuleAccess"

# Proxies in front of the service (production: the TLS proxy), for the client's address.
NUM_PROXIES = env_int("NUM_PROXIES", 0 if DEBUG or not env_bool("TRUST_X_FORWARDED_PROTO", True)
                      else 1)
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# Who may make a login: "open" (anyone signs up with an email and a password) or
# "invite-only" (only through a club's invitation link).
SIGNUP = env_choice("SIGNUP", "open", ("open", "invite-only"))

# Mail (password resets, invitations): to the console unless EMAIL_HOST names an SMTP server.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_BACKEND = ("django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST
                 else "django.core.mail.backends.console.EmailBackend")
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
# Port 587 with STARTTLS by default; EMAIL_USE_SSL=1 (port 465) turns STARTTLS off.
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", not EMAIL_USE_SSL)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 20)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL") or "scores@localhost"
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL are both on: use EMAIL_USE_SSL=1 "
                               "alone for port 465, or EMAIL_USE_TLS=1 alone for port 587.")
# A password-reset link works for three days.
PASSWORD_RESET_TIMEOUT = 3 * 24 * 3600

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "config.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "config.api_limits.BoundedLimitOffsetPagination",
    "PAGE_SIZE": 100,
    "DEFAULT_PARSER_CLASSES": [
        "config.api_limits.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "EXCEPTION_HANDLER": "config.api_errors.exception_handler",
    # Rates come from API_THROTTLE_RATES below, read when a request comes (config/throttles.py).
    "DEFAULT_THROTTLE_CLASSES": [
        "config.throttles.AnonRateThrottle",
        "config.throttles.UserRateThrottle",
        "config.throttles.ScopedRateThrottle",
    ],
    # How many proxies put their address in X-Forwarded-For: the client is the one before
    # them. 0 reads the socket's address (a client could otherwise claim any address).
    "NUM_PROXIES": NUM_PROXIES,
}

# -- Abuse: API throttling and login lockout (see .env.example) ---------------------------------

# Requests per period ("120/min", "10/s", "5000/hour", "none" for no limit): anonymous
# visitors, each signed-in user, and the public calculators (/score, /settle) per client.
# API_THROTTLE=0 turns them all off (bench/bench_api_load.py does, to measure recording alone).
API_THROTTLE_RATES = {
    "anon": env_rate("THROTTLE_ANON", "120/min"),
    "user": env_rate("THROTTLE_USER", "1200/min"),
    "calculator": env_rate("THROTTLE_CALCULATOR", "60/min"),
} if env_bool("API_THROTTLE", True) else {}

# Sign-up, login, password reset and the confirmation email (Django's pages, accounts.limits):
# scope -> (attempts, seconds), counted in the database so every process and machine sees the
# same counts. Per address, except password_reset_email and verify_resend_email (per email
# asked: no mailbox is flooded) and verify_resend (per login, the page's and the API's). The
# API's resend by email (accounts.api) counts the address and the email asked as well.
# ACCOUNT_RATE_LIMITS=0 turns them off.
ACCOUNT_RATE_LIMITS = {
    "signup": (5, 3600),
    "login": (30, 600),
    "password_reset": (5, 3600),
    "password_reset_email": (3, 3600),
    "verify_resend": (5, 3600),
    "verify_resend_address": (10, 3600),
    "verify_resend_email": (3, 3600),
} if env_bool("ACCOUNT_RATE_LIMITS", True) else {}
# What clubs asks before a login starts a club (clubs cannot import accounts): a login made by
# the open sign-up confirms its email first (accounts.verification).
CLUB_START_CHECK = "accounts.verification.refusal"

# Throttle counts live in a cache shared by every worker on the machine (files, not process
# memory). Several machines: point CACHE_DIR at shared storage, or use a shared cache backend.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": os.environ.get("CACHE_DIR") or str(BASE_DIR / "var" / "cache"),
        # Listed on every write, so kept small: a club has a few hundred users and addresses.
        "OPTIONS": {"MAX_ENTRIES": 2000},
    },
    # The QR code of each table's address (clubs.views.table_qr), drawn once and read by every
    # worker on later views, kept for a day (a table is followed during its night): its own
    # folder, so a busy evening's codes never cull the throttle counts above.
    "qr": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": str(Path(os.environ.get("CACHE_DIR") or BASE_DIR / "var" / "cache") / "qr"),
        "TIMEOUT": 24 * 3600,
        "OPTIONS": {"MAX_ENTRIES": 5000},
    },
}

# django-axes: after AXES_FAILURE_LIMIT wrong passwords for one login from one address, that
# pair is locked out for AXES_COOLOFF_HOURS (pages and the admin alike); a right password
# before then resets the count. Attempts are kept in the database (the admin lists them).
AXES_ENABLED = env_bool("AXES_ENABLED", True)
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = env_float("AXES_COOLOFF_HOURS", 1.0)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_IPWARE_PROXY_COUNT = NUM_PROXIES or None
AXES_IPWARE_META_PRECEDENCE_ORDER = (
    ("HTTP_X_FORWARDED_FOR", "REMOTE_ADDR") if NUM_PROXIES else ("REMOTE_ADDR",)
)

# -- Comparisons of recorded play: each user's and club's share of the background workers ------
# Comparisons running or queued at once, per signed-in user and per club (past them a 429 with
# a sentence, or a form error); above COMPARE_INLINE_LIMIT hand-replays (hands x rules) a
# comparison runs only on the background workers. A worker renews its lease on the tables it
# replays after each one; a lease older than COMPARE_LEASE_SECONDS is a worker that died, and
# the sweep (every COMPARE_SWEEP_SECONDS while comparisons are unfinished) queues its tables
# again.
COMPARE_USER_LIMIT = env_int("COMPARE_USER_LIMIT", 3)
COMPARE_CLUB_LIMIT = env_int("COMPARE_CLUB_LIMIT", 10)
COMPARE_INLINE_LIMIT = env_int("COMPARE_INLINE_LIMIT", 5000)
COMPARE_LEASE_SECONDS = env_int("COMPARE_LEASE_SECONDS", 30)
COMPARE_SWEEP_SECONDS = env_int("COMPARE_SWEEP_SECONDS", 10)

SPECTACULAR_SETTINGS = {
    "TITLE": "Mah-jong club scores",
    "DESCRIPTION": (
        "Score hands under a club's house rule, settle payments, record club nights.\n\n"
        "**Authentication.** The calculators (`/score`, `/settle`, `/compare`) and published "
        "clubs' pages need none. Everything else acts as a login: in a browser, the session "
        "of the login page; from a program, a personal API token. Make one on the \"API "
        "tokens\" page (`/accounts/tokens/`) and send it with every request:\n\n"
        "    curl -H \"Authorization: Token <your token>\" https://<this service>/api/v1/clubs/\n\n"
        "A token can do what its login can do at each club (admin, scorer or member), and is "
        "revoked on the same page. Click \"Authorize\" above and give `Token <your token>` to "
        "try the requests here."),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and ReDoc from the project's own static files, pinned by the sidecar
    # package's version: the docs work in a club hall without internet.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # One enum per choice set, however many fields use it (winds, win sources).
    "ENUM_NAME_OVERRIDES": {
        "Wind": "clubs.models.choices.Wind",
        "WindCode": ["E", "S", "W", "N"],
        "WinSource": "clubs.models.choices.WinSource",
        "MemberRole": "clubs.models.choices.MemberRole",
        # The calculator contract's "from" (scoring.serializers) lists the codes without labels.
        "WinSourceCode": ["wall", "discard", "kong_box", "robbed_kong"],
        # The score sheets (sheets.data.LAYOUTS): 004's per-player sheet, 002's tally.
        "SheetLayout": ["per_player", "tally"],
        # A hand's discarder as entered: a wind, or "unknown" (play.UNKNOWN).
        "DiscarderEntered": ["E", "S", "W", "N", "unknown"],
    },
}

# Production hardening: on when DEBUG is off (see README, "check --deploy").
if not DEBUG:
    # Behind a TLS-terminating proxy (the usual deployment) that sets X-Forwarded-Proto and
    # strips it from clients. Turn off when gunicorn faces the internet directly.
    if env_bool("TRUST_X_FORWARDED_PROTO", True):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
    SECURE_CONTENT_TYPE_NOSNIFF = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    # What an operator follows (hands recorded and corrected, comparisons, backups, imports):
    # INFO unless APP_LOG_LEVEL says otherwise, whatever the libraries' level.
    "loggers": {app: {"level": os.environ.get("APP_LOG_LEVEL", "INFO")}
                for app in ("clubs", "compare", "safekeeping", "league", "history")},
}
