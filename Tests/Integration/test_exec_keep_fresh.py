"""`kcauth exec --keep-fresh`: kcauth stays the command's parent and keeps the
access token in a 0600 file ($KCAUTH_TOKEN_FILE), rewritten before it expires and removed when
the command ends; signals and exit status as `exec`. Against the test provider with 5-second
access tokens, so a 14-second command sees at least three renewals."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from helpers import login
from kcauth import BINARY

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
    provider = start_provider(access_token_lifetime=5)
    login(kcauth, provider, "--storage", "file")
    reader = tmp_path / "reader.py"
    reader.write_text(READER)
    r = kcauth("exec", "--keep-fresh", "--", sys.executable, str(reader), provider.userinfo_endpoint, "14", timeout=60)
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
