"""WSL sign-in, as it happens. On WSL2 the Windows browser's connection to
127.0.0.1:PORT reaches the Linux side through WSL's localhost relay, a root process; the listener
must serve it, and keep refusing every other user, saying so at once.

kcauth runs as an unprivileged user (a uid of its own, session on file). The "Windows side" is a
network namespace of its own: there, 127.0.0.1:PORT and the provider's port are socat relays
over Unix sockets to root-owned socat processes in the host namespace, which connect to
127.0.0.1:PORT like WSL's relay. The scripted user (the browser) runs in that namespace and
never reaches the listener directly."""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from kcauth import BINARY
from provider import SCRIPTED_USER
from testusers import unused_uid

# Uids of this run's own (no other run or suite shares their /run/user/UID or files).
USER_UID = unused_uid()  # runs kcauth
OTHER_UID = unused_uid(taken=(USER_UID,))  # a third user on the same machine

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or not all(shutil.which(tool) for tool in ("setpriv", "socat", "unshare", "nsenter", "ip", "curl")),
    reason="needs root, setpriv, socat, unshare, nsenter, ip and curl")


def browser_command(start_url):
    """The scripted user in the foreground, starting at kcauth's start URL as a browser would."""
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import scripted_user; "
            "sys.exit(scripted_user.run('start', sys.argv[2]))")
    return [sys.executable, "-c", code, str(SCRIPTED_USER.parent), start_url]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def as_user(uid, argv):
    return ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", *argv]


@pytest.fixture
def user_home():
    """A world-traversable directory with a home owned by USER_UID (pytest's tmp_path is root's
    alone); removed at the end."""
    base = Path(tempfile.mkdtemp(prefix="kcauth-wsl-"))
    base.chmod(0o755)
    home = base / "home"
    home.mkdir(mode=0o700)
    os.chown(home, USER_UID, USER_UID)
    drop = base / "drop"  # where $BROWSER leaves the URL it was given
    drop.mkdir(mode=0o700)
    os.chown(drop, USER_UID, USER_UID)
    # The user's login session, as WSL with systemd (or logind anywhere) gives it: /run/user/UID.
    # The uid is in no password database, so this is where kcauth keeps its locks and marks
    # (ContractPaths.sharedDirectory); without it kcauth says there is no place for them.
    run_dir = Path(f"/run/user/{USER_UID}")
    run_dir.mkdir(mode=0o700, parents=True)  # the uid is this run's: it cannot exist yet
    os.chown(run_dir, USER_UID, USER_UID)
    yield base
    shutil.rmtree(base, ignore_errors=True)
    shutil.rmtree(run_dir, ignore_errors=True)


class Processes:
    """Started processes, each in a session of its own; stopped by process group id."""

    def __init__(self):
        self.started = []

    def start(self, argv, **kwargs):
        process = subprocess.Popen(argv, start_new_session=True, **kwargs)
        self.started.append(process)
        return process

    def stop_all(self):
        for process in reversed(self.started):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(5)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait(5)


@pytest.fixture
def processes():
    started = Processes()
    yield started
    started.stop_all()


def start_kcauth(provider, user_home, processes, port):
    """`kcauth login` as USER_UID on --port PORT; its $BROWSER only writes the URL down (the
    browser is elsewhere: on Windows)."""
    url_file = user_home / "drop" / "url"
    browser = user_home / "browser"
    browser.write_text(f'#!/bin/sh\nprintf "%s\\n" "$1" > "{url_file}.tmp" && mv "{url_file}.tmp" "{url_file}"\n')
    browser.chmod(0o755)
    env = {"HOME": str(user_home / "home"), "XDG_CONFIG_HOME": str(user_home / "home" / ".config"),
           "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "BROWSER": str(browser)}
    argv = as_user(USER_UID, [str(BINARY), "login", "--issuer", provider.issuer, "--client-id", "kcauth",
                              "--port", str(port), "--storage", "file", "--timeout", "40"])
    process = processes.start(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while not url_file.exists():
        if process.poll() is not None or time.monotonic() > deadline:
            raise AssertionError(f"kcauth gave its browser no URL: {process.communicate(timeout=10)}")
        time.sleep(0.05)
    return process, url_file.read_text().strip()


def windows_side(user_home, processes, ports):
    """A network namespace whose 127.0.0.1:PORT (for each of `ports`) is relayed, through a
    root-owned socat in the host namespace, to 127.0.0.1:PORT here. Returns its PID (for nsenter)."""
    relays = []
    for port in ports:
        sock = user_home / f"relay-{port}.sock"
        processes.start(["socat", f"UNIX-LISTEN:{sock},fork,mode=600", f"TCP:127.0.0.1:{port}"])
        relays.append(f"socat TCP-LISTEN:{port},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:{sock} &")
    script = "ip link set lo up\n" + "\n".join(relays) + "\nwait\n"
    namespace = processes.start(["unshare", "--net", "sh", "-c", script])
    deadline = time.monotonic() + 10
    for port in ports:
        while not (user_home / f"relay-{port}.sock").exists() or not listening_in(namespace.pid, port):
            assert time.monotonic() < deadline, f"the relay for port {port} did not start"
            time.sleep(0.05)
    return namespace.pid


def listening_in(pid, port):
    probe = subprocess.run(["nsenter", f"--net=/proc/{pid}/ns/net", "ss", "-Hltn", f"sport = :{port}"],
                           capture_output=True, text=True)
    return str(port) in probe.stdout


def test_a_browser_behind_a_root_owned_localhost_relay_signs_in(provider, user_home, processes, tmp_path):
    # Before: the relay's connections are root's, not the user's: 403 for the start URL and the
    # callback, and the login waited out its timeout.
    port = free_port()
    kcauth, start_url = start_kcauth(provider, user_home, processes, port)
    namespace = windows_side(user_home, processes, [port, provider.port])
    result_file = tmp_path / "windows-browser.json"
    browser = subprocess.run(["nsenter", f"--net=/proc/{namespace}/ns/net", *browser_command(start_url)],
                             env={**os.environ, "SCRIPTED_RESULT": str(result_file)},
                             capture_output=True, text=True, timeout=60)
    stdout, stderr = kcauth.communicate(timeout=60)
    assert browser.returncode == 0, browser.stdout + browser.stderr
    assert kcauth.returncode == 0, stderr
    assert "as alice" in stderr and "refused" not in stderr
    result = json.loads(result_file.read_text())
    assert result["start_status"] == 302 and result["callback_status"] == 200
    stored = list((user_home / "home" / ".local" / "state" / "kcauth").iterdir())
    assert stored and all(path.stat().st_uid == USER_UID for path in stored)


def test_a_third_users_connection_is_refused_and_said_at_once(provider, user_home, processes, tmp_path):
    port = free_port()
    kcauth, start_url = start_kcauth(provider, user_home, processes, port)
    # Another user reads the start URL from the browser's argv and tries it, then a callback.
    statuses = []
    for url in (start_url, f"http://127.0.0.1:{port}/callback?state=guess&code=attacker"):
        curl = subprocess.run(as_user(OTHER_UID, ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", url]),
                              capture_output=True, text=True, timeout=20)
        statuses.append(curl.stdout)
    assert statuses == ["403", "403"]
    # stderr says so while kcauth keeps waiting, long before its 40 s timeout.
    refused_at = None
    lines = []
    deadline = time.monotonic() + 5
    os.set_blocking(kcauth.stderr.fileno(), False)
    while refused_at is None and time.monotonic() < deadline:
        chunk = kcauth.stderr.readline()
        if chunk:
            lines.append(chunk)
            if f"A connection from uid {OTHER_UID} was refused" in chunk:
                refused_at = time.monotonic()
        else:
            time.sleep(0.05)
    assert refused_at is not None, "".join(lines)
    assert kcauth.poll() is None, "a refused connection does not end the login"
    # The user's own browser (here root, as WSL's relay is) still signs in with the unused start URL.
    result_file = tmp_path / "browser.json"
    browser = subprocess.run(browser_command(start_url), env={**os.environ, "SCRIPTED_RESULT": str(result_file)},
                             capture_output=True, text=True, timeout=60)
    os.set_blocking(kcauth.stderr.fileno(), True)
    stdout, rest = kcauth.communicate(timeout=60)
    assert browser.returncode == 0, browser.stdout + browser.stderr
    assert kcauth.returncode == 0, "".join(lines) + rest
    assert "as alice" in rest
