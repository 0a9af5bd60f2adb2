"""DPoP (RFC 9449) for the test provider, verified with jwcrypto (not with kcauth's code).

The token endpoint checks a proof (§4.3) and binds what it issues to the proof's key: the access
token carries `cnf.jkt` (§6.1) and `token_type` is `DPoP` (§5); the refresh token is bound too,
as Keycloak does for public clients, so a refresh needs a proof from the same key. Userinfo and
revocation check the proof (with `ath`, §7) for a bound token. Bindings live in process memory
(one gunicorn worker), keyed by the SHA-256 of the token, never the token itself.
"""

import base64
import hashlib
import json
import secrets
import threading
import time

from jwcrypto import jwk, jws

from .config import CONFIG

# §4.3 item 5: asymmetric algorithms only; never `none` or a MAC.
ALGORITHMS = ["ES256", "ES384", "RS256", "PS256"]
IAT_WINDOW = 60  # seconds either side of now that an `iat` may be (§4.3 item 11, §11.1)

_lock = threading.Lock()
_seen_jti = {}  # jti -> time seen (§11.1 replay)
_bound = {}  # sha256(token) -> jkt
_nonces = {}  # issued, not yet used nonce -> time issued
_current = threading.local()  # the jkt of the token request being answered (tokens.py reads it)


class ProofError(Exception):
    def __init__(self, error, description):
        super().__init__(description)
        self.error = error
        self.description = description


def enabled():
    return CONFIG.dpop != "off"


def digest(token):
    return hashlib.sha256(token.encode()).hexdigest()


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def new_nonce():
    nonce = secrets.token_urlsafe(16)
    with _lock:
        _nonces[nonce] = time.time()
    return nonce


def target_uri(request):
    """§4.3 item 9: the request's URI without query and fragment."""
    return f"{CONFIG.origin}{request.path}"


def verify(request, access_token=None):
    """The proof of `request` per §4.3; returns its key's thumbprint (RFC 7638), or None when the
    request carries none. Raises ProofError."""
    values = request.headers.get("DPoP")
    if values is None:
        return None
    if "," in values:  # item 1: exactly one DPoP header (Django joins repeated ones with ",")
        raise ProofError("invalid_dpop_proof", "more than one DPoP header")
    try:
        token = jws.JWS()
        token.deserialize(values)
        header = token.jose_header
    except Exception as e:  # item 2: a well-formed JWT
        raise ProofError("invalid_dpop_proof", f"malformed proof: {e}") from None
    if header.get("typ") != "dpop+jwt":  # item 4
        raise ProofError("invalid_dpop_proof", "typ is not dpop+jwt")
    if header.get("alg") not in ALGORITHMS:  # item 5
        raise ProofError("invalid_dpop_proof", f"alg {header.get('alg')!r} is not accepted")
    public = header.get("jwk")
    if not isinstance(public, dict) or "d" in public or public.get("kty") not in ("EC", "RSA"):
        raise ProofError("invalid_dpop_proof", "jwk is missing, private or not EC/RSA")  # item 7
    try:
        key = jwk.JWK(**public)
        token.verify(key, alg=header["alg"])  # item 6
        claims = json.loads(token.payload)
    except Exception:
        raise ProofError("invalid_dpop_proof", "the proof's signature does not verify") from None
    for name in ("jti", "htm", "htu", "iat"):  # item 3
        if name not in claims:
            raise ProofError("invalid_dpop_proof", f"the proof has no {name}")
    if claims["htm"] != request.method:  # item 8
        raise ProofError("invalid_dpop_proof", "htm does not match the request")
    if claims["htu"] != target_uri(request):  # item 9
        raise ProofError("invalid_dpop_proof", "htu does not match the request")
    now = time.time()
    if not isinstance(claims["iat"], (int, float)) or abs(now - claims["iat"]) > IAT_WINDOW:  # item 11
        raise ProofError("invalid_dpop_proof", "iat is outside the accepted window")
    if access_token is not None:  # item 12: ath
        if claims.get("ath") != b64url(hashlib.sha256(access_token.encode()).digest()):
            raise ProofError("invalid_dpop_proof", "ath does not match the access token")
    if CONFIG.dpop_nonce:  # item 10
        with _lock:
            issued = _nonces.pop(claims.get("nonce"), None) if claims.get("nonce") else None
        if issued is None:
            raise ProofError("use_dpop_nonce", "Authorization server requires nonce in DPoP proof")
    with _lock:  # §11.1: each jti once
        for old in [j for j, t in _seen_jti.items() if now - t > 2 * IAT_WINDOW]:
            del _seen_jti[old]
        if claims["jti"] in _seen_jti:
            raise ProofError("invalid_dpop_proof", "the proof was already used (jti replay)")
        _seen_jti[claims["jti"]] = now
    return key.thumbprint()


def bind(token, jkt):
    with _lock:
        _bound[digest(token)] = jkt


def bound_to(token):
    with _lock:
        return _bound.get(digest(token))


def current_jkt():
    return getattr(_current, "jkt", None)


def set_current_jkt(jkt):
    _current.jkt = jkt


def with_nonce(response):
    """§8.2: a fresh nonce with every answer of an endpoint that demands them."""
    if CONFIG.dpop_nonce:
        response["DPoP-Nonce"] = new_nonce()
    return response
