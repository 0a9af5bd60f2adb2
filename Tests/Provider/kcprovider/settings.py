"""Django settings for the local test OpenID Provider (django-oauth-toolkit shaped like a Keycloak realm).

Everything that varies per start comes from environment variables, read once when the settings
load (DOT's device URLs and the issuer are static settings, so the port must be known up front).
run.py sets them; see Tests/Provider/README.md for the full list.
"""

import os
import secrets
from pathlib import Path

from .config import CONFIG, ISSUER_PATH, keycloak_user_code

BASE_DIR = Path(__file__).resolve().parent
DATA_DIR = Path(CONFIG.data_dir)

# Test-only project: a fixed secret would do, but a random one costs nothing.
SECRET_KEY = os.environ.get("PROVIDER_SECRET_KEY") or secrets.token_urlsafe(48)
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]", "::1"]

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "oauth2_provider",
    "kcprovider",
]

MIDDLEWARE = [
    # First, so that it sees the final status of every request, errors included.
    "kcprovider.middleware.RequestLogMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]

ROOT_URLCONF = "kcprovider.urls"
# Keycloak paths have no trailing slash; never redirect to add one.
APPEND_SLASH = False

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # kcprovider is listed after oauth2_provider in INSTALLED_APPS, so its copies of DOT's
        # templates are found through DIRS, which is searched before the apps.
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
            ],
        },
    }
]

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": DATA_DIR / "db.sqlite3",
        # gunicorn runs several threads against one SQLite file: wait for locks instead of failing.
        # IMMEDIATE: a transaction takes the write lock when it begins, so two token requests at
        # once wait (timeout) instead of one failing at once with "database is locked" (SQLite
        # does not wait when a reader's transaction would have to upgrade to a writer's).
        "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
    }
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# MD5 is insecure, but this provider only ever holds the test user; it keeps each scripted login
# (and the seeding) cheap.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
AUTH_PASSWORD_VALIDATORS = []

LOGIN_URL = f"/{ISSUER_PATH}/login"
SESSION_COOKIE_NAME = "KEYCLOAK_SESSION"
# A fresh browser session per scripted user: nothing needs to outlive the test run.
SESSION_EXPIRE_AT_BROWSER_CLOSE = True
USE_TZ = True
TIME_ZONE = "UTC"
USE_I18N = False

# gunicorn's access log would print query strings (codes, states); Django's own logging is kept
# to errors on stderr.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"stderr": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["stderr"], "level": "WARNING"},
    # 4xx answers are the point of many tests; only log real errors.
    "loggers": {"oauth2_provider": {"level": "ERROR"}, "django.request": {"level": "ERROR"}},
}


def _read_private_key():
    key_file = DATA_DIR / "rsa-private.pem"
    return key_file.read_text() if key_file.exists() else ""


OAUTH2_PROVIDER = {
    "OIDC_ENABLED": True,
    "OIDC_RSA_PRIVATE_KEY": _read_private_key(),
    # Must be set: otherwise the RFC 9207 `iss` parameter is the bare origin, not the realm.
    "OIDC_ISS_ENDPOINT": CONFIG.issuer,
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,
    "PKCE_REQUIRED": True,
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,  # S256 only, "plain" is rejected
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
    "ROTATE_REFRESH_TOKEN": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": CONFIG.reuse_protection,
    "REFRESH_TOKEN_GRACE_PERIOD_SECONDS": CONFIG.refresh_grace_period,
    "ACCESS_TOKEN_EXPIRE_SECONDS": CONFIG.access_token_lifetime,
    "ID_TOKEN_EXPIRE_SECONDS": CONFIG.access_token_lifetime,
    "REFRESH_TOKEN_EXPIRE_SECONDS": CONFIG.refresh_token_lifetime,
    "AUTHORIZATION_CODE_EXPIRE_SECONDS": 60,
    "OIDC_RP_INITIATED_LOGOUT_ENABLED": True,
    "OIDC_RP_INITIATED_LOGOUT_ALWAYS_PROMPT": False,
    "OAUTH_DEVICE_VERIFICATION_URI": CONFIG.issuer + "/device",
    "OAUTH_DEVICE_VERIFICATION_URI_COMPLETE": CONFIG.issuer + "/device?user_code={user_code}",
    "DEVICE_FLOW_INTERVAL": CONFIG.device_interval,
    # The callable itself, not an import string: DOT does not import this setting.
    "OAUTH_DEVICE_USER_CODE_GENERATOR": keycloak_user_code,
    "ALLOW_LOCALHOST_LOOPBACK": False,
    # With skip_authorization=True on the client: no consent screen, as in Keycloak's default.
    "REQUEST_APPROVAL_PROMPT": "auto",
    "ACCESS_TOKEN_GENERATOR": "kcprovider.tokens.jwt_access_token",
    # Explicit, or DOT would use the JWT generator for refresh tokens too.
    "REFRESH_TOKEN_GENERATOR": "oauthlib.oauth2.rfc6749.tokens.random_token_generator",
    "OAUTH2_VALIDATOR_CLASS": "kcprovider.validators.KeycloakLikeValidator",
    "OIDC_SERVER_CLASS": "kcprovider.server.KeycloakLikeServer",
    # Keycloak's standard client scopes, so any scope a client asks Keycloak for is known here.
    "SCOPES": {
        "openid": "OpenID Connect",
        "profile": "User profile",
        "email": "Email address",
        "offline_access": "Offline access",
        "roles": "User roles",
        "web-origins": "Allowed web origins",
        "acr": "Authentication context",
        "basic": "Basic claims",
        "address": "Address",
        "phone": "Phone number",
        "microprofile-jwt": "MicroProfile JWT",
    },
    # A request without `scope` gets Keycloak's default client scopes (and no `openid`).
    "DEFAULT_SCOPES": ["profile", "email"],
    "OIDC_TOKEN_ENDPOINT_AUTH_METHODS_SUPPORTED": ["client_secret_basic", "client_secret_post", "private_key_jwt"],
    "OIDC_RESPONSE_TYPES_SUPPORTED": ["code"],
}
