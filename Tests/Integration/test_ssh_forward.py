"""`kcauth ssh` against the real OpenSSH from Debian: a private `sshd -D` on 127.0.0.1
with its own config (Debian's stock defaults that matter: `AcceptEnv LANG LC_*`, UsePAM,
stream-local forwarding allowed) and host key, a test user with key authentication, and `ssh`
as the client. The laptop is this (root) test process with a file-stored session; the remote
host is the same machine as the test user, with the built binaries in a directory it can read.
"""

import json
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

from helpers import login, set_setting
from kcauth import BINARY, FULL_BINARY
from provider import pid_alive

REMOTE_USER = "kcauth-ssh-test"

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or not os.path.exists("/usr/sbin/sshd") or not shutil.which("ssh"),
    reason="needs root, openssh-server and openssh-client")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Remote:
    """The sshd and the test user; `ssh_options` reach it with `kcauth ssh` or plain ssh."""

    def __init__(self, tmp_path):
        self.tmp = Path(tmp_path)
        if subprocess.run(["id", REMOTE_USER], capture_output=True).returncode != 0:
            subprocess.run(["useradd", "--create-home", "--shell", "/bin/sh", REMOTE_USER], check=True)
        self.user = pwd.getpwnam(REMOTE_USER)
        self.home = Path(self.user.pw_dir)
        self.remote_files_before = self.files()
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
            os.chown(p, self.user.pw_uid, self.user.pw_gid)
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
        self.destination = f"{REMOTE_USER}@127.0.0.1"
        self.kcauth = f"{self.bin}/kcauth"

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.bin, ignore_errors=True)

    def files(self):
        """Every file the test user can have written: its home and its entries in /tmp and /run/user."""
        found = set()
        for top in (str(self.home), "/tmp", "/var/tmp", f"/run/user/{self.user.pw_uid}", "/dev/shm"):
            for root, dirs, files in os.walk(top):
                for name in files + dirs:
                    path = os.path.join(root, name)
                    try:
                        if os.lstat(path).st_uid == self.user.pw_uid:
                            found.add(path)
                    except FileNotFoundError:
                        pass
        return found

    def new_files(self):
        return self.files() - self.remote_files_before

    def contents_containing(self, secret):
        hits = []
        for path in self.files():
            try:
                if os.path.isfile(path) and not os.path.islink(path) and secret.encode() in Path(path).read_bytes():
                    hits.append(path)
            except OSError:
                pass
        return hits


@pytest.fixture
def remote(tmp_path):
    r = Remote(tmp_path)
    yield r
    r.stop()


def kcauth_ssh(kcauth, remote, *args, timeout=60, kcauth_flags=()):
    return kcauth("ssh", *kcauth_flags, *remote.ssh_options, remote.destination, *args, timeout=timeout)


def state(kcauth, profile="default"):
    return json.loads((kcauth.state_dir / f"{profile}.json").read_text())


def forward_log(kcauth):
    path = kcauth.state_dir / "forward.log"
    return path.read_text() if path.exists() else ""


def accepted_by_provider(provider, token):
    request = urllib.request.Request(provider.userinfo_endpoint, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status == 200


def forward_directories():
    return sorted(p for p in os.listdir("/tmp") if p.startswith("kcauth-forward."))


def local_forwards():
    base = "/run/user/0/kcauth-locks" if os.path.isdir("/run/user/0") else "/tmp/kcauth-0"
    return sorted(p for p in os.listdir(base) if p.startswith("forward-")) if os.path.isdir(base) else []


# Asks the forwarded socket directly and prints the raw answer line: what crosses, as it crosses.
RAW_PROBE = """import os, socket
s = socket.socket(socket.AF_UNIX)
s.connect(os.environ["LC_KCAUTH_FORWARD"])
s.sendall(b'{"profile":null,"min_valid":30,"id_token":true}\\n')
print(s.makefile().readline().strip())
"""


def test_token_over_the_forward_and_nothing_stays_on_the_remote_host(kcauth, provider, remote):
    login(kcauth, provider, "--storage", "file")
    forwards_before, local_before = forward_directories(), local_forwards()
    r = kcauth_ssh(kcauth, remote, remote.kcauth, "token")
    assert r.returncode == 0, r
    token = r.stdout.strip()
    assert token == state(kcauth)["access_token"] or accepted_by_provider(provider, token)
    assert accepted_by_provider(provider, token)

    # The log on the laptop names the answer, never the token.
    log = forward_log(kcauth)
    assert re.search(rf"destination={REMOTE_USER}@127.0.0.1 profile=default scope=- answer=access_token", log), log
    assert token not in log
    assert oct(os.stat(kcauth.state_dir / "forward.log").st_mode & 0o777) == "0o600"

    # Nothing the remote side holds names the token; its forward directory and socket are gone.
    assert remote.contents_containing(token) == []
    assert remote.new_files() - {str(remote.home / ".ssh")} == set(), remote.new_files()
    assert forward_directories() == forwards_before
    assert local_forwards() == local_before


def test_a_refresh_token_never_crosses(kcauth, provider, remote):
    login(kcauth, provider, "--storage", "file")
    session = state(kcauth)
    probe = remote.bin / "probe.py"
    probe.write_text(RAW_PROBE)
    probe.chmod(0o644)
    r = kcauth_ssh(kcauth, remote, "python3", str(probe))
    assert r.returncode == 0, r
    answer = json.loads(r.stdout)
    assert set(answer) <= {"profile", "username", "access_token", "token_type", "expires_at", "scope", "issuer", "client_id",
                           "id_token", "id_token_expires_at"}, answer
    assert answer["access_token"] and answer["id_token"]
    for secret in (session["refresh_token"],):
        assert secret not in r.stdout
    assert "refresh" not in r.stdout


def test_profiles_not_forwarded_are_refused(kcauth, provider, remote):
    login(kcauth, provider, "--storage", "file")
    login(kcauth, provider, "--storage", "file", "--profile", "other")
    r = kcauth_ssh(kcauth, remote, remote.kcauth, "token", "--profile", "other", kcauth_flags=("--profile", "default"))
    assert r.returncode == 2, r
    assert "profile 'other' is not forwarded" in r.stderr
    r = kcauth_ssh(kcauth, remote, remote.kcauth, "token", "--profile", "other",
                   kcauth_flags=("--profile", "default", "--profile", "other"))
    assert r.returncode == 0, r
    assert "profile=other scope=- answer=access_token" in forward_log(kcauth)


def test_scope_narrows_what_the_remote_host_gets(kcauth, provider, remote):
    login(kcauth, provider, "--storage", "file")
    r = kcauth_ssh(kcauth, remote, remote.kcauth, "token", "-o", "json", kcauth_flags=("--scope", "openid"))
    assert r.returncode == 0, r
    assert json.loads(r.stdout)["scope"] == "openid"
    assert "openid profile email" == " ".join(sorted(state(kcauth)["scope"].split(), key="openid profile email".split().index))
    assert "scope=openid answer=access_token" in forward_log(kcauth)


def test_signed_out_on_the_laptop_mid_session_gives_exit_4_then_a_sign_in_there_serves_again(kcauth, provider, remote):
    login(kcauth, provider, "--storage", "file")
    go, again = remote.home / "go", remote.home / "again"
    script = (f"{remote.kcauth} token >/dev/null || exit 9; while [ ! -e {go} ]; do sleep 0.1; done; "
              f"{remote.kcauth} token; echo status=$?; while [ ! -e {again} ]; do sleep 0.1; done; "
              f"{remote.kcauth} token >/dev/null; echo again=$?")
    proc = subprocess.Popen([str(BINARY), "ssh", *remote.ssh_options, remote.destination, script], env=kcauth.env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while "answer=access_token" not in forward_log(kcauth):
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.1)
        assert kcauth("logout").returncode == 0
        go.touch()
        while "error=loginRequired" not in forward_log(kcauth):
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.1)
        login(kcauth, provider, "--storage", "file")  # on the laptop, the connection still up
        again.touch()
        out, err = proc.communicate(timeout=30)
    finally:
        go.unlink(missing_ok=True)
        again.unlink(missing_ok=True)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert "status=4" in out and "again=0" in out, (out, err)
    assert "on the laptop" in err and "sign in on the laptop" in err, err


def test_the_remote_side_refuses_a_socket_in_a_directory_others_can_write(kcauth, tmp_path):
    planted = f"/tmp/kcauth-planted-{os.getpid()}.sock"
    s = socket.socket(socket.AF_UNIX)
    s.bind(planted)
    s.listen(1)
    try:
        r = kcauth("token", env={"LC_KCAUTH_FORWARD": planted})
        assert r.returncode != 0 and "can be written by others" in r.stderr, r
        r = kcauth("token", env={"LC_KCAUTH_FORWARD": str(tmp_path / "none.sock")})
        assert r.returncode != 0 and "does not exist" in r.stderr, r
        # Nothing that would store a session runs in a forwarded one.
        r = kcauth("login", "--issuer", "http://127.0.0.1:1/realms/x", "--client-id", "x", env={"LC_KCAUTH_FORWARD": planted})
        assert r.returncode == 2 and "the session is the laptop's" in r.stderr, r
        assert not kcauth.config_file.exists()
    finally:
        s.close()
        os.unlink(planted)


def test_ssh_killed_ends_the_agent_and_removes_the_sockets(kcauth, provider, remote):
    login(kcauth, provider, "--storage", "file")
    forwards_before, local_before = forward_directories(), local_forwards()
    proc = subprocess.Popen([str(BINARY), "ssh", *remote.ssh_options, remote.destination, "sleep 60"], env=kcauth.env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while len(forward_directories()) == len(forwards_before):
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.1)
        session = session_ssh(proc.pid)
        assert session, "no session ssh under kcauth ssh"
        status = kcauth("status")
        assert f"{REMOTE_USER}@127.0.0.1" in status.stdout, status
        os.kill(session, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert not pid_alive(proc.pid)
    assert forward_directories() == forwards_before
    assert local_forwards() == local_before
    assert f"{REMOTE_USER}@127.0.0.1" not in kcauth("status").stdout


def session_ssh(parent, timeout=10.0):
    """The pid of the session's ssh: the child of `kcauth ssh` that sends LC_KCAUTH_FORWARD."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                stat = Path(f"/proc/{pid}/stat").read_text()
                argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == parent and b"SendEnv=LC_KCAUTH_FORWARD" in argv:
                return int(pid)
        time.sleep(0.1)
    return None


def test_git_and_docker_helpers_and_kubectl_on_the_remote_host(kcauth, provider, remote):
    login(kcauth, provider, "--storage", "file")
    set_setting(kcauth, "hosts", "git.example.com registry.example.com:5000")
    k = remote.kcauth
    script = remote.bin / "helpers.sh"
    script.write_text(f"""set -u
printf 'protocol=https\\nhost=git.example.com\\n\\n' | {k} git-credential get; echo git=$?
printf 'protocol=https\\nhost=elsewhere.example.com\\n\\n' | {k} git-credential get; echo other=$?
echo registry.example.com:5000 | {k} docker-credential get; echo; echo docker=$?
KUBERNETES_EXEC_INFO='{{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","spec":{{"interactive":false}}}}' {k} token --id-token -o exec-credential; echo; echo kubectl=$?
""")
    script.chmod(0o644)
    r = kcauth_ssh(kcauth, remote, "sh", str(script))
    assert r.returncode == 0, r
    out = r.stdout
    git = dict(line.split("=", 1) for line in out.split("git=")[0].splitlines() if "=" in line)
    assert git["username"] == "oauth2" and accepted_by_provider(provider, git["password"]), out
    assert "git=0" in out and "other=0" in out
    assert out.split("git=0\n")[1].startswith("other=0"), out  # nothing for a host no profile lists
    docker = json.loads(out.split("other=0\n")[1].split("\ndocker=")[0])
    assert docker["Username"] == "oauth2" and accepted_by_provider(provider, docker["Secret"])
    credential = json.loads(out.split("docker=0\n")[1].split("\nkubectl=")[0])
    assert credential["kind"] == "ExecCredential" and credential["status"]["token"].count(".") == 2
    assert "kubectl=0" in out
    log = forward_log(kcauth)
    assert "refused=host-not-listed host=elsewhere.example.com" in log
    assert "answer=access_token,id_token" in log
    assert remote.contents_containing(git["password"]) == []


def test_sigterm_to_kcauth_ssh_is_passed_on_and_everything_is_removed(kcauth, provider, remote):
    login(kcauth, provider, "--storage", "file")
    forwards_before, local_before = forward_directories(), local_forwards()
    proc = subprocess.Popen([str(BINARY), "ssh", *remote.ssh_options, remote.destination, "sleep 60"], env=kcauth.env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while len(forward_directories()) == len(forwards_before):
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.1)
        session = session_ssh(proc.pid)
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 255 or proc.returncode == 128 + signal.SIGTERM, proc.returncode
    assert session and not pid_alive(session)
    assert forward_directories() == forwards_before
    assert local_forwards() == local_before


def test_forward_agent_with_plain_ssh_and_ssh_config_lines(kcauth, provider, remote):
    """`kcauth forward-agent` on its own, and plain ssh with the lines docs/integrations.md gives."""
    login(kcauth, provider, "--storage", "file")
    local_before = local_forwards()
    # The one-time set-up on the remote host: a directory of the user's, closed to others.
    remote_dir = remote.home / ".kcauth-forward"
    subprocess.run(["su", "-s", "/bin/sh", "-c", f"mkdir -m 700 {remote_dir}", REMOTE_USER], check=True)
    remote_socket = f"{remote_dir}/agent.sock"
    agent = subprocess.Popen([str(BINARY), "forward-agent"], env=kcauth.env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        path = agent.stdout.readline().strip()
        assert path.endswith("/agent.sock") and stat_mode(path) == 0o600, (path, agent.poll())
        assert stat_mode(os.path.dirname(path)) == 0o700
        assert "plain ssh" in kcauth("status").stdout

        def plain_ssh(*command):
            return subprocess.run(["ssh", *remote.ssh_options, "-o", f"RemoteForward={remote_socket} {path}",
                                   "-o", f"SetEnv=LC_KCAUTH_FORWARD={remote_socket}", "-o", "ExitOnForwardFailure=yes",
                                   remote.destination, *command],
                                  capture_output=True, text=True, timeout=60)

        r = plain_ssh(remote.kcauth, "token")
        assert r.returncode == 0, r
        token = r.stdout.strip()
        assert accepted_by_provider(provider, token)
        assert re.search(r'destination="plain ssh" profile=default scope=- answer=access_token', forward_log(kcauth))
        # A stock sshd leaves the socket behind (its StreamLocalBindUnlink is no; the client's
        # applies to local forwards only): the next connection cannot forward to that path...
        r = plain_ssh(remote.kcauth, "token")
        assert r.returncode == 255 and "forwarding failed" in r.stderr, r
        # ...until the stale socket is removed, as docs/integrations.md says.
        subprocess.run(["ssh", "-o", "ClearAllForwardings=yes", *remote.ssh_options, remote.destination,
                        "rm -f .kcauth-forward/agent.sock"], check=True, timeout=60)
        r = plain_ssh(remote.kcauth, "token", "--id-token")
        assert r.returncode == 0 and r.stdout.count(".") == 2, r
        assert remote.contents_containing(token) == []

        agent.send_signal(signal.SIGTERM)
        assert agent.wait(timeout=10) == 0, agent.stderr.read()
    finally:
        if agent.poll() is None:
            agent.kill()
            agent.wait()
        shutil.rmtree(remote_dir, ignore_errors=True)
    assert not os.path.exists(path) and not os.path.exists(os.path.dirname(path))
    assert local_forwards() == local_before
    assert "plain ssh" not in kcauth("status").stdout


def test_forward_agent_socket_option_checks_its_directory(kcauth, tmp_path):
    open_dir = tmp_path / "open"
    open_dir.mkdir(mode=0o755)
    os.chmod(open_dir, 0o755)
    r = kcauth("forward-agent", "--socket", str(open_dir / "agent.sock"))
    assert r.returncode == 2 and "chmod 700" in r.stderr, r
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    socket_path = private / "agent.sock"
    agent = subprocess.Popen([str(BINARY), "forward-agent", "--socket", str(socket_path)], env=kcauth.env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert agent.stdout.readline().strip() == str(socket_path)
        assert stat_mode(socket_path) == 0o600
        agent.send_signal(signal.SIGHUP)
        assert agent.wait(timeout=10) == 0, agent.stderr.read()
    finally:
        if agent.poll() is None:
            agent.kill()
            agent.wait()
    assert not socket_path.exists()


def stat_mode(path):
    return os.stat(path).st_mode & 0o777
