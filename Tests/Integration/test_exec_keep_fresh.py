"""`kcauth exec --keep-fresh`: kcauth stays the command's parent and keeps the
access token in a 0600 file ($KCAUTH_TOKEN_FILE), rewritten before it expires and removed when
the command ends; signals and exit status as `exec`. Against the test provider with 5-second
access tokens, so a 14-second command sees at least three renewals."""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from helpers import login
from kcauth import BINARY
from provider import pid_alive

# Reads the token file twice a second and checks each token it sees with the provider's userinfo
# endpoint at that moment; prints what it saw, then exits 7.
READER = r"""
import json, os, stat, sys, time, urllib.request
path = os.environ["KCAUTH_TOKEN_FILE"]
info = os.stat(path)
directory = os.stat(os.path.dirname(path))
seen, rejected = [], 0
end = time.monotonic() + float(sys.argv[2])
while time.monotonic() < end:
    token = open(path).read()
    if not seen or seen[-1] != token:
        seen.append(token)
    req = urllib.request.Request(sys.argv[1], headers={"Authorization": "Bearer " + token})
    try:
        urllib.request.urlopen(req, timeout=5).read()
    except Exception:
        rejected += 1
    time.sleep(0.5)
print(json.dumps({"path": path, "mode": oct(info.st_mode & 0o777), "dir_mode": oct(directory.st_mode & 0o777),
                  "tokens": seen, "rejected": rejected, "env_has_token": any(t in os.environ.values() for t in seen)}))
sys.exit(7)
"""


def test_keep_fresh_renews_the_file_across_three_expiries(kcauth, start_provider, tmp_path):
    # Tokens of 8 s are renewed when a third of their life is left (2.7 s): room for a refresh
    # of a debug build on a busy machine; renewals come about every 5.3 s.
    provider = start_provider(access_token_lifetime=8)
    login(kcauth, provider, "--storage", "file")
    reader = tmp_path / "reader.py"
    reader.write_text(READER)
    r = kcauth("exec", "--keep-fresh", "--", sys.executable, str(reader), provider.userinfo_endpoint, "20", timeout=60)
    assert r.returncode == 7, r
    seen = json.loads(r.stdout)
    assert len(seen["tokens"]) >= 4, seen  # the first token and three renewals
    assert seen["rejected"] == 0, seen
    assert seen["mode"] == "0o600" and seen["dir_mode"] == "0o700", seen
    assert not seen["env_has_token"]
    assert not os.path.exists(seen["path"]) and not os.path.exists(os.path.dirname(seen["path"]))
    for token in seen["tokens"]:
        assert token not in r.stderr


def test_keep_fresh_with_a_token_file_and_a_signal(kcauth, provider, tmp_path):
    login(kcauth, provider, "--storage", "file")
    path = tmp_path / "tf" / "token"
    path.parent.mkdir()
    marker = tmp_path / "got-term"
    script = f"trap 'touch {marker}; exit 3' TERM; while :; do sleep 0.1; done"
    proc = subprocess.Popen([str(BINARY), "exec", "--keep-fresh", "--token-file", str(path), "--", "sh", "-c", script],
                            env=kcauth.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 20
        while not path.exists():
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.05)
        assert oct(path.stat().st_mode & 0o777) == "0o600"
        assert path.read_text().count(".") == 2  # a JWT, no newline
        time.sleep(0.3)
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert marker.exists()  # the command got the SIGTERM sent to kcauth
    assert proc.returncode == 3, proc.communicate()
    assert not path.exists()


def test_keep_fresh_dies_of_the_commands_signal_and_exits_4_without_a_session(kcauth, provider, tmp_path):
    login(kcauth, provider, "--storage", "file")
    r = kcauth("exec", "--keep-fresh", "--", "sh", "-c", 'test -s "$KCAUTH_TOKEN_FILE" && kill -KILL $$')
    assert r.returncode == -signal.SIGKILL, r
    assert kcauth("exec", "--keep-fresh", "--env", "X", "--", "true").returncode == 2
    assert kcauth("logout").returncode == 0
    r = kcauth("exec", "--keep-fresh", "--", "sh", "-c", "echo ran")
    assert r.returncode == 4 and "ran" not in r.stdout, r


# The command notes its pid, then waits; SIGTERM makes it note that and exit 3.
TRAPPING = r"""
import os, signal, sys, time
marker = sys.argv[1]
signal.signal(signal.SIGTERM, lambda *a: (open(marker + ".term", "w").close(), sys.exit(3)))
open(marker + ".tmp", "w").write(str(os.getpid()))
os.rename(marker + ".tmp", marker)
while True:
    time.sleep(0.05)
"""


def blocked_signals(pid, thread):
    """The blocked-signal mask of one of `pid`'s threads (/proc's SigBlk), as a set of numbers."""
    for line in Path(f"/proc/{pid}/task/{thread}/status").read_text().splitlines():
        if line.startswith("SigBlk:"):
            mask = int(line.split()[1], 16)
            return {n for n in range(1, 65) if mask & (1 << (n - 1))}
    return set()


@pytest.mark.parametrize("storage", ["keyring", "file"])
def test_a_supervisors_sigterm_reaches_the_command_whatever_threads_kcauth_has(kcauth, provider, tmp_path, storage):
    """With the keyring store, libsecret's GDBus worker runs in kcauth by the time the command
    starts: a SIGTERM sent to kcauth may be delivered to it. It must still reach the command."""
    login(kcauth, provider, "--storage", storage)
    script = tmp_path / "trapping.py"
    script.write_text(TRAPPING)
    marker = tmp_path / "child"
    errors = tmp_path / "stderr"
    child = None
    with open(errors, "w") as err:  # a file, not a pipe: an orphaned command would hold a pipe open
        proc = subprocess.Popen([str(BINARY), "exec", "--keep-fresh", "--", sys.executable, str(script), str(marker)],
                                env={**kcauth.env, "KCAUTH_TOKEN_CACHE": "off"},  # the store is read: libsecret's threads start
                                stdout=subprocess.DEVNULL, stderr=err)
    try:
        deadline = time.monotonic() + 30
        while not marker.exists():
            assert proc.poll() is None and time.monotonic() < deadline, errors.read_text()
            time.sleep(0.05)
        child = int(marker.read_text())
        token_file = Path(f"/proc/{child}/environ").read_bytes().split(b"KCAUTH_TOKEN_FILE=")[1].split(b"\0")[0].decode()
        assert os.path.exists(token_file)
        threads = os.listdir(f"/proc/{proc.pid}/task")
        if storage == "keyring":
            assert len(threads) > 1, "libsecret's threads run in kcauth"
        # sigwaitinfo(2) unblocks what it waits for while it waits: kcauth's own taker shows so.
        unblocked = [Path(f"/proc/{proc.pid}/task/{t}/comm").read_text().strip()
                     for t in threads if signal.SIGTERM not in blocked_signals(proc.pid, t)]
        assert blocked_signals(child, child) == set(), "the command starts with an empty signal mask"
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        orphan = child is not None and pid_alive(child)
        if orphan:
            os.kill(child, signal.SIGKILL)
    assert proc.returncode == 3, (proc.returncode, errors.read_text())
    assert unblocked == ["kcauth-signals"], "every other thread blocks SIGTERM: only kcauth's own takes it"
    assert Path(str(marker) + ".term").exists(), "the command got the SIGTERM"
    assert not orphan, "no orphan"
    assert not os.path.exists(token_file) and not os.path.exists(os.path.dirname(token_file))


@pytest.mark.parametrize("what", ["file", "link", "dangling-link", "directory"])
def test_a_token_file_path_where_something_is_is_refused_and_left_alone(kcauth, provider, tmp_path, what):
    login(kcauth, provider, "--storage", "file")
    path, target = tmp_path / "token", tmp_path / "target"
    if what == "file":
        path.write_text("the user's own")
    elif what == "link":
        target.write_text("the link's target")
        path.symlink_to(target)
    elif what == "dangling-link":
        path.symlink_to(target)
    else:
        path.mkdir()
    r = kcauth("exec", "--keep-fresh", "--token-file", str(path), "--", "sh", "-c", "echo ran")
    assert r.returncode == 2 and "ran" not in r.stdout, r
    assert r.stderr.startswith(f"error: {path} exists; kcauth keeps the token only in a new file of its own"), r
    assert r.stderr.count("\n") == 1
    if what == "file":
        assert path.read_text() == "the user's own"
    elif what == "link":
        assert path.is_symlink() and target.read_text() == "the link's target"
    elif what == "dangling-link":
        assert path.is_symlink() and not target.exists(), "the link was not followed"
    else:
        assert path.is_dir()


def test_a_relative_token_file_is_made_absolute_from_the_working_directory_before_the_command_starts(kcauth, provider, tmp_path):
    login(kcauth, provider, "--storage", "file")
    work = tmp_path / "work"
    (work / "sub").mkdir(parents=True)
    # COMMAND changes directory first: the path it was given still names the file.
    script = 'cd / && printf "%s\\n" "$KCAUTH_TOKEN_FILE" && test -s "$KCAUTH_TOKEN_FILE"'
    r = subprocess.run([str(BINARY), "exec", "--keep-fresh", "--token-file", "sub/token", "--", "sh", "-c", script],
                       env=kcauth.env, cwd=work, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r
    assert r.stdout.strip() == str(work / "sub" / "token")
    assert not (work / "sub" / "token").exists()


def token_path_of(kcauth, env):
    r = kcauth("exec", "--keep-fresh", "--", "sh", "-c", 'test -s "$KCAUTH_TOKEN_FILE" && echo "$KCAUTH_TOKEN_FILE"', env=env)
    assert r.returncode == 0, r
    path = Path(r.stdout.strip())
    assert not path.exists() and not path.parent.exists()
    return path


def test_token_files_live_on_memory_backed_storage_only(kcauth, provider, tmp_path):
    login(kcauth, provider, "--storage", "file")
    # No runtime directory, or one that does not exist: a private directory on /dev/shm.
    for runtime in (None, str(tmp_path / "no-such-runtime-dir")):
        env = {**kcauth.env, "XDG_RUNTIME_DIR": runtime} if runtime else {k: v for k, v in kcauth.env.items() if k != "XDG_RUNTIME_DIR"}
        saved, kcauth.env = kcauth.env, env
        try:
            path = token_path_of(kcauth, {})
        finally:
            kcauth.env = saved
        if not os.path.isdir(f"/run/user/{os.geteuid()}"):
            assert str(path.parent).startswith("/dev/shm/kcauth-token-"), path
        assert path.name == "token"
    # A runtime directory on a tmpfs, private: there.
    runtime = Path(tempfile.mkdtemp(prefix="kc-runtime-", dir="/dev/shm"))
    try:
        path = token_path_of(kcauth, {"XDG_RUNTIME_DIR": str(runtime)})
        assert path.parent.parent == runtime and path.parent.name.startswith("kcauth-token-"), path
        # The keyring fixture's runtime directory is on /tmp, a disk here: not there.
        if subprocess.run(["stat", "-f", "-c", "%T", "/tmp"], capture_output=True, text=True).stdout.strip() != "tmpfs":
            path = token_path_of(kcauth, {})
            assert not str(path).startswith(kcauth.env["XDG_RUNTIME_DIR"]) and not str(path).startswith("/tmp/"), path
    finally:
        shutil.rmtree(runtime, ignore_errors=True)
    assert not (kcauth.state_dir / "locks").exists() or not any((kcauth.state_dir / "locks").glob("token-*"))


def test_the_token_directory_of_a_kcauth_killed_by_sigkill_goes_at_the_next_run(kcauth, provider, tmp_path):
    login(kcauth, provider, "--storage", "file")
    marker = tmp_path / "pid"
    proc = subprocess.Popen([str(BINARY), "exec", "--keep-fresh", "--", "sh", "-c", f'echo $$ > {marker}.tmp && mv {marker}.tmp {marker}; exec sleep 60'],
                            env=kcauth.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    child = None
    try:
        deadline = time.monotonic() + 30
        while not marker.exists():
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        child = int(marker.read_text())
        token_file = Path(Path(f"/proc/{child}/environ").read_bytes().split(b"KCAUTH_TOKEN_FILE=")[1].split(b"\0")[0].decode())
        proc.kill()
        proc.wait()
        assert token_file.exists(), "a SIGKILL leaves the token file (on memory-backed storage)"
        assert pid_alive(child), "and the command, which kcauth could not tell"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if child and pid_alive(child):
            os.kill(child, signal.SIGKILL)
    r = kcauth("exec", "--keep-fresh", "--", "true")
    assert r.returncode == 0, r
    assert not token_file.exists() and not token_file.parent.exists(), "the next run removed the leftover"


@pytest.mark.parametrize("keep_fresh", [False, True])
def test_the_command_starts_with_an_empty_signal_mask_and_default_dispositions(kcauth, provider, keep_fresh):
    """kcauth-full blocks the signals it takes in every thread; the command must not inherit that."""
    login(kcauth, provider, "--storage", "keyring")
    flags = ["--keep-fresh"] if keep_fresh else []
    # The front serves a warm plain `exec` itself: the cache off sends it to the full program.
    r = kcauth("exec", *flags, "--", "grep", "-E", "^Sig(Blk|Ign):", "/proc/self/status", env={"KCAUTH_TOKEN_CACHE": "off"})
    assert r.returncode == 0, r
    # Signals 1-31: glibc's posix_spawn leaves its internal real-time signals 32 and 33 ignored.
    masks = {line.split(":")[0]: int(line.split()[1], 16) & 0x7FFFFFFF for line in r.stdout.splitlines()}
    assert masks == {"SigBlk": 0, "SigIgn": 0}, r.stdout
