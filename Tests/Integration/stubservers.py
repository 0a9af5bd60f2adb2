"""Small servers that stand in for the services a token is for: each checks the bearer token it
is given against the real test provider, so only a token the provider issued gets through.

    check = TokenCheck(provider)           # .access(token) via userinfo, .id_token(token) via JWKS
    with KubeAPIStub(ca, check) as api:    # HTTPS (kubectl uses exec plugins only over https)
    with GitHTTPServer(repos, check) as git:   # `git http-backend` behind Basic/Bearer auth
    with HeaderEchoServer(check) as srv:   # 200 and the user name for a valid Authorization header

Everything runs in threads of the test process and is shut down on exit.
"""

import base64
import http.server
import json
import os
import ssl
import subprocess
import threading
import time

import requests
from jwcrypto import jwk, jwt


class TokenCheck:
    """Asks the provider: an access token is valid if userinfo accepts it; an ID token if its
    signature verifies with the provider's JWKS and iss/exp are right. Results are remembered."""

    def __init__(self, provider):
        self.provider = provider
        self.rejected = set()  # tokens the test wants refused although valid
        self.seen = []
        self._lock = threading.Lock()

    def access(self, token):
        with self._lock:
            self.seen.append(token)
        if token in self.rejected:
            return None
        r = requests.get(self.provider.userinfo_endpoint, headers={"Authorization": f"Bearer {token}"}, timeout=10)
        return r.json().get("preferred_username") if r.status_code == 200 else None

    def id_token(self, token):
        with self._lock:
            self.seen.append(token)
        keys = jwk.JWKSet.from_json(requests.get(self.provider.jwks_uri, timeout=10).text)
        try:
            claims = json.loads(jwt.JWT(jwt=token, key=keys, check_claims={"iss": self.provider.issuer, "exp": None}).claims)
        except Exception:
            return None
        return claims.get("preferred_username") or claims.get("sub")

    def bearer(self, header):
        """A user name for `Authorization: Bearer <valid ID or access token>`, else None."""
        if not header or not header.startswith("Bearer "):
            return None
        token = header[len("Bearer "):]
        return self.id_token(token) if token.count(".") == 2 and self.id_token(token) else self.access(token)


class _Server:
    def __init__(self, handler, tls=None):
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.owner = self
        if tls:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(str(tls.cert_pem), str(tls.key_pem))
            self.httpd.socket = context.wrap_socket(self.httpd.socket, server_side=True)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.requests = []

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


class _Quiet(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body, content_type="application/json", headers=()):
        data = body if isinstance(body, bytes) else body.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)


class _KubeHandler(_Quiet):
    def do_GET(self):
        owner = self.server.owner
        user = owner.check.bearer(self.headers.get("Authorization"))
        owner.requests.append((self.path, user))
        if user is None:
            self.reply(401, json.dumps({"kind": "Status", "apiVersion": "v1", "status": "Failure",
                                        "message": "Unauthorized", "reason": "Unauthorized", "code": 401}))
        elif self.path.startswith("/api/v1/namespaces"):
            self.reply(200, json.dumps({"kind": "NamespaceList", "apiVersion": "v1", "metadata": {},
                                        "items": [{"metadata": {"name": f"team-{user}"}}]}))
        elif self.path.split("?")[0] == "/api":
            self.reply(200, json.dumps({"kind": "APIVersions", "versions": ["v1"],
                                        "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0",
                                                                        "serverAddress": "127.0.0.1"}]}))
        else:
            self.reply(404, json.dumps({"kind": "Status", "code": 404}))


class KubeAPIStub(_Server):
    """Enough of a Kubernetes API server for `kubectl get --raw /api` and `get namespaces`,
    over HTTPS with the test CA's certificate; the namespace list names the token's user."""

    def __init__(self, ca, check):
        super().__init__(_KubeHandler, tls=ca)
        self.check = check


class _HeaderHandler(_Quiet):
    def do_GET(self):
        owner = self.server.owner
        time.sleep(owner.delay)  # time for the test to look at every process's argv
        user = owner.check.bearer(self.headers.get("Authorization"))
        owner.requests.append((self.path, user))
        self.reply(200 if user else 401, f"hello {user}\n" if user else "no\n", "text/plain")


class HeaderEchoServer(_Server):
    def __init__(self, check, delay=0.0):
        super().__init__(_HeaderHandler)
        self.check = check
        self.delay = delay


class _GitHandler(_Quiet):
    def do_GET(self):
        self._serve(b"")

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if self.headers.get("Transfer-Encoding") == "chunked":
            body = self._read_chunked()
        self._serve(body)

    def _read_chunked(self):
        out = b""
        while True:
            size = int(self.rfile.readline().strip(), 16)
            if size == 0:
                self.rfile.readline()
                return out
            out += self.rfile.read(size)
            self.rfile.readline()

    def _user(self):
        auth = self.headers.get("Authorization") or ""
        check = self.server.owner.check
        if auth.startswith("Basic "):
            user, _, password = base64.b64decode(auth[6:]).decode().partition(":")
            return check.access(password) and user
        return check.bearer(auth)

    def _serve(self, body):
        owner = self.server.owner
        user = self._user()
        owner.requests.append((self.command, self.path, user, self.headers.get("Authorization", "").split(" ")[0]))
        if not user:
            self.reply(401, "authentication required\n", "text/plain", [("WWW-Authenticate", 'Basic realm="test"')])
            return
        path, _, query = self.path.partition("?")
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "GIT_PROJECT_ROOT": str(owner.root),
               "GIT_HTTP_EXPORT_ALL": "1", "PATH_INFO": path, "QUERY_STRING": query, "REQUEST_METHOD": self.command,
               "CONTENT_TYPE": self.headers.get("Content-Type", ""), "CONTENT_LENGTH": str(len(body)),
               "REMOTE_USER": user, "REMOTE_ADDR": "127.0.0.1", "GIT_HTTP_MAX_REQUEST_BUFFER": "10M"}
        if self.headers.get("Git-Protocol"):
            env["GIT_PROTOCOL"] = self.headers["Git-Protocol"]
        out = subprocess.run(["git", "http-backend"], input=body, env=env, capture_output=True, timeout=60).stdout
        head, _, content = out.partition(b"\r\n\r\n")
        status, headers = 200, []
        for line in head.decode().split("\r\n"):
            key, _, value = line.partition(": ")
            if key.lower() == "status":
                status = int(value.split()[0])
            elif key:
                headers.append((key, value))
        content_type = dict((k.lower(), v) for k, v in headers).pop("content-type", "text/plain")
        self.reply(status, content, content_type, [(k, v) for k, v in headers if k.lower() != "content-type"])


class GitHTTPServer(_Server):
    """Smart HTTP for the bare repositories under `root`, only for a valid access token (the
    password of Basic auth, or a Bearer header)."""

    def __init__(self, root, check):
        super().__init__(_GitHandler)
        self.root = root
        self.check = check


class _UnixHTTPServer(http.server.ThreadingHTTPServer):
    address_family = __import__("socket").AF_UNIX

    def server_bind(self):
        self.socket.bind(self.server_address)
        self.server_name, self.server_port = "localhost", 0


class _EngineHandler(_Quiet):
    def address_string(self):
        return "local"

    def _record(self):
        owner = self.server.owner
        auth = self.headers.get("X-Registry-Auth")
        decoded = None
        if auth:
            decoded = json.loads(base64.urlsafe_b64decode(auth + "=" * (-len(auth) % 4)))
        owner.requests.append((self.command, self.path, decoded))

    def do_HEAD(self):
        self._record()
        self.reply(200, b"", "text/plain", [("Api-Version", "1.43")])

    def do_GET(self):
        self._record()
        if self.path.endswith("/_ping"):
            self.reply(200, "OK", "text/plain", [("Api-Version", "1.43")])
        else:
            self.reply(404, json.dumps({"message": "not in this stub"}))

    def do_POST(self):
        self._record()
        if "/images/create" in self.path:
            self.reply(200, json.dumps({"status": "Pulled by the stub engine"}) + "\n")
        else:
            self.reply(404, json.dumps({"message": "not in this stub"}))


class DockerEngineStub:
    """A Docker Engine API on a unix socket that answers a ping and an image pull, recording the
    X-Registry-Auth the docker CLI sends (the credentials it got from the credential helper)."""

    def __init__(self, socket_path):
        self.socket_path = str(socket_path)
        self.httpd = _UnixHTTPServer(self.socket_path, _EngineHandler)
        self.httpd.owner = self
        self.requests = []
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()
