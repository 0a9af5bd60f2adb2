#!/usr/bin/env python3
"""Start the local test OpenID Provider (django-oauth-toolkit shaped like a Keycloak realm).

From the shell it runs in the foreground until Ctrl-C and prints the issuer:

    .venv/bin/python Tests/Provider/run.py --port 8180

From Python (the pytest fixtures), start() returns a running provider and stop() ends it.

Start-up cost is kept near one second by building the data directory (SQLite database migrated
and seeded, plus the realm's RSA key) once, under .cache/provider-template/<hash of the provider
sources>, and copying it for each run.
"""

import argparse
import fcntl
import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

PROVIDER_DIR = Path(__file__).resolve().parent
REPO_DIR = PROVIDER_DIR.parent.parent
CACHE_DIR = REPO_DIR / ".cache" / "provider-template"
REALM = "demo"
DEFAULT_THREADS = 4

sys.path.insert(0, str(PROVIDER_DIR))
from kcprovider.config import ASSERTION_AUDIENCES, KNOWN_FAULTS  # noqa: E402  (plain Python, no Django)


@dataclass
class Options:
    """Per-start settings; each becomes a PROVIDER_* environment variable (kcprovider/config.py)."""

    port: int = 0  # 0: a free ephemeral port
    host: str = "127.0.0.1"
    access_token_lifetime: int = 300
    refresh_token_lifetime: int = 1800
    reuse_protection: bool = True
    refresh_grace_period: int = 0
    refresh_delay: float = 0
    device_interval: int = 5
    device_slow_down: bool = True
    device_enforced_interval: int = 0  # slow_down below this spacing, though `interval` is smaller
    device_pkce: bool = True
    device_code_lifespan: int = 600
    faults: list = field(default_factory=list)
    request_log: str = ""  # path of the JSON-lines request log; "" = <run dir>/requests.jsonl
    threads: int = DEFAULT_THREADS
    # The aud a client assertion must name: "token-endpoint-or-issuer" or "token-endpoint" only.
    assertion_audience: str = "token-endpoint-or-issuer"
    # Hostile and minimal providers (kcprovider/interop.py, README "Interop switches"); a None
    # value in an override dict removes that field.
    token_overrides: list = field(default_factory=list)  # the i-th refresh answer gets the i-th dict
    device_overrides: dict = field(default_factory=dict)  # merged into device authorization answers
    id_token_overrides: dict = field(default_factory=dict)  # merged into ID-token claims before signing
    discovery_overrides: dict = field(default_factory=dict)  # merged into the discovery document
    refresh_error: dict = field(default_factory=dict)  # every refresh grant answers 400 with this body
    authorization_error: str = ""  # the authorization endpoint redirects back with error=this
    exact_redirect_uris: bool = False  # a redirect_uri with a port is refused, as exact matching does
    # DPoP (RFC 9449, kcprovider/dpop.py): "off", "on" (bind tokens to a proof's key), "bearer"
    # (verify proofs but issue Bearer tokens: a provider that does not bind).
    dpop: str = "off"
    dpop_nonce: bool = False  # every proof must carry a fresh single-use nonce from DPoP-Nonce
    # PAR (RFC 9126, kcprovider/par.py): "off", "on" (an endpoint), "required" (an ordinary
    # authorization request is refused with invalid_request, as Keycloak's client policy does).
    par: str = "off"
    par_advertised: bool = True  # False: discovery does not list the endpoint (for --par always)
    par_lifetime: int = 60  # seconds a request_uri lives (Keycloak's default)
    par_error: str = ""  # every push is refused with 400 and this error
    # Where the realm is mounted: Keycloak's path, or another one, for a provider kcauth must not
    # take for Keycloak (see kcprovider/config.py).
    issuer_path: str = f"realms/{REALM}"
    # Keycloak's federated client authentication (kcprovider/federation.py): the issuer the
    # clients kcauth-ci and kcauth-ci-spiffe trust (a live one: its JWKS is fetched), and their
    # federated subjects ("": the defaults in kcprovider/config.py).
    ci_issuer: str = ""
    ci_subject: str = ""
    ci_spiffe_subject: str = ""

    def environment(self, port, data_dir, request_log):
        return {
            "DJANGO_SETTINGS_MODULE": "kcprovider.settings",
            "PROVIDER_HOST": self.host,
            "PROVIDER_PORT": str(port),
            "PROVIDER_DATA_DIR": str(data_dir),
            "PROVIDER_ACCESS_TOKEN_LIFETIME": str(self.access_token_lifetime),
            "PROVIDER_REFRESH_TOKEN_LIFETIME": str(self.refresh_token_lifetime),
            "PROVIDER_REUSE_PROTECTION": "1" if self.reuse_protection else "0",
            "PROVIDER_REFRESH_GRACE_PERIOD": str(self.refresh_grace_period),
            "PROVIDER_REFRESH_DELAY": str(self.refresh_delay),
            "PROVIDER_DEVICE_INTERVAL": str(self.device_interval),
            "PROVIDER_DEVICE_SLOW_DOWN": "1" if self.device_slow_down else "0",
            "PROVIDER_DEVICE_ENFORCED_INTERVAL": str(self.device_enforced_interval),
            "PROVIDER_DEVICE_PKCE": "1" if self.device_pkce else "0",
            "PROVIDER_DEVICE_CODE_LIFESPAN": str(self.device_code_lifespan),
            "PROVIDER_FAULT": ",".join(self.faults),
            "PROVIDER_REQUEST_LOG": str(request_log),
            "PROVIDER_ASSERTION_AUDIENCE": self.assertion_audience,
            "PROVIDER_TOKEN_OVERRIDES": json.dumps(self.token_overrides),
            "PROVIDER_DEVICE_OVERRIDES": json.dumps(self.device_overrides),
            "PROVIDER_ID_TOKEN_OVERRIDES": json.dumps(self.id_token_overrides),
            "PROVIDER_DISCOVERY_OVERRIDES": json.dumps(self.discovery_overrides),
            "PROVIDER_REFRESH_ERROR": json.dumps(self.refresh_error),
            "PROVIDER_AUTHORIZATION_ERROR": self.authorization_error,
            "PROVIDER_EXACT_REDIRECT_URIS": "1" if self.exact_redirect_uris else "0",
            "PROVIDER_DPOP": self.dpop,
            "PROVIDER_DPOP_NONCE": "1" if self.dpop_nonce else "0",
            "PROVIDER_PAR": self.par,
            "PROVIDER_PAR_ADVERTISED": "1" if self.par_advertised else "0",
            "PROVIDER_PAR_LIFETIME": str(self.par_lifetime),
            "PROVIDER_PAR_ERROR": self.par_error,
            "PROVIDER_ISSUER_PATH": self.issuer_path,
            "PROVIDER_CI_ISSUER": self.ci_issuer,
            "PROVIDER_CI_SUBJECT": self.ci_subject,
            "PROVIDER_CI_SPIFFE_SUBJECT": self.ci_spiffe_subject,
        }


# --- the template data directory ----------------------------------------------------------------


def _sources_hash():
    """Hash of everything that shapes the seeded database, so the template rebuilds on change."""
    digest = hashlib.sha256(sys.version.encode())
    files = [PROVIDER_DIR / "manage.py", REPO_DIR / "Tests" / "requirements.txt"]
    files += sorted(p for p in (PROVIDER_DIR / "kcprovider").rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    for path in files:
        if path.exists():
            digest.update(str(path.relative_to(REPO_DIR)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _write_rsa_key(path):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    path.write_bytes(pem)
    path.chmod(0o600)


def template_dir():
    """The template data dir for the current sources, built on first use (under a file lock)."""
    target = CACHE_DIR / _sources_hash()
    if (target / "ready").exists():
        return target
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    with open(CACHE_DIR / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another process may be building the same template
        if (target / "ready").exists():
            return target
        build = Path(tempfile.mkdtemp(prefix="build-", dir=CACHE_DIR))
        try:
            _write_rsa_key(build / "rsa-private.pem")
            env = dict(os.environ, **Options().environment(8180, build, ""))
            subprocess.run(
                [sys.executable, str(PROVIDER_DIR / "manage.py"), "init_realm"],
                env=env,
                check=True,
                stdout=subprocess.DEVNULL,
            )
            (build / "ready").write_text("ok\n")
            if target.exists():
                shutil.rmtree(target)
            build.rename(target)
        finally:
            shutil.rmtree(build, ignore_errors=True)
        # Old templates are dead weight once the sources changed.
        for old in CACHE_DIR.iterdir():
            if old.is_dir() and old != target and not old.name.startswith("build-"):
                shutil.rmtree(old, ignore_errors=True)
    return target


# --- one running provider -----------------------------------------------------------------------


def _die_with_parent():
    """In the child before exec: SIGTERM when the starting process dies (even by SIGKILL), so a
    killed test run leaves no provider behind. Linux only; elsewhere stop() must do."""
    try:
        import ctypes

        PR_SET_PDEATHSIG = 1
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        pass



class ProviderProcess:
    """A gunicorn process serving the provider, with its own copy of the data dir."""

    def __init__(self, options, run_dir, cleanup_run_dir):
        self.options = options
        self.run_dir = Path(run_dir)
        self._cleanup_run_dir = cleanup_run_dir
        self.data_dir = self.run_dir / "data"
        self.request_log_path = Path(options.request_log or self.run_dir / "requests.jsonl")
        self.server_log_path = self.run_dir / "server.log"
        self.process = None
        self.port = None

    @property
    def pid(self):
        return self.process.pid if self.process else None

    @property
    def base_url(self):
        host = f"[{self.options.host}]" if ":" in self.options.host else self.options.host
        return f"http://{host}:{self.port}"

    @property
    def issuer(self):
        return f"{self.base_url}/{self.options.issuer_path.strip('/')}"

    @property
    def discovery_url(self):
        return f"{self.issuer}/.well-known/openid-configuration"

    def start(self, timeout=30.0):
        try:
            self._start(timeout)
        except BaseException:
            self.stop()  # no half-started process or run dir left behind
            raise
        return self

    def _start(self, timeout):
        shutil.copytree(template_dir(), self.data_dir)
        self._serve(self.options.port, timeout)

    def _serve(self, port, timeout):
        # Bind the listening socket here and hand it to gunicorn: no race for a "free" port
        # between choosing it and gunicorn binding it.
        family = socket.AF_INET6 if ":" in self.options.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((self.options.host, port))
            sock.listen(64)
            self.port = sock.getsockname()[1]
            self._spawn(sock)
        finally:
            sock.close()  # gunicorn holds its own copy
        self._wait_ready(timeout)

    def stop_serving(self, timeout=10.0):
        """Stop gunicorn but keep the run dir (database, keys, device state): serve_again()
        continues where it stopped, as a restarted Keycloak with a database does."""
        self._stop_process(timeout)

    def serve_again(self, timeout=30.0):
        """Serve the same data on the same port again after stop_serving()."""
        if self.process is not None and self.process.poll() is None:
            raise RuntimeError("the provider is still serving")
        try:
            self._serve(self.port, timeout)
        except BaseException:
            self._stop_process(timeout)
            raise
        return self

    def _spawn(self, sock):
        env = dict(os.environ, **self.options.environment(self.port, self.data_dir, self.request_log_path))
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        command = [
            sys.executable, "-m", "gunicorn",
            "--bind", f"fd://{sock.fileno()}",
            # One worker: the device grant's slow_down state lives in process memory.
            "--workers", "1",
            "--threads", str(self.options.threads),
            "--chdir", str(PROVIDER_DIR),
            "--graceful-timeout", "2",
            "--timeout", "120",
            "--log-level", "warning",
            "kcprovider.wsgi:application",
        ]
        with open(self.server_log_path, "ab") as log:
            self.process = subprocess.Popen(
                command,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                pass_fds=[sock.fileno()],
                # Its own process group, so that stop() also reaches the worker if need be.
                start_new_session=True,
                preexec_fn=_die_with_parent,
            )

    def _wait_ready(self, timeout):
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"provider exited with {self.process.returncode}:\n{self.server_log()}")
            try:
                with urllib.request.urlopen(self.discovery_url, timeout=2) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                raise TimeoutError(f"provider not ready after {timeout} s:\n{self.server_log()}")
            time.sleep(0.05)

    def server_log(self):
        try:
            return self.server_log_path.read_text(errors="replace")[-4000:]
        except FileNotFoundError:
            return ""

    def stop(self, timeout=10.0):
        """Stop gunicorn (master and worker) by its PID and process group; remove the run dir."""
        self._stop_process(timeout)
        if self._cleanup_run_dir:
            shutil.rmtree(self.run_dir, ignore_errors=True)

    def _stop_process(self, timeout):
        if self.process is not None and self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        # The worker may outlive a killed master for a moment; make sure the group is gone.
        if self.process is not None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def start(options=None, run_dir=None, timeout=30.0):
    """Start a provider in a fresh temp dir (or in run_dir, which is then left in place)."""
    options = options or Options()
    unknown = set(options.faults) - KNOWN_FAULTS
    if unknown:
        raise ValueError(f"unknown fault(s) {sorted(unknown)}; known: {sorted(KNOWN_FAULTS)}")
    cleanup = run_dir is None
    run_dir = Path(run_dir) if run_dir else Path(tempfile.mkdtemp(prefix="kcauth-provider-"))
    return ProviderProcess(options, run_dir, cleanup).start(timeout)


# --- command line -------------------------------------------------------------------------------


def _on_off(value):
    if value.lower() in ("1", "on", "true", "yes"):
        return True
    if value.lower() in ("0", "off", "false", "no"):
        return False
    raise argparse.ArgumentTypeError("expected on or off")


def main(argv=None):
    parser = argparse.ArgumentParser(description="Run the local Keycloak-like OpenID Provider for kcauth tests.")
    parser.add_argument("--port", type=int, default=8180, help="port on 127.0.0.1 (0: any free port; default 8180)")
    parser.add_argument("--access-token-lifetime", type=int, default=300, metavar="SECONDS")
    parser.add_argument("--refresh-token-lifetime", type=int, default=1800, metavar="SECONDS",
                        help="idle life of a refresh token after its access token expired")
    parser.add_argument("--reuse-protection", type=_on_off, default=True, metavar="on|off",
                        help="replaying a rotated refresh token revokes its whole family (default on)")
    parser.add_argument("--refresh-grace-period", type=int, default=0, metavar="SECONDS",
                        help="a rotated refresh token stays usable this long (default 0: strict rotation)")
    parser.add_argument("--refresh-delay", type=float, default=0, metavar="SECONDS",
                        help="sleep this long before answering a refresh grant (a slow provider)")
    parser.add_argument("--device-interval", type=int, default=5, metavar="SECONDS")
    parser.add_argument("--no-slow-down", action="store_true", help="never answer slow_down")
    parser.add_argument("--no-device-pkce", action="store_true", help="PKCE optional on the device grant")
    parser.add_argument("--device-code-lifespan", type=int, default=600, metavar="SECONDS")
    parser.add_argument("--fault", action="append", default=[], choices=sorted(KNOWN_FAULTS),
                        help="a test fault switch (repeatable; see README.md)")
    parser.add_argument("--request-log", default="", metavar="PATH", help="JSON-lines request log")
    parser.add_argument("--threads", type=int, default=DEFAULT_THREADS)
    parser.add_argument("--assertion-audience", choices=ASSERTION_AUDIENCES, default="token-endpoint-or-issuer",
                        help="the aud a client assertion must name (default: the token endpoint or the issuer)")
    parser.add_argument("--ci-issuer", default="", metavar="URL",
                        help="the issuer kcauth-ci and kcauth-ci-spiffe trust (federated client authentication)")
    parser.add_argument("--ci-subject", default="", metavar="SUB", help="kcauth-ci's federated subject")
    args = parser.parse_args(argv)

    options = Options(
        port=args.port,
        access_token_lifetime=args.access_token_lifetime,
        refresh_token_lifetime=args.refresh_token_lifetime,
        reuse_protection=args.reuse_protection,
        refresh_grace_period=args.refresh_grace_period,
        refresh_delay=args.refresh_delay,
        device_interval=args.device_interval,
        device_slow_down=not args.no_slow_down,
        device_pkce=not args.no_device_pkce,
        device_code_lifespan=args.device_code_lifespan,
        faults=args.fault,
        request_log=args.request_log,
        threads=args.threads,
        assertion_audience=args.assertion_audience,
        ci_issuer=args.ci_issuer,
        ci_subject=args.ci_subject,
    )
    # Ctrl-C or SIGTERM: stop gunicorn and clean up. SIGINT is set explicitly because a shell
    # starts background jobs with it ignored.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        provider = start(options)
    except (OSError, RuntimeError, TimeoutError) as exc:
        print(f"run.py: cannot start the provider: {exc}", file=sys.stderr)
        return 1
    except (KeyboardInterrupt, SystemExit):
        return 0
    try:
        print(f"issuer:    {provider.issuer}")
        print(f"discovery: {provider.discovery_url}")
        print("users:     alice / wonderland, bob / builder")
        print("clients:   kcauth (code + device), kcauth-consent (consent page), kcauth-nodevice (code only)")
        print("           confidential: kcauth-confidential (secret), kcauth-jwt (private_key_jwt),")
        print("           kcauth-federated (platform-signed assertion); see Tests/Provider/README.md")
        print(f"pid:       {provider.pid}   run dir: {provider.run_dir}")
        if options.faults:
            print(f"faults:    {', '.join(options.faults)}")
        print("Press Ctrl-C to stop.", flush=True)
        while provider.process.poll() is None:
            time.sleep(0.5)
        print(provider.server_log(), file=sys.stderr)
        return provider.process.returncode or 1
    except KeyboardInterrupt:
        return 0
    finally:
        provider.stop()

if __name__ == "__main__":
    sys.exit(main())
