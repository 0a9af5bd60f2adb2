"""`kcauth login` with the device authorization grant (RFC 8628) end to end: the built binary,
the real test provider (device grant on client `kcauth`, Keycloak-style PKCE required), a real
gnome-keyring, and the scripted user, who opens the link kcauth prints — as a person would on
their phone — logs in, confirms the code and approves (or denies).

kcauth runs in the background and its stderr is read as it comes, so the test can hand the link
to the scripted user while kcauth polls. Also here: the automatic choice of flow (SSH, CI, a
browser that fails), the countdown line and QR code on a terminal, and Ctrl-C.
"""

import base64
import hashlib
import json
import os
import pty
import re
import signal
import struct
import subprocess
import sys
import threading
import time
import zlib

import pytest
import requests
from jwcrypto import jwk, jwt

from kcauth import BINARY
from provider import scripted_user_command

LINK = re.compile(r"^    (https?://\S+)\r?$", re.M)
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"


def login_args(provider, *extra, client_id="kcauth"):
    return ("login", "--issuer", provider.issuer, "--client-id", client_id, *extra)


def stored_items(keyring):
    """The kcauth items in the keyring, as attribute dicts (secrets not read)."""
    r = keyring.secret_tool("search", "--all", "--unlock", "xdg:schema", "dev.kcauth.AuthState")
    return [line for line in (r.stdout + r.stderr).splitlines() if line.startswith("attribute.profile")]


class Background:
    """`kcauth ARGS` started in the background; stderr (a pipe, or a terminal with tty=True) is
    collected by a thread. `env` values of None unset a variable."""

    def __init__(self, kcauth, *args, env=None, tty=False):
        environment = {**kcauth.env, **(env or {})}
        environment = {k: v for k, v in environment.items() if v is not None}
        self._chunks, self._lock = [], threading.Lock()
        # A pipe or terminal of our own: only the reader thread drains it (communicate() must not).
        source, sink = pty.openpty() if tty else os.pipe()
        self.process = subprocess.Popen([str(BINARY), *args], env=environment, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.PIPE, stderr=sink)
        os.close(sink)
        self._reader = threading.Thread(target=self._read, args=(source,), daemon=True)
        self._reader.start()

    def _read(self, fd):
        try:
            while True:
                try:
                    chunk = os.read(fd, 4096)
                except OSError:  # EIO: the terminal's other side is gone
                    break
                if not chunk:
                    break
                with self._lock:
                    self._chunks.append(chunk)
        finally:
            os.close(fd)

    @property
    def stderr(self):
        with self._lock:
            return b"".join(self._chunks).decode("utf-8", errors="replace")

    def wait_for(self, pattern, timeout=20.0):
        pattern = re.compile(pattern, re.M) if isinstance(pattern, str) else pattern
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = pattern.search(self.stderr)
            if found:
                return found
            if self.process.poll() is not None:
                time.sleep(0.2)  # let the reader drain
                found = pattern.search(self.stderr)
                if found:
                    return found
                raise AssertionError(f"kcauth exited with {self.process.returncode}:\n{self.stderr}")
            time.sleep(0.05)
        raise AssertionError(f"no {pattern!r} in kcauth's stderr after {timeout} s:\n{self.stderr}")

    def link(self):
        return self.wait_for(LINK).group(1)

    def finish(self, timeout=60):
        try:
            stdout, _ = self.process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.communicate()
            raise
        self._reader.join(5)
        return self.process.returncode, stdout.decode(), self.stderr


def scripted_user(link, **env):
    """The person with the phone: opens the link, logs in, confirms the code, approves or denies."""
    r = subprocess.run(scripted_user_command("device", link), env={**os.environ, **env},
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return r


def device_polls(provider):
    return provider.token_requests(DEVICE_GRANT)


def wait_for_log(provider, predicate, timeout=20.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(predicate(e) for e in provider.request_log()):
            return
        time.sleep(0.05)
    raise AssertionError(f"not in the provider's request log: {provider.request_log()}")


# --- the device flow ------------------------------------------------------------------------------


def test_device_login_stores_the_session_and_token_prints_it(start_provider, keyring, kcauth):
    provider = start_provider(device_interval=1)
    run = Background(kcauth, *login_args(provider, "--device"))
    link = run.link()
    assert link.startswith(provider.issuer + "/device?user_code=")
    scripted_user(link)
    code, stdout, stderr = run.finish()

    assert code == 0, stderr
    assert stdout == "", "login prints nothing on stdout"
    assert "Using the device flow, as asked on the command line." in stderr
    user_code = link.split("user_code=", 1)[1]
    assert f"\n    {user_code}\n" in stderr, "the code stands on a line of its own"
    assert f"or open {provider.issuer}/device and type the code in" in stderr
    assert "The code expires in 10 minutes." in stderr
    assert f"Logged in to {provider.issuer} as alice (profile 'default')." in stderr
    assert "\x1b" not in stderr and "\r" not in stderr, "off a terminal: plain lines only"
    assert "█" not in stderr and "▀" not in stderr, "no QR code off a terminal unless asked"

    # Keycloak-style PKCE is on: the device request was accepted, so it carried an S256
    # challenge; the poll was answered 200, so it carried the matching verifier.
    log = provider.request_log()
    assert [e["status"] for e in log if e["path"].endswith("/auth/device")] == [200]
    polls = device_polls(provider)
    assert polls[-1]["status"] == 200
    assert all(e.get("error") == "authorization_pending" for e in polls[:-1])

    token = kcauth("token")
    assert token.returncode == 0, token
    keys = jwk.JWKSet.from_json(requests.get(provider.jwks_uri, timeout=5).text)
    claims = json.loads(jwt.JWT(jwt=token.stdout.strip(), key=keys).claims)
    assert claims["iss"] == provider.issuer and claims["azp"] == "kcauth"
    state = json.loads(keyring.secret_tool("lookup", "profile", "default").stdout)
    assert state["id_token"] and state["refresh_token"] and state["id_token_expires_at"]
    assert "flow = device" in kcauth.config_file.read_text(), "--device is remembered for the profile"


def test_the_provider_requires_pkce_on_the_device_grant(provider):
    """The control for the test above: without the challenge, or without the verifier, the
    provider refuses, so kcauth's success there means it sent both."""
    endpoint = provider.device_authorization_endpoint
    bare = requests.post(endpoint, data={"client_id": "kcauth", "scope": "openid"}, timeout=5)
    assert bare.status_code == 400 and bare.json()["error"] == "invalid_request"

    verifier = "v" * 43
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    answer = requests.post(endpoint, data={"client_id": "kcauth", "scope": "openid", "code_challenge": challenge,
                                           "code_challenge_method": "S256"}, timeout=5).json()
    scripted_user(answer["verification_uri_complete"])
    form = {"grant_type": DEVICE_GRANT, "device_code": answer["device_code"], "client_id": "kcauth"}
    no_verifier = requests.post(provider.token_endpoint, data=form, timeout=5)
    assert no_verifier.status_code == 400 and no_verifier.json()["error"] == "invalid_grant"


def test_denied_exits_3_and_stores_nothing(start_provider, keyring, kcauth):
    provider = start_provider(device_interval=1)
    run = Background(kcauth, *login_args(provider, "--device"))
    scripted_user(run.link(), SCRIPTED_ACTION="deny")
    code, stdout, stderr = run.finish()
    assert code == 3, stderr
    assert "error: sign-in was denied at the provider" in stderr and stderr.count("error:") == 1
    assert stored_items(keyring) == []
    assert not kcauth.config_file.exists() or "flow" not in kcauth.config_file.read_text()


def test_an_expired_code_exits_3_and_says_run_again(start_provider, keyring, kcauth):
    provider = start_provider(device_interval=1, device_code_lifespan=3)
    started = time.monotonic()
    code, stdout, stderr = Background(kcauth, *login_args(provider, "--device")).finish()
    assert code == 3, stderr
    assert "error: the code expired before the sign-in was approved; run `kcauth login` again" in stderr
    assert "The code expires in 3 seconds." in stderr
    assert time.monotonic() - started < 10, "kcauth stops at expires_in"
    assert len(device_polls(provider)) <= 3
    assert stored_items(keyring) == []


def test_slow_down_adds_5_seconds_to_the_interval(start_provider, keyring, kcauth):
    # The provider advertises interval=1 but wants 3 s between polls: kcauth's second poll gets
    # slow_down, and from then on it waits 1 + 5 = 6 s (RFC 8628 §3.5).
    provider = start_provider(device_interval=1, device_enforced_interval=3)
    run = Background(kcauth, *login_args(provider, "--device"))
    link = run.link()
    wait_for_log(provider, lambda e: e.get("error") == "slow_down")
    scripted_user(link)
    code, stdout, stderr = run.finish()
    assert code == 0, stderr
    assert "The provider asked kcauth to poll more slowly: every 6 s from now on." in stderr

    polls = device_polls(provider)
    assert [e.get("error") for e in polls] == ["authorization_pending", "slow_down", None], polls
    assert polls[-1]["status"] == 200
    before, after = (polls[1]["time"] - polls[0]["time"]), (polls[2]["time"] - polls[1]["time"])
    assert 0.9 <= before < 1.6, polls
    assert abs((after - before) - 5) < 0.6, f"spacing {before:.2f} s, then {after:.2f} s"


def test_a_client_without_the_device_grant_is_told_to_use_the_browser(provider, keyring, kcauth):
    r = kcauth(*login_args(provider, "--device", client_id="kcauth-nodevice"))
    assert r.returncode == 1, r
    assert "unauthorized_client" in r.stderr
    assert "the device flow is not enabled for client 'kcauth-nodevice'" in r.stderr
    assert "`kcauth login --browser`" in r.stderr


def test_ctrl_c_while_polling_exits_130_and_stores_nothing(start_provider, keyring, kcauth):
    provider = start_provider(device_interval=1)
    run = Background(kcauth, *login_args(provider, "--device"))
    run.link()
    wait_for_log(provider, lambda e: e.get("grant_type") == DEVICE_GRANT)
    run.process.send_signal(signal.SIGINT)
    code, stdout, _ = run.finish(timeout=10)
    assert code == -signal.SIGINT, "killed by SIGINT: the shell reports 130"
    assert stdout == ""
    assert stored_items(keyring) == []
    assert not kcauth.config_file.exists()


# --- choosing the flow ----------------------------------------------------------------------------


def test_ssh_without_display_chooses_the_device_flow_with_countdown_and_qr_on_a_terminal(start_provider, keyring, kcauth):
    provider = start_provider(device_interval=1)
    env = {"SSH_CONNECTION": "192.0.2.7 50022 192.0.2.1 22", "BROWSER": None, "DISPLAY": None, "TERM": "xterm-256color"}
    run = Background(kcauth, *login_args(provider), env=env, tty=True)
    link = run.link()
    run.wait_for(r"left \(Ctrl-C stops\)")  # the countdown has started
    scripted_user(link)
    code, stdout, stderr = run.finish()
    assert code == 0, stderr
    assert "Using the device flow: this is an SSH session without a forwarded display." in stderr
    assert re.search(r"\r\x1b\[KWaiting for the sign-in to be approved… \d+:\d\d left", stderr), "one status line, rewritten"
    assert decode_qr(stderr) == link, "on a terminal the QR code comes unasked when no browser can be shown"
    assert "flow" not in kcauth.config_file.read_text(), "an automatic choice is not remembered"


def test_device_qr_off_a_terminal_is_plain_and_decodes_to_the_link(start_provider, keyring, kcauth):
    """The issue's "done when": `kcauth login --device --qr` in a CI-like, non-interactive run."""
    provider = start_provider(device_interval=1)
    run = Background(kcauth, *login_args(provider, "--device", "--qr"))
    link = run.link()
    scripted_user(link)
    code, _, stderr = run.finish()
    assert code == 0, stderr
    assert "\x1b" not in stderr and "\r" not in stderr
    assert decode_qr(stderr) == link


def test_ci_chooses_the_device_flow_with_plain_lines(start_provider, keyring, kcauth):
    provider = start_provider(device_interval=1)
    run = Background(kcauth, *login_args(provider), env={"CI": "true"})
    scripted_user(run.link())
    code, stdout, stderr = run.finish()
    assert code == 0, stderr
    assert stderr.startswith("Using the device flow: running in CI (CI=true).\n")
    assert "Waiting for the sign-in to be approved…\n" in stderr
    assert "\x1b" not in stderr and "\r" not in stderr and "█" not in stderr
    assert kcauth("token").returncode == 0


def test_the_ci_recipe_needs_no_keyring_tty_or_stdin(start_provider, keyring, kcauth):
    """README's CI recipe: TOKEN=$(kcauth login --device --storage memory -o raw), in a job with
    no D-Bus, no terminal and no stdin; the link and code go to the job's log (stderr)."""
    provider = start_provider(device_interval=1)
    env = {"CI": "true", "DBUS_SESSION_BUS_ADDRESS": None}
    run = Background(kcauth, *login_args(provider, "--device", "--storage", "memory", "-o", "raw"), env=env)
    scripted_user(run.link())
    code, stdout, stderr = run.finish()
    assert code == 0, stderr
    assert stdout.count("\n") == 1 and stdout.count(".") == 2, "the access token and a newline"
    assert "\x1b" not in stderr and "\r" not in stderr
    assert stored_items(keyring) == [] and not kcauth.config_file.exists(), "memory keeps nothing"


def test_a_browser_that_fails_to_start_falls_back_to_the_device_flow(start_provider, keyring, kcauth):
    provider = start_provider(device_interval=1)
    env = {"DISPLAY": ":99", "BROWSER": "/nonexistent/kcauth-test-browser"}
    run = Background(kcauth, *login_args(provider), env=env)
    link = run.link()
    scripted_user(link)
    code, _, stderr = run.finish()
    assert code == 0, stderr
    assert "Using the browser flow: a graphical display is available (DISPLAY=:99)." in stderr
    assert "Cannot start a browser (tried: /nonexistent/kcauth-test-browser); switching to the device flow." in stderr
    assert provider.authorization_endpoint not in stderr, "no dead browser URL is shown"


def test_forced_flow_is_remembered_and_the_environment_overrides_it(provider, keyring, kcauth):
    kcauth.config_file.parent.mkdir(parents=True)
    kcauth.config_file.write_text(f"[default]\nissuer = {provider.issuer}\nclient_id = kcauth-nodevice\nflow = device\n")
    remembered = kcauth("login")
    assert remembered.returncode == 1 and "unauthorized_client" in remembered.stderr
    assert remembered.stderr.startswith("Using the device flow, as the profile remembers (flow = device;")

    overridden = kcauth("login", "--no-browser", "--timeout", "1", env={"KCAUTH_FLOW": "browser"})
    assert overridden.returncode == 3, overridden
    assert overridden.stderr.startswith("Using the browser flow, as KCAUTH_FLOW asks.\n")

    bad = kcauth("login", env={"KCAUTH_FLOW": "telepathy"})
    assert bad.returncode == 2 and "KCAUTH_FLOW must be auto, browser or device" in bad.stderr
    conflict = kcauth("login", "--browser", "--device")
    assert conflict.returncode == 2 and "different flows" in conflict.stderr


# --- reading the QR code back -----------------------------------------------------------------------


def decode_qr(stderr):
    """Finds the half-block QR code in kcauth's stderr, draws it as a PNG and returns what
    `zbarimg` reads from it."""
    matrix = qr_modules(stderr)
    assert matrix, f"no QR code in:\n{stderr}"
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"kcauth-qr-{os.getpid()}-{time.monotonic_ns()}.png")
    try:
        write_png(path, matrix, scale=6)
        r = subprocess.run(["zbarimg", "--quiet", "--raw", path], capture_output=True, text=True, timeout=30)
        assert r.returncode == 0, r.stderr
        return r.stdout.strip()
    finally:
        if os.path.exists(path):
            os.unlink(path)


def qr_modules(stderr):
    """The QR code as rows of booleans (True = dark), quiet zone included. On a terminal the
    lines set black on white and draw the dark modules; as plain text the light ones are drawn."""
    rows = []
    for raw in stderr.replace("\r\n", "\n").split("\n"):
        ansi = raw.startswith("\x1b[30;107m")
        line = ANSI.sub("", raw)
        if len(line) < 21 or set(line) - set(" ▀▄█"):
            continue
        top = [c in "▀█" for c in line]
        bottom = [c in "▄█" for c in line]
        rows.append([ink == ansi for ink in top])
        rows.append([ink == ansi for ink in bottom])
    return rows


def write_png(path, matrix, scale):
    """An 8-bit greyscale PNG, black modules on white, with zlib and struct only."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    width, height = len(matrix[0]) * scale, len(matrix) * scale
    raw = b""
    for row in matrix:
        line = b"\x00" + b"".join((b"\x00" if dark else b"\xff") * scale for dark in row)
        raw += line * scale
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
