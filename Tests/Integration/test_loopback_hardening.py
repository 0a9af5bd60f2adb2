"""The loopback listener of `kcauth login` under attack from other local processes (login
fixation, connections that starve the browser's): the built binary, the real test provider, the
scripted user as $BROWSER and a real gnome-keyring, as in test_login.py."""

import json
import os
import re
import shutil
import socket
import subprocess
import threading
import time

import pytest

from kcauth import BINARY, stored_items
from provider import scripted_user_command


def login_args(provider, *extra, client_id="kcauth"):
    return ("login", "--issuer", provider.issuer, "--client-id", client_id, "--timeout", "30", *extra)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def connect_when_listening(port, deadline):
    """A connection to 127.0.0.1:port, retried until kcauth listens there."""
    while True:
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=5)
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.02)


class JunkConnections(threading.Thread):
    """Opens `count` connections to the listener that never send a byte (and `partial` that send
    half a request head and stop), and keeps them open until stop()."""

    def __init__(self, port, count, partial=0, ready_file=None):
        super().__init__(daemon=True)
        self.port, self.count, self.partial, self.ready_file = port, count, partial, ready_file
        self.sockets, self.error = [], None
        self._release = threading.Event()

    def run(self):
        try:
            deadline = time.monotonic() + 30
            for index in range(self.count + self.partial):
                s = connect_when_listening(self.port, deadline)
                if index < self.partial:
                    s.sendall(b"GET /callback?state=")
                self.sockets.append(s)
        except OSError as exc:
            self.error = exc
        finally:
            if self.ready_file:
                self.ready_file.write_text(f"{len(self.sockets)}\n")
        self._release.wait(60)
        for s in self.sockets:
            s.close()

    def stop(self):
        self._release.set()
        self.join(10)


def test_the_callback_is_served_while_hundreds_of_idle_connections_are_open(provider, keyring, kcauth, scripted_browser_env, tmp_path):
    # Before: the listener kept every silent connection forever and refused new ones beyond 32,
    # so the browser's redirect was closed unanswered and the login timed out.
    port = free_port()
    ready = tmp_path / "junk-ready"
    junk = JunkConnections(port, count=300, partial=20, ready_file=ready)
    # The browser starts only once every junk connection is open.
    browser = tmp_path / "browser-after-junk"
    browser.write_text(f'#!/bin/sh\nfor i in $(seq 600); do [ -e "{ready}" ] && break; sleep 0.05; done\n'
                       f'exec "{scripted_browser_env["BROWSER"]}" "$@"\n')
    browser.chmod(0o755)
    junk.start()
    try:
        r = kcauth(*login_args(provider, "--port", str(port)), env={"BROWSER": str(browser)})
    finally:
        junk.stop()
    assert junk.error is None and len(junk.sockets) == 320, junk.error
    assert r.returncode == 0, r
    result = scripted_browser_env.wait_result()
    assert result["ok"], result["error"]
    assert result["callback_status"] == 200 and "You are signed in as <strong>alice</strong>" in result["callback_body"]
    assert [item["profile"] for item in stored_items(keyring)] == ["default"]


# --- login fixation -----------------------------------------------------------------------------
# Before: the browser was started with the authorization URL (state, nonce, code_challenge) on its
# command line, which every local user can read in /proc/PID/cmdline. Someone who read it could
# sign in as *themselves* with that request and deliver their code first: the victim would be
# signed in as the attacker, silently.


def browser_wrapper(tmp_path, scripted_browser_env, before=""):
    """A $BROWSER that records its argv (what /proc/PID/cmdline shows every local user), runs
    `before` (shell, with the URL in "$1"), then hands the URL to the scripted user."""
    argv_file = tmp_path / "browser-argv"
    wrapper = tmp_path / "recording-browser"
    wrapper.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > "{argv_file}"\n{before}\n'
                       f'exec "{scripted_browser_env["BROWSER"]}" "$@"\n')
    wrapper.chmod(0o755)
    return str(wrapper), argv_file


def test_the_browsers_argv_holds_a_one_shot_local_url_not_the_authorization_request(provider, keyring, kcauth, scripted_browser_env, tmp_path):
    wrapper, argv_file = browser_wrapper(tmp_path, scripted_browser_env)
    r = kcauth(*login_args(provider), env={"BROWSER": wrapper})
    assert r.returncode == 0, r
    result = scripted_browser_env.wait_result()
    argv = argv_file.read_text().split()
    assert len(argv) == 1 and argv[0].startswith("http://127.0.0.1:") and "/start/" in argv[0]
    for secret in ("state", "nonce", "code_challenge", result["callback_params"]["state"]):
        assert secret not in argv[0]
    assert result["start_status"] == 302 and len(result["start_cookies"]) == 1, "the start URL binds the browser"
    # Printed for the person: another short local start URL, not the one in argv, and nothing of the request.
    printed = re.search(r"^  (http://127\.0\.0\.1:\d+/show/\S+)$", r.stderr, re.M).group(1)
    assert printed != argv[0] and len(printed) < 70, printed
    assert provider.authorization_endpoint not in r.stderr and "state=" not in r.stderr


def test_a_valid_code_delivered_by_another_client_is_refused(provider, keyring, kcauth, scripted_browser_env):
    # The attacker has the request (here: the scripted user hands it over), signs in as bob and
    # delivers bob's callback before the browser: refused, and bob's code is never redeemed.
    r = kcauth(*login_args(provider), env={"SCRIPTED_MODE": "foreign-callback-first"})
    assert r.returncode == 0, r
    result = scripted_browser_env.wait_result()
    assert result["ok"], result["error"]
    assert result["foreign_callback_params"]["state"] == result["callback_params"]["state"]
    assert result["foreign_callback_params"]["code"] != result["callback_params"]["code"]
    assert result["foreign_callback_status"] == 400
    assert "did not come from the browser kcauth opened" in result["foreign_callback_body"]
    assert result["callback_status"] == 200 and "signed in as <strong>alice</strong>" in result["callback_body"]
    assert "as alice" in r.stderr and "bob" not in r.stderr
    assert len(provider.token_requests("authorization_code")) == 1


def test_a_second_use_of_the_start_url_aborts_the_login(provider, keyring, kcauth, scripted_browser_env, tmp_path):
    # Someone races the browser to the start URL (and gets the request and the cookie): when the
    # browser arrives second, the login ends, and nothing is stored.
    race = tmp_path / "race.json"
    grab = (f'"{scripted_browser_env["BROWSER"]}" --version >/dev/null 2>&1; '
            f'curl -s -o /dev/null -w "%{{http_code}} %{{redirect_url}}" "$1" > "{race}"')
    wrapper, _ = browser_wrapper(tmp_path, scripted_browser_env, before=grab)
    r = kcauth(*login_args(provider), env={"BROWSER": wrapper})
    assert r.returncode == 3, r
    assert "opened twice" in r.stderr and "stored nothing" in r.stderr and r.stderr.count("error:") == 1
    status, location = race.read_text().split(" ", 1)
    assert status == "302" and location.startswith(provider.authorization_endpoint), "the racer came first"
    result = scripted_browser_env.wait_result()
    assert result["start_status"] == 409 and "stopped this login" in result["start_body"]
    assert stored_items(keyring) == []
    assert provider.token_requests() == []
    assert not kcauth.config_file.exists()


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"), reason="needs root to act as another user")
def test_another_user_can_neither_take_the_start_url_nor_deliver_a_callback(provider, keyring, kcauth, scripted_browser_env, tmp_path):
    # Another user (nobody) reads the start URL from the browser's argv and gets there first.
    statuses = tmp_path / "other-user.txt"
    probe = ("import http.client, sys, urllib.parse as u\n"
             "start = u.urlsplit(sys.argv[1])\n"
             "for path in (start.path, '/callback?state=guess&code=attacker'):\n"
             "    c = http.client.HTTPConnection(start.hostname, start.port, timeout=10)\n"
             "    c.request('GET', path)\n"
             "    print(c.getresponse().status)\n")
    other = f'setpriv --reuid=65534 --regid=65534 --clear-groups /usr/bin/python3 -c "{probe}" "$1" > "{statuses}"'
    wrapper, _ = browser_wrapper(tmp_path, scripted_browser_env, before=other)
    r = kcauth(*login_args(provider), env={"BROWSER": wrapper})
    assert statuses.read_text().split() == ["403", "403"]
    assert r.returncode == 0, r
    result = scripted_browser_env.wait_result()
    assert result["start_status"] == 302, "the other user's request did not use the start URL up"
    assert "as alice" in r.stderr


def test_without_a_browser_the_printed_url_signs_in_with_no_cookie(provider, keyring, kcauth, tmp_path):
    # --no-browser: nothing is bound (the user copies the URL into any browser); state alone
    # ties the response to the request, and the URL is only on the user's terminal.
    process = subprocess.Popen([str(BINARY), *login_args(provider, "--no-browser")], env=kcauth.env,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = []
        for line in process.stderr:
            lines.append(line)
            if line.strip().startswith(provider.authorization_endpoint):
                break
        url = lines[-1].strip()
        user = subprocess.run(scripted_user_command("login", url), capture_output=True, text=True, timeout=60,
                              env={**os.environ, "SCRIPTED_RESULT": str(tmp_path / "typed.json")})
        assert user.returncode == 0, user.stderr
        stdout, rest = process.communicate(timeout=60)
    finally:
        process.kill() if process.poll() is None else None
    assert process.returncode == 0, "".join(lines) + rest
    assert "as alice" in rest
    result = json.loads((tmp_path / "typed.json").read_text())
    assert result["callback_status"] == 200


def test_the_printed_start_url_signs_in_a_second_browser(provider, keyring, kcauth, tmp_path):
    # The browser kcauth started follows its start URL (and gets the cookie) but nobody signs in
    # there: the person opens the printed URL in another browser of theirs on this machine.
    followed = tmp_path / "first-browser.txt"
    first = tmp_path / "first-browser"
    first.write_text(f'#!/bin/sh\ncurl -s -o /dev/null -w "%{{http_code}}" "$1" > "{followed}"\n')
    first.chmod(0o755)
    process = subprocess.Popen([str(BINARY), *login_args(provider)], env={**kcauth.env, "BROWSER": str(first)},
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = []
        for line in process.stderr:
            lines.append(line)
            if line.startswith("  http://127.0.0.1:"):
                break
        printed = lines[-1].strip()
        deadline = time.monotonic() + 10
        while not (followed.exists() and followed.read_text()) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert followed.read_text() == "302", "the first browser got there first"
        second = subprocess.run(scripted_user_command("login", printed), capture_output=True, text=True, timeout=60,
                                env={**os.environ, "SCRIPTED_RESULT": str(tmp_path / "second.json")})
        assert second.returncode == 0, second.stderr
        _, rest = process.communicate(timeout=60)
    finally:
        process.kill() if process.poll() is None else None
    assert process.returncode == 0, "".join(lines) + rest
    assert "/show/" in printed and "as alice" in rest
    result = json.loads((tmp_path / "second.json").read_text())
    assert result["start_status"] == 302 and result["callback_status"] == 200
    assert len(provider.token_requests("authorization_code")) == 1
