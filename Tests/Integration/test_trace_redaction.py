"""The redaction proof: every flow run with `--debug` (and `--debug=json`), the built binary against
the real provider, keyring, kernel keyring and sshd, and the whole trace searched for every secret
of the session — as sent, base64url- and base64-encoded and percent-encoded — none may appear.

Secrets are collected from where they really are: the stored sessions (keyring, file store, the
encrypted store opened with Python's own scrypt and AES-GCM), the provider's database (every access,
refresh and device code it issued, every authorization code it still holds), the scripted
browser's results (the authorization request's `state` and `nonce`, the start URL's one-shot path,
the redirect's `code`), the addresses pasted back, and what the test itself set (the client secret,
its Basic header, the passphrase, the encrypted store's data key, the DPoP key). Signed JWTs that
never rest anywhere (client assertions, DPoP proofs) are caught by shape: no JWT may be in a trace.

So that the proof cannot pass on an empty trace, the traces together must hold every event the
trace promises (HTTP requests and answers, discovery and key-set decisions, the flow and why, store
and encrypted-store calls, lock waits, the browser launch, the loopback listener's connections,
device polls, a forward's requests, the front's decision). Providers, the keyring and the sshd are
shared by the whole module (one sign-in per flow, each on its own profile).
"""

import base64
import json
import os
import re
import shutil
import sqlite3
import subprocess
import time
import urllib.parse
from pathlib import Path

import pytest

from kcauth import BINARY, Kcauth
from keyring import KeyringSession, no_bus_env
from provider import ProviderFactory, ScriptedBrowserEnv
from test_client_authentication import KEYS, SECRET
from test_device import Background, scripted_user
from test_encrypted_store import PASSPHRASE, PrivateKcauth, data_key, open_session, passphrase_file, user_keyring  # noqa: F401
from test_reach_browser import Terminal, authorization_url, remote_browser_callback

TEXT_LINE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z \+\d+ms (\S+)")
# Any signed JWT: tokens, client assertions, DPoP proofs. None may be in a trace.
JWT = re.compile(r"eyJ[A-Za-z0-9_-]{6,}\.eyJ[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{16,}")

# What the traces of the whole module must show between them (item 1 of the trace's promise).
EVENTS = {
    "command.start", "command.end", "front.decision", "http.request", "http.response", "discovery.fetched", "jwks.keys",
    "flow.chosen", "authorize.request", "browser.launch", "loopback.listening", "loopback.request", "paste.received",
    "device.poll", "token.cache", "token.session", "store.check", "store.read", "store.write", "store.delete",
    "lock.acquired", "signin-lock.taken", "refresh.start", "refresh.rotated", "encrypted-store.unwrap",
    "encrypted-store.unlocked", "encrypted-store.kernel-keyring", "forward.request",
}


def b64url(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


class Proof:
    """The module's traces and secrets."""

    def __init__(self, directory):
        self.directory = Path(directory)
        self.traces = []  # (what ran, trace text)
        self.secrets = {}  # value -> where it was found
        self.runs = 0

    def run(self, kc, *args, mode="text", to="file", env=None, timeout=90, before=True):
        """`kcauth --debug[=json] ARGS` (the flag before the command, or after it), traced to a
        file (KCAUTH_DEBUG_FILE) or to stderr (its trace lines)."""
        flag = "--debug" if mode == "text" else "--debug=json"
        argv = (flag, *args) if before else (*args[:1], flag, *args[1:])
        env = dict(env or {})
        path = None
        if to == "file":
            self.runs += 1
            path = self.directory / f"trace-{self.runs}.log"
            env["KCAUTH_DEBUG_FILE"] = str(path)
        r = kc(*argv, env=env, timeout=timeout)
        self.keep(" ".join(args), path.read_text() if path else r.stderr, mode, from_stderr=path is None)
        if path:
            assert oct(os.stat(path).st_mode & 0o777) == "0o600"
        return r

    def keep(self, label, text, mode, from_stderr=False):
        """The trace lines of `text` (all of it when it is a trace file), each checked for its layout."""
        lines = []
        for line in text.splitlines():
            if mode == "json" and line.startswith('{"time":'):
                event = json.loads(line)
                assert set(event) >= {"time", "elapsed_ms", "event"}, line
                lines.append(line)
            elif mode == "text" and TEXT_LINE.match(line):
                lines.append(line)
            else:
                assert from_stderr, f"a line of a trace file that is not a trace line: {line!r}"
        assert lines, f"no trace from {label}: {text!r}"
        self.traces.append((label, "\n".join(lines) + "\n"))

    @staticmethod
    def events(trace):
        names = set()
        for line in trace.splitlines():
            match = TEXT_LINE.match(line)
            names.add(match.group(1) if match else json.loads(line)["event"])
        return names

    def secret(self, value, where):
        if isinstance(value, str) and len(value) >= 8:
            self.secrets.setdefault(value, where)

    def session(self, state, where):
        for key in ("access_token", "refresh_token", "id_token"):
            self.secret(state.get(key), f"{where}: {key}")
        if state.get("dpop"):
            pem = state["dpop"]["private_key"]
            self.secret(pem, f"{where}: DPoP key")
            for line in pem.splitlines():
                self.secret(line if "-----" not in line else None, f"{where}: DPoP key line")

    def browser(self, result, where):
        """A scripted browser's result: the authorization request's secrets, the start path, the code."""
        for url in (result.get("authorization_url"), result.get("callback_url")):
            if url:
                self.query(url, where)
        if result.get("start_url"):
            self.secret(urllib.parse.urlsplit(result["start_url"]).path.lstrip("/"), f"{where}: start path")

    def query(self, url, where):
        for name, value in urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query):
            if name in ("state", "nonce", "code", "session_state"):
                self.secret(value, f"{where}: {name}")

    def provider(self, provider):
        """Every secret the provider's database holds."""
        db = sqlite3.connect(provider._process.data_dir / "db.sqlite3")
        try:
            for table, columns in (("oauth2_provider_accesstoken", ["token"]), ("oauth2_provider_refreshtoken", ["token"]),
                                   ("oauth2_provider_grant", ["code", "nonce"]),
                                   ("oauth2_provider_devicegrant", ["device_code", "user_code"])):
                for row in db.execute(f"select {', '.join(columns)} from {table}"):
                    for column, value in zip(columns, row):
                        self.secret(value, f"{provider.issuer} {table}.{column}")
        finally:
            db.close()

    @staticmethod
    def forms(secret):
        """The secret as sent and as it would be if something encoded it on its way out."""
        raw = secret.encode()
        yield "as sent", secret
        yield "base64url", b64url(raw)
        yield "base64", base64.b64encode(raw).decode().rstrip("=")
        yield "percent-encoded", urllib.parse.quote(secret, safe="")
        yield "form-encoded", urllib.parse.quote_plus(secret, safe="")
        yield "JSON-escaped", json.dumps(secret)[1:-1]

    def check(self, traces=None):
        traces = self.traces if traces is None else traces
        assert traces and self.secrets
        for label, trace in traces:
            jwts = JWT.findall(trace)
            assert not jwts, f"a JWT in the trace of `{label}`: {jwts[0][:40]}…"
            for secret, where in self.secrets.items():
                for form, text in self.forms(secret):
                    if len(text) >= 8 and text in trace:
                        line = next(l for l in trace.splitlines() if text in l)
                        raise AssertionError(f"{where} ({form}) is in the trace of `{label}`: {line[:300]}")

    def since(self, count):
        return self.traces[count:]


@pytest.fixture(scope="module")
def proof(tmp_path_factory):
    return Proof(tmp_path_factory.mktemp("traces"))


@pytest.fixture(scope="module")
def providers():
    factory = ProviderFactory()
    # A: the plain provider (device polls every second); B: PAR and DPoP.
    yield factory(device_interval=1), factory(par="on", dpop="on", access_token_lifetime=60)
    factory.stop_all()


@pytest.fixture(scope="module")
def shared_keyring(tmp_path_factory):
    with KeyringSession(tmp_path_factory.mktemp("keyring")) as session:
        yield session


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    return ScriptedBrowserEnv(tmp_path_factory.mktemp("browser") / "scripted-result.json")


@pytest.fixture(scope="module")
def kc(tmp_path_factory, shared_keyring, browser):
    return Kcauth(tmp_path_factory.mktemp("kcauth"), shared_keyring.env, dict(browser))


def stored(keyring, profile):
    return json.loads(keyring.secret_tool("lookup", "profile", profile).stdout)


def login_args(provider, profile, *extra, client_id="kcauth"):
    return ("login", "--issuer", provider.issuer, "--client-id", client_id, "--profile", profile, "--timeout", "30", *extra)


def browser_result(browser):
    result = browser.wait_result()
    browser.result_path.unlink()
    return result


# --- the flows ------------------------------------------------------------------------------------


def test_loopback_sign_in_token_and_refresh_with_rotation(proof, providers, kc, shared_keyring, browser):
    a, _ = providers
    start = len(proof.traces)
    r = proof.run(kc, *login_args(a, "loop"), to="stderr")
    assert r.returncode == 0, r
    proof.browser(browser_result(browser), "the loopback sign-in's browser")
    first = stored(shared_keyring, "loop")
    proof.session(first, "the loopback session")

    # stdout is the same with and without a trace, in either format and from either program.
    for args in (("token", "--profile", "loop"), ("token", "--profile", "loop", "-o", "header"),
                 ("token", "--profile", "loop", "-o", "env"), ("profiles",)):
        plain = kc(*args)
        assert plain.returncode == 0, plain
        for mode in ("text", "json"):
            traced = proof.run(kc, *args, mode=mode, before=mode == "text")
            assert (traced.returncode, traced.stdout) == (plain.returncode, plain.stdout), args

    # Refresh with rotation: the provider rotates the refresh token; the trace says so, redacted.
    for mode in ("json", "text"):
        r = proof.run(kc, "refresh", "--profile", "loop", mode=mode)
        assert r.returncode == 0, r
        proof.session(stored(shared_keyring, "loop"), "the refreshed session")
    assert stored(shared_keyring, "loop")["refresh_token"] != first["refresh_token"]
    r = proof.run(kc, "whoami", "--profile", "loop", "--userinfo", mode="json")
    assert r.returncode == 0, r
    proof.provider(a)
    traced = proof.since(start)
    proof.check(traced)
    names = set().union(*(Proof.events(t) for _, t in traced))
    assert {"refresh.rotated", "browser.launch", "loopback.request", "token.cache", "front.decision"} <= names
    assert any('peer="accepted"' in t or "peer=accepted" in t or '"peer":"accepted"' in t for _, t in traced)


def test_device_flow(proof, providers, kc, shared_keyring):
    a, _ = providers
    start = len(proof.traces)
    path = proof.directory / "device.log"
    run = Background(kc, "--debug=json", *login_args(a, "device", "--device"), env={"KCAUTH_DEBUG_FILE": str(path)})
    link = run.link()
    scripted_user(link)
    code, stdout, stderr = run.finish()
    assert code == 0 and stdout == "", stderr
    proof.keep("login --device", path.read_text(), "json")
    proof.secret(urllib.parse.parse_qs(urllib.parse.urlsplit(link).query)["user_code"][0], "the device flow's user code")
    proof.session(stored(shared_keyring, "device"), "the device session")
    proof.provider(a)
    proof.check(proof.since(start))
    assert "device.poll" in Proof.events(proof.traces[-1][1])


def test_paste_back(proof, providers, kc, shared_keyring):
    a, _ = providers
    start = len(proof.traces)
    path = proof.directory / "paste.log"
    env = {**kc.env, "SSH_CONNECTION": "10.0.0.1 5000 10.0.0.2 22", "TERM": "xterm", "KCAUTH_DEBUG_FILE": str(path)}
    term = Terminal(("--debug", *login_args(a, "paste", "--browser")), env)
    term.read_until("Address: ")
    url = authorization_url(term.output, a)
    proof.query(url, "the paste-back's authorization URL")
    callback = remote_browser_callback(url)
    proof.query(callback, "the pasted address")
    term.type(callback + "\n")
    code, stdout = term.finish()
    assert code == 0 and stdout == "", term.output
    proof.keep("login (paste-back)", path.read_text(), "text")
    proof.session(stored(shared_keyring, "paste"), "the pasted session")
    proof.provider(a)
    proof.check(proof.since(start))
    assert "paste.received" in Proof.events(proof.traces[-1][1])


def test_client_credentials_with_a_secret_and_with_private_key_jwt(proof, providers, kc, shared_keyring):
    a, _ = providers
    start = len(proof.traces)
    proof.secret(SECRET, "the client secret")
    for form in (urllib.parse.quote(SECRET, safe="-._~"), urllib.parse.quote_plus(SECRET)):
        proof.secret(form, "the client secret, form-encoded")
    basic = base64.b64encode(f"kcauth-confidential:{urllib.parse.quote(SECRET, safe='-._~')}".encode()).decode()
    proof.secret(basic, "the client secret's Basic header")
    r = proof.run(kc, "login", "--client-credentials", "--issuer", a.issuer, "--client-id", "kcauth-confidential",
                  "--profile", "cc-secret", mode="json", env={"KCAUTH_CLIENT_SECRET": SECRET})
    assert r.returncode == 0, r
    proof.session(stored(shared_keyring, "cc-secret"), "the client-credentials session (secret)")
    key = str(KEYS / "kcauth-jwt-rsa.pem")
    r = proof.run(kc, "login", "--client-credentials", "--issuer", a.issuer, "--client-id", "kcauth-jwt", "--profile", "cc-jwt",
                  "--client-key", key, "--client-key-id", "kcauth-jwt-rsa", "--storage", "memory", "-o", "raw")
    assert r.returncode == 0, r
    proof.secret(r.stdout.strip(), "the private_key_jwt client's token (stdout)")
    for line in Path(key).read_text().splitlines():
        proof.secret(line if "-----" not in line else None, "the client key")
    proof.provider(a)
    traced = proof.since(start)
    proof.check(traced)
    # The assertion is shown by its claims, never as the JWT.
    assert any("client_assertion" in t and "kcauth-jwt" in t and "[client_assertion: " in t for _, t in traced)


def test_dpop_and_pushed_authorization(proof, providers, kc, shared_keyring, browser):
    _, b = providers
    start = len(proof.traces)
    r = proof.run(kc, *login_args(b, "bound", "--dpop"), mode="json")
    assert r.returncode == 0, r
    proof.browser(browser_result(browser), "the DPoP sign-in's browser")
    state = stored(shared_keyring, "bound")
    assert state["token_type"] == "DPoP"
    proof.session(state, "the DPoP session")
    r = proof.run(kc, "token", "--profile", "bound", "--min-valid", "120")  # a refresh, with a proof
    assert r.returncode == 0, r
    r = proof.run(kc, "whoami", "--profile", "bound", "--userinfo", mode="json")  # userinfo, with a proof
    assert r.returncode == 0, r
    proof.session(stored(shared_keyring, "bound"), "the refreshed DPoP session")
    proof.provider(b)
    traced = proof.since(start)
    proof.check(traced)
    text = "".join(t for _, t in traced)
    assert "[dpop_proof: " in text and "ext/par/request" in text, "the proofs and the push are traced, redacted"


def test_logout_with_revocation(proof, providers, kc, shared_keyring):
    a, _ = providers
    start = len(proof.traces)
    before = stored(shared_keyring, "loop")
    r = proof.run(kc, "logout", "--profile", "loop")
    assert r.returncode == 0, r
    proof.session(before, "the ended session")
    proof.check(proof.since(start))
    trace = proof.traces[-1][1]
    assert a.revocation_endpoint in trace and a.end_session_endpoint in trace and "store.delete" in Proof.events(trace)


def test_the_encrypted_stores_unlock(proof, providers, tmp_path, browser, user_keyring):  # noqa: F811
    a, _ = providers
    start = len(proof.traces)
    kc = PrivateKcauth(tmp_path, no_bus_env(tmp_path), dict(browser), enter=user_keyring)
    secret_file = passphrase_file(tmp_path / "passphrase", PASSPHRASE)
    proof.secret(PASSPHRASE, "the passphrase")
    r = proof.run(kc, *login_args(a, "sealed", "--storage", "encrypted", "--passphrase-file", str(secret_file)))
    assert r.returncode == 0, r
    proof.browser(browser_result(browser), "the encrypted store's sign-in's browser")
    assert kc("lock").returncode == 0
    r = proof.run(kc, "unlock", "--passphrase-file", str(secret_file), mode="json")
    assert r.returncode == 0, r
    r = proof.run(kc, "token", "--profile", "sealed", env={"KCAUTH_TOKEN_CACHE": "off"})
    assert r.returncode == 0, r
    key_file = (kc.state_dir / "store.key").read_text()
    key = data_key(key_file)
    for form in (key.hex(), b64url(key), base64.b64encode(key).decode()):
        proof.secret(form, "the encrypted store's data key")
    proof.session(open_session(kc, "sealed"), "the sealed session")
    proof.provider(a)
    traced = proof.since(start)
    proof.check(traced)
    names = set().union(*(Proof.events(t) for _, t in traced))
    assert {"encrypted-store.unwrap", "encrypted-store.unlocked"} <= names


@pytest.mark.skipif(os.geteuid() != 0 or not os.path.exists("/usr/sbin/sshd") or not shutil.which("ssh"),
                    reason="needs root, openssh-server and openssh-client")
def test_ssh_forwarding(proof, providers, kc, tmp_path):
    from sshremote import Remote

    a, _ = providers
    start = len(proof.traces)
    assert kc(*login_args(a, "laptop", "--storage", "file")).returncode == 0
    remote = Remote(tmp_path)
    try:
        r = proof.run(kc, "ssh", "--profile", "laptop", *remote.ssh_options, remote.destination, remote.kcauth, "token")
        assert r.returncode == 0, r
        proof.secret(r.stdout.strip(), "the token the remote host got")
    finally:
        remote.stop()
    proof.session(json.loads((kc.state_dir / "laptop.json").read_text()), "the forwarded session")
    proof.provider(a)
    proof.check(proof.since(start))
    assert "forward.request" in Proof.events(proof.traces[-1][1])


def test_the_fronts_decision(proof, providers, kc):
    assert kc("token", "--profile", "paste").returncode == 0  # the runtime cache is warm now
    r = proof.run(kc, "token", "--profile", "paste")
    assert r.returncode == 0, r
    assert re.search(r"front\.decision command=token program=\"kcauth \(front\)\" decision=served", proof.traces[-1][1]), proof.traces[-1][1]
    r = proof.run(kc, "token", "--profile", "paste", mode="json", env={"KCAUTH_TOKEN_CACHE": "off"})
    assert r.returncode == 0, r
    assert '"reason":"a variable the front leaves to kcauth-full"' in proof.traces[-1][1]


def test_a_trace_file_that_is_a_link_or_open_to_others_is_refused_and_a_bad_setting_is_a_usage_error(kc, tmp_path):
    target = tmp_path / "target"
    target.write_text("")
    link = tmp_path / "link"
    link.symlink_to(target)
    # `token` reaches the front first, which leaves the refusal to the full program: one error, same words.
    for args in (("token",), ("status",)):
        r = kc(*args, env={"KCAUTH_DEBUG": "1", "KCAUTH_DEBUG_FILE": str(link)})
        assert r.returncode == 1 and r.stdout == "", r
        assert r.stderr == f"error: refusing to use {link}: it is a symbolic link; remove it\n", r
    assert target.read_text() == "", "a link is never followed"
    shared = tmp_path / "shared"
    shared.write_text("")
    shared.chmod(0o644)
    r = kc("--debug", "status", env={"KCAUTH_DEBUG_FILE": str(shared)})
    assert r.returncode == 1 and "it is accessible to group or others (mode 0644)" in r.stderr, r
    if os.geteuid() == 0:
        theirs = tmp_path / "theirs"
        theirs.write_text("")
        theirs.chmod(0o600)
        os.chown(theirs, 65534, 65534)
        r = kc("token", "--debug", env={"KCAUTH_DEBUG_FILE": str(theirs)})
        assert r.returncode == 1 and "it is owned by uid 65534, not by you" in r.stderr, r
        assert theirs.read_text() == ""
    for args in (("token",), ("status",)):
        r = kc(*args, env={"KCAUTH_DEBUG": "verbose"})
        assert r.returncode == 2 and r.stderr.startswith("error: KCAUTH_DEBUG is 'verbose': use 1, text or json"), r
    # Without a trace asked for, the file is not even made.
    unused = tmp_path / "unused"
    assert kc("status", env={"KCAUTH_DEBUG_FILE": str(unused)}).returncode in (0, 4)
    assert not unused.exists()


def test_the_whole_trace_holds_every_event_and_no_secret_of_the_session(proof, providers):
    for provider in providers:
        proof.provider(provider)
    names = set().union(*(Proof.events(t) for _, t in proof.traces))
    missing = EVENTS - names
    if os.geteuid() != 0 or not os.path.exists("/usr/sbin/sshd"):
        missing -= {"forward.request"}
    assert not missing, f"events no flow traced: {sorted(missing)}"
    assert len(proof.secrets) > 30, proof.secrets
    proof.check()
