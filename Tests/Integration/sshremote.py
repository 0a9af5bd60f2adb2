"""A remote host for `kcauth ssh` tests: the real OpenSSH server from Debian (`sshd -D` on
127.0.0.1 with its own config and host key: Debian's stock defaults that matter, `AcceptEnv LANG
LC_*`, UsePAM, stream-local forwarding allowed) and a test user of its own.

The user is made for this run (a unique name, a fresh home) and removed with everything it
owns at the end, so that nothing depends on what earlier runs — or other suites running at the
same time on this machine — left behind. "Before" snapshots are taken once the fixture has
written what it needs (the user's `authorized_keys`) and has logged in once.
"""

import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from kcauth import BINARY, FULL_BINARY
from testusers import owned_by, processes_of, unique_user_name

# The top-level places a user can write to besides its home (sticky, world-writable).
SHARED_TEMP = ("/tmp", "/var/tmp", "/dev/shm")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_retrying(argv, attempts=20):
    """useradd and userdel fail while another process holds the password files' lock."""
    for _ in range(attempts):
        r = subprocess.run(argv, capture_output=True, text=True)
        if r.returncode == 0:
            return r
        if "lock" not in r.stderr and "try again" not in r.stderr:
            break
        time.sleep(0.25)
    raise AssertionError(f"{argv}: {r.stderr}")


class Remote:
    """The sshd and the test user; `ssh_options` reach it with `kcauth ssh` or plain ssh."""

    def __init__(self, tmp_path):
        self.tmp = Path(tmp_path)
        self.name = unique_user_name()
        self.process = None
        self.bin = None
        run_retrying(["useradd", "--create-home", "--shell", "/bin/sh", "--comment", "kcauth ssh test", self.name])
        try:
            self._set_up()
        except BaseException:
            self.stop()
            raise

    def _set_up(self):
        self.user = pwd.getpwnam(self.name)
        self.uid = self.user.pw_uid
        self.home = Path(self.user.pw_dir)
        # The binaries where the test user can run them (root-owned, as installed ones are).
        self.bin = Path(tempfile.mkdtemp(prefix="kcauth-ssh-bin-"))
        os.chmod(self.bin, 0o755)
        for b in (BINARY, FULL_BINARY):
            shutil.copy2(b, self.bin / b.name)
        key = self.tmp / "id_ed25519"
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
        host_key = self.tmp / "host_ed25519"
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(host_key)], check=True)
        ssh_dir = self.home / ".ssh"
        ssh_dir.mkdir(mode=0o700, exist_ok=True)
        (ssh_dir / "authorized_keys").write_text((self.tmp / "id_ed25519.pub").read_text())
        for p in (ssh_dir, ssh_dir / "authorized_keys"):
            os.chown(p, self.uid, self.user.pw_gid)
        os.makedirs("/run/sshd", mode=0o755, exist_ok=True)
        self.port = free_port()
        config = self.tmp / "sshd_config"
        config.write_text(f"""Port {self.port}
ListenAddress 127.0.0.1
HostKey {host_key}
PidFile {self.tmp}/sshd.pid
AuthorizedKeysFile .ssh/authorized_keys
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM yes
AcceptEnv LANG LC_*
AllowUsers {self.name}
Subsystem sftp /usr/lib/openssh/sftp-server
""")
        self.process = subprocess.Popen(["/usr/sbin/sshd", "-D", "-e", "-f", str(config)],
                                        stdout=subprocess.DEVNULL, stderr=open(self.tmp / "sshd.log", "w"))
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, (self.tmp / "sshd.log").read_text()
                time.sleep(0.05)
        self.ssh_options = ["-F", "/dev/null", "-i", str(key), "-p", str(self.port), "-o", "IdentitiesOnly=yes",
                            "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no",
                            "-o", f"UserKnownHostsFile={self.tmp}/known_hosts", "-o", "LogLevel=ERROR"]
        self.destination = f"{self.name}@127.0.0.1"
        self.kcauth = f"{self.bin}/kcauth"
        # One plain login first, so that what a login itself leaves is part of "before".
        r = self.ssh("true")
        assert r.returncode == 0, (r, (self.tmp / "sshd.log").read_text())
        self.files_before = self.files()

    def ssh(self, *command, options=(), timeout=60):
        return subprocess.run(["ssh", *self.ssh_options, *options, self.destination, *command],
                              capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)

    def stop(self):
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        # Every process of the test user (this run's alone: the name is unique), by pid.
        for _ in range(50):
            pids = processes_of(self.uid) if hasattr(self, "uid") else []
            if not pids:
                break
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(0.1)
        if hasattr(self, "uid"):
            for top in SHARED_TEMP:
                for entry in owned_by(self.uid, top):
                    if os.path.isdir(entry) and not os.path.islink(entry):
                        shutil.rmtree(entry, ignore_errors=True)
                    else:
                        try:
                            os.unlink(entry)
                        except OSError:
                            pass
        run_retrying(["userdel", "--remove", self.name])
        if self.bin is not None:
            shutil.rmtree(self.bin, ignore_errors=True)

    def files(self):
        """Every file the test user can have written: its home, and what it owns at the top of
        the shared temporary directories (and below that), and its /run/user."""
        found = set()
        tops = [str(self.home), f"/run/user/{self.uid}"]
        for top in SHARED_TEMP:
            tops += owned_by(self.uid, top)
        for top in tops:
            if not os.path.exists(top):
                continue
            found.add(top)
            for root, dirs, files in os.walk(top):
                for name in files + dirs:
                    path = os.path.join(root, name)
                    try:
                        if os.lstat(path).st_uid == self.uid:
                            found.add(path)
                    except FileNotFoundError:
                        pass
        return found

    def new_files(self):
        return self.files() - self.files_before

    def contents_containing(self, secret):
        hits = []
        for path in self.files():
            try:
                if os.path.isfile(path) and not os.path.islink(path) and secret.encode() in Path(path).read_bytes():
                    hits.append(path)
            except OSError:
                pass
        return hits

    def forward_directories(self):
        """The user's `kcauth ssh` directories on the remote host (mktemp's, in /tmp)."""
        return sorted(os.path.basename(p) for p in owned_by(self.uid, "/tmp") if os.path.basename(p).startswith("kcauth-forward."))


def laptop_forward_base():
    """Where the laptop (root) keeps its forwards' directories: ContractPaths.sharedDirectory."""
    run = "/run/user/0"
    try:
        info = os.lstat(run)
        if os.path.isdir(run) and info.st_uid == 0 and info.st_mode & 0o077 == 0:
            return run + "/kcauth-locks"
    except FileNotFoundError:
        pass
    return pwd.getpwuid(0).pw_dir + "/.local/state/kcauth/locks"


def laptop_forwards(matching):
    """The laptop's forward directories whose record mentions `matching` (a destination with
    this run's user, or `pid=N`): those of this test, not of other suites on this machine."""
    base = laptop_forward_base()
    found = []
    try:
        names = os.listdir(base)
    except FileNotFoundError:
        return found
    for name in names:
        if not name.startswith("forward-"):
            continue
        try:
            record = Path(base, name, "forward").read_text()
        except OSError:
            continue
        if matching in record:
            found.append(os.path.join(base, name))
    return sorted(found)
