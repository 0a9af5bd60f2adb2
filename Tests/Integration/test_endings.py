"""Endings are a matrix (docs/security.md "Endings: signals and what they leave"): every verb that
runs for a while, at each of its phases, ended by SIGINT, SIGTERM, SIGHUP and SIGKILL (and by a
Ctrl-C typed at its terminal, and by its peer going away), with the keyring store (libsecret's
threads running) and with the file store. Each case checks the exit status, that no process,
socket, token file, lock or kernel key is left but what the docs say a SIGKILL leaves, that the
stored session is intact, and that the next call works.

The phases are seen from outside (endings.py): a line on stderr, a file that appears, a lock
another process holds, a provider that holds a refresh for a second. One provider pair, one
keyring and one sshd serve the whole module, and the sessions are signed in once, so that a
case costs about a second.
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from endings import (Run, children, forward_directories, held, leftover_processes, lock_directory, new_case, port_open,
                     processes_with_cmdline, token_directories, wait_gone)
from kcauth import BINARY, Kcauth
from keyring import KeyringSession, pid_alive
from provider import ScriptedBrowserEnv, start_provider

SIGNALS = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGKILL]
SIGNAL_IDS = ["INT", "TERM", "HUP", "KILL"]
STORES = ["keyring", "file"]
PASSPHRASE = "correct horse battery staple"
# How long an ending waits at most for a refresh in flight (ProcessSignals.finishingGrace).
FINISHING_GRACE = 10


def signals(*, kill=True):
    chosen = SIGNALS if kill else SIGNALS[:3]
    return pytest.mark.parametrize("sig", chosen, ids=SIGNAL_IDS[:len(chosen)])


stores = pytest.mark.parametrize("storage", STORES)


class Harness:
    """What the cases share: kcauth in an isolated home with one keyring session, the main
    provider, a slow one (every refresh answered after a second, tokens of 3 s) and the profiles
    signed in on them."""

    def __init__(self, tmp):
        self.tmp = Path(tmp)
        self.keyring = KeyringSession(self.tmp)
        self.browser = ScriptedBrowserEnv(self.tmp / "scripted-result.json")
        self.kc = Kcauth(self.tmp, self.keyring.env, dict(self.browser))
        self.provider = start_provider()
        self.slow = start_provider(refresh_delay=1.0, access_token_lifetime=3)
        # The lock directory is the user's, shared with every other test of this machine.
        self.suffix = uuid.uuid4().hex[:8]
        self.passphrase_file = self.tmp / "passphrase"
        self.passphrase_file.write_text(PASSPHRASE + "\n")
        self.passphrase_file.chmod(0o600)
        self.idle_browser = self.tmp / "idle-browser"
        # A browser that opens and leaves the page to a person who never comes; it notes the
        # signal mask and ignored signals it started with.
        # signal mask and ignored signals it started with (exec: the shell blocks every signal
        # around a fork of its own).
        self.idle_browser.write_text("#!/bin/sh\nexec grep -E '^Sig(Blk|Ign):' /proc/self/status > "
                                     f"'{self.tmp}'/browser-$KCAUTH_ENDING_CASE\n")
        self.idle_browser.chmod(0o755)
        self.profiles, self.issuers, self.storages = {}, {}, {}
        lines = []
        for name, which, storage in self._profile_list():
            provider = self.provider if which == "main" else self.slow
            profile = f"{name}-{self.suffix}"
            self.profiles[name] = profile
            self.issuers[name] = provider.issuer
            self.storages[name] = storage
            lines += [f"[{profile}]", f"issuer = {provider.issuer}", "client_id = kcauth", f"storage = {storage}", ""]
        self.kc.config_file.parent.mkdir(parents=True, exist_ok=True)
        self.kc.config_file.write_text("\n".join(lines))
        self.kc.config_file.chmod(0o600)
        self.runs = []
        # Directories a case saw a forward make (here and on the "remote" host): removed at the
        # end if a failing case left them.
        self.forward_dirs = []

    @staticmethod
    def _profile_list():
        main, slow = "main", "slow"
        for storage in STORES:
            yield f"main-{storage}", main, storage
            yield f"slow-{storage}", slow, storage
            yield f"wait-{storage}", main, storage
        yield "sealed", main, "encrypted"

    def profile(self, name):
        return self.profiles[name]

    def sign_in(self, name):
        args = ["login", "--profile", self.profile(name), "--timeout", "30"]
        if name == "sealed":
            args += ["--passphrase-file", str(self.passphrase_file)]
        r = self.kc(*args, "--force")
        assert r.returncode == 0, r

    def signed_in(self, name):
        """The profile, signed in (once per module, or again after a SIGKILL lost its session)."""
        if not getattr(self, "_signed", set()) >= {name}:
            self.sign_in(name)
            self._signed = getattr(self, "_signed", set()) | {name}
        return self.profile(name)

    def forget(self, name):
        self._signed = getattr(self, "_signed", set()) - {name}

    def run(self, *args, env=None, tty=False):
        # The store is read, never the runtime cache: with the keyring, libsecret's threads run.
        env = {**self.kc.env, "KCAUTH_TOKEN_CACHE": "off", **(env or {})}
        run = Run([BINARY, *args], env, new_case(), self.tmp, tty=tty)
        self.runs.append(run)
        return run

    def session_works(self, name):
        """The stored session is intact: the provider takes its refresh token (and the next call works)."""
        r = self.kc("refresh", "--profile", self.profile(name), timeout=60)
        assert r.returncode == 0, r

    def refresh_lock(self, name, storage):
        return lock_directory() / f"{self.session_stem(name, storage)}.refresh.lock"

    def sign_in_lock(self, name):
        return lock_directory() / f"{self.session_stem(name, self.storages[name])}.signin.lock"

    def session_stem(self, name, storage):
        """`PROFILE.DIGEST`: the locks are the stored session's (docs/security.md), the digest a
        64-bit FNV-1a of store, issuer and client id, NUL-separated (SessionFileName)."""
        h = 0xCBF29CE484222325
        for part in (storage, self.issuers[name], "kcauth"):
            if part != storage:
                h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
            for b in part.encode():
                h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
        return f"{self.profile(name)}.{h:016x}"

    def stop(self):
        for run in self.runs:
            run.stop()
        for directory in self.forward_dirs:
            shutil.rmtree(directory, ignore_errors=True)
        for p in (self.provider, self.slow):
            p.stop()
        self.keyring.stop()


@pytest.fixture(scope="module")
def h(tmp_path_factory):
    harness = Harness(tmp_path_factory.mktemp("endings"))
    yield harness
    harness.stop()


def standard_signals(status):
    """The SigBlk and SigIgn lines of a /proc status as sets of signal numbers 1-31 (glibc's
    posix_spawn leaves its own internal real-time signals 32 and 33 ignored in every child)."""
    sets = {}
    for line in status.splitlines():
        key, _, value = line.partition(":")
        if key in ("SigBlk", "SigIgn"):
            mask = int(value.strip(), 16)
            sets[key] = {n for n in range(1, 32) if mask & (1 << (n - 1))}
    return sets


def threads(pid):
    return len(os.listdir(f"/proc/{pid}/task"))


def with_threads(run, storage):
    """With the keyring store, kcauth has read it by now: libsecret's GDBus worker runs beside
    kcauth's own signal thread, and a signal sent to the process may land on either."""
    if storage == "keyring":
        assert threads(run.pid) > 2, f"libsecret's threads run in kcauth ({threads(run.pid)} threads)"


def dies_by(sig):
    return -sig


def said_cancelled(run, sig):
    """The last line a login ended by a signal writes: that it stored nothing (a SIGKILL says nothing)."""
    lines = run.stderr.splitlines()
    if sig == signal.SIGKILL:
        assert "cancelled" not in run.stderr
    else:
        assert lines and lines[-1] == "cancelled; nothing stored", f"the last line: {lines[-1:]!r}"


def assert_clean(run, *, allowed=()):
    """No process of the case is left, but those `allowed` (what the docs say a SIGKILL leaves)."""
    left = [p for p in wait_gone(leftover_processes(run.case), 3) if p not in allowed]
    assert left == [], f"processes left: {[Path(f'/proc/{p}/cmdline').read_bytes() for p in left if pid_alive(p)]}"


# --- login, waiting for the browser ------------------------------------------------------------


@stores
@signals()
def test_login_waiting_for_the_browser(h, storage, sig):
    name = f"main-{storage}"
    profile = h.signed_in(name)
    run = h.run("login", "--profile", profile, "--force", env={"BROWSER": str(h.idle_browser)})
    run.wait_for_text("Waiting for the sign-in response on")
    port = int(re.search(r"http://127\.0\.0\.1:(\d+)/callback", run.stderr).group(1))
    assert port_open(port)
    note = h.tmp / f"browser-{run.case}"
    started_with = run.wait_until("the browser's note", lambda: note.exists() and note.read_text().count("\n") == 2 and note.read_text())
    assert standard_signals(started_with) == {"SigBlk": set(), "SigIgn": set()}, "the browser starts with no signal blocked or ignored"
    run.send(sig)
    assert run.ended() == dies_by(sig)
    said_cancelled(run, sig)
    assert_clean(run)
    assert not port_open(port), "the loopback listener is gone"
    assert not held(h.sign_in_lock(name)) and not held(h.refresh_lock(name, storage))
    h.session_works(name)  # the old session, untouched by the sign-in that did not finish


def test_login_ctrl_c_at_the_terminal(h):
    name = "main-keyring"
    profile = h.signed_in(name)
    run = h.run("login", "--profile", profile, "--force", env={"BROWSER": str(h.idle_browser), "TERM": "xterm"}, tty=True)
    run.wait_for_text("Ctrl-C to cancel")
    run.type(b"\x03")
    assert run.ended() == dies_by(signal.SIGINT), "the shell reports 130"
    # The countdown and the ^C the terminal echoed are wiped: what follows the last "clear the
    # line" is the one line that says what happened.
    after = run.stderr.rsplit("\x1b[K", 1)[1]
    assert after == "cancelled; nothing stored\r\n", repr(run.stderr[-200:])
    assert_clean(run)
    assert not held(h.sign_in_lock(name))
    h.session_works(name)


# --- login, the device flow polling ------------------------------------------------------------


@stores
@signals()
def test_device_flow_polling(h, storage, sig):
    name = f"main-{storage}"
    profile = h.signed_in(name)
    run = h.run("login", "--profile", profile, "--force", "--device")
    run.wait_for_text("Waiting for the sign-in to be approved")
    run.send(sig)
    assert run.ended() == dies_by(sig)
    said_cancelled(run, sig)
    assert_clean(run)
    assert not held(h.sign_in_lock(name)) and not held(h.refresh_lock(name, storage))
    h.session_works(name)


# --- a sign-in waiter: a second login waiting on the one-sign-in lock --------------------------


@pytest.fixture(scope="module")
def holders(h):
    """Per store, a login of a profile with no session, waiting for its browser: it holds the
    sign-in lock for the waiters."""
    started = {}

    def holder(storage):
        if storage not in started:
            run = h.run("login", "--profile", h.profile(f"wait-{storage}"), env={"BROWSER": str(h.idle_browser)})
            run.wait_for_text("Waiting for the sign-in response on")
            started[storage] = run
        return started[storage]

    return holder


@stores
@signals()
def test_sign_in_waiter(h, holders, storage, sig):
    name = f"wait-{storage}"
    holder = holders(storage)
    waiter = h.run("login", "--profile", h.profile(name), env={"BROWSER": str(h.idle_browser)})
    waiter.wait_for_text("waiting for the sign-in already in progress")
    waiter.send(sig)
    assert waiter.ended() == dies_by(sig)
    assert_clean(waiter)
    assert holder.process.poll() is None and held(h.sign_in_lock(name)), "the sign-in in progress is left alone"
    r = h.kc("token", "--profile", h.profile(name))
    assert r.returncode == 4, r  # nothing was stored; the next caller that cannot sign in is told so at once


@stores
def test_the_sign_in_holder_ends_by_sigterm_and_releases_the_lock(h, holders, storage):
    name = f"wait-{storage}"
    holder = holders(storage)
    holder.send(signal.SIGTERM)
    assert holder.ended() == dies_by(signal.SIGTERM)
    assert_clean(holder)
    assert not held(h.sign_in_lock(name))
    r = h.kc("login", "--profile", h.profile(name), "--timeout", "30")
    assert r.returncode == 0, r
    h.kc("logout", "--profile", h.profile(name))


# --- a refresh holding the refresh lock --------------------------------------------------------


@stores
@signals()
def test_refresh_holding_the_lock(h, storage, sig):
    """The slow provider holds every refresh for a second. An ending signal waits until the new
    tokens are stored: the provider has rotated the refresh token by then, and a kcauth gone in
    between would leave the store with a spent one. SIGKILL cannot wait (docs: sign in again)."""
    name = f"slow-{storage}"
    h.signed_in(name)
    lock = h.refresh_lock(name, storage)
    arrived = h.slow.held_refreshes()
    run = h.run("refresh", "--profile", h.profile(name))
    run.wait_until("the refresh at the provider", lambda: h.slow.held_refreshes() > arrived)
    assert held(lock)
    with_threads(run, storage)
    run.send(sig)
    started = time.monotonic()
    assert run.ended(timeout=FINISHING_GRACE + 10) == dies_by(sig)
    assert time.monotonic() - started < FINISHING_GRACE
    assert_clean(run)
    assert not held(lock)
    if sig == signal.SIGKILL:
        r = h.kc("refresh", "--profile", h.profile(name), timeout=60)
        assert r.returncode in (0, 4), r  # 4: the provider rotated a token nobody stored
        if r.returncode == 4:
            assert "kcauth login" in r.stderr
            h.forget(name)
        return
    assert run.stdout == "", "ended by the signal, after storing: nothing printed"
    h.session_works(name)


@pytest.mark.parametrize("storage", ["file"])
def test_refresh_a_second_signal_ends_at_once(h, storage):
    name = f"slow-{storage}"
    h.signed_in(name)
    arrived = h.slow.held_refreshes()
    run = h.run("refresh", "--profile", h.profile(name))
    run.wait_until("the refresh at the provider", lambda: h.slow.held_refreshes() > arrived)
    run.send(signal.SIGTERM)
    time.sleep(0.1)
    assert run.process.poll() is None, "the first signal waits for the refresh (held for 1 s)"
    run.send(signal.SIGINT)
    started = time.monotonic()
    assert run.ended() == dies_by(signal.SIGTERM), "ended by the first signal"
    assert time.monotonic() - started < 0.8, "at once, not when the provider answers"
    assert_clean(run)
    r = h.kc("refresh", "--profile", h.profile(name), timeout=60)
    assert r.returncode in (0, 4), r  # as a SIGKILL: the provider may have rotated the token
    if r.returncode == 4:
        h.forget(name)


# --- unlock at its passphrase prompt -----------------------------------------------------------


def store_id(h):
    return re.search(r"^id (\w+)$", (h.kc.state_dir / "store.key").read_text(), re.M).group(1)


def data_keys(h):
    r = subprocess.run(["keyctl", "search", "@u", "user", f"kcauth:data-key:{store_id(h)}"], capture_output=True, text=True)
    return [r.stdout.strip()] if r.returncode == 0 else []


@pytest.fixture(scope="module")
def sealed(h):
    h.signed_in("sealed")
    assert h.kc("lock").returncode == 0
    yield
    for serial in data_keys(h):
        subprocess.run(["keyctl", "unlink", serial, "@u"], capture_output=True)


def unlock_prompt(h):
    run = h.run("unlock", tty=True)
    run.wait_for_text("Passphrase for the kcauth encrypted store: ")
    run.wait_until("echo off", lambda: not run.echo_on())
    return run


@signals()
def test_unlock_at_its_prompt(h, sealed, sig):
    run = unlock_prompt(h)
    run.send(sig)
    assert run.ended() == dies_by(sig)
    assert_clean(run)
    assert data_keys(h) == [], "nothing unlocked"
    # SIGKILL cannot restore the terminal (docs: `stty sane`); every other ending does.
    assert run.echo_on() == (sig != signal.SIGKILL)
    r = h.kc("unlock", "--passphrase-file", str(h.passphrase_file))
    assert r.returncode == 0, r
    assert h.kc("lock").returncode == 0


def test_unlock_ctrl_c_at_the_prompt(h, sealed):
    run = unlock_prompt(h)
    run.type(b"\x03")
    assert run.ended() == dies_by(signal.SIGINT)
    assert run.echo_on(), "the terminal echoes again"
    assert data_keys(h) == []


# --- exec --keep-fresh -------------------------------------------------------------------------


def token_file_of(pid):
    """The command's KCAUTH_TOKEN_FILE; None while /proc shows no environment (it reads as empty
    for a moment while the shell execs its command)."""
    for entry in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0"):
        if entry.startswith(b"KCAUTH_TOKEN_FILE="):
            return entry.split(b"=", 1)[1].decode()
    return None


def keep_fresh(h, name, *, tty=False, command=None):
    marker = h.tmp / f"cmd-{uuid.uuid4().hex[:8]}"
    command = command or ["sh", "-c", f'echo $$ > {marker}.tmp && mv {marker}.tmp {marker}; exec sleep 60']
    run = h.run("exec", "--keep-fresh", "--profile", h.profile(name), "--", *[str(c).replace("MARKER", str(marker)) for c in command],
                tty=tty)
    run.wait_until("the command running", marker.exists)
    child = int(marker.read_text())
    token_file = Path(run.wait_until("the command's KCAUTH_TOKEN_FILE", lambda: token_file_of(child)))
    assert token_file.exists()
    return run, child, token_file, marker


@stores
@signals()
def test_keep_fresh_running_the_command(h, storage, sig):
    name = f"main-{storage}"
    h.signed_in(name)
    run, child, token_file, _ = keep_fresh(h, name)
    with_threads(run, storage)
    run.send(sig)
    assert run.ended() == dies_by(sig), "the command died of the signal passed on, and kcauth as it"
    if sig == signal.SIGKILL:
        # kcauth could not tell the command: it runs on, and the token file stays (in memory)
        # until the next `exec --keep-fresh` removes it.
        assert pid_alive(child) and token_file.exists()
        assert_clean(run, allowed=[child])
        os.kill(child, signal.SIGKILL)
        r = h.kc("exec", "--keep-fresh", "--profile", h.profile(name), "--", "true")
        assert r.returncode == 0, r
        assert not token_file.parent.exists(), "the next run removed the leftover"
        return
    assert_clean(run)
    assert not token_file.exists() and not token_file.parent.exists()
    assert token_directories(run.pid, h.kc.env.get("XDG_RUNTIME_DIR")) == []
    h.session_works(name)


@stores
@signals()
def test_keep_fresh_renewing_the_token(h, storage, sig):
    """Tokens of 3 s and a provider that holds each refresh for a second: the signal comes while
    kcauth renews the file under the refresh lock. It is passed on once the new token is stored."""
    name = f"slow-{storage}"
    h.signed_in(name)
    run, child, token_file, _ = keep_fresh(h, name)
    arrived = h.slow.held_refreshes()  # the start may have refreshed a token of 3 s already
    lock = h.refresh_lock(name, storage)
    run.wait_until("the renewal at the provider", lambda: h.slow.held_refreshes() > arrived, timeout=20)
    assert held(lock)
    run.send(sig)
    assert run.ended(timeout=FINISHING_GRACE + 10) == dies_by(sig)
    if sig == signal.SIGKILL:
        assert_clean(run, allowed=[child])
        os.kill(child, signal.SIGKILL)
        r = h.kc("refresh", "--profile", h.profile(name), timeout=60)
        assert r.returncode in (0, 4), r  # as a refresh killed in flight
        if r.returncode == 4:
            h.forget(name)
        return
    assert_clean(run)
    assert not token_file.parent.exists()
    assert not held(lock)
    h.session_works(name)


# Counts the SIGINTs it gets; exits 5 a little after the first.
COUNTING = r"""
import os, signal, sys, time
marker, count = sys.argv[1], sys.argv[1] + ".ints"
def interrupted(*_):
    with open(count, "a") as f:
        f.write("INT\n")
signal.signal(signal.SIGINT, interrupted)
open(marker + ".tmp", "w").write(str(os.getpid()))
os.rename(marker + ".tmp", marker)
while not os.path.exists(count):
    time.sleep(0.02)
time.sleep(0.5)
sys.exit(5)
"""


def test_keep_fresh_ctrl_c_at_the_terminal_reaches_the_command_once(h):
    name = "main-keyring"
    h.signed_in(name)
    script = h.tmp / "counting.py"
    script.write_text(COUNTING)
    run, child, token_file, marker = keep_fresh(h, name, tty=True, command=[sys.executable, script, "MARKER"])
    run.type(b"\x03")  # the terminal's SIGINT, to the whole foreground process group
    assert run.ended() == 5
    assert Path(f"{marker}.ints").read_text() == "INT\n", "the command got the Ctrl-C once, not twice"
    assert not token_file.parent.exists()
    assert_clean(run)


# --- forward-agent -----------------------------------------------------------------------------


def forward_agent(h, name):
    run = h.run("forward-agent", "--profile", h.profile(name))
    path = Path(run.wait_until("the socket path on stdout", lambda: run.stdout.strip() if run.stdout.endswith("\n") else ""))
    assert path.exists()
    return run, path


def ask(path):
    """One request to a forward's socket, as the remote kcauth makes it; the answer's fields."""
    import json
    import socket as sockets

    with sockets.socket(sockets.AF_UNIX) as s:
        s.settimeout(20)
        s.connect(str(path))
        s.sendall(b'{"profile":null,"min_valid":30,"id_token":false}\n')
        return json.loads(s.makefile().readline())


@stores
@signals()
def test_forward_agent_serving(h, storage, sig):
    name = f"main-{storage}"
    h.signed_in(name)
    run, path = forward_agent(h, name)
    h.forward_dirs.append(path.parent)
    assert ask(path)["access_token"], "served once: the store was read"
    with_threads(run, storage)
    run.send(sig)
    if sig == signal.SIGKILL:
        assert run.ended() == dies_by(sig)
        assert_clean(run)
        assert path.exists(), "a SIGKILL leaves the socket and its directory (docs)"
        stale = path.parent
        again, _ = forward_agent(h, name)
        again.send(signal.SIGTERM)
        assert again.ended() == 0
        assert not stale.exists(), "the next forward-agent removes a SIGKILLed one's directory (docs/security.md)"
        return
    assert run.ended() == 0, "forward-agent ends its service with status 0 (docs/integrations.md)"
    assert_clean(run)
    assert not path.exists() and not path.parent.exists()
    assert forward_directories(run.pid) == []


@signals(kill=False)
def test_forward_agent_with_a_silent_client_connected(h, sig):
    """A client that connects and says nothing must not hold the ending up: within 3 s."""
    import socket as sockets

    name = "main-file"
    h.signed_in(name)
    run, path = forward_agent(h, name)
    silent = sockets.socket(sockets.AF_UNIX)
    silent.connect(str(path))
    try:
        time.sleep(0.2)  # the agent is reading from it now (no phase to see from outside: a short pause)
        run.send(sig)
        started = time.monotonic()
        status = run.ended(timeout=10)
        took = time.monotonic() - started
    finally:
        silent.close()
    assert status == 0
    assert_clean(run)
    assert not path.exists()
    assert took < 3, f"ended {took:.1f} s after the signal: a silent client must not hold the ending up"


# --- ssh ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def remote(tmp_path_factory):
    if os.geteuid() != 0 or not os.path.exists("/usr/sbin/sshd"):
        pytest.fail("the ssh cases need root and openssh-server (scripts/install-deps)")
    from sshremote import Remote

    # A test user, home and sshd of the harness's own (sshremote.py), removed after.
    r = Remote(tmp_path_factory.mktemp("endings-ssh"))
    yield r
    r.stop()


def session_of(run):
    """The session's ssh (it sends LC_KCAUTH_FORWARD) and the remote directory it names."""
    def find():
        for pid in children(run.pid):
            try:
                argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
                environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"SendEnv=LC_KCAUTH_FORWARD" in argv and b"ControlMaster=no" in argv:
                for entry in environ:
                    if entry.startswith(b"LC_KCAUTH_FORWARD="):
                        return pid, Path(entry.split(b"=", 1)[1].decode()).parent
        return None
    return run.wait_until("the ssh session running", find)


def ssh_run(h, remote, name):
    """kcauth ssh running a session whose remote command asks for a token once (so the laptop
    has read its store), then waits."""
    served = h.tmp / f"served-{uuid.uuid4().hex[:8]}"
    remote_served = f"/tmp/{served.name}"
    command = f"{remote.kcauth} token >/dev/null && touch {remote_served}; sleep 60"
    run = h.run("ssh", "--profile", h.profile(name), *remote.ssh_options, remote.destination, command)
    session, remote_dir = session_of(run)
    run.wait_until("the remote directory", remote_dir.exists)
    h.forward_dirs += [remote_dir, *forward_directories(run.pid)]
    run.wait_until("a token served over the forward", lambda: os.path.exists(remote_served))
    os.unlink(remote_served)
    return run, session, remote_dir


def control_master(run):
    """The connection's ssh: the control master, backgrounded by ControlPersist, which renames
    itself `ssh: FORWARD-DIRECTORY/control [mux]` (so it carries no case mark any more)."""
    for directory in forward_directories(run.pid):
        for pid in processes_with_cmdline(f"{directory}/control [mux]"):
            return pid
    return None


class SilentServer:
    """A TCP listener on 127.0.0.1 that accepts and never sends ssh's banner: an ssh that
    connects to it stays in its connecting phase. `.accepted` counts connections."""

    def __init__(self):
        import socket as sockets
        import threading

        self.listener = sockets.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(8)
        self.port = self.listener.getsockname()[1]
        self.held = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                self.held.append(self.listener.accept()[0])
            except OSError:
                return

    @property
    def accepted(self):
        return len(self.held)

    def stop(self):
        self.listener.close()
        for connection in self.held:
            connection.close()


@signals()
def test_ssh_connecting(h, remote, sig):
    """kcauth ssh while its control connection waits for the server (a password prompt, a slow
    host): the signal is passed on to that ssh and nothing is left."""
    name = "main-file"
    h.signed_in(name)
    server = SilentServer()
    try:
        options = [o if o != str(remote.port) else str(server.port) for o in remote.ssh_options]
        run = h.run("ssh", "--profile", h.profile(name), *options, remote.destination, "true")
        run.wait_until("ssh connecting", lambda: server.accepted > 0)
        connecting = run.wait_until("the connecting ssh", lambda: children(run.pid))
        local = run.wait_until("the forward directory", lambda: forward_directories(run.pid))
        h.forward_dirs += local
        run.send(sig)
        status = run.ended(timeout=30)
        if sig == signal.SIGKILL:
            # Documented: the connecting ssh goes on until its connection is made or fails.
            assert status == dies_by(sig)
            assert all(pid_alive(p) for p in connecting)
            for pid in connecting:
                os.kill(pid, signal.SIGKILL)
            assert wait_gone(connecting, 5) == []
            for leftover in local:
                shutil.rmtree(leftover, ignore_errors=True)
            return
        assert status in (255, 128 + sig), status
        assert_clean(run)
        assert wait_gone(connecting, 3) == []
        assert not any(d.exists() for d in local)
    finally:
        server.stop()


@stores
@signals()
def test_ssh_session_running(h, remote, storage, sig):
    name = f"main-{storage}"
    h.signed_in(name)
    run, session, remote_dir = ssh_run(h, remote, name)
    with_threads(run, storage)
    master = run.wait_until("the control master", lambda: control_master(run))
    local = forward_directories(run.pid)
    assert standard_signals(Path(f"/proc/{session}/status").read_text())["SigBlk"] == set(), "ssh runs with no signal blocked"
    run.send(sig)
    status = run.ended(timeout=30)
    if sig == signal.SIGKILL:
        assert status == dies_by(sig)
        # Documented: the session's ssh runs on with a forward nobody answers, over its
        # connection; the laptop's forward directory and the remote one stay until the next
        # `kcauth ssh` to that host.
        for pid in leftover_processes(run.case) + [master]:
            os.kill(pid, signal.SIGKILL)
        assert wait_gone([session, master], 5) == []
        r = h.kc("ssh", "--profile", h.profile(name), *remote.ssh_options, remote.destination, "true", timeout=60)
        assert r.returncode == 0, r
        assert not remote_dir.exists(), "the next `kcauth ssh` to that host removes the remote directory"
        assert not any(d.exists() for d in local), "the next `kcauth ssh` removes the laptop's forward directory"
        return
    # ssh itself handles SIGTERM, SIGINT and SIGHUP and exits 255; kcauth exits with ssh's status.
    assert status in (255, 128 + sig, dies_by(sig)), status
    assert_clean(run)
    assert wait_gone([session, master], 3) == [], "the session's ssh and the connection are gone"
    assert not any(d.exists() for d in local), "the laptop's socket and directory are gone"
    assert not remote_dir.exists(), "the remote directory is removed"
    assert forward_directories(run.pid) == []
    h.session_works(name)


@stores
def test_ssh_connection_killed(h, remote, storage):
    """The peer gone: the connection's ssh (the control master) killed. The laptop side ends
    within 3 s with its children and sockets gone; the remote directory is left to the next
    `kcauth ssh` (docs/security.md)."""
    name = f"main-{storage}"
    h.signed_in(name)
    run, session, remote_dir = ssh_run(h, remote, name)
    master = run.wait_until("the control master", lambda: control_master(run))
    local = forward_directories(run.pid)
    os.kill(master, signal.SIGKILL)
    started = time.monotonic()
    status = run.ended(timeout=30)
    took = time.monotonic() - started
    assert status == 255, status
    assert_clean(run)
    assert wait_gone([session], 3) == []
    assert not any(d.exists() for d in local), "the laptop's socket and directory are gone"
    assert took < 3, f"ended {took:.1f} s after its connection"
    r = h.kc("ssh", "--profile", h.profile(name), *remote.ssh_options, remote.destination, "true", timeout=60)
    assert r.returncode == 0, r
    assert not remote_dir.exists(), "the next `kcauth ssh` to that host removes the dead connection's remote directory"
