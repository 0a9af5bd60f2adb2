"""The machinery of the endings harness (test_endings.py): run a long-running kcauth verb, tell
from outside which phase it is in, end it, and look for what it left.

    run = Run([BINARY, "login", ...], env, case="abc")     # stderr and stdout go to files
    run.wait_for_text("Waiting for the sign-in response")  # a phase, seen from outside
    run.send(signal.SIGTERM)
    assert run.ended() == -signal.SIGTERM
    assert leftover_processes("abc") == []                 # every process kcauth started carries the case's mark

Nothing here sleeps for a fixed time to reach a phase: a phase is a line on stderr, a file that
appears, or a lock another process holds. Every process started here is stopped by PID.
"""

import contextlib
import fcntl
import os
import pty
import pwd
import signal
import socket
import subprocess
import termios
import threading
import time
import uuid
from pathlib import Path

from keyring import pid_alive, processes_with_env

# Every process a case starts (kcauth and whatever kcauth starts: a browser, ssh, the command)
# inherits this variable, with the case's own value: the leak detector.
MARK = "KCAUTH_ENDING_CASE"


def new_case():
    return uuid.uuid4().hex[:12]


def lock_directory():
    """Where kcauth keeps its locks and forward directories (docs/security.md "Where the locks live")."""
    uid = os.geteuid()
    run = Path(f"/run/user/{uid}")
    if run.is_dir() and run.stat().st_uid == uid and run.stat().st_mode & 0o077 == 0:
        return run / "kcauth-locks"
    return Path(pwd.getpwuid(uid).pw_dir) / ".local" / "state" / "kcauth" / "locks"


class Run:
    """kcauth (or any program) started for one case. `tty`: stdin and stderr on a pseudo-terminal
    that is its controlling terminal (so a ^C written to it is the kernel's SIGINT, as a person's
    Ctrl-C); otherwise stdin is /dev/null and stderr a file. stdout is always a file: a pipe would
    be held open by anything the process leaves running."""

    def __init__(self, argv, env, case, tmp_path, *, tty=False):
        self.case = case
        self.dir = Path(tmp_path)
        self.out_path = self.dir / f"{case}.out"
        self.err_path = self.dir / f"{case}.err"
        self.seen = b""
        self.master = None
        env = {**env, MARK: case}
        with open(self.out_path, "wb") as out:
            if tty:
                self.master, slave = pty.openpty()

                def controlling():
                    os.setsid()
                    fcntl.ioctl(0, termios.TIOCSCTTY, 0)

                self.process = subprocess.Popen([str(a) for a in argv], env=env, stdin=slave, stdout=out, stderr=slave,
                                                preexec_fn=controlling, close_fds=True)
                os.close(slave)
                self._reader = threading.Thread(target=self._read_terminal, daemon=True)
                self._reader.start()
            else:
                with open(self.err_path, "wb") as err:
                    self.process = subprocess.Popen([str(a) for a in argv], env=env, stdin=subprocess.DEVNULL,
                                                    stdout=out, stderr=err, start_new_session=True)
        self.pid = self.process.pid

    def _read_terminal(self):
        while True:
            try:
                chunk = os.read(self.master, 4096)
            except OSError:
                return
            if not chunk:
                return
            self.seen += chunk

    @property
    def stderr(self):
        if self.master is not None:
            return self.seen.decode(errors="replace")
        return self.err_path.read_text(errors="replace") if self.err_path.exists() else ""

    @property
    def stdout(self):
        return self.out_path.read_text(errors="replace") if self.out_path.exists() else ""

    def wait_until(self, what, predicate, timeout=30):
        """Waits until `predicate()` holds while the process runs; fails saying `what` never came."""
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            assert self.process.poll() is None, f"ended ({self.process.returncode}) before {what}: {self.stderr!r}"
            assert time.monotonic() < deadline, f"never reached {what} within {timeout} s: {self.stderr!r}"
            time.sleep(0.02)

    def wait_for_text(self, text, timeout=30):
        return self.wait_until(repr(text), lambda: text in self.stderr, timeout)

    def send(self, sig):
        os.kill(self.pid, sig)

    def type(self, data):
        os.write(self.master, data)

    def ended(self, timeout=20):
        """The exit status (negative: killed by that signal) once it ended within `timeout` s."""
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"still running {timeout} s after the signal: {self.stderr!r}")

    def echo_on(self):
        """Whether the terminal echoes what is typed (after a passphrase prompt it must again)."""
        return bool(termios.tcgetattr(self.master)[3] & termios.ECHO)

    def stop(self):
        """Teardown: the process and anything left with the case's mark, by PID."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        for pid in leftover_processes(self.case):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if self.master is not None:
            with contextlib.suppress(OSError):
                os.close(self.master)
            self.master = None


def leftover_processes(case):
    """Live processes that carry the case's mark."""
    return processes_with_env(MARK, case)


def processes_with_cmdline(needle):
    """Live processes whose command line holds `needle` (ssh's control master rewrites its
    argv and environment with setproctitle: `ssh: PATH/control [mux]`)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if needle.encode() in Path(f"/proc/{entry}/cmdline").read_bytes() and pid_alive(int(entry)):
                    found.append(int(entry))
            except OSError:
                continue
    return found


def wait_gone(pids, timeout):
    """Waits up to `timeout` s for `pids` to end; the ones still alive."""
    deadline = time.monotonic() + timeout
    while True:
        alive = [p for p in pids if pid_alive(p)]
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.02)


def held(lock_file):
    """True while another process holds an flock on `lock_file` (the probe takes and drops it)."""
    try:
        fd = os.open(lock_file, os.O_RDONLY)
    except FileNotFoundError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # closing drops the probe's own lock
    return False


def port_open(port):
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


def children(pid):
    """The direct children of `pid` (live ones)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid and pid_alive(int(entry)):
                found.append(int(entry))
    return found


def token_directories(pid, runtime_dir=None):
    """The keep-fresh token directories of process `pid` (docs/integrations.md: the runtime
    directory, else /dev/shm), and any such directory in the old place of earlier releases."""
    places = [Path("/dev/shm"), Path(f"/run/user/{os.geteuid()}")] + ([Path(runtime_dir)] if runtime_dir else [])
    found = []
    for place in places:
        if place.is_dir():
            found += sorted(place.glob(f"kcauth-token-{pid}-*"))
    return found


def forward_directories(pid):
    """The laptop-side forward directories whose record names process `pid`."""
    base = lock_directory()
    found = []
    if base.is_dir():
        for d in base.glob("forward-*"):
            with contextlib.suppress(OSError):
                if f"pid={pid}\n" in (d / "forward").read_text():
                    found.append(d)
    return found
