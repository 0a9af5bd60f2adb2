"""Client authentication with signed assertions: RFC 7523 §2.2/§3 and OpenID Connect Core §9.

DOT checks client secrets (client_secret_basic, client_secret_post) but knows nothing of
`client_assertion`; this module checks one for the confidential clients of realm.py whose "auth"
is "private_key_jwt" (iss = sub = client_id, signed by a key registered with the client) or
"federated" (iss = a trusted platform, sub = the workload, signed by the platform's key), and
hands the clients of Keycloak's federated client authentication to federation.py.

Every rejection raises InvalidClient with a Keycloak-like description, answered as
401 invalid_client.
"""

import functools
import json
import threading
import time
from pathlib import Path

from jwcrypto import jwk, jws
from jwcrypto.common import JWException

from . import federation
from .config import CONFIG
from .realm import CONFIDENTIAL_CLIENTS

ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
ALGORITHMS = ["RS256", "PS256", "ES256"]
KEY_DIR = Path(__file__).resolve().parent / "client_keys"

# How far in the future `exp` may lie. kcauth's own assertions live 60 s; Keycloak refuses
# long-lived ones. A platform's tokens (Kubernetes: 10 min to 48 h) are allowed a day.
MAX_LIFETIME = {"private_key_jwt": 600, "federated": 24 * 3600}
CLOCK_SKEW = 10


class InvalidClient(Exception):
    """The client failed to authenticate; str(self) is the error_description."""


@functools.lru_cache(maxsize=None)
def registered_keys(client_id):
    """The client's public keys (its JWKS), from the PEM files named in realm.py."""
    keys = []
    for filename, kid in CONFIDENTIAL_CLIENTS[client_id].get("keys", []):
        private = jwk.JWK.from_pem((KEY_DIR / filename).read_bytes())
        keys.append((kid, jwk.JWK(**private.export_public(as_dict=True))))
    return keys


def client_jwks(client_id):
    """The client's JWKS as a dict (what a Keycloak admin would paste or a jwks_uri serves)."""
    out = []
    for kid, key in registered_keys(client_id):
        entry = key.export_public(as_dict=True)
        entry.update({"kid": kid, "use": "sig"})
        out.append(entry)
    return {"keys": out}


class ReplayCache:
    """jti values already used, per client, kept until their assertion expires (RFC 7523 §3
    item 7: the server MAY ensure single use). In memory: the provider runs one worker."""

    lock = threading.Lock()
    seen = {}  # (client_id, jti) -> exp

    @classmethod
    def use(cls, client_id, jti, exp):
        now = time.time()
        with cls.lock:
            for key in [k for k, e in cls.seen.items() if e < now]:
                del cls.seen[key]
            if (client_id, jti) in cls.seen:
                raise InvalidClient("Token reuse detected")
            cls.seen[(client_id, jti)] = exp


def _unverified_claims(assertion):
    try:
        payload = assertion.split(".")[1]
        return json.loads(jws.base64url_decode(payload))
    except (IndexError, ValueError, TypeError):
        return None


def client_for_assertion(assertion, client_id):
    """The client the assertion is for: the request's client_id when it sent one (RFC 7521 §4.2
    makes it optional), else the one named by the assertion's iss (or, federated, its sub)."""
    if client_id:
        return client_id
    claims = _unverified_claims(assertion) or {}
    for cid, spec in CONFIDENTIAL_CLIENTS.items():
        if spec["auth"] == "private_key_jwt" and claims.get("iss") == cid:
            return cid
        if spec["auth"] == "federated" and claims.get("iss") == spec["issuer"] and claims.get("sub") == spec["subject"]:
            return cid
        if spec["auth"] in federation.KINDS and claims.get("sub") == federation.subject(spec):
            return cid
    raise InvalidClient("Invalid client or Invalid client credentials")


def _verified_claims(assertion, client_id):
    token = jws.JWS()
    try:
        token.deserialize(assertion)
        header = token.jose_header
    except (JWException, ValueError, TypeError):
        raise InvalidClient("Client assertion is not a signed JWT") from None
    alg = header.get("alg")
    if alg not in ALGORITHMS:
        raise InvalidClient(f"Client assertion algorithm {alg!r} is not allowed")
    kid = header.get("kid")
    candidates = [key for k, key in registered_keys(client_id) if kid is None or k == kid]
    if not candidates:
        raise InvalidClient("Unknown key in the client assertion (kid)")
    for key in candidates:
        attempt = jws.JWS()
        attempt.allowed_algs = ALGORITHMS
        try:
            attempt.deserialize(assertion)
            attempt.verify(key)
        except JWException:
            continue
        try:
            claims = json.loads(attempt.payload)
        except ValueError:
            raise InvalidClient("Client assertion payload is not JSON") from None
        if not isinstance(claims, dict):
            raise InvalidClient("Client assertion payload is not a JSON object")
        return claims
    raise InvalidClient("Signature on JWT token failed validation")


def _check_audience(aud):
    accepted = {CONFIG.token_endpoint}
    if CONFIG.assertion_audience == "token-endpoint-or-issuer":
        accepted.add(CONFIG.issuer)
    audiences = aud if isinstance(aud, list) else [aud]
    if not any(isinstance(a, str) and a in accepted for a in audiences):
        raise InvalidClient("Invalid token audience")


def _number(claims, name, required):
    value = claims.get(name)
    if value is None and not required:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidClient(f"Client assertion has no numeric {name}")
    return value


def authenticate(assertion_type, assertion, client_id):
    """The client_id the assertion authenticates, or InvalidClient."""
    if assertion_type not in (ASSERTION_TYPE, federation.JWT_SPIFFE):
        raise InvalidClient("Parameter client_assertion_type is missing or invalid")
    if not assertion:
        raise InvalidClient("Parameter client_assertion is missing")
    client_id = client_for_assertion(assertion, client_id)
    spec = CONFIDENTIAL_CLIENTS.get(client_id)
    if spec is not None and spec["auth"] in federation.KINDS:
        try:
            federation.authenticate(spec, assertion_type, assertion)
        except federation.Refused as e:
            raise InvalidClient(str(e)) from None
        return client_id
    if assertion_type != ASSERTION_TYPE:
        raise InvalidClient("Parameter client_assertion_type is missing or invalid")
    if spec is None or spec["auth"] not in ("private_key_jwt", "federated"):
        raise InvalidClient("Invalid client or Invalid client credentials")

    claims = _verified_claims(assertion, client_id)
    if spec["auth"] == "private_key_jwt":
        # RFC 7523 §3 items 1-2 and OIDC Core §9: iss and sub are both the client_id.
        if claims.get("iss") != client_id or claims.get("sub") != client_id:
            raise InvalidClient("Client assertion iss and sub must both be the client_id")
    else:
        if claims.get("iss") != spec["issuer"]:
            raise InvalidClient("Client assertion is not from the trusted platform")
        if claims.get("sub") != spec["subject"]:
            raise InvalidClient("Client assertion subject does not match the client")
    _check_audience(claims.get("aud"))

    now = time.time()
    exp = _number(claims, "exp", required=True)
    if exp <= now - CLOCK_SKEW:
        raise InvalidClient("Token is not active")
    if exp > now + MAX_LIFETIME[spec["auth"]]:
        raise InvalidClient("Client assertion expires too far in the future")
    nbf = _number(claims, "nbf", required=False)
    if nbf is not None and nbf > now + CLOCK_SKEW:
        raise InvalidClient("Token is not active")
    iat = _number(claims, "iat", required=False)
    if iat is not None and iat > now + CLOCK_SKEW:
        raise InvalidClient("Client assertion was issued in the future")

    if spec["auth"] == "private_key_jwt":
        jti = claims.get("jti")
        if not isinstance(jti, str) or not jti:
            raise InvalidClient("Client assertion has no jti")
        ReplayCache.use(client_id, jti, exp)
    # A platform's token is reused until the platform rotates it (a Kubernetes projected token
    # serves many requests), so federated assertions are not single-use here.
    return client_id
