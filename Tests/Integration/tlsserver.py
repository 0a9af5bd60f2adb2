"""A private CA made with the `openssl` CLI, and a small HTTPS server on 127.0.0.1 that serves an
OpenID discovery document whose issuer matches its own URL (https://127.0.0.1:PORT/realms/demo).

    ca = PrivateCA(tmp_path)               # ca.ca_pem, ca.cert_pem, ca.key_pem
    with TLSDiscoveryServer(ca) as server:  # server.issuer, server.port, server.requests()
        ...

Only for the TLS cases (--ca-file, untrusted certificates): the real test provider speaks plain http
on 127.0.0.1. Each server is a child process stopped by PID; its files live in the test's tmp_path.
"""

import subprocess
import sys
from pathlib import Path

_SERVER = r"""
import http.server, json, ssl, sys
cert, key, log = sys.argv[1], sys.argv[2], sys.argv[3]

class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        path = self.path.split("?")[0]  # the authorization request's query is not logged
        with open(log, "a") as f:
            f.write(path + "\n")
        issuer = "https://127.0.0.1:%d/realms/demo" % self.server.server_address[1]
        if path == "/realms/demo/protocol/openid-connect/auth":
            # A sign-in page, as a provider shows one to a browser (kcauth checks the request first).
            page = b"<html><body><form id='kc-form-login'></form></body></html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)
            return
        if path != "/realms/demo/.well-known/openid-configuration":
            self.send_error(404)
            return
        oidc = issuer + "/protocol/openid-connect"
        body = json.dumps({
            "issuer": issuer, "authorization_endpoint": oidc + "/auth", "token_endpoint": oidc + "/token",
            "jwks_uri": oidc + "/certs", "code_challenge_methods_supported": ["S256"],
        }).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], flush=True)
server.serve_forever()
"""


class PrivateCA:
    """A CA and a server certificate for IP 127.0.0.1 signed by it (EC P-256, valid 2 days)."""

    def __init__(self, directory):
        d = Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        self.ca_pem, self.ca_key = d / "ca.pem", d / "ca.key"
        self.cert_pem, self.key_pem = d / "server.pem", d / "server.key"
        ext = d / "server.ext"
        ext.write_text("subjectAltName = IP:127.0.0.1\nbasicConstraints = CA:FALSE\nextendedKeyUsage = serverAuth\n")
        ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        for step in (
            ["openssl", "req", "-x509", *ec, "-keyout", self.ca_key, "-out", self.ca_pem, "-days", "2",
             "-subj", "/CN=kcauth test CA"],
            ["openssl", "req", *ec, "-keyout", self.key_pem, "-out", d / "server.csr", "-subj", "/CN=127.0.0.1"],
            ["openssl", "x509", "-req", "-in", d / "server.csr", "-CA", self.ca_pem, "-CAkey", self.ca_key,
             "-CAcreateserial", "-out", self.cert_pem, "-days", "2", "-extfile", ext],
        ):
            subprocess.run([str(a) for a in step], check=True, capture_output=True, timeout=30)


class TLSDiscoveryServer:
    def __init__(self, ca, directory=None):
        self.log = Path(directory or ca.ca_pem.parent) / "requests.log"
        self.log.write_text("")
        self._proc = subprocess.Popen(
            [sys.executable, "-c", _SERVER, str(ca.cert_pem), str(ca.key_pem), str(self.log)],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )
        line = self._proc.stdout.readline().strip()
        if not line.isdigit():
            self.stop()
            raise RuntimeError("TLS discovery server did not start")
        self.pid = self._proc.pid
        self.port = int(line)
        self.issuer = f"https://127.0.0.1:{self.port}/realms/demo"

    def requests(self):
        return self.log.read_text().splitlines()

    def stop(self):
        if self._proc.poll() is None:
            self._proc.kill()
        self._proc.wait(timeout=5)
        self._proc.stdout.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
