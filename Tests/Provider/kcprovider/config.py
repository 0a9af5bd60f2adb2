"""Per-start configuration of the test provider, read from environment variables.

Kept free of Django imports so that settings.py can use it while Django is still loading.
"""

import json
import os
import secrets
from dataclasses import dataclass, field

REALM = "demo"
# Where the realm is mounted: Keycloak's `realms/demo`, or another path for a provider kcauth must
# not take for Keycloak (one that compares redirect URIs exactly, with exact_redirect_uris).
ISSUER_PATH = (os.environ.get("PROVIDER_ISSUER_PATH") or f"realms/{REALM}").strip("/")

# Test fault switches (PROVIDER_FAULT, comma-separated). Each one breaks one thing a careful
# client must notice. Described in Tests/Provider/README.md.
KNOWN_FAULTS = {
    "tamper-id-token-signature",  # id_token in token responses has a corrupted signature
    "wrong-iss-on-callback",  # authorization redirect carries iss=http://evil.example
    "missing-iss-on-callback",  # authorization redirect has no iss, though discovery promises it
    "wrong-id-token-nonce",  # validly signed id_token whose nonce differs from the request's
    "wrong-id-token-aud",  # validly signed id_token for another audience
    "wrong-id-token-iss",  # validly signed id_token from another issuer
    "discovery-wrong-issuer",  # discovery document names another issuer
    "token-endpoint-500",  # every token request answers 500 with an HTML body
}


def _flag(name, default):
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


def _int(name, default):
    value = os.environ.get(name)
    return int(value) if value not in (None, "") else default


ASSERTION_AUDIENCES = ("token-endpoint-or-issuer", "token-endpoint")


def _choice(name, choices, default):
    value = os.environ.get(name) or default
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(choices)}, not {value!r}")
    return value
def _json(name, default):
    value = os.environ.get(name)
    return json.loads(value) if value not in (None, "") else default


def _faults():
    raw = os.environ.get("PROVIDER_FAULT", "")
    faults = {f.strip() for f in raw.split(",") if f.strip()}
    unknown = faults - KNOWN_FAULTS
    if unknown:
        raise ValueError(f"unknown PROVIDER_FAULT value(s): {', '.join(sorted(unknown))}")
    return frozenset(faults)


@dataclass(frozen=True)
class Config:
    host: str = field(default_factory=lambda: os.environ.get("PROVIDER_HOST", "127.0.0.1"))
    port: int = field(default_factory=lambda: _int("PROVIDER_PORT", 8180))
    data_dir: str = field(default_factory=lambda: os.environ.get("PROVIDER_DATA_DIR", "."))
    # Keycloak's defaults: access token 5 min, SSO idle 30 min, device code 10 min, poll 5 s.
    access_token_lifetime: int = field(default_factory=lambda: _int("PROVIDER_ACCESS_TOKEN_LIFETIME", 300))
    refresh_token_lifetime: int = field(default_factory=lambda: _int("PROVIDER_REFRESH_TOKEN_LIFETIME", 1800))
    reuse_protection: bool = field(default_factory=lambda: _flag("PROVIDER_REUSE_PROTECTION", True))
    # Seconds an already-rotated refresh token stays usable (DOT's grace period). Keycloak's
    # default ("Revoke Refresh Token" off) keeps old refresh tokens valid; 0 is strict rotation.
    refresh_grace_period: int = field(default_factory=lambda: _int("PROVIDER_REFRESH_GRACE_PERIOD", 0))
    # Seconds the token endpoint sleeps before answering a refresh grant (a slow provider), so a
    # test can kill a client in the middle of a refresh.
    refresh_delay: float = field(default_factory=lambda: float(os.environ.get("PROVIDER_REFRESH_DELAY") or 0))
    device_interval: int = field(default_factory=lambda: _int("PROVIDER_DEVICE_INTERVAL", 5))
    device_slow_down: bool = field(default_factory=lambda: _flag("PROVIDER_DEVICE_SLOW_DOWN", True))
    # slow_down below this poll spacing when larger than the advertised interval: a provider under
    # load, the only way a client that keeps to `interval` ever sees slow_down. 0: the interval.
    device_enforced_interval: int = field(default_factory=lambda: _int("PROVIDER_DEVICE_ENFORCED_INTERVAL", 0))
    # Keycloak with pkce.code.challenge.method=S256 on the client: the device request must carry a
    # challenge. Off: PKCE is optional on the device grant, but still verified when used.
    device_pkce: bool = field(default_factory=lambda: _flag("PROVIDER_DEVICE_PKCE", True))
    device_code_lifespan: int = field(default_factory=lambda: _int("PROVIDER_DEVICE_CODE_LIFESPAN", 600))
    request_log: str = field(default_factory=lambda: os.environ.get("PROVIDER_REQUEST_LOG", ""))
    # The `aud` a client assertion must name (RFC 7523 §3 item 3): "token-endpoint-or-issuer"
    # accepts either, as Keycloak does; "token-endpoint" accepts only the token endpoint URL, as
    # OpenID Connect Core §9 words it and some providers enforce.
    assertion_audience: str = field(default_factory=lambda: _choice(
        "PROVIDER_ASSERTION_AUDIENCE", ASSERTION_AUDIENCES, "token-endpoint-or-issuer"))
    faults: frozenset = field(default_factory=_faults)
    # Interop and hostile-number switches, applied in interop.py (README "Interop switches").
    token_overrides: tuple = field(default_factory=lambda: tuple(_json("PROVIDER_TOKEN_OVERRIDES", [])))
    device_overrides: dict = field(default_factory=lambda: _json("PROVIDER_DEVICE_OVERRIDES", {}))
    id_token_overrides: dict = field(default_factory=lambda: _json("PROVIDER_ID_TOKEN_OVERRIDES", {}))
    discovery_overrides: dict = field(default_factory=lambda: _json("PROVIDER_DISCOVERY_OVERRIDES", {}))
    refresh_error: dict = field(default_factory=lambda: _json("PROVIDER_REFRESH_ERROR", {}))
    authorization_error: str = field(default_factory=lambda: os.environ.get("PROVIDER_AUTHORIZATION_ERROR", ""))
    exact_redirect_uris: bool = field(default_factory=lambda: _flag("PROVIDER_EXACT_REDIRECT_URIS", False))
    # DPoP (RFC 9449; dpop.py): off, on (bind tokens), bearer (check proofs, never bind).
    dpop: str = field(default_factory=lambda: _choice("PROVIDER_DPOP", ("off", "on", "bearer"), "off"))
    dpop_nonce: bool = field(default_factory=lambda: _flag("PROVIDER_DPOP_NONCE", False))
    # PAR (RFC 9126; par.py): off, on (an endpoint), required (ordinary requests refused).
    par: str = field(default_factory=lambda: _choice("PROVIDER_PAR", ("off", "on", "required"), "off"))
    par_advertised: bool = field(default_factory=lambda: _flag("PROVIDER_PAR_ADVERTISED", True))
    par_lifetime: int = field(default_factory=lambda: _int("PROVIDER_PAR_LIFETIME", 60))
    par_error: str = field(default_factory=lambda: os.environ.get("PROVIDER_PAR_ERROR", ""))
    # Keycloak's federated client authentication (federation.py): the issuer the clients
    # kcauth-ci and kcauth-ci-spiffe trust (its discovery names its JWKS; "" trusts nobody), and
    # the federated subject of each (what a GitHub job's, or a SPIFFE workload's, token says).
    ci_issuer: str = field(default_factory=lambda: os.environ.get("PROVIDER_CI_ISSUER", ""))
    ci_subject: str = field(default_factory=lambda: os.environ.get("PROVIDER_CI_SUBJECT") or "repo:org/app:ref:refs/heads/main")
    ci_spiffe_subject: str = field(default_factory=lambda: os.environ.get("PROVIDER_CI_SPIFFE_SUBJECT")
                                   or "spiffe://ci.example.test/workload")

    @property
    def origin(self):
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    @property
    def issuer(self):
        return f"{self.origin}/{ISSUER_PATH}"

    @property
    def token_endpoint(self):
        return f"{self.issuer}/protocol/openid-connect/token"

    def fault(self, name):
        assert name in KNOWN_FAULTS, name
        return name in self.faults


CONFIG = Config()

# Keycloak-style user codes: eight consonants shown as XXXX-XXXX (no vowels, so no words).
_USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ"


def keycloak_user_code():
    code = "".join(secrets.choice(_USER_CODE_ALPHABET) for _ in range(8))
    return f"{code[:4]}-{code[4:]}"
