"""Private, headless Secret Service sessions for kcauth's integration tests.

Every helper here isolates the test from the developer's real desktop session: a private
`dbus-run-session`, a fresh XDG_DATA_HOME (keyrings) and XDG_RUNTIME_DIR (sockets), and no
DISPLAY/WAYLAND_DISPLAY (so the keyring daemon can never show an unlock prompt nobody answers).
The recipe and the failure cases a1…d are from shared/notes/linux-secret-service.md (§2, §3, §5).

    with KeyringSession(tmp_path) as keyring:            # unlocked login keyring
        run([kcauth, "login", ...], env=keyring.env)
        keyring.secret_tool("lookup", "profile", "dev")

Builders for the failure cases:

    build_keyring_fixture(dir)          a keyring dir with one item, password FIXTURE_PASSWORD
    KeyringSession.locked(tmp, fixture) c1 (no unlock) / c2 (wrong_password=True)
    KeyringSession.without_default_collection(tmp)   b2
    KeyringSession.bare_bus(tmp)        b1: a bus with no Secret Service at all
    no_bus_env(tmp)                     a1: no DBUS_SESSION_BUS_ADDRESS, empty XDG_RUNTIME_DIR
    missing_socket_env(tmp)             a2: DBUS_SESSION_BUS_ADDRESS -> a socket that is not there
    WedgedBus(tmp)                      a3: a socket that accepts and never answers
    with keyring.frozen(): ...          d:  the daemon SIGSTOPped, SIGCONTed on exit/teardown
    with Xvfb() as x: KeyringSession.locked_with_display(tmp, fixture, x.display)
                                        c3 (optional, slow): an unlock prompt nobody answers

Everything started here is stopped by PID in `stop()` / `__exit__`, and the temp dirs are removed.
Only the standard library is used.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Iterator, Optional

DEFAULT_PASSWORD = "kcauth-test"
FIXTURE_PASSWORD = "password-A"
FIXTURE_PROFILE = "fixture"
FIXTURE_SECRET = "fixture-secret"

# Variables that could lead a child to the real session's bus, keyring or display.
_SESSION_VARIABLES = (
    "DBUS_SESSION_BUS_ADDRESS",
    "DISPLAY",
    "WAYLAND_DISPLAY",
    "GNOME_KEYRING_CONTROL",
    "SSH_AUTH_SOCK",
    "XDG_SESSION_ID",
)

# A session bus with no activatable services (notes §5). All three <allow> lines are needed:
# without the eavesdrop ones the bus rejects its own replies and calls end in "Timeout was reached"
# instead of ServiceUnknown.
_BARE_BUS_CONFIG = """<busconfig>
  <type>session</type>
  <listen>unix:dir={dir}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""

# Runs inside dbus-run-session: optionally unlock, wait for the Secret Service name, report the
# bus address, then block on stdin. Closing our end of stdin ends `cat`, which ends the session.
_INNER = r"""
set -u
has_owner() {
    dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null \
        | grep -q "boolean true"
}
if [ "$KEYRING_UNLOCK" = 1 ]; then
    # Non-empty password: an empty one creates no login keyring. stdout: env assignments, unwanted.
    printf '%s\n' "$KEYRING_PASSWORD" | gnome-keyring-daemon --unlock --components=secrets >/dev/null
    n=0
    until has_owner; do
        n=$((n + 1)); [ "$n" -ge 200 ] && { echo "FAILED org.freedesktop.secrets never appeared"; exit 70; }
        sleep 0.05
    done
fi
echo "READY $DBUS_SESSION_BUS_ADDRESS"
exec cat >/dev/null
"""


def base_env(**overrides: str) -> dict[str, str]:
    """os.environ without anything that points at the real desktop session, plus `overrides`."""
    env = {k: v for k, v in os.environ.items() if k not in _SESSION_VARIABLES}
    env.update(overrides)
    return env


def _short_tempdir(prefix: str) -> Path:
    # Unix socket paths are limited to 107 bytes; pytest's tmp_path can be long, so sockets live
    # in a short dir under /tmp instead.
    path = Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))
    path.chmod(0o700)
    return path


def pid_alive(pid: int) -> bool:
    """True while `pid` runs. A zombie counts as gone: this container's PID 1 may never reap it."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state not in ("Z", "X")


def processes_with_env(name: str, value: str) -> list[int]:
    """PIDs of live processes whose environment has name=value (a leak detector for a session)."""
    needle = f"{name}={value}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                if needle in f.read().split(b"\0") and pid_alive(int(entry)):
                    found.append(int(entry))
        except OSError:
            continue
    return found


def _terminate(pid: int, grace: float = 2.0) -> None:
    """SIGCONT + SIGTERM, then SIGKILL after `grace` seconds; `pid` need not be our child."""
    for sig in (signal.SIGCONT, signal.SIGTERM):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, sig)
    end = time.monotonic() + grace
    while pid_alive(pid) and time.monotonic() < end:
        time.sleep(0.02)
    if pid_alive(pid):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


class KeyringSession:
    """A long-lived private session bus, by default with an unlocked gnome-keyring.

    Args:
        tmp_path: where the keyring data lives (XDG_DATA_HOME = tmp_path/"keyring-data-N").
        password: piped to `gnome-keyring-daemon --unlock` (creates the login keyring if missing;
            a wrong one leaves an existing keyring locked: the daemon still exits 0).
        unlock: False starts no daemon; the first client activates one with the login keyring
            locked (existing data_home) or absent (fresh data_home: "no default collection").
        data_home: use this XDG_DATA_HOME (kept on stop) instead of a fresh one.
        secret_service: False runs a bare bus with no activatable services at all (case b1).
        display: a DISPLAY (see `Xvfb`) for the bus, the daemon and `.env`: only for the
            optional "locked keyring + display -> unlock prompt nobody answers" case (c3).
    """

    def __init__(
        self,
        tmp_path: Path,
        *,
        password: str = DEFAULT_PASSWORD,
        unlock: bool = True,
        data_home: Optional[Path] = None,
        secret_service: bool = True,
        display: Optional[str] = None,
        start_timeout: float = 15.0,
    ) -> None:
        self._own_data_home = data_home is None
        self.data_home = Path(data_home) if data_home else Path(tempfile.mkdtemp(prefix="keyring-data-", dir=tmp_path))
        self.data_home.mkdir(parents=True, exist_ok=True)
        self.runtime_dir = _short_tempdir("kc-run-")
        self.address: str = ""
        self.bus_pid: Optional[int] = None
        self.daemon_pid: Optional[int] = None
        self._frozen = False
        self._stopped = False
        self._log = open(self.runtime_dir / "session.log", "wb")

        cmd = ["dbus-run-session"]
        if not secret_service:
            config = self.runtime_dir / "bare-bus.conf"
            config.write_text(_BARE_BUS_CONFIG.format(dir=self.runtime_dir))
            cmd.append(f"--config-file={config}")
            unlock = False
        cmd += ["--", "sh", "-c", _INNER]
        self._base_env = base_env(XDG_DATA_HOME=str(self.data_home), XDG_RUNTIME_DIR=str(self.runtime_dir))
        if display:
            self._base_env["DISPLAY"] = display
        self._proc = subprocess.Popen(
            cmd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log,
            env={**self._base_env, "KEYRING_UNLOCK": "1" if unlock else "0", "KEYRING_PASSWORD": password},
            start_new_session=True,  # a Ctrl-C in pytest must not hit the bus before teardown
        )
        try:
            self.address = self._wait_ready(start_timeout)
            self.bus_pid = self._pid_of("org.freedesktop.DBus")
            if unlock:
                self.daemon_pid = self._pid_of("org.freedesktop.secrets")
        except BaseException:
            self.stop()
            raise

    # -- builders for the failure cases ------------------------------------------------------

    @classmethod
    def locked(cls, tmp_path: Path, fixture: Path, *, wrong_password: bool = False) -> "KeyringSession":
        """c1 (never unlocked) or c2 (wrong password) on a copy of `build_keyring_fixture`'s dir."""
        copy = Path(tempfile.mkdtemp(prefix="keyring-locked-", dir=tmp_path))
        shutil.copytree(fixture, copy, dirs_exist_ok=True)
        if wrong_password:
            session = cls(tmp_path, data_home=copy, password="not-" + FIXTURE_PASSWORD)
        else:
            session = cls(tmp_path, data_home=copy, unlock=False)
        session._own_data_home = True  # the copy is ours to remove
        return session

    @classmethod
    def locked_with_display(cls, tmp_path: Path, fixture: Path, display: str) -> "KeyringSession":
        """c3: locked, and the daemon can show an unlock prompt on `display` (nobody answers it)."""
        copy = Path(tempfile.mkdtemp(prefix="keyring-locked-", dir=tmp_path))
        shutil.copytree(fixture, copy, dirs_exist_ok=True)
        session = cls(tmp_path, data_home=copy, unlock=False, display=display)
        session._own_data_home = True
        return session

    @classmethod
    def without_default_collection(cls, tmp_path: Path) -> "KeyringSession":
        """b2: no unlock on a fresh data home; activation starts a daemon with no login keyring."""
        return cls(tmp_path, unlock=False)

    @classmethod
    def bare_bus(cls, tmp_path: Path) -> "KeyringSession":
        """b1: a session bus on which nobody provides org.freedesktop.secrets."""
        return cls(tmp_path, secret_service=False)

    # -- use ---------------------------------------------------------------------------------

    @property
    def env(self) -> dict[str, str]:
        """Environment for a process under test: this bus, this keyring, no display (unless `display`)."""
        return {**self._base_env, "DBUS_SESSION_BUS_ADDRESS": self.address}

    def secret_tool(self, *args: str, input: Optional[str] = None, timeout: float = 30) -> subprocess.CompletedProcess:
        """Runs `secret-tool ARGS…` in this session; never raises on a non-zero exit."""
        return subprocess.run(
            ["secret-tool", *args], input=input, env=self.env, capture_output=True, text=True, timeout=timeout
        )

    def secrets_owner_pid(self) -> Optional[int]:
        """PID of whoever owns org.freedesktop.secrets now (an activated daemon too), or None."""
        pid = self._pid_of("org.freedesktop.secrets")
        if pid is not None:
            self.daemon_pid = pid
        return pid

    def freeze(self) -> int:
        """Case d: SIGSTOP the Secret Service daemon (activating it first if needed)."""
        if self.secrets_owner_pid() is None:
            self.secret_tool("search", "profile", "activate-the-daemon", timeout=30)
        pid = self.secrets_owner_pid()
        if pid is None:
            raise RuntimeError("no Secret Service daemon to freeze")
        os.kill(pid, signal.SIGSTOP)
        self._frozen = True
        return pid

    def thaw(self) -> None:
        if self._frozen and self.daemon_pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.daemon_pid, signal.SIGCONT)
        self._frozen = False

    @contextlib.contextmanager
    def frozen(self) -> Iterator[int]:
        pid = self.freeze()
        try:
            yield pid
        finally:
            self.thaw()

    def our_pids(self) -> list[int]:
        """Live processes started for this session (by recorded PID and by environment)."""
        pids = {p for p in (self.bus_pid, self.daemon_pid, self._proc.pid) if p is not None and pid_alive(p)}
        pids.update(processes_with_env("XDG_RUNTIME_DIR", str(self.runtime_dir)))
        return sorted(pids)

    # -- teardown ----------------------------------------------------------------------------

    def stop(self) -> None:
        """Stops the daemon, then the bus, by PID; removes the temp dirs. Idempotent."""
        if self._stopped:
            return
        self._stopped = True
        self.thaw()
        if self._proc.poll() is None:
            with contextlib.suppress(Exception):
                self.secrets_owner_pid()  # a daemon activated since start
        if self.daemon_pid is not None:
            _terminate(self.daemon_pid)
        # EOF on stdin ends `cat`; dbus-run-session then stops its dbus-daemon and exits.
        with contextlib.suppress(OSError):
            self._proc.stdin.close()
        try:
            self._proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            _terminate(self._proc.pid)
            self._proc.wait(timeout=5)
        if self._proc.stdout:
            self._proc.stdout.close()
        # Anything else that still carries our runtime dir (a second activated daemon, say).
        for pid in [self.bus_pid, *processes_with_env("XDG_RUNTIME_DIR", str(self.runtime_dir))]:
            if pid is not None and pid_alive(pid):
                _terminate(pid)
        self._log.close()
        shutil.rmtree(self.runtime_dir, ignore_errors=True)
        if self._own_data_home:
            shutil.rmtree(self.data_home, ignore_errors=True)

    def log(self) -> str:
        """What dbus-daemon and gnome-keyring-daemon printed (for assertion messages)."""
        with contextlib.suppress(OSError):
            return (self.runtime_dir / "session.log").read_text(errors="replace")
        return ""

    def __enter__(self) -> "KeyringSession":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- internals ---------------------------------------------------------------------------

    def _wait_ready(self, timeout: float) -> str:
        assert self._proc.stdout is not None
        selector = selectors.DefaultSelector()
        selector.register(self._proc.stdout, selectors.EVENT_READ)
        buffer = b""
        end = time.monotonic() + timeout
        try:
            while b"\n" not in buffer:
                remaining = end - time.monotonic()
                if remaining <= 0 or not selector.select(remaining):
                    raise RuntimeError(f"keyring session not ready within {timeout} s: {self.log()}")
                chunk = os.read(self._proc.stdout.fileno(), 4096)
                if not chunk:
                    raise RuntimeError(f"keyring session ended early (status {self._proc.wait()}): {self.log()}")
                buffer += chunk
        finally:
            selector.close()
        line = buffer.split(b"\n", 1)[0].decode()
        if not line.startswith("READY "):
            raise RuntimeError(f"keyring session failed: {line} {self.log()}")
        return line[len("READY "):]

    def _pid_of(self, name: str) -> Optional[int]:
        out = subprocess.run(
            ["dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
             "org.freedesktop.DBus.GetConnectionUnixProcessID", f"string:{name}"],
            env=self.env, capture_output=True, text=True, timeout=10,
        )
        for word in out.stdout.split():
            if word.isdigit():
                return int(word)
        return None


def build_keyring_fixture(directory: Path, *, password: str = FIXTURE_PASSWORD) -> Path:
    """Creates a login keyring with password `password` holding one item
    (profile=FIXTURE_PROFILE, secret FIXTURE_SECRET) and returns its XDG_DATA_HOME. Build it once
    per test session (it takes ~0.2 s) and open copies with `KeyringSession.locked`."""
    data_home = Path(directory) / "data"
    data_home.mkdir(parents=True, exist_ok=True)
    with KeyringSession(Path(directory), data_home=data_home, password=password) as session:
        stored = session.secret_tool("store", "--label=kcauth fixture", "profile", FIXTURE_PROFILE, input=FIXTURE_SECRET)
        if stored.returncode != 0:
            raise RuntimeError(f"could not build the keyring fixture: {stored.stderr} {session.log()}")
    if not (data_home / "keyrings" / "login.keyring").exists():
        raise RuntimeError("keyring fixture has no login.keyring")
    return data_home


def no_bus_env(tmp_path: Path) -> dict[str, str]:
    """a1: no DBUS_SESSION_BUS_ADDRESS and an empty XDG_RUNTIME_DIR, so GDBus finds no
    `$XDG_RUNTIME_DIR/bus` fallback (and, without DISPLAY, cannot autolaunch one)."""
    runtime = Path(tempfile.mkdtemp(prefix="no-bus-run-", dir=tmp_path))
    runtime.chmod(0o700)
    return base_env(XDG_RUNTIME_DIR=str(runtime), XDG_DATA_HOME=str(tmp_path / "no-bus-data"))


def missing_socket_env(tmp_path: Path) -> dict[str, str]:
    """a2: DBUS_SESSION_BUS_ADDRESS points at a socket that does not exist."""
    runtime = Path(tempfile.mkdtemp(prefix="missing-run-", dir=tmp_path))
    runtime.chmod(0o700)
    return base_env(
        DBUS_SESSION_BUS_ADDRESS=f"unix:path={runtime}/nonexistent",
        XDG_RUNTIME_DIR=str(runtime),
        XDG_DATA_HOME=str(tmp_path / "missing-data"),
    )


# A listener that accepts every connection and never reads or writes: GDBus then waits for the
# auth handshake forever (case a3). A separate process, so a blocked test cannot block it.
_WEDGED_LISTENER = r"""
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(sys.argv[1]); s.listen(64)
print("READY", flush=True)
held = []
while True:
    held.append(s.accept()[0])
"""


class WedgedBus:
    """a3: a Unix socket that accepts connections and never answers. Use `.env`; `stop()`."""

    def __init__(self, tmp_path: Path) -> None:
        self.dir = _short_tempdir("kc-wedged-")
        self.socket = self.dir / "bus"
        self._proc = subprocess.Popen(
            [sys.executable, "-c", _WEDGED_LISTENER, str(self.socket)],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True,
        )
        ready = self._proc.stdout.readline() if self._proc.stdout else ""
        if not ready.startswith("READY"):
            self.stop()
            raise RuntimeError("wedged-bus listener did not start")
        self.pid = self._proc.pid
        self.env = base_env(
            DBUS_SESSION_BUS_ADDRESS=f"unix:path={self.socket}",
            XDG_RUNTIME_DIR=str(self.dir),
            XDG_DATA_HOME=str(Path(tmp_path) / "wedged-data"),
        )

    def stop(self) -> None:
        if self._proc.poll() is None:
            self._proc.kill()
        self._proc.wait(timeout=5)
        if self._proc.stdout:
            self._proc.stdout.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> "WedgedBus":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


class Xvfb:
    """A private X server for the optional prompt case (c3); needs the `xvfb` package.
    `.display` is e.g. ":7"; `available()` tells whether Xvfb is installed."""

    @staticmethod
    def available() -> bool:
        return shutil.which("Xvfb") is not None

    def __init__(self, timeout: float = 10.0) -> None:
        read_end, write_end = os.pipe()
        try:
            # -displayfd: Xvfb picks a free display number and writes it to that fd when ready.
            self._proc = subprocess.Popen(
                ["Xvfb", "-displayfd", str(write_end), "-nolisten", "tcp", "-noreset", "-screen", "0", "800x600x16"],
                pass_fds=(write_end,), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, start_new_session=True,
            )
        finally:
            os.close(write_end)
        self.pid = self._proc.pid
        selector = selectors.DefaultSelector()
        selector.register(read_end, selectors.EVENT_READ)
        # Read up to the newline before closing our end: Xvfb writes the number and the newline
        # separately, and dies ("Cannot write display number") if the second write fails.
        data = b""
        end = time.monotonic() + timeout
        try:
            while not data.endswith(b"\n"):
                remaining = end - time.monotonic()
                chunk = os.read(read_end, 64) if remaining > 0 and selector.select(remaining) else b""
                if not chunk:
                    self.stop()
                    raise RuntimeError("Xvfb did not start")
                data += chunk
            number = data.decode().strip()
        finally:
            selector.close()
            os.close(read_end)
        if not number.isdigit():
            self.stop()
            raise RuntimeError("Xvfb did not report a display")
        self.display = f":{number}"

    def stop(self) -> None:
        if self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait(timeout=5)

    def __enter__(self) -> "Xvfb":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
