"""A local stand-in for a CI platform's identity: GitHub Actions' ID-token service (which Forgejo
and Gitea Actions copy), and the issuer whose keys Keycloak's "Signed JWT - Federated" checks.

    with PlatformIssuer(lifetime=4) as platform:
        platform.url                      # http://127.0.0.1:PORT, the tokens' `iss`
        platform.job_env()                # ACTIONS_ID_TOKEN_REQUEST_URL and _TOKEN of a job
        platform.mint(aud=..., sub=...)   # a token as GitLab, Kubernetes or spiffe-helper hands it over
        platform.issued                   # every token made: jti, sub, aud, exp (never the token)
        platform.requests                 # every ID-token request: audience, whether authorized

The service checks the bearer request token (`Authorization: bearer …`), answers
`{"count": N, "value": JWT}` with an RS256 JWT whose `iss` is its own URL, `sub` like GitHub's
(`repo:org/app:ref:refs/heads/main`), `aud` the audience asked for (GitHub's default, the owner's
URL, without one), a new `jti`, and `exp` `lifetime` seconds ahead; it serves its discovery
document and JWKS. `refuse = 403` answers that status instead; `slow = True` never answers in
time (a request is held until the stand-in is closed). Threads of the test process; closed on exit.
"""

import http.server
import json
import secrets
import threading
import time
import uuid
from urllib.parse import parse_qs, urlsplit

from jwcrypto import jwk, jwt

GITHUB_SUBJECT = "repo:org/app:ref:refs/heads/main"
TOKEN_PATH = "/_apis/pipelines/idtoken"


class PlatformIssuer:
    def __init__(self, lifetime=300, subject=GITHUB_SUBJECT):
        self.lifetime = lifetime
        self.subject = subject
        self.request_token = "ghs_" + secrets.token_urlsafe(24)
        self.kid = "platform-" + secrets.token_hex(4)
        self.key = jwk.JWK.generate(kty="RSA", size=2048, kid=self.kid)
        self.refuse = None
        self.slow = False
        self.issued = []
        self.requests = []
        # The tokens themselves, only so that a test can prove none was written anywhere.
        self.values = []
        self._lock = threading.Lock()
        self._release = threading.Event()
        stand_in = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                stand_in._answer(self)

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._server.block_on_close = False
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        self._release.set()
        self._server.shutdown()
        self._server.server_close()

    @property
    def token_url(self):
        """As GitHub's: a URL that already has a query (`api-version`), so `&audience=` follows."""
        return f"{self.url}{TOKEN_PATH}?api-version=2.0"

    def job_env(self):
        """What a GitHub job with `permissions: id-token: write` has."""
        return {"ACTIONS_ID_TOKEN_REQUEST_URL": self.token_url, "ACTIONS_ID_TOKEN_REQUEST_TOKEN": self.request_token}

    def mint(self, aud, sub=None, lifetime=None, **claims):
        now = int(time.time())
        body = {"iss": self.url, "sub": sub or self.subject, "aud": aud, "jti": str(uuid.uuid4()),
                "iat": now, "nbf": now, "exp": now + (lifetime or self.lifetime),
                "repository": "org/app", "ref": "refs/heads/main", "runner_environment": "github-hosted"}
        body.update(claims)
        token = jwt.JWT(header={"alg": "RS256", "typ": "JWT", "kid": self.kid}, claims=body)
        token.make_signed_token(self.key)
        value = token.serialize()
        with self._lock:
            self.issued.append({k: body[k] for k in ("jti", "sub", "aud", "exp")})
            self.values.append(value)
        return value

    def jwks(self):
        public = self.key.export_public(as_dict=True)
        public.update({"use": "sig", "alg": "RS256"})
        return {"keys": [public]}

    def _answer(self, h):
        path, query = urlsplit(h.path).path, parse_qs(urlsplit(h.path).query)
        if path == "/.well-known/openid-configuration":
            return self._json(h, 200, {"issuer": self.url, "jwks_uri": self.url + "/.well-known/jwks",
                                       "subject_types_supported": ["public", "pairwise"],
                                       "id_token_signing_alg_values_supported": ["RS256"]})
        if path == "/.well-known/jwks":
            return self._json(h, 200, self.jwks())
        if path != TOKEN_PATH:
            return self._json(h, 404, {"message": "Not Found"})
        scheme, _, given = (h.headers.get("Authorization") or "").partition(" ")
        authorized = scheme.lower() == "bearer" and secrets.compare_digest(given, self.request_token)
        audience = query.get("audience", [None])[0]
        with self._lock:
            self.requests.append({"audience": audience, "authorized": authorized, "time": time.time()})
        if self.slow:
            self._release.wait(120)
            return
        if not authorized:
            return self._json(h, 401, {"message": "Bad credentials"})
        if self.refuse:
            return self._json(h, self.refuse, {"message": "Refused by the stand-in"})
        value = self.mint(aud=audience or "https://github.com/org")
        self._json(h, 200, {"count": len(self.issued), "value": value})

    @staticmethod
    def _json(h, status, body):
        data = json.dumps(body).encode()
        try:
            h.send_response(status)
            h.send_header("Content-Type", "application/json")
            h.send_header("Content-Length", str(len(data)))
            h.end_headers()
            h.wfile.write(data)
        except OSError:
            pass
