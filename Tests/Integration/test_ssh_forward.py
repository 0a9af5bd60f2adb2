"""`kcauth ssh` against the real OpenSSH from Debian (sshremote.py: a private `sshd -D` on 127.0.0.1
and a test user made for this run). The laptop is this (root) test process with a file-stored
session; the remote host is the same machine as the test user, with the built binaries in a
directory it can read.
"""

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from helpers import login, set_setting
from kcauth import BINARY
from provider import pid_alive
from sshremote import Remote, laptop_forwards
from test_json_contract import check

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or not os.path.exists("/usr/sbin/sshd") or not shutil.which("ssh"),
    reason="needs root, openssh-server and openssh-client")


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


# Asks the forwarded socket directly and prints the raw answer line: what crosses, as it crosses.
RAW_PROBE = """import os, socket
s = socket.socket(socket.AF_UNIX)
s.connect(os.environ["LC_KCAUTH_FORWARD"])
s.sendall(b'{"profile":null,"min_valid":30,"id_token":true}\\n')
print(s.makefile().readline().strip())
"""


def test_token_over_the_forward_and_nothing_stays_on_the_remote_host(kcauth, provider, remote):
    login(kcauth, provider, "--storage", "file")
    r = kcauth_ssh(kcauth, remote, remote.kcauth, "token")
    assert r.returncode == 0, r
    token = r.stdout.strip()
    assert token == state(kcauth)["access_token"] or accepted_by_provider(provider, token)
    assert accepted_by_provider(provider, token)

    # The log on the laptop names the answer, never the token.
    log = forward_log(kcauth)
    assert re.search(rf"destination={remote.destination} profile=default scope=- answer=access_token\n", log), log
    assert token not in log
    assert oct(os.stat(kcauth.state_dir / "forward.log").st_mode & 0o777) == "0o600"

    # Nothing the remote side holds names the token; its forward directory and socket are gone,
    # and so are the laptop's.
    assert remote.contents_containing(token) == []
    assert remote.new_files() == set(), remote.new_files()
    assert remote.forward_directories() == []
    assert laptop_forwards(remote.destination) == []


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
        assert r.returncode == 1 and "can be written by others" in r.stderr, r
        # Nothing that would store a session runs in a forwarded one.
        r = kcauth("login", "--issuer", "http://127.0.0.1:1/realms/x", "--client-id", "x", env={"LC_KCAUTH_FORWARD": planted})
        assert r.returncode == 2 and "the session is the laptop's" in r.stderr, r
        assert not kcauth.config_file.exists()
    finally:
        s.close()
        os.unlink(planted)


def start_kcauth_ssh(kcauth, remote, command, kcauth_flags=()):
    """`kcauth ssh` running `command` in the background, once its remote directory exists."""
    proc = subprocess.Popen([str(BINARY), "ssh", *kcauth_flags, *remote.ssh_options, remote.destination, command], env=kcauth.env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while not remote.forward_directories() or session_ssh(proc.pid, timeout=0) is None:
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.05)
    return proc


def stop(proc):
    if proc.poll() is None:
        proc.kill()
        proc.wait()


def session_ssh(parent, timeout=10.0):
    """The pid of the session's ssh: the child of `kcauth ssh` that sends LC_KCAUTH_FORWARD."""
    deadline = time.monotonic() + timeout
    while True:
        for pid, argv in processes():
            if parent_of(pid) == parent and b"SendEnv=LC_KCAUTH_FORWARD" in argv and b"ControlMaster=no" in argv:
                return pid
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.1)


def master_ssh(forward_directory):
    """The pid of the ssh that holds the connection: the control master of a forward's directory
    (in the background it names itself `ssh: PATH [mux]`)."""
    control = f"{forward_directory}/control".encode()
    for pid, argv in processes():
        line = b" ".join(argv)
        if control in line and (b"[mux]" in line or b"ControlMaster=yes" in argv):
            return pid
    return None


def processes():
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                yield int(pid), Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            except OSError:
                pass


def parent_of(pid):
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def wait_until(condition, timeout, what):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_ssh_killed_ends_the_agent_and_removes_the_sockets(kcauth, provider, remote):
    login(kcauth, provider, "--storage", "file")
    proc = start_kcauth_ssh(kcauth, remote, "sleep 60")
    try:
        session = session_ssh(proc.pid)
        assert session, "no session ssh under kcauth ssh"
        status = kcauth("status")
        assert remote.destination in status.stdout, status
        os.kill(session, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        stop(proc)
    assert not pid_alive(proc.pid)
    assert remote.forward_directories() == []
    assert laptop_forwards(remote.destination) == []
    assert remote.destination not in kcauth("status").stdout


def test_a_dropped_connection_ends_kcauth_within_3_s_and_the_remote_directory_goes(kcauth, provider, remote):
    """The ssh that holds the connection (the control master) dies, as when the network goes:
    kcauth ends at once with its children and sockets, after one short try at the remote clean-up
    (over a new connection, which the test's keys allow)."""
    login(kcauth, provider, "--storage", "file")
    proc = start_kcauth_ssh(kcauth, remote, "sleep 60")
    try:
        [directory] = laptop_forwards(remote.destination)
        master, session = master_ssh(directory), session_ssh(proc.pid)
        assert master and session
        os.kill(master, signal.SIGKILL)
        dropped = time.monotonic()
        proc.wait(timeout=30)
        ended = time.monotonic() - dropped
    finally:
        stop(proc)
    assert ended < 3, f"kcauth ended {ended:.1f} s after its connection"
    assert not pid_alive(session) and not [pid for pid, _ in processes() if parent_of(pid) == proc.pid]
    assert laptop_forwards(remote.destination) == [] and not os.path.exists(directory)
    wait_until(lambda: remote.forward_directories() == [], 5, f"remote directory left: {remote.forward_directories()}")


def give_own_session(kcauth, remote):
    """The remote user gets a session of its own (a copy of the laptop's file-stored one): what
    `kcauth token` there answers with when no forward is in force."""
    for source, target in ((kcauth.config_file, remote.home / ".config" / "kcauth" / "config"),
                           (kcauth.state_dir / "default.json", remote.home / ".local" / "state" / "kcauth" / "default.json")):
        subprocess.run(["su", "-s", "/bin/sh", "-c", f"mkdir -p -m 700 {target.parent}", remote.name], check=True)
        shutil.copy(source, target)
        os.chown(target, remote.uid, remote.user.pw_gid)
        os.chmod(target, 0o600)


def kill_kcauth_ssh(kcauth, remote):
    """Starts `kcauth ssh`, then SIGKILLs it and its two ssh (the terminal closed); its laptop
    directory. Waits until the remote sshd has seen the connection end."""
    proc = start_kcauth_ssh(kcauth, remote, "sleep 60")
    [directory] = [d for d in laptop_forwards(remote.destination) if f"pid={proc.pid}\n" in Path(d, "forward").read_text()]
    master, session = master_ssh(directory), session_ssh(proc.pid)
    assert master and session
    proc.kill()
    proc.wait()
    for pid in (session, master):
        os.kill(pid, signal.SIGKILL)
    wait_until(lambda: not remote_processes(remote, b"sshd"), 10, "the remote sshd sessions end with their connections")
    return directory


def test_a_killed_kcauth_leaves_what_the_docs_say_until_the_next_connection_or_the_remote_kcauth(kcauth, provider, remote):
    """SIGKILL to `kcauth ssh` and to its ssh processes: the laptop's forward directory and the
    remote one stay, dead (`status` does not list them). A remote kcauth that is handed the dead
    socket ignores it with one line and removes it; the next `kcauth ssh` removes the rest."""
    login(kcauth, provider, "--storage", "file")
    give_own_session(kcauth, remote)
    first = kill_kcauth_ssh(kcauth, remote)
    [leftover] = remote.forward_directories()
    assert os.path.isdir(first) and remote.destination not in kcauth("status").stdout

    # A remote kcauth that finds a dead forward of its user (a shell that outlived its
    # connection, in tmux say) uses this host's own sessions, says so once, and removes it.
    r = remote.ssh(remote.kcauth, "token", options=("-o", f"SetEnv=LC_KCAUTH_FORWARD=/tmp/{leftover}/agent.sock"))
    assert r.returncode == 0 and r.stdout.strip() == state(kcauth)["access_token"], r
    assert r.stderr.count("ignoring LC_KCAUTH_FORWARD") == 1 and "its ssh connection has ended" in r.stderr, r
    assert remote.forward_directories() == []

    # The next `kcauth ssh` removes the laptop's dead directory...
    second = kill_kcauth_ssh(kcauth, remote)
    assert not os.path.exists(first) and os.path.isdir(second)
    assert len(remote.forward_directories()) == 1
    # ...and the next connection to the host the remote one.
    r = kcauth_ssh(kcauth, remote, "true")
    assert r.returncode == 0, r
    assert remote.forward_directories() == []
    assert laptop_forwards(remote.destination) == []


def remote_processes(remote, name):
    return [pid for pid, argv in processes() if argv and name in argv[0] and remote.name.encode() in b" ".join(argv)]


def test_a_forward_carried_to_a_second_hop_is_ignored_there(kcauth, provider, remote, tmp_path):
    """Debian's stock `SendEnv LC_*` carries LC_KCAUTH_FORWARD from a `kcauth ssh` session to the
    next host. There the socket is not the user's (or not there at all): ignored with one line;
    `login` and the user's own sessions work."""
    login(kcauth, provider, "--storage", "file")
    (tmp_path / "second").mkdir()
    second = Remote(tmp_path / "second")
    try:
        give_own_session(kcauth, second)
        # The first host's user may reach the second host's (its key, as the user's own).
        hop_key = remote.home / ".ssh" / "hop_key"
        shutil.copy(tmp_path / "second" / "id_ed25519", hop_key)
        os.chown(hop_key, remote.uid, remote.user.pw_gid)
        os.chmod(hop_key, 0o600)
        hop = " ".join(["ssh", "-F", "/dev/null", "-i", str(hop_key), "-p", str(second.port), "-o", "IdentitiesOnly=yes",
                        "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
                        "-o", "LogLevel=ERROR", "-o", "SendEnv=LANG", "-o", "SendEnv=LC_*", second.destination])
        k = second.kcauth
        script = (f'echo "first=$LC_KCAUTH_FORWARD"; {hop} \'echo "second=$LC_KCAUTH_FORWARD"; {k} token; echo token=$?; '
                  f'{k} login --profile new --issuer http://127.0.0.1:1/realms/x --client-id x --storage file --timeout 5; '
                  f'echo login=$?\'')
        r = kcauth_ssh(kcauth, remote, script)
        assert r.returncode == 0, r
        first = re.search(r"^first=(/tmp/kcauth-forward\.\w+/agent\.sock)$", r.stdout, re.M).group(1)
        assert f"second={first}" in r.stdout, r.stdout
        # There: its own session answers, and login runs (to a provider that is not there).
        assert f"{state(kcauth)['access_token']}\ntoken=0" in r.stdout and "login=1" in r.stdout, r
        assert r.stderr.count(f"ignoring LC_KCAUTH_FORWARD={first}: the socket is not yours") == 2, r.stderr
        assert "the session is the laptop's" not in r.stderr and "reconnect" not in r.stderr, r.stderr

        # The laptop is a host too: its own session answers, whatever the variable names.
        for carried in (first, "/tmp/kcauth-forward.nowhere/agent.sock"):
            r = kcauth("token", env={"LC_KCAUTH_FORWARD": carried})
            assert r.returncode == 0 and r.stdout.strip() == state(kcauth)["access_token"], r
            assert r.stderr.count("ignoring LC_KCAUTH_FORWARD") == 1, r.stderr
        r = kcauth("login", env={"LC_KCAUTH_FORWARD": "/tmp/kcauth-forward.nowhere/agent.sock"})
        assert r.returncode == 0 and "Already logged in" in r.stderr, r
    finally:
        second.stop()


def test_status_and_whoami_on_the_remote_side_describe_the_forward(kcauth, provider, remote):
    login(kcauth, provider, "--storage", "file")
    login(kcauth, provider, "--storage", "file", "--profile", "ops")
    k = remote.kcauth
    script = (f"{k} status; echo status=$?; {k} status -o json; {k} whoami; echo whoami=$?; {k} whoami -o json; "
              f"{k} status --profile nosuch; echo other=$?; {k} whoami --userinfo; echo userinfo=$?")
    r = kcauth_ssh(kcauth, remote, script, kcauth_flags=("--profile", "default", "--profile", "ops", "--scope", "openid"))
    assert r.returncode == 0, r
    out = r.stdout
    text, rest = out.split("status=")
    assert f"tokens come from the laptop's `kcauth ssh {remote.destination}`" in text, text
    assert "Profiles lent: default (selected), ops" in text and "Scope: openid" in text
    assert "status=0" in out and "whoami=0" in out
    documents = [json.loads(d) for d in re.findall(r"^\{.*?^\}", rest, re.M | re.S)]
    status, whoami = documents
    check(status, "kcauth status -o json")
    check(whoami, "kcauth whoami -o json in a forwarded session")
    assert set(status["forwarded"]) == set(whoami["forwarded"]) == {"destination", "profiles", "scope", "socket"}
    assert status["forwarded"]["destination"] == remote.destination and status["forwarded"]["profiles"] == ["default", "ops"]
    assert status["forwarded"]["scope"] == "openid" and status["profiles"] == [] and status["selected_profile"] == "default"
    # whoami: the identity in the token being lent (the test provider's user), and the forward.
    assert whoami["preferred_username"] == "alice" and whoami["profile"] == "default" and whoami["storage"] == "forwarded"
    assert whoami["scopes"] == ["openid"] and whoami["forwarded"]["destination"] == remote.destination
    assert "Username       alice" in out or re.search(r"^Username +alice$", out, re.M), out
    # A profile that is not lent, and --userinfo (the session is the laptop's): exit 2.
    assert "other=2" in out and "userinfo=2" in out
    assert "is not lent to this host" in out and "run `kcauth whoami --userinfo` on the laptop" in r.stderr
    # Nothing about this host's keyring: it is not looked at.
    assert "keyring" not in r.stderr.lower() and "Secret Service" not in r.stderr
    assert "answer=description" in forward_log(kcauth)


def test_a_silent_client_never_delays_a_real_request(kcauth, provider):
    """Clients that connect to the agent and say nothing hold nobody up."""
    login(kcauth, provider, "--storage", "file")
    agent = subprocess.Popen([str(BINARY), "forward-agent"], env=kcauth.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    silent = []
    try:
        path = agent.stdout.readline().strip()
        for _ in range(3):
            s = socket.socket(socket.AF_UNIX)
            s.connect(path)
            silent.append(s)
        time.sleep(0.2)
        started = time.monotonic()
        with socket.socket(socket.AF_UNIX) as asking:
            asking.settimeout(10)
            asking.connect(path)
            asking.sendall(b'{"profile":null,"min_valid":30,"id_token":false}\n')
            answer = json.loads(asking.makefile().readline())
        took = time.monotonic() - started
        assert answer["access_token"] == state(kcauth)["access_token"]
        assert took < 1.0, f"answered after {took:.1f} s with silent clients connected"
        agent.send_signal(signal.SIGTERM)
        assert agent.wait(timeout=10) == 0, agent.stderr.read()
    finally:
        for s in silent:
            s.close()
        stop(agent)
    assert not os.path.exists(path)


def test_min_valid_is_capped_and_forward_refreshes_are_rate_limited(kcauth, start_provider, remote):
    """Counted at the real provider: a remote host asking for a day's validity of 60-second
    tokens makes the laptop refresh at most once per 30 s, and each answer is the freshest token."""
    provider = start_provider(access_token_lifetime=60)
    login(kcauth, provider, "--storage", "file")
    signed_in = time.monotonic()
    k = remote.kcauth
    three = f"for i in 1 2 3; do {k} token --min-valid 86400 >/dev/null || exit 9; done"

    # 60 s tokens, just issued: a fresh one cannot give more, so nothing is refreshed.
    r = kcauth_ssh(kcauth, remote, three)
    assert r.returncode == 0, r
    assert provider.token_requests("refresh_token") == []
    assert forward_log(kcauth).count("answer=access_token min_valid=capped\n") == 3, forward_log(kcauth)

    # A narrower scope is a refresh of its own: once, then its token serves.
    r = kcauth_ssh(kcauth, remote, three, kcauth_flags=("--scope", "openid"))
    assert r.returncode == 0, r
    assert len(provider.token_requests("refresh_token")) == 1
    assert forward_log(kcauth).count("scope=openid answer=access_token refresh=done\n") == 1

    # Past the cap (45 s left of 60, less than 30 s after the last refresh) a refresh is due but
    # held back: the held token is the freshest there is.
    time.sleep(max(0, 18 - (time.monotonic() - signed_in)))
    r = kcauth_ssh(kcauth, remote, f"{k} token --min-valid 86400")
    assert r.returncode == 0, r
    log = forward_log(kcauth)
    refreshes = len(provider.token_requests("refresh_token"))
    if "refresh=limited" not in log.splitlines()[-1]:
        pytest.fail(f"not held back ({time.monotonic() - signed_in:.0f} s after sign-in): {log}")
    assert refreshes == 1
    assert r.stdout.strip() == state(kcauth)["access_token"]


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
    proc = start_kcauth_ssh(kcauth, remote, "sleep 60")
    try:
        session = session_ssh(proc.pid)
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    finally:
        stop(proc)
    assert proc.returncode == 255 or proc.returncode == 128 + signal.SIGTERM, proc.returncode
    assert session and not pid_alive(session)
    assert remote.forward_directories() == []
    assert laptop_forwards(remote.destination) == []


def test_forward_agent_with_plain_ssh_and_ssh_config_lines(kcauth, provider, remote):
    """`kcauth forward-agent` on its own, and plain ssh with the lines docs/integrations.md gives."""
    login(kcauth, provider, "--storage", "file")
    # The one-time set-up on the remote host: a directory of the user's, closed to others.
    remote_dir = remote.home / ".kcauth-forward"
    subprocess.run(["su", "-s", "/bin/sh", "-c", f"mkdir -m 700 {remote_dir}", remote.name], check=True)
    remote_socket = f"{remote_dir}/agent.sock"
    agent = subprocess.Popen([str(BINARY), "forward-agent"], env=kcauth.env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        path = agent.stdout.readline().strip()
        assert path.endswith("/agent.sock") and stat_mode(path) == 0o600, (path, agent.poll())
        assert stat_mode(os.path.dirname(path)) == 0o700
        assert laptop_forwards(f"pid={agent.pid}\n") == [os.path.dirname(path)]
        assert "plain ssh" in kcauth("status").stdout

        def plain_ssh(*command):
            return remote.ssh(*command, options=("-o", f"RemoteForward={remote_socket} {path}",
                                                 "-o", f"SetEnv=LC_KCAUTH_FORWARD={remote_socket}", "-o", "ExitOnForwardFailure=yes"))

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
        stop(agent)
        shutil.rmtree(remote_dir, ignore_errors=True)
    assert not os.path.exists(path) and not os.path.exists(os.path.dirname(path))
    assert laptop_forwards(f"pid={agent.pid}\n") == []
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
