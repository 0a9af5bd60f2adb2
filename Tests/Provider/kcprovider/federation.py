"""Keycloak's federated client authentication ("Signed JWT - Federated", Keycloak 26.4+): a client
authenticates with a token another issuer signed for it — a CI platform's ID token, a Kubernetes
service-account token, a SPIFFE JWT-SVID — instead of a secret.

As Keycloak checks it (shared/notes/keycloak-26.md §l), for the clients of realm.py whose "auth"
is "federated-oidc" or "federated-spiffe":
- the signature, against the keys the identity provider publishes (its discovery document's
  `jwks_uri`, fetched from the live issuer of this start, PROVIDER_CI_ISSUER; fetched again once
  for an unknown `kid`, as a key rotation needs);
- `iss` = that issuer (OIDC; a SPIFFE JWT-SVID's trust is the bundle's, so `iss` is not checked);
- `sub` = the client's federated subject;
- `aud` = the realm's issuer (a string, or a list that holds it);
- `exp` present and not past (10 s of skew), and not more than an hour ahead;
- `jti`, where present, used once: a second request with the same assertion is refused;
- the assertion type: jwt-bearer for OIDC, Keycloak's jwt-spiffe for SPIFFE.
Every refusal is InvalidClient (401 invalid_client), with a Keycloak-like description.
"""

import json
import threading
import time
import urllib.request

from jwcrypto import jwk, jws
from jwcrypto.common import JWException

from .config import CONFIG

JWT_BEARER = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
JWT_SPIFFE = "urn:ietf:params:oauth:client-assertion-type:jwt-spiffe"
KINDS = ("federated-oidc", "federated-spiffe")
CLOCK_SKEW = 10
MAX_LIFETIME = 3600


class Refused(Exception):
    """str(self) is the error_description."""


def subject(spec):
    return CONFIG.ci_spiffe_subject if spec["auth"] == "federated-spiffe" else CONFIG.ci_subject


def expected_type(spec):
    return JWT_SPIFFE if spec["auth"] == "federated-spiffe" else JWT_BEARER


class IssuerKeys:
    """The identity provider's JWKS, fetched from its discovery document and kept."""

    lock = threading.Lock()
    keys = None

    @classmethod
    def get(cls, refresh=False):
        with cls.lock:
            if cls.keys is None or refresh:
                cls.keys = cls._fetch()
            return cls.keys

    @staticmethod
    def _fetch():
        if not CONFIG.ci_issuer:
            raise Refused("No identity provider is configured for federated client authentication")
        try:
            with urllib.request.urlopen(CONFIG.ci_issuer + "/.well-known/openid-configuration", timeout=10) as r:
                jwks_uri = json.load(r)["jwks_uri"]
            with urllib.request.urlopen(jwks_uri, timeout=10) as r:
                return jwk.JWKSet.from_json(r.read())
        except (OSError, ValueError, KeyError) as e:
            raise Refused(f"Failed to fetch the identity provider's keys: {e.__class__.__name__}") from None


class SeenIDs:
    """jti values already used, kept until their assertion expires (one worker: in memory)."""

    lock = threading.Lock()
    seen = {}

    @classmethod
    def use(cls, jti, exp):
        now = time.time()
        with cls.lock:
            for key in [k for k, e in cls.seen.items() if e < now - CLOCK_SKEW]:
                del cls.seen[key]
            if jti in cls.seen:
                raise Refused("Token reuse detected")
            cls.seen[jti] = exp


def _verified(assertion):
    try:
        token = jws.JWS()
        token.deserialize(assertion)
        header = token.jose_header
    except (JWException, ValueError, TypeError):
        raise Refused("Client assertion is not a signed JWT") from None
    if header.get("alg") not in ("RS256", "RS384", "RS512", "PS256", "ES256"):
        raise Refused(f"Client assertion algorithm {header.get('alg')!r} is not allowed")
    kid = header.get("kid")
    for refresh in (False, True):
        keys = IssuerKeys.get(refresh=refresh)
        key = keys.get_key(kid) if kid else None
        if key is not None:
            break
    if key is None:
        raise Refused("Unknown key in the client assertion (kid)")
    try:
        token.allowed_algs = [header["alg"]]
        token.verify(key)
        claims = json.loads(token.payload)
    except (JWException, ValueError):
        raise Refused("Signature on JWT token failed validation") from None
    if not isinstance(claims, dict):
        raise Refused("Client assertion payload is not a JSON object")
    return claims


def _number(claims, name):
    value = claims.get(name)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Refused(f"Client assertion has no numeric {name}")
    return value


def authenticate(spec, assertion_type, assertion):
    """Refused, or returns quietly: the assertion authenticates the client of `spec`."""
    if assertion_type != expected_type(spec):
        raise Refused("Parameter client_assertion_type is missing or invalid")
    claims = _verified(assertion)
    if spec["auth"] == "federated-oidc" and claims.get("iss") != CONFIG.ci_issuer:
        raise Refused("Invalid token issuer")
    if claims.get("sub") != subject(spec):
        raise Refused("Invalid token subject")
    aud = claims.get("aud")
    if CONFIG.issuer not in (aud if isinstance(aud, list) else [aud]):
        raise Refused("Invalid token audience")
    now = time.time()
    exp = _number(claims, "exp")
    if exp <= now - CLOCK_SKEW:
        raise Refused("Token is not active")
    if exp > now + MAX_LIFETIME:
        raise Refused("Token exp claim is too far in the future")
    jti = claims.get("jti")
    if jti is not None:
        if not isinstance(jti, str) or not jti:
            raise Refused("Invalid token jti")
        SeenIDs.use(jti, exp)
