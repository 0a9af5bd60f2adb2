"""The local test OpenID Provider and the scripted browser, as seen from pytest.

Fixtures (conftest.py) are thin wrappers around what is here:

    provider = start_provider(access_token_lifetime=5, faults=["tamper-id-token-signature"])
    provider.issuer, provider.port, provider.base_url, provider.pid
    provider.request_log()             # parsed JSON lines, one per request
    provider.stop()                    # idempotent; also done at fixture teardown
    provider.stop_serving(); provider.serve_again()   # a restart on the same port, data kept

Options are the fields of run.Options (Tests/Provider/run.py): access_token_lifetime,
refresh_token_lifetime, reuse_protection, device_interval, device_slow_down, device_pkce,
device_code_lifespan, faults, request_log, threads, port, assertion_audience; and the interop switches
token_overrides, device_overrides, id_token_overrides, discovery_overrides, refresh_error,
authorization_error, exact_redirect_uris, issuer_path (Tests/Provider/README.md).
"""

import json
import os
import sys
import time
from pathlib import Path

PROVIDER_DIR = Path(__file__).resolve().parent.parent / "Provider"
SCRIPTED_BROWSER = PROVIDER_DIR / "scripted_browser"
SCRIPTED_USER = PROVIDER_DIR / "scripted_user.py"

sys.path.insert(0, str(PROVIDER_DIR))
import run as _run  # noqa: E402  (Tests/Provider/run.py)

KNOWN_FAULTS = _run.KNOWN_FAULTS
OIDC = "/protocol/openid-connect"


class Provider:
    """A running provider. Endpoint URLs are Keycloak's, under the realm issuer."""

    def __init__(self, process):
        self._process = process

    @property
    def issuer(self):
        return self._process.issuer

    @property
    def port(self):
        return self._process.port

    @property
    def base_url(self):
        return self._process.base_url

    @property
    def pid(self):
        return self._process.pid

    @property
    def options(self):
        return self._process.options

    @property
    def discovery_url(self):
        return self.issuer + "/.well-known/openid-configuration"

    @property
    def authorization_endpoint(self):
        return self.issuer + OIDC + "/auth"

    @property
    def token_endpoint(self):
        return self.issuer + OIDC + "/token"

    @property
    def device_authorization_endpoint(self):
        return self.issuer + OIDC + "/auth/device"

    @property
    def userinfo_endpoint(self):
        return self.issuer + OIDC + "/userinfo"

    @property
    def jwks_uri(self):
        return self.issuer + OIDC + "/certs"

    @property
    def revocation_endpoint(self):
        return self.issuer + OIDC + "/revoke"

    @property
    def end_session_endpoint(self):
        return self.issuer + OIDC + "/logout"

    @property
    def request_log_path(self):
        return self._process.request_log_path

    def request_log(self):
        """Every request so far: dicts with time, method, path, status, grant_type (token
        requests) and error (OAuth error code of a JSON error answer)."""
        try:
            text = self.request_log_path.read_text()
        except FileNotFoundError:
            return []
        return [json.loads(line) for line in text.splitlines() if line.strip()]

    def held_refreshes(self):
        """How many refresh grants arrived at a provider started with refresh_delay (each is
        noted when it arrives, before the delay)."""
        path = Path(str(self.request_log_path) + ".held")
        return len(path.read_text().split()) if path.exists() else 0

    def token_requests(self, grant_type=None):
        """The token-endpoint entries of the request log, optionally of one grant type."""
        return [
            e for e in self.request_log()
            if e["path"].endswith(OIDC + "/token") and (grant_type is None or e.get("grant_type") == grant_type)
        ]

    def server_log(self):
        """The tail of gunicorn's stderr, for failure messages."""
        return self._process.server_log()

    def is_running(self):
        return self._process.process is not None and self._process.process.poll() is None

    def stop(self):
        self._process.stop()

    def stop_serving(self):
        """Stop the server process but keep its data (database, keys, device codes)."""
        self._process.stop_serving()

    def serve_again(self):
        """After stop_serving(): the same data on the same port, as a restarted provider."""
        self._process.serve_again()

    def __repr__(self):
        return f"<Provider {self.issuer} pid={self.pid}>"


def start_provider(**options):
    """Start a provider on a free port of 127.0.0.1 in a fresh temp dir; return it running."""
    faults = options.pop("faults", None) or []
    fault = options.pop("fault", None)  # convenience: one fault by name
    if fault:
        faults = [*faults, fault]
    return Provider(_run.start(_run.Options(faults=list(faults), **options)))


class ProviderFactory:
    """Starts providers for one test and stops them all at teardown."""

    def __init__(self):
        self.started = []

    def __call__(self, **options):
        provider = start_provider(**options)
        self.started.append(provider)
        return provider

    def stop_all(self):
        for provider in self.started:
            provider.stop()
        self.started.clear()


# --- the scripted browser -----------------------------------------------------------------------


class ScriptedBrowserEnv(dict):
    """Environment variables that make a CLI's $BROWSER the scripted user.

    It is a dict, so `env = {**os.environ, **scripted_browser_env}` works; set more SCRIPTED_*
    keys on it (SCRIPTED_ACTION="deny", SCRIPTED_MODE="wrong-state-first", ...) before use.
    """

    def __init__(self, result_path, **extra):
        super().__init__(BROWSER=str(SCRIPTED_BROWSER), SCRIPTED_RESULT=str(result_path), **extra)
        self.result_path = Path(result_path)

    def wait_result(self, timeout=30.0):
        """The scripted user's result (it runs detached, so wait for its atomically written file)."""
        deadline = time.monotonic() + timeout
        while not self.result_path.exists():
            if time.monotonic() > deadline:
                raise TimeoutError(f"no scripted-user result at {self.result_path} after {timeout} s")
            time.sleep(0.05)
        return json.loads(self.result_path.read_text())


def scripted_user_command(flow, url):
    """argv for the scripted user in the foreground: flow is "login" or "device"."""
    return [sys.executable, str(SCRIPTED_USER), flow, url]


def pid_alive(pid):
    """True if a process with this PID exists (and is not a zombie of ours)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False
